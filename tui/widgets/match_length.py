"""How long a match is, on a setup form: the rows of their own that core/rules.py's `FORM_ROWS` declare.

The points to win (a number typed, empty for the preset's) or Mexican Train's rounds (a choice in
words, the preset's first), each on a labelled row, the other games' rows hidden. The table's setup
form and the club organiser's form both lay them in their grid (a label and its field a row)::

    yield from match_length_rows("mexican-train", compact=True)   # in the form's compose
    show_match_length(form, "fives-and-threes", new_game=True)      # another game chosen
    rules = with_match_length(form, preset, rules)                  # ValueError, RulesError: bad points
"""

from __future__ import annotations

from typing import Any

import msgspec
from capicu.core import Rules
from capicu.core.rules import FORM_ROWS, OptionKind, RuleOption
from capicu.tui.widgets.house_rules import house_id, offered
from capicu.tui.words.describe_rules import FORM_ROW_CHOICES, FORM_ROW_LABELS
from capicu.tui.words.messages import t
from textual.app import ComposeResult
from textual.widget import Widget
from textual.widgets import Input, Label, Select


def row_choices(option: RuleOption, preset: str) -> list[tuple[str, object]]:
    """A choice option's values in words ("13 rounds, one per double"), the preset's own first; for a
    game ``preset`` is not (the row hidden), as they are typed."""
    if not offered(option, preset):
        return list(option.choices)
    rules = Rules.preset_named(preset)
    words = FORM_ROW_CHOICES[option.name]
    choices = [(words(msgspec.structs.replace(rules, **{option.field: value})), value)
               for _, value in option.choices]
    default = getattr(rules, option.field)
    choices.sort(key=lambda choice: choice[1] != default)  # stable: the rest keep their order
    return choices


def row_placeholder(option: RuleOption, preset: str) -> str:
    """What a number left empty is: the preset's (its target for the fewest players)."""
    if not offered(option, preset):
        return ""
    rules = Rules.preset_named(preset)
    if option.field == "target":
        return str(rules.target_for(rules.min_players))
    return str(getattr(rules, option.field))


def match_length_rows(preset: str, *, compact: bool = False) -> ComposeResult:
    """Each row's label and field, for a form's grid: those of games other than ``preset``'s hidden."""
    for option in FORM_ROWS:
        hidden = not offered(option, preset)
        field_id = house_id(option)
        label = Label(t(FORM_ROW_LABELS[option.name]), id=f"{field_id}-label")
        yield label.set_class(hidden, "-not-this-game")
        if option.kind is OptionKind.CHOICE:
            choices = row_choices(option, preset)
            field: Widget = Select(choices, value=choices[0][1], allow_blank=False, compact=compact,
                                   id=field_id)
        else:
            field = Input(placeholder=row_placeholder(option, preset), id=field_id, type="integer",
                          compact=compact)
        yield field.set_class(hidden, "-not-this-game")


def show_match_length(form: Widget, preset: str, *, new_game: bool) -> None:
    """The rows of ``preset``'s game in ``form``, a number's placeholder the preset's; for a ``new_game``
    each choice at the preset's value again (another preset of the same game keeps what was chosen)."""
    for option in FORM_ROWS:
        field_id = house_id(option)
        field = form.query_one(f"#{field_id}")
        if isinstance(field, Input):
            field.placeholder = row_placeholder(option, preset)
        if not new_game:
            continue
        hidden = not offered(option, preset)
        form.query_one(f"#{field_id}-label", Label).set_class(hidden, "-not-this-game")
        field.set_class(hidden, "-not-this-game")
        if isinstance(field, Select):
            choices = row_choices(option, preset)
            field.set_options(choices)
            field.value = choices[0][1]


def with_match_length(form: Widget, preset: str, rules: Rules) -> Rules:
    """``rules`` played as long as ``form``'s rows say: the points typed (none: the preset's), the
    rounds chosen. ValueError or RulesError when the points typed are not a whole number from 1 up."""
    chosen: dict[str, Any] = {}
    for option in FORM_ROWS:
        if not offered(option, preset):
            continue
        field = form.query_one(f"#{house_id(option)}")
        if isinstance(field, Select):
            chosen[option.field] = field.value
        elif isinstance(field, Input) and field.value.strip():
            chosen[option.field] = int(field.value.strip())
    return msgspec.structs.replace(rules, **chosen)


__all__ = ["match_length_rows", "row_choices", "row_placeholder", "show_match_length", "with_match_length"]
