"""The organiser's form: a club night's game, format, rounds, each match's length (its points to win
or Mexican Train's rounds), house rules, tables, byes, name, code and port.

What ``capicu club`` takes as options, on one screen that fits 80x24 (each choice
one line high). The night's settings are checked by core's `ClubConfig`; a choice
that cannot be is said in one notice naming it, and nothing starts.
"""

from __future__ import annotations

from typing import Any, ClassVar

import msgspec
from capicu.core import PRESET_NAMES, Rules, RulesError
from capicu.core.club import MOST_ROUNDS, ByeRule, ClubConfig, ClubError, ClubFormat
from capicu.core.rules import ALL_PRESET_NAMES
from capicu.net.codes import new_join_code
from capicu.net.protocol import CODE_LIMIT, DEFAULT_PORT
from capicu.tui.cli.club import DEFAULT_ROUNDS, default_table_size
from capicu.tui.game import HostClub
from capicu.tui.games import FACES
from capicu.tui.screens.base import SCREENS_CSS, CapicuScreen
from capicu.tui.widgets.house_rules import HouseRules, options_label
from capicu.tui.widgets.match_length import match_length_rows, show_match_length, with_match_length
from capicu.tui.words.describe import describe_rules_problem
from capicu.tui.words.describe_club import bye_name, describe_club_problem, format_name
from capicu.tui.words.describe_rules import game_title
from capicu.tui.words.messages import N_, t, tn
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Grid, Horizontal, Vertical
from textual.widgets import Button, Footer, Input, Label, Select, Static


def club_presets() -> list[str]:
    """The games a club night can be played in: those with a table screen for its players."""
    from capicu.core.games import game_of

    return [name for name in ALL_PRESET_NAMES if game_of(Rules.preset_named(name)).name in FACES]


