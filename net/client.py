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

`client.view` is the `View` as of the last message you took from the client
(it never runs ahead of the messages you have read). When the connection
drops, the client says `Reconnecting` (at once, then once per attempt, with
``host_down`` when the host cannot be reached at all), retries with growing
pauses, resumes its seat with its token, says `Reconnected`, and the host's
`Snapshot` follows; it says `Closed` (and iteration ends) when it gives up
(after ``give_up_after`` seconds) or is refused. Both say why with a `LinkEnd`
code and its params, which the interface words (the client writes no sentence
for a person).

A hello by name for a seat whose person is away may have to wait for the
host's operator: the host says `Waiting`, which `Client.connect` hands to its
``on_waiting`` callback, and the handshake then waits up to the time the host
gives (plus `APPROVAL_MARGIN`) instead of ``timeout``.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import ClassVar

from capicu.core import Action, Event, View, parse_action

from .codec import CLOSED, NEED_DATA, Codec
from .protocol import (
    PROTOCOL_VERSION,
    Act,
    ActedBy,
    Bye,
    Chat,
    ClientMessage,
    Error,
    ErrorCode,
    Hello,
    HostMessage,
    NextRound,
    Ping,
    Pong,
    ProtocolError,
    Ready,
    Say,
    Seats,
    Snapshot,
    StateUpdate,
    TurnTimer,
    Waiting,
    Welcome,
    advance_view,
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


@dataclass(frozen=True, slots=True)
class Update:
    """Public events, numbered, and the whole view after them (a `StateUpdate` as the client yields it).

    The wire's update carries only the view's changing fields; the client makes
    the whole view from the one before, in arrival order (`advance_view`).
    """

    type: ClassVar[str] = "update"
    #: The number of the last event in ``events``.
    seq: int
    events: tuple[Event, ...]
    view: View
    #: The seat whose action caused the events (None for the deal after a break).
    actor: int | None
    by: ActedBy
    #: The ``ref`` of your intent, when this update answers it.
    ref: int | None


class LinkEnd(StrEnum):
    """Why a connection to the host ended (`Reconnecting`) or the client stopped (`Closed`).

    Each comes with the params named here; the interface puts them into words.
    """

    #: Three heartbeats without a word from the host.
    HOST_SILENT = "host_silent"
    HOST_CLOSED = "host_closed"
    #: ``problem``: what the codec could not read (English, for programmers).
    UNREADABLE = "unreadable"
    #: ``problem``: the system's words for the broken connection.
    BROKEN = "broken"
    #: ``problem``: the system's words ("connection refused"); "" when nothing answered in time.
    UNREACHABLE = "unreachable"
    #: ``code``: the host's `ErrorCode` (it refused us, or hangs up: shutting down, too slow).
    REFUSED = "refused"
    #: ``seconds`` spent trying, ``last``: the `LinkEnd` of the last try, and that one's params.
    GAVE_UP = "gave_up"
    #: This client closed (`Client.close`) or dropped (`Client.drop`) the connection.
    CLOSED_HERE = "closed_here"
    DROPPED_HERE = "dropped_here"


#: The params of a `LinkEnd`: texts and numbers.
LinkParams = dict[str, str | int | float]


@dataclass(frozen=True, slots=True)
class Reconnecting:
    """The connection dropped; the client retries in ``delay`` seconds (attempt ``attempt``).

    The first comes at once (attempt 1), then one after each failed attempt;
    ``reason`` is why the last one failed (the drop itself, for the first).
    """

    type: ClassVar[str] = "reconnecting"
    attempt: int
    delay: float
    reason: LinkEnd
    params: LinkParams = field(default_factory=dict)
    #: The last attempt could not reach the host at all (refused, unreachable,
    #: timed out), or the host said it was shutting down: say the host is gone.
    host_down: bool = False


@dataclass(frozen=True, slots=True)
class Reconnected:
    """Back in the seat (a `Snapshot` follows)."""

    type: ClassVar[str] = "reconnected"
    seat: int | None


@dataclass(frozen=True, slots=True)
class Closed:
    """The client is finished: it closed, was refused, or gave up reconnecting."""

    type: ClassVar[str] = "closed"
    reason: LinkEnd
    params: LinkParams = field(default_factory=dict)


#: Everything `Client` yields.
Incoming = (
    Welcome | Seats | Snapshot | Update | Chat | TurnTimer | NextRound | Error
    | Reconnecting | Reconnected | Closed
)


@dataclass(frozen=True, slots=True)
class _Lost:
    """Why a connection ended, and whether the host is known to be down."""

    reason: LinkEnd
    params: LinkParams = field(default_factory=dict)
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

#: Messages a client handles itself and does not pass on (a `Waiting` goes to ``on_waiting``).
_PRIVATE = (Ping, Pong, Waiting)


class Client:
    """A connection to a host (see the module docstring); build one with `Client.connect`."""

    def __init__(
        self, host: str, port: int, *, name: str, code: str | None, spectate: bool, table: str,
        reconnect: bool, timeout: float, max_backoff: float, give_up_after: float,
        wire_tap: Callable[[bytes], None] | None, on_waiting: Callable[[Waiting], None] | None,
        dial: Dial | None = None,
    ) -> None:
        self.host = host
        self.port = port
        self.name = name
        self.code = code
        self.spectate = spectate
        self.table = table
        self.reconnect = reconnect
        self.timeout = timeout
        self.max_backoff = max_backoff
        self.give_up_after = give_up_after
        #: My seat (None for a spectator), my seat's token and key, and the latest view.
        self.seat: int | None = None
        self.token: str | None = None
        self.seat_key: str | None = None
        #: The id of the table's match (from the welcome): saved tokens are keyed by it.
        self.match_id: str | None = None
        self.view: View | None = None
        #: The number of the last public event seen.
        self.seq = 0
        self.welcome: Welcome | None = None
        self.seats: Seats | None = None
        self.closed = False
        self._wire_tap = wire_tap
        self._on_waiting = on_waiting
        self._dial = dial
        self._queue: asyncio.Queue[Incoming] = asyncio.Queue()
        self._reader: asyncio.StreamReader | None = None
        self._writer: asyncio.StreamWriter | None = None
        self._codec = Codec("client")
        self._task: asyncio.Task[None] | None = None
        self._refs = 0
        self._heartbeat = 15.0
        #: The view as of the last message read from the host (ahead of `view`).
        self._latest: View | None = None
        self._latest_seq = 0

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
        the host's process: `Host.connect_local`).
        """
        client = cls(
            host, port, name=name, code=code, spectate=spectate, table=table, reconnect=reconnect,
            timeout=timeout, max_backoff=max_backoff, give_up_after=give_up_after,
            wire_tap=wire_tap, on_waiting=on_waiting, dial=dial,
        )
        client.token = token
        client.seat_key = seat_key
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
                hello = Hello(version=PROTOCOL_VERSION, name=self.name, code=self.code, token=self.token,
                              seat_key=None if self.token else self.seat_key,
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
                        if self._on_waiting is not None:
                            self._on_waiting(message)
                    elif isinstance(message, Welcome):
                        self._take(message)
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
        """Note what reconnecting needs at once; queue the rest for the reader."""
        if isinstance(message, Welcome):
            self.welcome = message
            self.seat = message.seat
            if message.token is not None:
                self.token = message.token
            if message.seat_key is not None:
                self.seat_key = message.seat_key
            self.match_id = message.match
            self._heartbeat = message.heartbeat
        elif isinstance(message, _PRIVATE):
            return
        elif isinstance(message, Snapshot):
            self._latest, self._latest_seq = message.view, message.seq
        elif isinstance(message, StateUpdate):
            if self._latest is None or message.seq <= self._latest_seq:
                return  # before any snapshot, or already in the one we hold
            # The wire leaves out what follows from the view before: rebuild it
            # here, in arrival order, so that every update carries a whole view.
            self._latest, self._latest_seq = advance_view(self._latest, message), message.seq
            self._queue.put_nowait(Update(message.seq, message.events, self._latest, message.actor,
                                          message.by, message.ref))
            return
        self._queue.put_nowait(message)

    def _consume(self, message: Incoming) -> bool:
        """Bring `view`, `seq` and `seats` up to ``message``; False for an update already seen.

        This happens as the reader takes each message, so that `view` is always
        the view as of the last message the reader has seen, never ahead of it.
        """
        if isinstance(message, Seats):
            self.seats = message
        elif isinstance(message, Snapshot):
            self.view, self.seq = message.view, message.seq
        elif isinstance(message, Update):
            if message.seq <= self.seq:
                return False  # already in a snapshot taken since (after a reconnect)
            self.view, self.seq = message.view, message.seq
        return True

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
                self._take(message)
                if isinstance(message, Error) and message.fatal:
                    if message.code in (ErrorCode.SHUTTING_DOWN, ErrorCode.TIMEOUT) and self.token:
                        return _Lost(LinkEnd.REFUSED, _refused(message.code),
                                     message.code == ErrorCode.SHUTTING_DOWN)
                    self._finish(LinkEnd.REFUSED, _refused(message.code))
                    return None
        except ProtocolError as exc:
            return _Lost(LinkEnd.UNREADABLE, {"problem": exc.message})
        except (ConnectionError, OSError, ClientError) as exc:
            return _Lost(LinkEnd.BROKEN, {"problem": str(exc)})
        finally:
            if self._writer is not None:
                self._writer.close()

    async def _reconnect(self, lost: _Lost) -> bool:
        """Retry with growing pauses; True once back in (the seat resumed with the token)."""
        can_resume = self.token is not None or self.spectate or self.seat is None
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
                self._finish(LinkEnd.GAVE_UP, {"seconds": round(elapsed), "last": reason.value, **params})
                return False
            # The last pause ends when the time runs out, so the last try is made then.
            delay = min(self.max_backoff, delay * 2, self.give_up_after - elapsed)
        return False

    def _finish(self, reason: LinkEnd, params: LinkParams | None = None) -> None:
        if not self.closed:
            self.closed = True
        self._queue.put_nowait(Closed(reason, params or {}))

    async def receive(self, timeout: float | None = None) -> Incoming:
        """The next message; `Closed` is the last one. TimeoutError after ``timeout`` seconds."""
        async with asyncio.timeout(timeout):
            while True:
                message = await self._queue.get()
                if self._consume(message):
                    return message

    def __aiter__(self) -> AsyncIterator[Incoming]:
        return self._iterate()

    async def _iterate(self) -> AsyncIterator[Incoming]:
        while True:
            message = await self.receive()
            yield message
            if isinstance(message, Closed):
                return

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
