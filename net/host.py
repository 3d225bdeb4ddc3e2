"""The asyncio host: listens, shakes hands, and routes each connection to its table.

Usage, in-process (the interface does this for a game on one machine)::

    host = Host(HostConfig(rules=rules, players=3, computers=2, bind="127.0.0.1", port=0))
    address, port = await host.start()
    ...                       # clients connect to (address, port)
    await host.stop()

The host only moves bytes and passes in the time: the codec decides what the
bytes mean, the `Table` decides what they do, `Liveness` and `TokenBucket`
decide when a connection is too quiet or too loud.

A person whose seat is away may ask for it back by name. With an operator
(``Host(config, ask=...)``) the host asks it and holds the connection until
`Host.answer_rejoin`; a headless host refuses (``seat_held``) unless
`HostConfig.rejoin_by_name` lets the join code and the name do. The host never waits for a
slow peer: it writes to the peer's transport and, once a peer's unsent bytes
pass `Limits.outbox_bytes`, cuts it off.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import sys
from collections.abc import Callable
from concurrent.futures import Executor, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from capicu.core import Rules

from .codec import CLOSED, NEED_DATA, Codec, encode_frame
from .codes import new_join_code, normal_code, same_code
from .journal import Journal, JournalError, read_journal
from .protocol import (
    DEFAULT_PORT,
    PROTOCOL_VERSION,
    Act,
    Bye,
    ClientMessage,
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
    to_wire,
)
from .table import Table, TableConfig
from .timing import Deadlines, Liveness, TokenBucket, Wake

__all__ = [
    "Connection", "Host", "HostConfig", "HostError", "Limits", "RejoinRequest", "lan_address",
    "new_join_code",
]

#: Seconds a closing connection keeps reading (and dropping) input; see `Connection.close`.
LINGER = 2.0


class HostError(Exception):
    """The host cannot start: the message says why (port in use, unreadable journal, ...)."""


@dataclass(frozen=True, slots=True)
class Limits:
    """What the host tolerates from one connection; each limit is in PROTOCOL.md."""

    #: Seconds a new connection has to send its hello.
    handshake_timeout: float = 10.0
    #: Seconds of silence from a peer before the host pings it.
    heartbeat: float = 15.0
    #: Seconds of silence from a peer before the host hangs up.
    idle_timeout: float = 45.0
    #: Connections at once from one IP address.
    connections_per_address: int = 16
    #: Messages a second from one connection, on average, and the burst allowed.
    messages_per_second: float = 50.0
    message_burst: float = 100.0
    #: Refused messages in a row (bad, illegal or over the rate) before the host hangs up.
    max_strikes: int = 20
    #: Unsent bytes queued for one peer before the host cuts it off.
    outbox_bytes: int = 1 << 20
    #: The system's send buffer per connection. Fixed (not grown by the system)
    #: so that what a peer that stops reading can hold up is bounded: this
    #: plus `outbox_bytes`. None leaves the system's default.
    socket_send_buffer: int | None = 64 * 1024
    #: Seconds the host's operator has to answer a request for a seat back by name.
    rejoin_answer_timeout: float = 60.0

    def __post_init__(self) -> None:
        for name in ("handshake_timeout", "heartbeat", "idle_timeout", "messages_per_second",
                     "rejoin_answer_timeout"):
            if not getattr(self, name) > 0:
                raise ValueError(f"the limit {name} must be positive")
        if self.idle_timeout <= self.heartbeat:
            raise ValueError("the idle timeout must be longer than the heartbeat")


@dataclass(frozen=True, slots=True)
class HostConfig:
    """Everything a host needs; the first table is made from the rule fields."""

    rules: Rules = field(default_factory=lambda: Rules.preset_named("puerto-rican-drawing"))
    players: int = 2
    #: Seats played by the computer (the last seats).
    computers: int = 0
    computer_level: str = "greedy"
    #: Seconds a computer waits before it acts, so that people can follow.
    computer_delay: float = 0.0
    #: The seed of the deals; None draws one from `secrets`.
    seed: int | None = None
    #: The address to listen on; None listens on every interface (for a LAN).
    bind: str | None = None
    #: The port to listen on; 0 takes any free port (see `Host.start`'s result).
    port: int = DEFAULT_PORT
    #: The join code players must give; None lets anybody on the network in.
    code: str | None = None
    turn_timer: float | None = None
    grace: float = 60.0
    #: Seconds from a round's end to the next deal unless everyone is ready sooner
    #: (None: no countdown; 0: no pause). See `TableConfig.next_round_delay`.
    next_round_delay: float | None = 20.0
    #: A headless host lets the join code plus the name of an away seat take it back.
    #: Needs a join code. (A host with an operator asks the operator instead.)
    rejoin_by_name: bool = False
    #: Write the match journal here (replaced if it exists).
    journal: Path | None = None
    #: Rebuild the match from this journal and keep writing to it.
    resume: Path | None = None
    #: The first table's name (clients ask for a table by name; "main" is the default).
    table: str = "main"
    limits: Limits = field(default_factory=Limits)
    #: Threads in which computer players think (when `computer_processes` is 0).
    computer_threads: int = 4
    #: Worker processes in which computer players think; 0 uses threads. Quick
    #: levels are fine in threads; slow ones (``hard``) in a busy host want
    #: processes, so that their thinking never delays another table.
    computer_processes: int = 0

    def __post_init__(self) -> None:
        if not 0 <= self.port <= 65535:
            raise ValueError(f"a port is a number from 0 to 65535, not {self.port}")
        if self.code is not None and not 1 <= len(normal_code(self.code)) <= 32:
            raise ValueError("a join code is 1 to 32 letters or digits")
        if self.rejoin_by_name and self.code is None:
            raise ValueError("rejoining by name needs a join code: without one, anybody who "
                             "knows a player's name could take their seat")
        if self.resume is not None and self.journal is not None and self.journal != self.resume:
            raise ValueError("a resumed match goes on in the journal it was resumed from: "
                             "give --resume alone")
        if self.computer_threads < 1 or self.computer_processes < 0:
            raise ValueError("computer players need at least one thread")
        self.table_config()  # checks the rule fields

    def table_config(self) -> TableConfig:
        """The first table's settings."""
        return TableConfig(
            name=self.table, rules=self.rules, players=self.players, computers=self.computers,
            computer_level=self.computer_level, computer_delay=self.computer_delay,
            seed=self.seed, turn_timer=self.turn_timer, grace=self.grace,
            journal=self.journal if self.resume is None else None,
            next_round_delay=self.next_round_delay,
        )