class ClubSetupScreen(CapicuScreen[None]):
    """The choices that start a club night; the game's other rules are its preset's."""

    CSS_PATH = SCREENS_CSS

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s,f5", "start", N_("Start"), key_display="^s"),
        Binding("escape", "back", N_("Back"), key_display="esc"),
    ]

    def __init__(self) -> None:
        super().__init__()
        #: The game chosen so far (the table sizes offered follow it).
        self.preset = PRESET_NAMES[0]

    def compose(self) -> ComposeResult:
        rules = Rules.preset_named(self.preset)
        with Vertical(id="club-setup-box", classes="form-box"):
            yield Static(t("Run a club night"), classes="screen-title")
            with Grid(id="club-setup-grid", classes="form-grid"):
                yield Label(t("Game"))
                yield Select([(game_title(p), p) for p in club_presets()], value=self.preset,
                             allow_blank=False, compact=True, id="preset")
                yield Label(t("Players a table"))
                yield Select(self._sizes(self.preset), value=default_table_size(rules), allow_blank=False,
                             compact=True, id="table-size")
                yield Label(t("Format"))
                yield Select([(format_name(f.value), f.value) for f in ClubFormat],
                             value=ClubFormat.SWISS.value, allow_blank=False, compact=True, id="format")
                yield Label(t("Night's rounds"))
                yield Input(placeholder=str(DEFAULT_ROUNDS), id="club-rounds", type="integer", compact=True)
                # How long each match is, as the table's setup form asks: the points to win, or
                # Mexican Train's rounds.
                yield from match_length_rows(self.preset, compact=True)
                # The game's house rules (or its own options), as the table's setup form offers them.
                yield Label(options_label(self.preset), id="house-label")
                yield HouseRules(self.preset)
                yield Label(t("Byes"))
                yield Select([(bye_name(b.value), b.value) for b in ByeRule], value=ByeRule.COMPUTER.value,
                             allow_blank=False, compact=True, id="bye")
                yield Label(t("Night's name"))
                yield Input(placeholder=t("(none)"), id="night-name", compact=True, max_length=60)
                yield Label(t("Join code"))
                yield Input(value=new_join_code(), id="code", max_length=CODE_LIMIT, compact=True)
                yield Label(t("Port"))
                yield Input(value=str(DEFAULT_PORT), id="port", type="integer", compact=True)
            yield Static("", id="club-setup-hint", markup=False)
            with Horizontal(classes="form-buttons"):
                yield Button(t("Start"), id="start", variant="primary")
        yield Footer()

    def on_mount(self) -> None:
        super().on_mount()
        self.query_one("#preset", Select).focus()
        self._show_hint()

    @staticmethod
    def _sizes(preset: str) -> list[tuple[str, int]]:
        rules = Rules.preset_named(preset)
        return [(tn("{count} player", "{count} players", n), n)
                for n in range(rules.min_players, rules.max_players + 1)]

    def on_select_changed(self, event: Select.Changed) -> None:
        if event.select.id == "preset" and isinstance(event.value, str) and event.value != self.preset:
            self.preset = event.value
            rules = Rules.preset_named(event.value)
            sizes = self.query_one("#table-size", Select)
            sizes.set_options(self._sizes(event.value))
            sizes.value = default_table_size(rules)
            new_game = self.query_one(HouseRules).show_game(event.value)
            show_match_length(self, event.value, new_game=new_game)
            if new_game:
                self.query_one("#house-label", Label).update(options_label(event.value))
        self._show_hint()

    def _show_hint(self) -> None:
        """What the format chosen does, in one line under the form."""
        words = {
            ClubFormat.SWISS.value: t("Swiss: each round seats players by the standings, avoiding opponents "
                                      "already met."),
            ClubFormat.ROTATING.value: t("Rotating partners: each round gives everyone new partners (a "
                                         "partners' game at tables of 4)."),
            ClubFormat.ROUND_ROBIN.value: t("Round robin: everyone meets everyone once (a small field); as "
                                            "many rounds as it needs."),
        }
        chosen = self.query_one("#format", Select).value
        self.query_one("#club-setup-hint", Static).update(words.get(str(chosen), ""))

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "start":
            self.action_start()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.action_start()

    def action_back(self) -> None:
        self.dismiss()

    def _value(self, widget_id: str) -> Any:
        return self.query_one(f"#{widget_id}", Select).value

    def _number(self, widget_id: str) -> int | None:
        """A whole number typed in a field (None: left empty); ValueError for anything else."""
        text = self.query_one(f"#{widget_id}", Input).value.strip()
        return int(text) if text else None

    def request(self) -> HostClub | None:
        """The night the form describes, or None after saying in a notice what is wrong."""
        preset = str(self._value("preset"))
        rules = Rules.preset_named(preset)
        fmt = ClubFormat(str(self._value("format")))
        try:
            rounds = self._number("club-rounds")
        except ValueError:
            rounds = 0
        if rounds is None:
            rounds = MOST_ROUNDS if fmt is ClubFormat.ROUND_ROBIN else DEFAULT_ROUNDS
        try:
            rules = with_match_length(self, preset, rules)
        except (ValueError, RulesError):
            self.notify(t("Points to win must be a whole number from 1 up."), severity="error")
            return None
        try:
            rules = msgspec.structs.replace(rules, **self.query_one(HouseRules).chosen(preset))
        except RulesError as exc:  # house rules that cannot combine, said in one sentence
            self.notify(describe_rules_problem(exc.code, exc.params), severity="error")
            return None
        name = " ".join(self.query_one("#night-name", Input).value.split())
        try:
            club = ClubConfig(rules=rules, format=fmt, rounds=rounds,
                              table_size=int(self._value("table-size")), bye=ByeRule(str(self._value("bye"))),
                              name=name)
        except ClubError as exc:
            self.notify(describe_club_problem(exc.code, exc.params), severity="error")
            return None
        except RulesError as exc:
            self.notify(describe_rules_problem(exc.code, exc.params), severity="error")
            return None
        try:
            port = self._number("port")
            if port is None or not 1 <= port <= 65535:
                raise ValueError(port)
        except ValueError:
            self.notify(t("The port must be a number from 1 to 65535."), severity="error")
            return None
        code = self.query_one("#code", Input).value.strip() or None
        if code is not None and not code.isalnum():
            self.notify(t("The join code must be 1 to {limit} letters or digits.", limit=CODE_LIMIT),
                        severity="error")
            return None
        return HostClub(club=club, port=port, code=code)

    def action_start(self) -> None:
        request = self.request()
        if request is not None:
            self.capicu.start_game(request)
