"""What the Draw family counts in a player's history (core/figures.py): rounds, points, capicús, chuchazos.

Points are the points a seat's side took, its final score; a capicú or a chuchazo
is counted where the rules pay it as a bonus (the engine reports it so,
core/draw/scoring.py), to the seat that laid the last tile.
"""

from __future__ import annotations

from typing import Any

from ..figures import Figure, GameFigures, RoundFacts
from .scoring import Bonus

FIGURES = (Figure("rounds"), Figure("points"), Figure("capicu"), Figure("chuchazo"))


def _seat_figures(match: Any, seat: int) -> tuple[int, ...]:
    side = match.rules.side_of(seat, match.players)
    ending = match.ending
    paid = [bonus for result in match.results if result.last_player == seat for bonus, _ in result.bonuses]
    return (len(match.results), ending.totals[side], paid.count(Bonus.CAPICU), paid.count(Bonus.CHUCHAZO))


def _round_facts(result: Any) -> RoundFacts:
    return RoundFacts(result.round_number, result.reason.value, result.last_player, result.winner,
                      result.points, tuple(result.pip_counts),
                      tuple((bonus.value, points) for bonus, points in result.bonuses))


HISTORY_FIGURES = GameFigures(FIGURES, _seat_figures, _round_facts)
