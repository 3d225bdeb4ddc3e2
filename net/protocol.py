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
"""

from __future__ import annotations

import unicodedata
from enum import StrEnum
from typing import Annotated, Any, TypeAlias, get_args

import msgspec
from capicu.core import Action, Event, RoundEnded, RoundStarted, View
from capicu.core.codes import Code
from capicu.core.draw.view import MAX_HISTORY, STATE, STATE_FIELDS
from capicu.core.mexican.events import MexicanEvent, MexicanRoundEnded, MexicanRoundStarted
from capicu.core.mexican.view import MexicanView
from capicu.net.host.sanitize import clean_text
from capicu.net.store.record import MatchRecord
from msgspec import Meta, Struct

from . import wire
from .limits import (
    MATCH_ID_LIMIT,
    MAX_CLIENT_FRAME,
    MAX_DEPTH,
    MAX_HOST_FRAME,
    MAX_HOST_ITEMS,
    MOST_SEATS,
    NAME_LIMIT,
)

#: Version 2 added seat keys, match ids, leaving on purpose, asking for a seat
#: back by name, and the pause between rounds; version 3, Mexican Train (train
#: views, their events and actions) and tables of up to 8 (docs/PROTOCOL.md, section 9).
PROTOCOL_VERSION = 4
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



ClientMessage = Hello | Act | Say | Ping | Pong | Bye | Ready


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


class Chat(_FromHost, frozen=True, tag="chat"):
    """A chat line, cleaned by the host; ``seat`` None for a spectator."""

    name: Annotated[str, Meta(max_length=NAME_LIMIT)]
    seat: SeatNumber | None
    text: Annotated[str, Meta(max_length=CHAT_LIMIT)]


#: The chat lines a snapshot carries: the last ones said at the table, so that a player who
#: comes back reads what was said (a bound: a snapshot stays small however long the match).
RECENT_CHAT_LIMIT = 20


class Snapshot(_FromHost, frozen=True, tag="snapshot", omit_defaults=True):
    """Everything you may know now; the next update has ``seq`` + 1 or more.

    ``chat`` came later, inside protocol version 2: left out while nothing was said, so that
    such a snapshot is the bytes it always was.
    """

    seq: Count
    view: View
    #: The last chat lines said at the table (at most `RECENT_CHAT_LIMIT`), oldest first.
    chat: Annotated[tuple[Chat, ...], Meta(max_length=RECENT_CHAT_LIMIT)] = ()


#: The fields of a `View` that change move by move (all but its rules, events and
#: results), as an update carries them: made from View's declaration, so the two
#: never differ. The rules are fixed for the match, and the events and results
#: follow from the events (see `advance_view`). (mypy cannot follow a class made at
#: run time: to it, ViewState is a Struct with no fields of its own.)
ViewState: TypeAlias = msgspec.defstruct(  # type: ignore[valid-type]
    "ViewState",
    # (A field with a default keeps it: `View.blanks` is UNSET, and not written, off wild blanks.)
    [
        (field.name, field.type) if field.default is msgspec.NODEFAULT
        else (field.name, field.type, field.default)
        for field in msgspec.structs.fields(View) if field.name in STATE_FIELDS
    ],
    frozen=True, gc=False, module=__name__,
)


#: Where a `MexicanView`'s fields that an update leaves out lie: its rules, events and results.
_TRAIN_KEPT = ("rules", "events", "results")
#: The fields of a `MexicanView` that change move by move (all but its rules, events and
#: results), as an update carries them, tagged as the view is (``game``).
TrainViewState: TypeAlias = msgspec.defstruct(  # type: ignore[valid-type]
    "TrainViewState",
    [(field.name, field.type) for field in msgspec.structs.fields(MexicanView)
     if field.name not in _TRAIN_KEPT],
    frozen=True, gc=False, module=__name__, tag_field="game", tag="mexican-train",
)
_TRAIN_STATE_FIELDS = TrainViewState.__struct_fields__


def view_state(view: View) -> ViewState:
    """``view``'s fields that change move by move, as an update carries them."""
    return ViewState(*msgspec.structs.astuple(view)[STATE])


def train_view_state(view: MexicanView) -> TrainViewState:
    """A train view's fields that change move by move, as an update carries them."""
    return TrainViewState(*(getattr(view, name) for name in _TRAIN_STATE_FIELDS))


