"""`HouseRules`: a setup form's row of the chosen game's options, one compact choice each.

The options are core/rules.py's declarations (`FORM_OPTIONS`): the drawing games' house rules
(docs/RULES.md), each off by default, or the chosen game's own options offered on a form, each at
its preset's value first. The table's setup form and the club organiser's form both use it::

    row = HouseRules("puerto-rican-drawing")     # yields a Select per option (those of other games hidden)
    row.show_game("mexican-train")               # another game chosen: its options, at its preset's values
    rules = msgspec.structs.replace(rules, **row.chosen("mexican-train"))  # RulesError: cannot combine

Its rows are one line high, as many as the game's options take with each column as wide as its
longest choice (each choice is a dozen letters: `HOUSE_CHOICES`), so that a form with it still fits
80x24: the drawing games' three on one row, Mexican Train's five on two.
"""

from __future__ import annotations

from typing import Any

import msgspec
from capicu.core import Rules
from capicu.core.rules import FORM_OPTIONS, OptionKind, RuleOption
from capicu.tui.words.describe_rules import HOUSE_CHOICES
from capicu.tui.words.messages import t
from textual.app import ComposeResult
from textual.containers import ItemGrid
from textual.widgets import Select


def house_id(option: RuleOption) -> str:
    """An option's choice on a form is named by its flag ("wild-blanks", "league-deal")."""
    return option.flag.removeprefix("--")


def offered(option: RuleOption, preset: str) -> bool:
    """Whether a form offers ``option`` for the game ``preset`` is."""
    return Rules.preset_named(preset).game in option.games


def house_choices(option: RuleOption, preset: str) -> list[tuple[str, object]]:
    """An option's choices in words, the preset's own first: off (False, or 0), then each value it takes."""
    values: list[object] = [False, True] if option.kind in (OptionKind.SWITCH, OptionKind.PAIR) else [
        0, *(value for _, value in option.choices)]
    choices = [(t(label), value) for label, value in zip(HOUSE_CHOICES[option.name], values, strict=True)]
    if offered(option, preset):
        default = getattr(Rules.preset_named(preset), option.field)
        choices.sort(key=lambda choice: choice[1] != default)  # stable: the rest keep their order
    return choices


def widest_choice(preset: str) -> int:
    """The longest of the choices in words of the options offered for the game ``preset`` is."""
    return max((len(label) for option in FORM_OPTIONS if offered(option, preset)
                for label, _ in house_choices(option, preset)), default=0)


#: The room a compact select takes beside its choice: its right padding, its arrow and the arrow's
#: padding, and its margin before the next one.
SELECT_ROOM = 4


def options_label(preset: str) -> str:
    """The row's label: "House rules" for a drawing game, else the game's "Options"."""
    house = any(option.house and offered(option, preset) for option in FORM_OPTIONS)
    return t("House rules") if house else t("Options")


class HouseRules(ItemGrid):
    """The chosen game's options (`FORM_OPTIONS`), a compact `Select` each, the other games' hidden."""

    def __init__(self, preset: str, *, id: str = "house-rules") -> None:
        super().__init__(id=id, min_column_width=widest_choice(preset) + SELECT_ROOM)
        self.preset = preset
        #: The game whose options are offered.
        self._game = Rules.preset_named(preset).game

    def compose(self) -> ComposeResult:
        for option in FORM_OPTIONS:
            choices = house_choices(option, self.preset)
            yield Select(choices, value=choices[0][1], allow_blank=False, compact=True,
                         id=house_id(option)).set_class(not offered(option, self.preset), "-not-this-game")

    def show_game(self, preset: str) -> bool:
        """Offer ``preset``'s game's options (each at the preset's value again, for a new game);
        another preset of the same game keeps what was chosen. Whether the game changed."""
        self.preset = preset
        game = Rules.preset_named(preset).game
        if game is self._game:
            return False
        self._game = game
        self.min_column_width = widest_choice(preset) + SELECT_ROOM
        for option in FORM_OPTIONS:
            select = self.query_one(f"#{house_id(option)}", Select)
            choices = house_choices(option, preset)
            select.set_options(choices)
            select.value = choices[0][1]
            select.set_class(not offered(option, preset), "-not-this-game")
        return True

    def chosen(self, preset: str) -> dict[str, Any]:
        """The rules' fields as chosen, for ``msgspec.structs.replace``: a house rule when set (its
        off is the rules' own), a game's option as chosen."""
        values = {option: self.query_one(f"#{house_id(option)}", Select).value
                  for option in FORM_OPTIONS if offered(option, preset)}
        return {option.field: value if option.on_form else value or msgspec.UNSET
                for option, value in values.items()}


__all__ = ["SELECT_ROOM", "HouseRules", "house_choices", "house_id", "offered", "options_label",
           "widest_choice"]
