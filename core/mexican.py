"""A match of Mexican Train: rules, a seed and the actions taken; rounds are dealt inside it.

docs/RULES.md, ``mexican-train``. `MexicanMatch` has the shape of `Match`
(core/match.py): ask it for `legal_actions`, `apply` one (an illegal one raises
`IllegalAction` and changes nothing), read the events it returns, and build a
seat's `view` (`TrainView`; ``view(None)`` for a spectator). The match is its
log: `MexicanMatch.from_log(match.log())` is the same match. The rules are
`TrainRound`'s (core/trains.py); this module keeps the trains' tiles for the
views, records the deals, scores the rounds and says why an action is refused.

The actions (core/actions.py): ``play 5-12 train 2`` (a tile on seat 2's train,
seats counted from 0), ``play 5-5 mexican``, ``end run``, ``draw``, ``pass``, and
``run 12-5 5-3 3-9``.

The opening run. A player's first turn of a round may lay a run of tiles on
their own train. `legal_actions` lists it a step at a time, so the list stays
short (a hand of 15 can make thousands of runs): the tiles that may go next on
one's own train and, once a tile that is not a double is down, `END_RUN`.
Nobody else acts in between, so the run is one play. A client sends the run
whole instead, as one `Run` action, built on its own screen as the player
lays tiles and takes back the last (nothing reaches the host until the
player ends it); the host checks it and lays it tile by tile, all or nothing.
`TrainView.may_run` says when a run may be built, `run_steps` which tiles may
come next in it, and `run_problem` whether it may be sent as it stands.

The rules are a `TrainRules` (core/rules.py). On the wire a train is
``{"owner": seat}``, the Mexican train's owner being -1.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Mapping
from functools import cache
from typing import Annotated, Any, NoReturn

import msgspec
from msgspec import Meta, Struct

from .actions import DRAW, END_RUN, PASS, Action, Draw, EndRun, IllegalAction, Pass, Play, Run, parse_action
from .codes import Code
from .layout import MEXICAN, Train, tile_leaves
from .match import Match, OnEntry
from .rules import Rules, TrainRules
from .state import Outcome
from .tiles import Tile, TileSet, tile_set
from .trains import TrainRound

LOG_FORMAT = "capicu-mexican-train-log/2"
#: The log of capicu before issue 29 (the engine set aside, one double a turn): read with those options.
LOG_FORMAT_1 = "capicu-mexican-train-log/1"


# -- events: what everyone at the table may learn ----------------------------------------

#: Seats' numbers and counts (2 to 8 seats), as the wire holds them.
PerSeat = Annotated[tuple[int, ...], Meta(max_length=8)]
#: The most tiles any set holds (double-15: 136).
MAX_TILES = 136
#: The most events or results a view may hold.
MAX_HISTORY = 4096


class _TrainEvent(Struct, frozen=True, gc=False, tag_field="type"):
    """What every Mexican Train event is: frozen, told apart on the wire by its ``type``
    (as core/events.py's are)."""


class TrainRoundStarted(_TrainEvent, frozen=True, gc=False, tag="train_round_started"):
    round_number: int
    #: The round's double, set in the middle: every train starts from its number.
    engine: Tile
    #: The seat that plays first (after the engine's holder, who laid it as their turn).
    first: int
    hand_counts: PerSeat
    boneyard: int
    #: The seat dealt the engine, who laid it; None: it came from the boneyard (or was set aside).
    engine_holder: int | None = None


class TrainTilePlayed(_TrainEvent, frozen=True, gc=False, tag="train_tile_played"):
    seat: int
    tile: Tile
    train: Train
    #: The number the train shows after the tile.
    head: int


class TrainTileDrawn(_TrainEvent, frozen=True, gc=False, tag="train_tile_drawn"):
    """``seat`` drew one tile (which, nobody else learns)."""

    seat: int


class RunEnded(_TrainEvent, frozen=True, gc=False, tag="run_ended"):
    """``seat`` ended its opening run."""

    seat: int


class TrainPassed(_TrainEvent, frozen=True, gc=False, tag="train_passed"):
    """``seat`` could not play: its marker is up."""

    seat: int


class TrainRoundResult(Struct, frozen=True, gc=False):
    """How a round ended, every hand shown, and each count added to the totals."""

    round_number: int
    engine: Tile
    #: DOMINO: ``last_player`` went out; TRANQUE: the round was blocked.
    reason: Outcome
    last_player: int
    hands: Annotated[tuple[Annotated[tuple[Tile, ...], Meta(max_length=MAX_TILES)], ...], Meta(max_length=8)]
    #: Each hand's count (the double blank as the rules say); 0 for who went out.
    counts: PerSeat
    totals: PerSeat


class TrainRoundEnded(_TrainEvent, frozen=True, gc=False, tag="train_round_ended"):
    result: TrainRoundResult


class TrainMatchEnded(_TrainEvent, frozen=True, gc=False, tag="train_match_ended"):
    #: The seats with the lowest total (several share the win).
    winners: PerSeat
    totals: PerSeat


TrainEvent = (
    TrainRoundStarted | TrainTilePlayed | TrainTileDrawn | RunEnded | TrainPassed | TrainRoundEnded
    | TrainMatchEnded
)


# -- the view: what a seat may know --------------------------------------------------------


class TrainLine(Struct, frozen=True, gc=False):
    """One train as everyone sees it."""

    #: The train (its owner's seat, or `MEXICAN`).
    train: Train
    #: Its tiles from the engine outwards, each as (inner number, outer number).
    tiles: Annotated[tuple[tuple[int, int], ...], Meta(max_length=MAX_TILES)]
    #: The number open at its end (the engine's while it is empty).
    head: int
    #: Up: open to everyone (always, for the Mexican train).
    marker: bool


class TrainView(Struct, frozen=True, gc=False, tag_field="game", tag="mexican-train"):
    """What one seat (or a spectator) may know: docs/RULES.md's list for Mexican Train, and no more.

    A frozen msgspec Struct, as `View` is: the wire derives its plain form from
    this declaration. Its plain form starts with ``game: "mexican-train"``, so that
    a reader tells it from a `View` (docs/PROTOCOL.md, section 5).
    """

    rules: TrainRules
    players: int
    #: The seat this view is for; None for a spectator.
    seat: int | None
    round_number: int
    #: How many rounds the match has.
    rounds: int
    engine: Tile
    #: This seat's tiles (empty for a spectator).
    hand: Annotated[tuple[Tile, ...], Meta(max_length=MAX_TILES)]
    #: Every seat's train (in seat order), then the Mexican train.
    trains: Annotated[tuple[TrainLine, ...], Meta(max_length=9)]
    #: The trains whose doubles wait to be covered, oldest first (the next cover goes on the first).
    open_doubles: Annotated[tuple[Train, ...], Meta(max_length=9)]
    hand_counts: PerSeat
    boneyard: int
    #: Whose turn it is (None between rounds and once the match is over).
    turn: int | None
    #: The seat that played first this round.
    first: int
    #: The seat on turn has not ended its first turn of the round.
    first_turn: bool
    #: The seat on turn may lay an opening run now (a client may build a `Run`).
    may_run: bool
    #: The seat on turn is laying its opening run tile by tile.
    running: bool
    #: The seat on turn laid a double this turn: it lays another double or covers the oldest.
    doubling: bool
    #: The seat dealt this round's engine, who laid it; None: it came from the boneyard.
    engine_holder: int | None
    #: The tile this seat drew this turn, the only one it may lay now (None for the others).
    drawn: Tile | None
    totals: PerSeat
    #: What this seat may do now (empty when it is not this seat's turn).
    legal: Annotated[tuple[Action, ...], Meta(max_length=9 * MAX_TILES + 2)]
    #: This round's public events so far.
    events: Annotated[tuple[TrainEvent, ...], Meta(max_length=MAX_HISTORY)]
    results: Annotated[tuple[TrainRoundResult, ...], Meta(max_length=MAX_HISTORY)]
    #: The seats that won, once the match is over.
    winners: PerSeat | None

    @property
    def is_my_turn(self) -> bool:
        return self.seat is not None and self.turn == self.seat

    @property
    def match_over(self) -> bool:
        return self.winners is not None

    @property
    def between_rounds(self) -> bool:
        """A round is over (its end is in `events`) and the next is not dealt yet."""
        return self.turn is None and self.winners is None

    @property
    def open_double(self) -> Train | None:
        """The oldest open double's train (the one to cover next), or None."""
        return self.open_doubles[0] if self.open_doubles else None

    def train_of(self, train: Train) -> TrainLine:
        return self.trains[self.players if train.owner < 0 else train.owner]


# -- refusals ----------------------------------------------------------------------------


class TrainRefusal(Code):
    """Why the rules of Mexican Train refuse an action, with the params it is said with.

    `IllegalAction.reason` holds one. Trains in params are written as in an
    action (``train 2``, ``mexican``); seats counted from 0.
    """

    MATCH_OVER = "match-over"
    ROUND_OVER = "round-over"
    NOT_AN_ACTION = "not-an-action", "action"
    SPECTATOR = "spectator"
    NOT_YOUR_TURN = "not-your-turn", "seat"
    NO_SUCH_TILE = "no-such-tile", "tile", "max_pip"
    NOT_HELD = "not-held", "tile"
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
    MUST_PLAY = "must-play", "tile"
    DREW_ALREADY = "drew-already"
    BONEYARD_EMPTY = "boneyard-empty"
    PASS_WHILE_FITS = "pass-while-fits", "tile"
    PASS_WHILE_DRAWABLE = "pass-while-drawable"
    NOT_RUNNING = "not-running"
    NOT_ALLOWED = "not-allowed"

    def sentence(self, params: Mapping[str, int | str]) -> str:
        """The English reason for programmers and logs; interfaces make their own from the code."""
        shown = {key: value + 1 if key == "seat" and isinstance(value, int) else value
                 for key, value in params.items()}
        try:
            return TRAIN_ENGLISH[self].format_map(shown)
        except (KeyError, ValueError, IndexError):
            return TRAIN_ENGLISH[self]


#: Each reason in English; its placeholders are exactly the params it carries.
TRAIN_ENGLISH: Mapping[TrainRefusal, str] = {
    TrainRefusal.MATCH_OVER: "the match is over",
    TrainRefusal.ROUND_OVER: "the round is over and the next one is not dealt yet",
    TrainRefusal.NOT_AN_ACTION: "{action} is not an action of Mexican Train",
    TrainRefusal.SPECTATOR: "spectators watch: they cannot play",
    TrainRefusal.NOT_YOUR_TURN: "it is not your turn: seat {seat} is to play",
    TrainRefusal.NO_SUCH_TILE: "there is no {tile} in a double-{max_pip} set",
    TrainRefusal.NOT_HELD: "you do not hold {tile}",
    TrainRefusal.NO_SUCH_TRAIN: "there is no {train} at this table",
    TrainRefusal.COVER_THE_DOUBLE: "the double on {train} must be covered first (with a {number})",
    TrainRefusal.DRAWN_TILE_ONLY: "after a draw only the tile drawn may be laid ({tile})",
    TrainRefusal.START_YOUR_TRAIN: "your first turn starts your own train",
    TrainRefusal.MARKER_DOWN: "{train} is not open to you: its marker is down",
    TrainRefusal.MEXICAN_NEEDS_OWN: "start your own train before the Mexican train",
    TrainRefusal.DOES_NOT_FIT: "{tile} does not match {train}, which shows {number}",
    TrainRefusal.RUN_CANNOT_GO_ON: "the run may not end on a double, and nothing you hold follows {tile}",
    TrainRefusal.NO_RUN_NOW: "a run is laid only as the first play of your first turn",
    TrainRefusal.ONE_TILE_ONLY: "the opening run is one tile in this game",
    TrainRefusal.RUN_ENDS_ON_DOUBLE: "the run may not end on a double ({tile})",
    TrainRefusal.RUN_REPEATS: "the run names {tile} twice",
    TrainRefusal.MUST_PLAY: "you must play a tile you hold ({tile} fits)",
    TrainRefusal.DREW_ALREADY: "you have drawn your tile this turn",
    TrainRefusal.BONEYARD_EMPTY: "the boneyard is empty",
    TrainRefusal.PASS_WHILE_FITS: "you cannot pass while you hold a tile that fits ({tile})",
    TrainRefusal.PASS_WHILE_DRAWABLE: "you cannot pass before you draw a tile",
    TrainRefusal.NOT_RUNNING: "there is no run to end",
    TrainRefusal.NOT_ALLOWED: "that is not allowed now",
}

#: The names of the params each reason carries (as each `TrainRefusal` declares them).
TRAIN_PARAMS: Mapping[TrainRefusal, frozenset[str]] = {reason: reason.params for reason in TrainRefusal}

_Why = tuple[TrainRefusal, dict[str, int | str]]


def why_not_train(view: TrainView, action: object) -> IllegalAction | None:
    """Why ``action`` is not allowed in ``view`` (the refusal to raise), or None when it is legal.

    Read from the view alone (hand, trains, markers, the open double, the
    legal steps), so a seat's interface gets the same answer as the engine.
    """
    if not isinstance(action, Play | Run | EndRun | Draw | Pass):
        return IllegalAction(action, TrainRefusal.NOT_AN_ACTION, {"action": repr(action)[:40]})
    if isinstance(action, Play) and not isinstance(action.place, Train):
        return IllegalAction(action, TrainRefusal.NOT_AN_ACTION, {"action": str(action)})
    if view.winners is not None:
        return IllegalAction(action, TrainRefusal.MATCH_OVER)
    if view.turn is None:
        return IllegalAction(action, TrainRefusal.ROUND_OVER)
    if view.seat is None:
        return IllegalAction(action, TrainRefusal.SPECTATOR)
    if view.turn != view.seat:
        return IllegalAction(action, TrainRefusal.NOT_YOUR_TURN, {"seat": view.turn})
    if isinstance(action, Run):
        refused = run_problem(view, action)
        return None if refused is None else IllegalAction(action, *refused)
    if action in view.legal:
        return None
    fitting = [a.tile for a in view.legal if isinstance(a, Play)]
    why: _Why
    if isinstance(action, Play):
        why = _why_not_play(view, action)
    elif isinstance(action, EndRun):
        why = (TrainRefusal.NOT_RUNNING, {}) if not view.running else _last_double(view)
    elif isinstance(action, Draw):
        why = _why_not_draw(view, fitting)
    else:
        why = _why_not_pass(fitting)
    return IllegalAction(action, *why)


def _last_double(view: TrainView) -> _Why:
    assert view.seat is not None
    last = view.trains[view.seat].tiles[-1]
    return TrainRefusal.RUN_ENDS_ON_DOUBLE, {"tile": str(Tile(*last))}


def _why_not_play(view: TrainView, action: Play) -> _Why:
    tile, train = action.tile, action.place
    assert isinstance(train, Train) and view.seat is not None
    if tile.high > view.rules.max_pip:
        return TrainRefusal.NO_SUCH_TILE, {"tile": str(tile), "max_pip": view.rules.max_pip}
    if tile not in view.hand:
        return TrainRefusal.NOT_HELD, {"tile": str(tile)}
    if train.owner >= view.players:
        return TrainRefusal.NO_SUCH_TRAIN, {"train": str(train)}
    if view.drawn is not None and tile != view.drawn:
        return TrainRefusal.DRAWN_TILE_ONLY, {"tile": str(view.drawn)}
    oldest = view.open_double
    if oldest is not None and train != oldest and not (view.doubling and tile.is_double):
        head = view.train_of(oldest).head
        return TrainRefusal.COVER_THE_DOUBLE, {"train": str(oldest), "number": head}
    allowed = {a.place for a in view.legal if isinstance(a, Play)}
    line = view.train_of(train)
    if tile_leaves(tile, line.head, view.rules.max_pip) < 0:
        return TrainRefusal.DOES_NOT_FIT, {"tile": str(tile), "train": str(train), "number": line.head}
    if view.first_turn and train.owner != view.seat and train not in allowed:
        return TrainRefusal.START_YOUR_TRAIN, {}
    if (view.may_run or view.running) and tile.is_double:
        return TrainRefusal.RUN_CANNOT_GO_ON, {"tile": str(tile)}
    if train.is_mexican and view.rules.mexican_needs_own_train and not view.trains[view.seat].tiles:
        return TrainRefusal.MEXICAN_NEEDS_OWN, {}
    if not train.is_mexican and train.owner != view.seat and not line.marker:
        return TrainRefusal.MARKER_DOWN, {"train": str(train)}
    return TrainRefusal.NOT_ALLOWED, {}


def _why_not_draw(view: TrainView, fitting: list[Tile]) -> _Why:
    if view.boneyard <= 0:
        return TrainRefusal.BONEYARD_EMPTY, {}
    if fitting:
        return TrainRefusal.MUST_PLAY, {"tile": str(fitting[0])}
    return TrainRefusal.DREW_ALREADY, {}


def _why_not_pass(fitting: list[Tile]) -> _Why:
    if fitting:
        return TrainRefusal.PASS_WHILE_FITS, {"tile": str(fitting[0])}
    return TrainRefusal.PASS_WHILE_DRAWABLE, {}


def run_steps(view: TrainView, laid: tuple[Tile, ...]) -> tuple[Tile, ...]:
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


def run_problem(view: TrainView, run: Run) -> tuple[TrainRefusal, dict[str, int | str]] | None:
    """Why ``run`` cannot be laid as the seat's opening run now, or None when it can."""
    assert view.seat is not None
    if not view.may_run:
        return TrainRefusal.NO_RUN_NOW, {}
    if not run.tiles:
        return TrainRefusal.NOT_ALLOWED, {}
    if len(run.tiles) > 1 and not view.rules.opening_run:
        return TrainRefusal.ONE_TILE_ONLY, {}
    if len(set(run.tiles)) != len(run.tiles):
        repeated = next(t for t in run.tiles if run.tiles.count(t) > 1)
        return TrainRefusal.RUN_REPEATS, {"tile": str(repeated)}
    head = view.trains[view.seat].head
    own = Train(view.seat)
    for tile in run.tiles:
        if tile.high > view.rules.max_pip:
            return TrainRefusal.NO_SUCH_TILE, {"tile": str(tile), "max_pip": view.rules.max_pip}
        if tile not in view.hand:
            return TrainRefusal.NOT_HELD, {"tile": str(tile)}
        after = tile_leaves(tile, head, view.rules.max_pip)
        if after < 0:
            return TrainRefusal.DOES_NOT_FIT, {"tile": str(tile), "train": str(own), "number": head}
        head = after
    if run.tiles[-1].is_double and len(run.tiles) < len(view.hand):
        return TrainRefusal.RUN_ENDS_ON_DOUBLE, {"tile": str(run.tiles[-1])}
    return None


# -- the match ---------------------------------------------------------------------------


@cache
def _plays(max_pip: int, players: int) -> tuple[tuple[Play, ...], ...]:
    """One shared `Play` per tile and train (the Mexican train last), so listing builds nothing."""
    trains = [Train(seat) for seat in range(players)] + [MEXICAN]
    return tuple(tuple(Play(t, train) for train in trains) for t in tile_set(max_pip).tiles)


def deal_order(
    rng: random.Random, tiles: TileSet, engine: int, players: int, *, set_aside: bool = False
) -> tuple[list[int], int]:
    """The shuffled order of every tile (but the engine, when it is set aside), and a seat drawn at random."""
    order = [t for t in range(len(tiles)) if not (set_aside and t == engine)]
    rng.shuffle(order)
    return order, rng.randrange(players)


class MexicanMatch:
    """A match of Mexican Train in progress (or over); see the module docstring."""

    def __init__(
        self,
        rules: TrainRules,
        players: int,
        seed: int = 0,
        *,
        deals: list[tuple[list[int], int]] | None = None,
        pause_between_rounds: bool = False,
    ) -> None:
        if not isinstance(rules, TrainRules):
            raise ValueError(f"{rules.preset} is not Mexican Train: play it with Match")
        rules.check_players(players)
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise ValueError(f"a seed is a whole number, not {seed!r}")
        self.rules = rules
        self.players = players
        self.seed = seed
        self.tiles = tile_set(rules.max_pip)
        self.totals = [0] * players
        self.results: list[TrainRoundResult] = []
        self.winners: tuple[int, ...] | None = None
        self.round_number = 0
        #: The seat that played first this round.
        self.first = 0
        #: The seat that began this round: the engine's holder, or the seat whose turn came first.
        self.began = 0
        #: The seat dealt this round's engine (None: it came from the boneyard or was set aside).
        self.engine_holder: int | None = None
        self.pause_between_rounds = pause_between_rounds
        self._awaiting_deal = False
        self._recorded_deals = deque(deals or ())
        self._deal_count = 0
        self._deal_rng = random.Random(seed)
        self._entries: list[Any] = []
        self._plays = _plays(rules.max_pip, players)
        self._legal: tuple[Action, ...] | None = None
        #: Each train's tiles, from the engine out, as (inner, outer) numbers.
        self._lines: list[list[tuple[int, int]]] = []
        self._round_events: list[TrainEvent] = []
        self._state: TrainRound
        self._opening = tuple(self._start_round())

    # -- reading ---------------------------------------------------------------

    @property
    def turn(self) -> int | None:
        """The seat to act, or None when the match is over or the next round awaits its deal."""
        return None if self.winners is not None or self._awaiting_deal else self._state.turn

    @property
    def is_over(self) -> bool:
        return self.winners is not None

    @property
    def awaiting_deal(self) -> bool:
        return self._awaiting_deal

    @property
    def opening_events(self) -> tuple[TrainEvent, ...]:
        return self._opening

    @property
    def state(self) -> TrainRound:
        """The running round as the engine holds it (every hand: not for players' eyes)."""
        return self._state

    def legal_actions(self) -> tuple[Action, ...]:
        """Every action the seat on turn may take now (an opening run a tile at a time)."""
        if self._legal is not None:
            return self._legal
        if self.winners is not None or self._awaiting_deal:
            self._legal = ()
            return ()
        st = self._state
        actions: list[Action] = []
        plays = self._plays
        for train in st.places():
            mask = st.fitting(train)
            while mask:
                low = mask & -mask
                mask ^= low
                actions.append(plays[low.bit_length() - 1][train])
        if st.may_end_run():
            actions.append(END_RUN)
        elif st.may_stop():
            actions.append(DRAW if st.may_draw() else PASS)
        self._legal = tuple(actions)
        return self._legal

    def view(self, seat: int | None) -> TrainView:
        """What ``seat`` may know now; None gives a spectator's view."""
        if seat is not None and not (type(seat) is int and 0 <= seat < self.players):
            raise ValueError(f"there is no seat {seat!r} at a table of {self.players}")
        st = self._state
        acting = self.winners is None and not self._awaiting_deal
        trains = tuple(
            TrainLine(Train(t) if t < self.players else MEXICAN, tuple(line), st.heads[t], st.markers[t])
            for t, line in enumerate(self._lines)
        )
        may_run = (acting and st.first_turn[st.turn] and not st.drew and not st.running
                   and not st.open_doubles)
        drawn = acting and seat == st.turn and st.drew
        return TrainView(
            rules=self.rules,
            players=self.players,
            seat=seat,
            round_number=self.round_number,
            rounds=self.rules.round_count,
            engine=self.tiles.tiles[self.tiles.double_of[st.engine]],
            hand=() if seat is None else self.tiles.tiles_in(st.hands[seat]),
            trains=trains,
            open_doubles=tuple(trains[t].train for t in st.open_doubles),
            hand_counts=tuple(hand.bit_count() for hand in st.hands),
            boneyard=st.boneyard,
            turn=st.turn if acting else None,
            first=self.first,
            first_turn=acting and st.first_turn[st.turn],
            may_run=may_run,
            running=acting and st.running,
            doubling=acting and st.doubling,
            engine_holder=self.engine_holder,
            drawn=self.tiles.tiles[st.drawn] if drawn else None,
            totals=tuple(self.totals),
            legal=self.legal_actions() if acting and seat == st.turn else (),
            events=tuple(self._round_events),
            results=tuple(self.results),
            winners=self.winners,
        )

    # -- acting ------------------------------------------------------------------

    def apply(self, action: Action, seat: int | None = None) -> tuple[TrainEvent, ...]:
        """Take ``action`` for the seat on turn (checked to be ``seat`` when given).

        Returns the public events it caused; raises `IllegalAction` and changes
        nothing when the rules do not allow it.
        """
        legal = self.legal_actions()
        if seat is not None and seat != self.turn:
            self._refuse(action, seat)
        if type(action) is Run:
            refused = why_not_train(self.view(self.turn), action)
            if refused is not None:
                raise refused
            self._entries.append(action)
            events = self._lay_run(action)
        else:
            if action not in legal:
                self._refuse(action, seat)
            self._entries.append(action)
            events = [self._step(action)]
        if self._state.outcome is not None:
            events.extend(self._finish_round())
        return tuple(events)

    def _lay_run(self, run: Run) -> list[TrainEvent]:
        """Lay a checked opening run tile by tile, then end it (unless it went out)."""
        own = self._plays[0][self._state.turn].place
        events: list[TrainEvent] = []
        for tile in run.tiles:
            events.append(self._step(Play(tile, own)))
            if self._state.outcome is not None:
                return events
        if self._state.running:
            events.append(self._step(END_RUN))
        return events

    def _step(self, action: Action) -> TrainEvent:
        """Do one legal step on the round; its event."""
        st = self._state
        mover = st.turn
        self._legal = None
        event: TrainEvent
        if type(action) is Play:
            assert isinstance(action.place, Train)
            train = self.players if action.place.owner < 0 else action.place.owner
            index = self.tiles.index[action.tile]
            before = st.heads[train]
            st.play(index, train)
            self._lines[train].append((before, st.heads[train]))
            event = TrainTilePlayed(mover, action.tile, action.place, st.heads[train])
        elif type(action) is EndRun:
            st.end_run()
            event = RunEnded(mover)
        elif type(action) is Draw:
            st.draw()
            event = TrainTileDrawn(mover)
        else:
            st.pass_turn()
            event = TrainPassed(mover)
        self._round_events.append(event)
        return event

    def _refuse(self, action: object, seat: int | None) -> NoReturn:
        if seat is None:
            seat = self.turn
        elif not (isinstance(seat, int) and 0 <= seat < self.players):
            seat = None
        refused = why_not_train(self.view(seat), action)
        if refused is None:  # pragma: no cover - only called for an action that is not legal
            refused = IllegalAction(action, TrainRefusal.NOT_ALLOWED)
        raise refused

    # -- rounds ------------------------------------------------------------------

    def _finish_round(self) -> list[TrainEvent]:
        st = self._state
        counts = st.pip_counts(self.rules.double_blank_points)
        for seat, count in enumerate(counts):
            self.totals[seat] += count
        result = TrainRoundResult(
            round_number=self.round_number,
            engine=self.tiles.tiles[self.tiles.double_of[st.engine]],
            reason=st.outcome or Outcome.TRANQUE,
            last_player=st.last_player,
            hands=tuple(self.tiles.tiles_in(h) for h in st.hands),
            counts=tuple(counts),
            totals=tuple(self.totals),
        )
        self.results.append(result)
        events: list[TrainEvent] = [TrainRoundEnded(result)]
        self._round_events.append(events[0])
        if self.round_number >= self.rules.round_count:
            best = min(self.totals)
            self.winners = tuple(s for s, total in enumerate(self.totals) if total == best)
            events.append(TrainMatchEnded(self.winners, tuple(self.totals)))
            self._round_events.append(events[-1])
            return events
        if self.pause_between_rounds:
            self._awaiting_deal = True
            return events
        events.extend(self._start_round())
        return events

    def deal_next_round(self) -> tuple[TrainEvent, ...]:
        """Deal the round that `awaiting_deal` waits for; its events. RuntimeError when none waits."""
        if not self._awaiting_deal:
            raise RuntimeError("no round awaits its deal")
        self._awaiting_deal = False
        return tuple(self._start_round())

    def _next_deal(self, engine: int) -> tuple[list[int], int]:
        # Drawn even when the deal is recorded, so that a log cut short goes on with the seed's deals.
        set_aside = self.rules.engine_set_aside
        order, seat = deal_order(self._deal_rng, self.tiles, engine, self.players, set_aside=set_aside)
        if self._recorded_deals:
            order, seat = self._recorded_deals.popleft()
            expected = [t for t in range(len(self.tiles)) if not (set_aside and t == engine)]
            if sorted(order) != expected or not 0 <= seat < self.players:
                what = "the set without the round's engine" if set_aside else "the whole set"
                raise ValueError(f"deal {self._deal_count + 1} of the log is not a shuffle of {what}")
        self._deal_count += 1
        self._entries.append({"deal": list(order), "seat": seat})
        return list(order), seat

    def _start_round(self) -> list[TrainEvent]:
        """Deal the next engine's round (highest double first), have it laid, and name who plays first.

        The engine's holder lays it as their turn and the next seat plays first; when
        nobody holds it (or it was set aside), it comes from the boneyard and the round
        begins with a seat drawn at random in round 1, else the seat after the last
        round's beginner.
        """
        self.round_number += 1
        rules = self.rules
        number = rules.max_pip - (self.round_number - 1)
        engine = self.tiles.double_of[number]
        order, random_seat = self._next_deal(engine)
        size = rules.hand_size(self.players)
        hands = []
        for seat in range(self.players):
            mask = 0
            for tile in order[seat * size : (seat + 1) * size]:
                mask |= 1 << tile
            hands.append(mask)
        stock = [t for t in order[self.players * size :] if t != engine]
        bit = 1 << engine
        holder = next((seat for seat, hand in enumerate(hands) if hand & bit), None)
        self.engine_holder = holder
        if holder is not None:
            hands[holder] ^= bit
            self.began = holder
            self.first = (holder + 1) % self.players
        else:
            self.began = random_seat if self.round_number == 1 else (self.began + 1) % self.players
            self.first = self.began
        self._state = TrainRound(
            self.tiles, number, hands, stock, turn=self.first,
            opening_run=rules.opening_run, cover_doubles=rules.cover_doubles,
            one_double=rules.one_double_a_turn, mexican_needs_own=rules.mexican_needs_own_train,
        )
        self._lines = [[] for _ in range(self.players + 1)]
        started = TrainRoundStarted(
            round_number=self.round_number,
            engine=self.tiles.tiles[engine],
            first=self.first,
            hand_counts=tuple(hand.bit_count() for hand in hands),
            boneyard=len(stock),
            engine_holder=holder,
        )
        self._round_events = [started]
        self._legal = None
        return [started]

    # -- the log -----------------------------------------------------------------

    def log(self) -> dict[str, Any]:
        """The match as its record: header plus every deal and action, in order (as `Match.log`)."""
        log: dict[str, Any] = {
            "format": LOG_FORMAT,
            "rules": self.rules,
            "players": self.players,
            "seed": self.seed,
            "entries": self.entries_since(0),
        }
        if self.pause_between_rounds:
            log["pause_between_rounds"] = True
        return log

    @property
    def entry_count(self) -> int:
        return len(self._entries)

    def entries_since(self, start: int) -> list[Any]:
        """The log's entries from number ``start`` on, as plain data (for a journal)."""
        return [e if isinstance(e, dict) else str(e) for e in self._entries[start:]]

    @classmethod
    def from_log(cls, data: Any, on_entry: OnEntry | None = None) -> MexicanMatch:
        """The match a `log` describes; a damaged log raises ValueError saying where.

        ``on_entry`` hears of every entry as it is replayed, as in `Match.from_log`.
        """
        if not isinstance(data, dict) or data.get("format") not in (LOG_FORMAT, LOG_FORMAT_1):
            raise ValueError(f"not a Mexican Train match log (expected format {LOG_FORMAT!r})")
        rules = data.get("rules")
        if not isinstance(rules, TrainRules):
            raise ValueError("a Mexican Train match log needs its rules (TrainRules)")
        if data["format"] == LOG_FORMAT_1:
            # Before issue 29: the engine was set aside and a double covered by the next tile.
            old = msgspec.structs.replace(rules, engine_set_aside=True, one_double_a_turn=True)
            try:
                return cls.from_log({**data, "format": LOG_FORMAT, "rules": old}, on_entry)
            except ValueError:
                raise ValueError(
                    "this Mexican Train log was written by capicu's log version 1, whose rules (a draw, "
                    "a blocked round) this version no longer plays, so it cannot be replayed"
                ) from None
        players, seed, entries = data.get("players"), data.get("seed"), data.get("entries")
        if not isinstance(players, int) or not isinstance(seed, int) or not isinstance(entries, list):
            raise ValueError("a match log needs players, seed and entries")
        pause = data.get("pause_between_rounds", False)
        if not isinstance(pause, bool):
            raise ValueError("a match log's pause_between_rounds is true or false")
        deals: list[tuple[list[int], int]] = []
        steps: list[tuple[int, Action | None]] = []
        for number, entry in enumerate(entries, 1):
            if isinstance(entry, dict):
                order, seat = entry.get("deal"), entry.get("seat")
                if not (isinstance(order, list) and all(isinstance(t, int) for t in order)
                        and isinstance(seat, int)):
                    raise ValueError(f"entry {number} of the log is not a deal")
                deals.append((order, seat))
                steps.append((number, None))
            else:
                try:
                    steps.append((number, parse_action(entry)))
                except ValueError as exc:
                    raise ValueError(f"entry {number} of the log: {exc}") from None
        match = cls(rules, players, seed, deals=deals, pause_between_rounds=pause)
        for number, action in steps:
            if action is None:
                if match.awaiting_deal:
                    dealt = match.deal_next_round()
                else:
                    dealt = match.opening_events if number == 1 else ()
                if on_entry is not None:
                    on_entry(match, None, None, dealt)
                continue
            actor = match.turn
            try:
                events = match.apply(action)
            except IllegalAction as exc:
                raise ValueError(f"entry {number} of the log cannot be replayed: {exc}") from None
            if on_entry is not None:
                on_entry(match, action, actor, events)
        if match.entries_since(0)[: len(entries)] != entries:
            raise ValueError("the log's deals are not where its actions need them")
        return match


def new_match(
    rules: Rules, players: int, seed: int = 0, *, pause_between_rounds: bool = False
) -> Match | MexicanMatch:
    """The engine the rules' game is played by: a `MexicanMatch` or a `Match` (same API shape)."""
    if isinstance(rules, TrainRules):
        return MexicanMatch(rules, players, seed, pause_between_rounds=pause_between_rounds)
    return Match(rules, players, seed, pause_between_rounds=pause_between_rounds)


def match_from_log(data: Any, on_entry: OnEntry | None = None) -> Match | MexicanMatch:
    """The match a log of either engine describes (told apart by its format)."""
    if isinstance(data, dict) and data.get("format") in (LOG_FORMAT, LOG_FORMAT_1):
        return MexicanMatch.from_log(data, on_entry)
    return Match.from_log(data, on_entry)


__all__ = [
    "LOG_FORMAT",
    "MexicanMatch",
    "RunEnded",
    "TrainEvent",
    "TrainLine",
    "TrainMatchEnded",
    "TrainPassed",
    "TrainRefusal",
    "TrainRoundEnded",
    "TrainRoundResult",
    "TrainRoundStarted",
    "TrainTileDrawn",
    "TrainTilePlayed",
    "TrainView",
    "match_from_log",
    "new_match",
    "run_problem",
    "run_steps",
    "why_not_train",
]
