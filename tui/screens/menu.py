"""The main menu: play alone, host, join, replays, history, rules and keys, settings, quit."""

from __future__ import annotations

from typing import ClassVar

from capicu.tui.screens.base import CapicuScreen
from capicu.tui.screens.host_setup import HostSetupScreen
from capicu.tui.screens.join_form import JoinFormScreen
from capicu.tui.screens.rules_keys import RulesKeysScreen
from capicu.tui.screens.settings import SettingsScreen
from capicu.tui.words.messages import N_, t
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import Footer, OptionList, Static
from textual.widgets.option_list import Option

#: The menu's choices, in order.
_ITEMS = {
    "play": N_("Play against the computer"),
    "host": N_("Host a game"),
    "join": N_("Join a game"),
    "club": N_("Run a club night"),
    "replays": N_("Replays"),
    "history": N_("History"),
    "rules": N_("Rules and keys"),
    "settings": N_("Settings"),
    "quit": N_("Quit"),
}


class MainMenuScreen(CapicuScreen[None]):
    """Where ``capicu`` alone starts."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("p", "choose('play')", N_("Play")),
        Binding("h", "choose('host')", N_("Host")),
        Binding("j", "choose('join')", N_("Join")),
        # Not in the footer: a ninth key makes the Spanish footer 85 columns wide ("c Club" and a gap
        # take 7 more than the 78 of the eight); the menu's list names the choice.
        Binding("c", "choose('club')", N_("Club"), show=False),
        Binding("v", "choose('replays')", N_("Replays")),
        Binding("y", "choose('history')", N_("History")),
        Binding("r,question_mark", "choose('rules')", N_("Rules")),
        Binding("s", "choose('settings')", N_("Settings")),
        Binding("q,escape", "choose('quit')", N_("Quit")),
    ]

    def compose(self) -> ComposeResult:
        with Vertical(id="menu-box"):
            yield Static("capicu", id="menu-title")
            yield Static(t("Dominoes for the terminal: the Puerto Rican Drawing Game and its relatives."),
                         id="menu-subtitle")
            yield OptionList(
                *(Option(t(_ITEMS[item]), id=item) for item in _ITEMS), id="menu-options"
            )
        # Eight keys and the palette do not fit 80 columns: the palette is still ^p, said on the table.
        yield Footer(compact=True, show_command_palette=False)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if event.option.id:
            self.action_choose(event.option.id)

    def action_choose(self, item: str) -> None:
        if item == "play":
            self.app.push_screen(HostSetupScreen(solo=True))
        elif item == "host":
            self.app.push_screen(HostSetupScreen(solo=False))
        elif item == "join":
            self.app.push_screen(JoinFormScreen())
        elif item == "club":
            from capicu.tui.screens.club_setup import ClubSetupScreen  # loaded when asked for

            self.app.push_screen(ClubSetupScreen())
        elif item == "replays":
            self.capicu.open_replays()
        elif item == "history":
            # Loaded when asked for: its chart's plotting library costs the start ~20 ms.
            from capicu.tui.screens.history import HistoryScreen

            self.app.push_screen(HistoryScreen())
        elif item == "rules":
            self.app.push_screen(RulesKeysScreen())
        elif item == "settings":
            self.app.push_screen(SettingsScreen())
        elif item == "quit":
            self.app.exit()

