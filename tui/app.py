"""`CapicuApp`: the Textual application that holds the screens and the network worker.

The App is the only owner of the `GameLink` (the network worker). The link
posts messages to the App; the App keeps the latest table state in `game`
and calls the screen that shows it. Screens send intents back with
`send_action` and `send_chat`; no widget touches the network.
"""

from __future__ import annotations

import contextlib
import gc
import getpass
import secrets
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from capicu.core import Action, Rules, View
from capicu.core.record import Record, replace
from capicu.tui.ascii_only import AsciiOnly
from capicu.tui.describe import display_text
from capicu.tui.link import (
    AskingHost,
    ChatArrived,
    Connection,
    GameLink,
    HostReady,
    Joined,
    LinkFailed,
    LinkLost,
    LinkResumed,
    NextRoundChanged,
    Refused,
    RejoinAsked,
    RejoinSettled,
    SeatsChanged,
    SeatState,
    TableChanged,
    TimerStarted,
)
from capicu.tui.messages import add_messages, t
from capicu.tui.saved_seats import SEATS_FILE, SeatStore
from capicu.tui.settings import Settings
from capicu.tui.themes import DEFAULT_THEME, hide_unreadable_themes
from capicu.tui.widgets.tiles import TileStyle
from textual.app import App
from textual.binding import Binding, BindingType
from textual.filter import LineFilter
from textual.screen import Screen

if TYPE_CHECKING:
    from capicu.tui.screens.table import TableScreen
    from textual.widgets import Checkbox

add_messages({
    "key.quit": "Quit",
    "key.palette": "Palette",
    "app.failed": "Could not reach the table: {reason}",
    "app.refused": "{reason}",
    "app.chat_notice": "{name}: {text}",
    "app.lost": "Connection lost: {reason}",
    "app.gave_up": "The table is gone: {reason}. Your seat is saved: run the same join command "
                   "to take it back when the host is up again.",
    "app.resumed": "Back at the table.",
    "app.asking_host": "Your seat is held for you: asking the host to give it back...",
    "notice.joined": "{name} sat down.",
    "notice.dropped": "{name} lost the connection; the seat is held.",
    "notice.left": "{name} left the table; the computer plays for them.",
    "notice.covered": "The computer plays for {name} until they come back.",
    "notice.back": "{name} is back.",
    "notice.watching": "{name} is watching.",
    "app.unknown_reason": "the host closed the connection",
})


class DisplayOptions(Record):
    """How this terminal draws the table and takes input (from the command line)."""

    ascii: bool = False
    tile_style: str | None = None
    mouse: bool = True
    theme: str | None = None


class SoloGame(Record):
    """Play against computer players: a host on 127.0.0.1 in this process."""

    rules: Rules
    players: int
    level: str = "normal"
    seed: int | None = None
    name: str | None = None
    #: Seconds a computer waits before it plays, so that a person can follow.
    pace: float = 0.7


class JoinGame(Record):
    host: str
    port: int
    name: str | None = None
    code: str | None = None
    spectate: bool = False
    #: A seat key typed by the player: take back that seat (from another machine).
    seat_key: str | None = None
    #: Seconds to keep trying to reach a host that went away, before giving up.
    give_up_after: float = 600.0


class HostGame(Record):
    """Host on the LAN with ``config`` (a net `HostConfig`) and play in this terminal."""

    config: Any
    name: str | None = None


StartRequest = SoloGame | JoinGame | HostGame


@dataclass(frozen=True, slots=True)
class NextRoundState:
    """Between rounds: who is ready for the next deal, who the host waits for, and when it deals."""

    #: When the countdown runs out, on the monotonic clock (None: no countdown).
    deadline: float | None
    ready: tuple[int, ...]
    waiting: tuple[int, ...]


