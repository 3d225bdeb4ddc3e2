"""``capicu replay FILE --text`` for Fives and Threes: a hand told as `capicu simulate` tells it
(tui/cli/simulate_fives.py), each seat by its name."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import cast

from capicu.core.fives.events import FivesRoundEnded, FivesRoundStarted
from capicu.core.fives.view import FivesView
from capicu.core.replay import Position

from .replay_text import dealt
from .simulate import _side_name
from .simulate_fives import fives_event_lines


def fives_round(rounds: Sequence[Position], names: Sequence[str]) -> Iterator[str]:
    """A hand of Fives and Threes: its story (`FivesView.events` at its end), play by play."""
    board = cast(FivesView, rounds[-1].board)
    deal = dealt(rounds, FivesRoundStarted)
    rules, players = board.rules, board.players

    def side(number: int) -> str:
        return names[number] if rules.sides(players) == players else _side_name(rules, players, number)

    story = board.events
    for index, event in enumerate(story):
        following = story[index + 1] if index + 1 < len(story) else None
        # Past a seat that chipped out, the hand goes on unless its end comes next.
        goes_on = following is not None and not isinstance(following, FivesRoundEnded)
        then: Callable[[], bool] = (lambda: True) if goes_on else (lambda: False)
        yield from fives_event_lines(
            event, players=players, target=board.target, seat=lambda seat: names[seat], side=side,
            hand=lambda seat: deal.views[seat].hand,
            goes_on=then,
            rounds=lambda: board.round_number)
