"""The replay screen with a match of Fives and Threes: each play told with its points, the pegging board
following the positions, and the record's final scores at the end."""

from __future__ import annotations

from pathlib import Path

import pytest
from capicu.core.ai.coach import CoachBudget
from capicu.core.fives import FivesTilePlayed, FivesView
from capicu.net.store.record import read_record
from capicu.tui.app import CapicuApp
from capicu.tui.game import DisplayOptions, OpenReplays
from capicu.tui.screens.coach import CoachSeatScreen
from capicu.tui.screens.replay import ReplayScreen
from capicu.tui.screens.replays import replay_screen
from capicu.tui.widgets.pegging_board import PeggingBoard
from capicu.tui.widgets.status_line import StatusLine
from helpers_app import screen_text, wait_for
from helpers_replay import keep
from textual.widgets import Static


@pytest.fixture(autouse=True)
def _own_folders(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CAPICU_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("CAPICU_DATA_DIR", str(tmp_path / "data"))


async def test_a_fives_match_replays_with_its_points_and_its_pegging_board(tmp_path: Path) -> None:
    path = keep(tmp_path / "data" / "records", "fives-and-threes", 4, seed=2)
    record = read_record(path)
    app = CapicuApp(DisplayOptions(mouse=False), OpenReplays(path))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen), what="the replay")
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        positions = screen.replay.positions
        # Step to the first play that scored: the status line tells it as the table's log does.
        index = next(i for i, p in enumerate(positions)
                     if any(isinstance(e, FivesTilePlayed) and e.points for e in p.events))
        for _ in range(index):
            await pilot.press("right")
        played = next(e for e in positions[index].events if isinstance(e, FivesTilePlayed))
        status = screen.query_one(StatusLine).prompt
        assert f"{played.tile}" in status and f"{played.total} for {played.points}." in status
        board = screen.query_one(PeggingBoard)
        view = positions[index].board
        assert isinstance(view, FivesView)
        assert [track.score for track in board.tracks] == list(view.scores)
        assert any(track.last for track in board.tracks)
        # The last position: the record's final scores on the board, the winner named.
        await pilot.press("end")
        await pilot.pause()
        final = positions[-1].board
        assert isinstance(final, FivesView) and final.winner is not None
        assert [track.score for track in board.tracks] == list(final.scores)
        assert max(final.scores) >= final.target
        assert "The match goes to" in screen_text(app)
        assert record.winner_names


async def test_the_coach_speaks_in_a_fives_replay(tmp_path: Path) -> None:
    """The coach (core/ai/coach.py) judges a Fives player; the replay shows its remarks as for every game."""
    path = keep(tmp_path / "records", "fives-and-threes", 2, seed=3)
    app = CapicuApp(DisplayOptions(mouse=False))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = replay_screen(read_record(path), path)
        screen.coach_budget = CoachBudget(fives_samples=8)
        await app.push_screen(screen)
        await pilot.pause()
        await pilot.press("c")
        await wait_for(pilot, lambda: isinstance(app.screen, CoachSeatScreen), what="the seats")
        await pilot.press("enter")
        await wait_for(pilot, lambda: screen.coached is not None, steps=3000, what="the analysis")
        analysis = screen.coached
        assert analysis is not None and analysis.decisions
        # Before a decision: the coach's words beside the line, the pegging board still there.
        decision = analysis.flagged[0] if analysis.flagged else analysis.decisions[0]
        await pilot.press("home", *["right"] * (decision.position - 1))
        assert screen.decision_in_view() is decision
        shown = str(screen.query_one("#coach", Static).render())
        assert shown.strip()
        assert screen.query_one(PeggingBoard).tracks
