"""What Mexican Train counts in a player's history (core/figures.py): rounds, and the counts taken.

Counts are penalties (the lowest total wins): a seat's count is its total over
the match, kept apart from any game's points.
"""

from __future__ import annotations

from typing import Any

from ..figures import Figure, GameFigures, RoundFacts

FIGURES = (Figure("rounds"), Figure("count"))


def _seat_figures(match: Any, seat: int) -> tuple[int, ...]:
    side = match.rules.side_of(seat, match.players)
    return (len(match.results), match.ending.totals[side])


def _round_facts(result: Any) -> RoundFacts:
    return RoundFacts(result.round_number, result.reason.value, result.last_player, None,
                      sum(result.counts), tuple(result.counts))


HISTORY_FIGURES = GameFigures(FIGURES, _seat_figures, _round_facts)
