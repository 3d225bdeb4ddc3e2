"""The asyncio client: join a host, read typed messages, send intents; reconnects by itself.

Usage (the interface and the networked computer players do exactly this)::

    client = await Client.connect("192.168.1.20", 7254, name="Ana", code="K7PX2M")
    client.seat, client.token            # my seat (None: spectator) and its secret token
    client.seat_key, client.match_id     # the seat's key to type elsewhere; the match's id
    async for message in client:         # Welcome, Seats, Snapshot, Update, NextRound, Chat, ...
        if isinstance(message, Update) and client.view.is_my_turn:
            await client.send_action(client.view.legal[0])
        elif isinstance(message, NextRound):
            await client.ready()         # the round's end is read: deal the next one
    await client.close()                 # leave on purpose: the computer plays the seat
                                         # (client.drop(): hang up as if the network went, the seat held)

The client keeps one model of the table (`client.model`, a `TableModel`:
who we are, the seats, the view, the clocks, chat, the link) and applies each
message to it as you take it: `client.view` is the view as of the last
message you took (it never runs ahead of the messages you have read), and
`Client.changes` yields each `Change` for an interface that follows the model.

When the connection drops, the client says `Reconnecting` (at once, then once per attempt, with
``host_down`` when the host cannot be reached at all), retries with growing
pauses, resumes its seat with its token, says `Reconnected`, and the host's
`Snapshot` follows; it says `Closed` (and iteration ends) when it gives up
(after ``give_up_after`` seconds) or is refused. Both say why with a `LinkEnd`
code and its params, which the interface words (the client writes no sentence
for a person). Whether to come back is decided here alone: a host that hangs up
saying it shuts down (a restart, with ``--resume``) or that we were too slow
leaves the seat ours, and the client tries to take it back (its reader hears
`Reconnecting`, not that error); any other refusal ends it (`Closed`).

A hello by name for a seat whose person is away may have to wait for the
host's operator: the host says `Waiting`, which `Client.connect` hands to its
``on_waiting`` callback, and the handshake then waits up to the time the host
gives (plus `APPROVAL_MARGIN`) instead of ``timeout``.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import msgspec
from capicu.core import Action, parse_action
from capicu.net.store.keeping import KeptBy
from capicu.net.store.record import RecordError

from .codec import CLOSED, NEED_DATA, Codec
from .model import (
    Change,
    Closed,
    Incoming,
    LinkEnd,
    LinkParams,
    Reconnected,
    Reconnecting,
    TableModel,
    Taken,
    Update,
)
from .protocol import (
    PROTOCOL_VERSION,
    Act,
    Bye,
    ClientMessage,
    ClubClose,
    ClubStart,
    Error,
    ErrorCode,
    GameView,
    Hello,
    HostBye,
    HostMessage,
    MatchRecorded,
    Ping,
    Pong,
    ProtocolError,
    Ready,
    Say,
    Waiting,
    Welcome,
)

#: Seconds a reconnect attempt waits for the host to accept the connection: on a
#: LAN an answer takes milliseconds, so a longer wait only delays saying it is down.
RETRY_CONNECT_TIMEOUT = 2.0
#: Seconds the handshake waits beyond the time the host gives its operator to answer.
APPROVAL_MARGIN = 10.0


class ClientError(Exception):
    """The client cannot do what was asked (not connected, closed, ...)."""


class JoinError(ClientError):
    """The host refused to let us in: ``code`` (an `ErrorCode` value) and its sentence."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class _Lost(msgspec.Struct, frozen=True):
    """Why a connection ended, and whether the host is known to be down."""

    reason: LinkEnd
    params: LinkParams = msgspec.field(default_factory=dict)
    host_down: bool = False


def _unreachable(exc: BaseException) -> LinkParams:
    """The system's words for why the host could not be reached ("" for no answer in time)."""
    if isinstance(exc, TimeoutError):
        return {"problem": ""}
    if isinstance(exc, OSError) and exc.strerror:
        return {"problem": exc.strerror.lower()}
    return {"problem": str(exc)}


def _refused(code: str) -> LinkParams:
    return {"code": code}

