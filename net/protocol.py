"""The messages of the wire protocol, each declared once, with its limits.

docs/PROTOCOL.md is the specification; this module is its executable form.
Every message is a frozen msgspec Struct, tagged by its ``type``, whose fields
say their type and limits (``Annotated[str, Meta(max_length=96)]``); `to_wire`
turns one into plain data (a map whose ``type`` comes first) and
`message_from_client` (what a host accepts) or `message_from_host` (what a
client accepts) reads one back, msgspec checking it against its declaration
(net/wire.py). Anything that does not match raises `ProtocolError`, the
protocol's one error type.

What a client sends is read strictly: a field the declaration lacks is refused
(``forbid_unknown_fields``). What a host sends may hold fields a newer host
added: they are ignored.

The messages know no game. A snapshot and an update are declared once
(`GameSnapshot`, `GameUpdate`), given a game's view, its view's changing
fields and its events; `GameWire` makes each game's from its declaration in
core's registry (core/games.py), and a client reads a snapshot or an update as
the game its view map names (``game``; none: the Draw family's).
"""

from __future__ import annotations

import types
import unicodedata
from collections.abc import Callable
from enum import StrEnum
from typing import TYPE_CHECKING, Annotated, Any, Generic, Protocol, TypeAlias, TypeVar, get_args

import msgspec
from capicu.core import Action, Rules, Tile
from capicu.core.codes import Code
from capicu.core.games import GAMES, LINE, MEXICAN_TRAIN, GameSpec, game_of_view
from capicu.net.host.sanitize import clean_text
from capicu.net.store.record import MatchRecord
from msgspec import Meta, Struct

from . import wire
from .limits import (
    MATCH_ID_LIMIT,
    MAX_CLIENT_FRAME,
    MAX_DEPTH,
    MAX_EVENTS,
    MAX_HOST_FRAME,
    MAX_HOST_ITEMS,
    MOST_SEATS,
    NAME_LIMIT,
)

#: Version 2 added seat keys, match ids, leaving on purpose, asking for a seat
#: back by name, and the pause between rounds; version 3, Mexican Train (train
#: views, their events and actions) and tables of up to 8; version 4, the match record;
#: version 5, Mexican Train as seed 004 plays it: the engine's holder, several open doubles,
#: the drawn tile; version 6, Fives and Threes (its view, its events, points scored as tiles are
#: laid); version 7, the club night: its lobby ``club``, its messages ``club``, ``club_draw`` and
#: ``standings``, and the organiser's ``club_start`` and ``club_close`` (docs/PROTOCOL.md, section 9).
PROTOCOL_VERSION = 7
#: The TCP port a host listens on unless told otherwise (unassigned by IANA).
DEFAULT_PORT = 7254

#: The spectators a seat map names (`Seats.watchers`): the first to come, however many watch.
WATCHERS_LIMIT = 64
CHAT_LIMIT = 200
CODE_LIMIT = 32
TOKEN_LIMIT = 64
#: A seat key as a person may type it (14 symbols, with dashes and spaces).
SEAT_KEY_LIMIT = 40
TABLE_LIMIT = 32

#: A seat's number (0-based), from any table's 2 to 8 seats.
SeatNumber = Annotated[int, Meta(ge=0, le=MOST_SEATS - 1)]
#: A client's number for its intent, echoed back; also a ping's.
Ref = Annotated[int, Meta(ge=0, le=2**31)]
#: Event numbers and other counts.
Count = Annotated[int, Meta(ge=0, le=2**53)]
Version = Annotated[int, Meta(ge=0, le=2**31)]
Seconds = Annotated[float, Meta(ge=0.0, lt=1e9)]
#: The seats a list may name: at most one per seat.
SeatList = Annotated[tuple[SeatNumber, ...], Meta(max_length=MOST_SEATS)]


class ErrorCode(Code):
    """Why the host (or the codec) refused something; each is listed in docs/PROTOCOL.md, section 7.

    A `Code` with no params: an interface words a refusal from its code alone (what
    the host knows besides goes in the error's English ``message``, for logs).
    """

    BAD_FRAME = "bad_frame"
    BAD_MESSAGE = "bad_message"
    UNKNOWN_TYPE = "unknown_type"
    VERSION = "version"
    NOT_READY = "not_ready"
    BAD_CODE = "bad_code"
    BAD_NAME = "bad_name"
    NAME_TAKEN = "name_taken"
    BAD_TOKEN = "bad_token"
    MATCH_GONE = "match_gone"
    NO_TABLE = "no_table"
    TABLE_FULL = "table_full"
    NOT_SEATED = "not_seated"
    NOT_STARTED = "not_started"
    ILLEGAL = "illegal"
    RATE_LIMITED = "rate_limited"
    TOO_MANY_ERRORS = "too_many_errors"
    TOO_MANY_CONNECTIONS = "too_many_connections"
    TIMEOUT = "timeout"
    REPLACED = "replaced"
    SHUTTING_DOWN = "shutting_down"
    SEAT_HELD = "seat_held"
    REFUSED = "refused"