class StateUpdate(_FromHost, frozen=True, tag="update"):
    """Public events, numbered, and your view's changing fields after them.

    ``seq`` is the number of the last event in ``events``; the events carry the
    numbers ``seq - len(events) + 1`` to ``seq``. `advance_view` makes the
    whole view from the one before (the client does it for you: it yields an
    `Update` with the whole view).
    """

    seq: Count
    events: Annotated[tuple[Event, ...], Meta(max_length=MAX_HISTORY)]
    view: ViewState
    #: The seat whose action caused the events (None for the deal after a break).
    actor: SeatNumber | None = None
    by: ActedBy = ActedBy.PERSON
    #: The ``ref`` of your intent, when this update answers it.
    ref: Ref | None = None


class TrainSnapshot(_FromHost, frozen=True, tag="snapshot", omit_defaults=True):
    """A `Snapshot` of Mexican Train: its view is a `MexicanView` (the map says ``game: "mexican-train"``)."""

    seq: Count
    view: MexicanView
    chat: Annotated[tuple[Chat, ...], Meta(max_length=RECENT_CHAT_LIMIT)] = ()


class TrainUpdate(_FromHost, frozen=True, tag="update"):
    """A `StateUpdate` of Mexican Train: its events are Mexican Train's, its view a train view's state."""

    seq: Count
    events: Annotated[tuple[MexicanEvent, ...], Meta(max_length=MAX_HISTORY)]
    view: TrainViewState
    actor: SeatNumber | None = None
    by: ActedBy = ActedBy.PERSON
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
    # View's fields in order: the rules, the state's fields (`STATE`), the events, the results.
    state = msgspec.structs.astuple(update.view)
    return View(*(view.rules, *state, tuple(events), tuple(results)))


def advance_train_view(view: MexicanView, update: TrainUpdate) -> MexicanView:
    """The train view after ``update``, from the train view before it (as `advance_view`)."""
    events = list(view.events)
    results = list(view.results)
    for event in update.events:
        events = [event] if isinstance(event, MexicanRoundStarted) else [*events, event]
        if isinstance(event, MexicanRoundEnded):
            results.append(event.result)
    state = {name: getattr(update.view, name) for name in _TRAIN_STATE_FIELDS}
    return MexicanView(rules=view.rules, events=tuple(events), results=tuple(results), **state)


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


HostMessage = (
    Welcome | Seats | Snapshot | StateUpdate | Chat | TurnTimer | NextRound | Waiting | HostBye | Error | Ping
    | Pong | TrainSnapshot | TrainUpdate | MatchRecorded
)
#: A snapshot or an update of either game.
AnySnapshot = Snapshot | TrainSnapshot
AnyUpdate = StateUpdate | TrainUpdate
Message = ClientMessage | HostMessage


# -- plain data and back -------------------------------------------------------


class _PingFromClient(Ping, frozen=True, forbid_unknown_fields=True, tag="ping"):
    """A ping as a client may send it (Ping and Pong go both ways: read from a client, they are strict)."""


class _PongFromClient(Pong, frozen=True, forbid_unknown_fields=True, tag="pong"):
    """A pong as a client may send it."""


_CLIENT_TYPES: dict[str, type[Any]] = {kind.__struct_config__.tag: kind for kind in get_args(ClientMessage)}
_HOST_TYPES: dict[str, type[Any]] = {
    kind.__struct_config__.tag: kind for kind in get_args(HostMessage)
    if kind not in (TrainSnapshot, TrainUpdate)
}
_STRICT_TWINS: dict[type[Any], type[Any]] = {Ping: _PingFromClient, Pong: _PongFromClient}
#: The declarations of a snapshot and an update whose view says ``game: "mexican-train"``.
_TRAIN_TWINS: dict[type[Any], type[Any]] = {Snapshot: TrainSnapshot, StateUpdate: TrainUpdate}
#: The game a view map names when it is not the line of play's (which names none).
_TRAIN_GAME = MexicanView.__struct_config__.tag


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
    twin = _TRAIN_TWINS.get(kind)
    if twin is not None:
        view = data.get("view")
        if type(view) is dict and view.get("game") == _TRAIN_GAME:
            kind = twin
    message: HostMessage = _read(data, kind)
    return message


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
    "DEFAULT_PORT",
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
    "Error",
    "ErrorCode",
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
    "StateUpdate",
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
]
