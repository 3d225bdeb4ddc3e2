"""One SSH player's interface: a `CapicuApp` drawn through an SSH channel instead of a terminal.

`SessionApp` is the ordinary app joined to the host as ``capicu join`` would be
(in this process, under the SSH player's address: `Host.connect_local`); only
three things differ. Its `ChannelDriver` writes to the SSH channel and
reads the keys the channel brings (Textual's own XTerm parser, in the event loop:
no thread, no pseudo-terminal, no child process). Its colours follow the SSH
client's ``TERM``, and its words the client's locale, not the host's. And what the
player changes (theme, tile style, language) lasts for the session only: the host's
settings file is the host's.

Textual loads here: the gateway imports this module only once the colour mode is set.
"""

from __future__ import annotations

import asyncio
import sys
from codecs import getincrementaldecoder
from functools import partial
from typing import Any, Protocol, cast

import msgspec
from capicu.net.client import Dial
from capicu.tui.app import CapicuApp
from capicu.tui.game import DisplayOptions, JoinGame, StartRequest
from capicu.tui.link import HostReady
from capicu.tui.prefs.saved_seats import SeatStore
from capicu.tui.ssh.gateway import Gateway, GatewayError
from capicu.tui.words.messages import Language, Wording, choose_language, t
from rich.console import Console
from textual import events, on
from textual._xterm_parser import XTermParser  # private: Textual has no public input parser (see below)
from textual.app import App
from textual.driver import Driver
from textual.geometry import Size
from textual.message import Message

__all__ = ["ChannelDriver", "HostingApp", "SessionApp", "SessionTerminal"]

#: Seconds after the last key before a lone Escape is taken as the Escape key
#: (Textual's parser waits this long for the rest of a sequence).
_ESCAPE_TICK = 0.12

#: What Textual's terminal driver writes to enter and leave application mode, less what
#: only a local terminal needs (signals, termios): the same bytes reach an SSH client.
_ENTER = (
    "\x1b[?1049h"  # the alternate screen
    "\x1b[?25l"  # hide the cursor
    "\x1b[?1004h"  # focus in and out
    "\x1b[>25u"  # the kitty keyboard protocol (disambiguate, all keys, text), where known
    "\x1b[?2026$p"  # does the terminal draw in synchronised updates?
    "\x1b[?2004h"  # bracketed paste
    "\x1b[?7l"  # no line wrap
)
_LEAVE = (
    "\x1b[?2004l"
    "\x1b[?7h"
    "\x1b[<u"
    "\x1b[?1049l"
    "\x1b[?25h"
    "\x1b[?1004l"
)
_MOUSE_ON = "\x1b[?1000h\x1b[?1003h\x1b[?1015h\x1b[?1006h"
_MOUSE_OFF = "\x1b[?1000l\x1b[?1003l\x1b[?1015l\x1b[?1006l"


class SessionTerminal(Protocol):
    """What a session's app needs of its SSH channel (the gateway's session provides it)."""

    #: The window size the SSH client asked for (columns, rows), kept up to date.
    size: tuple[int, int]
    #: Set by the driver once it is running: the session hands it keys and new sizes.
    driver: ChannelDriver | None

    def write(self, data: bytes) -> None:
        """Send ``data`` to the SSH client's terminal."""


class ChannelDriver(Driver):
    """Textual's driver for one SSH channel: output to the channel, input from it."""

    def __init__(self, app: App[Any], *, debug: bool = False, mouse: bool = True,
                 size: tuple[int, int] | None = None) -> None:
        if not isinstance(app, SessionApp):
            raise TypeError("a ChannelDriver drives a SessionApp")
        self.terminal = app.terminal
        super().__init__(app, debug=debug, mouse=mouse, size=size or self.terminal.size)
        # Textual offers no public parser of terminal input for a driver of one's own (its own
        # drivers use this private one); a driver reading an SSH channel needs exactly it.
        self._parser = XTermParser()
        self._decode = getincrementaldecoder("utf-8")(errors="replace").decode
        self._tick: asyncio.TimerHandle | None = None
        self._taking_input = False

    # -- output ------------------------------------------------------------------

    def write(self, data: str) -> None:
        self.terminal.write(data.encode("utf-8"))

    def start_application_mode(self) -> None:
        self.terminal.driver = self
        self._taking_input = True
        self.write(_ENTER + (_MOUSE_ON if self._mouse else ""))
        self.resize(*self.terminal.size)

    def stop_application_mode(self) -> None:
        self.disable_input()
        self.write((_MOUSE_OFF if self._mouse else "") + _LEAVE)

    def disable_input(self) -> None:
        self._taking_input = False
        if self._tick is not None:
            self._tick.cancel()
            self._tick = None

    def close(self) -> None:
        self.disable_input()
        if self.terminal.driver is self:
            self.terminal.driver = None

    # -- input -------------------------------------------------------------------

    def feed(self, data: bytes) -> None:
        """Keys from the SSH client, as they came: parsed into Textual's events."""
        if not self._taking_input:
            return
        for event in self._parser.feed(self._decode(data)):
            self.process_message(event)
        # A lone Escape (or the start of a sequence cut in two) waits for the parser's timeout.
        if self._tick is not None:
            self._tick.cancel()
        self._tick = self._loop.call_later(_ESCAPE_TICK, self._flush_pending)

    def _flush_pending(self) -> None:
        self._tick = None
        if self._taking_input:
            for event in self._parser.tick():
                self.process_message(event)

    def resize(self, columns: int, rows: int) -> None:
        """The SSH client's window changed (or the session began): tell the app."""
        size = Size(max(columns, 1), max(rows, 1))
        self._size = (size.width, size.height)
        self.send_message(events.Resize(size, size))

    def send_message(self, message: Message) -> None:
        # Input arrives on the event loop itself (the base class expects a thread).
        self._app.post_message(message)


