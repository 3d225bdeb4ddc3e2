"""The messages of the wire protocol, each declared once, with its limits.

docs/PROTOCOL.md is the specification; this module is its executable form.
Every message is a frozen dataclass whose fields say their type and limits
(``Annotated[str, Text(96)]``); `to_wire` turns one into plain data (a map
with a ``type`` field) and `message_from_client` (what a host accepts) or
`message_from_host` (what a client accepts) reads one back, both derived
from the declarations by net/wire.py. Anything that does not match raises
`ProtocolError`, the protocol's one error type.

No ``from __future__ import annotations`` here: the limits must stay readable
at run time (see net/wire.py).
"""

import dataclasses
import unicodedata
from dataclasses import dataclass
from enum import StrEnum
from typing import Annotated, Any, ClassVar, get_args

from capicu.core import Action, Event, RoundEnded, RoundResult, RoundStarted, Rules, Tile, View
from capicu.core.codes import Code

from .sanitize import clean_text
from .wire import Invalid, Schema, Span, Text, Whole

#: Version 2 added seat keys, match ids, leaving on purpose, asking for a seat
#: back by name, and the pause between rounds (docs/PROTOCOL.md, section 9).
PROTOCOL_VERSION = 2
#: The TCP port a host listens on unless told otherwise (unassigned by IANA).
DEFAULT_PORT = 7254

#: The largest frame body a host accepts from a client: intents are tiny.
MAX_CLIENT_FRAME = 16 * 1024
#: The largest frame body a client accepts from a host: a snapshot of a long
#: match (every round's result) stays far below this.
MAX_HOST_FRAME = 4 * 1024 * 1024
#: How deeply maps and lists may nest in one message.
MAX_DEPTH = 12

NAME_LIMIT = 24
CHAT_LIMIT = 200
CODE_LIMIT = 32
TOKEN_LIMIT = 64
#: A seat key as a person may type it (14 symbols, with dashes and spaces).
SEAT_KEY_LIMIT = 40
TABLE_LIMIT = 32
MATCH_ID_LIMIT = 32

#: A seat's number (0-based), from any table's 2 to 4 seats.
SeatNumber = Annotated[int, Whole(0, 3)]
#: A client's number for its intent, echoed back; also a ping's.
Ref = Annotated[int, Whole(0, 2**31)]
#: Event numbers and other counts.
Count = Annotated[int, Whole(0, 2**53)]
Seconds = Annotated[float, Span(0.0, 1e9)]


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


@dataclass(frozen=True, slots=True, kw_only=True)
class Hello:
    """The first message of a connection: join a table, resume a seat, or watch.

    A seat comes back with its ``token`` (kept by the machine that had it) or its
    ``seat_key`` (read from that machine's screen and typed on another one).
    """

    type: ClassVar[str] = "hello"
    version: Annotated[int, Whole(0, 2**31)] = PROTOCOL_VERSION
    #: The name as typed: the host cleans it and cuts it to `NAME_LIMIT`.
    name: Annotated[str, Text(4 * NAME_LIMIT)]
    code: Annotated[str, Text(CODE_LIMIT)] | None = None
    token: Annotated[str, Text(TOKEN_LIMIT)] | None = None
    spectate: bool = False
    table: Annotated[str, Text(TABLE_LIMIT)] = "main"
    seat_key: Annotated[str, Text(SEAT_KEY_LIMIT)] | None = None


@dataclass(frozen=True, slots=True)
class Act:
    """An intent: take ``action`` for my seat (its text on the wire). ``ref`` is echoed back."""

    type: ClassVar[str] = "action"
    action: Action
    ref: Ref | None = None


@dataclass(frozen=True, slots=True)
class Say:
    """A chat line to everyone at the table (the host cleans it and cuts it to `CHAT_LIMIT`)."""

    type: ClassVar[str] = "chat"
    text: Annotated[str, Text(4 * CHAT_LIMIT)]


@dataclass(frozen=True, slots=True)
class Ping:
    """Are you there? (either direction; answered with a `Pong` carrying the same ``n``)."""

    type: ClassVar[str] = "ping"
    n: Ref = 0


@dataclass(frozen=True, slots=True)
class Pong:
    type: ClassVar[str] = "pong"
    n: Ref = 0


@dataclass(frozen=True, slots=True)
class Bye:
    """I am leaving on purpose: during a match the computer plays my seat, which stays mine."""

    type: ClassVar[str] = "bye"


@dataclass(frozen=True, slots=True)
class Ready:
    """I have read the round's end: deal the next round as far as I am concerned."""

    type: ClassVar[str] = "ready"


ClientMessage = Hello | Act | Say | Ping | Pong | Bye | Ready