@dataclass
class GameState:
    """What the App knows of the table it sits at, as the link reported it."""

    request: StartRequest
    name: str
    seat: int | None = None
    players: int = 0
    seats: tuple[SeatState, ...] = ()
    spectators: int = 0
    started: bool = False
    view: View | None = None
    host: HostReady | None = None
    #: The running turn timer: (seat, when it runs out on the monotonic clock).
    timer: tuple[int, float] | None = None
    chat: list[tuple[str, str]] = field(default_factory=list)
    lost: bool = False
    #: Between rounds (the host's last word on the next deal), else None.
    next_round: NextRoundState | None = None
    #: The key that takes this seat back from another machine (seated joiners only).
    seat_key: str | None = None
    #: The seat was taken back: say so once the table shows.
    welcome_back: bool = False

    @property
    def hosting(self) -> bool:
        """This terminal runs the host (a solo game, or host-and-play)."""
        return not isinstance(self.request, JoinGame)

    def seat_key_command(self) -> str:
        """The command that takes this seat back from another machine."""
        request = self.request
        if not isinstance(request, JoinGame) or self.seat_key is None:
            return ""
        host = f"[{request.host}]" if ":" in request.host else request.host
        return f"capicu join {host}:{request.port} --seat-key {self.seat_key}"

    def seat_name(self, seat: int) -> str:
        for info in self.seats:
            if info.seat == seat and info.name:
                return info.name
        return t("word.seat", number=seat + 1)


#: Seconds after the app starts before the garbage collector may run again,
#: when the command line paused it to start faster (`commands._loading`).
COLLECTOR_PAUSE = 2.0


def resume_collector() -> None:
    """Let the garbage collector work again, if the start paused it; what exists now stays frozen."""
    if not gc.isenabled():
        gc.freeze()
        gc.enable()


def seat_notices(
    before: tuple[SeatState, ...], after: tuple[SeatState, ...], me: int | None
) -> list[str]:
    """What changed at the table, in sentences for the chat ("Beto sat down.")."""
    old = {s.seat: s for s in before}
    notices = []
    for seat in after:
        was = old.get(seat.seat)
        if seat.seat == me or seat.kind != "person" or not seat.name:
            continue
        name = display_text(seat.name, 24)
        if was is None:
            if before:  # the first list of seats is the table as it is, not news
                notices.append(t("notice.joined", name=name))
        elif was.kind == "open" or (was.name != seat.name and seat.connected):
            notices.append(t("notice.joined", name=name))
        elif seat.left and not was.left:
            notices.append(t("notice.left", name=name))
        elif seat.covered and not was.covered:
            notices.append(t("notice.covered", name=name))
        elif was.connected and not seat.connected:
            notices.append(t("notice.dropped", name=name))
        elif seat.connected and not was.connected:
            notices.append(t("notice.back", name=name))
    return notices


def make_host_config(
    *, rules: Rules, players: int, computers: int, level: str, bind: str | None, port: int,
    code: str | None, seed: int | None, pace: float = 0.0, next_round_delay: float | None = 20.0,
) -> Any:
    """A net `HostConfig` for a table this terminal hosts (seed None: a random one)."""
    from capicu.net.host import HostConfig

    return HostConfig(
        bind=bind, port=port, code=code, rules=rules, players=players, computers=computers,
        seed=seed if seed is not None else secrets.randbelow(2**31), computer_level=level,
        computer_delay=pace, next_round_delay=next_round_delay,
    )


def solo_host_config(request: SoloGame) -> Any:
    """A solo game's host: loopback, any free port, no code, every other seat a computer."""
    return make_host_config(
        rules=request.rules, players=request.players, computers=request.players - 1,
        level=request.level, bind="127.0.0.1", port=0, code=None, seed=request.seed,
        pace=request.pace, next_round_delay=None,  # the one person says when: nobody else waits
    )


_ASCII_KEYS = {"enter": "enter", "left": "<-", "right": "->", "up": "up", "down": "down",
               "escape": "esc", "tab": "tab", "backspace": "bksp", "delete": "del"}