class ProtocolError(Exception):
    """Input that breaks the protocol: ``code`` (an `ErrorCode`) and a sentence.

    After a `ProtocolError` from the codec, the connection is finished.
    """

    def __init__(self, code: ErrorCode, message: str) -> None:
        super().__init__(f"{code.value}: {message}")
        self.code = code
        self.message = message


class SeatKind(StrEnum):
    """Who a seat is for (the values travel in seat maps)."""

    #: Nobody has taken it yet.
    OPEN = "open"
    PERSON = "person"
    COMPUTER = "computer"


class ActedBy(StrEnum):
    """Who made an update happen (``update.by``): who acted, or what dealt the next round."""

    #: The seat's person (for a deal: everyone was ready).
    PERSON = "person"
    #: A computer seat, or the computer covering an absent person (for a deal:
    #: nobody with a live connection was there to wait for).
    COMPUTER = "computer"
    #: The turn timer ran out and the computer acted (for a deal: the countdown ran out).
    TIMER = "timer"


# -- messages a client sends -------------------------------------------------


class _FromClient(Struct, frozen=True, forbid_unknown_fields=True, tag_field="type"):
    """A message a client sends: a field its declaration lacks is refused."""


class _FromHost(Struct, frozen=True, tag_field="type"):
    """A message a host sends: fields a newer host added are ignored."""


class Hello(_FromClient, frozen=True, kw_only=True, tag="hello"):
    """The first message of a connection: join a table, resume a seat, or watch.

    A seat comes back with its ``token`` (kept by the machine that had it) or its
    ``seat_key`` (read from that machine's screen and typed on another one).
    """

    version: Version = PROTOCOL_VERSION
    #: The name as typed: the host cleans it and cuts it to `NAME_LIMIT`.
    name: Annotated[str, Meta(max_length=4 * NAME_LIMIT)]
    code: Annotated[str, Meta(max_length=CODE_LIMIT)] | None = None
    token: Annotated[str, Meta(max_length=TOKEN_LIMIT)] | None = None
    spectate: bool = False
    table: Annotated[str, Meta(max_length=TABLE_LIMIT)] = "main"
    seat_key: Annotated[str, Meta(max_length=SEAT_KEY_LIMIT)] | None = None


class Act(_FromClient, frozen=True, tag="action"):
    """An intent: take ``action`` for my seat (its text on the wire). ``ref`` is echoed back."""

    action: Action
    ref: Ref | None = None


class Say(_FromClient, frozen=True, tag="chat"):
    """A chat line to everyone at the table (the host cleans it and cuts it to `CHAT_LIMIT`)."""

    text: Annotated[str, Meta(max_length=4 * CHAT_LIMIT)]


class Ping(_FromHost, frozen=True, tag="ping"):
    """Are you there? (either direction; answered with a `Pong` carrying the same ``n``)."""

    n: Ref = 0


class Pong(_FromHost, frozen=True, tag="pong"):
    n: Ref = 0


class Bye(_FromClient, frozen=True, tag="bye"):
    """I am leaving on purpose: during a match the computer plays my seat, which stays mine."""



class Ready(_FromClient, frozen=True, tag="ready"):
    """I have read the round's end: deal the next round as far as I am concerned."""



class ClubStart(_FromClient, frozen=True, tag="club_start"):
    """The organiser draws the next round of the club night (sent on the club's connection).

    ``key`` is the organiser's key, which the club host shows its operator; anybody else
    is refused (``refused``), and wrong keys count as wrong seat secrets do.
    """

    key: Annotated[str, Meta(max_length=SEAT_KEY_LIMIT)]


class ClubClose(_FromClient, frozen=True, tag="club_close"):
    """The organiser closes a late table of the round: its match ends with its score as it stands."""

    key: Annotated[str, Meta(max_length=SEAT_KEY_LIMIT)]
    #: The table's name, as `ClubTable.name` gives it ("r2-t3").
    table: Annotated[str, Meta(max_length=TABLE_LIMIT)]


ClientMessage = Hello | Act | Say | Ping | Pong | Bye | Ready | ClubStart | ClubClose


# -- messages a host sends ---------------------------------------------------


class Welcome(_FromHost, frozen=True, kw_only=True, tag="welcome"):
    """You are in: your seat (None: spectator), its secrets, the table and its match."""

    version: Version = PROTOCOL_VERSION
    table: Annotated[str, Meta(max_length=TABLE_LIMIT)]
    name: Annotated[str, Meta(max_length=NAME_LIMIT)]
    seat: SeatNumber | None
    #: The seat's secret for this machine to keep (None for a spectator).
    token: Annotated[str, Meta(max_length=TOKEN_LIMIT)] | None
    #: The seat's key for a person to read and type elsewhere (None for a spectator).
    seat_key: Annotated[str, Meta(max_length=SEAT_KEY_LIMIT)] | None
    players: Annotated[int, Meta(ge=2, le=MOST_SEATS)]
    heartbeat: Seconds
    #: The id of the table's match: saved tokens are keyed by it.
    match: Annotated[str, Meta(max_length=MATCH_ID_LIMIT)]


