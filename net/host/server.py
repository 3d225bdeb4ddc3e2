"""The asyncio host: listens, shakes hands, and routes each connection to its table.

Usage, in-process (the interface does this for a game on one machine)::

    table = TableConfig(rules=rules, players=3, computers=2)
    host = Host(HostConfig(table, bind="127.0.0.1", port=0))
    address, port = await host.start()
    ...                       # clients connect to (address, port)
    await host.stop()

The host only moves bytes and passes in the time: its `HostMachine`
(net/host/machine.py, pure) decides what the bytes mean and what they do, when a
connection is too quiet, too slow or too loud, and what every table does;
the host carries out the effects it returns and wakes it at its next deadline.

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
import ipaddress
import secrets
import socket
import sys
import time
from collections.abc import Callable, Collection
from concurrent.futures import Executor, ThreadPoolExecutor
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

import msgspec
from capicu.core import Action
from capicu.core.codes import Code, Statement
from capicu.net.codec import encode_frame
from capicu.net.codes import Entropy, new_join_code, normal_code
from capicu.net.limits import TABLE_NAME_LIMIT
from capicu.net.protocol import DEFAULT_PORT, Error, ErrorCode, SeatKind, to_wire
from capicu.net.store.journal import Journal, JournalError, read_journal
from capicu.net.store.journals import JournalFolder, JournalLock
from capicu.net.store.keeping import KeptBy
from capicu.net.store.record import MatchRecord

from .effects import (
    Arrived,
    Ask,
    Cancelled,
    Close,
    Effect,
    HostNote,
    KeepRecord,
    Peer,
    Record,
    Report,
    RoundScored,
    Send,
    Tell,
    Think,
)
from .machine import HostMachine, Limits, RejoinRequest
from .sanitize import clean_text
from .table import ConfigError, ConfigProblem, Table, TableConfig, choose_in_worker, choose_with

if TYPE_CHECKING:
    from capicu.net.discovery import Ad
    from capicu.net.mdns import Announcer
    from capicu.net.store.archive import Kept

__all__ = [
    "NO_LAN",
    "Announce",
    "Connection",
    "Host",
    "HostConfig",
    "HostError",
    "HostNote",
    "HostProblem",
    "Limits",
    "RejoinRequest",
    "is_loopback",
    "lan_address",
    "new_join_code",
    "reachable",
]

#: Seconds a closing connection keeps reading (and dropping) input; see `Connection.close`.
LINGER = 2.0


class HostProblem(Code):
    """Why a host cannot start, with the params it is said with; an interface words it."""

    #: The journal cannot be read or reopened (``problem``: the journal reader's words).
    JOURNAL = "journal", "path", "problem"
    #: The journal does not replay into a match (``problem``: the engine's words).
    CANNOT_RESUME = "cannot_resume", "path", "problem"
    #: Another running host holds that journal (it is playing that match now).
    JOURNAL_IN_USE = "journal_in_use", "path"
    #: The folder of match journals cannot be written (``problem``: the system's words).
    JOURNALS_FOLDER = "journals_folder", "path", "problem"
    #: ``address`` ("" for every interface); ``problem``: the system's words ("Address in use").
    CANNOT_LISTEN = "cannot_listen", "address", "port", "problem"
    #: What runs beside the host could not start (``problem``: already in words).
    BESIDE = "beside", "problem"


class HostError(Exception):
    """The host cannot start: a `HostProblem` and its params; ``str()`` says it in English.

    The params must be the code's declared ones (ValueError otherwise).
    """

    def __init__(self, message: str, code: HostProblem = HostProblem.BESIDE, **params: str | int) -> None:
        super().__init__(message)
        code(**params)  # checks the params against the code's declaration
        self.code = code
        self.params = params


#: Set (to anything), nothing is announced on the local network nor looked for there (the test
#: suite sets it: its tests stay off the machine's real network). The command line reads it, and
#: so does the headless club host (``python -m capicu.net.club``).
NO_LAN = "CAPICU_NO_LAN"


class Announce(msgspec.Struct, frozen=True):
    """How a host announces its table on the local network (net/discovery.py says what is in it)."""

    #: The table's name, as players will see it in their list (cleaned here like any name).
    name: str
    #: The SSH gateway's port, to say so (None: no gateway).
    ssh_port: int | None = None

    def __post_init__(self) -> None:
        # Cleaned once here, not at each announcement (a name of nothing visible says "capicu").
        msgspec.structs.force_setattr(self, "name", clean_text(self.name, limit=TABLE_NAME_LIMIT) or "capicu")


class HostConfig(msgspec.Struct, frozen=True):
    """Everything a host needs: how its first table plays (`TableConfig`), and where and how it listens.

    Each setting is checked once, where it is declared: the table's by `TableConfig`,
    the host's here (`ConfigError`).
    """

    #: The first table (clients ask for a table by name; "main" is the default).
    table: TableConfig = msgspec.field(default_factory=TableConfig)
    #: The address to listen on; None listens on every interface (for a LAN).
    bind: str | None = None
    #: The port to listen on; 0 takes any free port (see `Host.start`'s result).
    port: int = DEFAULT_PORT
    #: The join code players must give; None lets anybody on the network in.
    code: str | None = None
    #: A headless host lets the join code plus the name of an away seat take it back.
    #: Needs a join code. (A host with an operator asks the operator instead.)
    rejoin_by_name: bool = False
    #: Rebuild the match from this journal and keep writing to it (the table's own
    #: journal, if it names one, must be this file).
    resume: Path | None = None
    #: Journal the match in a new file of this folder (net/store/journals.py), unless the
    #: table names its journal or the match is resumed; the host settles the file when it stops.
    journals: JournalFolder | None = None
    #: Keep each finished match's record in this folder (net/store/record.py; a data folder's
    #: ``records/``); None keeps none. A player's client keeps its own copy besides.
    records: Path | None = None
    limits: Limits = msgspec.field(default_factory=Limits)
    #: Threads in which computer players think (when `computer_processes` is 0).
    computer_threads: int = 4
    #: Worker processes in which computer players think; 0 uses threads. Quick
    #: levels are fine in threads; slow ones (``hard``) in a busy host want
    #: processes, so that their thinking never delays another table.
    computer_processes: int = 0
    #: Announce the table on the local network (multicast DNS; net/mdns.py); None: do not.
    #: A host that listens on the loopback address only never announces.
    announce: Announce | None = None
    #: Open no table at start (``table`` only gives the defaults): a club night's host opens
    #: its tables as rounds are drawn (net/club/).
    no_first_table: bool = False

    def __post_init__(self) -> None:
        if not 0 <= self.port <= 65535:
            raise ConfigError(f"a port is a number from 0 to 65535, not {self.port}", ConfigProblem.PORT,
                              port=self.port)
        if self.code is not None and not 1 <= len(normal_code(self.code)) <= 32:
            raise ConfigError("a join code is 1 to 32 letters or digits", ConfigProblem.JOIN_CODE,
                              join_code=self.code)
        if self.rejoin_by_name and self.code is None:
            raise ConfigError("rejoining by name needs a join code: without one, anybody who "
                              "knows a player's name could take their seat", ConfigProblem.REJOIN_NEEDS_CODE)
        journal = self.table.journal
        if self.resume is not None and journal is not None and journal != self.resume:
            raise ConfigError("a resumed match goes on in the journal it was resumed from",
                              ConfigProblem.RESUME_ELSEWHERE, journal=str(journal), resume=str(self.resume))
        if self.computer_threads < 1 or self.computer_processes < 0:
            raise ConfigError("computer players need at least one thread", ConfigProblem.WORKERS,
                              threads=self.computer_threads, processes=self.computer_processes)


class Connection(asyncio.Protocol):
    """One client connection's socket: bytes in go to the machine, effects come back out.

    An `asyncio.Protocol`: the bytes that arrive go straight to the host's
    `HostMachine`, with no task per connection. What they mean and what to do
    about them is the machine's to decide; this only reads, writes and hangs up.
    """

    def __init__(self, host: Host, address: str | None = None) -> None:
        self.host = host
        #: The peer's address when the host is told it (`Host.connect_local`), not the socket's.
        self.address = address
        self.peer: Peer | None = None
        self.closed = False
        self._transport: asyncio.Transport | None = None
        self._outbox_limit = host.config.limits.outbox_bytes
        self._linger: asyncio.TimerHandle | None = None

    # -- asyncio.Protocol ------------------------------------------------------

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self._transport = transport
        sock = transport.get_extra_info("socket")
        send_buffer = self.host.config.limits.socket_send_buffer
        if sock is not None and send_buffer:
            with contextlib.suppress(OSError):
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, send_buffer)
        address = self.address
        if address is None:
            peer = transport.get_extra_info("peername")
            address = str(peer[0]) if isinstance(peer, tuple) else str(peer)
        self.host.connected(self, address)

    def data_received(self, data: bytes) -> None:
        if self.closed or self.peer is None:
            return  # lingering: input is read only to be dropped
        self.host.received(self.peer, data)

    def eof_received(self) -> bool:
        return False  # the peer is done: close our side too

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed = True
        if self._linger is not None:
            self._linger.cancel()
            self._linger = None
        if self.peer is not None:
            self.host.lost(self.peer)

    # -- sending and closing --------------------------------------------------

    def send_frame(self, frame: bytes) -> None:
        """Queue ``frame`` for the peer, never waiting; a peer too far behind is cut off."""
        transport = self._transport
        if self.closed or transport is None or transport.is_closing():
            return
        if transport.get_write_buffer_size() + len(frame) > self._outbox_limit:
            unsent = transport.get_write_buffer_size()
            address = self.peer.address if self.peer is not None else "?"
            self.host.report(HostNote.CUT_OFF(address=address, unsent=unsent))
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
            self.send_frame(encode_frame(to_wire(error)))
        self.closed = True
        self._linger = asyncio.get_running_loop().call_later(LINGER, self.abort)
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


class Host:
    """A running host: one listening socket, any number of tables.

    ``report`` gets the operator's notes, as `HostNote` statements for an interface
    to word (without it, they go to stderr as codes and params). ``ask`` makes the
    host ask its operator when somebody asks for an away seat back by name: it
    is called on the event loop with a `RejoinRequest` and must not block; the
    operator answers later with `answer_rejoin`. ``cancelled(request_id)`` is
    called when a request ends without an answer (the asking connection
    closed, the seat's person came back, nobody answered in time, the host
    stopped): the operator's question can be put away.

    Every decision is its `HostMachine`'s; the host carries out the effects
    and keeps one timer, at the machine's next deadline. ``clock`` replaces the
    event loop's time (a test's clock): such a host keeps no timer, and whoever
    moves the clock calls `wake`. ``entropy`` gives the tables their random bytes (match
    ids, tokens, seat keys, seeds); `secrets` unless a test gives a seeded source.
    """

    def __init__(
        self,
        config: HostConfig,
        *,
        report: Callable[[Statement[HostNote]], None] | None = None,
        ask: Callable[[RejoinRequest], None] | None = None,
        cancelled: Callable[[int], None] | None = None,
        clock: Callable[[], float] | None = None,
        entropy: Entropy = secrets.token_bytes,
        match_over: Callable[[str, MatchRecord], None] | None = None,
        round_scored: Callable[[str], None] | None = None,
        arrived: Callable[[str, int], None] | None = None,
    ) -> None:
        self.config = config
        #: Told of each finished match (its table's name and its record), of each round of a
        #: match that ends with the match going on (its table's name), and of each person's first
        #: arrival at a drawn seat (its table's name and seat), on the event loop.
        self._match_over = match_over
        self._round_scored = round_scored
        self._arrived = arrived
        self._clock = clock
        #: Where the tables' secrets and seeds come from (a test's seeded source, or `secrets`).
        self._entropy = entropy
        self.machine = HostMachine(config.limits, code=config.code,
                                   rejoin_by_name=config.rejoin_by_name, operator=ask is not None)
        #: What resuming said about the journal (None when nothing was dropped).
        self.resume_note: Statement[HostNote] | None = None
        #: The lock on the journal this host writes in (a resumed one, or a new one of its folder).
        self._journal_lock: JournalLock | None = None
        self.address: str | None = None
        self.port: int | None = None
        self._report = report
        self._ask = ask
        self._cancelled = cancelled
        self._server: asyncio.Server | None = None
        self._announcer: Announcer | None = None
        self._connections: dict[int, Connection] = {}
        self._all_gone = asyncio.Event()
        self._timer: asyncio.TimerHandle | None = None
        #: Records of finished matches being written (`KeepRecord`): a stop waits for them.
        self._keeping: set[asyncio.Task[Kept]] = set()
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

    @property
    def tables(self) -> dict[str, Table]:
        """The tables served, by name."""
        return self.machine.tables

    def report(self, note: Statement[HostNote]) -> None:
        """Tell the operator something (by default, on stderr as its code and params, for a log)."""
        if self._report is not None:
            self._report(note)
        else:
            params = ", ".join(f"{name}={value!r}" for name, value in note.params)
            print(f"capicu host: {note.code}: {params}", file=sys.stderr)

    async def _listen(self, loop: asyncio.AbstractEventLoop) -> asyncio.Server:
        """Listen where the config says. Port 0 on every interface is one port for all of them:
        the system would give the IPv4 and the IPv6 sockets a port each, and a player told one
        of them could find nobody behind it."""
        config = self.config
        serve = partial(loop.create_server, lambda: Connection(self), reuse_address=True)
        if config.port != 0 or config.bind is not None:
            return await serve(host=config.bind, port=config.port)
        for _ in range(4):
            with contextlib.suppress(OSError):  # taken between the probe and the bind: draw again
                return await serve(port=_free_port())
        return await serve(port=_free_port())

    async def start(self) -> tuple[str, int]:
        """Open the first table (resuming it if asked) and listen; the bound (address, port).

        Raises `HostError` with a clear sentence when it cannot.
        """
        try:
            return await self._start()
        except BaseException:
            self._settle_journal(tidy=False)
            raise

    @property
    def journal_path(self) -> Path | None:
        """The file this host journals its match in (None: no journal)."""
        if self._journal_lock is not None:
            return self._journal_lock.path
        table = self.tables.get(self.config.table.name)
        return table.journal.path if table is not None and table.journal is not None else None

    async def _start(self) -> tuple[str, int]:
        loop = asyncio.get_running_loop()
        config = self.config
        if config.journals is not None:
            self.machine.gone_seat_keys = await asyncio.to_thread(config.journals.seat_keys_set_aside)
        if config.resume is not None:
            try:
                lock = await asyncio.to_thread(JournalLock.take, config.resume)
            except OSError as exc:
                problem = str(exc.strerror or exc)
                raise HostError(f"cannot read the journal {config.resume}: {problem}", HostProblem.JOURNAL,
                                path=str(config.resume), problem=problem) from None
            if lock is None:
                raise HostError(f"another host is playing the match of {config.resume} now",
                                HostProblem.JOURNAL_IN_USE, path=str(config.resume))
            self._journal_lock = lock
            try:
                recovered = await asyncio.to_thread(read_journal, config.resume)
                journal = await asyncio.to_thread(Journal.reopen, config.resume, recovered)
            except JournalError as exc:
                raise HostError(
                    str(exc), HostProblem.JOURNAL, path=str(config.resume), problem=str(exc)
                ) from None
            try:
                table = Table.restore(
                    config.table, recovered, journal, now=self._now(), entropy=self._entropy,
                    heartbeat=config.limits.heartbeat, players_keep_state=not config.computer_processes,
                    clock_offset=self._clock_offset(),
                )
            except ValueError as exc:
                raise HostError(f"cannot resume from {config.resume}: {exc}", HostProblem.CANNOT_RESUME,
                                path=str(config.resume), problem=str(exc)) from None
            if recovered.dropped_line is not None:
                dropped = HostNote.JOURNAL_CUT_SHORT if recovered.cut_short else HostNote.JOURNAL_LINE_DAMAGED
                self.resume_note = dropped(
                    path=str(config.resume), entries=len(recovered.entries), line=recovered.dropped_line,
                    dropped=recovered.dropped_bytes, lost=recovered.dropped_lines,
                    round=table.match.round_number if table.match is not None else 0,
                    copy=str(journal.kept_as or ""))
                self.report(self.resume_note)
            self._carry_out(self.machine.add_table(table))
        elif config.no_first_table:
            pass
        elif config.journals is not None and config.table.journal is None:
            try:
                self._journal_lock = await asyncio.to_thread(config.journals.new_journal)
            except OSError as exc:
                problem = str(exc.strerror or exc)
                raise HostError(f"cannot write match journals in {config.journals.root}: {problem}",
                                HostProblem.JOURNALS_FOLDER, path=str(config.journals.root),
                                problem=problem) from None
            self.open_table(msgspec.structs.replace(config.table, journal=self._journal_lock.path))
        else:
            self.open_table(config.table)
        try:
            self._server = await self._listen(loop)
        except OSError as exc:
            where = f"{config.bind or 'every interface'} port {config.port}"
            problem = str(exc.strerror or exc)
            raise HostError(f"cannot listen on {where}: {problem}", HostProblem.CANNOT_LISTEN,
                            address=config.bind or "", port=config.port, problem=problem) from None
        sockname = self._server.sockets[0].getsockname()
        self.address = config.bind or "0.0.0.0"
        self.port = int(sockname[1])
        if config.announce is not None and not is_loopback(config.bind):
            # Imported only here: python-zeroconf is loaded by a host that announces, never by `capicu play`.
            from capicu.net.mdns import Announcer

            self._announcer = Announcer(self.port, config.bind)
            self._announce()
        return self.address, self.port

    @property
    def announced(self) -> str | None:
        """The name the table is announced by on the local network (None: it is not announced)."""
        ad = self.ad() if self._announcer is not None else None
        return ad.name if ad is not None else None

    def ad(self) -> Ad | None:
        """What the host announces about its first table now (None: it announces nothing)."""
        announce = self.config.announce
        table = self.tables.get(self.config.table.name)
        if announce is None or table is None:
            return None
        from capicu.net.discovery import Ad  # (a host that announces nothing never loads it)

        rules = table.config.rules
        return Ad(
            name=announce.name, game=rules.game.value, preset=rules.preset, seats=len(table.seats),
            taken=sum(seat.kind is not SeatKind.OPEN for seat in table.seats),
            code_needed=self.config.code is not None, ssh_port=announce.ssh_port,
        )

    def _announce(self) -> None:
        """Bring the announcement up to date (the announcer sends only what changed)."""
        if self._announcer is not None and (ad := self.ad()) is not None:
            self._announcer.show(ad)

    def open_table(self, config: TableConfig) -> Table:
        """Add a table (its name must be new); clients pick it by name in their hello."""
        table = Table(config, entropy=self._entropy, heartbeat=self.config.limits.heartbeat,
                      players_keep_state=not self.config.computer_processes,
                      clock_offset=self._clock_offset())
        self._carry_out(self.machine.add_table(table))
        return table

    async def resume_table(self, config: TableConfig, path: Path, *, awaited: Collection[int] = ()) -> Table:
        """Add the table whose match ``path`` journals, replayed where it stood (its people away);
        it goes on writing there. ``awaited``: its drawn seats whose person has not come yet.
        `HostError` when the journal cannot be read or replayed."""
        try:
            recovered = await asyncio.to_thread(read_journal, path)
            journal = await asyncio.to_thread(Journal.reopen, path, recovered)
        except JournalError as exc:
            raise HostError(str(exc), HostProblem.JOURNAL, path=str(path), problem=str(exc)) from None
        try:
            table = Table.restore(
                config, recovered, journal, now=self._now(), entropy=self._entropy,
                heartbeat=self.config.limits.heartbeat, players_keep_state=not self.config.computer_processes,
                clock_offset=self._clock_offset(), awaited=awaited,
            )
        except ValueError as exc:
            raise HostError(f"cannot resume from {path}: {exc}", HostProblem.CANNOT_RESUME,
                            path=str(path), problem=str(exc)) from None
        self._carry_out(self.machine.add_table(table))
        return table

    def finish_restored(self, name: str) -> None:
        """Table ``name`` was restored with its match over: its record is made and kept now."""
        table = self.tables[name]
        self._carry_out(self.machine.from_table(table, table.finish_restored(self._now())))

    def seat_drawn(self, name: str, people: list[str | None]) -> None:
        """Seat table ``name`` as drawn (a name or None, a computer, per seat) and start its match."""
        table = self.tables[name]
        self._carry_out(self.machine.from_table(table, table.seat_drawn(people, self._now())))

    def cover_seat(self, name: str, seat: int) -> None:
        """The person of seat ``seat`` at table ``name`` left for good: the computer plays it."""
        table = self.tables[name]
        self._carry_out(self.machine.from_table(table, table.cover_seat(seat, self._now())))

    def carry_out(self, effects: list[Effect]) -> None:
        """Carry out effects made outside the machine's calls (a lobby's, net/club/)."""
        self._carry_out(effects)

    def now(self) -> float:
        """The host's clock's time (the event loop's, or a test's clock)."""
        return self._now()

    async def close_table(self, name: str, *, farewell: bool = False) -> None:
        """Hang up on everybody at table ``name``, stop its timers and close its journal;
        ``farewell``: tell them first that it ends on purpose, not to be resumed (a `HostBye`)."""
        if farewell:
            self._carry_out(self.machine.farewell_table(name))
        table, effects = self.machine.remove_table(
            name, Error(ErrorCode.SHUTTING_DOWN, f"the table {name!r} was closed", fatal=True))
        self._carry_out(effects)
        if table.journal is not None:
            with contextlib.suppress(JournalError):
                await table.journal.close()

    def fill_with_computers(self, table: str = "main") -> int:
        """Seat computers in ``table``'s open seats and start its match; how many it seated."""
        filled, effects = self.machine.fill_with_computers(table, self._now())
        self._carry_out(effects)
        return filled

    def join_command(self) -> str:
        """The exact ``capicu join ...`` command the other players type."""
        address = reachable(self.address) if self.address else "?"
        if ":" in address:
            address = f"[{address}]"
        code = f" --code {self.config.code}" if self.config.code else ""
        return f"capicu join {address}:{self.port}{code}"

    async def connect_local(self, address: str) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
        """A connection from inside this process for a peer at ``address``: the client's streams.

        For a trusted gateway in the same process (the SSH gateway): every one of its
        players comes through it, and this way the limits per address (connections, wrong
        codes and keys) count each player's own address, not the gateway's. A socket
        pair, no port; ConnectionRefusedError when the host is not listening.
        """
        if self._server is None or not self._server.is_serving():
            raise ConnectionRefusedError("the host is not running")
        ours, theirs = socket.socketpair()
        try:
            await asyncio.get_running_loop().connect_accepted_socket(
                lambda: Connection(self, address), ours)
            return await asyncio.open_connection(sock=theirs)
        except BaseException:
            ours.close()
            theirs.close()
            raise

    async def serve_forever(self) -> None:
        if self._server is None:
            raise RuntimeError("start the host first")
        await self._server.serve_forever()

    async def stop(self, *, closing: bool = False, closed_by: str | None = None,
                   resumable: bool = True) -> None:
        """Hang up on everybody, close the tables and their journals, stop listening.

        ``closing``: the game ends on purpose (``closed_by``, the hosting player, closed the
        table): everybody is told so first (a `HostBye`, saying whether the match can be
        resumed: never when ``resumable`` is False, as when the hosting player ends the match
        and its journal is set aside), and does not wait for the host to come back. Otherwise
        the host may only be restarting, and clients with a seat try to take it back.
        The journal's lock is given up even when this is cancelled half-way.
        """
        try:
            await self._stop(closing, closed_by, resumable)
        finally:
            self._settle_journal()

    async def _stop(self, closing: bool, closed_by: str | None, resumable: bool) -> None:
        if self._server is not None:
            self._server.close()
        announcer, self._announcer = self._announcer, None
        if announcer is not None:  # withdrawn first: nobody should find a table that is closing
            await announcer.close()
        if closing:
            self._carry_out(self.machine.farewell(closed_by, resumable=resumable))
        bye = Error(ErrorCode.SHUTTING_DOWN, "the host is shutting down", fatal=True)
        self._carry_out(self.machine.shutdown(bye))
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        for table in self.tables.values():
            if table.journal is not None:
                with contextlib.suppress(JournalError):
                    await table.journal.close()
        if self._keeping:
            await asyncio.wait(set(self._keeping))
        if self._connections:
            # Peers that read get the error and hang up at once; the rest are cut.
            self._all_gone.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._all_gone.wait(), 1.0)
            for connection in list(self._connections.values()):
                connection.abort()
        self._executor.shutdown(wait=False, cancel_futures=True)

    def _settle_journal(self, *, tidy: bool = True) -> None:
        """Give up the journal's lock; in the folder of journals, an empty file goes and (``tidy``) a
        finished match's moves to ``finished/`` (net/store/journals.py says the rule).

        Blocking, briefly (a few file operations, a finished match's replay): the host is stopping.
        """
        lock, self._journal_lock = self._journal_lock, None
        if lock is None:
            return
        folder = self.config.journals
        try:
            if folder is not None and folder.holds(lock.path):
                folder.settle(lock.path, tidy=tidy)
        finally:
            lock.release()

    def answer_rejoin(self, request_id: int, allow: bool) -> bool:
        """The operator's answer to request ``request_id`` (call it on the host's event loop).

        Allowed, the person is back in the seat exactly as with its token;
        refused, they are told so and the connection closes. True when the
        answer was carried out; False when the request had already ended (see
        ``cancelled``) or the seat is no longer that person's to give.
        """
        done, effects = self.machine.answer_rejoin(request_id, allow, self._now())
        self._carry_out(effects)
        return done

    def wake(self, now: float | None = None) -> None:
        """Act on everything due by ``now`` (default: the host's clock's time); the timer calls it."""
        self._carry_out(self.machine.wake(self._now() if now is None else now))

    # -- what the connections and the executor report ------------------------------

    def connected(self, connection: Connection, address: str) -> None:
        peer, effects = self.machine.connect(address, self._now())
        connection.peer = peer
        self._connections[peer.id] = connection
        self._carry_out(effects)

    def received(self, peer: Peer, data: bytes) -> None:
        self._carry_out(self.machine.receive(peer, data, self._now()))

    def lost(self, peer: Peer) -> None:
        self._carry_out(self.machine.disconnected(peer, self._now()))
        self._connections.pop(peer.id, None)
        if not self._connections:
            self._all_gone.set()

    def _chosen(self, think: Think, future: asyncio.Future[Action]) -> None:
        if future.cancelled():
            return
        error = future.exception()
        action = None if error is not None else future.result()
        failure = None if error is None else repr(error)
        self._carry_out(self.machine.chosen(think, action, failure, self._now()))

    # -- carrying out effects --------------------------------------------------------

    def _now(self) -> float:
        return asyncio.get_running_loop().time() if self._clock is None else self._clock()

    def _clock_offset(self) -> float:
        """What to add to the host's clock for the time of day (seconds since 1970, UTC)."""
        return time.time() - self._now()

    def _carry_out(self, effects: list[Effect]) -> None:
        """Do ``effects`` in order, starting each journal write (the machine holds what waits for it)."""
        for effect in effects:
            if isinstance(effect, Record):
                journal = effect.journal
                future = journal.write(effect.records)
                future.add_done_callback(partial(self._recorded, journal))
            else:
                self._do(effect)
        self._rearm()
        self._announce()

    def _recorded(self, journal: Journal, future: asyncio.Future[None]) -> None:
        """A journal write ended: release what waited for it, or stop its table."""
        if future.cancelled():
            self._carry_out(self.machine.journal_failed(journal, "the journal write was cancelled"))
        elif (error := future.exception()) is not None:
            self._carry_out(self.machine.journal_failed(journal, str(error)))
        else:
            self._carry_out(self.machine.recorded(journal))

    def _do(self, effect: Effect) -> None:
        if isinstance(effect, Send):
            connection = self._connections.get(effect.peer.id)
            if connection is not None:
                connection.send_frame(effect.frame)
        elif isinstance(effect, Tell):
            frame = encode_frame(to_wire(effect.message))
            for peer in effect.peers:
                connection = self._connections.get(peer.id)
                if connection is not None:
                    connection.send_frame(frame)
        elif isinstance(effect, Close):
            connection = self._connections.get(effect.peer.id)
            if connection is not None:
                connection.close(effect.error)
        elif isinstance(effect, Think):
            self._think(effect)
        elif isinstance(effect, KeepRecord):
            if self._match_over is not None:
                self._match_over(effect.table, effect.record)
            self._keep_record(effect)
        elif isinstance(effect, Ask):
            assert self._ask is not None
            try:
                self._ask(effect.request)
            except Exception as exc:  # the operator's side failing must not hold the person forever
                self.report(HostNote.ASK_FAILED(seat=effect.request.seat, problem=repr(exc)))
                self._carry_out(self.machine.ask_failed(effect.request.id))
        elif isinstance(effect, Cancelled):
            if self._cancelled is not None:
                self._cancelled(effect.request_id)
        elif isinstance(effect, Report):
            self.report(effect.note)
        elif isinstance(effect, RoundScored) and self._round_scored is not None:
            self._round_scored(effect.table)
        elif isinstance(effect, Arrived) and self._arrived is not None:
            self._arrived(effect.table, effect.seat)

    def _keep_record(self, keep: KeepRecord) -> None:
        """Write a finished match's record in the host's folder of records, in a thread; say how it went."""
        folder = self.config.records
        if folder is None:
            return
        # Loaded when a match ends: the records' folder and the history are not needed before.
        from capicu.net.store.archive import history_note, keep_finished_match

        task = asyncio.get_running_loop().create_task(
            asyncio.to_thread(keep_finished_match, keep.record, folder, kept_by=KeptBy.HOST))
        self._keeping.add(task)

        def kept(task: asyncio.Task[Kept]) -> None:
            self._keeping.discard(task)
            if task.cancelled():
                return
            error = task.exception()
            if error is None:
                kept = task.result()
                self.report(HostNote.RECORD_KEPT(table=keep.table, path=str(kept.path)))
                if kept.history_problem is not None:
                    self.report(history_note(keep.table, kept.history_problem))
            else:
                self.report(HostNote.RECORD_FAILED(table=keep.table, problem=str(error)))

        task.add_done_callback(kept)

    def _think(self, think: Think) -> None:
        """Run the computer's choice off the event loop; it comes back to `_chosen`."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Action]
        try:
            if think.player is not None:
                future = loop.run_in_executor(self._executor, choose_with, think.player, think.view)
            else:
                future = loop.run_in_executor(
                    self._executor, choose_in_worker, think.level, think.seed, think.view)
        except RuntimeError:
            return  # the executor is shut down: the host is stopping
        future.add_done_callback(lambda f: self._chosen(think, f))

    def _rearm(self) -> None:
        """Wake the machine at its next deadline (a timer already set earlier stays)."""
        when = self.machine.next_deadline()
        if when is None or self._clock is not None:
            return
        timer = self._timer
        if timer is not None:
            if timer.when() <= when:
                return
            timer.cancel()
        self._timer = asyncio.get_running_loop().call_at(when, self._on_timer)

    def _on_timer(self) -> None:
        self._timer = None
        self.wake(self._now())


def _free_port() -> int:
    """A port free on every IPv4 interface now (the system's choice), for all of a host's sockets."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("0.0.0.0", 0))
        return int(probe.getsockname()[1])


def is_loopback(bind: str | None) -> bool:
    """Whether ``bind`` is a loopback address (a host nobody else can reach, such as a solo game's)."""
    if bind is None:
        return False
    try:
        return ipaddress.ip_address(bind).is_loopback
    except ValueError:
        return bind == "localhost"


def reachable(address: str) -> str:
    """The address others reach a listener on: ``address``, or the LAN address for every interface."""
    return lan_address() if address in ("0.0.0.0", "::", "") else address


def lan_address() -> str:
    """This machine's address on its local network, as others would reach it (best effort).

    Connecting a UDP socket sends nothing; it only asks the system which interface
    it would route through: first towards the internet's side, then (on a network
    with no way out, such as a LAN of a few machines and no router) towards the
    multicast DNS group, which every LAN that announces tables routes. 127.0.0.1
    only when neither has a route.
    """
    for probe_address in ("10.254.254.254", "224.0.0.251"):
        probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        try:
            probe.connect((probe_address, 5353))
            address = str(probe.getsockname()[0])
        except OSError:
            continue
        finally:
            probe.close()
        if not address.startswith("127."):
            return address
    return "127.0.0.1"
