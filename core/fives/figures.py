"""What Fives and Threes counts in a player's history (core/figures.py): hands, points, the best play.

Points are those a seat's side made (as the tiles were laid, and the go), its
final score, so that points per hand is ``points / hands``. The highest single
play is the most one tile the seat itself laid was worth (15 for 8: 8), read
from the match's log.
"""

from __future__ import annotations

from typing import Any

from ..figures import Combine, Figure, GameFigures, RoundFacts

FIGURES = (Figure("hands"), Figure("points"), Figure("best_play", Combine.MAX))


def _seat_figures(match: Any, seat: int) -> tuple[int, ...]:
    from .events import FivesTilePlayed

    best = 0

    def heard(_match: Any, _action: Any, _seat: Any, events: tuple[Any, ...]) -> None:
        nonlocal best
        for event in events:
            if type(event) is FivesTilePlayed and event.seat == seat:
                best = max(best, event.points)

    type(match).from_log(match.log(), heard)
    side = match.rules.side_of(seat, match.players)
    return (len(match.results), match.ending.totals[side], best)


def _round_facts(result: Any) -> RoundFacts:
    """A hand: every side scores as it lays; the side that made most is its winner (None on a tie), and
    ``counts`` holds each side's points of the hand."""
    made = tuple(result.points)
    best = max(made)
    winner = made.index(best) if made.count(best) == 1 else None
    return RoundFacts(result.round_number, result.reason.value, result.last_player, winner, best, made)


HISTORY_FIGURES = GameFigures(FIGURES, _seat_figures, _round_facts)