class Seat(Struct, frozen=True):
    """One seat as everyone sees it: the host's, the wire's and the screen's.

    The host keeps more about a seat (its token, key and connection, see
    net/host/table.py); none of that is here, so none of it can reach the wire.
    """

    seat: SeatNumber
    kind: SeatKind
    name: Annotated[str, Meta(max_length=NAME_LIMIT)] | None
    #: A live connection (always True for a computer seat).
    connected: bool
    #: A computer plays for this person for now (they dropped past the grace period, or left).
    covered: bool
    #: The person left on purpose (a ``bye``), rather than losing the connection.
    left: bool = False


class Seats(_FromHost, frozen=True, tag="seats", omit_defaults=True):
    """Who sits where: sent on joining, and whenever a seat changes.

    ``watchers`` came later, inside protocol version 2: it is left out while
    nobody watches, so that such a seat map is the bytes it always was.
    """

    seats: Annotated[tuple[Seat, ...], Meta(max_length=MOST_SEATS)]
    spectators: Count
    started: bool
    #: The spectators' names, in the order they came, the first `WATCHERS_LIMIT` of them
    #: (a host before this field sends none).
    watchers: Annotated[tuple[Annotated[str, Meta(max_length=NAME_LIMIT)], ...],
                        Meta(max_length=WATCHERS_LIMIT)] = ()
    #: (Protocol 7, a club night's drawn table.) The seats drawn for a person who has not come to
    #: them yet: their first arrival sits them down, it is no return (left out when none are).
    awaited: Annotated[tuple[SeatNumber, ...], Meta(max_length=MOST_SEATS)] = ()


class Chat(_FromHost, frozen=True, tag="chat"):
    """A chat line, cleaned by the host; ``seat`` None for a spectator."""

    name: Annotated[str, Meta(max_length=NAME_LIMIT)]
    seat: SeatNumber | None
    text: Annotated[str, Meta(max_length=CHAT_LIMIT)]


#: The chat lines a snapshot carries: the last ones said at the table, so that a player who
#: comes back reads what was said (a bound: a snapshot stays small however long the match).
RECENT_CHAT_LIMIT = 20

class GameView(Protocol):
    """What the wire, the host and the client read of any game's view (core/games.py names each
    game's: a frozen msgspec Struct with these fields, and more of its own)."""

    @property
    def rules(self) -> Rules: ...
    @property
    def players(self) -> int: ...
    @property
    def seat(self) -> int | None: ...
    @property
    def round_number(self) -> int: ...
    @property
    def hand(self) -> tuple[Tile, ...]: ...
    @property
    def hand_counts(self) -> tuple[int, ...]: ...
    @property
    def boneyard(self) -> int: ...
    @property
    def turn(self) -> int | None: ...
    @property
    def legal(self) -> tuple[Action, ...]: ...
    @property
    def events(self) -> tuple[Any, ...]: ...
    @property
    def results(self) -> tuple[Any, ...]: ...
    @property
    def is_my_turn(self) -> bool: ...
    @property
    def match_over(self) -> bool: ...
    @property
    def between_rounds(self) -> bool: ...


#: A game's view, the fields of it an update carries, and the game's events (core/games.py).
V = TypeVar("V")
S = TypeVar("S")
E = TypeVar("E")


class GameSnapshot(_FromHost, Generic[V], frozen=True, tag="snapshot", omit_defaults=True):
    """Everything you may know now, in the table's game (``view``: that game's view); the next
    update has ``seq`` + 1 or more.

    One declaration for every game: each game's snapshot is this one with its view
    (`GameWire.snapshot`). ``chat`` came later, inside protocol version 2: left out while
    nothing was said, so that such a snapshot is the bytes it always was.
    """

    seq: Count
    view: V
    #: The last chat lines said at the table (at most `RECENT_CHAT_LIMIT`), oldest first.
    chat: Annotated[tuple[Chat, ...], Meta(max_length=RECENT_CHAT_LIMIT)] = ()
    #: The numbers of the events in ``view`` that the computer made for your seat (covering it while
    #: you were away, or when your turn timer ran out), oldest first. Added in version 6, left out
    #: when there are none: an older client reads the snapshot as before.
    covered: Annotated[tuple[Count, ...], Meta(max_length=MAX_EVENTS)] = ()


class GameUpdate(_FromHost, Generic[S, E], frozen=True, tag="update"):
    """Public events, numbered, and your view's changing fields after them, in the table's game.

    ``seq`` is the number of the last event in ``events``; the events carry the
    numbers ``seq - len(events) + 1`` to ``seq``. ``view`` holds every field of the
    game's view but its rules, events and results (`GameWire.state`); `advance_view`
    makes the whole view from the one before (the client does it for you: it yields
    an `Update` with the whole view). One declaration for every game, as `GameSnapshot`.
    """

    seq: Count
    events: Annotated[tuple[E, ...], Meta(max_length=MAX_EVENTS)]
    view: S
    #: The seat whose action caused the events (None for the deal after a break).
    actor: SeatNumber | None = None
    by: ActedBy = ActedBy.PERSON
    #: The ``ref`` of your intent, when this update answers it.
    ref: Ref | None = None


#: The fields of any game's view that an update leaves out: its rules are fixed for the
#: match, and its events and results follow from the events (`GameWire.advance`).
KEPT_FIELDS = ("rules", "events", "results")
#: The field of a view's map that names its game (a view of the Draw family names none).
GAME_FIELD = "game"