class CapicuApp(App[None]):
    """The dominoes table: menus, the table itself, and the link to a host."""

    CSS_PATH = "capicu.tcss"
    TITLE = "capicu"
    ENABLE_COMMAND_PALETTE = True
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+q", "quit", t("key.quit"), show=False, priority=True),
        Binding("ctrl+p", "command_palette", t("key.palette"), show=False),
    ]

    def __init__(self, display: DisplayOptions | None = None, start: StartRequest | None = None) -> None:
        super().__init__()
        self.display_options = display or DisplayOptions()
        self.start_request = start
        #: Set when a game asked for on the command line could not start or was
        #: lost: the command prints it as one line and exits with `failure_code`.
        self.failure: str | None = None
        #: 2: the game could not start (a usage error); 1: a game under way was lost.
        self.failure_code = 2
        self.game: GameState | None = None
        #: How many times the link dropped (the reconnecting overlay counts on it).
        self.link_drops = 0
        self._exiting = False
        self.link: GameLink | None = None
        self.settings, self._warnings = _load_settings()
        self.ascii_mode = self.display_options.ascii or self.settings.ascii
        self._ascii_only = AsciiOnly()
        self.tile_style = (
            TileStyle.parse(self.display_options.tile_style)
            if self.display_options.tile_style
            else self.settings.tile_style
        )
        self._load_themes()
        # Chosen here, not on mount: set once the app runs, the theme makes Textual
        # parse the whole stylesheet twice more (about 8 ms before the first frame).
        self._first_theme = self._first_theme_name()
        if self._first_theme is not None:
            self.theme = self._first_theme
        # The command palette offers what Settings offers: themes that pass the contrast test.
        hide_unreadable_themes(self)

    # -- start ---------------------------------------------------------------------

    def _load_themes(self) -> None:
        from capicu.tui.settings import themes_dir
        from capicu.tui.themes import load_themes

        themes, warnings = load_themes(themes_dir())
        for theme in themes:
            self.register_theme(theme)
        self._warnings += warnings

    def refresh_css(self, animate: bool = True) -> None:
        """Textual's refresh, skipped while nothing is styled yet (only the variables change)."""
        if not self.screen_stack:
            # The theme chosen in __init__ asks for a refresh before the first screen:
            # Textual would parse the stylesheet for it, throw that parse away, and
            # parse it again for the first screen (about 8 ms before the table shows).
            self.stylesheet.set_variables(self.get_css_variables())
            return
        super().refresh_css(animate)

    def get_theme_variable_defaults(self) -> dict[str, str]:
        from capicu.tui.themes import GAME_VARIABLES

        return dict(GAME_VARIABLES)

    def _first_theme_name(self) -> str | None:
        """The theme asked for (``--theme``, else the one remembered), else ours."""
        wanted = self.display_options.theme or self.settings.theme
        if wanted and wanted in self.available_themes:
            return wanted
        if DEFAULT_THEME in self.available_themes:
            return DEFAULT_THEME
        return None

    def on_mount(self) -> None:
        self.set_timer(COLLECTOR_PAUSE, resume_collector)
        for warning in self._warnings:
            self.notify(warning, severity="warning", timeout=8)
        self.theme_changed_signal.subscribe(self, self._remember_theme)
        if self._first_theme is not None:
            # The signal of the first choice went out before we could listen:
            # remember it here (``--theme`` is kept for next time).
            self.save_setting(theme=self._first_theme)
        if self.ascii_mode:
            self.add_class("ascii")
        if self.start_request is None:
            from capicu.tui.screens.menu import MainMenuScreen

            self.push_screen(MainMenuScreen())
        else:
            self.start_game(self.start_request)

    def _remember_theme(self, theme: Any) -> None:
        self.save_setting(theme=theme.name)

    def save_setting(self, **changes: Any) -> None:
        """Remember a choice (name, theme, tile style, last host) in the config folder."""
        from capicu.tui.settings import save_settings

        updated = self.settings.replace(**changes)
        if updated == self.settings:
            return
        self.settings = updated
        warning = save_settings(updated)
        if warning:
            self.notify(warning, severity="warning")

    def set_tile_style(self, style: str) -> None:
        """Draw tiles another way, everywhere, from now on (and next time)."""
        self.tile_style = TileStyle.parse(style)
        self.save_setting(tile_style=self.tile_style)
        for screen in self.screen_stack:
            for widget in screen.query("HandView, LineOfPlay"):
                widget.tile_style = self.tile_style  # type: ignore[attr-defined]

    def set_ascii(self, on: bool) -> None:
        self.ascii_mode = on
        self.save_setting(ascii=on)
        self.set_class(on, "ascii")
        for footer in self.screen.query("QuietFooter"):
            footer._shown = None  # type: ignore[attr-defined]  # key names change: redraw
        self.refresh_bindings()
        self.screen.refresh(layout=True)
        for screen in self.screen_stack:
            for widget in screen.query("HandView, LineOfPlay, SeatPanel"):
                widget.ascii = on  # type: ignore[attr-defined]

    def player_name(self, asked: str | None) -> str:
        name = asked or self.settings.name
        if not name:
            with contextlib.suppress(Exception):
                name = getpass.getuser()
        return (name or "player")[:24]

    def get_line_filters(self) -> Sequence[LineFilter]:
        """Textual's filters, plus the one that keeps ASCII mode to ASCII."""
        filters = list(super().get_line_filters())
        if self.ascii_mode:
            filters.append(self._ascii_only)
        return filters

    def get_key_display(self, binding: Binding) -> str:
        """Key names in the Footer; plain ASCII ones in ASCII mode."""
        shown = super().get_key_display(binding)
        if self.ascii_mode and not shown.isascii():
            modifiers, key = binding.parse_key()
            shown = _ASCII_KEYS.get(key, key)
            if "ctrl" in modifiers:
                shown = f"^{shown}"
        return shown

    def ascii_checkbox(self, label: str, value: bool = False, *, id: str | None = None) -> Checkbox:
        """A checkbox drawn ``[X]`` in ASCII mode (its usual half blocks are not ASCII)."""
        from textual.widgets import Checkbox  # only the settings and join screens show one

        box = Checkbox(label, value, id=id)
        if self.ascii_mode:
            box.BUTTON_LEFT, box.BUTTON_RIGHT = "[", "]"
        return box

    # -- the game ------------------------------------------------------------------

    def start_game(self, request: StartRequest) -> None:
        """Start the link for ``request``: host if asked, connect, then lobby or table."""
        name = self.player_name(request.name)
        self.game = GameState(request=request, name=name)
        host_config: Any | None = None
        if isinstance(request, SoloGame):
            host_config = solo_host_config(request)
            connection = Connection("127.0.0.1", 0, name)
        elif isinstance(request, HostGame):
            host_config = request.config
            connection = Connection("127.0.0.1", 0, name)
        else:
            connection = Connection(request.host, request.port, name, request.code, request.spectate,
                                    request.seat_key, give_up_after=request.give_up_after)
            self.save_setting(last_host=f"{request.host}:{request.port}")
        if request.name:
            self.save_setting(name=name)
        seats = None if host_config is not None else SeatStore(_data_dir() / SEATS_FILE)
        self.link = GameLink(self, connection, host_config, seats)
        self.run_worker(self.link.run(), name="link", group="link", exclusive=True, exit_on_error=False)
        if not isinstance(request, SoloGame):
            # A solo table is dealt at once: no lobby to build and throw away (nor
            # to import: its data table costs a few milliseconds at start).
            from capicu.tui.screens.lobby import LobbyScreen

            self.push_screen(LobbyScreen())

    async def leave_game(self) -> None:
        """Close the link and stop our host; back to the menu, or out when started from the shell."""
        link, self.link = self.link, None
        if link is not None:
            await link.close()
        self.workers.cancel_group(self, "link")
        self.game = None
        if self.start_request is not None:
            self.exit()
            return
        from capicu.tui.screens.menu import MainMenuScreen

        while len(self.screen_stack) > 1 and not isinstance(self.screen, MainMenuScreen):
            self.pop_screen()
        if not isinstance(self.screen, MainMenuScreen):
            self.push_screen(MainMenuScreen())

    async def play_again(self) -> None:
        """Leave this match and start the same kind of game again (a new deal for solo)."""
        if self.game is None:
            return
        request = self.game.request
        link, self.link = self.link, None
        if link is not None:
            await link.close()
        self.workers.cancel_group(self, "link")
        if isinstance(request, SoloGame) and request.seed is not None:
            request = replace(request, seed=request.seed + 1)
        self._pop_to_base()
        self.start_game(request)

    def _pop_to_base(self) -> None:
        from capicu.tui.screens.menu import MainMenuScreen

        while len(self.screen_stack) > 1:
            if isinstance(self.screen, MainMenuScreen):
                break
            self.pop_screen()

    async def send_action(self, action: Action) -> None:
        if self.link is not None:
            await self.link.send_action(action)

    async def send_chat(self, text: str) -> None:
        if self.link is not None:
            await self.link.chat(text)

    async def send_ready(self) -> None:
        if self.link is not None:
            await self.link.ready()

    def show_match_over(self, view: View) -> None:
        """The final score over the finished table (from the table's Enter once the match is won)."""
        from capicu.tui.screens.match_over import MatchOverScreen

        if not isinstance(self.screen, MatchOverScreen):
            self.push_screen(MatchOverScreen(view))

    def tell(self, text: str, severity: str = "information") -> None:
        """A notice for the player: on the table's status line when the table shows, else a toast."""
        table = self._table_screen()
        if table is not None and table.is_attached and self.screen is table:
            table.say(text)
        else:
            self.notify(text, severity=severity)  # type: ignore[arg-type]

    # -- what the link reports -----------------------------------------------------------

    def _showing(self) -> bool:
        """False once the app is closing: the link's last messages then go unread."""
        return self.is_running and bool(self.screen_stack) and not self._exiting

    def _game_screens(self) -> list[Screen[Any]]:
        return [s for s in self.screen_stack if hasattr(s, "game_changed")]

    def _tell_screens(self) -> None:
        for screen in self._game_screens():
            screen.game_changed()  # type: ignore[attr-defined]

    def on_host_ready(self, message: HostReady) -> None:
        if not self._showing():
            return
        if self.game is not None:
            self.game.host = message
            self._tell_screens()

    def on_joined(self, message: Joined) -> None:
        if not self._showing():
            return
        if self.game is not None:
            self.game.seat = message.seat
            self.game.players = message.players
            self.game.seat_key = message.seat_key
            self.game.welcome_back = message.resumed
            self._tell_screens()

    def on_asking_host(self, message: AskingHost) -> None:
        if not self._showing():
            return
        if self._is_lobby(self.screen):  # not a toast: it would linger over the table
            self.screen.set_status(t("app.asking_host"))  # type: ignore[attr-defined]
        else:
            self.notify(t("app.asking_host"), timeout=10)

    def on_rejoin_asked(self, message: RejoinAsked) -> None:
        if not self._showing():
            return
        from capicu.tui.screens.rejoin_request import RejoinRequestScreen

        link = self.link

        def answered(allow: bool | None) -> None:
            if link is not None:
                link.answer_rejoin(message.request_id, bool(allow))

        self.push_screen(RejoinRequestScreen(message.request_id, message.seat, message.name), answered)

    def on_rejoin_settled(self, message: RejoinSettled) -> None:
        from capicu.tui.screens.rejoin_request import RejoinRequestScreen

        for screen in list(self.screen_stack):
            if isinstance(screen, RejoinRequestScreen) and screen.request_id == message.request_id:
                screen.dismiss(None)

    def on_next_round_changed(self, message: NextRoundChanged) -> None:
        if not self._showing() or self.game is None:
            return
        deadline = None if message.seconds is None else time.monotonic() + message.seconds
        self.game.next_round = NextRoundState(deadline, message.ready, message.waiting)
        self._tell_screens()

    def on_seats_changed(self, message: SeatsChanged) -> None:
        if not self._showing():
            return
        if self.game is None:
            return
        notices = seat_notices(self.game.seats, message.seats, self.game.seat)
        self.game.seats = message.seats
        self.game.spectators = message.spectators
        self.game.started = message.started
        if message.seats:
            self.game.players = len(message.seats)
        self._tell_screens()
        for screen in self._game_screens():
            for notice in notices:
                screen.notice(notice)  # type: ignore[attr-defined]

    def on_table_changed(self, message: TableChanged) -> None:
        if not self._showing():
            return
        from capicu.tui.screens.table import TableScreen

        game = self.game
        if game is None:
            return
        game.view = message.view
        game.started = True
        if not message.view.between_rounds:
            game.next_round = None
        table = self._table_screen()
        if table is None:
            table = TableScreen(message.view.players, message.view.rules.direction)
            in_lobby = not isinstance(game.request, SoloGame) and self._is_lobby(self.screen)
            self.switch_screen(table) if in_lobby else self.push_screen(table)
        table.table_changed(message)

    def _table_screen(self) -> TableScreen | None:
        from capicu.tui.screens.table import TableScreen

        for screen in self.screen_stack:
            if isinstance(screen, TableScreen):
                return screen
        return None

    @staticmethod
    def _is_lobby(screen: Screen[Any]) -> bool:
        from capicu.tui.screens.lobby import LobbyScreen

        return isinstance(screen, LobbyScreen)

    def on_chat_arrived(self, message: ChatArrived) -> None:
        if not self._showing():
            return
        if self.game is None:
            return
        self.game.chat.append((message.name, message.text))
        table = self._table_screen()
        if table is not None and table.is_mounted:
            table.chat_arrived(message.name, message.text)
        elif self._is_lobby(self.screen):  # the table shows it later too
            self.screen.chat_arrived(message.name, message.text)  # type: ignore[attr-defined]
        else:
            self.notify(t("app.chat_notice", name=message.name, text=message.text))

    def on_timer_started(self, message: TimerStarted) -> None:
        if not self._showing():
            return
        if self.game is not None:
            self.game.timer = (message.seat, time.monotonic() + message.seconds)
            self._tell_screens()

    def on_refused(self, message: Refused) -> None:
        if not self._showing():
            return
        if message.fatal:
            self._fail(message.text)
        else:
            self.tell(t("app.refused", reason=message.text), severity="warning")

    def on_link_lost(self, message: LinkLost) -> None:
        if not self._showing():
            return
        from capicu.tui.screens.reconnecting import ReconnectingScreen

        if self.game is None:
            return
        if self.game.lost:
            for screen in self.screen_stack:
                if isinstance(screen, ReconnectingScreen):
                    screen.update_attempt(message.reason, message.attempt, message.host_down)
            return
        self.game.lost = True
        self.link_drops += 1
        self.push_screen(ReconnectingScreen(message.reason, message.attempt, message.host_down))

    def on_link_resumed(self, message: LinkResumed) -> None:
        if not self._showing():
            return
        from capicu.tui.screens.reconnecting import ReconnectingScreen

        if self.game is None:
            return
        self.game.lost = False
        for screen in list(self.screen_stack):
            if isinstance(screen, ReconnectingScreen):
                screen.dismiss()
        self.tell(t("app.resumed"))

    def on_link_failed(self, message: LinkFailed) -> None:
        if not self._showing():
            return
        self._fail(message.reason or t("app.unknown_reason"))

    def _fail(self, reason: str) -> None:
        """The game is over for us: from the shell, exit with the reason; from the menu, say it."""
        started = self.game is not None and self.game.view is not None
        if self.start_request is not None and not started:
            self.failure = t("app.failed", reason=reason)
            self.exit()
            return
        if self.start_request is not None:
            # Never silently: the shell gets one line and a non-zero code.
            lost = self.game is not None and self.game.lost and isinstance(self.game.request, JoinGame)
            key = "app.gave_up" if lost else "app.lost"
            self.failure = t(key, reason=reason.rstrip("."))
            self.failure_code = 1
            self.exit()
            return
        text = t("app.lost", reason=reason) if started else t("app.failed", reason=reason)
        self.notify(text, severity="error", timeout=8)
        self.call_later(self.leave_game)

    def exit(self, *args: Any, **kwargs: Any) -> None:
        self._exiting = True
        super().exit(*args, **kwargs)

    async def on_unmount(self) -> None:
        self._exiting = True
        if self.link is not None:
            await self.link.close()


def _data_dir() -> Any:
    from capicu.tui.settings import data_dir

    return data_dir()


def _load_settings() -> tuple[Settings, list[str]]:
    from capicu.tui.settings import load_settings

    return load_settings()

