"""The asyncio client: join a host, read typed messages, send intents; reconnects by itself.

Usage (the interface and the networked computer players do exactly this)::

    client = await Client.connect("192.168.1.20", 7254, name="Ana", code="K7PX2M")
    client.seat, client.token            # my seat (None: spectator) and its secret token
    async for message in client:         # Welcome, Seats, Snapshot, Update, Chat, ...
        if isinstance(message, Update) and client.view.is_my_turn:
            await client.send_action(client.view.legal[0])
    await client.close()

`client.view` is the `View` as of the last message you took from the client
(it never runs ahead of the messages you have read). When the connection
drops, the client says `Reconnecting`, retries with growing pauses, resumes
its seat with its token, says `Reconnected`, and the host's `Snapshot` follows;
it says `Closed` (and iteration ends) when it gives up or is refused.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable
from typing import ClassVar

from capicu.core import Action, View, parse_action
from capicu.core.record import Record, replace

from .codec import CLOSED, NEED_DATA, Codec
from .protocol import (
    Act,
    Bye,
    Chat,
    ClientMessage,
    Error,
    ErrorCode,
    Hello,
    HostMessage,
    Ping,
    Pong,
    ProtocolError,
    Say,
    Seats,
    Snapshot,
    TurnTimer,
    Update,
    Welcome,
    advance_view,
)


class ClientError(Exception):
    """The client cannot do what was asked (not connected, closed, ...)."""


class JoinError(ClientError):
    """The host refused to let us in: ``code`` (an `ErrorCode` value) and its sentence."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class Reconnecting(Record):
    """The connection dropped; the client retries in ``delay`` seconds (attempt ``attempt``)."""

    type: ClassVar[str] = "reconnecting"
    attempt: int
    delay: float
    reason: str


class Reconnected(Record):
    """Back in the seat (a `Snapshot` follows)."""

    type: ClassVar[str] = "reconnected"
    seat: int | None


class Closed(Record):
    """The client is finished: it closed, was refused, or gave up reconnecting."""

    type: ClassVar[str] = "closed"
    reason: str


#: Everything `Client` yields.
Incoming = (
    Welcome | Seats | Snapshot | Update | Chat | TurnTimer | Error | Reconnecting | Reconnected | Closed
)

#: Messages a client handles itself and does not pass on.
_PRIVATE = (Ping, Pong)


