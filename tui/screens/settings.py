"""Settings: your name, the language, the theme, how tiles are drawn, ASCII mode. Saved as you change them.

The themes offered are capicu's and the user's own; Textual's built-in ones only where they pass
the contrast test (`capicu.tui.prefs.themes.READABLE_TEXTUAL_THEMES`).
"""

from __future__ import annotations

from typing import ClassVar

from capicu.net.protocol import NAME_LIMIT
from capicu.tui.prefs.themes import offered_theme_names
from capicu.tui.screens.base import SCREENS_CSS, CapicuScreen
from capicu.tui.widgets.tiles import TileStyle
from capicu.tui.words.messages import LANGUAGES, N_, t
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Grid, Vertical
from textual.widgets import Checkbox, Footer, Input, Label, Select, Static


def tile_style_name(style: TileStyle) -> str:
    """How a tile style is offered in Settings."""
    names = {
        TileStyle.AUTO: t("Automatic (pip grid on large screens)"),
        TileStyle.COMPACT: t("Compact [3|5]"),
        TileStyle.BOXED: t("Boxed digits"),
        TileStyle.PIPS: t("Pip grid (large screens)"),
        TileStyle.GLYPH: t("Unicode domino glyphs"),
    }
    return names.get(style, style.value)


class SettingsScreen(CapicuScreen[None]):
    """Every change is applied at once and remembered in the config folder."""

    CSS_PATH = SCREENS_CSS

    BINDINGS: ClassVar[list[BindingType]] = [
        # Not ctrl+b: it is tmux's prefix and never reaches the app inside tmux.
        Binding("escape", "back", N_("Back"), key_display="esc"),
    ]

    def compose(self) -> ComposeResult:
        app = self.capicu
        themes = offered_theme_names(app.available_themes)
        if app.theme not in themes:  # a theme the app fell back on is still shown as chosen
            themes.append(app.theme)
        with Vertical(id="settings-box", classes="form-box"):
            yield Static(t("Settings"), classes="screen-title")
            with Grid(classes="form-grid"):
                yield Label(t("Your name"))
                yield Input(value=app.player_name(None), id="name", max_length=NAME_LIMIT)
                yield Label(t("Language"))
                # Each language in its own words: a reader who cannot read this one still finds theirs.
                yield Select([(name, code) for code, name in LANGUAGES.items()], value=app.language.code,
                             allow_blank=False, id="language")
                yield Label(t("Theme"))
                yield Select([(name, name) for name in themes], value=app.theme,
                             allow_blank=False, id="theme")
                yield Label(t("Tiles"))
                yield Select([(tile_style_name(style), style.value) for style in TileStyle],
                             value=app.tile_style.value,
                             allow_blank=False, id="tile-style")
                yield Label("")
                yield self.capicu.ascii_checkbox(t("ASCII only (for terminals that garble lines)"),
                                                 value=app.ascii_mode, id="ascii")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#name", Input).focus()

    def on_select_changed(self, event: Select.Changed) -> None:
        app = self.capicu
        if event.select.id == "theme" and isinstance(event.value, str) and event.value != app.theme:
            app.theme = event.value  # remembered by the App's theme watcher
        elif event.select.id == "tile-style" and isinstance(event.value, str):
            app.set_tile_style(event.value)
        elif event.select.id == "language" and isinstance(event.value, str):
            app.set_language(event.value)

    def on_checkbox_changed(self, event: Checkbox.Changed) -> None:
        self.capicu.set_ascii(event.value)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self._save_name()
        self.notify(t("Saved."))

    def _save_name(self) -> None:
        name = self.query_one("#name", Input).value.strip()
        if name:
            self.capicu.save_setting(name=name[:NAME_LIMIT])

    def action_back(self) -> None:
        self._save_name()
        self.dismiss()
