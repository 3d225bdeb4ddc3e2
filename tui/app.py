"""`CapicuApp`: the Textual application that holds the screens and the network worker.

The App is the only owner of the `GameLink` (the network worker). The App
holds the table's one model (`table`: the client's `TableModel`, which the
client changes as it takes each host message); the link posts each change in
one `ModelChanged` message, and the App hands it to every screen in its stack
(`CapicuScreen.model_changed`) after doing what is the App's to do (open the
table, the reconnecting overlay, end the game). Screens send intents back with
`send_action` and `send_chat`; no widget touches the network.
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, cast

import msgspec
from capicu.core import Action
from capicu.net.client import Closed, Dial, Reconnected, Reconnecting, Update
from capicu.net.model import LinkEnd, TableModel
from capicu.net.protocol import (
    CLUB_TABLE,
    NAME_LIMIT,
    Chat,
    ClubDrawn,
    ClubPhase,
    Error,
    GameSnapshot,
    GameView,
    MatchRecorded,
    TableState,
)
from capicu.net.store.journals import JournalFolder, Unfinished, summarize
from capicu.tui.prefs.saved_seats import SEATS_FILE, SeatStore
from capicu.tui.prefs.settings import (
    DEFAULT_THEME,
    data_dir,
    load_settings,
    records_dir,
    save_settings,
    themes_dir,
)
from capicu.tui.prefs.themes import GAME_VARIABLES, hide_unreadable_themes, load_themes
from capicu.tui.words.ascii_only import to_ascii
from capicu.tui.words.describe import (
    describe_history_problem,
    describe_host_bye,
    describe_host_error,
    describe_link_end,
)
from capicu.tui.words.messages import (
    LANGUAGES,
    N_,
    Language,
    Wording,
    choose_language,
    later,
    set_language_source,
    t,
    tc,
)
from rich.console import RenderableType
from rich.segment import Segment
from textual import constants, events
from textual.app import App, SystemCommand
from textual.binding import Binding, BindingType
from textual.color import Color
from textual.command import CommandPalette
from textual.filter import LineFilter
from textual.message_pump import MessagePump
from textual.notifications import SeverityLevel
from textual.reactive import Initialize, Reactive, var
from textual.screen import Screen
from textual.theme import Theme, ThemeProvider
from textual.types import NoActiveAppError
from textual.widgets import Input

from .game import (
    DisplayOptions,
    GameState,
    HostClub,
    HostGame,
    Hosting,
    JoinGame,
    OpenReplays,
    SoloGame,
    StartRequest,
    journals_of,
    resumes,
    resuming,
    solo_host_config,
)
from .games import face_of
from .link import (
    AskingHost,
    ClubChanged,
    ClubSeatOffered,
    Connection,
    GameLink,
    HostReady,
    LinkFailed,
    MatchLost,
    ModelChanged,
    RejoinAsked,
    RejoinSettled,
    seat_gone,
)
from .screens.base import CapicuScreen
from .screens.table import TableScreen
from .widgets.tiles import TileStyle

if TYPE_CHECKING:
    from capicu.net.club.host import ClubHostConfig
    from capicu.net.host.server import HostConfig
    from textual.widgets import Checkbox

    from .club import ClubSession  # (a club night's, when one is run or joined)
    from .screens.lobby import LobbyScreen  # (each loaded when first opened)
    from .screens.menu import MainMenuScreen

__all__ = ["CapicuApp"]

class AsciiOnly(LineFilter):
    """ASCII mode's last line of defence: every rendered character outside ASCII becomes ASCII.

    The widgets already draw tiles and borders in ASCII when asked, but a name
    ("José"), a word of the catalogue ("capicú") or a glyph inside a Textual widget
    would still reach a terminal that mangles anything else. This runs after
    everything else has rendered, keeping each character's width, styles untouched.
    """

    def apply(self, segments: list[Segment], background: Color) -> list[Segment]:
        if all(segment.text.isascii() for segment in segments):
            return segments
        return [
            segment if segment.text.isascii() or segment.control
            else Segment(to_ascii(segment.text, same_width=True), segment.style, segment.control)
            for segment in segments
        ]


_ASCII_KEYS = {"enter": "enter", "left": "<-", "right": "->", "up": "up", "down": "down",
               "escape": "esc", "tab": "tab", "backspace": "bksp", "delete": "del"}


class CapicuApp(App[None]):
    """The dominoes table: menus, the table itself, and the link to a host."""

    #: Beside this file, also for a subclass elsewhere (the SSH session's app in tui/ssh/).
    CSS_PATH = Path(__file__).with_name("capicu.tcss")
    TITLE = "capicu"
    ENABLE_COMMAND_PALETTE = True
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+q", "quit", N_("Quit"), show=False, priority=True),
        Binding("ctrl+p", "command_palette", N_("Palette"), show=False),
        Binding("f2", "club_standings", N_("Club standings"), show=False),
    ]

    # What the screens follow of the App itself (each screen watches them; see CapicuScreen).
    #: This terminal hosts: where others join, and with which code (None: it does not, or not yet).
    hosted_at: var[Hosting | None] = var(None)
    #: How to join this terminal's table over SSH, worded when asked (None: SSH is off).
    ssh_join: var[Callable[[], list[str]] | None] = var(None)
    #: How tiles are drawn, and whether everything is drawn in ASCII only.
    tile_style: var[TileStyle] = var(TileStyle.COMPACT)
    ascii_mode: var[bool] = var(False)
    #: The code of the language spoken (`language`), said again at each switch.
    speaking: var[str] = var("", always_update=True)

    #: The first theme chosen (None: none of ours could be, Textual's default is used).
    _first_theme: str | None

    def _choose_first_theme(self) -> str:
        """Register our themes and say the first one (see `theme`); Textual asks in `App.__init__`."""
        themes, warnings = load_themes(themes_dir())
        for theme in themes:
            self.register_theme(theme)
        self._warnings += warnings
        self._first_theme = self._first_theme_name()
        return self._first_theme or constants.DEFAULT_THEME

    #: The theme in use. The first one (``--theme``, else the one remembered, else ours) is chosen
    #: as Textual first asks, in `App.__init__` before it builds the stylesheet: the stylesheets are
    #: parsed once with its colours (setting it after ``super().__init__()`` had Textual parse them
    #: all a second time at start).
    theme: Reactive[str] = Reactive(Initialize(_choose_first_theme))

    def __init__(self, display: DisplayOptions | None = None,
                 start: StartRequest | OpenReplays | None = None, *, local_terminal: bool = False) -> None:
        # What the first theme depends on, known before Textual asks for it (`_choose_first_theme`).
        self.display_options = display or DisplayOptions()
        self.settings, self._warnings = load_settings()
        self._first_theme = None  # (`_choose_first_theme` sets it)
        super().__init__()
        #: The app runs on this process's own terminal (the command line's): it ends when that
        #: terminal goes away (`tui.terminal_gone`). Not for Pilot's tests nor an SSH session.
        self.local_terminal = local_terminal
        #: The terminal went away: the app hangs up without a goodbye (the host holds the seat).
        self.hung_up = False
        self.start_request = start
        #: Set when a game asked for on the command line could not start or was
        #: lost: the command prints it as one line and exits with `failure_code`.
        self.failure: str | None = None
        #: 2: the game could not start (a usage error); 1: a game under way was lost.
        self.failure_code = 2
        #: Set when the game ended cleanly for a reason to tell (the host closed the table):
        #: the command prints it and exits with 0.
        self.farewell: str | None = None
        self.game: GameState | None = None
        #: The club night this terminal takes part in (None: none); its seat, while a round is
        #: played, is `game` and `link` as any table is.
        self.club: ClubSession | None = None
        #: The main menu and a game's lobby as last opened (each loaded when first opened: a game
        #: against the computer started from the shell opens neither).
        self._menu: MainMenuScreen | None = None
        self._lobby: LobbyScreen | None = None
        #: Said by the first screen of the game, the lobby or the table, in its log (never over the hand).
        self.opening_notices: list[Wording] = []
        self._exiting = False
        self.link: GameLink | None = None
        self.seat_store: SeatStore | None = SeatStore(  # SSH: each key's own
            data_dir() / SEATS_FILE, warn=lambda problem: self.notify(problem, severity="warning", timeout=8))
        #: How the link reaches the host (None: a TCP connection; an SSH session dials in this process).
        self.dial: Dial | None = None
        self.ascii_mode = self.display_options.ascii or self.settings.ascii
        #: The language this interface speaks (``--lang``, else the one saved, else the locale's); in
        #: ASCII mode its sentences drop what has no ASCII form ("¡Capicú!" reads "Capicu!"), before
        #: the screen's cell-for-cell filter would make it "?".
        self.language = Language(choose_language(self.display_options.language, self.settings.language),
                                 ascii=self.ascii_mode)
        self.speaking = self.language.code
        self._ascii_only = AsciiOnly()
        self.tile_style = (
            TileStyle.parse(self.display_options.tile_style)
            if self.display_options.tile_style
            else self.settings.tile_style
        )
        if self._first_theme is not None:
            self.set_class(True, f"-theme-{self._first_theme}", update=False)  # as Textual's setting marks it
        # The command palette offers what Settings offers: themes that pass the contrast test.
        hide_unreadable_themes(self)

    # -- start ---------------------------------------------------------------------

    def get_theme_variable_defaults(self) -> dict[str, str]:
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
            self._open_menu()
        elif isinstance(self.start_request, OpenReplays):
            self.open_replays(self.start_request.path)
        else:
            self.start_game(self.start_request)

    def open_replays(self, path: Path | None = None) -> None:
        """The list of recorded matches, or (``path``) one record's replay; a damaged one is said."""
        # Loaded when asked for: the replay and its list are not needed to play.
        from .screens.replays import ReplaysScreen, replay_screen

        if path is None:
            self.push_screen(ReplaysScreen())
            return
        from capicu.net.store.record import RecordError, read_record

        try:
            record = read_record(path)
        except RecordError as exc:
            if self.start_request is not None:
                self.failure = str(exc)
                self.exit()
            else:
                self.notify(str(exc), severity="error", timeout=10)
            return
        self.push_screen(replay_screen(record, path))

    def on_ready(self, event: events.Ready) -> None:
        # The command line starts the app with the collector paused (`commands.run_app`): it works
        # again once the first screen is up. A game on its way has not shown its own yet (the screen
        # up is the empty one under it): then once its table has drawn its first frame
        # (`on_model_changed`), and at most a second from now (a lobby, a host slow to answer).
        if self.link is not None and self._table_screen() is None:
            self.set_timer(1.0, gc.enable)
        else:
            gc.enable()
        if self.local_terminal:
            # Watched from the first frame on (a hang-up before it costs half a second at most).
            from .terminal_gone import CHECK_EVERY, on_hang_up

            self.set_interval(CHECK_EVERY, on_hang_up(self.terminal_gone))

    def _remember_theme(self, theme: Theme) -> None:
        self.save_setting(theme=theme.name)

    def save_setting(self, **changes: Any) -> None:
        """Remember a choice (name, theme, tile style, last host) in the config folder."""
        updated = msgspec.structs.replace(self.settings, **changes)
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

    def set_ascii(self, on: bool) -> None:
        """Draw with ASCII only (or not), everywhere, from now on (and next time)."""
        self.language.ascii = on
        self.save_setting(ascii=on)
        self.set_class(on, "ascii")
        self.refresh_bindings()  # the Footer's key names change
        self.screen.refresh(layout=True)
        self.ascii_mode = on  # last: the screens redraw what they draw with it

    def set_language(self, code: str) -> None:
        """Speak ``code`` everywhere from now on (and next time): every screen words itself again."""
        if code == self.language.code or not self.language.switch(code):
            return
        self.save_setting(language=code)
        self.refresh_bindings()  # the Footer's words
        self.speaking = code  # every screen words itself again

    # -- the command palette, in the app's language ----------------------------------

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        """Textual's own commands, worded in this app's language, and one for each other language."""
        for code, name in LANGUAGES.items():
            if code != self.language.code:
                # The language's own name: a reader who cannot read the current one still finds theirs.
                yield SystemCommand(t("Language: {language}", language=name),
                                    t("Show every text in {language}", language=name),
                                    lambda code=code: self.set_language(code))
        if self.club is not None:
            yield SystemCommand(t("Club standings"), t("Show the club night's standings (F2)"),
                                self.action_club_standings)
        yield SystemCommand(t("Theme"), t("Change the current theme"), self.action_change_theme)
        if screen.query("HelpPanel"):
            yield SystemCommand(t("Keys"), t("Hide the keys and help panel"), self.action_hide_help_panel)
        else:
            yield SystemCommand(t("Keys"), t("Show the keys and help panel"), self.action_show_help_panel)
        yield SystemCommand(t("Quit"), t("Quit the application as soon as possible"), self.action_quit)

    def action_command_palette(self) -> None:
        if self.use_command_palette and not CommandPalette.is_open(cast("App[object]", self)):
            self.push_screen(CommandPalette(id="--command-palette", placeholder=t("Search for commands…")))

    def search_themes(self) -> None:
        self.push_screen(CommandPalette(providers=[ThemeProvider], placeholder=t("Search for themes…")))

    def take_opening_notices(self) -> list[Wording]:
        """What the game's first screen says as it opens (each said once)."""
        notices, self.opening_notices = self.opening_notices, []
        return notices

    def on_input_changed(self, event: Input.Changed) -> None:
        """A name field that is full says so: taking no more letters without a word would be a silent cut."""
        field = event.input
        if (field.id == "name" and field.has_focus and field.max_length
                and len(event.value) >= field.max_length):
            self.notify(t("Names are at most {limit} letters.", limit=field.max_length), severity="warning")

    def player_name(self, asked: str | None) -> str:
        name = asked or self.settings.name
        if not name:
            import getpass  # (only when no name was given nor kept)

            with contextlib.suppress(Exception):
                name = getpass.getuser()
        return (name or "player")[:NAME_LIMIT]

    def get_line_filters(self) -> Sequence[LineFilter]:
        """Textual's filters, plus the one that keeps ASCII mode to ASCII."""
        filters = list(super().get_line_filters())
        if self.ascii_mode:
            filters.append(self._ascii_only)
        return filters

    def get_key_display(self, binding: Binding) -> str:
        """Key names in the Footer; plain ASCII ones in ASCII mode."""
        shown = super().get_key_display(binding)
        if shown == "space":
            # TRANSLATORS: the space bar's name in the footer of keys ("space Lay").
            shown = tc("a key's name", "space")
        if self.ascii_mode and not shown.isascii():
            modifiers, key = binding.parse_key()
            shown = _ASCII_KEYS.get(key, key)
            if "ctrl" in modifiers:
                shown = f"^{shown}"
        return shown

    def ascii_checkbox(self, label: str, value: bool = False, *, id: str | None = None) -> Checkbox:
        """A checkbox drawn ``[X]`` in ASCII mode (its usual half blocks are not ASCII)."""
        from textual.widgets import Checkbox  # (the forms', never the table's)

        box = Checkbox(label, value, id=id)
        if self.ascii_mode:
            box.BUTTON_LEFT, box.BUTTON_RIGHT = "[", "]"
        return box

    # -- the game ------------------------------------------------------------------

    def start_game(self, request: StartRequest) -> None:
        """Start the link for ``request``: host if asked, connect, then lobby or table.

        A match this terminal hosts is journalled in the folder of journals; when that
        folder keeps an unfinished match of its kind, the player is asked first whether
        to resume it (`ResumeOfferScreen`).
        """
        folder = journals_of(request)
        if folder is not None and resumes(request) is None and isinstance(request, SoloGame | HostGame):
            kept = folder.unfinished()
            if kept:
                self._offer_resume(request, folder, kept[0])
                return
        name = self.player_name(request.name)
        self.opening_notices = []
        if request.name and len(request.name) > NAME_LIMIT:
            # Never cut silently: the player learns the name the others will read.
            self.opening_notices.append(later("Names are at most {limit} letters: you sit as {name}.",
                                              limit=NAME_LIMIT, name=name))
        resumed = resumes(request)
        self.game = GameState(request=request, table=TableModel(name),
                              resumed=summarize(resumed) if resumed is not None else None)
        self.hosted_at = None
        host_config: HostConfig | ClubHostConfig | None
        if isinstance(request, SoloGame):
            host_config = solo_host_config(request, folder)
            connection = Connection("127.0.0.1", 0, name)
        elif isinstance(request, HostGame):
            host_config = request.config
            connection = Connection("127.0.0.1", 0, name)
        elif isinstance(request, HostClub):
            from .club import club_host_config  # (a club night's)

            host_config = club_host_config(request, name)
            connection = Connection("127.0.0.1", 0, name, spectate=True, table=CLUB_TABLE)
        else:
            host_config = None
            connection = Connection(request.host, request.port, name, request.code, request.spectate,
                                    request.seat_key, give_up_after=request.give_up_after,
                                    table=CLUB_TABLE if request.club else "main")
            self.save_setting(last_host=f"{request.host}:{request.port}")
        seats = None if host_config is not None else self.seat_store
        self.link = GameLink(self, connection, self.game.table, host_config, seats, dial=self.dial,
                             records=records_dir())
        self.run_worker(self.link.run(), name="link", group="link", exclusive=True, exit_on_error=False)
        self._lobby = None
        if not isinstance(request, SoloGame):  # a solo table is dealt at once: no lobby
            from .screens.lobby import LobbyScreen

            self._lobby = LobbyScreen()
            self.push_screen(self._lobby)

    def _offer_resume(self, request: SoloGame | HostGame, folder: JournalFolder, kept: Unfinished) -> None:
        """Ask whether to resume ``kept``, then start ``request`` as answered (Esc: start nothing)."""

        def answered(resume: bool | None) -> None:
            if resume is None:
                self.call_later(self.leave_game)
            elif resume:
                self.start_game(resuming(request, kept.path))
            else:
                folder.set_aside(kept.path)
                self.start_game(request)

        from .screens.resume_offer import ResumeOfferScreen  # only when there is something to resume

        self.push_screen(ResumeOfferScreen(kept), answered)

    async def _close_link(self, *, end_match: bool = False) -> None:
        link, self.link = self.link, None
        if link is not None:
            await link.close(end_match=end_match)
        # At a club night, the game's link is the seat's (the club's own link goes on).
        self.workers.cancel_group(self, "seat" if self.club is not None else "link")

    async def leave_game(self, *, end_match: bool = False) -> None:
        """Close the link and stop our host; back to the menu, or out when started from the shell.

        ``end_match``: the player who hosts chose to end the game (the leave dialog says so):
        its unfinished journal is set aside with the finished ones, never offered again. A
        crash, a closed terminal or Ctrl+Q keep it to be offered next time. At a club night,
        leaving a table goes back to the club's standings (`leave_club` leaves the night).
        """
        await self._close_link(end_match=end_match)
        self.game = None
        if self.club is not None:
            self._back_to_club()
            return
        self.hosted_at = None
        if self.start_request is not None:
            self.exit()
            return
        self._pop_to_menu()
        if not self._in_menu():
            self._open_menu()

    async def play_again(self) -> None:
        """Leave this match and start the same kind of game again (a new deal for solo)."""
        if self.game is None:
            return
        request = self.game.request
        await self._close_link()
        if isinstance(request, SoloGame) and request.seed is not None:
            request = msgspec.structs.replace(request, seed=request.seed + 1)
        self._pop_to_menu()
        self.start_game(request)

    # -- the club night ------------------------------------------------------------------

    def on_club_changed(self, message: ClubChanged) -> None:
        """The club's model took a message: open the club's screens, take the seat drawn, tell the screens."""
        if not self._showing():
            return
        if self.club is None:
            if self.game is None or self.link is None:
                return
            # The connection is a club night's: it is the club's from now on, and the game is the seat's.
            from .club import ClubSession

            self.club = ClubSession(self.game.request, self.game.table, self.link,
                                    organiser_key=self._organiser_key())
            self.game, self.link = None, None
        club = self.club
        change = message.change
        taken = change.message
        if isinstance(taken, Closed):
            self._club_closed(taken)
            return
        if isinstance(taken, Reconnecting) and not club.reconnecting:
            club.reconnecting = True  # said once: each try to get it back is another Reconnecting
            self.notify(t("The connection to the club is lost: trying to get it back..."), severity="warning")
        elif isinstance(taken, Reconnected):
            club.reconnecting = False
            self.notify(t("Back in the club."))
        self._show_club(club)
        roster = club.model.club
        if club.arrived_during is None and roster is not None:
            club.arrived_during = roster.round if roster.phase == ClubPhase.PLAYING else 0
        for screen in self._capicu_screens():
            screen.club_changed(change)

    def on_club_seat_offered(self, message: ClubSeatOffered) -> None:
        """The club's draw gives us a seat we do not hold (net/club/client.py follows the draws): take
        it, or ask first when we come back to a round whose seat the computer plays meanwhile."""
        club = self.club
        drawn = message.draw
        if not self._showing() or club is None or not club.seat_to_take(drawn):
            return
        club.seated_round = drawn.round  # decided now: the draw is not taken twice
        if club.coming_back(drawn):
            self._offer_seat_back(drawn)
        else:
            self.run_worker(self._take_seat(drawn, back=club.drawn_before_arrival(drawn)), group="club",
                            exit_on_error=False)

    def _organiser_key(self) -> str | None:
        """The organiser's key when this terminal runs the club night (None: it joined it)."""
        link = self.link
        return link.organiser_key if link is not None else None

    def _show_club(self, club: ClubSession) -> None:
        """The club's screen for the night's phase: the lobby while gathering, then the standings."""
        from .screens.club_lobby import ClubLobbyScreen
        from .screens.club_standings import ClubStandingsScreen

        gathering = club.phase == ClubPhase.GATHERING and club.model.club_draw is None
        wanted = ClubLobbyScreen if gathering else ClubStandingsScreen
        if any(isinstance(screen, wanted) for screen in self.screen_stack):
            return
        if self.screen is self._lobby or isinstance(self.screen, ClubLobbyScreen):
            self.switch_screen(wanted())
        elif not any(isinstance(screen, ClubLobbyScreen) for screen in self.screen_stack):
            self.push_screen(wanted())
        else:
            # The lobby is under the seat's table (the first draw took us there at once): the standings
            # take its place, under the table.
            index = next(i for i, s in enumerate(self.screen_stack) if isinstance(s, ClubLobbyScreen))
            self._replace_screen_at(index, wanted())

    def _replace_screen_at(self, index: int, screen: CapicuScreen[Any]) -> None:
        """Put ``screen`` where the screen at ``index`` of the stack is, the screens above kept."""
        above = self.screen_stack[index + 1:]
        for _ in above:
            self.pop_screen()
        self.switch_screen(screen)
        for kept in above:
            self.push_screen(kept)

    def _offer_seat_back(self, drawn: ClubDrawn) -> None:
        """Back in the club during the round: ask before taking the seat back from the computer."""
        from .screens.club_standings import TakeSeatBackScreen

        table = next((table for table in drawn.tables if table.name == drawn.table), None)

        def answered(take: bool | None) -> None:
            if take:
                self.go_back_to_table()

        self.push_screen(TakeSeatBackScreen(table.number if table is not None else 0), answered)

    async def _take_seat(self, drawn: ClubDrawn, *, back: bool = False) -> None:
        """Go to the seat the round's draw gave us (from the last round's table, if still there).

        ``back``: the player comes back to a seat of this round (it was held for them, or the
        computer played it), and is told so, not seated as if newly drawn.
        """
        club = self.club
        if club is None:
            return
        if self.link is not None:
            await self._close_link()  # the last round's table, still open on its final score
            self.game = None
        self._back_to_club()
        # The club's connection opens the seat (net/club/client.py), this terminal plays it.
        seat = await club.link.take_seat()
        if self.club is not club or self.link is not None:
            return
        if seat is None:
            self.notify(t("Your table cannot be reached now: press t on the standings to try again."),
                        severity="warning", timeout=10)
            return
        request, connection = club.seat_connection(drawn)
        self.game = GameState(request=request, table=seat.model)
        table = next((table for table in drawn.tables if table.name == drawn.table), None)
        number = table.number if table is not None else 0
        seat_number = (drawn.seat or 0) + 1
        if back:
            self.opening_notices = [later("You are back at table {number}, seat {seat} (F2: the standings).",
                                          number=number, seat=seat_number)]
        else:
            self.opening_notices = [later("Round {round}: you sit at table {number}, seat {seat} (F2: the "
                                          "standings).", round=drawn.round, number=number, seat=seat_number)]
        self.link = GameLink(self, connection, self.game.table, dial=self.dial, records=records_dir(),
                             client=seat)
        self.run_worker(self.link.run(), name="seat", group="seat", exclusive=True, exit_on_error=False)

    def can_watch(self) -> bool:
        """At a club night, nothing of ours is being played: a table of the round may be watched."""
        game = self.game
        view = game.table.view if game is not None else None
        return self.club is not None and (self.link is None or game is None or game.table.seat is None
                                          or (view is not None and view.match_over))

    async def watch_table(self, table: str) -> None:
        """Watch the club night's table ``table`` as a spectator (Esc goes back to the standings)."""
        club = self.club
        if club is None or not self.can_watch():
            return
        if self.link is not None:
            await self._close_link()  # the last round's table, on its final score, or another watched
            self.game = None
        self._back_to_club()
        at = club.link.connection
        port, code = at.port, at.code
        if self.hosted_at is not None and self.hosted_at.club:
            # The organiser's own club host, in this process: its port and join code.
            port, code = self.hosted_at.port, self.hosted_at.code
        request = JoinGame(host=at.host, port=port, name=at.name, code=code, spectate=True,
                           give_up_after=at.give_up_after)
        connection = Connection(at.host, port, at.name, code, spectate=True, table=table,
                                give_up_after=at.give_up_after)
        self.game = GameState(request=request, table=TableModel(connection.name))
        self.link = GameLink(self, connection, self.game.table, dial=self.dial)
        self.run_worker(self.link.run(), name="seat", group="seat", exclusive=True, exit_on_error=False)

    def _back_to_club(self) -> None:
        """Close the screens above the club's own (the table, its final score)."""
        from .screens.club_base import ClubScreen

        while len(self.screen_stack) > 1 and not isinstance(self.screen, ClubScreen):
            if not any(isinstance(screen, ClubScreen) for screen in self.screen_stack):
                return
            self.pop_screen()

    def _club_closed(self, closed: Closed) -> None:
        """The club's connection ended: the night closed (its final standings stay in view), or was lost."""
        club = self.club
        if club is None:
            return
        if club.phase == ClubPhase.OVER:
            # The final standings stay on the screen until the player leaves.
            self.notify(t("The club night is over and its host has closed."), timeout=10)
            return
        if closed.reason == LinkEnd.HOST_BYE:
            self._host_closed(describe_host_bye(closed.params))
            return
        reason = describe_link_end(closed.reason, closed.params) or t("the host closed the connection")
        sentence = t("The club night is lost: {reason}", reason=reason.rstrip("."))
        if self.start_request is not None:
            self.failure, self.failure_code = sentence, 1
            self.exit()
            return
        self.notify(sentence, severity="error", timeout=10)
        self.call_later(self.leave_club)

    async def leave_club(self) -> None:
        """Leave the club night (and the table we sit at): back to the menu, or out from the shell."""
        club, self.club = self.club, None
        await self._close_link()
        self.workers.cancel_group(self, "seat")
        if club is not None:
            await club.link.close()
        self.workers.cancel_group(self, "link")
        self.game = None
        self.hosted_at = None
        if self.start_request is not None:
            self.exit()
            return
        self._pop_to_menu()
        if not self._in_menu():
            self._open_menu()

    def table_to_go_back_to(self) -> str | None:
        """The table of this round whose seat we left while its match goes on (None: none)."""
        club = self.club
        drawn = club.model.club_draw if club is not None else None
        roster = club.model.club if club is not None else None
        if self.link is not None or drawn is None or drawn.table is None or roster is None:
            return None
        table = next((table for table in roster.tables if table.name == drawn.table), None)
        if table is None or roster.round != drawn.round or table.state != TableState.PLAYING:
            return None
        return drawn.table

    def go_back_to_table(self) -> None:
        """Take our seat of this round back (its token still holds it; the computer covered it)."""
        club = self.club
        drawn = club.model.club_draw if club is not None else None
        if drawn is None or self.table_to_go_back_to() is None:
            return
        self.run_worker(self._take_seat(drawn, back=True), group="club", exit_on_error=False)

    def action_club_standings(self) -> None:
        """The club's standings over the table (F2): live, during the round as between rounds."""
        from .screens.club_base import ClubScreen
        from .screens.club_standings import StandingsOverlay

        if self.club is None or isinstance(self.screen, ClubScreen | StandingsOverlay):
            return
        self.push_screen(StandingsOverlay())

    async def start_round(self) -> None:
        """(The organiser.) Draw the night's next round."""
        club = self.club
        if club is not None and club.organiser_key is not None:
            await club.link.start_round(club.organiser_key)

    async def close_table(self, table: str) -> None:
        """(The organiser.) Close the round's late table ``table``: its score as it stands counts."""
        club = self.club
        if club is not None and club.organiser_key is not None:
            await club.link.close_table(club.organiser_key, table)

    def _pop_to_menu(self) -> None:
        """Close every screen above the main menu (or above the first screen, started from the shell)."""
        while len(self.screen_stack) > 1 and not self._in_menu():
            self.pop_screen()

    def _open_menu(self) -> None:
        from .screens.menu import MainMenuScreen  # with the forms it opens: a game from the shell needs none

        self._menu = MainMenuScreen()
        self.push_screen(self._menu)

    def _in_menu(self) -> bool:
        """The main menu is on top."""
        return self._menu is not None and self.screen is self._menu

    async def send_action(self, action: Action) -> None:
        if self.link is not None:
            await self.link.send_action(action)

    async def send_chat(self, text: str) -> None:
        if self.link is not None:
            await self.link.chat(text)

    async def send_ready(self) -> None:
        if self.link is not None:
            await self.link.ready()

    def show_rules_and_keys(self) -> None:
        from .screens.rules_keys import RulesKeysScreen  # (when asked for)

        self.push_screen(RulesKeysScreen())

    def show_match_over(self, view: GameView) -> None:
        """The final score over the finished table (from the table's Enter once the match is won)."""
        from .screens.match_over import MatchOverScreen  # (what a match's end needs, when it ends)

        if not isinstance(self.screen, MatchOverScreen):
            self.push_screen(face_of(view.rules).match_over()(view))

    def tell(self, text: Wording, severity: SeverityLevel = "information", *, status: bool = True) -> None:
        """A notice for the player: on the table's status line (``status``) and log when the table
        shows, else a toast."""
        table = self._table_screen()
        if table is not None and table.is_attached and (self.screen is table or not status):
            table.say(text, status=status)
        else:
            self.notify(text(), severity=severity)

    # -- what the link reports -----------------------------------------------------------

    def _showing(self) -> bool:
        """False once the app is closing: the link's last messages then go unread."""
        return self.is_running and bool(self.screen_stack) and not self._exiting

    def _capicu_screens(self) -> list[CapicuScreen[Any]]:
        return [screen for screen in self.screen_stack if isinstance(screen, CapicuScreen)]

    @property
    def table(self) -> TableModel | None:
        """The table's one model (the client's), while a game runs."""
        return self.game.table if self.game is not None else None

    def _table_screen(self) -> TableScreen[Any] | None:
        return next((s for s in self.screen_stack if isinstance(s, TableScreen)), None)

    def on_host_ready(self, message: HostReady) -> None:
        if self._showing() and self.game is not None:
            self.hosted_at = Hosting(message.address, message.port, message.code, message.announced,
                                     club=message.club)

    def on_asking_host(self, message: AskingHost) -> None:
        if not self._showing():
            return
        if self._lobby is not None and self.screen is self._lobby:  # not a toast: it would linger
            self._lobby.set_status(t("Your seat is held for you: asking the host to give it back..."))
        else:
            self.notify(t("Your seat is held for you: asking the host to give it back..."), timeout=10)

    def on_rejoin_asked(self, message: RejoinAsked) -> None:
        from .screens.rejoin_request import RejoinRequestScreen  # (only a host is asked)

        if not self._showing():
            return
        link = self.link

        def answered(allow: bool | None) -> None:
            if link is not None:
                link.answer_rejoin(message.request_id, bool(allow))

        self.push_screen(RejoinRequestScreen(message.request_id, message.seat, message.name), answered)

    def on_rejoin_settled(self, message: RejoinSettled) -> None:
        from .screens.rejoin_request import RejoinRequestScreen

        for screen in list(self.screen_stack):
            if isinstance(screen, RejoinRequestScreen) and screen.request_id == message.request_id:
                screen.dismiss(None)

    def on_model_changed(self, message: ModelChanged) -> None:
        """The model took a message: what is the App's to do (open, close screens), then tell the screens."""
        if not self._showing() or self.game is None:
            return
        change = message.change
        taken = change.message
        if isinstance(taken, GameSnapshot | Update) and self._table_screen() is None:
            view = taken.view
            # Each game its table (`tui.games`): the Draw family's line of play, Mexican Train's trains.
            table = face_of(view.rules).table(view)
            in_lobby = self._lobby is not None and self.screen is self._lobby
            self.switch_screen(table) if in_lobby else self.push_screen(table)
            self.call_after_refresh(gc.enable)  # (paused while the first screen loads: `on_ready`)
        elif isinstance(taken, Chat) and not any(isinstance(s, TableScreen) or s is self._lobby
                                                 for s in self.screen_stack):
            self.notify(t("{name}: {text}", name=taken.name, text=taken.text))
        elif isinstance(taken, MatchRecorded) and self.table is not None and self.table.history_problem:
            # A toast, as when the hosting side meets it (tui/link.py): it is about a file, not the table.
            problem = self.table.history_problem
            self.notify(describe_history_problem(problem.code, problem.values), severity="warning",
                        timeout=10)
        elif isinstance(taken, Error) and not taken.fatal:
            code = taken.code
            self.tell(lambda: describe_host_error(code), severity="warning")
        elif isinstance(taken, Reconnecting):
            from .screens.reconnecting import ReconnectingScreen  # (when the link drops)

            if not any(isinstance(s, ReconnectingScreen) for s in self.screen_stack):
                self.push_screen(ReconnectingScreen(taken))
        elif isinstance(taken, Reconnected):
            from .screens.reconnecting import ReconnectingScreen

            for screen in list(self.screen_stack):
                if isinstance(screen, ReconnectingScreen):
                    screen.dismiss()
            # Said in the log only: the status line says what to do now (it may be our turn).
            self.tell(later("Back at the table."), status=False)
        elif isinstance(taken, Closed) and taken.reason == LinkEnd.HOST_BYE:
            self._host_closed(describe_host_bye(taken.params))
            return
        elif isinstance(taken, Closed):
            # (A fatal error's own words are these: the client ends with its code.)
            reason = describe_link_end(taken.reason, taken.params) or t("the host closed the connection")
            gone = seat_gone(taken)
            sentence = reason if gone else (
                t("The table refused: {reason}", reason=reason) if taken.reason == LinkEnd.REFUSED else None)
            self._fail(reason, sentence=sentence, seat_gone=gone)
            return
        for screen in self._capicu_screens():
            screen.model_changed(change)

    def _host_closed(self, sentence: str) -> None:
        """The host ended the game on purpose: the game ends cleanly, saying so (not as a failure)."""
        if self.club is not None and self.link is not None:
            # A table of the club night closed: back to the club's standings.
            self.notify(sentence, timeout=10)
            self.call_later(self.leave_game)
            return
        if self.start_request is not None:
            self.farewell = sentence
            self.exit()
            return
        self.notify(sentence, timeout=10)
        self.call_later(self.leave_game)

    def on_link_failed(self, message: LinkFailed) -> None:
        if not self._showing():
            return
        club = self._club_at_the_address(message)
        if club is not None:
            self.call_later(self._join_the_club, club)
            return
        reason = message.reason or t("the host closed the connection")
        sentence = None
        request = self.game.request if self.game is not None else None
        club_night = isinstance(request, JoinGame) and request.club
        if message.needs_code and self.start_request is not None:
            sentence = (t("This club night needs a join code: add --code CODE.") if club_night
                        else t("This table needs a join code: add --code CODE."))
        elif message.needs_code:
            sentence = (t("This club night needs a join code: type it in the Join code field.") if club_night
                        else t("This table needs a join code: type it in the Join code field."))
        elif message.refused:
            sentence = t("The table refused: {reason}", reason=reason)
        self._fail(reason, sentence=sentence)

    def _club_at_the_address(self, failed: LinkFailed) -> JoinGame | None:
        """The join to the club night at the address a table's join reached (None: it was no club's).

        Every table host has its table "main"; a club night's host has none, only its club (and the
        round's tables), so its "no such table" to a plain join (``capicu join HOST:PORT``, or an
        address typed in the Join form) says the address is a club night's: the person meant to join
        it, as ``capicu club --join HOST:PORT`` does. A seat key is for one table's seat: no club
        night is joined with one.
        """
        request = self.game.request if self.game is not None else None
        if not failed.no_table or not isinstance(request, JoinGame) or request.club or request.seat_key:
            return None
        return msgspec.structs.replace(request, club=True)

    async def _join_the_club(self, request: JoinGame) -> None:
        """Join the club night ``request`` names, in place of the table's join that found it."""
        await self._close_link()
        if self._lobby is not None and self.screen is self._lobby:
            await self.pop_screen()
        self._lobby = None
        self.start_game(request)

    def on_match_lost(self, message: MatchLost) -> None:
        if self._showing():
            self.tell(later("The host restarted without your last match: it is lost. This is its new one."),
                      severity="warning")

    def _fail(self, reason: str, *, sentence: str | None = None, seat_gone: bool = False) -> None:
        """The game is over for us: from the shell, exit with the reason; from the menu, say it.

        ``sentence``: what to say when the match had not begun, when it is more than
        "Could not reach the table" (the table was reached, and refused us). ``seat_gone``:
        the host said our seat is not held there (its match is lost): coming back cannot work.
        """
        if self.club is not None:
            # The seat's table was lost or would not have us: said, and back to the club's standings.
            self.notify(t("Your table: {reason}", reason=sentence or reason), severity="error", timeout=10)
            self.call_later(self.leave_game)
            return
        table = self.table
        started = table is not None and table.view is not None
        if self.start_request is not None and not started:
            self.failure = sentence or t("Could not reach the table: {reason}", reason=reason)
            self.exit()
            return
        if self.start_request is not None:
            # Never silently: the shell gets one line and a non-zero code.
            lost = (table is not None and table.closed_while_reconnecting and self.game is not None
                    and isinstance(self.game.request, JoinGame))
            if seat_gone:
                # The host answered that the seat is not held: coming back cannot work, say only why.
                self.failure = reason
            elif lost:
                self.failure = t("The table is gone: {reason}. Your seat is saved: run the same join command "
                                 "to take it back when the host is up again.", reason=reason.rstrip("."))
            else:
                self.failure = t("Connection lost: {reason}", reason=reason.rstrip("."))
            self.failure_code = 1
            self.exit()
            return
        if started:
            text = t("Connection lost: {reason}", reason=reason)
        else:
            text = sentence or t("Could not reach the table: {reason}", reason=reason)
        self.notify(text, severity="error", timeout=8)
        self.call_later(self.leave_game)

    def exit(
        self, result: None = None, return_code: int = 0, message: RenderableType | None = None
    ) -> None:
        self._exiting = True
        super().exit(result, return_code, message)

    def terminal_gone(self) -> None:
        """Our terminal hung up: nobody can see or play; end as a dropped connection would."""
        self.hung_up = True
        self.exit()

    async def on_unmount(self) -> None:
        self._exiting = True
        if self.link is not None:
            await self.link.close(leaving=not self.hung_up)
        if self.club is not None:
            await self.club.link.close(leaving=not self.hung_up)


#: A message pump of no app: its public `app` property is Textual's own record of the app being run
#: in the calling task (each SSH session's app has its own), kept per task by Textual itself.
_ANY_PUMP = MessagePump()


def _language_of_active_app() -> Language | None:
    """The language of the app being run in this task (each SSH session's app has its own)."""
    try:
        app = _ANY_PUMP.app
    except NoActiveAppError:
        return None
    return app.language if isinstance(app, CapicuApp) else None


set_language_source(_language_of_active_app)
