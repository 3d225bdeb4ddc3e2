"""The house rules of the Draw family (docs/RULES.md, "House rules"), from deals set by hand.

Wild blanks, drawing several tiles at once and a new deal on five doubles,
each off by default; then properties with every option on (hypothesis).
"""

from __future__ import annotations

import random

import msgspec
import pytest
from capicu.core import (
    DRAW,
    PASS,
    REDEAL,
    Bonus,
    IllegalAction,
    Match,
    Outcome,
    Refusal,
    RoundEnded,
    RoundStarted,
    Rules,
    RulesError,
    TilePlayed,
    TilesDrawn,
    parse_action,
)
from capicu.core.draw.refusals import DrawRefusal
from capicu.core.rules import RulesProblem
from capicu.net import wire
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.helpers_core import crafted_match

PR = Rules.preset_named("puerto-rican-drawing")


def house(rules: Rules = PR, **options: object) -> Rules:
    return msgspec.structs.replace(rules, **options)


#: Wild blanks on the default game, three tiles each, seat 0 leading any tile (the deals are by hand).
WILD = house(wild_blanks=True, hand_sizes=(3, 3, 3), first_lead=house().first_lead.RANDOM)


def act(match: Match, text: str, seat: int | None = None) -> tuple[object, ...]:
    return match.apply(parse_action(text), seat)


# -- the text of a play that names its blank ----------------------------------------------


def test_a_play_names_the_number_of_its_blank_in_its_text() -> None:
    play = parse_action("play 0-5 left as 3")
    assert (str(play.tile), str(play.place), play.blank) == ("0-5", "left", 3)  # type: ignore[attr-defined]
    assert str(play) == "play 0-5 left as 3"
    assert parse_action("play 0-5 as 3") == play
    assert parse_action("play 0-5 left") != play
    assert parse_action("redeal") is REDEAL
    with pytest.raises(ValueError):
        parse_action("play 0-5 left as three")


# -- wild blanks ------------------------------------------------------------------------------


def test_a_blank_touching_an_end_takes_its_number() -> None:
    match = crafted_match(WILD, ["3-4 1-1 2-2", "0-5 6-6 1-2"])
    act(match, "play 3-4")
    # 0-5 fits either end by its blank (the 5 matches neither).
    assert {str(a) for a in match.legal_actions()} == {"play 0-5 left", "play 0-5 right"}
    (played,) = act(match, "play 0-5 left")
    assert isinstance(played, TilePlayed)
    assert (played.left, played.right, played.blank) == (5, 4, 3)
    for seat in (0, 1, None):
        view = match.view(seat)
        assert view.line == ((5, 3), (3, 4))
        assert view.blanks == (2, 0)  # the blank is 0-5's right half, shown as 3


def test_a_blank_left_open_is_the_number_its_player_gives_it() -> None:
    match = crafted_match(WILD, ["3-5 1-1 2-2", "0-5 6-6 1-2"])
    act(match, "play 3-5")
    legal = {str(a) for a in match.legal_actions()}
    # Its blank on the 3 or the 5 (5 left open), or its 5 on the 5 and the blank
    # left open as any other number.
    named = {f"play 0-5 right as {n}" for n in (0, 1, 2, 3, 4, 6)}
    assert legal == {"play 0-5 left", "play 0-5 right"} | named
    (played,) = act(match, "play 0-5 right as 2")
    assert isinstance(played, TilePlayed)
    assert (played.left, played.right, played.blank) == (3, 2, 2)
    view = match.view(0)
    assert view.ends == (3, 2)
    assert (view.line, view.blanks) == (((3, 5), (5, 2)), (0, 2))
    # The blank's 2 is an open number like any other: seat 0's 2-2 fits it, its 1-1 nothing.
    assert {str(a.tile) for a in match.view(0).legal if hasattr(a, "tile")} == {"2-2"}


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("play 0-5 left as 2", DrawRefusal.BLANK_NOT_LEFT_OPEN),  # against 3, the blank takes the 3
        ("play 0-5 right as 5", DrawRefusal.BLANK_NOT_LEFT_OPEN),  # the same as its blank on the 5
        ("play 0-5 right as 7", DrawRefusal.BLANK_NUMBER),
    ],
)
def test_a_number_a_blank_cannot_be_given_is_refused_with_its_reason(text: str, reason: Refusal) -> None:
    match = crafted_match(WILD, ["3-5 1-1 2-2", "0-5 6-6 1-2"])
    act(match, "play 3-5")
    with pytest.raises(IllegalAction) as refused:
        act(match, text)
    assert refused.value.reason is reason


