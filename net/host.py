"""The asyncio host: listens, shakes hands, and routes each connection to its table.

Usage, in-process (the interface does this for a game on one machine)::

    host = Host(HostConfig(rules=rules, players=3, computers=2, bind="127.0.0.1", port=0))
    address, port = await host.start()
    ...                       # clients connect to (address, port)
    await host.stop()

The host only moves bytes and passes in the time: the codec decides what the
bytes mean, the `Table` decides what they do, `Liveness` and `TokenBucket`
decide when a connection is too quiet or too loud. The host never waits for a
slow peer: it writes to the peer's transport and, once a peer's unsent bytes
pass `Limits.outbox_bytes`, cuts it off.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import secrets
import socket
import sys
from collections.abc import Callable
from concurrent.futures import Executor, ThreadPoolExecutor
from dataclasses import field
from pathlib import Path

from capicu.core import Rules
from capicu.core.record import Record

from .codec import CLOSED, NEED_DATA, Codec, encode_frame
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
    Say,
)
from .table import Table, TableConfig
from .timing import Liveness, TokenBucket, Wake

#: Letters and digits that cannot be mistaken for one another when read aloud.
_CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
#: Seconds a closing connection keeps reading (and dropping) input; see `Connection.close`.
LINGER = 2.0


def new_join_code(length: int = 6) -> str:
    """A random short join code, from `secrets`."""
    return "".join(secrets.choice(_CODE_ALPHABET) for _ in range(length))


def _normal_code(code: str) -> str:
    return "".join(code.split()).replace("-", "").upper()


class HostError(Exception):
    """The host cannot start: the message says why (port in use, unreadable journal, ...)."""


class Limits(Record):
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

    def __post_init__(self) -> None:
        for name in ("handshake_timeout", "heartbeat", "idle_timeout", "messages_per_second"):
            if not getattr(self, name) > 0:
                raise ValueError(f"the limit {name} must be positive")
        if self.idle_timeout <= self.heartbeat:
            raise ValueError("the idle timeout must be longer than the heartbeat")


class HostConfig(Record):
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
        if self.code is not None and not 1 <= len(_normal_code(self.code)) <= 32:
            raise ValueError("a join code is 1 to 32 letters or digits")
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
        )


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
        self.send_frame(encode_frame(message.to_wire()))

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
    """A running host: one listening socket, any number of tables."""

    def __init__(self, config: HostConfig, *, report: Callable[[str], None] | None = None) -> None:
        self.config = config
        self.tables: dict[str, Table] = {}
        #: What resuming said about the journal (None when nothing was dropped).
        self.resume_note: str | None = None
        self.address: str | None = None
        self.port: int | None = None
        self._report = report
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
        if hello.token is not None:
            # A seat's token is a stronger secret than the join code: it alone suffices.
            table.resume(connection, hello.token, now)
            return
        if self.config.code is not None:
            given = _normal_code(hello.code or "").encode()
            if not hmac.compare_digest(given, _normal_code(self.config.code).encode()):
                raise ProtocolError(ErrorCode.BAD_CODE, "that is not this table's join code")
        table.join(connection, hello.name, hello.spectate, now)


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
