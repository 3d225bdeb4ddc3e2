"""The coach in words: each reason in English and Spanish, the verdicts, and the summary."""

from __future__ import annotations

import pytest
from capicu.core import DRAW, REDEAL, End, Play, Tile
from capicu.core.actions import Train
from capicu.core.ai.coach import ChoiceValue, CoachReason, Decision, summarise
from capicu.core.games import GAMES
from capicu.tui.words.describe_coach import (
    COACH_REASONS,
    LAID_WORDS,
    describe_choice,
    describe_choices,
    describe_decision,
    describe_summary,
)
from capicu.tui.words.messages import command_line_language

NAMES = ["Ana", "Beto"]
SIX_FOUR = Play(Tile(4, 6), End.LEFT)
FIVE_FIVE = Play(Tile(5, 5), End.RIGHT)


def decision(cost: float, *, flagged: bool, reason: CoachReason | None = None,
             params: tuple[tuple[str, int | str], ...] = (), round_number: int = 1,
             position: int = 3) -> Decision:
    return Decision(position=position, round_number=round_number, seat=0, chosen=FIVE_FIVE,
                    choices=(ChoiceValue(SIX_FOUR, 4.0, 0.0), ChoiceValue(FIVE_FIVE, 4.0 - cost, cost)),
                    cost=cost, flagged=flagged, reason=reason, reason_params=params)


def test_every_reason_has_its_sentence() -> None:
    assert set(COACH_REASONS) == set(CoachReason)


@pytest.mark.parametrize(("language", "expected"), [
    ("en", "4-6 on the left was better by about 9 points: Beto had shown they held no 5."),
    ("es", "El 4-6 a la izquierda era mejor por cerca de 9 puntos: "
           "Beto había mostrado que no tenía ningún 5."),
])
def test_a_flagged_decision_names_the_better_tile_the_margin_and_the_reason(language: str,
                                                                          expected: str) -> None:
    flagged = decision(9.2, flagged=True, reason=CoachReason.LACKED, params=(("number", 5), ("seat", 1)))
    with command_line_language(language):
        assert describe_decision(flagged, NAMES, 0) == expected


def test_small_costs_and_the_best_choice_are_said_plainly() -> None:
    with command_line_language("en"):
        assert describe_decision(decision(2.4, flagged=False), NAMES, 0) == (
            "4-6 on the left was a little better (about 2 points).")
        assert describe_decision(decision(0.0, flagged=False), NAMES, 0) == "The best choice."
        assert describe_choice(DRAW, NAMES, 0) == "drawing"
        assert describe_choice(REDEAL, NAMES, 0) == "asking for a new deal"
        assert describe_choice(Play(Tile(0, 5), End.RIGHT, 3), NAMES, 0) == "0-5 on the right, its blank as 3"
        assert describe_choice(Play(Tile(5, 12), Train(1)), NAMES, 0) == "5-12 on Beto's train"


def test_a_choice_that_leads_a_round_is_said_as_leading() -> None:
    lead = Decision(position=1, round_number=1, seat=0, chosen=Play(Tile(5, 5), End.LEFT),
                    choices=(ChoiceValue(Play(Tile(2, 2), End.LEFT), 2.0, 0.0),
                             ChoiceValue(Play(Tile(5, 5), End.LEFT), -5.0, 7.0)),
                    cost=7.0, flagged=True, leads=True)
    with command_line_language("en"):
        assert describe_decision(lead, NAMES, 0) == "Leading with 2-2 was better by about 7 points."
        assert describe_choices(lead, NAMES, 0)[1] == "leading with 5-5: -5 (chosen)"
    with command_line_language("es"):
        assert describe_decision(lead, NAMES, 0).startswith("Salir con el 2-2 era mejor")


def test_the_summary_gives_points_per_round_and_the_three_costliest() -> None:
    decisions = tuple(decision(cost, flagged=cost > 6, reason=CoachReason.HEAVIER if cost > 6 else None,
                               params=(("pips", 4),) if cost > 6 else (), round_number=n, position=n)
                      for n, cost in enumerate([1.0, 12.0, 0.0, 8.0, 7.0], start=1))
    analysis = summarise(0, decisions, 6.0, rounds=5)
    assert [d.round_number for d in analysis.costliest] == [2, 4, 5]
    with command_line_language("en"):
        lines = describe_summary(analysis, NAMES, 0)
    assert lines[0] == "Points given away: about 28 points in all."
    assert lines[1] == "By round: round 1: 1, round 2: 12, round 3: 0, round 4: 8, round 5: 7."
    assert lines[3] == ("Round 2: 5-5 on the right cost about 12 points. "
                        "4-6 on the left was better by about 12 points: it got rid of 4 more pips.")
    assert len(lines) == 6


def test_every_games_tiles_are_worded_where_they_are_laid():
    # Found by the game's declaration (GameSpec.place_type), not by isinstance on a game's types.
    assert {game.place_type for game in GAMES} <= LAID_WORDS.keys()
    with command_line_language("en"):
        assert describe_choice(Play(Tile(3, 4), End.LEFT), NAMES, 0, leads=True) == "leading with 3-4"
        on_train = describe_choice(Play(Tile(3, 4), Train(-1)), NAMES, 0, leads=True)
        assert on_train == "3-4 on the Mexican train"
