"""The network worker: the one place the interface touches the network.

The App owns a `GameLink`; its `run` coroutine runs as a Textual worker. It
starts an in-process host when this terminal hosts (a solo game is a host on
127.0.0.1 with computer seats: the same code path as a LAN game), connects
the client, and turns what the client yields into the Textual messages below,
which it posts to the App. Screens only ever read those messages; they send
intents through the App, which calls `send_action` / `chat` here.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from capicu.core import Action, Event, View
from textual.message import Message

if TYPE_CHECKING:
    from textual.app import App


# -- what the worker tells the App -------------------------------------------------


@dataclass(frozen=True, slots=True)
class SeatState:
    """One seat as the table shows it (the protocol's SeatInfo, without the wire)."""

    seat: int
    kind: str
    name: str | None
    connected: bool
    covered: bool


class LinkMessage(Message):
    """Base of every message the network worker posts."""


class HostReady(LinkMessage):
    """This terminal hosts: where others join, and with which code."""

    def __init__(self, address: str, port: int, code: str | None) -> None:
        super().__init__()
        self.address = address
        self.port = port
        self.code = code


class Joined(LinkMessage):
    """We have a seat (None: watching)."""

    def __init__(self, seat: int | None, players: int, name: str) -> None:
        super().__init__()
        self.seat = seat
        self.players = players
        self.name = name


class SeatsChanged(LinkMessage):
    def __init__(self, seats: tuple[SeatState, ...], spectators: int, started: bool) -> None:
        super().__init__()
        self.seats = seats
        self.spectators = spectators
        self.started = started


class TableChanged(LinkMessage):
    """A new view, the public events that led to it, and who caused them."""

    def __init__(
        self, view: View, events: tuple[Event, ...], actor: int | None, by: str, snapshot: bool
    ) -> None:
        super().__init__()
        self.view = view
        self.events = events
        self.actor = actor
        self.by = by
        self.snapshot = snapshot


class ChatArrived(LinkMessage):
    def __init__(self, name: str, seat: int | None, text: str) -> None:
        super().__init__()
        self.name = name
        self.seat = seat
        self.text = text


class TimerStarted(LinkMessage):
    def __init__(self, seat: int, seconds: float) -> None:
        super().__init__()
        self.seat = seat
        self.seconds = seconds


class Refused(LinkMessage):
    """The host refused an intent (or, when ``fatal``, us): its reason, in its words."""

    def __init__(self, code: str, text: str, fatal: bool) -> None:
        super().__init__()
        self.code = code
        self.text = text
        self.fatal = fatal


class LinkLost(LinkMessage):
    """The link dropped; the client is trying to get the seat back."""

    def __init__(self, reason: str) -> None:
        super().__init__()
        self.reason = reason


class LinkResumed(LinkMessage):
    """The seat is ours again after a drop."""


class LinkFailed(LinkMessage):
    """The link is gone for good (or never came up): one sentence why."""

    def __init__(self, reason: str) -> None:
        super().__init__()
        self.reason = reason


# -- what the worker is asked to do -------------------------------------------------


@dataclass(frozen=True, slots=True)
class Connection:
    """Where to connect and as whom."""

    host: str
    port: int
    name: str
    code: str | None = None
    spectate: bool = False


def lan_address() -> str:
    """This machine's address on the LAN, as others would type it (127.0.0.1 if none)."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        # Connecting a UDP socket sends nothing; it only picks the outgoing interface.
        probe.connect(("192.0.2.1", 9))
        address: str = probe.getsockname()[0]
    except OSError:
        address = "127.0.0.1"
    finally:
        probe.close()
    return address


class GameLink:
    """The client (and, when we host, the host) behind the App, run as one worker."""

    def __init__(self, app: App[Any], connection: Connection, host_config: Any | None = None) -> None:
        self._app = app
        self.connection = connection
        self.host_config = host_config
        self.host: Any | None = None
        self.client: Any | None = None
        self._closed = False

    # -- the worker body ---------------------------------------------------------

    async def run(self) -> None:
        """Host if asked, connect, and relay until the link closes."""
        post = self._app.post_message
        connection = self.connection
        try:
            if self.host_config is not None:
                connection = await self._start_host()
            client = await self._connect(connection)
        except Exception as exc:  # every failure to start is reported, never raised
            post(LinkFailed(_reason(exc)))
            await self._stop_host()
            return
        self.client = client
        post(Joined(client.seat, _players(client), connection.name))
        try:
            async for message in client:
                translated = translate(message)
                if translated is not None:
                    post(translated)
        except Exception as exc:
            if not self._closed:
                post(LinkFailed(_reason(exc)))
            return
        if not self._closed:
            post(LinkFailed(""))

    async def _start_host(self) -> Connection:
        from capicu.net.host import Host

        self.host = Host(self.host_config)
        address, port = await self.host.start()
        bind = str(address)
        shown = lan_address() if bind in ("0.0.0.0", "::", "") else bind
        self._app.post_message(HostReady(shown, port, getattr(self.host_config, "code", None)))
        local = "127.0.0.1" if bind in ("0.0.0.0", "") else ("::1" if bind == "::" else bind)
        return Connection(local, port, self.connection.name,
                          getattr(self.host_config, "code", None), False)

    async def _connect(self, connection: Connection) -> Any:
        from capicu.net.client import Client

        return await Client.connect(
            connection.host, connection.port, name=connection.name,
            code=connection.code, spectate=connection.spectate,
        )

    async def _stop_host(self) -> None:
        if self.host is not None:
            host, self.host = self.host, None
            with contextlib.suppress(Exception):
                await host.stop()

    # -- intents ---------------------------------------------------------------------

    async def send_action(self, action: Action) -> None:
        if self.client is not None:
            await self.client.send_action(action)

    async def chat(self, text: str) -> None:
        if self.client is not None:
            await self.client.chat(text)

    async def close(self) -> None:
        """Leave the table and stop the host we run, if any."""
        self._closed = True
        client, self.client = self.client, None
        if client is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(client.close(), 2)
        await self._stop_host()


def _players(client: Any) -> int:
    view = getattr(client, "view", None)
    if view is not None:
        return int(view.players)
    return int(getattr(client, "players", 0) or 0)


def _reason(exc: BaseException) -> str:
    message = getattr(exc, "message", None) or str(exc) or type(exc).__name__
    return str(message)


def translate(message: Any) -> LinkMessage | None:
    """The Textual message for one thing the client yielded (None: nothing to show)."""
    from capicu.net import protocol as p

    if isinstance(message, p.Snapshot):
        return TableChanged(message.view, (), None, "person", snapshot=True)
    if isinstance(message, p.Update):
        return TableChanged(message.view, message.events, message.actor, message.by, snapshot=False)
    if isinstance(message, p.Seats):
        seats = tuple(SeatState(s.seat, s.kind, s.name, s.connected, s.covered) for s in message.seats)
        return SeatsChanged(seats, message.spectators, message.started)
    if isinstance(message, p.Chat):
        return ChatArrived(message.name, message.seat, message.text)
    if isinstance(message, p.TurnTimer):
        return TimerStarted(message.seat, message.seconds)
    if isinstance(message, p.Error):
        return Refused(message.code, message.message, message.fatal)
    return _link_state(message)


def _link_state(message: Any) -> LinkMessage | None:
    """The client's own notices about the link (dropped, resumed), by name."""
    kind = type(message).__name__.lower()
    if "lost" in kind or "disconnect" in kind or "reconnecting" in kind:
        return LinkLost(str(getattr(message, "reason", "") or ""))
    if "resumed" in kind or "reconnected" in kind:
        return LinkResumed()
    return None