@dataclass(frozen=True, slots=True)
class RejoinRequest:
    """A person asks for an away seat back by name; the operator answers `Host.answer_rejoin`."""

    #: Names the request in `Host.answer_rejoin` and the ``cancelled`` callback.
    id: int
    table: str
    seat: int
    #: The seat's person's name, as the table knows it (the asker gave it in any case).
    name: str
    #: The IP address the request came from.
    address: str


class Connection(asyncio.Protocol):
    """One client connection: its codec, its timers, and where it sits.

    An `asyncio.Protocol`: the bytes that arrive go straight to the codec and
    each whole message is handled at once, with no task per connection.
    """

    def __init__(self, host: Host) -> None:
        limits = host.config.limits
        now = asyncio.get_running_loop().time()
        self.host = host
        self.address = "?"
        self.name: str | None = None
        self.seat: int | None = None
        self.table: Table | None = None
        #: The request for a seat back that this connection waits on, if any.
        self.rejoin: RejoinRequest | None = None
        self.closed = False
        self.codec = Codec("host")
        self.liveness = Liveness(
            now, handshake=limits.handshake_timeout, heartbeat=limits.heartbeat,
            idle=limits.idle_timeout,
        )
        self.bucket = TokenBucket(limits.messages_per_second, limits.message_burst, now)
        self.strikes = 0
        self._transport: asyncio.Transport | None = None
        self._outbox_limit = limits.outbox_bytes
        self._pings = 0
        self._linger_until = 0.0
        self._timer: asyncio.TimerHandle | None = None

    # -- asyncio.Protocol ------------------------------------------------------

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self._transport = transport
        sock = transport.get_extra_info("socket")
        send_buffer = self.host.config.limits.socket_send_buffer
        if sock is not None and send_buffer:
            with contextlib.suppress(OSError):
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, send_buffer)
        peer = transport.get_extra_info("peername")
        self.address = str(peer[0]) if isinstance(peer, tuple) else str(peer)
        self.host.admit(self)
        self._arm()

    def data_received(self, data: bytes) -> None:
        if self.closed:
            return  # lingering: input is read only to be dropped
        now = asyncio.get_running_loop().time()
        self.liveness.heard(now)
        self.codec.receive_data(data)
        try:
            while not self.closed:
                message = self.codec.next_message()
                if message is NEED_DATA or message is CLOSED:
                    return
                self.host.handle(self, message, now)  # type: ignore[arg-type]
        except ProtocolError as exc:
            self.close(Error(exc.code, exc.message, fatal=True))

    def eof_received(self) -> bool:
        return False  # the peer is done: close our side too

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed = True
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self.host.gone(self, asyncio.get_running_loop().time())

    # -- sending and closing --------------------------------------------------

    def send(self, message: HostMessage) -> None:
        self.send_frame(encode_frame(to_wire(message)))

    def send_frame(self, frame: bytes) -> None:
        """Queue ``frame`` for the peer, never waiting; a peer too far behind is cut off."""
        transport = self._transport
        if self.closed or transport is None or transport.is_closing():
            return
        if transport.get_write_buffer_size() + len(frame) > self._outbox_limit:
            unsent = transport.get_write_buffer_size()
            self.host.report(f"{self.address}: cut off, it stopped reading ({unsent} bytes unsent)")
            self.abort()
            return
        transport.write(frame)

    def close(self, error: Error | None = None) -> None:
        """Send ``error`` (if any) and hang up once it is written.

        The host stops writing but goes on reading (and discarding) for a
        moment: closing a socket with unread input makes the system reset the
        connection, and the peer would lose the error that explains why.
        """
        if self.closed:
            return
        if error is not None:
            self.send(error)
        self.closed = True
        self._linger_until = asyncio.get_running_loop().time() + LINGER
        self._arm()
        transport = self._transport
        if transport is None or transport.is_closing():
            return
        try:
            if transport.can_write_eof():
                transport.write_eof()
            else:
                transport.close()
        except OSError:  # the peer is already gone
            transport.abort()

    def abort(self) -> None:
        """Drop the connection at once, unsent bytes and all."""
        self.closed = True
        if self._transport is not None:
            self._transport.abort()

    def strike(self, error: Error) -> None:
        """Refuse one message; hang up after too many refusals in a row."""
        self.strikes += 1
        if self.strikes > self.host.config.limits.max_strikes:
            self.close(Error(ErrorCode.TOO_MANY_ERRORS,
                             f"{self.strikes} refused messages in a row: goodbye", fatal=True))
        else:
            self.send(error)

    # -- time ---------------------------------------------------------------

    def _arm(self) -> None:
        """Wake `_on_timer` at the next deadline (one timer, not one per message)."""
        if self._timer is not None:
            self._timer.cancel()
        when = self._linger_until if self.closed else self.liveness.deadline()
        self._timer = asyncio.get_running_loop().call_at(when, self._on_timer)

    def _on_timer(self) -> None:
        self._timer = None
        now = asyncio.get_running_loop().time()
        if self.closed:
            if now >= self._linger_until:
                self.abort()
                return
        else:
            # Messages only note the time; whether a deadline really came is decided here.
            wake = self.liveness.wake(now)
            if wake is Wake.PING:
                self._pings += 1
                self.send(Ping(self._pings))
            elif wake is Wake.CLOSE:
                what = "say hello" if not self.liveness.ready else "answer"
                self.close(Error(ErrorCode.TIMEOUT, f"you took too long to {what}", fatal=True))
                return
        self._arm()


