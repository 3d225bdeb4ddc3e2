"""Names from outside (a faulty or hostile host, a record) shown by Fives and Threes' table are cleaned on
display: no escape sequence, no right-to-left override, no zero-width character reaches the terminal,
in the log's sentences, the sides' labels, the seats, the pegging board and the final score's words."""

from __future__ import annotations

import unicodedata

from capicu.core import End, Tile
from capicu.core.fives import FivesTilePlayed, Knocked
from capicu.core.fives.events import FivesRoundStarted
from capicu.core.rules import FivesRules
from capicu.tui.widgets.pegging_board import PeggingBoard, Track
from capicu.tui.words.describe_fives import (
    describe_chipped_out,
    describe_fives_event,
    describe_fives_winner,
    fives_side,
)
from widget_harness import WidgetApp

HOSTILE = ("\x1b[31mAna\x1b[0m", "\u202eBeto\u202c", "Ca\u200brla\u2066", "D\x07ora\x9b2J")


def _clean(text: str) -> bool:
    """Nothing in ``text`` a terminal would act on or that reorders or hides what is shown."""
    return all(unicodedata.category(ch) not in ("Cc", "Cf") for ch in text)


def test_the_sentences_and_labels_of_fives_clean_every_name() -> None:
    rules = FivesRules()
    said = [fives_side(side, rules, 4, HOSTILE, None) for side in range(2)]
    said += [fives_side(side, FivesRules(partnerships=False), 4, HOSTILE, 0) for side in range(4)]
    said.append(describe_fives_event(FivesRoundStarted(1, 1, (5, 5, 5, 5), 8, 0), HOSTILE, 0, rules=rules,
                                     players=4, target=61))
    said.append(describe_fives_event(FivesTilePlayed(1, Tile(5, 5), End.LEFT, 5, 5, 10, 2, 2),
                                     HOSTILE, 0, rules=rules, players=4, target=61))
    said.append(describe_fives_event(Knocked(2, 3, 4), HOSTILE, 0, rules=rules, players=4, target=61))
    said.append(describe_chipped_out(3, HOSTILE, 0))
    said.append(describe_fives_winner(1, (40, 61), HOSTILE, 0, rules=rules, players=4))
    for text in said:
        assert _clean(text), repr(text)
    assert "Beto" in said[0] + said[1] and "Carla" in said[0] + said[1]


async def test_the_pegging_board_cleans_its_labels() -> None:
    board = PeggingBoard(id="board")
    app = WidgetApp(lambda: [board])
    async with app.run_test(size=(80, 10)) as pilot:
        board.update_board(tuple(Track(name, 10, 5) for name in HOSTILE), 61)
        await pilot.pause()
        rows = [row.plain for row in board.rows(board.content_size.width)]
        assert all(_clean(row) for row in rows), rows
        assert rows[1].startswith("Beto")
