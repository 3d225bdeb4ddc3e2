"""The computer players with the house rules on: legal moves only, a blank's number chosen,
and `hard` reading the others for it and asking for a new deal on a bad hand."""

from __future__ import annotations

import msgspec
import pytest
from capicu.core import REDEAL, Match, Play, Rules, make_player, parse_action
from capicu.core.ai.inference import infer
from capicu.core.ai.search import Budget, HardPlayer, searched_actions, wants_redeal

from tests.helpers_core import crafted_match

PR = Rules.preset_named("puerto-rican-drawing")
#: A hard player that thinks briefly, always as far (no clock).
QUICK_HARD = Budget(iterations=60, cap_seconds=None)


def every_option(preset: str) -> Rules:
    return msgspec.structs.replace(Rules.preset_named(preset), wild_blanks=True, draw_several=2,
                                   redeal_on_doubles=True)


@pytest.mark.parametrize("level", ["random", "greedy", "easy", "normal", "hard"])
@pytest.mark.parametrize("preset", ["puerto-rican-drawing", "drawing-game", "draw"])
def test_every_level_plays_whole_rounds_with_every_house_rule_on(level: str, preset: str) -> None:
    rules = every_option(preset)
    match = Match(rules, 2, seed=7)
    players = [HardPlayer(seat, QUICK_HARD) if level == "hard" else make_player(level, seat)
               for seat in (0, 1)]
    blanks_named = 0
    for _ in range(60 if level == "hard" else 400):
        if match.is_over:
            break
        seat = match.turn
        assert seat is not None
        action = players[seat].choose(match.view(seat))
        assert action in match.legal_actions()  # apply would refuse it too
        blanks_named += isinstance(action, Play) and action.blank is not None
        match.apply(action)
    assert match.results or level == "hard"  # whole rounds were played
    if level in ("random", "normal"):
        assert blanks_named  # the blank's number is part of the choice


WILD = msgspec.structs.replace(PR, wild_blanks=True, drawing=False, reserve=0, hand_sizes=(3, 3, 3),
                               first_lead=PR.first_lead.RANDOM)


def test_hard_gives_a_blank_the_number_the_next_player_lacks() -> None:
    match = crafted_match(WILD, ["3-5 0-5 6-6", "1-1 2-2 4-4"])
    match.apply(parse_action("play 3-5"))
    match.apply(parse_action("pass"))  # seat 1 holds no 3, no 5 and no blank
    view = match.view(0)
    assert "play 0-5 right as 4" in {str(a) for a in view.legal}
    searched = searched_actions(view, infer(view))
    kept = {str(a) for a in searched if isinstance(a, Play) and a.blank is not None}
    # 0 and 3 are the numbers it lacks (3 is the heavier): the blank is given 3.
    assert kept == {"play 0-5 right as 3"}
    assert HardPlayer(0, QUICK_HARD).choose(view) in view.legal


def test_hard_asks_for_a_new_deal_on_five_light_doubles() -> None:
    rules = msgspec.structs.replace(PR, redeal_on_doubles=True)
    match = crafted_match(rules, ["6-6 5-6 4-6 3-6 2-6 1-6 0-6", "0-0 1-1 2-2 3-3 4-4 0-1 0-2"])
    view = match.view(1)
    assert view.legal == (REDEAL,)
    assert wants_redeal(view)
    assert HardPlayer(1, QUICK_HARD).choose(view) is REDEAL
    assert not wants_redeal(match.view(0))  # not offered to seat 0
