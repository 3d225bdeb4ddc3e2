"""Each rule option declared once (core/rules.py RULE_OPTIONS): what the command line, the setup form
and `capicu rules` are made from."""

from __future__ import annotations

import msgspec
import pytest
from capicu.core import Rules
from capicu.core.games import game_of
from capicu.core.rules import HOUSE_RULES, OPTIONS, RULE_OPTIONS, SETS, Game, OptionKind

#: A preset of each game, to set its options on.
PRESET_OF = {Game.LINE_OF_PLAY: "draw", Game.MEXICAN_TRAIN: "mexican-train",
             Game.FIVES_AND_THREES: "fives-and-threes"}
RULES_OF = {game: type(Rules.preset_named(preset)) for game, preset in PRESET_OF.items()}


def test_every_game_has_a_preset_here():
    assert set(PRESET_OF) == set(Game)
    assert all(game_of(Rules.preset_named(preset)).game is game for game, preset in PRESET_OF.items())


def test_every_option_sets_a_field_of_each_of_its_games_rules():
    assert len({option.name for option in RULE_OPTIONS}) == len(RULE_OPTIONS) == len(OPTIONS)
    assert len({option.flag for option in RULE_OPTIONS}) == len(RULE_OPTIONS)
    for option in RULE_OPTIONS:
        assert option.flag.startswith("--") and option.games, option.name
        for game in option.games:
            assert option.field in RULES_OF[game].__struct_fields__, (option.name, game)
        assert bool(option.choices) == (option.kind is OptionKind.CHOICE), option.name
        assert bool(option.off_flag) == (option.kind is OptionKind.PAIR), option.name


def test_the_house_rules_are_the_options_so_declared():
    assert HOUSE_RULES == ("wild_blanks", "draw_several", "redeal_on_doubles")
    assert all(OPTIONS[name].games == {Game.LINE_OF_PLAY} for name in ("wild_blanks", "draw_several"))


@pytest.mark.parametrize("option", RULE_OPTIONS, ids=lambda option: option.name)
def test_an_option_set_says_its_fact(option):
    """Each option's own fact is among what `Rules.facts` says once it is set to a value it takes,
    in each of its games."""
    for game in sorted(option.games, key=lambda game: game.value):
        rules = Rules.preset_named(PRESET_OF[game])
        first_choice = option.choices[0][0] if option.choices else None
        typed: object = {OptionKind.WHOLE: 3, OptionKind.POSITIVE: 3, OptionKind.SWITCH: True,
                         OptionKind.PAIR: False}.get(option.kind, first_choice)
        value = option.value_of(typed)
        if option.name == "max_pip":
            value = SETS[game][-1]
        rules = msgspec.structs.replace(rules, **{option.field: value})
        said = option.facts(rules, 3)
        assert said and all(fact in rules.facts(3) for fact in said), (option.name, game)