class SessionRequest(msgspec.Struct, frozen=True):
    """Who an SSH session is and where its app joins."""

    join: JoinGame
    #: Where this player's seats are kept (None: a password-only player, nothing kept).
    seats: SeatStore | None
    #: The SSH client's environment that concerns the interface (``TERM``, ``COLORTERM``, the locale).
    environment: dict[str, str]
    #: How the app reaches the host: in this process, under the SSH player's own address.
    dial: Dial | None = None


class SessionApp(CapicuApp):
    """The interface of one SSH session (see the module docstring)."""

    def __init__(self, terminal: SessionTerminal, request: SessionRequest) -> None:
        super().__init__(display=DisplayOptions(mouse=False), start=request.join)
        self.terminal = terminal
        # The host's saved ASCII mode and language are for the host's own terminal: a session
        # starts without ASCII, in the language of the SSH client's locale (LANG, if it sent it).
        self.ascii_mode = False
        self.language = Language(choose_language(None, None, request.environment), ascii=False)
        self.speaking = self.language.code
        self.seat_store = request.seats
        self.dial = request.dial
        #: The session ended without the player leaving (the connection went, idle, the host stops).
        self.dropped = False
        #: Why the gateway ended the session, if it said.
        self.drop_reason: Wording | None = None
        #: What the gateway says in the SSH channel once the app is gone, worded by the app as it
        #: closes: in the session's language (the gateway's own words are the host's).
        self.last_words: list[str] = []
        # Textual points sys.stdout and sys.stderr at a running app, to catch stray prints.
        # Many apps in one process enter and leave in any order, and each would put back
        # what it found: the streams would end at a finished session. So every session
        # "catches" into the process's own streams, and what the host prints still shows.
        self._capture_stdout = cast(Any, sys.stdout)
        self._capture_stderr = cast(Any, sys.stderr)
        # Colours from the SSH client's terminal (Rich reads TERM and COLORTERM from this).
        self.console = Console(
            color_system="auto", file=self.console.file, markup=True, highlight=False, emoji=False,
            legacy_windows=False, _environ=dict(request.environment), force_terminal=True,
            safe_box=False, soft_wrap=False,
        )

    def get_driver_class(self) -> type[Driver]:
        return ChannelDriver

    def drop(self, reason: Wording | None = None) -> None:
        """End without the player leaving: the host holds the seat, as for any dropped connection."""
        self.dropped = True
        self.drop_reason = reason
        self.exit()

    async def on_unmount(self) -> None:
        self.last_words = self.parting_words()
        # Before CapicuApp's own (which says goodbye): a dropped session hangs up without one.
        if self.dropped and self.link is not None:
            link, self.link = self.link, None
            await link.close(leaving=False)

    def parting_words(self) -> list[str]:
        """The lines the SSH client's terminal keeps once the app is gone, in this session's language."""
        lines = []
        if self.farewell is not None:
            lines.append(t("capicu: {problem}", problem=self.farewell))
        if self.failure is not None:
            lines.append(t("capicu: {problem}", problem=self.failure))
            if (self.table is None or self.table.view is None) and self.seat_store is None:
                # The host's words speak of capicu join: say how it goes over SSH (no key, no saved seat).
                lines.append(t("capicu: over SSH, a seat's key given as the password takes that seat back"))
        if self.drop_reason is not None:
            lines.append(t("capicu: {problem}", problem=self.drop_reason()))
        return lines

    def save_setting(self, **changes: Any) -> None:
        """Remember a choice for this session only (the settings file is the host's)."""
        self.settings = msgspec.structs.replace(self.settings, **changes)


class HostingApp(CapicuApp):
    """The host's own interface (``capicu host --ssh`` without ``--headless``): it starts the gateway.

    The gateway runs in this app's event loop once the host is up, and stops with it.
    """

    def __init__(self, display: DisplayOptions, start: StartRequest | None, gateway: Gateway, *,
                 local_terminal: bool = False) -> None:
        super().__init__(display=display, start=start, local_terminal=local_terminal)
        self.gateway = gateway

    @on(HostReady)
    async def start_gateway(self, message: HostReady) -> None:
        """The host is up: open the SSH listener beside it (CapicuApp's own handler runs too)."""
        gateway = self.gateway
        if gateway.running:
            return
        link = self.link if self.link is not None else (self.club.link if self.club is not None else None)
        host = link.host if link is not None else None
        if host is None and link is not None and link.club_host is not None:
            host = link.club_host.host  # a club night's tables run on its own host
        if host is None:
            return
        try:
            await gateway.start(host)
        except GatewayError as exc:  # the table goes on without SSH; the host is told why
            self.notify(t("SSH is off: {problem}", problem=str(exc)), severity="error", timeout=20)
            return
        # Not a notice: it would cover the host player's hand. The lobby shows it, and `j` at the table.
        self.ssh_join = partial(gateway.welcome_lines, message.address)

    async def on_unmount(self) -> None:
        await self.gateway.stop()
