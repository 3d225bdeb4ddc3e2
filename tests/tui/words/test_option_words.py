"""Every rule option core declares (RULE_OPTIONS) is worded by the interface: its help, its group, its
value's name and, for a house rule, the setup form's choices."""

from __future__ import annotations

import argparse

from capicu.core.rules import RULE_OPTIONS, OptionKind
from capicu.tui.cli.options import add_rule_arguments
from capicu.tui.words.describe_rules import HOUSE_CHOICES, METAVARS, OFF_HELP, OPTION_HELP


def test_every_rule_option_has_its_words():
    for option in RULE_OPTIONS:
        assert OPTION_HELP[option.name], option.name
        assert not option.metavar or option.metavar in METAVARS, option.name
        if option.kind is OptionKind.PAIR:
            assert OFF_HELP[option.name], option.name
        if option.house or option.on_form:
            two = option.kind in (OptionKind.SWITCH, OptionKind.PAIR)
            off_and_values = 2 if two else 1 + len(option.choices)
            assert len(HOUSE_CHOICES[option.name]) == off_and_values, option.name
    assert set(OPTION_HELP) == {option.name for option in RULE_OPTIONS}


def test_the_command_line_offers_every_declared_flag():
    parser = argparse.ArgumentParser()
    add_rule_arguments(parser)
    flags = {flag for action in parser._actions for flag in action.option_strings}
    for option in RULE_OPTIONS:
        assert option.flag in flags, option.flag
        if option.kind is OptionKind.SWITCH:
            assert "--no-" + option.flag.removeprefix("--") in flags
        if option.off_flag:
            assert option.off_flag in flags


def test_the_setup_forms_choices_are_a_dozen_cells_at_most() -> None:
    # A game's options share rows of the form as many as fit (53 cells a row at 80x24, 34 at 60x20):
    # a dozen cells each, less its arrow and margins, puts three on a row at 80x24 and two at 60x20
    # (tests/tui/test_setup_form_looks.py sees them drawn).
    from capicu.core.rules import FORM_OPTIONS
    from capicu.tui.words.messages import catalogue
    from rich.cells import cell_len

    for language in ("en", "es"):
        words = catalogue(language)
        for option in FORM_OPTIONS:
            for label in HOUSE_CHOICES[option.name]:
                shown = words.gettext(label)
                assert cell_len(shown) <= 12, (language, option.name, shown)
