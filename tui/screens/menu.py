"""The main menu: play alone, host, join, rules and keys, settings, quit."""

from __future__ import annotations

from typing import ClassVar

from capicu.tui.messages import add_messages, t
from capicu.tui.screens.base import CapicuScreen
from capicu.tui.screens.host_setup import HostSetupScreen
from capicu.tui.screens.join_form import JoinFormScreen
from capicu.tui.screens.rules_keys import RulesKeysScreen
from capicu.tui.screens.settings import SettingsScreen
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import Footer, OptionList, Static
from textual.widgets.option_list import Option

add_messages({
    "menu.title": "capicu",
    "menu.subtitle": "Dominoes for the terminal: the Puerto Rican Drawing Game and its relatives.",
    "menu.play": "Play against the computer",
    "menu.host": "Host a game",
    "menu.join": "Join a game",
    "menu.rules": "Rules and keys",
    "menu.settings": "Settings",
    "menu.quit": "Quit",
    "key.play": "Play",
    "key.host": "Host",
    "key.join": "Join",
    "key.rules": "Rules",
    "key.settings": "Settings",
    "key.quit": "Quit",
})

_ITEMS = ("play", "host", "join", "rules", "settings", "quit")


class MainMenuScreen(CapicuScreen[None]):
    """Where ``capicu`` alone starts."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("p", "choose('play')", t("key.play")),
        Binding("h", "choose('host')", t("key.host")),
        Binding("j", "choose('join')", t("key.join")),
        Binding("r,question_mark", "choose('rules')", t("key.rules")),
        Binding("s", "choose('settings')", t("key.settings")),
        Binding("q,escape", "choose('quit')", t("key.quit")),
    ]

    def compose(self) -> ComposeResult:
        with Vertical(id="menu-box"):
            yield Static(t("menu.title"), id="menu-title")
            yield Static(t("menu.subtitle"), id="menu-subtitle")
            yield OptionList(
                *(Option(t(f"menu.{item}"), id=item) for item in _ITEMS), id="menu-options"
            )
        yield Footer()

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
        elif item == "rules":
            self.app.push_screen(RulesKeysScreen())
        elif item == "settings":
            self.app.push_screen(SettingsScreen())
        elif item == "quit":
            self.app.exit()

