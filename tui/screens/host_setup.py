"""Set up a game: against the computer (solo) or hosted on the LAN for others to join."""

from __future__ import annotations

from typing import Any, ClassVar

import msgspec
from capicu.core import PRESET_NAMES, Rules, RulesError
from capicu.core.ai import LEVELS
from capicu.net.codes import new_join_code
from capicu.net.host.table import ConfigError, ConfigProblem
from capicu.net.protocol import CODE_LIMIT, DEFAULT_PORT
from capicu.net.store.journals import JournalFolder, JournalKind
from capicu.tui.cli.options import announce_for
from capicu.tui.game import HostGame, SoloGame, make_host_config
from capicu.tui.prefs.settings import journals_dir, records_dir
from capicu.tui.screens.base import SCREENS_CSS, CapicuScreen
from capicu.tui.widgets.house_rules import HouseRules, options_label
from capicu.tui.widgets.match_length import match_length_rows, show_match_length, with_match_length
from capicu.tui.words.describe import describe_rules_problem
from capicu.tui.words.describe_rules import game_title
from capicu.tui.words.messages import N_, t, tc, tn
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Grid, Horizontal, Vertical
from textual.widgets import Button, Footer, Input, Label, Select, Static


def level_name(level: str) -> str:
    """A computer level in words ("easy", "normal", "hard"); a level this list lacks, as it is named."""
    names = {
        "easy": tc("a computer level", "easy"),
        "normal": tc("a computer level", "normal"),
        "hard": tc("a computer level", "hard"),
    }
    return names.get(level, level)


#: The games the form offers: the drawing games, Mexican Train and Fives and Threes.
FORM_PRESETS = (*PRESET_NAMES, "mexican-train", "fives-and-threes")


class HostSetupScreen(CapicuScreen[None]):
    """The few choices that start a game; the rest are the preset's rules."""

    CSS_PATH = SCREENS_CSS

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s,f5", "start", N_("Start"), key_display="^s"),
        Binding("escape", "back", N_("Back"), key_display="esc"),
    ]

    def __init__(self, solo: bool) -> None:
        super().__init__()
        self.solo = solo
        #: The game chosen so far (the players offered follow it, also when the screen is built again).
        self.preset = PRESET_NAMES[0]

    def compose(self) -> ComposeResult:
        title = t("Play against the computer") if self.solo else t("Host a game on the network")
        with Vertical(id="setup-box", classes="form-box"):
            yield Static(title, classes="screen-title")
            with Grid(id="setup-grid", classes="form-grid " + ("solo" if self.solo else "hosted")):
                yield Label(t("Game"))
                yield Select([(game_title(p), p) for p in FORM_PRESETS], value=self.preset,
                             allow_blank=False, id="preset")
                yield Label(t("Players"))
                yield Select(self._player_choices(self.preset), allow_blank=False, id="players")
                if not self.solo:
                    yield Label(t("Computer seats"))
                    yield Select([(str(n), n) for n in range(0, 3)], value=0, allow_blank=False,
                                 id="computers")
                yield Label(t("Computer level"))
                yield Select([(level_name(lv), lv) for lv in LEVELS], value="normal",
                             allow_blank=False, id="level")
                # The house rules of the drawing games (docs/RULES.md), each off by default, or the
                # chosen game's own options (core/rules.py's `FORM_OPTIONS`), the preset's value first,
                # on rows of one line (compact selects), as many a row as fit, so that the form
                # still fits 80x24 (so each choice is a dozen letters).
                yield Label(options_label(self.preset), id="house-label")
                yield HouseRules(self.preset)
                # How long the match is, as the game counts it (core/rules.py's `FORM_ROWS`): the
                # points to win (empty: the preset's), or Mexican Train's rounds.
                yield from match_length_rows(self.preset)
                if not self.solo:
                    yield Label(t("Join code"))
                    # Upper case from the unmistakable alphabet, as every join code is shown.
                    yield Input(value=new_join_code(), id="code", max_length=CODE_LIMIT)
                    yield Label(t("Port"))
                    yield Input(value=str(DEFAULT_PORT), id="port", type="integer")
            with Horizontal(classes="form-buttons"):
                yield Button(t("Start"), id="start", variant="primary")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#preset", Select).focus()

    def _show_options(self) -> None:
        """The options row and the match's length offer the chosen game's (each at the preset's value
        again, for a new game)."""
        new_game = self.query_one(HouseRules).show_game(self.preset)
        show_match_length(self, self.preset, new_game=new_game)
        if new_game:
            self.query_one("#house-label", Label).update(options_label(self.preset))

    @staticmethod
    def _player_choices(preset: str) -> list[tuple[str, int]]:
        rules = Rules.preset_named(preset)
        return [(tn("{count} player", "{count} players", n), n)
                for n in range(rules.min_players, rules.max_players + 1)]

    def on_select_changed(self, event: Select.Changed) -> None:
        if event.select.id == "preset" and isinstance(event.value, str):
            self.preset = event.value
            players = self.query_one("#players", Select)
            players.set_options(self._player_choices(event.value))
            self._show_options()
        if event.select.id in ("preset", "players") and not self.solo:
            count = self.query_one("#players", Select).value
            if isinstance(count, int):
                self.query_one("#computers", Select).set_options(
                    [(str(n), n) for n in range(0, count - 1)]
                )

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "start":
            self.action_start()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.action_start()

    def action_back(self) -> None:
        self.dismiss()

    def _value(self, widget_id: str) -> Any:
        return self.query_one(f"#{widget_id}", Select).value

    def action_start(self) -> None:
        preset = str(self._value("preset"))
        players = int(self._value("players"))
        level = str(self._value("level"))
        try:
            rules = with_match_length(self, preset, Rules.preset_named(preset))
        except (ValueError, RulesError):
            self.notify(t("Points to win must be a whole number from 1 up."), severity="error")
            return
        try:
            rules = msgspec.structs.replace(rules, **self.query_one(HouseRules).chosen(preset))
        except RulesError as exc:  # a house rule this game cannot take, said in one sentence
            self.notify(describe_rules_problem(exc.code, exc.params), severity="error")
            return
        if self.solo:
            self.capicu.start_game(SoloGame(rules=rules, players=players, level=level))
            return
        computers = int(self._value("computers"))
        port_text = self.query_one("#port", Input).value.strip()
        try:
            port = int(port_text)
            if not 1 <= port <= 65535:
                raise ValueError(port_text)
        except ValueError:
            self.notify(t("The port must be a number from 1 to 65535."), severity="error")
            return
        code = self.query_one("#code", Input).value.strip() or None
        try:
            config = make_host_config(
                rules=rules, players=players, computers=computers, level=level,
                bind=None, port=port, code=code, seed=None, pace=0.7,
                journals=JournalFolder(journals_dir(), JournalKind.HOST), records=records_dir(),
                announce=announce_for(self.capicu.player_name(None)),
            )
        except ConfigError as exc:  # the form's choices leave only the typed code to go wrong
            if exc.code is not ConfigProblem.JOIN_CODE:
                raise
            self.notify(t("The join code must be 1 to {limit} letters or digits.", limit=CODE_LIMIT),
                        severity="error")
            return
        self.capicu.start_game(HostGame(config=config))
