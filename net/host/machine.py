"""The host's decisions as a sans-I/O state machine (after h11 and aioquic).

`HostMachine` never touches a socket, a clock, a thread or a file. The asyncio
host (net/host/server.py) tells it what happened (a connection opened, bytes arrived,
a connection ended, a computer chose, a journal write failed, the operator
answered) with the time it happened, and carries out the effects each call
returns (net/host/effects.py), in order. After every call the host re-reads
`HostMachine.next_deadline` and calls `HostMachine.wake` then: handshakes,
heartbeats, idle connections, unfinished frames, the operator's time to
answer, and every table's turn timers, grace periods and breaks are decided
here, so that each is tested with a clock the test moves.

A table's journal write (a `Record` effect) holds back that table's later
effects until the host says it is on disk (`recorded`): nobody hears of an
action a crash could lose. The hold is the table's alone: another table's
messages, and what a connection is told apart from any table (a pong, a
refused hello), go out at once, so that one table's fsync delays nobody else.

The machine decides for every connection: hello first, every message counted
against the rate limit, whole messages alone as signs of life, wrong join
codes and wrong seat secrets limited per address (`GuessLimit`), and routing
to the tables.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Hashable, Iterable
from typing import Protocol

import msgspec
from capicu.core import Action
from capicu.net.codec import CLOSED, NEED_DATA, Codec, encode_frame
from capicu.net.codes import normal_code, same_code
from capicu.net.protocol import (
    PROTOCOL_VERSION,
    Act,
    Bye,
    ClientMessage,
    ClubClose,
    ClubStart,
    Error,
    ErrorCode,
    Hello,
    HostMessage,
    Ping,
    Pong,
    ProtocolError,
    Ready,
    Say,
    Waiting,
    clean_name,
    message_type,
    to_wire,
)
from capicu.net.store.journal import Journal

from .effects import Ask, Cancelled, Close, Effect, Peer, Record, Send, Think
from .table import Table
from .throttle import GuessLimit
from .timing import Deadlines, Liveness, TokenBucket, Wake


class Limits(msgspec.Struct, frozen=True):
    """What the host tolerates from one connection; each limit is in docs/PROTOCOL.md."""

    #: Seconds a new connection has to send its hello.
    handshake_timeout: float = 10.0
    #: Seconds of silence from a peer before the host pings it.
    heartbeat: float = 15.0
    #: Seconds of silence from a peer before the host hangs up.
    idle_timeout: float = 45.0
    #: Seconds a frame may take from its first byte to its last.
    frame_timeout: float = 10.0
    #: Connections at once from one IP address.
    connections_per_address: int = 16
    #: Messages a second from one connection, on average, and the burst allowed.
    messages_per_second: float = 50.0
    message_burst: float = 100.0
    #: Refused messages in a row (bad, illegal or over the rate) before the host hangs up.
    max_strikes: int = 20
    #: Wrong join codes (and, apart, wrong seat tokens and keys) one address may
    #: give in any ``guess_window`` seconds; then it is refused until the window allows.
    wrong_guesses: int = 5
    guess_window: float = 60.0
    #: Unsent bytes queued for one peer before the host cuts it off.
    outbox_bytes: int = 1 << 20
    #: The system's send buffer per connection. Fixed (not grown by the system)
    #: so that what a peer that stops reading can hold up is bounded: this
    #: plus `outbox_bytes`. None leaves the system's default.
    socket_send_buffer: int | None = 64 * 1024
    #: Seconds the host's operator has to answer a request for a seat back by name.
    rejoin_answer_timeout: float = 60.0

    def __post_init__(self) -> None:
        for name in ("handshake_timeout", "heartbeat", "idle_timeout", "frame_timeout",
                     "messages_per_second", "guess_window", "rejoin_answer_timeout"):
            if not getattr(self, name) > 0:
                raise ValueError(f"the limit {name} must be positive")
        if self.idle_timeout <= self.heartbeat:
            raise ValueError("the idle timeout must be longer than the heartbeat")
        if self.wrong_guesses < 1:
            raise ValueError("the limit wrong_guesses must be at least 1")


class RejoinRequest(msgspec.Struct, frozen=True):
    """A person asks for an away seat back by name; the operator answers `Host.answer_rejoin`."""

    #: Names the request in `Host.answer_rejoin` and the ``cancelled`` callback.
    id: int
    table: str
    #: The seat's number, from 0 (as in every message's fields).
    seat: int
    #: The seat's person's name, as the table knows it (the asker gave it in any case).
    name: str
    #: The IP address the request came from.
    address: str


class Lobby(Protocol):
    """A place of the host that is no table, which a hello may name as its ``table`` (a club
    night's lobby, net/club/host.py): the machine checks the hello's version, join code and
    secrets' guesses, and hands the lobby what is said there.

    Each method returns the effects to carry out; a `ProtocolError` refuses (``bad_token`` from
    `resume` counts as a wrong seat secret; ``refused`` from `organise`, too).
    """

    #: The name a hello gives as its ``table`` to come here.
    name: str

    def join(self, peer: Peer, hello: Hello, now: float) -> list[Effect]:
        """``peer`` comes in by name (its join code checked)."""

    def resume(self, peer: Peer, token: str, now: float) -> list[Effect]:
        """``peer`` comes back with its ``token``; ProtocolError ``bad_token`` when it is nobody's."""

    def organise(self, peer: Peer, message: ClubStart | ClubClose, now: float) -> list[Effect]:
        """``peer`` acts as the organiser; ProtocolError ``refused`` for a wrong organiser's key."""

    def gone(self, peer: Peer, now: float, *, on_purpose: bool) -> list[Effect]:
        """``peer``'s connection ended (``on_purpose``: it said `bye`)."""


def _wait_sentence(seconds: float) -> str:
    whole = max(1, math.ceil(seconds))
    return f"{whole} second{'s' if whole != 1 else ''}"


class HostMachine:
    """Every connection and table of a host, as pure code; see the module docstring.

    ``code``: the join code (None: none is asked). ``rejoin_by_name``: a headless
    host lets the code and an away seat's name take it back. ``operator``: an
    operator answers requests for a seat back by name (an `Ask` effect).
    """

    def __init__(self, limits: Limits, *, code: str | None = None, rejoin_by_name: bool = False,
                 operator: bool = False) -> None:
        self.limits = limits
        self.code = code
        self.rejoin_by_name = rejoin_by_name
        self.operator = operator
        self.tables: dict[str, Table] = {}
        #: A place apart from the tables that hellos may name (a club night's lobby), if any.
        self.lobby: Lobby | None = None
        self.peers: dict[int, Peer] = {}
        self.code_guesses = GuessLimit(limits.wrong_guesses, limits.guess_window)
        #: Seat tokens and seat keys: a mistyped join code does not lock a key out.
        self.secret_guesses = GuessLimit(limits.wrong_guesses, limits.guess_window)
        #: The seat keys (`normal_code`) of matches this host no longer plays: ``match_gone`` for them.
        self.gone_seat_keys: frozenset[str] = frozenset()
        self._per_address: dict[str, int] = {}
        self._ids = 0
        #: Requests for a seat back that wait for the operator, by id.
        self.requests: dict[int, tuple[RejoinRequest, Peer]] = {}
        self._request_ids = 0
        #: ("peer", id), ("request", id) or ("table", name) -> when to look, kept
        #: exact after every call (a table's deadline as the table says it).
        self._deadlines: Deadlines[tuple[str, Hashable]] = Deadlines()
        #: By journal: its records not yet on disk, each followed by the table's
        #: effects that wait for it (the first item is always a `Record`).
        self._held: dict[Journal, deque[Effect]] = {}

    # -- the asyncio host's calls -------------------------------------------------

    def connect(self, address: str, now: float) -> tuple[Peer, list[Effect]]:
        """A connection opened from ``address``: its peer, refused if the address has too many."""
        limits = self.limits
        self._ids += 1
        peer = Peer(
            self._ids, address, Codec("host"),
            Liveness(now, handshake=limits.handshake_timeout, heartbeat=limits.heartbeat,
                     idle=limits.idle_timeout),
            TokenBucket(limits.messages_per_second, limits.message_burst, now),
        )
        self.peers[peer.id] = peer
        out: list[Effect] = []
        count = self._per_address.get(address, 0)
        if count >= limits.connections_per_address:
            self._close(peer, Error(ErrorCode.TOO_MANY_CONNECTIONS,
                                    f"{address} already has {count} connections open", fatal=True), out)
            return peer, out
        self._per_address[address] = count + 1
        peer.counted = True
        self._note_peer(peer)
        return peer, out

    def receive(self, peer: Peer, data: bytes, now: float) -> list[Effect]:
        """Bytes arrived from ``peer``; only whole messages count as hearing from it."""
        if peer.closed or not data:
            return []
        out: list[Effect] = []
        codec = peer.codec
        codec.receive_data(data)
        whole = False
        try:
            while not peer.closed:
                message = codec.next_message()
                if message is NEED_DATA or message is CLOSED:
                    break
                whole = True
                peer.liveness.heard(now)
                self._handle(peer, message, now, out)  # type: ignore[arg-type]
        except ProtocolError as exc:
            self._close(peer, Error(exc.code, exc.message, fatal=True), out)
        if not codec.buffered:
            peer.frame_started = None
        elif whole or peer.frame_started is None:
            peer.frame_started = now
        self._note_peer(peer)
        return out

    def disconnected(self, peer: Peer, now: float) -> list[Effect]:
        """``peer``'s connection ended, however it ended."""
        if self.peers.pop(peer.id, None) is None:
            return []
        peer.closed = True
        self._deadlines.cancel(("peer", peer.id))
        if peer.counted:
            left = self._per_address.get(peer.address, 1) - 1
            if left > 0:
                self._per_address[peer.address] = left
            else:
                self._per_address.pop(peer.address, None)
        out: list[Effect] = []
        table = peer.table
        if table is not None:
            self._from_table(table, table.leave(peer, now), out)
        if peer.in_lobby and self.lobby is not None:
            out.extend(self.lobby.gone(peer, now, on_purpose=False))
        if peer.rejoin is not None:
            self._end_request(peer.rejoin.id, None, out)
        return out

    def next_deadline(self) -> float | None:
        """When `wake` next has something to look at (None: nothing is timed)."""
        return self._deadlines.next()

    def wake(self, now: float) -> list[Effect]:
        """Act on everything whose time has come by ``now``."""
        out: list[Effect] = []
        for kind, key in self._deadlines.pop_due(now):
            if kind == "peer":
                peer = self.peers.get(key)  # type: ignore[call-overload]
                if peer is not None and not peer.closed:
                    self._check_peer(peer, now, out)
                    self._note_peer(peer)
            elif kind == "table":
                table = self.tables.get(key)  # type: ignore[call-overload]
                if table is not None:
                    self._from_table(table, table.wake(now), out)
            elif kind == "request":
                timeout = self.limits.rejoin_answer_timeout
                self._end_request(key, Error(  # type: ignore[arg-type]
                    ErrorCode.REFUSED, f"nobody answered your request within {timeout:g} seconds",
                    fatal=True,
                ), out)
        return out

    def chosen(self, think: Think, action: Action | None, failure: str | None,
               now: float) -> list[Effect]:
        """The computer's choice for ``think`` (``failure`` says why there is none)."""
        table = think.table
        if self.tables.get(table.name) is not table:
            return []
        out: list[Effect] = []
        self._from_table(table, table.chosen(think, action, failure, now), out)
        return out

    def recorded(self, journal: Journal) -> list[Effect]:
        """The oldest `Record` for ``journal`` not yet said to be on disk is: what it held back.

        A journal's writes finish in the order they were asked for.
        """
        held = self._held.get(journal)
        if not held:
            return []
        done = held.popleft()
        assert isinstance(done, Record), "a journal's hold begins with its oldest record"
        out: list[Effect] = []
        while held and not isinstance(held[0], Record):
            out.append(held.popleft())
        if not held:
            del self._held[journal]
        return out

    def journal_failed(self, journal: Journal, reason: str) -> list[Effect]:
        """Writing ``journal`` failed: its table stops, saying why; what it held back is dropped."""
        self._held.pop(journal, None)
        out: list[Effect] = []
        for table in self.tables.values():
            if table.journal is journal:
                self._from_table(table, table.journal_failed(reason), out)
        return out

    def add_table(self, table: Table) -> list[Effect]:
        """Serve ``table`` (its name must be new); what it has to do already (a restore's move)."""
        if table.name in self.tables:
            raise ValueError(f"there is already a table called {table.name!r}")
        self.tables[table.name] = table
        out: list[Effect] = []
        self._from_table(table, table.take_effects(), out)
        return out

    def remove_table(self, name: str, error: Error) -> tuple[Table, list[Effect]]:
        """Stop serving table ``name``, hanging up on everybody there with ``error``."""
        table = self.tables.pop(name)
        out: list[Effect] = []
        self._from_table(table, table.close(error), out)
        self._deadlines.cancel(("table", name))
        return table, out

    def from_table(self, table: Table, effects: Iterable[Effect]) -> list[Effect]:
        """``table``'s ``effects`` of a call made on it directly (a club's draw seating it), as the
        machine passes on its own: held behind its journal's records, its deadline noted."""
        out: list[Effect] = []
        self._from_table(table, effects, out)
        return out

    def fill_with_computers(self, name: str, now: float) -> tuple[int, list[Effect]]:
        """Seat computers in table ``name``'s open seats and start its match: how many."""
        table = self.tables[name]
        filled, effects = table.fill_with_computers(now)
        out: list[Effect] = []
        self._from_table(table, effects, out)
        return filled, out

    def farewell(self, name: str | None, *, resumable: bool = True) -> list[Effect]:
        """Tell everybody at every table that the game ends on purpose (``name`` closed it);
        ``resumable=False``: its match will not be offered again, whatever its journal."""
        out: list[Effect] = []
        for table in self.tables.values():
            self._from_table(table, table.farewell(name, resumable=resumable), out)
        return out

    def farewell_table(self, name: str) -> list[Effect]:
        """Tell everybody at table ``name`` that it ends on purpose and will not be resumed."""
        table = self.tables[name]
        out: list[Effect] = []
        self._from_table(table, table.farewell(None, resumable=False), out)
        return out

    def shutdown(self, error: Error) -> list[Effect]:
        """Hang up on everybody with ``error``; every request ends unanswered."""
        out: list[Effect] = []
        for request_id in list(self.requests):
            self._end_request(request_id, None, out)
        for table in self.tables.values():
            self._from_table(table, table.close(error), out)
        for peer in list(self.peers.values()):
            self._close(peer, error, out)
        return out

    # -- one message ---------------------------------------------------------------

    def _handle(self, peer: Peer, message: ClientMessage, now: float, out: list[Effect]) -> None:
        """Act on one whole message; a fatal problem raises ProtocolError (the caller hangs up)."""
        if not peer.liveness.ready:
            if not isinstance(message, Hello):
                raise ProtocolError(ErrorCode.NOT_READY,
                                    f"the first message must be a hello, not {message_type(message)!r}")
            peer.liveness.handshake_done(now)
            peer.bucket.take(now)
            self._hello(peer, message, now, out)
            return
        if isinstance(message, Hello):
            raise ProtocolError(ErrorCode.BAD_MESSAGE, "hello is only the first message")
        ref = message.ref if isinstance(message, Act) else None
        if not peer.bucket.take(now):
            rate, burst = self.limits.messages_per_second, self.limits.message_burst
            self._strike(peer, Error(ErrorCode.RATE_LIMITED,
                                     f"too fast: at most {rate:g} messages a second, "
                                     f"{burst:g} at once", ref=ref), out)
            return
        if isinstance(message, Ping):
            self._send(peer, Pong(message.n), out)
            return
        if isinstance(message, Pong):
            return
        table = peer.table
        if isinstance(message, Bye):
            if table is not None:
                self._from_table(table, table.leave(peer, now, on_purpose=True), out)
            if peer.in_lobby and self.lobby is not None:
                out.extend(self.lobby.gone(peer, now, on_purpose=True))
            self._close(peer, None, out)
            return
        if isinstance(message, ClubStart | ClubClose):
            self._organise(peer, message, now, out)
            return
        if table is None:
            return
        try:
            if isinstance(message, Act):
                effects = table.act(peer, message.action, message.ref, now)
                peer.strikes = 0
            elif isinstance(message, Say):
                effects = table.chat(peer, message.text)
            else:
                assert isinstance(message, Ready)
                effects = table.ready(peer, now)
        except ProtocolError as exc:
            # The refusal is the table's answer: it follows what the table said before.
            effects = []
            self._strike(peer, Error(exc.code, exc.message, ref=ref), effects)
        self._from_table(table, effects, out)

    def _hello(self, peer: Peer, hello: Hello, now: float, out: list[Effect]) -> None:
        if hello.version != PROTOCOL_VERSION:
            raise ProtocolError(
                ErrorCode.VERSION,
                f"this host speaks protocol version {PROTOCOL_VERSION}, not {hello.version}",
            )
        lobby = self.lobby
        if lobby is not None and hello.table == lobby.name:
            self._lobby_hello(lobby, peer, hello, now, out)
            return
        table = self.tables.get(hello.table)
        if table is None:
            raise ProtocolError(ErrorCode.NO_TABLE, f"there is no table called {hello.table!r} here")
        if hello.token is not None or hello.seat_key is not None:
            # A seat's token or key is a stronger secret than the join code: it alone suffices.
            what = "seat tokens and seat keys"
            self._check_guesses(self.secret_guesses, peer.address, what, now)
            try:
                effects = table.resume(peer, now, token=hello.token, seat_key=hello.seat_key)
            except ProtocolError as exc:
                if exc.code is not ErrorCode.BAD_TOKEN:
                    raise
                if hello.token is None and normal_code(hello.seat_key or "") in self.gone_seat_keys:
                    raise ProtocolError(ErrorCode.MATCH_GONE, "that seat key's match is not played at this "
                                        "table (its host started another)") from None
                self.secret_guesses.wrong(peer.address, now)
                raise
            self._from_table(table, effects, out)
            self._seat_taken_back(table, peer, out)
            return
        self._check_code(peer, hello, now)
        name = clean_name(hello.name)
        seat = None if hello.spectate else table.away_seat(name)
        if seat is None:
            self._from_table(table, table.join(peer, hello.name, hello.spectate, now), out)
        elif self.operator:
            self._ask_operator(peer, table, seat, name, now, out)
        elif self.rejoin_by_name:
            self._from_table(table, table.take_back(peer, seat, now), out)
            self._seat_taken_back(table, peer, out)
        else:
            raise ProtocolError(
                ErrorCode.SEAT_HELD,
                f"seat {seat + 1} is held for {table.seats[seat].name!r}: come back from the machine "
                "that had it, or with its seat key (capicu join HOST --seat-key KEY)",
            )

    def _check_code(self, peer: Peer, hello: Hello, now: float) -> None:
        """Refuse a hello without this host's join code (when it asks one)."""
        if self.code is None:
            return
        if hello.code is None:
            raise ProtocolError(ErrorCode.BAD_CODE, "this table asks for a join code, and the "
                                "hello has none")
        self._check_guesses(self.code_guesses, peer.address, "join codes", now)
        if not same_code(hello.code, self.code):
            self.code_guesses.wrong(peer.address, now)
            raise ProtocolError(ErrorCode.BAD_CODE, "that is not this table's join code")

    def _lobby_hello(self, lobby: Lobby, peer: Peer, hello: Hello, now: float, out: list[Effect]) -> None:
        """A hello for the lobby: back with a token (a stronger secret than the code), or in by name."""
        if hello.token is not None:
            self._check_guesses(self.secret_guesses, peer.address, "seat tokens and seat keys", now)
            try:
                out.extend(lobby.resume(peer, hello.token, now))
            except ProtocolError as exc:
                if exc.code is ErrorCode.BAD_TOKEN:
                    self.secret_guesses.wrong(peer.address, now)
                raise
            return
        self._check_code(peer, hello, now)
        out.extend(lobby.join(peer, hello, now))

    def _organise(self, peer: Peer, message: ClubStart | ClubClose, now: float, out: list[Effect]) -> None:
        """The organiser's message: for the lobby to carry out, from a connection in it."""
        lobby = self.lobby
        if lobby is None or not peer.in_lobby:
            self._strike(peer, Error(ErrorCode.REFUSED, "only the club night's organiser, on the club's "
                                     "connection, starts rounds and closes tables"), out)
            return
        wait = self.secret_guesses.wait(peer.address, now)
        if wait > 0:
            self._strike(peer, Error(ErrorCode.RATE_LIMITED, f"too many wrong organiser's keys from "
                                     f"{peer.address}: try again in {_wait_sentence(wait)}"), out)
            return
        try:
            out.extend(lobby.organise(peer, message, now))
        except ProtocolError as exc:
            if exc.code is ErrorCode.REFUSED:
                self.secret_guesses.wrong(peer.address, now)
            self._strike(peer, Error(exc.code, exc.message), out)
            return
        peer.strikes = 0

    def _check_guesses(self, limit: GuessLimit, address: str, what: str, now: float) -> None:
        """Refuse an address that guessed wrong too often, before its guess is even compared."""
        wait = limit.wait(address, now)
        if wait > 0:
            raise ProtocolError(
                ErrorCode.RATE_LIMITED,
                f"too many wrong {what} from {address}: at most {limit.guesses} in "
                f"{limit.window:g} seconds; try again in {_wait_sentence(wait)}",
            )

    # -- asking for a seat back by name ----------------------------------------------

    def _ask_operator(self, peer: Peer, table: Table, seat: int, name: str, now: float,
                      out: list[Effect]) -> None:
        if table.broken is not None:
            raise ProtocolError(ErrorCode.SHUTTING_DOWN, table.broken)
        if any(r.table == table.name and r.seat == seat for r, _ in self.requests.values()):
            raise ProtocolError(ErrorCode.SEAT_HELD,
                                f"somebody is already asking for seat {seat + 1} back: try again later")
        self._request_ids += 1
        request = RejoinRequest(self._request_ids, table.name, seat, table.seats[seat].name or name,
                                peer.address)
        timeout = self.limits.rejoin_answer_timeout
        self.requests[request.id] = (request, peer)
        peer.rejoin = request
        self._deadlines.set(("request", request.id), now + timeout)
        self._send(peer, Waiting("approval", seat, timeout), out)
        out.append(Ask(request))

    def ask_failed(self, request_id: int) -> list[Effect]:
        """The operator could not be asked: the person is told to try later."""
        out: list[Effect] = []
        self._end_request(request_id, Error(ErrorCode.REFUSED, "the host could not ask its "
                                            "operator: try again later", fatal=True), out)
        return out

    def answer_rejoin(self, request_id: int, allow: bool, now: float) -> tuple[bool, list[Effect]]:
        """The operator's answer to request ``request_id``; see `Host.answer_rejoin`."""
        found = self.requests.pop(request_id, None)
        if found is None:
            return False, []
        request, peer = found
        self._deadlines.cancel(("request", request_id))
        peer.rejoin = None
        out: list[Effect] = []
        table = self.tables.get(request.table)
        if not allow:
            self._close(peer, Error(ErrorCode.REFUSED,
                                    f"the host did not give you seat {request.seat + 1} back",
                                    fatal=True), out)
            return True, out
        if table is None or table.away_seat(request.name) != request.seat or peer.closed:
            self._close(peer, Error(ErrorCode.REFUSED,
                                    f"seat {request.seat + 1} is no longer held for {request.name!r}",
                                    fatal=True), out)
            return False, out
        try:
            effects = table.take_back(peer, request.seat, now)
        except ProtocolError as exc:
            self._close(peer, Error(exc.code, exc.message, fatal=True), out)
            return False, out
        self._from_table(table, effects, out)
        self._seat_taken_back(table, peer, out)
        return True, out

    def _seat_taken_back(self, table: Table, peer: Peer, out: list[Effect]) -> None:
        """End the other requests for the seat ``peer`` now holds: its person is here."""
        for request, asker in list(self.requests.values()):
            if request.table == table.name and request.seat == peer.seat and asker is not peer:
                self._end_request(request.id, Error(
                    ErrorCode.NAME_TAKEN, f"{request.name!r} came back to seat {request.seat + 1}",
                    fatal=True,
                ), out)

    def _end_request(self, request_id: int, error: Error | None, out: list[Effect]) -> None:
        """Request ``request_id`` ends without the operator's answer; ``error`` goes to the asker."""
        found = self.requests.pop(request_id, None)
        if found is None:
            return
        _, peer = found
        peer.rejoin = None
        self._deadlines.cancel(("request", request_id))
        if error is not None:
            self._close(peer, error, out)
        out.append(Cancelled(request_id))

    # -- helpers ---------------------------------------------------------------------

    def _send(self, peer: Peer, message: HostMessage, out: list[Effect]) -> None:
        out.append(Send(peer, encode_frame(to_wire(message))))

    def _close(self, peer: Peer, error: Error | None, out: list[Effect]) -> None:
        if peer.closed:
            return
        peer.closed = True
        self._deadlines.cancel(("peer", peer.id))
        out.append(Close(peer, error))

    def _strike(self, peer: Peer, error: Error, out: list[Effect]) -> None:
        """Refuse one message; hang up after too many refusals in a row."""
        peer.strikes += 1
        if peer.strikes > self.limits.max_strikes:
            self._close(peer, Error(ErrorCode.TOO_MANY_ERRORS,
                                    f"{peer.strikes} refused messages in a row: goodbye", fatal=True), out)
        else:
            self._send(peer, error, out)

    def _from_table(self, table: Table, effects: Iterable[Effect], out: list[Effect]) -> None:
        """Pass on ``table``'s effects and note its next deadline.

        A peer the table closes is closed here too. Whatever follows one of the
        table's journal records not yet on disk waits for it (see `recorded`).
        """
        journal = table.journal
        held = self._held.get(journal) if journal is not None else None
        for effect in effects:
            if isinstance(effect, Close) and not effect.peer.closed:
                effect.peer.closed = True
                self._deadlines.cancel(("peer", effect.peer.id))
            if isinstance(effect, Record):
                out.append(effect)  # written at once; the journal keeps the order
                if held is None:
                    held = self._held[effect.journal] = deque()
                held.append(effect)
            elif held:
                held.append(effect)
            else:
                out.append(effect)
        when = table.next_deadline()
        key = ("table", table.name)
        if when is None:
            self._deadlines.cancel(key)
        elif self._deadlines.get(key) != when:
            self._deadlines.set(key, when)

    def _note_peer(self, peer: Peer) -> None:
        """Look at ``peer`` again at its next deadline."""
        if peer.closed:
            return
        when = peer.liveness.deadline()
        if peer.frame_started is not None:
            when = min(when, peer.frame_started + self.limits.frame_timeout)
        key = ("peer", peer.id)
        if self._deadlines.get(key) != when:
            self._deadlines.set(key, when)

    def _check_peer(self, peer: Peer, now: float, out: list[Effect]) -> None:
        """Ping a quiet peer, or hang up on one too slow or silent."""
        timeout = self.limits.frame_timeout
        if peer.frame_started is not None and now >= peer.frame_started + timeout:
            self._close(peer, Error(ErrorCode.TIMEOUT,
                                    f"a frame took more than {timeout:g} seconds to arrive whole",
                                    fatal=True), out)
            return
        wake = peer.liveness.wake(now)
        if wake is Wake.PING:
            peer.pings += 1
            self._send(peer, Ping(peer.pings), out)
        elif wake is Wake.CLOSE:
            what = "say hello" if not peer.liveness.ready else "answer"
            self._close(peer, Error(ErrorCode.TIMEOUT, f"you took too long to {what}", fatal=True), out)


__all__ = ["HostMachine", "Limits", "Lobby", "RejoinRequest"]
