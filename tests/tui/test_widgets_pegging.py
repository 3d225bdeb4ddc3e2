"""The pegging board (tui/widgets/pegging_board.py): a hole a point when the width allows, the last score's
stretch drawn apart, every fifth cell marked, the same in ASCII."""

from __future__ import annotations

import pytest
from capicu.tui.widgets.pegging_board import PeggingBoard, Track
from widget_harness import WidgetApp


@pytest.mark.parametrize(("width", "per_cell"), [(80, 2), (120, 1), (200, 1)])
async def test_a_track_to_61_a_hole_a_point_when_it_fits(width: int, per_cell: int) -> None:
    board = PeggingBoard(id="board")
    app = WidgetApp(lambda: [board])
    async with app.run_test(size=(width, 10)) as pilot:
        board.update_board((Track("Ana and Luis", 23, 15, mine=True, last=True), Track("Beto and Eva", 9, 9)),
                           61)
        await pilot.pause()
        first, second = (row.plain for row in board.rows(board.content_size.width))
        cells = -(-61 // per_cell)
        track = first[len("Ana and Luis") + 1:][:cells]
        assert len(track) == cells
        # Ana and Luis: 15 pegged before, 8 pegged by their last score (a cell holding any of them is
        # drawn apart); "+8" beside the 23.
        assert track.count("█") == 15 // per_cell
        assert track.count("▓") == -(-23 // per_cell) - 15 // per_cell
        assert first.rstrip().endswith("23 +8")
        assert "▓" not in second and second.rstrip().endswith("9")
        assert track[4] in "█▓┆" and track[9] in "█▓┆"  # every fifth cell marked (or pegged)


async def test_the_board_in_ascii() -> None:
    board = PeggingBoard(id="board", ascii=True)
    app = WidgetApp(lambda: [board])
    async with app.run_test(size=(120, 10)) as pilot:
        board.update_board((Track("Ana", 12, 4, last=True), Track("Beto", 30, 30)), 61)
        await pilot.pause()
        rows = [row.plain for row in board.rows(board.content_size.width)]
        assert all(row.isascii() for row in rows)
        # Pegged and just-pegged cells cover the marks of every fifth hole.
        assert rows[0].startswith("Ana  " + "#" * 4 + "+" * 8 + "..:....:")
        assert rows[1].startswith("Beto " + "#" * 30 + "....:")
