"""Why an action is not allowed now: a code for each reason, decided from a seat's view.

The engine speaks in codes, the interface in words (after python-chess's
``Termination``). `why_not` is the one definition of every reason: `Match`
raises what it returns for the seat on turn, and an interface asks it before
it sends a key's intent, so both always agree.

    refused = why_not(view, DRAW)    # None when the action is legal
    refused.reason                   # Refusal.MUST_PLAY
    refused.params                   # {"tile": "5-6"}
    str(refused)                     # "draw: you must play a tile you hold (5-6 fits)"

Params are plain values: tiles as their text ("5-6"), ends as "left" or
"right", numbers as ints, and seats counted from 0 like `View.seat`.
"""

from __future__ import annotations

from collections.abc import Mapping

from .actions import Draw, IllegalAction, Pass, Play
from .codes import Code
from .layout import End, line_of
from .tiles import Tile
from .view import View


class Refusal(Code):
    """Why the rules refuse an action, with the params it is said with; `IllegalAction.reason` holds one."""

    MATCH_OVER = "match-over"
    #: The round has ended and the next one is not dealt yet.
    ROUND_OVER = "round-over"
    NOT_AN_ACTION = "not-an-action", "action"
    #: A view without a seat (a spectator, or a seat that is not at the table).
    SPECTATOR = "spectator"
    NOT_YOUR_TURN = "not-your-turn", "seat"
    NO_SUCH_TILE = "no-such-tile", "tile", "max_pip"
    NOT_HELD = "not-held", "tile"
    LEAD_MUST_BE = "lead-must-be", "tile"
    LEAD_ON_LEFT = "lead-on-left", "tile"
    FITS_NEITHER_END = "fits-neither-end", "tile", "left", "right"
    WRONG_END = "wrong-end", "tile", "end", "number"
    NO_DRAWING = "no-drawing"
    RESERVE_REACHED = "reserve-reached", "reserve"
    BONEYARD_EMPTY = "boneyard-empty"
    DRAW_LIMIT = "draw-limit", "count"
    #: Drawing while holding a tile that fits (trampa), where voluntary draws are off.
    MUST_PLAY = "must-play", "tile"
    PASS_WHILE_FITS = "pass-while-fits", "tile"
    PASS_WHILE_DRAWABLE = "pass-while-drawable"
    #: No rule names it: only a view that contradicts itself gives this.
    NOT_ALLOWED = "not-allowed"

    def sentence(self, params: Mapping[str, int | str]) -> str:
        """The English reason for programmers and logs; interfaces make their own from the code."""
        # Seats are counted from 0 in params, and from 1 wherever a person reads them.
        shown = {key: value + 1 if key == "seat" and isinstance(value, int) else value
                 for key, value in params.items()}
        try:
            return ENGLISH[self].format_map(shown)
        except (KeyError, ValueError, IndexError):
            return ENGLISH[self]


#: Each reason in English; its placeholders are exactly the params it carries.
ENGLISH: Mapping[Refusal, str] = {
    Refusal.MATCH_OVER: "the match is over",
    Refusal.ROUND_OVER: "the round is over and the next one is not dealt yet",
    Refusal.NOT_AN_ACTION: "{action} is not an action",
    Refusal.SPECTATOR: "spectators watch: they cannot play",
    Refusal.NOT_YOUR_TURN: "it is not your turn: seat {seat} is to play",
    Refusal.NO_SUCH_TILE: "there is no {tile} in a double-{max_pip} set",
    Refusal.NOT_HELD: "you do not hold {tile}",
    Refusal.LEAD_MUST_BE: "the lead must be {tile}",
    Refusal.LEAD_ON_LEFT: "the lead starts the line: play {tile} on the left",
    Refusal.FITS_NEITHER_END: "{tile} matches neither open end ({left} and {right})",
    Refusal.WRONG_END: "{tile} does not match the {end} end ({number})",
    Refusal.NO_DRAWING: "there is no drawing in this game",
    Refusal.RESERVE_REACHED: "the boneyard is down to its reserve of {reserve} tiles",
    Refusal.BONEYARD_EMPTY: "the boneyard is empty",
    Refusal.DRAW_LIMIT: "you have drawn {count} tiles this turn, the most allowed",
    Refusal.MUST_PLAY: "you must play a tile you hold ({tile} fits)",
    Refusal.PASS_WHILE_FITS: "you cannot pass while you hold a tile that fits ({tile})",
    Refusal.PASS_WHILE_DRAWABLE: "you cannot pass while tiles can be drawn: draw",
    Refusal.NOT_ALLOWED: "that is not allowed now",
}

