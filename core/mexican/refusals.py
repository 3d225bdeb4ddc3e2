"""Why an action of Mexican Train is not allowed now: a code for each reason, decided from a seat's view.

As the Draw family's (core/draw/refusals.py): `why_not_mexican` is the one
definition of every reason; `MexicanMatch` raises what it returns, and an
interface asks it before it sends a key's intent. `run_steps` and
`run_problem` help a client build an opening run on its own screen.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..actions import Draw, EndRun, IllegalAction, Pass, Play, Run, Train, action_text
from ..codes import Code
from ..refusals import SHARED_ENGLISH, Refusal, not_now, say
from ..tiles import Tile, tile_leaves
from .view import MexicanView


class MexicanRefusal(Code):
    """Why the rules of Mexican Train refuse an action, beyond every game's `Refusal`s.

    `IllegalAction.reason` holds one. Trains in params are written as in an
    action (``train 2``, ``mexican``); seats counted from 0.
    """

    NO_SUCH_TRAIN = "no-such-train", "train"
    #: A double is open: only a tile on the oldest open double may be laid (or, by who laid
    #: doubles this turn, another double).
    COVER_THE_DOUBLE = "cover-the-double", "train", "number"
    #: After a draw only the drawn tile may be laid.
    DRAWN_TILE_ONLY = "drawn-tile-only", "tile"
    #: The first turn starts one's own train (the drawn tile may go on the Mexican train).
    START_YOUR_TRAIN = "start-your-train"
    #: Another's train whose marker is down.
    MARKER_DOWN = "marker-down", "train"
    #: The option: the Mexican train needs one's own train started.
    MEXICAN_NEEDS_OWN = "mexican-needs-own"
    DOES_NOT_FIT = "does-not-fit", "tile", "train", "number"
    #: A double in the opening run with nothing to lay after it.
    RUN_CANNOT_GO_ON = "run-cannot-go-on", "tile"
    NO_RUN_NOW = "no-run-now"
    ONE_TILE_ONLY = "one-tile-only"
    RUN_ENDS_ON_DOUBLE = "run-ends-on-double", "tile"
    RUN_REPEATS = "run-repeats", "tile"
    DREW_ALREADY = "drew-already"
    NOT_RUNNING = "not-running"

    def sentence(self, params: Mapping[str, int | str]) -> str:
        """The English reason for programmers and logs; interfaces make their own from the code."""
        return say(MEXICAN_ENGLISH, self, params)


#: Each reason in English (every game's as core/refusals.py words them, two in Mexican Train's
#: own words); its placeholders are exactly the params it carries.
MEXICAN_ENGLISH: Mapping[Code, str] = {
    **SHARED_ENGLISH,
    Refusal.NOT_AN_ACTION: "{action} is not an action of Mexican Train",
    MexicanRefusal.NO_SUCH_TRAIN: "there is no {train} at this table",
    MexicanRefusal.COVER_THE_DOUBLE: "the double on {train} must be covered first (with a {number})",
    MexicanRefusal.DRAWN_TILE_ONLY: "after a draw only the tile drawn may be laid ({tile})",
    MexicanRefusal.START_YOUR_TRAIN: "your first turn starts your own train",
    MexicanRefusal.MARKER_DOWN: "{train} is not open to you: its marker is down",
    MexicanRefusal.MEXICAN_NEEDS_OWN: "start your own train before the Mexican train",
    MexicanRefusal.DOES_NOT_FIT: "{tile} does not match {train}, which shows {number}",
    MexicanRefusal.RUN_CANNOT_GO_ON: "the run may not end on a double, and nothing you hold follows {tile}",
    MexicanRefusal.NO_RUN_NOW: "a run is laid only as the first play of your first turn",
    MexicanRefusal.ONE_TILE_ONLY: "the opening run is one tile in this game",
    MexicanRefusal.RUN_ENDS_ON_DOUBLE: "the run may not end on a double ({tile})",
    MexicanRefusal.RUN_REPEATS: "the run names {tile} twice",
    MexicanRefusal.DREW_ALREADY: "you have drawn your tile this turn",
    Refusal.PASS_WHILE_DRAWABLE: "you cannot pass before you draw a tile",
    MexicanRefusal.NOT_RUNNING: "there is no run to end",
}

#: Every code Mexican Train refuses an action with: every game's, then its own.
CODES: tuple[Refusal | MexicanRefusal, ...] = (*Refusal, *MexicanRefusal)
#: The names of the params each reason carries (as each code declares them).
MEXICAN_PARAMS: Mapping[Code, frozenset[str]] = {reason: reason.params for reason in CODES}

_Why = tuple[Refusal | MexicanRefusal, dict[str, int | str]]


def refused(action: object, reason: Refusal | MexicanRefusal,
            params: Mapping[str, int | str] | None = None) -> IllegalAction:
    """The refusal of ``action``, its English sentence in Mexican Train's words."""
    return IllegalAction(action, reason, params, sentence=say(MEXICAN_ENGLISH, reason, params or {}))


