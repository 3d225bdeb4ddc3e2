"""Every worked example of docs/RULES.md, and the scoring of each preset."""

from __future__ import annotations

import pytest
from capicu.core import Bonus, Outcome, Rules, Tile
from capicu.core.draw.scoring import score_round

PR = Rules.preset_named("puerto-rican-drawing")


def score(rules: Rules, counts: list[int], reason: Outcome, last: int = 0, tile: str = "1-2",
          capicu: bool = False, round_number: int = 5):  # type: ignore[no-untyped-def]
    return score_round(rules, counts, reason=reason, last_player=last, last_tile=Tile.parse(tile),
                       capicu=capicu, round_number=round_number)


def test_two_players_domino_scores_the_other_hand() -> None:
    # A domino, B holds 5-6 and 0-1 (12 pips): A scores 12 - 0 = 12.
    b_hand = [Tile(5, 6), Tile(0, 1)]
    result = score(PR, [0, sum(t.pips for t in b_hand)], Outcome.DOMINO, last=0)
    assert (result.winner, result.points) == (0, 12)


def test_three_players_tranque_lowest_scores_others_minus_own() -> None:
    result = score(PR, [9, 4, 15], Outcome.TRANQUE, last=2)
    assert (result.winner, result.points) == (1, 20)


@pytest.mark.parametrize("counts", [[6, 6, 20], [10, 10]])
def test_tied_lowest_count_scores_nothing(counts: list[int]) -> None:
    result = score(PR, counts, Outcome.TRANQUE)
    assert result.winner is None
    assert result.points == 0


def test_partners_domino_takes_every_pip_in_all_hands() -> None:
    rules = Rules.preset_named("puerto-rican-partners")
    result = score(rules, [0, 10, 7, 3], Outcome.DOMINO, last=0)
    assert (result.winner, result.points) == (0, 20)


def test_partners_tranque_goes_to_the_lightest_single_hand() -> None:
    rules = Rules.preset_named("puerto-rican-partners")
    # Team 0 (seats 0, 2) counts 4 + 20 = 24, team 1 (1, 3) counts 6 + 6 = 12,
    # but the lightest single hand (4) is team 0's, so team 0 wins.
    result = score(rules, [4, 6, 20, 6], Outcome.TRANQUE, last=1)
    assert (result.winner, result.points) == (0, 36)
    assert result.winner_seat == 0


def test_partners_tranque_with_lightest_hands_on_both_sides_scores_nothing() -> None:
    rules = Rules.preset_named("puerto-rican-partners")
    result = score(rules, [5, 5, 9, 12], Outcome.TRANQUE)
    assert result.winner is None


def test_drawing_game_partners_compare_team_sums() -> None:
    rules = Rules.preset_named("drawing-game")
    result = score(rules, [4, 3, 9, 20], Outcome.TRANQUE)
    # team 0: 13, team 1: 23 -> team 0 scores 23 - 13.
    assert (result.winner, result.points) == (0, 10)


def test_draw_game_domino_scores_the_other_hands() -> None:
    rules = Rules.preset_named("draw")
    result = score(rules, [0, 10, 7], Outcome.DOMINO, last=0)
    assert (result.winner, result.points) == (0, 17)
    blocked = score(rules, [8, 10, 7], Outcome.TRANQUE)
    assert (blocked.winner, blocked.points) == (2, 11)


def test_quinientos_bonuses() -> None:
    rules = Rules.preset_named("quinientos")
    capicu = score(rules, [0, 10, 7, 3], Outcome.DOMINO, last=0, tile="2-5", capicu=True, round_number=1)
    assert capicu.bonuses == ((Bonus.CAPICU, 100), (Bonus.ROUND, 100))
    assert capicu.points == 20 + 200
    chuchazo = score(rules, [9, 0, 7, 3], Outcome.DOMINO, last=1, tile="0-0", round_number=4)
    assert chuchazo.bonuses == ((Bonus.CHUCHAZO, 100), (Bonus.ROUND, 25))
    assert (chuchazo.winner, chuchazo.points) == (1, 19 + 125)
    # The double blank that blocks the game is no chuchazo.
    blocked = score(rules, [4, 9, 7, 3], Outcome.TRANQUE, last=1, tile="0-0", round_number=6)
    assert (blocked.winner, blocked.points, blocked.bonuses) == (1, 23, ())
    # A round nobody wins earns no round bonus.
    tied = score(rules, [5, 5, 9, 9], Outcome.TRANQUE, round_number=2)
    assert tied.bonuses == ()


def test_bonuses_are_off_by_default() -> None:
    rules = Rules.preset_named("puerto-rican-partners")
    result = score(rules, [0, 10, 7, 3], Outcome.DOMINO, last=0, tile="0-0", capicu=True, round_number=1)
    assert result.bonuses == ()