#: The names of the params each reason carries (as each `Refusal` declares them).
PARAMS: Mapping[Refusal, frozenset[str]] = {reason: reason.params for reason in Refusal}


def why_not(view: View, action: object) -> IllegalAction | None:
    """Why ``action`` is not allowed in ``view`` (the refusal to raise), or None when it is legal.

    Everything is read from the view (its hand, ends, legal actions, el pozo's
    counts, the rules and whose turn it is), so a seat's interface gets the
    same answer as the engine.
    """
    on_train = isinstance(action, Play) and not isinstance(action.place, End)
    if not isinstance(action, Play | Draw | Pass) or on_train:
        # (A run, or a play on a train, is an action of Mexican Train: not of this game.)
        return IllegalAction(action, Refusal.NOT_AN_ACTION, {"action": repr(action)[:40]})
    if view.winner is not None:
        return IllegalAction(action, Refusal.MATCH_OVER)
    if view.turn is None:
        return IllegalAction(action, Refusal.ROUND_OVER)
    if view.seat is None:
        return IllegalAction(action, Refusal.SPECTATOR)
    if view.turn != view.seat:
        return IllegalAction(action, Refusal.NOT_YOUR_TURN, {"seat": view.turn})
    if action in view.legal:
        return None
    # The engine lists every tile that may be laid now: those are the tiles that fit.
    fitting = [a.tile for a in view.legal if isinstance(a, Play)]
    if isinstance(action, Play):
        reason, params = _why_not_play(view, action)
    elif isinstance(action, Draw):
        reason, params = _why_not_draw(view, fitting)
    else:
        reason, params = _why_not_pass(view, fitting)
    return IllegalAction(action, reason, params)


_Why = tuple[Refusal, dict[str, int | str]]


def _why_not_play(view: View, action: Play) -> _Why:
    tile = action.tile
    if tile.high > view.rules.max_pip:
        return Refusal.NO_SUCH_TILE, {"tile": str(tile), "max_pip": view.rules.max_pip}
    if tile not in view.hand:
        return Refusal.NOT_HELD, {"tile": str(tile)}
    if view.ends is None:
        if view.forced_lead is not None and tile != view.forced_lead:
            return Refusal.LEAD_MUST_BE, {"tile": str(view.forced_lead)}
        if action.place is not End.LEFT:
            return Refusal.LEAD_ON_LEFT, {"tile": str(tile)}
        return Refusal.NOT_ALLOWED, {}
    left, right = view.ends
    places = line_of(view.rules.max_pip).tile_places(tile, view.ends)
    fits_left, fits_right = End.LEFT in places, End.RIGHT in places
    if not places:
        return Refusal.FITS_NEITHER_END, {"tile": str(tile), "left": left, "right": right}
    if action.place is End.LEFT and not fits_left:
        return Refusal.WRONG_END, {"tile": str(tile), "end": End.LEFT.value, "number": left}
    if action.place is End.RIGHT and not fits_right:
        return Refusal.WRONG_END, {"tile": str(tile), "end": End.RIGHT.value, "number": right}
    return Refusal.NOT_ALLOWED, {}


def _why_not_draw(view: View, fitting: list[Tile]) -> _Why:
    rules = view.rules
    if not rules.drawing:
        return Refusal.NO_DRAWING, {}
    if view.drawable <= 0:
        if view.boneyard > 0 and rules.reserve:
            return Refusal.RESERVE_REACHED, {"reserve": rules.reserve}
        return Refusal.BONEYARD_EMPTY, {}
    if rules.max_draws_per_turn and view.draws_this_turn >= rules.max_draws_per_turn:
        return Refusal.DRAW_LIMIT, {"count": view.draws_this_turn}
    if fitting and not rules.voluntary_draw:
        return Refusal.MUST_PLAY, {"tile": str(fitting[0])}
    return Refusal.NOT_ALLOWED, {}


def _why_not_pass(view: View, fitting: list[Tile]) -> _Why:
    if fitting:
        return Refusal.PASS_WHILE_FITS, {"tile": str(fitting[0])}
    if any(isinstance(a, Draw) for a in view.legal):
        return Refusal.PASS_WHILE_DRAWABLE, {}
    return Refusal.NOT_ALLOWED, {}
