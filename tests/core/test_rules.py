"""Rule settings and presets: values, options and their checks."""

from __future__ import annotations

import msgspec
import pytest
from capicu.core import PRESET_NAMES, Direction, Fact, RuleFact, Rules, RulesError
from capicu.core.rules import HOUSE_RULES, RulesProblem


def test_default_preset_is_puerto_rican_drawing() -> None:
    rules = Rules()
    assert rules.preset == "puerto-rican-drawing"
    assert (rules.reserve, rules.hand_size(2), rules.hand_size(3)) == (2, 7, 7)
    assert (rules.target_for(2), rules.target_for(3)) == (100, 61)
    assert rules.direction is Direction.COUNTERCLOCKWISE


def test_changing_one_option_is_one_call() -> None:
    rules = msgspec.structs.replace(Rules.preset_named("draw"), target=200)
    assert rules.target_for(3) == 200
    assert rules.preset == "draw"


@pytest.mark.parametrize(
    ("changes", "words"),
    [
        ({"target": 0}, "target"),
        ({"reserve": -1}, "reserve"),
        ({"max_pip": 7}, "double-6, double-9 or double-12"),
        ({"hand_sizes": (7, 7)}, "hand_sizes"),
        ({"max_draws_per_turn": 0}, "max_draws_per_turn"),
    ],
)
def test_bad_options_say_what_is_wrong(changes: dict[str, object], words: str) -> None:
    with pytest.raises(RulesError, match=words):
        msgspec.structs.replace(Rules(), **changes)


@pytest.mark.parametrize(
    ("changes", "code", "params"),
    [
        ({"target": 0}, RulesProblem.TARGET, {"value": "0"}),
        ({"reserve": -1}, RulesProblem.NOT_WHOLE_FROM, {"option": "reserve", "low": 0, "value": "-1"}),
        ({"max_pip": 7}, RulesProblem.SET_SIZE, {"value": "7"}),
        ({"hand_sizes": (7, 7)}, RulesProblem.NOT_A_LIST, {"option": "hand_sizes", "length": 3}),
        ({"targets": (1, 2, 0)}, RulesProblem.NOT_WHOLE_FROM, {"option": "targets", "low": 1, "value": "0"}),
        ({"partnerships": True}, RulesProblem.PARTNERSHIPS_NEED_FOUR, {}),
        # Each number has a declared most (core/rules.py RULE_OPTIONS), from a rules file or the form too.
        ({"target": 99999999999}, RulesProblem.TOO_BIG,
         {"option": "target", "flag": "--target", "high": 10000, "value": "99999999999"}),
        ({"targets": (100, 61, 10001)}, RulesProblem.TOO_BIG,
         {"option": "targets", "flag": "--target", "high": 10000, "value": "10001"}),
        ({"reserve": 92}, RulesProblem.TOO_BIG,
         {"option": "reserve", "flag": "--reserve", "high": 91, "value": "92"}),
        ({"capicu_bonus": 1001}, RulesProblem.TOO_BIG,
         {"option": "capicu_bonus", "flag": "--capicu-bonus", "high": 1000, "value": "1001"}),
        ({"chuchazo_bonus": 10**9}, RulesProblem.TOO_BIG,
         {"option": "chuchazo_bonus", "flag": "--chuchazo-bonus", "high": 1000, "value": "1000000000"}),
        ({"max_draws_per_turn": 92}, RulesProblem.TOO_BIG,
         {"option": "max_draws_per_turn", "flag": "--max-draws", "high": 91, "value": "92"}),
    ],
)
def test_a_bad_option_comes_with_its_code_and_params(
    changes: dict[str, object], code: RulesProblem, params: dict[str, object]
) -> None:
    with pytest.raises(RulesError) as refused:
        msgspec.structs.replace(Rules(), **changes)
    assert (refused.value.code, dict(refused.value.params)) == (code, params)


@pytest.mark.parametrize(
    ("changes", "words"),
    [
        ({"scoring": "most"}, "Invalid enum value 'most' - at `$.scoring`"),
        ({"voluntary_draw": "yes"}, "Expected `bool`, got `str` - at `$.voluntary_draw`"),
        ({"hand_sizes": [7, 7]}, "Expected `array` of length 3, got 2 - at `$.hand_sizes`"),
        ({"round_bonuses": [1] * 17}, "Expected `array` of length <= 16 - at `$.round_bonuses`"),
        ({"preset": ""}, "Expected `str` of length >= 1 - at `$.preset`"),
        ({"target": 0}, "the target must be a positive whole number, not 0"),
        ({"rounds": 3}, None),
    ],
)
def test_rules_read_from_plain_data_are_checked_by_their_declaration(
    changes: dict[str, object], words: str | None
) -> None:
    """Types and limits are the declaration's (msgspec); the rest is `Rules.__post_init__`'s."""
    plain = {**msgspec.to_builtins(Rules()), **changes}
    if words is None:  # a field the declaration lacks is no rule: ignored
        assert msgspec.convert(plain, Rules) == Rules()
        return
    with pytest.raises(msgspec.ValidationError) as refused:
        msgspec.convert(plain, Rules)
    assert words in str(refused.value)