def why_not_mexican(view: MexicanView, action: object) -> IllegalAction | None:
    """Why ``action`` is not allowed in ``view`` (the refusal to raise), or None when it is legal.

    Read from the view alone (hand, trains, markers, the open double, the
    legal steps), so a seat's interface gets the same answer as the engine.
    """
    if not isinstance(action, Play | Run | EndRun | Draw | Pass):
        return refused(action, Refusal.NOT_AN_ACTION, {"action": action_text(action)})
    if isinstance(action, Play) and not isinstance(action.place, Train):
        return refused(action, Refusal.NOT_AN_ACTION, {"action": str(action)})
    if (now := not_now(view)) is not None:
        return refused(action, now)
    assert view.turn is not None  # (not_now says so)
    if view.turn != view.seat:
        return refused(action, Refusal.NOT_YOUR_TURN, {"seat": view.turn})
    if isinstance(action, Run):
        problem = run_problem(view, action)
        return None if problem is None else refused(action, *problem)
    if action in view.legal:
        return None
    fitting = [a.tile for a in view.legal if isinstance(a, Play)]
    why: _Why
    if isinstance(action, Play):
        why = _why_not_play(view, action)
    elif isinstance(action, EndRun):
        why = (MexicanRefusal.NOT_RUNNING, {}) if not view.running else _last_double(view)
    elif isinstance(action, Draw):
        why = _why_not_draw(view, fitting)
    else:
        why = _why_not_pass(fitting)
    return refused(action, *why)


def _last_double(view: MexicanView) -> _Why:
    assert view.seat is not None
    last = view.trains[view.seat].tiles[-1]
    return MexicanRefusal.RUN_ENDS_ON_DOUBLE, {"tile": str(Tile(*last))}


def _why_not_play(view: MexicanView, action: Play) -> _Why:
    tile, train = action.tile, action.place
    assert isinstance(train, Train) and view.seat is not None
    if tile.high > view.rules.max_pip:
        return Refusal.NO_SUCH_TILE, {"tile": str(tile), "max_pip": view.rules.max_pip}
    if tile not in view.hand:
        return Refusal.NOT_HELD, {"tile": str(tile)}
    if train.owner >= view.players:
        return MexicanRefusal.NO_SUCH_TRAIN, {"train": str(train)}
    if view.drawn is not None and tile != view.drawn:
        return MexicanRefusal.DRAWN_TILE_ONLY, {"tile": str(view.drawn)}
    oldest = view.open_double
    if oldest is not None and train != oldest and not (view.doubling and tile.is_double):
        head = view.train_of(oldest).head
        return MexicanRefusal.COVER_THE_DOUBLE, {"train": str(oldest), "number": head}
    allowed = {a.place for a in view.legal if isinstance(a, Play)}
    line = view.train_of(train)
    if tile_leaves(tile, line.head, view.rules.max_pip) < 0:
        return MexicanRefusal.DOES_NOT_FIT, {"tile": str(tile), "train": str(train), "number": line.head}
    if view.first_turn and train.owner != view.seat and train not in allowed:
        return MexicanRefusal.START_YOUR_TRAIN, {}
    if (view.may_run or view.running) and tile.is_double:
        return MexicanRefusal.RUN_CANNOT_GO_ON, {"tile": str(tile)}
    if train.is_mexican and view.rules.mexican_needs_own_train and not view.trains[view.seat].tiles:
        return MexicanRefusal.MEXICAN_NEEDS_OWN, {}
    if not train.is_mexican and train.owner != view.seat and not line.marker:
        return MexicanRefusal.MARKER_DOWN, {"train": str(train)}
    return Refusal.NOT_ALLOWED, {}