#: Opens a connection to the host in some other way than TCP to ``host:port`` (see `Client.connect`).
Dial = Callable[[], Awaitable[tuple[asyncio.StreamReader, asyncio.StreamWriter]]]


class Client:
    """A connection to a host (see the module docstring); build one with `Client.connect`."""

    def __init__(
        self, host: str, port: int, *, name: str, code: str | None, spectate: bool, table: str,
        reconnect: bool, timeout: float, max_backoff: float, give_up_after: float,
        wire_tap: Callable[[bytes], None] | None, on_waiting: Callable[[Waiting], None] | None,
        dial: Dial | None = None, model: TableModel | None = None, records: Path | None = None,
    ) -> None:
        self.host = host
        self.port = port
        #: The name our hello gives (the host's cleaned form is ``model.name`` once welcomed).
        self.name = name
        self.code = code
        self.spectate = spectate
        self.table = table
        self.reconnect = reconnect
        self.timeout = timeout
        self.max_backoff = max_backoff
        self.give_up_after = give_up_after
        #: The one model of the table: every message is applied to it as the reader takes it.
        self.model = model if model is not None else TableModel(name)
        #: The folder the finished match's record is kept in (None: it is not kept).
        self.records = records
        self.closed = False
        self._wire_tap = wire_tap
        self._on_waiting = on_waiting
        self._dial = dial
        #: What the host sent, in order, for the reader to take (the welcome already applied).
        self._queue: asyncio.Queue[Taken | Change] = asyncio.Queue()
        self._reader: asyncio.StreamReader | None = None
        self._writer: asyncio.StreamWriter | None = None
        self._codec = Codec("client")
        self._task: asyncio.Task[None] | None = None
        self._refs = 0
        self._heartbeat = 15.0

    # -- the model, read -------------------------------------------------------------

    @property
    def seat(self) -> int | None:
        """My seat (None: spectator)."""
        return self.model.seat

    @property
    def token(self) -> str | None:
        """My seat's secret token (for this machine to keep)."""
        return self.model.token

    @property
    def seat_key(self) -> str | None:
        """My seat's key (for a person to type on another machine)."""
        return self.model.seat_key

    @property
    def match_id(self) -> str | None:
        """The id of the table's match (from the welcome): saved tokens are keyed by it."""
        return self.model.match_id

    @property
    def welcome(self) -> Welcome | None:
        return self.model.welcome

    @property
    def view(self) -> GameView | None:
        """The view as of the last message taken (a view of the table's game)."""
        return self.model.view

    @property
    def seq(self) -> int:
        """The number of the last public event taken."""
        return self.model.seq

    # -- connecting ------------------------------------------------------------

    @classmethod
    async def connect(
        cls,
        host: str,
        port: int,
        *,
        name: str,
        code: str | None = None,
        token: str | None = None,
        seat_key: str | None = None,
        spectate: bool = False,
        table: str = "main",
        reconnect: bool = True,
        timeout: float = 10.0,
        max_backoff: float = 5.0,
        give_up_after: float = 300.0,
        wire_tap: Callable[[bytes], None] | None = None,
        on_waiting: Callable[[Waiting], None] | None = None,
        dial: Dial | None = None,
        model: TableModel | None = None,
        records: Path | None = None,
    ) -> Client:
        """Connect, say hello and wait for the welcome.

        ``token`` (saved by this machine) or ``seat_key`` (typed by a person)
        resumes a seat held for us; without one, we take the first open seat,
        or watch when ``spectate`` or when every seat is taken, or ask for the
        seat of an away person of our name. When the host must ask its
        operator, it says so: ``on_waiting`` gets the `Waiting` message, and
        the handshake waits up to its ``seconds`` plus `APPROVAL_MARGIN`.
        Raises `JoinError` when the host refuses, `OSError`/`TimeoutError`
        when it cannot be reached. ``wire_tap`` sees every byte received.
        Reconnecting goes on for ``give_up_after`` seconds at most. ``dial``
        opens each connection instead of TCP to ``host:port`` (a gateway in
        the host's process: `Host.connect_local`). ``model``: the model to keep
        (an interface that holds it before the connection is up), else a new one.
        ``records``: the folder to keep the finished match's record in (the player's data
        folder's ``records/``), once the host sends it and the model finds it good.
        """
        client = cls(
            host, port, name=name, code=code, spectate=spectate, table=table, reconnect=reconnect,
            timeout=timeout, max_backoff=max_backoff, give_up_after=give_up_after,
            wire_tap=wire_tap, on_waiting=on_waiting, dial=dial, model=model, records=records,
        )
        client.model.token = token
        client.model.seat_key = seat_key
        # Taking back a seat held for us (the operator's yes counts too: see `_open`).
        client.model.resumed = token is not None or seat_key is not None
        await client._open(connect_timeout=timeout)
        client._task = asyncio.get_running_loop().create_task(client._run())
        return client

    async def _open(self, *, connect_timeout: float) -> None:
        """One connection and handshake; the welcome (and what came with it) is queued."""
        loop = asyncio.get_running_loop()
        async with asyncio.timeout(self.timeout) as limit:
            opening = self._dial() if self._dial else asyncio.open_connection(self.host, self.port)
            reader, writer = await asyncio.wait_for(opening, connect_timeout)
            try:
                self._reader, self._writer, self._codec = reader, writer, Codec("client")
                # The token is this machine's own secret; the key is for another machine.
                token = self.model.token
                hello = Hello(version=PROTOCOL_VERSION, name=self.name, code=self.code, token=token,
                              seat_key=None if token else self.model.seat_key,
                              spectate=self.spectate, table=self.table)
                writer.write(self._codec.send(hello))
                await writer.drain()
                while True:
                    message = await self._read_one()
                    if message is None:
                        raise ConnectionResetError("the host hung up during the handshake")
                    if isinstance(message, Error):
                        raise JoinError(message.code, message.message)
                    if isinstance(message, Ping):
                        # A host waiting for its operator keeps the connection alive.
                        writer.write(self._codec.send(Pong(message.n)))
                    elif isinstance(message, Waiting):
                        limit.reschedule(loop.time() + message.seconds + APPROVAL_MARGIN)
                        self.model.resumed = True  # if the host says yes, it is our old seat we get
                        if self._on_waiting is not None:
                            self._on_waiting(message)
                    elif isinstance(message, Welcome):
                        # Applied at once, not when the reader takes it: reconnecting needs the
                        # seat and its secrets even when nobody reads.
                        self._heartbeat = message.heartbeat
                        change = self.model.apply(message, time.monotonic())
                        assert change is not None
                        self._queue.put_nowait(change)
                        return
            except BaseException:
                writer.close()
                raise

    async def _read_one(self) -> HostMessage | None:
        """The next message from the host (None at the end of the stream)."""
        assert self._reader is not None
        while True:
            message = self._codec.next_message()
            if message is CLOSED:
                return None
            if message is not NEED_DATA:
                return message  # type: ignore[return-value]
            data = await self._reader.read(65536)
            if self._wire_tap is not None and data:
                self._wire_tap(data)
            self._codec.receive_data(data)

    # -- reading -----------------------------------------------------------------

    def _take(self, message: HostMessage) -> None:
        """Queue what the host said for the reader (the client answers its own pings)."""
        if not isinstance(message, Ping | Pong | Waiting | Welcome):
            self._queue.put_nowait(message)

    async def _run(self) -> None:
        """Read until the connection ends; then reconnect, or finish."""
        while True:
            lost = await self._pump()
            if self.closed:
                return
            if lost is None:
                return
            if not await self._reconnect(lost):
                return

    async def _pump(self) -> _Lost | None:
        """Read one connection dry; why it ended, or None when the host refused us for good."""
        quiet = 0
        try:
            while True:
                try:
                    async with asyncio.timeout(self._heartbeat):
                        message = await self._read_one()
                except TimeoutError:
                    # A quiet host is asked; three heartbeats without a word: it is gone.
                    quiet += 1
                    if quiet >= 3:
                        return _Lost(LinkEnd.HOST_SILENT)
                    self._write(Ping(quiet))
                    continue
                quiet = 0
                if message is None:
                    return _Lost(LinkEnd.HOST_CLOSED)
                if isinstance(message, Ping):
                    self._write(Pong(message.n))
                if isinstance(message, HostBye):
                    # The game ends on purpose: nothing to come back to now (the seat's secrets
                    # stay in the model; the interface keeps them only if the bye says resumable).
                    self._take(message)
                    self._finish(LinkEnd.HOST_BYE, {"reason": message.reason, "name": message.name or "",
                                                    "resumable": int(message.resumable)})
                    return None
                if isinstance(message, Error) and message.fatal:
                    if message.code in (ErrorCode.SHUTTING_DOWN, ErrorCode.TIMEOUT) and self.token:
                        # The host is restarting, or found us too slow: the seat is ours to take
                        # back. Decided here alone; the reader hears `Reconnecting`, not the error.
                        return _Lost(LinkEnd.REFUSED, _refused(message.code),
                                     message.code == ErrorCode.SHUTTING_DOWN)
                    self._take(message)
                    self._finish(LinkEnd.REFUSED, _refused(message.code))
                    return None
                self._take(message)
        except ProtocolError as exc:
            return _Lost(LinkEnd.UNREADABLE, {"problem": exc.message})
        except (ConnectionError, OSError, ClientError) as exc:
            return _Lost(LinkEnd.BROKEN, {"problem": str(exc)})
        finally:
            if self._writer is not None:
                self._writer.close()

    async def _reconnect(self, lost: _Lost) -> bool:
        """Retry with growing pauses; True once back in (the seat resumed with the token)."""
        can_resume = self.model.token is not None or self.spectate or self.model.seat is None
        if not self.reconnect or not can_resume:
            self._finish(lost.reason, lost.params)
            return False
        loop = asyncio.get_running_loop()
        started = loop.time()
        delay = 0.1
        attempt = 0
        reason, params, host_down = lost.reason, lost.params, lost.host_down
        while not self.closed:
            attempt += 1
            self._queue.put_nowait(Reconnecting(attempt, delay, reason, params, host_down))
            await asyncio.sleep(delay)
            try:
                await self._open(connect_timeout=min(self.timeout, RETRY_CONNECT_TIMEOUT))
            except JoinError as exc:
                reason, params = LinkEnd.REFUSED, _refused(exc.code)
                if exc.code == ErrorCode.SHUTTING_DOWN:
                    host_down = True  # a restarted host may come back
                elif exc.code == ErrorCode.NAME_TAKEN and self.seat is None:
                    # A spectator has no token: until the host sees that the old
                    # connection is dead (its idle timeout), the name is still taken.
                    host_down = False
                else:
                    self._finish(reason, params)
                    return False
            except (OSError, TimeoutError) as exc:
                reason, params, host_down = LinkEnd.UNREACHABLE, _unreachable(exc), True
            except ProtocolError as exc:
                reason, params, host_down = LinkEnd.UNREADABLE, {"problem": exc.message}, False
            else:
                self._queue.put_nowait(Reconnected(self.seat))
                return True
            elapsed = loop.time() - started
            if elapsed >= self.give_up_after:
                self._finish(LinkEnd.GAVE_UP, {"seconds": round(elapsed), "last": reason.value,
                                               "problem": str(params.get("problem", "")),
                                               "code": str(params.get("code", ""))})
                return False
            # The last pause ends when the time runs out, so the last try is made then.
            delay = min(self.max_backoff, delay * 2, self.give_up_after - elapsed)
        return False

    def _finish(self, reason: LinkEnd, params: LinkParams | None = None) -> None:
        if not self.closed:
            self.closed = True
        self._queue.put_nowait(Closed(reason, params or {}))

    async def next_change(self, timeout: float | None = None) -> Change:
        """Apply the next message to the model; what it changed. TimeoutError after ``timeout`` seconds.

        An update the model's view already holds (one from before a reconnect's
        snapshot) is skipped. The change of a `Closed` is the last one.
        """
        async with asyncio.timeout(timeout):
            while True:
                taken = await self._queue.get()
                change = taken if isinstance(taken, Change) else self.model.apply(taken, time.monotonic())
                if change is None:
                    continue
                if isinstance(change.message, MatchRecorded):
                    await self._keep_record()
                return change

    async def _keep_record(self) -> None:
        """Keep the record the model just took (if it found it good) in `records`, off the event loop."""
        model, folder = self.model, self.records
        record = model.record
        if record is None or folder is None:
            return
        # Loaded when a match ends: the records' folder and the history are not needed before.
        from capicu.net.store.archive import keep_finished_match

        try:
            kept = await asyncio.to_thread(keep_finished_match, record, folder, kept_by=KeptBy.PLAYER,
                                           me=model.seat)
        except RecordError as exc:
            model.record_problem = str(exc)
        else:
            model.record_file, model.history_problem = kept.path, kept.history_problem

    async def receive(self, timeout: float | None = None) -> Incoming:
        """The next message (applied to the model); `Closed` is the last one."""
        return (await self.next_change(timeout)).message

    async def changes(self) -> AsyncIterator[Change]:
        """Every change, in order, until the one of `Closed` (included)."""
        while True:
            change = await self.next_change()
            yield change
            if isinstance(change.message, Closed):
                return

    def __aiter__(self) -> AsyncIterator[Incoming]:
        return self._iterate()

    async def _iterate(self) -> AsyncIterator[Incoming]:
        async for change in self.changes():
            yield change.message

    # -- sending -----------------------------------------------------------------

    def _write(self, message: ClientMessage) -> None:
        if self._writer is None or self._writer.is_closing():
            raise ClientError("not connected to the host right now (reconnecting)")
        self._writer.write(self._codec.send(message))

    async def _send(self, message: ClientMessage) -> None:
        if self.closed:
            raise ClientError("the client is closed")
        self._write(message)
        assert self._writer is not None
        with contextlib.suppress(ConnectionError):
            await self._writer.drain()

    async def send_action(self, action: Action | str) -> int:
        """Ask the host to take ``action`` for my seat; the ``ref`` its answer will carry.

        The answer is an `Update` with that ``ref`` or an `Error` with it.
        """
        if isinstance(action, str):
            action = parse_action(action)
        self._refs += 1
        await self._send(Act(action, self._refs))
        return self._refs

    async def chat(self, text: str) -> None:
        """Say ``text`` to the table (the host cleans and shortens it)."""
        await self._send(Say(text))

    async def ready(self) -> None:
        """Tell the host I have read the round's end (see `NextRound`); harmless at other times."""
        await self._send(Ready())

    async def start_round(self, key: str) -> None:
        """As the club night's organiser (``key``: the organiser's key), draw its next round.

        On a club's connection only; the host answers with the round's `ClubDrawn`, or an `Error`.
        """
        await self._send(ClubStart(key))

    async def close_table(self, key: str, table: str) -> None:
        """As the club night's organiser, close the late table ``table``: its score as it stands counts."""
        await self._send(ClubClose(key, table))

    async def close(self) -> None:
        """Leave on purpose and stop (no reconnecting); `Closed` is queued.

        The host keeps the seat ours (the token and key still work) and the
        computer plays it meanwhile; before the match starts, the seat is freed.
        """
        if self.closed:
            return
        with contextlib.suppress(ClientError, ConnectionError):
            self._write(Bye())
        await self._hang_up(LinkEnd.CLOSED_HERE)

    async def drop(self) -> None:
        """Hang up without a goodbye and stop (no reconnecting); `Closed` is queued.

        For a client that lost its person rather than being left (a gateway whose
        player's connection went): the host sees a lost connection and holds the
        seat for its grace period, as for any dropped client, and the token and
        key take it back later.
        """
        if self.closed:
            return
        await self._hang_up(LinkEnd.DROPPED_HERE)

    async def _hang_up(self, reason: LinkEnd) -> None:
        self.closed = True
        if self._writer is not None:
            self._writer.close()
            with contextlib.suppress(ConnectionError, OSError):
                await self._writer.wait_closed()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        self._queue.put_nowait(Closed(reason))


__all__ = [
    "APPROVAL_MARGIN",
    "Change",
    "Client",
    "ClientError",
    "Closed",
    "Dial",
    "Incoming",
    "JoinError",
    "LinkEnd",
    "LinkParams",
    "Reconnected",
    "Reconnecting",
    "TableModel",
    "Update",
]
