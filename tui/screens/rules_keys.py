"""The rules of the game being played, written from the engine's settings, and every key."""

from __future__ import annotations

from typing import ClassVar

from capicu.core import PRESET_NAMES, Rules
from capicu.tui.describe_rules import describe_rules
from capicu.tui.messages import add_messages, t
from capicu.tui.screens.base import CapicuScreen
from capicu.tui.screens.table import TableScreen
from capicu.tui.widgets.hand_view import HandView
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.widgets import Footer, Select, Static

add_messages({
    "rules.title": "Rules: {preset}, {players} players",
    "rules.keys": "Keys at the table",
    "rules.key_line": "{key:>16}  {what}",
    "rules.end_keys": "When a tile fits both ends:",
    "rules.other_keys": "Anywhere: Ctrl+P opens the command palette (themes), Ctrl+Q quits.",
})


def binding_lines(bindings: list[BindingType]) -> list[str]:
    """Each binding as "keys  what it does" (for the rules and keys screen)."""
    lines = []
    for item in bindings:
        if not isinstance(item, Binding) or not item.description:
            continue
        keys = " / ".join(k.strip() for k in item.key.split(","))
        lines.append(t("rules.key_line", key=keys, what=item.description))
    return lines


class RulesKeysScreen(CapicuScreen[None]):
    """Reads the rules of the match at hand (or of a chosen preset from the menu)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q", "back", t("key.back"), key_display="esc/q"),
    ]

    def _rules_in_play(self) -> tuple[Rules, int] | None:
        game = self.capicu.game
        if game is not None and game.view is not None:
            return game.view.rules, game.view.players
        return None

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="rules-box"):
            if self._rules_in_play() is None:
                yield Select([(p, p) for p in PRESET_NAMES], value=PRESET_NAMES[0],
                             allow_blank=False, id="rules-preset")
            yield Static("", id="rules-title", classes="screen-title")
            yield Static("", id="rules-text", markup=False)
            yield Static(t("rules.keys"), classes="screen-title")
            yield Static(self._keys_text(), id="rules-keys", markup=False)
        yield Footer()

    def _keys_text(self) -> str:
        lines = [
            *binding_lines(list(HandView.BINDINGS)),
            *binding_lines([b for b in TableScreen.BINDINGS if b not in TableScreen.END_BINDINGS]),
            "",
            t("rules.end_keys"),
            *binding_lines(TableScreen.END_BINDINGS),
            "",
            t("rules.other_keys"),
        ]
        return "\n".join(lines)

    def on_mount(self) -> None:
        in_play = self._rules_in_play()
        if in_play is None:
            self._show(Rules.preset_named(PRESET_NAMES[0]), None)
        else:
            self._show(*in_play)

    def on_select_changed(self, event: Select.Changed) -> None:
        if isinstance(event.value, str):
            self._show(Rules.preset_named(event.value), None)

    def _show(self, rules: Rules, players: int | None) -> None:
        count = players if players is not None else rules.min_players
        self.query_one("#rules-title", Static).update(
            t("rules.title", preset=rules.preset, players=count)
        )
        sentences = describe_rules(rules, count)
        self.query_one("#rules-text", Static).update("\n".join(f"- {line}" for line in sentences))

    def action_back(self) -> None:
        self.dismiss()