# -- messages a host sends ---------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class Welcome:
    """You are in: your seat (None: spectator), its secrets, the table and its match."""

    type: ClassVar[str] = "welcome"
    version: Annotated[int, Whole(0, 2**31)] = PROTOCOL_VERSION
    table: Annotated[str, Text(TABLE_LIMIT)]
    name: Annotated[str, Text(NAME_LIMIT)]
    seat: SeatNumber | None
    #: The seat's secret for this machine to keep (None for a spectator).
    token: Annotated[str, Text(TOKEN_LIMIT)] | None
    #: The seat's key for a person to read and type elsewhere (None for a spectator).
    seat_key: Annotated[str, Text(SEAT_KEY_LIMIT)] | None
    players: Annotated[int, Whole(2, 4)]
    heartbeat: Seconds
    #: The id of the table's match: saved tokens are keyed by it.
    match: Annotated[str, Text(MATCH_ID_LIMIT)]


@dataclass(frozen=True, slots=True)
class Seat:
    """One seat as everyone sees it: the host's, the wire's and the screen's.

    The host keeps more about a seat (its token, key and connection, see
    net/table.py); none of that is here, so none of it can reach the wire.
    """

    seat: SeatNumber
    kind: SeatKind
    name: Annotated[str, Text(NAME_LIMIT)] | None
    #: A live connection (always True for a computer seat).
    connected: bool
    #: A computer plays for this person for now (they dropped past the grace period, or left).
    covered: bool
    #: The person left on purpose (a ``bye``), rather than losing the connection.
    left: bool = False


@dataclass(frozen=True, slots=True)
class Seats:
    """Who sits where: sent on joining, and whenever a seat changes."""

    type: ClassVar[str] = "seats"
    seats: tuple[Seat, ...]
    spectators: Count
    started: bool


@dataclass(frozen=True, slots=True)
class Snapshot:
    """Everything you may know now; the next update has ``seq`` + 1 or more."""

    type: ClassVar[str] = "snapshot"
    seq: Count
    view: View


@dataclass(frozen=True, slots=True)
class ViewState:
    """The fields of a `View` that change move by move: all but its rules, events and results.

    An update carries these: the rules are fixed for the match, and the events
    and results follow from the events (see `advance_view`). Each field is the
    `View` field of the same name (a test holds them together).
    """

    players: int
    seat: int | None
    round_number: int
    hand: tuple[Tile, ...]
    line: tuple[tuple[int, int], ...]
    ends: tuple[int, int] | None
    hand_counts: tuple[int, ...]
    boneyard: int
    drawable: int
    turn: int | None
    leader: int
    forced_lead: Tile | None
    draws_this_turn: int
    scores: tuple[int, ...]
    target: int
    legal: tuple[Action, ...]
    winner: int | None

    @classmethod
    def of(cls, view: View) -> "ViewState":
        return cls(
            view.players, view.seat, view.round_number, view.hand, view.line, view.ends, view.hand_counts,
            view.boneyard, view.drawable, view.turn, view.leader, view.forced_lead, view.draws_this_turn,
            view.scores, view.target, view.legal, view.winner,
        )

    def whole(self, rules: Rules, events: tuple[Event, ...], results: tuple[RoundResult, ...]) -> View:
        """The `View` of this state with the fields it leaves out."""
        fields = {name: getattr(self, name) for name in _STATE_FIELDS}
        return View(rules=rules, events=events, results=results, **fields)


_STATE_FIELDS = tuple(f.name for f in dataclasses.fields(ViewState))


@dataclass(frozen=True, slots=True)
class StateUpdate:
    """Public events, numbered, and your view's changing fields after them.

    ``seq`` is the number of the last event in ``events``; the events carry the
    numbers ``seq - len(events) + 1`` to ``seq``. `advance_view` makes the
    whole view from the one before (the client does it for you: it yields an
    `Update` with the whole view).
    """

    type: ClassVar[str] = "update"
    seq: Count
    events: tuple[Event, ...]
    view: ViewState
    #: The seat whose action caused the events (None for the deal after a break).
    actor: SeatNumber | None = None
    by: ActedBy = ActedBy.PERSON
    #: The ``ref`` of your intent, when this update answers it.
    ref: Ref | None = None


def advance_view(view: View, update: StateUpdate) -> View:
    """The view after ``update``, from the view before it."""
    events = list(view.events)
    results = list(view.results)
    for event in update.events:
        # A round's events start with its round_started (see View.events).
        events = [event] if isinstance(event, RoundStarted) else [*events, event]
        if isinstance(event, RoundEnded):
            results.append(event.result)
    return update.view.whole(view.rules, tuple(events), tuple(results))


