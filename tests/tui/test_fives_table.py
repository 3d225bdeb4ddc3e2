"""Fives and Threes' table as a player meets it: the ends' total, "15 for 8", the pegging board, the hint,
a hand's end and the final score.

The real app against a real in-process host (a solo game: the computers move at once), driven by
key presses; what is checked is what the screen shows.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from capicu.core import PASS
from capicu.core.ai.fives_hints import suggest_fives
from capicu.core.fives import FivesRoundEnded, FivesTilePlayed
from capicu.tui.screens.fives_match_over import FivesMatchOverScreen
from capicu.tui.widgets.line_of_play import LineOfPlay
from capicu.tui.widgets.pegging_board import PeggingBoard
from capicu.tui.widgets.seat_panel import SeatPanel
from capicu.tui.widgets.status_line import StatusLine
from helpers_app import screen_text, wait_for
from helpers_fives_table import (
    fives_app,
    fives_view,
    hand_over,
    log_text,
    my_fives_turn,
    play_fives_until,
    take_fives_turn,
)
from textual.widgets import DataTable, Static

SIZE = (80, 24)


@pytest.fixture(autouse=True)
def _own_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CAPICU_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setattr("capicu.tui.widgets.status_line.NOTICE_SECONDS", 3600.0)


def _scoring_play(app: object) -> FivesTilePlayed | None:
    view = fives_view(app)  # type: ignore[arg-type]
    if view is None or view.turn is None:
        return None
    plays = [e for e in view.events if isinstance(e, FivesTilePlayed)]
    return plays[-1] if plays and plays[-1].points else None


def _board_rows(app: object) -> list[str]:
    board = app.screen.query_one(PeggingBoard)  # type: ignore[attr-defined]
    return [row.plain for row in board.rows(board.content_size.width)]


async def test_the_total_and_15_for_8_are_told_on_the_line_in_the_log_and_beside_it() -> None:
    app = fives_app(seed=3)
    async with app.run_test(size=SIZE) as pilot:
        await play_fives_until(pilot, app, lambda: my_fives_turn(app) and _scoring_play(app) is not None)
        view = fives_view(app)
        played = _scoring_play(app)
        assert view is not None and played is not None
        told = f"{played.total} for {played.points}"
        text = screen_text(app)
        # Beside the line: the two ends as they count, and their total.
        total = app.screen.query_one("#fives-total", Static).render()
        assert f"total {view.total}" in str(total)
        # On the line: the last tile's caption says what it made.
        line = app.screen.query_one(LineOfPlay)
        assert told in "\n".join(row.plain for row in line.rows(line.content_size.width))
        assert line.last_note == told
        # In the log, with the tile and its end.
        assert f"{played.tile} on the {played.end.value}: {told}." in log_text(app) or \
            f"leads {played.tile}: {told}." in log_text(app)
        # The status line says what the ends add up to on my turn.
        assert f"the ends add up to {view.total}" in text


async def test_the_pegging_board_moves_as_a_play_scores() -> None:
    app = fives_app(seed=3)
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(3):  # three scores in a row, each seen on the board
            await wait_for(pilot, lambda: my_fives_turn(app), what="my turn")
            first = fives_view(app)
            assert first is not None
            before = _board_rows(app)
            scores = first.scores
            await play_fives_until(pilot, app, lambda scores=scores: my_fives_turn(app)  # type: ignore[misc]
                                   and _scoring_play(app) is not None and fives_view(app).scores != scores)
            view = fives_view(app)
            played = _scoring_play(app)
            assert view is not None and played is not None
            rows = _board_rows(app)
            assert len(rows) == 2  # two partnerships: two tracks
            assert rows != before
            side = view.side_of(played.seat)
            # The side that scored last: its score, the points just pegged ("+8"), and its stretch marked.
            assert f" {view.scores[side]} +{played.scored}" in rows[side]
            assert "▓" in rows[side] and "▓" not in rows[1 - side]
            # Two points a cell at 80 columns: the cells pegged hold the score.
            assert rows[side].count("█") + rows[side].count("▓") == -(-view.scores[side] // 2)


async def test_the_hint_names_the_tile_and_its_points_and_moves_the_cursor() -> None:
    app = fives_app(seed=3)
    async with app.run_test(size=SIZE) as pilot:
        await play_fives_until(pilot, app, lambda: my_fives_turn(app) and fives_view(app).ends is not None  # type: ignore[union-attr]
                               and any(hasattr(a, "tile") for a in fives_view(app).legal))  # type: ignore[union-attr]
        view = fives_view(app)
        assert view is not None
        hint = suggest_fives(view, seed=view.round_number)
        await pilot.press("x")
        status = app.screen.query_one(StatusLine)
        await wait_for(pilot, lambda: "Hint:" in status.notice, what="the hint")
        said = status.notice
        assert hint.tile is not None
        assert str(hint.tile) in said
        scored = f"{hint.total} for {hint.points}" if hint.points else f"total {hint.total}"
        assert scored in said
        codes = {str(reason.code) for reason in hint.reasons}
        if "gives-easy" in codes:
            assert "an easy score" in said
        hand = app.screen.query_one("#hand")
        assert hand.selected == hint.tile  # type: ignore[attr-defined]


async def test_a_hand_ends_with_every_hand_shown_the_go_and_each_sides_points() -> None:
    app = fives_app(seed=3)
    async with app.run_test(size=SIZE) as pilot:
        await play_fives_until(pilot, app, lambda: hand_over(app))
        view = fives_view(app)
        assert view is not None
        ended = next(e for e in view.events if isinstance(e, FivesRoundEnded))
        summary = str(app.screen.query_one("#round-end", Static).render())
        assert "This hand:" in summary and "Score:" in summary
        assert "for the go" in summary or "blocked" in summary or "reached" in summary
        # Fives calls its rounds hands, the status line too.
        await wait_for(pilot, lambda: "Hand over: press Enter" in app.screen.query_one(StatusLine).prompt,
                       what="the hand over")
        # Each seat shows the tiles it was left with, and no pips (they count nothing).
        text = screen_text(app)
        for seat, held in enumerate(ended.result.hands):
            if seat != view.seat and held:
                assert " ".join(str(tile) for tile in held) in text
        assert "pip" not in text
        panels = [panel.info for panel in app.screen.query(SeatPanel)]
        assert all(info is not None and info.revealed is not None for info in panels)


async def test_knocking_is_the_p_key_and_is_told() -> None:
    app = fives_app(seed=3)
    async with app.run_test(size=SIZE) as pilot:
        await play_fives_until(pilot, app, lambda: my_fives_turn(app)
                               and fives_view(app).legal == (PASS,))  # type: ignore[union-attr]
        view = fives_view(app)
        assert view is not None and view.ends is not None
        assert f"Nothing fits {view.ends[0]} or {view.ends[1]}: press p to knock." in screen_text(app)
        await pilot.press("d")  # nobody draws by hand: the key says why
        status = app.screen.query_one(StatusLine)
        assert status.notice == "There is no drawing in this game: with nothing that fits, you knock."
        await take_fives_turn(pilot, app)
        assert f"You knock: nothing fits {view.ends[0]} or {view.ends[1]}." in log_text(app)


async def test_the_match_over_shows_the_points_per_hand_and_per_side() -> None:
    app = fives_app(seed=3, target=25)
    async with app.run_test(size=SIZE) as pilot:
        await play_fives_until(pilot, app, lambda: (v := fives_view(app)) is not None and v.match_over,
                               turns=400)
        view = fives_view(app)
        assert view is not None and view.winner is not None
        await wait_for(pilot, lambda: bool(getattr(app.screen, "takes_ready", False)), what="Enter taken")
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, FivesMatchOverScreen), what="the final score")
        text = screen_text(app)
        assert "The match goes to" in text
        table = app.screen.query_one(DataTable)
        assert table.row_count == len(view.results) + 1  # a row a hand, then the totals
        totals = [str(cell) for cell in table.get_row("totals")]
        assert totals[2:] == [str(score) for score in view.scores]
        for result in view.results:
            row = [str(cell) for cell in table.get_row_at(result.round_number - 1)]
            assert [cell.rstrip("+") for cell in row[2:]] == [str(points) for points in result.points]


async def test_the_table_in_spanish() -> None:
    app = fives_app(seed=3, language="es")
    async with app.run_test(size=SIZE) as pilot:
        await play_fives_until(pilot, app, lambda: my_fives_turn(app) and _scoring_play(app) is not None)
        view = fives_view(app)
        played = _scoring_play(app)
        assert view is not None and played is not None
        assert f"{played.total} da {played.points}." in log_text(app)
        assert f"suman {view.total}" in str(app.screen.query_one("#fives-total", Static).render())
        text = screen_text(app)
        assert f"Tu turno: las puntas suman {view.total}." in text
        assert "mano 1" in text and "a 61" in text
        assert app.screen.query_one(LineOfPlay).last_note == f"{played.total} da {played.points}"