class Host:
    """A running host: one listening socket, any number of tables.

    ``report`` gets the operator's notes (stderr without it). ``ask`` makes the
    host ask its operator when somebody asks for an away seat back by name: it
    is called on the event loop with a `RejoinRequest` and must not block; the
    operator answers later with `answer_rejoin`. ``cancelled(request_id)`` is
    called when a request ends without an answer (the asking connection
    closed, the seat's person came back, nobody answered in time, the host
    stopped): the operator's question can be put away.
    """

    def __init__(
        self,
        config: HostConfig,
        *,
        report: Callable[[str], None] | None = None,
        ask: Callable[[RejoinRequest], None] | None = None,
        cancelled: Callable[[int], None] | None = None,
    ) -> None:
        self.config = config
        self.tables: dict[str, Table] = {}
        #: What resuming said about the journal (None when nothing was dropped).
        self.resume_note: str | None = None
        self.address: str | None = None
        self.port: int | None = None
        self._report = report
        self._ask = ask
        self._cancelled = cancelled
        #: Requests for a seat back that wait for the operator, by id.
        self._requests: dict[int, tuple[RejoinRequest, Connection]] = {}
        self._request_deadlines: Deadlines[int] = Deadlines()
        self._request_timer: asyncio.TimerHandle | None = None
        self._request_ids = 0
        self._server: asyncio.Server | None = None
        self._connections: set[Connection] = set()
        self._per_address: dict[str, int] = {}
        self._all_gone = asyncio.Event()
        self._executor: Executor
        if config.computer_processes:
            # Imported only here: a host whose computers think in threads (every solo
            # game) never pays for multiprocessing at start.
            import multiprocessing
            from concurrent.futures import ProcessPoolExecutor

            self._executor = ProcessPoolExecutor(
                max_workers=config.computer_processes, mp_context=multiprocessing.get_context("spawn")
            )
        else:
            self._executor = ThreadPoolExecutor(
                max_workers=config.computer_threads, thread_name_prefix="capicu-computer"
            )

    @property
    def code(self) -> str | None:
        return self.config.code

    def report(self, text: str) -> None:
        """Tell the operator something (stderr by default)."""
        if self._report is not None:
            self._report(text)
        else:
            print(f"capicu host: {text}", file=sys.stderr)

    async def start(self) -> tuple[str, int]:
        """Open the first table (resuming it if asked) and listen; the bound (address, port).

        Raises `HostError` with a clear sentence when it cannot.
        """
        loop = asyncio.get_running_loop()
        config = self.config
        if config.resume is not None:
            try:
                recovered = await asyncio.to_thread(read_journal, config.resume)
                journal = await asyncio.to_thread(Journal.reopen, config.resume, recovered)
            except JournalError as exc:
                raise HostError(str(exc)) from None
            if recovered.damage:
                entries = len(recovered.entries)
                self.resume_note = f"{config.resume}: recovered {entries} entries; {recovered.damage}"
                self.report(self.resume_note)
            try:
                table = Table.restore(
                    config.table_config(), recovered, journal, executor=self._executor,
                    now=loop.time(), heartbeat=config.limits.heartbeat, report=self.report,
                )
            except ValueError as exc:
                raise HostError(f"cannot resume from {config.resume}: {exc}") from None
            self.tables[table.name] = table
        else:
            self.open_table(config.table_config())
        try:
            self._server = await loop.create_server(
                lambda: Connection(self), host=config.bind, port=config.port, reuse_address=True,
            )
        except OSError as exc:
            where = f"{config.bind or 'every interface'} port {config.port}"
            raise HostError(f"cannot listen on {where}: {exc.strerror or exc}") from None
        sockname = self._server.sockets[0].getsockname()
        self.address = config.bind or "0.0.0.0"
        self.port = int(sockname[1])
        return self.address, self.port

    def open_table(self, config: TableConfig) -> Table:
        """Add a table (its name must be new); clients pick it by name in their hello."""
        if config.name in self.tables:
            raise ValueError(f"there is already a table called {config.name!r}")
        table = Table(config, executor=self._executor, heartbeat=self.config.limits.heartbeat,
                      report=self.report)
        self.tables[config.name] = table
        return table

    async def close_table(self, name: str) -> None:
        """Hang up on everybody at table ``name``, stop its timers and close its journal."""
        table = self.tables.pop(name)
        table.close(Error(ErrorCode.SHUTTING_DOWN, f"the table {name!r} was closed", fatal=True))
        if table.journal is not None:
            with contextlib.suppress(JournalError):
                await table.journal.close()

    def join_line(self) -> str:
        """How to join, in one line a person reads out: address, port and code."""
        address = self.address or "?"
        if address in ("0.0.0.0", "::", ""):
            address = lan_address()
        code = f", join code {self.config.code}" if self.config.code else ", no join code"
        return f"address {address}, port {self.port}{code}"

    def fill_with_computers(self, table: str = "main") -> int:
        """Seat computers in ``table``'s open seats and start its match; how many it seated."""
        return self.tables[table].fill_with_computers(asyncio.get_running_loop().time())

    def join_command(self) -> str:
        """The exact ``capicu join ...`` command the other players type."""
        address = self.address or "?"
        if address in ("0.0.0.0", "::", ""):
            address = lan_address()
        if ":" in address:
            address = f"[{address}]"
        code = f" --code {self.config.code}" if self.config.code else ""
        return f"capicu join {address}:{self.port}{code}"

    async def serve_forever(self) -> None:
        if self._server is None:
            raise RuntimeError("start the host first")
        await self._server.serve_forever()

    async def stop(self) -> None:
        """Hang up on everybody, close the tables and their journals, stop listening."""
        if self._server is not None:
            self._server.close()
        if self._request_timer is not None:
            self._request_timer.cancel()
            self._request_timer = None
        bye = Error(ErrorCode.SHUTTING_DOWN, "the host is shutting down", fatal=True)
        for table in self.tables.values():
            table.close(bye)
        for connection in list(self._connections):
            connection.close(bye)
        for table in self.tables.values():
            if table.journal is not None:
                with contextlib.suppress(JournalError):
                    await table.journal.close()
        if self._connections:
            # Peers that read get the error and hang up at once; the rest are cut.
            self._all_gone.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._all_gone.wait(), 1.0)
            for connection in list(self._connections):
                connection.abort()
        self._executor.shutdown(wait=False, cancel_futures=True)

    # -- connections --------------------------------------------------------

    def admit(self, connection: Connection) -> None:
        """Count a new connection against its address's limit (or refuse it)."""
        address = connection.address
        count = self._per_address.get(address, 0)
        if count >= self.config.limits.connections_per_address:
            connection.close(Error(ErrorCode.TOO_MANY_CONNECTIONS,
                                   f"{address} already has {count} connections open", fatal=True))
            return
        self._per_address[address] = count + 1
        self._connections.add(connection)

    def gone(self, connection: Connection, now: float) -> None:
        """``connection`` ended, however it ended."""
        if connection not in self._connections:
            return
        self._connections.discard(connection)
        left = self._per_address.get(connection.address, 1) - 1
        if left > 0:
            self._per_address[connection.address] = left
        else:
            self._per_address.pop(connection.address, None)
        if connection.table is not None:
            connection.table.leave(connection, now)
        if connection.rejoin is not None:
            self._end_request(connection.rejoin.id, None)
        if not self._connections:
            self._all_gone.set()

    def handle(self, connection: Connection, message: ClientMessage, now: float) -> None:
        """Act on one message; a fatal problem raises ProtocolError (the caller hangs up)."""
        if isinstance(message, Ping):
            connection.send(Pong(message.n))
            return
        if isinstance(message, Pong):
            return
        if isinstance(message, Bye):
            if connection.table is not None:
                connection.table.leave(connection, now, on_purpose=True)
            connection.close()
            return
        if not connection.liveness.ready:
            if not isinstance(message, Hello):
                raise ProtocolError(ErrorCode.NOT_READY, "the first message must be a hello")
            self._hello(connection, message, now)
            connection.liveness.handshake_done(now)
            return
        if isinstance(message, Hello):
            raise ProtocolError(ErrorCode.BAD_MESSAGE, "hello is only the first message")
        ref = message.ref if isinstance(message, Act) else None
        if not connection.bucket.take(now):
            rate = self.config.limits.messages_per_second
            connection.strike(Error(ErrorCode.RATE_LIMITED,
                                    f"too fast: at most {rate:g} messages a second", ref=ref))
            return
        table = connection.table
        if table is None:
            return
        try:
            if isinstance(message, Act):
                table.act(connection, message.action, message.ref, now)
                connection.strikes = 0
            elif isinstance(message, Say):
                table.chat(connection, message.text)
            elif isinstance(message, Ready):
                table.ready(connection, now)
        except ProtocolError as exc:
            connection.strike(Error(exc.code, exc.message, ref=ref))

    def _hello(self, connection: Connection, hello: Hello, now: float) -> None:
        if hello.version != PROTOCOL_VERSION:
            raise ProtocolError(
                ErrorCode.VERSION,
                f"this host speaks protocol version {PROTOCOL_VERSION}, not {hello.version}",
            )
        table = self.tables.get(hello.table)
        if table is None:
            raise ProtocolError(ErrorCode.NO_TABLE, f"there is no table called {hello.table!r} here")
        if hello.token is not None or hello.seat_key is not None:
            # A seat's token or key is a stronger secret than the join code: it alone suffices.
            table.resume(connection, now, token=hello.token, seat_key=hello.seat_key)
            self._seat_taken_back(table, connection)
            return
        if self.config.code is not None and not same_code(hello.code or "", self.config.code):
            raise ProtocolError(ErrorCode.BAD_CODE, "that is not this table's join code")
        name = clean_name(hello.name)
        seat = None if hello.spectate else table.away_seat(name)
        if seat is None:
            table.join(connection, hello.name, hello.spectate, now)
        elif self._ask is not None:
            self._ask_operator(connection, table, seat, name, now)
        elif self.config.rejoin_by_name:
            table.take_back(connection, seat, now)
            self._seat_taken_back(table, connection)
        else:
            raise ProtocolError(
                ErrorCode.SEAT_HELD,
                f"seat {seat + 1} is held for {name!r}: come back from the machine that had it, "
                "or with its seat key (capicu join HOST --seat-key KEY)",
            )

    # -- asking for a seat back by name -------------------------------------------

    def _ask_operator(self, connection: Connection, table: Table, seat: int, name: str,
                      now: float) -> None:
        if table.broken is not None:
            raise ProtocolError(ErrorCode.SHUTTING_DOWN, table.broken)
        if any(r.table == table.name and r.seat == seat for r, _ in self._requests.values()):
            raise ProtocolError(ErrorCode.SEAT_HELD,
                                f"somebody is already asking for seat {seat + 1} back: try again later")
        self._request_ids += 1
        request = RejoinRequest(self._request_ids, table.name, seat, table.seats[seat].name or name,
                                connection.address)
        timeout = self.config.limits.rejoin_answer_timeout
        self._requests[request.id] = (request, connection)
        connection.rejoin = request
        self._request_deadlines.set(request.id, now + timeout)
        self._rearm_requests()
        connection.send(Waiting("approval", seat, timeout))
        assert self._ask is not None
        try:
            self._ask(request)
        except Exception as exc:  # the operator's side failing must not hold the person forever
            self.report(f"asking about seat {seat + 1} failed ({exc!r})")
            self._end_request(request.id, Error(ErrorCode.REFUSED, "the host could not ask its "
                                                "operator: try again later", fatal=True))

    def answer_rejoin(self, request_id: int, allow: bool) -> bool:
        """The operator's answer to request ``request_id`` (call it on the host's event loop).

        Allowed, the person is back in the seat exactly as with its token;
        refused, they are told so and the connection closes. True when the
        answer was carried out; False when the request had already ended (see
        ``cancelled``) or the seat is no longer that person's to give.
        """
        found = self._requests.pop(request_id, None)
        if found is None:
            return False
        request, connection = found
        self._request_deadlines.cancel(request_id)
        self._rearm_requests()
        connection.rejoin = None
        table = self.tables.get(request.table)
        if not allow:
            connection.close(Error(ErrorCode.REFUSED,
                                   f"the host did not give you seat {request.seat + 1} back", fatal=True))
            return True
        if table is None or table.away_seat(request.name) != request.seat:
            connection.close(Error(ErrorCode.REFUSED,
                                   f"seat {request.seat + 1} is no longer held for {request.name!r}",
                                   fatal=True))
            return False
        try:
            table.take_back(connection, request.seat, asyncio.get_running_loop().time())
        except ProtocolError as exc:
            connection.close(Error(exc.code, exc.message, fatal=True))
            return False
        self._seat_taken_back(table, connection)
        return True

    def _seat_taken_back(self, table: Table, connection: Connection) -> None:
        """End the other requests for the seat ``connection`` now holds: its person is here."""
        for request, asker in list(self._requests.values()):
            if request.table == table.name and request.seat == connection.seat and asker is not connection:
                self._end_request(request.id, Error(
                    ErrorCode.NAME_TAKEN, f"{request.name!r} came back to seat {request.seat + 1}",
                    fatal=True,
                ))

    def _end_request(self, request_id: int, error: Error | None) -> None:
        """Request ``request_id`` ends without the operator's answer; ``error`` goes to the asker."""
        found = self._requests.pop(request_id, None)
        if found is None:
            return
        _, connection = found
        connection.rejoin = None
        self._request_deadlines.cancel(request_id)
        self._rearm_requests()
        if error is not None:
            connection.close(error)
        if self._cancelled is not None:
            self._cancelled(request_id)

    def wake(self, now: float) -> None:
        """Refuse every request for a seat back whose time to be answered has run out."""
        self._request_timer = None
        timeout = self.config.limits.rejoin_answer_timeout
        for request_id in self._request_deadlines.pop_due(now):
            self._end_request(request_id, Error(
                ErrorCode.REFUSED, f"nobody answered your request within {timeout:g} seconds",
                fatal=True,
            ))
        self._rearm_requests()

    def _rearm_requests(self) -> None:
        if self._request_timer is not None:
            self._request_timer.cancel()
            self._request_timer = None
        when = self._request_deadlines.next()
        if when is not None:
            loop = asyncio.get_running_loop()
            self._request_timer = loop.call_at(when, lambda: self.wake(loop.time()))


def lan_address() -> str:
    """This machine's address on its local network, as others would reach it (best effort).

    Connecting a UDP socket sends nothing; it only asks the system which
    interface it would route through.
    """
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("10.254.254.254", 1))
        return str(probe.getsockname()[0])
    except OSError:
        return "127.0.0.1"
    finally:
        probe.close()