@dataclass(frozen=True, slots=True)
class Chat:
    """A chat line, cleaned by the host; ``seat`` None for a spectator."""

    type: ClassVar[str] = "chat"
    name: Annotated[str, Text(NAME_LIMIT)]
    seat: SeatNumber | None
    text: Annotated[str, Text(CHAT_LIMIT)]


@dataclass(frozen=True, slots=True)
class TurnTimer:
    """Seat ``seat`` has ``seconds`` to act before the computer acts for it."""

    type: ClassVar[str] = "timer"
    seat: SeatNumber
    seconds: Seconds


@dataclass(frozen=True, slots=True)
class NextRound:
    """A round is over: the next is dealt when every person waited for is ready, or in ``seconds``.

    Sent to everybody when a round ends (not the match), again whenever
    ``ready`` or ``waiting`` changes, and after the snapshot to a client that
    arrives during the break.
    """

    type: ClassVar[str] = "next_round"
    #: Seconds left before the host deals anyway; None: it waits for the people.
    seconds: Seconds | None
    #: Seats that said they are ready.
    ready: tuple[SeatNumber, ...]
    #: Seats the host still waits for (connected people who are not ready).
    waiting: tuple[SeatNumber, ...]


@dataclass(frozen=True, slots=True)
class Waiting:
    """The handshake waits: for now only for the host's operator to let you back in a seat."""

    type: ClassVar[str] = "waiting"
    #: Why: "approval" (the operator is asked whether you may have ``seat`` back).
    reason: Annotated[str, Text(40)]
    seat: SeatNumber
    #: Seconds the host waits for the answer before it refuses.
    seconds: Seconds


@dataclass(frozen=True, slots=True)
class Error:
    """The host refused something: an `ErrorCode`, a sentence, and whether it hangs up."""

    type: ClassVar[str] = "error"
    #: An `ErrorCode` value (a client keeps codes it does not know as text).
    code: Annotated[str, Text(40)]
    message: Annotated[str, Text(1000)]
    ref: Ref | None = None
    fatal: bool = False


HostMessage = (
    Welcome | Seats | Snapshot | StateUpdate | Chat | TurnTimer | NextRound | Waiting | Error | Ping | Pong
)
Message = ClientMessage | HostMessage


# -- plain data and back -------------------------------------------------------

#: What a host reads: a field the page does not list is refused.
_FROM_CLIENT = Schema(strict=True)
#: What a client reads: unknown fields are ignored, so that a newer host can add some.
_FROM_HOST = Schema(strict=False)
_CLIENT_TYPES: dict[str, type[Any]] = {kind.type: kind for kind in get_args(ClientMessage)}
_HOST_TYPES: dict[str, type[Any]] = {kind.type: kind for kind in get_args(HostMessage)}


def to_wire(message: Message) -> dict[str, Any]:
    """``message`` as plain data: its ``type``, then its fields in the order declared."""
    # Writing is the same for both schemas (only reading differs): either will do.
    return {"type": message.type, **_FROM_HOST.plain(message)}


def message_from_client(data: Any) -> ClientMessage:
    """The client message ``data`` holds (decoded msgpack), or `ProtocolError`."""
    message: ClientMessage = _read(data, _CLIENT_TYPES, _FROM_CLIENT, "client")
    return message


def message_from_host(data: Any) -> HostMessage:
    """The host message ``data`` holds (decoded msgpack), or `ProtocolError`.

    Unknown fields are ignored, so that a newer host can add some.
    """
    message: HostMessage = _read(data, _HOST_TYPES, _FROM_HOST, "host")
    return message


def _read(data: Any, kinds: dict[str, type[Any]], schema: Schema, side: str) -> Any:
    if type(data) is not dict:
        raise _bad("a message must be a map")
    name = data.get("type")
    if type(name) is not str:
        raise _bad("a message needs a 'type' text field")
    kind = kinds.get(name)
    if kind is None:
        raise ProtocolError(ErrorCode.UNKNOWN_TYPE, f"there is no {side} message of type {name[:40]!r}")
    try:
        return schema.read({key: value for key, value in data.items() if key != "type"}, kind, name)
    except Invalid as exc:
        raise _bad(str(exc)) from None


def _bad(message: str) -> "ProtocolError":
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
    "DEFAULT_PORT",
    "MAX_CLIENT_FRAME",
    "MAX_HOST_FRAME",
    "NAME_LIMIT",
    "PROTOCOL_VERSION",
    "Act",
    "ActedBy",
    "Bye",
    "Chat",
    "ClientMessage",
    "Error",
    "ErrorCode",
    "Hello",
    "HostMessage",
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
    "StateUpdate",
    "TurnTimer",
    "ViewState",
    "Waiting",
    "Welcome",
    "advance_view",
    "clean_chat",
    "clean_name",
    "message_from_client",
    "message_from_host",
    "to_wire",
]
