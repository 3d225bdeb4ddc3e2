"""``capicu replay FILE --text`` for Mexican Train: a round in the table's log lines (see replay_text.py)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import cast

from capicu.core import MexicanView
from capicu.core.mexican.events import MexicanMatchEnded, MexicanRoundEnded, MexicanRoundStarted
from capicu.core.replay import Position
from capicu.tui.words.describe_trains import (
    describe_train_result,
    describe_train_winners,
    train_news_lines,
    untold_lines,
)
from capicu.tui.words.messages import tn

from .replay_text import dealt, dealt_hands, left_in_hands


def train_round(rounds: Sequence[Position], names: Sequence[str]) -> Iterator[str]:
    """A round of Mexican Train: the table's log lines (tiles of one move said together)."""
    board = cast(MexicanView, rounds[-1].board)
    deal = dealt(rounds, MexicanRoundStarted)
    story = board.events
    begun = max((i for i, e in enumerate(story) if isinstance(e, MexicanRoundStarted)), default=-1)
    moves = [e for e in story[begun + 1:] if not isinstance(e, MexicanRoundEnded | MexicanMatchEnded)]
    if begun >= 0:
        head, _ = train_news_lines(story[begun:begun + 1], None, board, names, None)
        yield ""
        yield from (line() for line in head)
        yield from dealt_hands(deal, names, tn("the boneyard: {count} tile", "the boneyard: {count} tiles",
                                         deal.board.boneyard))
    told, untold = train_news_lines(moves, None, board, names, None)
    yield from ("  " + line() for line in told + untold_lines(untold, names, None))
    for event in story:
        if isinstance(event, MexicanRoundEnded):
            head_line, *totals = describe_train_result(event.result, names, None)
            yield "  " + head_line
            yield from left_in_hands(event.result.hands, event.result.counts, names)
            yield from ("  " + line for line in totals)
        elif isinstance(event, MexicanMatchEnded):
            yield ""
            yield describe_train_winners(event.winners, event.totals, names, None)