def test_the_double_blank_leads_as_the_double_its_player_says() -> None:
    match = crafted_match(WILD, ["0-0 1-1 2-2", "4-5 6-6 1-2"])
    assert {str(a) for a in match.legal_actions() if "0-0" in str(a)} == {
        f"play 0-0 left as {n}" for n in range(7)
    }
    with pytest.raises(IllegalAction) as refused:
        act(match, "play 0-0 left")
    assert refused.value.reason is DrawRefusal.BLANK_NEEDS_NUMBER
    (played,) = act(match, "play 0-0 left as 4")
    assert isinstance(played, TilePlayed)
    assert (played.left, played.right, played.blank) == (4, 4, 4)
    view = match.view(1)
    assert (view.ends, view.line, view.blanks) == ((4, 4), ((4, 4),), (3,))
    assert {str(a) for a in view.legal} == {"play 4-5 left", "play 4-5 right"}


def test_the_double_blank_against_an_end_is_a_double_of_that_end() -> None:
    match = crafted_match(WILD, ["3-5 1-1 2-2", "0-0 6-6 1-2"])
    act(match, "play 3-5")
    assert {str(a) for a in match.legal_actions()} == {"play 0-0 left", "play 0-0 right"}
    (played,) = act(match, "play 0-0 right")
    assert isinstance(played, TilePlayed)
    assert (played.left, played.right, played.blank) == (3, 5, 5)
    assert (match.view(0).line, match.view(0).blanks) == (((3, 5), (5, 5)), (0, 3))


def test_a_blank_lead_names_its_blank() -> None:
    match = crafted_match(WILD, ["0-5 1-1 2-2", "4-5 6-6 1-2"])
    (played,) = act(match, "play 0-5 left as 6")
    assert isinstance(played, TilePlayed)
    assert (played.left, played.right, played.blank, match.view(0).blanks) == (6, 5, 6, (1,))
    assert "play 6-6 left" in {str(a) for a in match.legal_actions()}


def test_capicu_follows_the_number_a_blank_was_given() -> None:
    rules = house(WILD, hand_sizes=(2, 2, 2), capicu_bonus=100)
    match = crafted_match(rules, ["3-5 3-4", "0-5 6-6"])
    act(match, "play 3-5")
    act(match, "play 0-5 right as 4")
    assert match.view(0).ends == (3, 4)  # the 4 is the blank's
    # 3-4 fits the 3 and the 4 the blank shows: its domino is a capicú.
    events = act(match, "play 3-4 left")
    ended = next(e for e in events if isinstance(e, RoundEnded))
    assert ended.result.reason is Outcome.DOMINO
    assert ended.result.bonuses == ((Bonus.CAPICU, 100),)


def test_a_blank_in_hand_still_counts_nothing_and_a_hand_with_one_never_blocks() -> None:
    rules = house(WILD, hand_sizes=(2, 2, 2), drawing=False, reserve=0)
    match = crafted_match(rules, ["3-5 0-6", "1-1 2-2"])
    act(match, "play 3-5")
    # Seat 1 holds nothing that fits and passes; seat 0's blank fits either end, so no tranque.
    assert match.legal_actions() == (PASS,)
    act(match, "pass")
    events = act(match, "play 0-6 left")
    ended = next(e for e in events if isinstance(e, RoundEnded))
    assert ended.result.pip_counts == (0, 6)


def test_without_wild_blanks_a_blank_is_a_number_and_plays_name_none() -> None:
    match = crafted_match(house(WILD, wild_blanks=False), ["3-4 1-1 2-2", "0-5 6-6 1-2"])
    act(match, "play 3-4")
    assert match.legal_actions() == (DRAW,)
    assert match.view(1).blanks is msgspec.UNSET
    with pytest.raises(IllegalAction) as refused:
        act(match, "play 0-5 left as 3")
    assert refused.value.reason is DrawRefusal.FITS_NEITHER_END


# -- draw several -----------------------------------------------------------------------------

