"""Fives and Threes' computer players: legal, deterministic, reading only their own view."""

from __future__ import annotations

import pytest
from capicu.core import PASS, Play, parse_action
from capicu.core.ai.fives_hard import Budget, FivesHardPlayer, reading
from capicu.core.ai.fives_players import FivesNormalPlayer, make_fives_player
from capicu.core.ai.fives_reading import passed_over, position, voids
from capicu.core.fives import FIVES_AND_THREES, FivesMatch
from capicu.core.games import FIVES
from capicu.core.tiles import Tile, tile_set
from helpers_fives import crafted_fives


@pytest.mark.parametrize("level", FIVES.levels)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_level_plays_a_match_through_with_legal_actions(level: str, players: int) -> None:
    match = FivesMatch(FIVES_AND_THREES, players, seed=players)
    bots = [make_fives_player(level, seat) for seat in range(players)]
    while not match.is_over:
        seat = match.turn
        assert seat is not None
        action = bots[seat].choose(match.view(seat))
        assert action in match.legal_actions()
        match.apply(action, seat)
    assert max(match.scores) >= 61


def test_a_decision_depends_only_on_the_seed_and_the_view() -> None:
    match = FivesMatch(FIVES_AND_THREES, 4, seed=9)
    view = match.view(match.turn)
    assert FivesHardPlayer(3).choose(view) == FivesHardPlayer(3).choose(view)


def test_normal_lays_the_tile_that_scores_most_now() -> None:
    # 6-6 led: seat 1 holds 3-6 (6-6 and 3: 15 for 8) and 6-1 (12 + 1 = 13: nothing).
    hands = ["6-6 0-0 0-1 0-2 0-3 0-4 0-5", "3-6 1-6 1-1 1-2 1-3 1-4 1-5"]
    match = crafted_fives(FIVES_AND_THREES, hands)
    match.apply(parse_action("play 6-6 left"))
    choice = FivesNormalPlayer().choose(match.view(1))
    assert isinstance(choice, Play) and choice.tile == Tile(3, 6)


def test_hard_takes_a_winning_score_at_once() -> None:
    hands = ["6-6 0-0 0-1 0-2 0-3 0-4 0-5", "3-6 1-6 1-1 1-2 1-3 1-4 1-5"]
    match = crafted_fives(FIVES_AND_THREES, hands)
    match.apply(parse_action("play 6-6 left"))
    match.scores[1] = 53  # 15 for 8 reaches 61
    view = match.view(1)
    winning = [a for a in view.legal if isinstance(a, Play) and a.tile == Tile(3, 6)]
    assert winning and all(reading(view, play) > 100 for play in winning)
    assert FivesHardPlayer(1).choose(view) in winning


def test_a_knock_says_the_numbers_a_seat_lacks() -> None:
    hands = ["0-0 0-1 1-1 1-2 2-2 0-2 2-4", "3-3 4-4 4-5 4-6 5-5 5-6 6-6"]
    match = crafted_fives(FIVES_AND_THREES, hands)
    match.apply(parse_action("play 0-0 left"))
    match.apply(PASS)
    lacking = voids(match.view(0))
    assert lacking[1] == 1 << 0 and lacking[0] == 0
    st = position(match.view(0))
    assert (st.left, st.right, st.laid, st.total) == (0, 0, 1, 0)


def test_a_play_that_scored_less_than_another_tile_would_marks_that_tile_unlikely() -> None:
    hands = ["6-6 0-0 0-1 0-2 0-3 0-4 0-5", "1-6 3-6 1-1 1-2 1-3 1-4 1-5"]
    match = crafted_fives(FIVES_AND_THREES, hands)
    match.apply(parse_action("play 6-6 left"))
    match.apply(parse_action("play 1-6 right"))  # 13 for nothing, where 3-6 made 15 for 8
    unlikely = passed_over(match.view(0))
    tiles = tile_set(6)
    assert unlikely[1] >> tiles.index[Tile(3, 6)] & 1
    assert not unlikely[1] >> tiles.index[Tile(2, 6)] & 1  # 14: no better than 13's nothing


def test_the_search_is_bounded_by_its_budget() -> None:
    match = FivesMatch(FIVES_AND_THREES, 2, seed=4)
    ticks = iter(range(10**6))
    player = FivesHardPlayer(1, Budget(playouts=10**6, cap_seconds=0.5), clock=lambda: next(ticks) * 0.01)
    view = match.view(match.turn)
    assert player.choose(view) in view.legal