class GameWire:
    """One game as the wire carries it, made from its declaration in core's registry of games.

    ``state``: the view's changing fields as an update carries them, a Struct made from
    the view's declaration (so the two never differ), tagged as the view is.
    ``snapshot`` and ``update``: `GameSnapshot` and `GameUpdate` given the game's view,
    state and events, each a class of its own, so that a game's messages are told apart.
    ``tag``: what the game's view maps say in their ``game`` field (None: nothing).
    """

    def __init__(self, spec: GameSpec) -> None:
        view: type[Any] = spec.view
        config = view.__struct_config__
        if spec.view_tag is not None and (config.tag_field, config.tag) != (GAME_FIELD, spec.view_tag):
            raise TypeError(f"{view.__name__} must name its game in its {GAME_FIELD!r} field")
        fields = msgspec.structs.fields(view)
        names = [field.name for field in fields]
        if not set(KEPT_FIELDS) <= set(names):
            raise TypeError(f"{view.__name__} needs the fields {', '.join(KEPT_FIELDS)}")
        self.spec = spec
        self.view = view
        self.tag = spec.view_tag
        events = get_args(spec.events) or (spec.events,)
        #: A round's events begin with the one that numbers the round, and end with the one
        #: that carries its result (the view's ``events`` are the round's so far).
        self.round_started = _the_event(spec, events, lambda kind: "round_number" in kind.__struct_fields__,
                                        "number a round")
        self.round_ended = _the_event(spec, events, lambda kind: any(
            field.type is spec.result for field in msgspec.structs.fields(kind)), "carry a round's result")
        #: Where the changing fields lie among the view's fields, in order.
        self._state_at = tuple(i for i, name in enumerate(names) if name not in KEPT_FIELDS)
        # (A field with a default keeps it: `View.blanks` is UNSET, and not written, off wild blanks.)
        self.state: type[Any] = _named(msgspec.defstruct(
            f"{view.__name__}State",
            [(field.name, field.type) if field.default is msgspec.NODEFAULT
             else (field.name, field.type, field.default)
             for field in fields if field.name not in KEPT_FIELDS],
            frozen=True, gc=False, module=__name__, tag_field=config.tag_field, tag=config.tag,
        ))
        first, last = self._state_at[0], self._state_at[-1]
        #: The changing fields are one run of the view's (as the Draw family's are): sliced at once.
        self._state_run = slice(first, last + 1) if last - first + 1 == len(self._state_at) else None
        # A view is made from the one before: its rules, events and results, then the
        # state's fields (in `advance`'s order), put back in the view's own order.
        state_at = {at: len(KEPT_FIELDS) + n for n, at in enumerate(self._state_at)}
        self._order = tuple(state_at[i] if i in state_at else KEPT_FIELDS.index(name)
                            for i, name in enumerate(names))
        #: The view's fields are its rules, the state's fields, its events and its results, in
        #: that order (as the Draw family's are): a view is made from them as they come.
        self._in_order = names == ["rules", *self.state.__struct_fields__, "events", "results"]
        snapshot: Any = GameSnapshot
        update: Any = GameUpdate
        self.snapshot: type[GameSnapshot[Any]] = _named(
            types.new_class(f"{view.__name__}Snapshot", (snapshot[view],), {"frozen": True}))
        self.update: type[GameUpdate[Any, Any]] = _named(
            types.new_class(f"{view.__name__}Update", (update[self.state, spec.events],), {"frozen": True}))

    def state_of(self, view: Any) -> Any:
        """``view``'s fields that change move by move, as an update carries them."""
        values = msgspec.structs.astuple(view)
        if self._state_run is not None:
            return self.state(*values[self._state_run])
        return self.state(*(values[at] for at in self._state_at))

    def advance(self, view: Any, update: GameUpdate[Any, Any]) -> Any:
        """The view after ``update``, from the view before it (both of this game)."""
        events = list(view.events)
        results = list(view.results)
        started, ended = self.round_started, self.round_ended
        for event in update.events:
            kind = type(event)
            events = [event] if kind is started else [*events, event]
            if kind is ended:
                results.append(event.result)
        state = msgspec.structs.astuple(update.view)
        if self._in_order:
            return self.view(view.rules, *state, tuple(events), tuple(results))
        parts = (view.rules, tuple(events), tuple(results), *state)
        return self.view(*[parts[at] for at in self._order])


def _the_event(spec: GameSpec, events: tuple[Any, ...], test: Callable[[Any], bool], what: str) -> type[Any]:
    """The one kind of ``events`` that passes ``test``; TypeError when not exactly one does."""
    found = [kind for kind in events if test(kind)]
    if len(found) != 1:
        raise TypeError(f"one kind of event of {spec.title} must {what}, not {len(found)}")
    kind: type[Any] = found[0]
    return kind


def _named(kind: Any) -> Any:
    """``kind``, a class made at run time, where pickle looks for it: in this module, by its name."""
    kind.__module__ = __name__
    globals()[kind.__name__] = kind
    return kind