def _why_not_draw(view: MexicanView, fitting: list[Tile]) -> _Why:
    if view.boneyard <= 0:
        return Refusal.BONEYARD_EMPTY, {}
    if fitting:
        return Refusal.MUST_PLAY, {"tile": str(fitting[0])}
    return MexicanRefusal.DREW_ALREADY, {}


def _why_not_pass(fitting: list[Tile]) -> _Why:
    if fitting:
        return Refusal.PASS_WHILE_FITS, {"tile": str(fitting[0])}
    return Refusal.PASS_WHILE_DRAWABLE, {}


def run_steps(view: MexicanView, laid: tuple[Tile, ...]) -> tuple[Tile, ...]:
    """The tiles of the hand that may come next in an opening run begun with ``laid``.

    For a client building a run on its screen (``laid`` already checked, in order):
    a double is offered only if the run can go on past it, or as the last tile
    in hand, as the engine offers it step by step.
    """
    assert view.seat is not None
    head = view.trains[view.seat].head
    max_pip = view.rules.max_pip
    for tile in laid:
        head = tile_leaves(tile, head, max_pip)
    rest = [t for t in view.hand if t not in laid]
    fits = [t for t in rest if tile_leaves(t, head, max_pip) >= 0]
    if len(laid) >= 1 and not view.rules.opening_run:
        return ()
    return tuple(t for t in fits if not t.is_double or len(rest) == 1 or any(o != t for o in fits))


def run_problem(view: MexicanView, run: Run) -> _Why | None:
    """Why ``run`` cannot be laid as the seat's opening run now, or None when it can."""
    assert view.seat is not None
    if not view.may_run:
        return MexicanRefusal.NO_RUN_NOW, {}
    if not run.tiles:
        return Refusal.NOT_ALLOWED, {}
    if len(run.tiles) > 1 and not view.rules.opening_run:
        return MexicanRefusal.ONE_TILE_ONLY, {}
    if len(set(run.tiles)) != len(run.tiles):
        repeated = next(t for t in run.tiles if run.tiles.count(t) > 1)
        return MexicanRefusal.RUN_REPEATS, {"tile": str(repeated)}
    head = view.trains[view.seat].head
    own = Train(view.seat)
    for tile in run.tiles:
        if tile.high > view.rules.max_pip:
            return Refusal.NO_SUCH_TILE, {"tile": str(tile), "max_pip": view.rules.max_pip}
        if tile not in view.hand:
            return Refusal.NOT_HELD, {"tile": str(tile)}
        after = tile_leaves(tile, head, view.rules.max_pip)
        if after < 0:
            return MexicanRefusal.DOES_NOT_FIT, {"tile": str(tile), "train": str(own), "number": head}
        head = after
    if run.tiles[-1].is_double and len(run.tiles) < len(view.hand):
        return MexicanRefusal.RUN_ENDS_ON_DOUBLE, {"tile": str(run.tiles[-1])}
    return None
