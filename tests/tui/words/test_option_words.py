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


def test_the_setup_forms_choices_fit_their_row_at_80x24() -> None:
    # One game's options share one row of the form, 53 cells at 80x24: each Select shows its share of
    # them, less its arrow and margins (ten cells each for four options, fourteen for three).
    from capicu.core.rules import FORM_OPTIONS
    from capicu.tui.words.messages import catalogue
    from rich.cells import cell_len

    for language in ("en", "es"):
        words = catalogue(language)
        for option in FORM_OPTIONS:
            sharing = sum(1 for other in FORM_OPTIONS if other.games == option.games)
            for label in HOUSE_CHOICES[option.name]:
                shown = words.gettext(label)
                assert cell_len(shown) <= 53 // sharing - 3, (language, option.name, shown)