#: Every tile without a 6, and the 6s: the second seat holds no 6 and must draw.
NO_SIX = "0-0 0-1 0-2 0-3 0-4 0-5 1-1 1-2 1-3 1-4 1-5 2-2"
SIXES = "6-6 2-3 2-4 2-5 3-3 3-4 3-5 4-4 4-5 5-5 0-6 1-6"


@pytest.mark.parametrize(
    ("several", "reserve", "drawn"),
    [(3, 2, 2), (2, 2, 2), (2, 3, 1), (3, 0, 3), (2, 0, 2)],
)
def test_drawing_several_draws_as_many_as_can_be_drawn_above_the_reserve(
    several: int, reserve: int, drawn: int
) -> None:
    rules = house(WILD, wild_blanks=False, hand_sizes=(12, 12, 12), reserve=reserve, draw_several=several)
    match = crafted_match(rules, [SIXES, NO_SIX], "2-6 3-6 4-6 5-6")
    act(match, "play 6-6")
    assert match.legal_actions() == (DRAW,)
    (event,) = match.apply(DRAW)
    assert isinstance(event, TilesDrawn) and event.count == drawn
    view = match.view(1)
    assert (len(view.hand), view.drawable, view.draws_this_turn) == (12 + drawn, 4 - reserve - drawn, drawn)
    # Drawn tiles that fit are played: no second draw in the turn.
    assert DRAW not in match.legal_actions()
    assert {str(a.tile) for a in view.legal if hasattr(a, "tile")} == set(("2-6", "3-6", "4-6")[:drawn])


def test_drawing_two_that_do_not_fit_passes() -> None:
    rules = house(WILD, wild_blanks=False, reserve=0, draw_several=2)
    match = crafted_match(rules, ["6-6 5-5 4-4", "0-1 0-2 0-3"], "1-2 1-3 2-6")
    act(match, "play 6-6")
    (event,) = match.apply(DRAW)
    assert isinstance(event, TilesDrawn) and event.count == 2
    # 1-2 and 1-3 do not fit the 6s, and a turn draws once: the player passes.
    assert match.legal_actions() == (PASS,)
    assert match.view(1).drawable > 0
    act(match, "pass")
    assert match.turn == 0


# -- redeal on five doubles ------------------------------------------------------------------

REDEAL_RULES = house(redeal_on_doubles=True, hand_sizes=(7, 7, 7))
FIVE_DOUBLES = "0-0 1-1 2-2 3-3 4-4 0-1 0-2"


def test_a_player_dealt_five_doubles_may_ask_for_a_new_deal_out_of_turn() -> None:
    match = crafted_match(REDEAL_RULES, ["6-6 5-6 4-6 3-6 2-6 1-6 0-6", FIVE_DOUBLES])
    assert match.turn == 0  # 6-6 leads
    assert REDEAL not in match.legal_actions()
    assert match.view(1).legal == (REDEAL,)
    (started,) = match.apply(REDEAL, 1)
    assert isinstance(started, RoundStarted)
    assert (started.round_number, started.asked_by, started.doubles) == (1, 1, 5)
    # What the others learn is who asked and how many doubles, never which tiles.
    assert set(msgspec.structs.asdict(started)) == {
        "round_number", "leader", "hand_counts", "boneyard", "forced_lead", "redeals", "asked_by", "doubles",
    }
    assert match.view(0).events == (started,)
    assert {"redeal": 1} in match.log()["entries"]
    again = Match.from_log(match.log())
    assert [again.view(s) for s in (0, 1, None)] == [match.view(s) for s in (0, 1, None)]


def test_a_new_deal_is_refused_after_the_first_tile_and_to_fewer_than_five_doubles() -> None:
    match = crafted_match(REDEAL_RULES, ["6-6 5-6 4-6 3-6 2-6 1-6 0-6", FIVE_DOUBLES])
    act(match, "play 6-6")
    with pytest.raises(IllegalAction) as refused:
        match.apply(REDEAL, 1)
    assert refused.value.reason is DrawRefusal.REDEAL_TOO_LATE
    assert match.view(1).legal != (REDEAL,)
    four = crafted_match(REDEAL_RULES, ["6-6 5-6 4-6 3-6 2-6 1-6 0-6", "0-0 1-1 2-2 3-3 0-4 0-1 0-2"])
    with pytest.raises(IllegalAction) as refused:
        four.apply(REDEAL, 1)
    assert refused.value.reason is DrawRefusal.REDEAL_FEW_DOUBLES
    assert refused.value.params == {"doubles": 4, "needed": 5}
    off = crafted_match(house(hand_sizes=(7, 7, 7)), ["6-6 5-6 4-6 3-6 2-6 1-6 0-6", FIVE_DOUBLES])
    with pytest.raises(IllegalAction) as refused:
        off.apply(REDEAL, 1)
    assert refused.value.reason is DrawRefusal.NO_REDEAL


