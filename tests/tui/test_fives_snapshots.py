"""Snapshots of Fives and Threes' table (issue 30): four players at 80x24, in the theme's colours and in
ASCII: a turn after plays that scored (the total, "15 for 8" under the last tile, the pegging board), a
tile asking for its end, a hand's end (every hand shown), the final score, and the replay board.

Seeds and names are fixed; computers play at once (pace 0), and a picture is taken only when the
table waits for this player, so each is the same on every run.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from capicu.core import Play
from capicu.tui.app import CapicuApp
from capicu.tui.game import DisplayOptions, OpenReplays
from capicu.tui.screens.fives_match_over import FivesMatchOverScreen
from capicu.tui.screens.replay import ReplayScreen
from helpers_app import wait_for
from helpers_fives_table import fives_app, fives_view, hand_over, my_fives_turn, play_fives_until
from helpers_replay import keep
from textual.pilot import Pilot

SMALL = (80, 24)


@pytest.fixture(autouse=True)
def _own_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CAPICU_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("CAPICU_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setattr("capicu.tui.widgets.status_line.NOTICE_SECONDS", 3600.0)


async def _settle(pilot: Pilot[Any]) -> None:
    await pilot.wait_for_scheduled_animations()
    await pilot.pause(0.2)
    pilot.app.clear_notifications()
    await pilot.pause()


def _scores_made(app: CapicuApp) -> bool:
    view = fives_view(app)
    return my_fives_turn(app) and view is not None and min(view.scores) > 0 and len(view.line) >= 4


@pytest.mark.parametrize("ascii", [False, True])
def test_a_turn_with_the_total_and_the_pegging_board(snap_compare: Any, ascii: bool) -> None:
    app = fives_app(seed=3, ascii=ascii)

    async def turn(pilot: Pilot[Any]) -> None:
        await play_fives_until(pilot, app, lambda: _scores_made(app))
        await _settle(pilot)

    assert snap_compare(app, terminal_size=SMALL, run_before=turn)


def _fits_both_ends(app: CapicuApp) -> Play | None:
    view = fives_view(app)
    if not my_fives_turn(app) or view is None or view.ends is None or view.ends[0] == view.ends[1]:
        return None
    ends = {}
    for action in view.legal:
        if isinstance(action, Play):
            ends.setdefault(action.tile, []).append(action)
    return next((plays[0] for plays in ends.values() if len(plays) == 2), None)


@pytest.mark.parametrize("ascii", [False, True])
def test_a_tile_that_fits_both_ends_asks_which(snap_compare: Any, ascii: bool) -> None:
    app = fives_app(seed=3, ascii=ascii)

    async def asking(pilot: Pilot[Any]) -> None:
        await play_fives_until(pilot, app, lambda: _fits_both_ends(app) is not None)
        play = _fits_both_ends(app)
        view = fives_view(app)
        assert play is not None and view is not None
        await pilot.press("home", *["right"] * view.hand.index(play.tile), "enter")
        await _settle(pilot)

    assert snap_compare(app, terminal_size=SMALL, run_before=asking)


@pytest.mark.parametrize("ascii", [False, True])
def test_the_hands_end_shows_every_hand_and_the_go(snap_compare: Any, ascii: bool) -> None:
    app = fives_app(seed=3, ascii=ascii)

    async def ended(pilot: Pilot[Any]) -> None:
        await play_fives_until(pilot, app, lambda: hand_over(app))
        await _settle(pilot)

    assert snap_compare(app, terminal_size=SMALL, run_before=ended)


@pytest.mark.parametrize("ascii", [False, True])
def test_the_final_score_per_hand_and_side(snap_compare: Any, ascii: bool) -> None:
    app = fives_app(seed=3, ascii=ascii, target=25)

    async def over(pilot: Pilot[Any]) -> None:
        await play_fives_until(pilot, app, lambda: (v := fives_view(app)) is not None and v.match_over,
                               turns=400)
        await wait_for(pilot, lambda: bool(getattr(app.screen, "takes_ready", False)), what="Enter taken")
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, FivesMatchOverScreen), what="the final score")
        await _settle(pilot)

    assert snap_compare(app, terminal_size=SMALL, run_before=over)


@pytest.mark.parametrize("ascii", [False, True])
def test_the_replay_board(snap_compare: Any, tmp_path: Path, ascii: bool) -> None:
    path = keep(tmp_path / "data" / "records", "fives-and-threes", 4, seed=2)
    app = CapicuApp(DisplayOptions(ascii=ascii, mouse=False), OpenReplays(path))

    async def stepped(pilot: Pilot[Any]) -> None:
        await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen), what="the replay")
        await pilot.press(*["right"] * 7)
        await _settle(pilot)

    assert snap_compare(app, terminal_size=SMALL, run_before=stepped)
