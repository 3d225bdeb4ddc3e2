"""The rules of the game being played, written from the engine's settings, and every key."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import ClassVar

from capicu.core import PRESET_NAMES, Rules
from capicu.tui.games import face_of
from capicu.tui.screens.base import CapicuScreen
from capicu.tui.words.describe_rules import describe_rules, game_title
from capicu.tui.words.messages import N_, t, tc, tn
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.widgets import Footer, Select, Static


def binding_lines(bindings: list[BindingType], *, asides: Sequence[BindingType] = (),
                  aside: Callable[[str], str] = str) -> list[str]:
    """Each key once, as "keys  what it does": a key bound twice says both ("Enter  Play tile; Ready").

    Keys that do the same things share a line ("r / F1  Rules"); a binding in ``asides``
    (the choice of an end) says when it counts, as ``aside`` words it.
    """
    does: dict[str, list[str]] = {}
    for item in bindings:
        if not isinstance(item, Binding) or not item.description:
            continue
        what = t(item.description)
        if item in asides:
            what = aside(what)
        for key in (k.strip() for k in item.key.split(",")):
            if what not in does.setdefault(key, []):
                does[key].append(what)
    keys_for: dict[tuple[str, ...], list[str]] = {}
    for key, things in does.items():
        keys_for.setdefault(tuple(things), []).append(key)
    written = {done: " / ".join(key_name(key) for key in keys) for done, keys in keys_for.items()}
    width = max((len(keys) for keys in written.values()), default=0) + 1
    return [f"{keys:>{width}}  {list_separator_of_keys().join(done)}" for done, keys in written.items()]


def list_separator_of_keys() -> str:
    # TRANSLATORS: between the things one key does on the rules and keys screen: "Play tile; Ready".
    return tc("between the things one key does", "; ")


def key_name(key: str) -> str:
    """A key as its keycap reads ("←", "Enter"); a letter or digit as it is."""
    names = {
        "left": "←", "right": "→", "up": "↑", "down": "↓",
        "home": tc("a key", "Home"), "end": tc("a key", "End"), "enter": tc("a key", "Enter"),
        "escape": tc("a key", "Esc"), "question_mark": "?", "f1": "F1",
    }
    return names.get(key, key)


class RulesKeysScreen(CapicuScreen[None]):
    """Reads the rules of the match at hand (or of a chosen preset from the menu)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q", "back", N_("Back"), key_display="esc/q"),
    ]

    def _rules_in_play(self) -> tuple[Rules, int] | None:
        model = self.capicu.table
        if model is not None and model.view is not None:
            return model.view.rules, model.view.players
        return None

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="rules-box"):
            if self._rules_in_play() is None:
                yield Select([(game_title(p), p) for p in PRESET_NAMES], value=PRESET_NAMES[0],
                             allow_blank=False, id="rules-preset")
            yield Static("", id="rules-title", classes="screen-title")
            yield Static("", id="rules-text", markup=False)
            yield Static(t("Keys at the table"), classes="screen-title")
            yield Static("", id="rules-keys", markup=False)
        yield Footer()

    def _keys_text(self, rules: Rules, *, in_play: bool) -> str:
        """The keys of the game's own table (`TableScreen.key_lines`: from the bindings it declares)."""
        lines = face_of(rules).table.key_lines(rules if in_play else None)
        lines.append(t("Anywhere: Ctrl+P opens the command palette (themes, language), Ctrl+Q quits."))
        return "\n".join(lines)

    async def rebuild(self) -> None:
        await super().rebuild()
        self.on_mount()

    def on_mount(self) -> None:
        in_play = self._rules_in_play()
        if in_play is None:
            chosen = self.query_one("#rules-preset", Select).value
            self._show(Rules.preset_named(chosen if isinstance(chosen, str) else PRESET_NAMES[0]), None)
        else:
            self._show(*in_play)

    def on_select_changed(self, event: Select.Changed) -> None:
        if isinstance(event.value, str):
            self._show(Rules.preset_named(event.value), None)

    def _show(self, rules: Rules, players: int | None) -> None:
        count = players if players is not None else rules.min_players
        self.query_one("#rules-title", Static).update(
            tn("Rules: {game}, {count} player", "Rules: {game}, {count} players", count,
               game=game_title(rules.preset))
        )
        sentences = describe_rules(rules, count)
        self.query_one("#rules-text", Static).update("\n".join(f"- {line}" for line in sentences))
        self.query_one("#rules-keys", Static).update(self._keys_text(rules, in_play=players is not None))

    def action_back(self) -> None:
        self.dismiss()