# -- settings -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("preset", "options", "problem"),
    [
        ("draw", {"draw_several": 2, "max_draws_per_turn": 2}, RulesProblem.DRAW_SEVERAL_WITH_MAX_DRAWS),
        ("puerto-rican-partners", {"draw_several": 2}, RulesProblem.DRAW_SEVERAL_NEEDS_DRAWING),
        ("mexican-train", {"wild_blanks": True}, RulesProblem.HOUSE_RULE_NOT_FOR_GAME),
        ("draw", {"draw_several": 4}, RulesProblem.NOT_ONE_OF),
    ],
)
def test_house_rules_that_cannot_be_played_are_refused_with_a_code(
    preset: str, options: dict[str, object], problem: RulesProblem
) -> None:
    with pytest.raises(RulesError) as refused:
        house(Rules.preset_named(preset), **options)
    assert refused.value.code is problem


@pytest.mark.parametrize("preset", ["puerto-rican-drawing", "drawing-game", "draw"])
@pytest.mark.parametrize("max_pip", [6, 9, 12])
def test_every_house_rule_combines_with_every_draw_preset_and_set(preset: str, max_pip: int) -> None:
    rules = house(Rules.preset_named(preset), max_pip=max_pip, wild_blanks=True, draw_several=3,
                  redeal_on_doubles=True)
    facts = {fact.code for fact in rules.facts(2)}
    assert {"wild-blanks", "draw-several", "redeal-on-doubles"} <= {str(code.value) for code in facts}


def test_the_house_rules_off_are_not_written_and_on_they_read_back() -> None:
    assert not {"wild_blanks", "draw_several", "redeal_on_doubles"} & set(wire.plain(PR))
    assert house(wild_blanks=False) == PR
    on = house(wild_blanks=True, draw_several=2, redeal_on_doubles=True)
    plain = wire.plain(on)
    assert (plain["wild_blanks"], plain["draw_several"], plain["redeal_on_doubles"]) == (True, 2, True)
    assert wire.read(plain, Rules) == on


# -- properties with every option on ------------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(
    preset=st.sampled_from(["puerto-rican-drawing", "drawing-game", "draw"]),
    max_pip=st.sampled_from([6, 9]),
    several=st.sampled_from([2, 3]),
    seed=st.integers(0, 10_000),
    data=st.data(),
)
def test_with_every_house_rule_on_tiles_stay_views_hide_hands_and_the_log_replays(
    preset: str, max_pip: int, several: int, seed: int, data: st.DataObject
) -> None:
    base = Rules.preset_named(preset)
    rules = house(base, max_pip=max_pip, wild_blanks=True, draw_several=several, redeal_on_doubles=True)
    players = data.draw(st.integers(rules.min_players, rules.max_players))
    match = Match(rules, players, seed=seed)
    rng = random.Random(seed)
    for _ in range(400):
        if match.is_over:
            break
        state = match.state
        # Every tile is in one hand, the boneyard or the line, once.
        in_hands = sum(hand.bit_count() for hand in state.hands)
        assert in_hands + len(state.stock) - state.stock_pos + len(match.view(None).line) == len(match.tiles)
        for seat in range(players):
            view = match.view(seat)
            assert view.hand == match.tiles.tiles_in(state.hands[seat])
            assert view.blanks is not msgspec.UNSET and len(view.blanks) == len(view.line)
            if seat != match.turn:
                assert view.legal in ((), (REDEAL,))
        assert match.view(None).hand == ()
        asking = [s for s in range(players) if match.view(s).legal == (REDEAL,)]
        if asking and rng.random() < 0.5:
            match.apply(REDEAL, rng.choice(asking))
            continue
        match.apply(rng.choice(match.legal_actions()))
    again = Match.from_log(match.log())
    seats = (*range(players), None)
    assert [again.view(s) for s in seats] == [match.view(s) for s in seats]
