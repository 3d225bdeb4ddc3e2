"""Rule settings and presets: values, options and their checks."""

from __future__ import annotations

import pytest
from capicu.core import PRESET_NAMES, Direction, Rules, RulesError


def test_default_preset_is_puerto_rican_drawing() -> None:
    rules = Rules()
    assert rules.preset == "puerto-rican-drawing"
    assert (rules.reserve, rules.hand_size(2), rules.hand_size(3)) == (2, 7, 7)
    assert (rules.target_for(2), rules.target_for(3)) == (100, 61)
    assert rules.direction is Direction.COUNTERCLOCKWISE


def test_changing_one_option_is_one_call() -> None:
    rules = Rules.preset_named("draw").replace(target=200)
    assert rules.target_for(3) == 200
    assert rules.preset == "draw"


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_presets_round_trip_through_plain_data(name: str) -> None:
    rules = Rules.preset_named(name)
    assert Rules.from_dict(rules.to_dict()) == rules


@pytest.mark.parametrize(
    ("changes", "words"),
    [
        ({"target": 0}, "target"),
        ({"reserve": -1}, "reserve"),
        ({"max_pip": 7}, "double-6, double-9 or double-12"),
        ({"hand_sizes": (7, 7)}, "hand_sizes"),
        ({"scoring": "most"}, "scoring must be one of"),
        ({"max_draws_per_turn": 0}, "max_draws_per_turn"),
        ({"voluntary_draw": "yes"}, "voluntary_draw"),
        ({"colour": "red"}, "no rule option 'colour'"),
    ],
)
def test_bad_options_say_what_is_wrong(changes: dict[str, object], words: str) -> None:
    with pytest.raises(RulesError, match=words):
        Rules().replace(**changes)


def test_player_counts_are_checked() -> None:
    with pytest.raises(RulesError, match="2 to 3 players, not 4"):
        Rules().check_players(4)
    with pytest.raises(RulesError, match="exactly 4"):
        Rules.preset_named("quinientos").check_players(2)


def test_unknown_preset() -> None:
    with pytest.raises(RulesError, match="no preset 'dominican'"):
        Rules.preset_named("dominican")


def test_from_dict_rejects_hostile_data() -> None:
    for data in (None, [], {"target": "ten"}, {"hand_sizes": [1] * 10_000}, {"preset": 5}):
        with pytest.raises(RulesError):
            Rules.from_dict(data)


def test_describe_is_written_from_the_settings() -> None:
    text = " ".join(Rules.preset_named("quinientos").describe(4))
    assert "Capicú" in text and "+100" in text and "500" in text
    plain = " ".join(Rules().replace(reserve=0, target=150).describe(2))
    assert "whole boneyard can be drawn" in plain and "150" in plain