class Client:
    """A connection to a host (see the module docstring); build one with `Client.connect`."""

    def __init__(
        self, host: str, port: int, *, name: str, code: str | None, spectate: bool, table: str,
        reconnect: bool, timeout: float, max_backoff: float, give_up_after: float,
        wire_tap: Callable[[bytes], None] | None,
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
        #: My seat (None for a spectator), my seat's token, and the latest view.
        self.seat: int | None = None
        self.token: str | None = None
        self.view: View | None = None
        #: The number of the last public event seen.
        self.seq = 0
        self.welcome: Welcome | None = None
        self.seats: Seats | None = None
        self.closed = False
        self._wire_tap = wire_tap
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
        spectate: bool = False,
        table: str = "main",
        reconnect: bool = True,
        timeout: float = 10.0,
        max_backoff: float = 5.0,
        give_up_after: float = 300.0,
        wire_tap: Callable[[bytes], None] | None = None,
    ) -> Client:
        """Connect, say hello and wait for the welcome.

        ``token`` resumes a seat held for us; without one, we take the first
        open seat, or watch when ``spectate`` or when every seat is taken.
        Raises `JoinError` when the host refuses, `OSError`/`TimeoutError`
        when it cannot be reached. ``wire_tap`` sees every byte received.
        """
        client = cls(
            host, port, name=name, code=code, spectate=spectate, table=table, reconnect=reconnect,
            timeout=timeout, max_backoff=max_backoff, give_up_after=give_up_after,
            wire_tap=wire_tap,
        )
        client.token = token
        await client._open()
        client._task = asyncio.get_running_loop().create_task(client._run())
        return client

    async def _open(self) -> None:
        """One connection and handshake; the welcome (and what came with it) is queued."""
        async with asyncio.timeout(self.timeout):
            reader, writer = await asyncio.open_connection(self.host, self.port)
            try:
                self._reader, self._writer, self._codec = reader, writer, Codec("client")
                hello = Hello(name=self.name, code=self.code, token=self.token,
                              spectate=self.spectate, table=self.table)
                writer.write(self._codec.send(hello))
                await writer.drain()
                while True:
                    message = await self._read_one()
                    if message is None:
                        raise ConnectionResetError("the host hung up during the handshake")
                    if isinstance(message, Error):
                        raise JoinError(message.code, message.message)
                    if isinstance(message, Welcome):
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
            self._heartbeat = message.heartbeat
        elif isinstance(message, _PRIVATE):
            return
        elif isinstance(message, Snapshot):
            self._latest, self._latest_seq = message.view, message.seq
        elif isinstance(message, Update):
            if self._latest is None or message.seq <= self._latest_seq:
                return  # before any snapshot, or already in the one we hold
            # The wire leaves out what follows from the view before: rebuild it
            # here, in arrival order, so that every update carries a whole view.
            self._latest, self._latest_seq = advance_view(self._latest, message), message.seq
            message = replace(message, view=self._latest, state=None)
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
            reason = await self._pump()
            if self.closed:
                return
            if reason is None:
                return
            if not await self._reconnect(reason):
                return

    async def _pump(self) -> str | None:
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
                        return "the host stopped answering"
                    self._write(Ping(quiet))
                    continue
                quiet = 0
                if message is None:
                    return "the host closed the connection"
                if isinstance(message, Ping):
                    self._write(Pong(message.n))
                self._take(message)
                if isinstance(message, Error) and message.fatal:
                    if message.code in (ErrorCode.SHUTTING_DOWN, ErrorCode.TIMEOUT) and self.token:
                        return message.message
                    self._finish(f"{message.code}: {message.message}")
                    return None
        except ProtocolError as exc:
            return f"the host sent something unreadable ({exc.message})"
        except (ConnectionError, OSError, ClientError) as exc:
            return f"the connection broke ({exc})"
        finally:
            if self._writer is not None:
                self._writer.close()

    async def _reconnect(self, reason: str) -> bool:
        """Retry with growing pauses; True once back in (the seat resumed with the token)."""
        can_resume = self.token is not None or self.spectate or self.seat is None
        if not self.reconnect or not can_resume:
            self._finish(reason)
            return False
        loop = asyncio.get_running_loop()
        started = loop.time()
        delay = 0.1
        attempt = 0
        while not self.closed:
            attempt += 1
            self._queue.put_nowait(Reconnecting(attempt, delay, reason))
            await asyncio.sleep(delay)
            try:
                await self._open()
            except JoinError as exc:
                # A spectator has no token: until the host sees that the old
                # connection is dead (its idle timeout), the name is still taken.
                if not (exc.code == ErrorCode.NAME_TAKEN and self.seat is None):
                    self._finish(f"{exc.code}: {exc.message}")
                    return False
                reason = exc.message
            except (OSError, TimeoutError, ProtocolError) as exc:
                reason = f"cannot reach the host ({exc})"
            else:
                self._queue.put_nowait(Reconnected(self.seat))
                return True
            if loop.time() - started > self.give_up_after:
                self._finish(f"gave up reconnecting: {reason}")
                return False
            delay = min(self.max_backoff, delay * 2)
        return False

    def _finish(self, reason: str) -> None:
        if not self.closed:
            self.closed = True
        self._queue.put_nowait(Closed(reason))

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

    async def close(self) -> None:
        """Say goodbye and stop (no reconnecting); `Closed` is queued."""
        if self.closed:
            return
        self.closed = True
        with contextlib.suppress(ClientError, ConnectionError):
            self._write(Bye())
        if self._writer is not None:
            self._writer.close()
            with contextlib.suppress(ConnectionError, OSError):
                await self._writer.wait_closed()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        self._queue.put_nowait(Closed("closed by this client"))