#: Each game as the wire carries it, made the first time that game is asked for (`wire_of_game`): a
#: Draw-family table never makes Mexican Train's or Fives and Threes', nor loads their modules.
_BY_SPEC: dict[GameSpec, GameWire] = {}
#: Each made game's snapshot and update classes -> the game.
_BY_MESSAGE: dict[type[Any], GameWire] = {}


def wire_of_game(spec: GameSpec) -> GameWire:
    """The game core's registry declares as ``spec``, as the wire carries it (made on first use)."""
    game = _BY_SPEC.get(spec)
    if game is None:
        game = _BY_SPEC[spec] = GameWire(spec)
        _BY_MESSAGE.update({game.snapshot: game, game.update: game})
    return game


def _wire_tagged(tag: str | None) -> GameWire | None:
    """The game whose views say ``tag`` in their ``game`` field (None: the game whose views name
    none), as the wire carries it; None for no game of the registry."""
    spec = next((spec for spec in GAMES if spec.view_tag == tag), None)
    return wire_of_game(spec) if spec is not None else None


def wire_of(view: Any) -> GameWire:
    """The game ``view`` is a view of, as the wire carries it; ValueError for no game's view."""
    game = wire_of_game(game_of_view(view))
    if type(view) is not game.view:
        raise ValueError(f"{type(view).__name__} is no game's view")
    return game


def view_state(view: Any) -> Any:
    """``view``'s fields that change move by move, as an update carries them (any game's)."""
    return wire_of(view).state_of(view)


def advance_view(view: V, update: GameUpdate[Any, Any]) -> V:
    """The view after ``update``, from the view before it; ValueError when the update is of
    another game than the view."""
    game = wire_of(view)
    if type(update) is not game.update:
        other = _BY_MESSAGE.get(type(update))
        raise ValueError(f"an update of {other.spec.title if other else 'no game'} cannot follow a view "
                         f"of {game.spec.title}")
    advanced: V = game.advance(view, update)
    return advanced


# Each game's messages by the names they had when each game declared its own.
#: The Draw family's (whose views name no game): every table's start loads that game anyway.
_DRAW_FAMILY = wire_of_game(LINE)
Snapshot = _DRAW_FAMILY.snapshot
StateUpdate = _DRAW_FAMILY.update
ViewState = _DRAW_FAMILY.state
#: Mexican Train's, made when first named (``TrainSnapshot``...: see `__getattr__` below).
_TRAIN_NAMES = {"TrainSnapshot": "snapshot", "TrainUpdate": "update", "TrainViewState": "state"}
if TYPE_CHECKING:
    TrainSnapshot: type[GameSnapshot[Any]]
    TrainUpdate: type[GameUpdate[Any, Any]]
    TrainViewState: type[Any]
    #: Every game as the wire carries it, in the registry's order (each made as it is asked for).
    GAME_WIRES: tuple[GameWire, ...]
else:
    def __getattr__(name: str) -> Any:
        """Mexican Train's messages by their old names, `GAME_WIRES`, or a class `GameWire` names
        (where pickle looks for it), each made when first asked for: a table of one game
        never makes another's."""
        if name in _TRAIN_NAMES:
            return getattr(wire_of_game(MEXICAN_TRAIN), _TRAIN_NAMES[name])
        if name == "GAME_WIRES":
            return tuple(wire_of_game(spec) for spec in GAMES)
        if not name.startswith("_") and name.endswith(("Snapshot", "Update", "State")):
            for spec in GAMES:  # (``MexicanViewSnapshot``: the class `_named` gives a game's snapshot)
                wire_of_game(spec)
            if name in globals():
                return globals()[name]
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
train_view_state = view_state
advance_train_view = advance_view


class TurnTimer(_FromHost, frozen=True, tag="timer"):
    """Seat ``seat`` has ``seconds`` to act before the computer acts for it."""

    seat: SeatNumber
    seconds: Seconds


class NextRound(_FromHost, frozen=True, tag="next_round"):
    """A round is over: the next is dealt when every person waited for is ready, or in ``seconds``.

    Sent to everybody when a round ends (not the match), again whenever
    ``ready`` or ``waiting`` changes, and after the snapshot to a client that
    arrives during the break.
    """

    #: Seconds left before the host deals anyway; None: it waits for the people.
    seconds: Seconds | None
    #: Seats that said they are ready.
    ready: SeatList
    #: Seats the host still waits for (connected people who are not ready).
    waiting: SeatList


class Waiting(_FromHost, frozen=True, tag="waiting"):
    """The handshake waits: for now only for the host's operator to let you back in a seat."""

    #: Why: "approval" (the operator is asked whether you may have ``seat`` back).
    reason: Annotated[str, Meta(max_length=40)]
    seat: SeatNumber
    #: Seconds the host waits for the answer before it refuses.
    seconds: Seconds


class ByeReason(StrEnum):
    """Why a host ends the game on purpose (`HostBye.reason`)."""

    #: The person hosting (``name``), or the operator of a headless host, closed the table.
    CLOSED = "closed"