def test_rules_round_trip_through_their_declaration() -> None:
    for name in PRESET_NAMES:
        rules = Rules.preset_named(name)
        plain = msgspec.to_builtins(rules)
        # Every field, but the house rules: off, they are UNSET and not written (the bytes of before).
        assert list(plain) == [name for name in Rules.__struct_fields__ if name not in HOUSE_RULES]
        assert msgspec.convert(plain, Rules) == rules


def test_a_player_count_and_a_preset_come_with_their_code() -> None:
    with pytest.raises(RulesError) as refused:
        Rules.preset_named("quinientos").check_players(2)
    assert refused.value.code is RulesProblem.PLAYER_COUNT
    assert dict(refused.value.params) == {"preset": "quinientos", "low": 4, "high": 4, "players": 2}
    with pytest.raises(RulesError) as refused:
        Rules.preset_named("dominican")
    assert refused.value.code is RulesProblem.NO_PRESET and refused.value.params["name"] == "dominican"


def test_player_counts_are_checked() -> None:
    with pytest.raises(RulesError, match="2 to 3 players, not 4"):
        Rules().check_players(4)
    with pytest.raises(RulesError, match="exactly 4"):
        Rules.preset_named("quinientos").check_players(2)


def test_unknown_preset() -> None:
    with pytest.raises(RulesError, match="no preset 'dominican'"):
        Rules.preset_named("dominican")


def test_the_facts_of_puerto_rican_drawing() -> None:
    facts = Rules().facts(3)
    assert facts == (
        RuleFact.SET(max_pip=6, tiles=28),
        RuleFact.EACH_FOR_THEMSELVES(players=3, hand_size=7),
        RuleFact.RESERVE(count=2),
        RuleFact.DRAW_UNTIL_FITS(),
        RuleFact.NO_TRAMPA(),
        RuleFact.FIRST_LEAD_DOUBLE(tile="6-6"),
        RuleFact.WINNER_LEADS(),
        RuleFact.COUNTERCLOCKWISE(),
        RuleFact.LOWEST_COUNT(),
        RuleFact.TARGET(points=61),
    )
    assert RuleFact.TARGET(points=100) in Rules().facts(2)


@pytest.mark.parametrize(
    ("name", "players", "present", "absent"),
    [
        (
            "drawing-game", 4,
            [RuleFact.PARTNERSHIPS(players=4, hand_size=6), RuleFact.VOLUNTARY_DRAW(), RuleFact.CLOCKWISE(),
             RuleFact.FIRST_LEAD_RANDOM(), RuleFact.WINNER_LEADS_TIE_TO_LEADER(), RuleFact.TARGET(points=61)],
            [RuleFact.NO_TRAMPA, RuleFact.FIRST_LEAD_DOUBLE],
        ),
        (
            "puerto-rican-partners", 4,
            [RuleFact.NO_DRAWING(), RuleFact.ALL_PIPS(), RuleFact.TARGET(points=200)],
            [RuleFact.RESERVE, RuleFact.DRAW_UNTIL_FITS, RuleFact.CAPICU_BONUS, RuleFact.ROUND_BONUSES],
        ),
        (
            "quinientos", 4,
            [RuleFact.CAPICU_BONUS(points=100), RuleFact.CHUCHAZO_BONUS(points=100),
             RuleFact.ROUND_BONUSES(points=(100, 75, 50, 25)), RuleFact.TARGET(points=500)],
            [RuleFact.RESERVE],
        ),
        (
            "draw", 3,
            [RuleFact.WHOLE_BONEYARD(), RuleFact.EVERY_ROUND_LIKE_FIRST(), RuleFact.DOMINO_TAKES_ALL(),
             RuleFact.EACH_FOR_THEMSELVES(players=3, hand_size=5)],
            [RuleFact.RESERVE, RuleFact.WINNER_LEADS],
        ),
    ],
)
def test_the_facts_of_each_preset(
    name: str, players: int, present: list[Fact], absent: list[RuleFact]
) -> None:
    facts = Rules.preset_named(name).facts(players)
    for fact in present:
        assert fact in facts
    assert not {fact.code for fact in facts} & set(absent)


def test_facts_follow_the_options() -> None:
    facts = msgspec.structs.replace(
        Rules(), reserve=0, target=150, max_draws_per_turn=3, tranque_last_player_leads=True,
        winner_leads=False,
    ).facts(2)
    for fact in (RuleFact.WHOLE_BONEYARD(), RuleFact.TARGET(points=150), RuleFact.DRAW_LIMIT(count=3),
                 RuleFact.TRANQUE_LAST_PLAYER_LEADS(), RuleFact.EVERY_ROUND_LIKE_FIRST()):
        assert fact in facts
    assert RuleFact.SET(max_pip=9, tiles=55) in msgspec.structs.replace(Rules(), max_pip=9).facts(2)


def test_a_fact_is_made_with_exactly_its_params() -> None:
    assert RuleFact.RESERVE(count=2).values == {"count": 2}
    assert RuleFact.SET(tiles=28, max_pip=6) == RuleFact.SET(max_pip=6, tiles=28)
    with pytest.raises(ValueError, match="count"):
        RuleFact.RESERVE()
    with pytest.raises(ValueError):
        RuleFact.NO_DRAWING(count=2)
