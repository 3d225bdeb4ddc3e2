"""The messages of the wire protocol, as typed values, and their validation.

docs/PROTOCOL.md is the specification; this module is its executable form.
Every message is a frozen `Record` with ``to_wire()`` (plain data: a map
with a ``type`` field) and is read back by `message_from_client` (what a host
accepts) or `message_from_host` (what a client accepts). Anything that does not
match the schema raises `ProtocolError`, the protocol's one error type.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, ClassVar

from capicu.core import (
    Action,
    Event,
    RoundEnded,
    RoundStarted,
    View,
    event_from_dict,
    event_to_dict,
    parse_action,
)
from capicu.core.record import Record

from .sanitize import clean_text

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


class ErrorCode(StrEnum):
    """Why the host (or the codec) refused something; each is listed in PROTOCOL.md."""

    BAD_FRAME = "bad_frame"
    BAD_MESSAGE = "bad_message"
    UNKNOWN_TYPE = "unknown_type"
    VERSION = "version"
    NOT_READY = "not_ready"
    BAD_CODE = "bad_code"
    BAD_NAME = "bad_name"
    NAME_TAKEN = "name_taken"
    BAD_TOKEN = "bad_token"
    NO_TABLE = "no_table"
    TABLE_FULL = "table_full"
    NOT_SEATED = "not_seated"
    NOT_STARTED = "not_started"
    ILLEGAL = "illegal"
    RATE_LIMITED = "rate_limited"
    TOO_MANY_ERRORS = "too_many_errors"
    TOO_MANY_CONNECTIONS = "too_many_connections"
    TIMEOUT = "timeout"
    SLOW_READER = "slow_reader"
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


# -- reading fields ----------------------------------------------------------


def _bad(message: str) -> ProtocolError:
    return ProtocolError(ErrorCode.BAD_MESSAGE, message)


class _Fields:
    """Typed access to one message map, naming the message and field in every error."""

    def __init__(self, data: dict[str, Any], kind: str, allowed: frozenset[str] | None) -> None:
        self.data = data
        self.kind = kind
        if allowed is not None:
            extra = sorted(set(data) - allowed - {"type"})
            if extra:
                raise _bad(f"a {kind} message has no field {extra[0]!r}")

    def _get(self, name: str, required: bool) -> Any:
        if name not in self.data:
            if required:
                raise _bad(f"a {self.kind} message needs the field {name!r}")
            return None
        return self.data[name]

    def integer(self, name: str, *, required: bool = True, low: int = 0, high: int = 2**53) -> int | None:
        value = self._get(name, required)
        if value is None and not required:
            return None
        if type(value) is not int or not low <= value <= high:
            raise _bad(f"{self.kind}.{name} must be a whole number from {low} to {high}")
        return value

    def req_integer(self, name: str, *, low: int = 0, high: int = 2**53) -> int:
        value = self.integer(name, low=low, high=high)
        assert value is not None
        return value

    def text(self, name: str, *, limit: int, required: bool = True) -> str | None:
        value = self._get(name, required)
        if value is None and not required:
            return None
        if type(value) is not str or len(value) > limit:
            raise _bad(f"{self.kind}.{name} must be a text of at most {limit} characters")
        return value

    def req_text(self, name: str, *, limit: int) -> str:
        value = self.text(name, limit=limit)
        assert value is not None
        return value

    def flag(self, name: str, *, default: bool) -> bool:
        value = self._get(name, False)
        if value is None:
            return default
        if type(value) is not bool:
            raise _bad(f"{self.kind}.{name} must be true or false")
        return value

    def seconds(self, name: str) -> float:
        value = self._get(name, True)
        if type(value) not in (int, float) or value != value or not 0 <= value < 1e9:
            raise _bad(f"{self.kind}.{name} must be a number of seconds")
        return float(value)

    def mapping(self, name: str) -> dict[str, Any]:
        value = self._get(name, True)
        if type(value) is not dict:
            raise _bad(f"{self.kind}.{name} must be a map")
        return value

    def items(self, name: str) -> list[Any]:
        value = self._get(name, True)
        if type(value) is not list:
            raise _bad(f"{self.kind}.{name} must be a list")
        return value


# -- messages a client sends -------------------------------------------------


class Hello(Record):
    """The first message of a connection: join a table, resume a seat, or watch.

    A seat comes back with its ``token`` (kept by the machine that had it) or its
    ``seat_key`` (read from that machine's screen and typed on another one).
    """

    type: ClassVar[str] = "hello"
    name: str
    version: int = PROTOCOL_VERSION
    code: str | None = None
    token: str | None = None
    spectate: bool = False
    table: str = "main"
    seat_key: str | None = None

    def to_wire(self) -> dict[str, Any]:
        return {
            "type": self.type, "version": self.version, "name": self.name, "code": self.code,
            "token": self.token, "spectate": self.spectate, "table": self.table,
            "seat_key": self.seat_key,
        }


class Act(Record):
    """An intent: take ``action`` for my seat. ``ref`` is echoed back in the answer."""

    type: ClassVar[str] = "action"
    action: Action
    ref: int | None = None

    def to_wire(self) -> dict[str, Any]:
        return {"type": self.type, "action": str(self.action), "ref": self.ref}


class Say(Record):
    """A chat line to everyone at the table."""

    type: ClassVar[str] = "chat"
    text: str

    def to_wire(self) -> dict[str, Any]:
        return {"type": self.type, "text": self.text}


class Ping(Record):
    """Are you there? (either direction; answered with a `Pong` carrying the same ``n``)."""

    type: ClassVar[str] = "ping"
    n: int = 0

    def to_wire(self) -> dict[str, Any]:
        return {"type": self.type, "n": self.n}


class Pong(Record):
    type: ClassVar[str] = "pong"
    n: int = 0

    def to_wire(self) -> dict[str, Any]:
        return {"type": self.type, "n": self.n}


class Bye(Record):
    """I am leaving on purpose: during a match the computer plays my seat, which stays mine."""

    type: ClassVar[str] = "bye"

    def to_wire(self) -> dict[str, Any]:
        return {"type": self.type}


class Ready(Record):
    """I have read the round's end: deal the next round as far as I am concerned."""

    type: ClassVar[str] = "ready"

    def to_wire(self) -> dict[str, Any]:
        return {"type": self.type}


ClientMessage = Hello | Act | Say | Ping | Pong | Bye | Ready

_NAME_FIELDS = frozenset({"version", "name", "code", "token", "spectate", "table", "seat_key"})


def message_from_client(data: Any) -> ClientMessage:
    """The client message ``data`` holds (decoded msgpack), or `ProtocolError`."""
    if type(data) is not dict:
        raise _bad("a message must be a map")
    kind = data.get("type")
    if type(kind) is not str:
        raise _bad("a message needs a 'type' text field")
    if kind == "hello":
        f = _Fields(data, kind, _NAME_FIELDS)
        version = f.req_integer("version", high=2**31)
        return Hello(
            version=version,
            name=f.req_text("name", limit=4 * NAME_LIMIT),
            code=f.text("code", limit=CODE_LIMIT, required=False),
            token=f.text("token", limit=TOKEN_LIMIT, required=False),
            spectate=f.flag("spectate", default=False),
            table=f.text("table", limit=TABLE_LIMIT, required=False) or "main",
            seat_key=f.text("seat_key", limit=SEAT_KEY_LIMIT, required=False),
        )
    if kind == "action":
        f = _Fields(data, kind, frozenset({"action", "ref"}))
        text = f.req_text("action", limit=40)
        try:
            action = parse_action(text)
        except ValueError as exc:
            raise _bad(str(exc)) from None
        return Act(action, f.integer("ref", required=False, high=2**31))
    if kind == "chat":
        f = _Fields(data, kind, frozenset({"text"}))
        return Say(f.req_text("text", limit=4 * CHAT_LIMIT))
    if kind in ("ping", "pong"):
        f = _Fields(data, kind, frozenset({"n"}))
        n = f.integer("n", required=False, high=2**31) or 0
        return Ping(n) if kind == "ping" else Pong(n)
    if kind == "bye":
        _Fields(data, kind, frozenset())
        return Bye()
    if kind == "ready":
        _Fields(data, kind, frozenset())
        return Ready()
    raise ProtocolError(ErrorCode.UNKNOWN_TYPE, f"there is no client message of type {kind[:40]!r}")


# -- messages a host sends ---------------------------------------------------


class Welcome(Record):
    """You are in: your seat (None: spectator), its secrets, the table and its match."""

    type: ClassVar[str] = "welcome"
    table: str
    name: str
    seat: int | None
    #: The seat's secret for this machine to keep (None for a spectator).
    token: str | None
    #: The seat's key for a person to read and type elsewhere (None for a spectator).
    seat_key: str | None
    players: int
    heartbeat: float
    #: The id of the table's match (the wire's ``match``): saved tokens are keyed by it.
    match_id: str
    version: int = PROTOCOL_VERSION

    def to_wire(self) -> dict[str, Any]:
        return {
            "type": self.type, "version": self.version, "table": self.table, "name": self.name,
            "seat": self.seat, "token": self.token, "seat_key": self.seat_key,
            "players": self.players, "heartbeat": self.heartbeat, "match": self.match_id,
        }


class SeatInfo(Record):
    """One seat as everyone sees it."""

    seat: int
    #: "open" (nobody yet), "person" or "computer".
    kind: str
    name: str | None
    connected: bool
    #: A computer plays for this person for now (they dropped past the grace period, or left).
    covered: bool
    #: The person left on purpose (a ``bye``), rather than losing the connection.
    left: bool = False

    def to_wire(self) -> dict[str, Any]:
        return {
            "seat": self.seat, "kind": self.kind, "name": self.name,
            "connected": self.connected, "covered": self.covered, "left": self.left,
        }


class Seats(Record):
    """Who sits where: sent on joining, and whenever a seat changes."""

    type: ClassVar[str] = "seats"
    seats: tuple[SeatInfo, ...]
    spectators: int
    started: bool

    def to_wire(self) -> dict[str, Any]:
        return {
            "type": self.type, "seats": [s.to_wire() for s in self.seats],
            "spectators": self.spectators, "started": self.started,
        }


class Snapshot(Record):
    """Everything you may know now; the next `Update` has ``seq`` + 1 or more."""

    type: ClassVar[str] = "snapshot"
    seq: int
    view: View

    def to_wire(self) -> dict[str, Any]:
        return {"type": self.type, "seq": self.seq, "view": self.view.to_dict()}


class Update(Record):
    """Public events, numbered, and your view after them.

    ``seq`` is the number of the last event in ``events``; the events carry the
    numbers ``seq - len(events) + 1`` to ``seq``.

    On the wire an update's view leaves out what the client already holds or
    can work out (the rules, this round's events, the results): see
    `View.state_dict`. A decoded update therefore holds ``state`` (those fields,
    validated) and no ``view``; `Client` rebuilds the whole view with
    `advance_view` before handing the update on.
    """

    type: ClassVar[str] = "update"
    seq: int
    events: tuple[Event, ...]
    view: View | None
    #: The seat whose action caused the events (None for none).
    actor: int | None = None
    #: "person", "computer" (a computer seat or a covered one) or "timer".
    by: str = "person"
    #: The ``ref`` of your intent, when this update answers it.
    ref: int | None = None
    #: The view's changing fields as received (only in a decoded update).
    state: dict[str, Any] | None = None

    def to_wire(self, event_data: list[dict[str, Any]] | None = None) -> dict[str, Any]:
        """The update as plain data; ``event_data``: the events already as plain data."""
        if self.view is not None:
            state = self.view.state_dict()
        elif self.state is not None:
            state = self.state
        else:
            raise ValueError("an update needs a view to send")
        return {
            "type": self.type, "seq": self.seq,
            "events": event_data if event_data is not None else [event_to_dict(e) for e in self.events],
            "view": state, "actor": self.actor, "by": self.by, "ref": self.ref,
        }


#: The view fields an update carries: everything but the rules (fixed for the
#: match), this round's events and the results (both follow from the events).
STATE_FIELDS = (
    "players", "seat", "round_number", "hand", "line", "ends", "hand_counts", "boneyard",
    "drawable", "turn", "leader", "forced_lead", "draws_this_turn", "scores", "target", "legal",
    "winner",
)


def advance_view(view: View, update: Update) -> View:
    """The view after ``update``, from the view before it; `ProtocolError` if it does not fit."""
    state = update.state
    if state is None:
        if update.view is None:
            raise _bad("an update without a view")
        return update.view
    events = list(view.events)
    results = list(view.results)
    for event in update.events:
        # A round's events start with its round_started (see View.events).
        events = [event] if isinstance(event, RoundStarted) else [*events, event]
        if isinstance(event, RoundEnded):
            results.append(event.result)
    try:
        return View.with_state(state, rules=view.rules, events=tuple(events), results=tuple(results))
    except ValueError as exc:
        raise _bad(f"update.view: {exc}") from None


class Chat(Record):
    """A chat line, cleaned by the host; ``seat`` None for a spectator."""

    type: ClassVar[str] = "chat"
    name: str
    seat: int | None
    text: str

    def to_wire(self) -> dict[str, Any]:
        return {"type": self.type, "name": self.name, "seat": self.seat, "text": self.text}


class TurnTimer(Record):
    """Seat ``seat`` has ``seconds`` to act before the computer acts for it."""

    type: ClassVar[str] = "timer"
    seat: int
    seconds: float

    def to_wire(self) -> dict[str, Any]:
        return {"type": self.type, "seat": self.seat, "seconds": self.seconds}


class NextRound(Record):
    """A round is over: the next is dealt when every person waited for is ready, or in ``seconds``.

    Sent to everybody when a round ends (not the match), again whenever
    ``ready`` or ``waiting`` changes, and after the snapshot to a client that
    arrives during the break.
    """

    type: ClassVar[str] = "next_round"
    #: Seconds left before the host deals anyway; None: it waits for the people.
    seconds: float | None
    #: Seats that said they are ready.
    ready: tuple[int, ...]
    #: Seats the host still waits for (connected people who are not ready).
    waiting: tuple[int, ...]

    def to_wire(self) -> dict[str, Any]:
        return {
            "type": self.type, "seconds": self.seconds, "ready": list(self.ready),
            "waiting": list(self.waiting),
        }


class Waiting(Record):
    """The handshake waits: for now only for the host's operator to let you back in a seat."""

    type: ClassVar[str] = "waiting"
    #: Why: "approval" (the operator is asked whether you may have ``seat`` back).
    reason: str
    seat: int
    #: Seconds the host waits for the answer before it refuses.
    seconds: float

    def to_wire(self) -> dict[str, Any]:
        return {"type": self.type, "reason": self.reason, "seat": self.seat, "seconds": self.seconds}


class Error(Record):
    """The host refused something: an `ErrorCode`, a sentence, and whether it hangs up."""

    type: ClassVar[str] = "error"
    code: str
    message: str
    ref: int | None = None
    fatal: bool = False

    def to_wire(self) -> dict[str, Any]:
        return {
            "type": self.type, "code": self.code, "message": self.message,
            "ref": self.ref, "fatal": self.fatal,
        }


HostMessage = (
    Welcome | Seats | Snapshot | Update | Chat | TurnTimer | NextRound | Waiting | Error | Ping | Pong
)
Message = ClientMessage | HostMessage


def _view(f: _Fields) -> View:
    try:
        return View.from_dict(f.mapping("view"))
    except ValueError as exc:
        raise _bad(f"{f.kind}.view: {exc}") from None


def _optional_seat(f: _Fields, name: str) -> int | None:
    return f.integer(name, required=False, high=3) if f.data.get(name) is not None else None


def _seat_list(f: _Fields, name: str) -> tuple[int, ...]:
    seats = f.items(name)
    if not all(type(seat) is int and 0 <= seat <= 3 for seat in seats):
        raise _bad(f"{f.kind}.{name} must be a list of seats (0 to 3)")
    return tuple(seats)


def message_from_host(data: Any) -> HostMessage:
    """The host message ``data`` holds (decoded msgpack), or `ProtocolError`.

    Unknown fields are ignored, so that a newer host can add some.
    """
    if type(data) is not dict:
        raise _bad("a message must be a map")
    kind = data.get("type")
    f = _Fields(data, str(kind), None)
    if kind == "welcome":
        return Welcome(
            version=f.req_integer("version", high=2**31),
            table=f.req_text("table", limit=TABLE_LIMIT),
            name=f.req_text("name", limit=NAME_LIMIT),
            seat=_optional_seat(f, "seat"),
            token=f.text("token", limit=TOKEN_LIMIT, required=False),
            seat_key=f.text("seat_key", limit=SEAT_KEY_LIMIT, required=False),
            players=f.req_integer("players", low=2, high=4),
            heartbeat=f.seconds("heartbeat"),
            match_id=f.req_text("match", limit=MATCH_ID_LIMIT),
        )
    if kind == "seats":
        seats = []
        for item in f.items("seats"):
            if type(item) is not dict:
                raise _bad("seats.seats must be a list of maps")
            s = _Fields(item, "seat", None)
            seats.append(SeatInfo(
                seat=s.req_integer("seat", high=3),
                kind=s.req_text("kind", limit=10),
                name=s.text("name", limit=NAME_LIMIT, required=False),
                connected=s.flag("connected", default=False),
                covered=s.flag("covered", default=False),
                left=s.flag("left", default=False),
            ))
        return Seats(tuple(seats), f.req_integer("spectators"), f.flag("started", default=False))
    if kind == "snapshot":
        return Snapshot(f.req_integer("seq"), _view(f))
    if kind == "update":
        try:
            events = tuple(event_from_dict(e) for e in f.items("events"))
        except ValueError as exc:
            raise _bad(f"update.events: {exc}") from None
        by = f.text("by", limit=10, required=False) or "person"
        state = f.mapping("view")
        missing = [name for name in STATE_FIELDS if name not in state]
        if missing:
            raise _bad(f"update.view needs the field {missing[0]!r}")
        return Update(
            seq=f.req_integer("seq"), events=events, view=None, actor=_optional_seat(f, "actor"),
            by=by, ref=f.integer("ref", required=False, high=2**31) if data.get("ref") is not None else None,
            state=state,
        )
    if kind == "chat":
        return Chat(
            name=f.req_text("name", limit=NAME_LIMIT), seat=_optional_seat(f, "seat"),
            text=f.req_text("text", limit=CHAT_LIMIT),
        )
    if kind == "timer":
        return TurnTimer(f.req_integer("seat", high=3), f.seconds("seconds"))
    if kind == "next_round":
        return NextRound(
            seconds=None if data.get("seconds") is None else f.seconds("seconds"),
            ready=_seat_list(f, "ready"), waiting=_seat_list(f, "waiting"),
        )
    if kind == "waiting":
        return Waiting(f.req_text("reason", limit=40), f.req_integer("seat", high=3), f.seconds("seconds"))
    if kind == "error":
        return Error(
            code=f.req_text("code", limit=40), message=f.req_text("message", limit=1000),
            ref=f.integer("ref", required=False, high=2**31) if data.get("ref") is not None else None,
            fatal=f.flag("fatal", default=False),
        )
    if kind in ("ping", "pong"):
        n = f.integer("n", required=False, high=2**31) or 0
        return Ping(n) if kind == "ping" else Pong(n)
    raise ProtocolError(ErrorCode.UNKNOWN_TYPE, f"there is no host message of type {str(kind)[:40]!r}")


def clean_name(text: str) -> str:
    """A player's name as others will see it; `ProtocolError` if nothing is left of it."""
    name = clean_text(text, limit=NAME_LIMIT)
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
    "SeatInfo",
    "Seats",
    "Snapshot",
    "TurnTimer",
    "Update",
    "Waiting",
    "Welcome",
    "clean_chat",
    "clean_name",
    "message_from_client",
    "message_from_host",
]