class HostBye(_FromHost, frozen=True, tag="bye"):
    """The host ends the game on purpose: do not reconnect; keep the seat only if ``resumable``.

    Sent to everybody at the table just before the host hangs up (its ``shutting_down``
    error follows, for a client that does not know this message).
    """

    #: A `ByeReason` value (a client keeps reasons it does not know as text).
    reason: Annotated[str, Meta(max_length=40)]
    #: Who closed it: the hosting player's name (None: the host's operator, or nobody known).
    name: Annotated[str, Meta(max_length=NAME_LIMIT)] | None = None
    #: The match is journalled and unfinished: a host started again can resume it, and the
    #: seat's token and key will take it back then.
    resumable: bool = False


class Error(_FromHost, frozen=True, tag="error"):
    """The host refused something: an `ErrorCode`, a sentence, and whether it hangs up."""

    #: An `ErrorCode` value (a client keeps codes it does not know as text).
    code: Annotated[str, Meta(max_length=40)]
    message: Annotated[str, Meta(max_length=1000)]
    ref: Ref | None = None
    fatal: bool = False


class MatchRecorded(_FromHost, frozen=True, tag="record"):
    """The match is over: its whole record (every deal and every action, public now).

    Sent to everybody at the table right after the update that ends the match, and
    after the snapshot to whoever comes in once it is over; never before (net/store/record.py
    says what a record holds; a client checks it replays to the totals it saw).
    """

    record: MatchRecord


# -- the club night (docs/PROTOCOL.md, section 10) ------------------------------

#: The name a hello gives as its ``table`` to join the club night rather than a table.
CLUB_TABLE = "club"
#: The most people a club night lists (entrant ids are 0 to this less one).
CLUB_ENTRANTS_LIMIT = 256
#: The most tables one round of a club night draws.
CLUB_TABLES_LIMIT = 128
#: A night's name, as the organiser typed it (cleaned by the host).
CLUB_NAME_LIMIT = 48
#: An entrant's number in the night: 0, 1, ... in the order they joined.
EntrantId = Annotated[int, Meta(ge=0, le=CLUB_ENTRANTS_LIMIT - 1)]
#: A match's points (a side's total, or a difference of totals).
Points = Annotated[int, Meta(ge=-(2**31), le=2**31)]
#: Entrants in one list (opponents, partners, byes).
EntrantList = Annotated[tuple[EntrantId, ...], Meta(max_length=CLUB_ENTRANTS_LIMIT)]


class ClubPhase(StrEnum):
    """Where a club night stands (`ClubRoster.phase`)."""

    #: People join; the organiser has not drawn round 1 yet.
    GATHERING = "gathering"
    #: Round ``round``'s matches are being played.
    PLAYING = "playing"
    #: Round ``round`` is over (every table done); the next is not drawn yet.
    BETWEEN = "between"
    #: The last round is over: the standings are final.
    OVER = "over"


class TableState(StrEnum):
    """How one table of a round stands (`ClubTable.state`)."""

    PLAYING = "playing"
    #: Its match is over: the table waits for the round's others.
    DONE = "done"
    #: The organiser closed it late: its score as it stood counts.
    CLOSED = "closed"


class ClubEntrant(Struct, frozen=True):
    """One person of the night, as everyone sees them."""

    id: EntrantId
    name: Annotated[str, Meta(max_length=NAME_LIMIT)]
    #: In the night's later draws (False: they left for good).
    active: bool
    #: A live connection to the club.
    connected: bool


class ClubTable(Struct, frozen=True):
    """One table of a round: who sits where, and how its match stands."""

    #: 1, 2, ... within the round.
    number: Annotated[int, Meta(ge=1, le=CLUB_TABLES_LIMIT)]
    #: The table's name on this host ("r2-t3"): a hello's ``table`` to sit there or watch it.
    name: Annotated[str, Meta(max_length=TABLE_LIMIT)]
    #: The entrant in each seat, in seat order (null: a computer plays the seat).
    seats: Annotated[tuple[EntrantId | None, ...], Meta(max_length=MOST_SEATS)]
    #: A `TableState` value (a client keeps values it does not know as text).
    state: Annotated[str, Meta(max_length=16)]
    #: The seats of each side (one per player, or the two partnerships), and each side's
    #: points so far (the match's totals once it is done; empty before its first round ends).
    sides: Annotated[tuple[SeatList, ...], Meta(max_length=MOST_SEATS)]
    points: Annotated[tuple[Points, ...], Meta(max_length=MOST_SEATS)] = ()


class ClubRoster(_FromHost, frozen=True, kw_only=True, tag="club"):
    """The club night as it stands: who is in it, its phase, and the round's tables.

    Sent on the club's connection right after its welcome, and again whenever any of it changes.
    """

    #: The night's name, as the organiser gave it.
    name: Annotated[str, Meta(max_length=CLUB_NAME_LIMIT)]
    #: The game every table plays, and its options (section 5's rules map).
    rules: Rules
    #: The night's format: "swiss", "rotating-partners" or "round-robin".
    format: Annotated[str, Meta(max_length=24)]
    #: How many rounds the night has.
    rounds: Annotated[int, Meta(ge=1, le=64)]
    #: The round being played, or the last one played (0: none yet).
    round: Annotated[int, Meta(ge=0, le=64)]
    #: A `ClubPhase` value.
    phase: Annotated[str, Meta(max_length=16)]
    #: Your entrant id (null: you watch the night).
    you: EntrantId | None
    entrants: Annotated[tuple[ClubEntrant, ...], Meta(max_length=CLUB_ENTRANTS_LIMIT)]
    #: The tables of round ``round`` (empty while gathering).
    tables: Annotated[tuple[ClubTable, ...], Meta(max_length=CLUB_TABLES_LIMIT)] = ()


