"""The coach in the replay (issue 24, part 3): choose a player, the analysis runs in a worker with a
progress bar and Esc stops it; the result is kept beside the record (net/store/coach_store.py) and shown at
once the second time; each decision is marked, the one in view with its choices, and the summary's
keys go to the costliest decisions.

The coach searches little here (a small `CoachBudget`) so the tests stay quick; cancelling uses the
coach's own budget, where a decision takes long enough to be stopped mid-way.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from capicu.core.ai.coach import CoachBudget
from capicu.net.store.coach_store import cache_path, load_analysis
from capicu.net.store.record import read_record
from capicu.tui.app import CapicuApp
from capicu.tui.game import DisplayOptions
from capicu.tui.screens.coach import CoachSeatScreen, CoachSummaryScreen
from capicu.tui.screens.replay import ReplayScreen
from capicu.tui.screens.replays import replay_screen
from capicu.tui.widgets.status_line import StatusLine
from helpers_app import screen_text, wait_for
from helpers_replay import keep
from textual.pilot import Pilot
from textual.widgets import ProgressBar, Static

QUICK = CoachBudget(samples=12, train_samples=4)


@pytest.fixture(autouse=True)
def _own_folders(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CAPICU_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("CAPICU_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setattr("capicu.tui.widgets.status_line.NOTICE_SECONDS", 3600.0)


async def _open(pilot: Pilot[Any], path: Path, budget: CoachBudget | None = QUICK) -> ReplayScreen:
    screen = replay_screen(read_record(path), path)
    screen.coach_budget = budget
    await pilot.app.push_screen(screen)
    await pilot.pause()
    return screen


async def _choose(pilot: Pilot[Any], seat: int) -> None:
    await pilot.press("c")
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, CoachSeatScreen), what="the seats")
    for _ in range(seat):
        await pilot.press("down")
    await pilot.press("enter")


@pytest.mark.parametrize(("preset", "players"), [("puerto-rican-drawing", 2), ("mexican-train", 3)])
async def test_coach_a_player_then_look_again_at_once(tmp_path: Path, preset: str, players: int) -> None:
    path = keep(tmp_path / "records", preset, players)
    app = CapicuApp(DisplayOptions(mouse=False))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _open(pilot, path)
        await _choose(pilot, 0)
        await wait_for(pilot, lambda: screen.coached is not None, steps=3000, what="the analysis")
        analysis = screen.coached
        assert analysis is not None and analysis.seat == 0
        decisions = screen.replay.decisions_of(0)
        bar = screen.query_one(ProgressBar)
        assert bar.total == len(decisions) and bar.progress == len(decisions)
        assert not screen.has_class("-coaching")  # the progress row is gone
        assert [d.position for d in analysis.decisions] == list(decisions)
        assert load_analysis(path, 0) is not None and cache_path(path).exists()  # kept beside the record
        # Before a flagged decision: its verdict and every choice with its points.
        assert analysis.flagged, "a normal player's match has costly decisions"
        await pilot.press("f")
        flagged = analysis.flagged[0]
        assert screen.position == flagged.position - 1
        assert screen.decision_in_view() is flagged
        shown = str(screen.query_one("#coach", Static).render())
        assert "was better by about" in shown and "(chosen)" in shown
        assert screen.query_one("#coach").has_class("-flagged")
        # The summary, and its keys to the costliest decisions.
        await pilot.press("home", "s")
        await wait_for(pilot, lambda: isinstance(app.screen, CoachSummaryScreen), what="the summary")
        assert "Points given away" in screen_text(app)
        await pilot.press("1")
        await wait_for(pilot, lambda: app.screen is screen, what="the replay again")
        assert screen.position == analysis.costliest[0].position - 1

    # A second look, in another run of the program: the kept analysis, at once (no worker).
    app = CapicuApp(DisplayOptions(mouse=False))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _open(pilot, path, budget=CoachBudget(samples=10**6, train_samples=10**6))
        await pilot.press("c")
        await wait_for(pilot, lambda: isinstance(app.screen, CoachSeatScreen), what="the seats")
        assert "(analysed)" in screen_text(app)
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.screen is screen, what="the replay")
        assert screen.coached is not None and screen.coaching is None
        assert screen.coached.decisions == analysis.decisions


async def test_esc_stops_the_coach(tmp_path: Path) -> None:
    path = keep(tmp_path / "records", "puerto-rican-drawing", 2)
    app = CapicuApp(DisplayOptions(mouse=False))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _open(pilot, path, budget=None)  # the coach's own budget: slow enough to stop
        await _choose(pilot, 1)
        await wait_for(pilot, lambda: screen.coaching == 1, what="the coach to start")
        assert screen.has_class("-coaching")
        await wait_for(pilot, lambda: "Esc stops it" in screen_text(app), what="the progress row")
        bar = screen.query_one(ProgressBar)
        await wait_for(pilot, lambda: bar.total is not None, what="the first progress")
        await pilot.press("escape")
        assert screen.coaching is None and not screen.has_class("-coaching")
        assert isinstance(app.screen, ReplayScreen)  # Esc stopped the coach, it did not close the replay
        assert screen.query_one(StatusLine).notice == "The coach stopped."
        await wait_for(pilot, lambda: not screen.workers, steps=3000, what="the worker to end")
        assert screen.coached is None and 1 not in screen.analyses
        assert load_analysis(path, 1) is None


@pytest.mark.parametrize("language", ["en", "es"])
async def test_the_coachs_sentence_is_whole_and_f_is_in_the_footer(tmp_path: Path, language: str) -> None:
    """Issue 31: at 80x24 the status line was cut ("s: the summary, f: the") and f was not in the footer."""
    path = keep(tmp_path / "records", "puerto-rican-drawing", 2)
    app = CapicuApp(DisplayOptions(mouse=False, language=language))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _open(pilot, path)
        assert "f " not in screen_text(app).splitlines()[-1]  # nobody coached yet: nothing to go to
        await _choose(pilot, 0)
        await wait_for(pilot, lambda: screen.coached is not None, steps=3000, what="the analysis")
        await pilot.pause()
        said = str(screen.query_one(StatusLine).render())
        rows = screen_text(app).splitlines()
        shown = " ".join(row.strip() for row in rows)
        assert said.endswith(("f: the next one.", "f: la siguiente.")), said
        assert said in shown, (said, rows)
        footer = rows[-1]
        assert " f " in f" {footer}" and ("Next flagged" in footer or "Siguiente señalada" in footer), footer