class ClubDrawn(_FromHost, frozen=True, kw_only=True, tag="club_draw"):
    """A round is drawn: its tables, and yours.

    Sent to everybody in the club when the round is drawn, and again to a person who comes
    back to the club during the round. With ``table`` set, the client opens that table with
    ``token`` (a `hello` with ``table`` and ``token``): nobody types anything.
    """

    round: Annotated[int, Meta(ge=1, le=64)]
    tables: Annotated[tuple[ClubTable, ...], Meta(max_length=CLUB_TABLES_LIMIT)]
    #: Entrants who sit this round out (the organiser chose byes over computer seats).
    byes: EntrantList = ()
    #: Your table's name and your seat at it (null: you sit out, or you watch the night).
    table: Annotated[str, Meta(max_length=TABLE_LIMIT)] | None = None
    seat: SeatNumber | None = None
    #: Your seat's secret, for this machine (a hello's ``token``), and its key for a person to type.
    token: Annotated[str, Meta(max_length=TOKEN_LIMIT)] | None = None
    seat_key: Annotated[str, Meta(max_length=SEAT_KEY_LIMIT)] | None = None
    #: The computer plays your seat now (you dropped and its grace period ran out, or you left
    #: the table): a client coming back asks before taking it back. False while the seat is only
    #: held for you (a host before this field sends none: false).
    covered: bool = False


class StandingRow(Struct, frozen=True):
    """One entrant's line in the standings."""

    entrant: EntrantId
    name: Annotated[str, Meta(max_length=NAME_LIMIT)]
    played: Count
    won: Count
    points_for: Points
    points_against: Points
    #: Rounds sat out with a bye.
    byes: Count
    #: Matches where a computer filled a seat at their table.
    computer_seats: Count
    #: Swiss's tie-break: the sum of the opponents' matches won.
    buchholz: Count
    #: Who they played against, and who with, in the order they met.
    opponents: EntrantList = ()
    partners: EntrantList = ()
    #: Their points difference, match by match (turned round where the lower total wins, as in
    #: Mexican Train: a winner's difference is positive), and their wins against those level with them.
    difference: Points = 0
    head_to_head: Count = 0


class ClubStandings(_FromHost, frozen=True, tag="standings"):
    """The night's standings, best first: sent on the club's connection after the welcome and
    whenever a table's match ends (or is closed); live between rounds and during them."""

    #: The round whose tables are counted so far (its finished tables only, during it).
    round: Annotated[int, Meta(ge=0, le=64)]
    #: The night is over: these are the final standings.
    final: bool
    rows: Annotated[tuple[StandingRow, ...], Meta(max_length=CLUB_ENTRANTS_LIMIT)]


#: The club's messages a host sends (on the club's connection only).
ClubMessage = ClubRoster | ClubDrawn | ClubStandings


#: What a host sends, every game's snapshot and update among them (each game's are made from the
#: registry of games when that game is first asked for: here, a snapshot or an update of any game).
if TYPE_CHECKING:
    HostMessage: TypeAlias = (
        Welcome | Seats | GameSnapshot[Any] | GameUpdate[Any, Any] | Chat | TurnTimer | NextRound | Waiting
        | HostBye | Error | Ping | Pong | MatchRecorded | ClubRoster | ClubDrawn | ClubStandings
    )
else:  # (each game's snapshot and update are subclasses of these two, made as the game is asked for)
    HostMessage = (Welcome | Seats | GameSnapshot | GameUpdate | Chat | TurnTimer | NextRound | Waiting
                   | HostBye | Error | Ping | Pong | MatchRecorded | ClubRoster | ClubDrawn | ClubStandings)
#: A snapshot or an update of any game.
AnySnapshot: TypeAlias = GameSnapshot[Any]
AnyUpdate: TypeAlias = GameUpdate[Any, Any]
Message = ClientMessage | HostMessage


# -- plain data and back -------------------------------------------------------


class _PingFromClient(Ping, frozen=True, forbid_unknown_fields=True, tag="ping"):
    """A ping as a client may send it (Ping and Pong go both ways: read from a client, they are strict)."""


class _PongFromClient(Pong, frozen=True, forbid_unknown_fields=True, tag="pong"):
    """A pong as a client may send it."""


_CLIENT_TYPES: dict[str, type[Any]] = {kind.__struct_config__.tag: kind for kind in get_args(ClientMessage)}
#: A snapshot or an update is read as its game's: the one its view names.
_HOST_TYPES: dict[str, type[Any]] = {kind.__struct_config__.tag: kind for kind in get_args(HostMessage)}
_STRICT_TWINS: dict[type[Any], type[Any]] = {Ping: _PingFromClient, Pong: _PongFromClient}


def message_type(message: Message) -> str:
    """``message``'s ``type`` on the wire (its declaration's tag)."""
    return str(message.__struct_config__.tag)


def to_wire(message: Message) -> dict[str, Any]:
    """``message`` as plain data: its ``type``, then its fields in the order declared."""
    data: dict[str, Any] = wire.plain(message)
    return data


def message_from_client(data: Any) -> ClientMessage:
    """The client message ``data`` holds (decoded msgpack), or `ProtocolError`.

    A field the message's declaration lacks is refused.
    """
    kind = _kind(data, _CLIENT_TYPES, "client")
    strict = _STRICT_TWINS.get(kind)
    if strict is not None:
        _read(data, strict)  # the same message, with unknown fields refused
    message: ClientMessage = _read(data, kind)
    return message


def message_from_host(data: Any) -> HostMessage:
    """The host message ``data`` holds (decoded msgpack), or `ProtocolError`.

    Unknown fields are ignored, so that a newer host can add some.
    """
    kind = _kind(data, _HOST_TYPES, "host")
    if kind is GameSnapshot or kind is GameUpdate:
        game = _game_named_by(data)
        kind = game.snapshot if kind is GameSnapshot else game.update
    message: HostMessage = _read(data, kind)
    return message


def _game_named_by(data: dict[str, Any]) -> GameWire:
    """The game whose snapshot or update ``data`` is: the one its view map names (none: the
    game whose views name none); `ProtocolError` for a game this side does not know."""
    view = data.get("view")
    name = view.get(GAME_FIELD) if type(view) is dict else None
    game = _wire_tagged(name) if type(name) is str else None
    if game is not None:
        return game
    if type(name) is str:
        raise _bad(f"{data['type']}.view.{GAME_FIELD}: there is no game {name[:40]!r} here")
    return _DRAW_FAMILY  # (a view that names no game, or that names it with no text)


def _kind(data: Any, kinds: dict[str, type[Any]], side: str) -> type[Any]:
    """The declaration of the message ``data`` says it is; an unknown ``type`` is `unknown_type`."""
    if type(data) is not dict:
        raise _bad("a message must be a map")
    name = data.get("type")
    if type(name) is not str:
        raise _bad("a message needs a 'type' text field")
    kind = kinds.get(name)
    if kind is None:
        raise ProtocolError(ErrorCode.UNKNOWN_TYPE, f"there is no {side} message of type {name[:40]!r}")
    return kind


def _read(data: dict[str, Any], kind: type[Any]) -> Any:
    try:
        return wire.read(data, kind)
    except msgspec.ValidationError as exc:
        raise _bad(wire.sentence(exc, kind.__struct_config__.tag)) from None


def _bad(message: str) -> ProtocolError:
    return ProtocolError(ErrorCode.BAD_MESSAGE, message)


def clean_name(text: str) -> str:
    """A player's name as others will see it; `ProtocolError` if nothing visible is left of it.

    Normalised (NFKC) first, so that a name written in full-width letters or
    with compatibility forms is the name it looks like.
    """
    name = clean_text(unicodedata.normalize("NFKC", text), limit=NAME_LIMIT)
    if not name:
        raise ProtocolError(ErrorCode.BAD_NAME, "a name needs at least one visible character")
    return name


def clean_chat(text: str) -> str:
    return clean_text(text, limit=CHAT_LIMIT)


__all__ = [
    "CHAT_LIMIT",
    "CLUB_ENTRANTS_LIMIT",
    "CLUB_NAME_LIMIT",
    "CLUB_TABLE",
    "CLUB_TABLES_LIMIT",
    "DEFAULT_PORT",
    "GAME_WIRES",
    "MATCH_ID_LIMIT",
    "MAX_CLIENT_FRAME",
    "MAX_DEPTH",
    "MAX_HOST_FRAME",
    "MAX_HOST_ITEMS",
    "MOST_SEATS",
    "NAME_LIMIT",
    "PROTOCOL_VERSION",
    "RECENT_CHAT_LIMIT",
    "WATCHERS_LIMIT",
    "Act",
    "ActedBy",
    "AnySnapshot",
    "AnyUpdate",
    "Bye",
    "ByeReason",
    "Chat",
    "ClientMessage",
    "ClubClose",
    "ClubDrawn",
    "ClubEntrant",
    "ClubMessage",
    "ClubPhase",
    "ClubRoster",
    "ClubStandings",
    "ClubStart",
    "ClubTable",
    "Error",
    "ErrorCode",
    "GameSnapshot",
    "GameUpdate",
    "GameView",
    "GameWire",
    "Hello",
    "HostBye",
    "HostMessage",
    "MatchRecorded",
    "Message",
    "NextRound",
    "Ping",
    "Pong",
    "ProtocolError",
    "Ready",
    "Say",
    "Seat",
    "SeatKind",
    "Seats",
    "Snapshot",
    "StandingRow",
    "StateUpdate",
    "TableState",
    "TrainSnapshot",
    "TrainUpdate",
    "TrainViewState",
    "TurnTimer",
    "ViewState",
    "Waiting",
    "Welcome",
    "advance_train_view",
    "advance_view",
    "clean_chat",
    "clean_name",
    "message_from_client",
    "message_from_host",
    "message_type",
    "to_wire",
    "train_view_state",
    "view_state",
    "wire_of",
    "wire_of_game",
]
