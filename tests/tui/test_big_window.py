"""A big window (200x60) used, not left empty: the Draw family's log a quarter of the width, Mexican
Train's hand under the lanes and the log's newest lines (issue 31 item 15).

80x24 and 60x20 stay as they were (their snapshots elsewhere are unchanged). Seeds and names are
fixed, computers play at once (pace 0), and a picture is taken only once the table waits for this
player, so each is the same on every run.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from capicu.tui.app import CapicuApp
from capicu.tui.game import DisplayOptions, SoloGame
from capicu.tui.screens.draw_table import DrawTableScreen
from capicu.tui.widgets.event_log import EventLog
from capicu.tui.widgets.hand_view import HandView
from capicu.tui.widgets.train_lanes import TrainLanes
from helpers_app import my_turn, play_turn_and_wait, solo_app, wait_for
from helpers_train import AS_BEFORE, my_train_turn, next_train_turn
from textual.pilot import Pilot

BIG = (200, 60)


@pytest.fixture(autouse=True)
def _own_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CAPICU_CONFIG_DIR", str(tmp_path / "config"))
    # A notice leaves the status line after a few seconds: frozen, so that the picture does not
    # depend on how fast the machine played the turns before it.
    monkeypatch.setattr("capicu.tui.widgets.status_line.NOTICE_SECONDS", 3600.0)


def _train_app() -> CapicuApp:
    request = SoloGame(AS_BEFORE, 4, "normal", seed=5, name="Ana", pace=0.0)
    return CapicuApp(DisplayOptions(mouse=False), request)


async def _settle(pilot: Pilot[Any]) -> None:
    await pilot.wait_for_scheduled_animations()
    await pilot.pause(0.2)
    pilot.app.clear_notifications()
    await pilot.pause()


async def _draw_turns(pilot: Pilot[Any], app: CapicuApp, turns: int) -> None:
    for _ in range(turns):
        await wait_for(pilot, lambda: my_turn(app), what="my turn")
        await play_turn_and_wait(pilot, app)
    await wait_for(pilot, lambda: my_turn(app), what="my turn")


async def _train_turns(pilot: Pilot[Any], app: CapicuApp, turns: int) -> None:
    for _ in range(turns):
        await next_train_turn(pilot, app)
    await wait_for(pilot, lambda: my_train_turn(app), what="my turn")


@pytest.mark.parametrize(("size", "width"), [((80, 24), 30), ((160, 48), 40), (BIG, 50)])
async def test_the_draw_familys_log_takes_a_quarter_of_a_wide_window(size: tuple[int, int],
                                                                     width: int) -> None:
    app = solo_app(seed=3, players=3)
    async with app.run_test(size=size) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, DrawTableScreen), what="the table")
        await pilot.pause()
        assert app.screen.query_one("#table-side").size.width == width


async def test_the_train_tables_hand_sits_under_the_lanes_and_the_log() -> None:
    app = _train_app()
    async with app.run_test(size=BIG) as pilot:
        await _train_turns(pilot, app, 2)
        screen = app.screen
        lanes, log = screen.query_one(TrainLanes), screen.query_one(EventLog)
        hand = screen.query_one(HandView)
        # Between the lanes and the hand: the log (16 rows at most), chat and the status line.
        assert log.outer_size.height == 16
        assert hand.region.y - lanes.region.bottom <= 16 + 1 + 2
        # A long sentence ("Computer 2 plays 7-12, 2-7, ... on their own train.") fills the log's width:
        # RichLog alone wrapped it at 80 cells, its console's width.
        assert max(len(strip.text.rstrip()) for strip in log.lines) > 80


def test_snapshot_the_draw_table_at_200x60(snap_compare: Any) -> None:
    app = solo_app(seed=3, players=3)

    async def mid_round(pilot: Pilot[Any]) -> None:
        await _draw_turns(pilot, app, 2)
        await _settle(pilot)

    assert snap_compare(app, terminal_size=BIG, run_before=mid_round)


def test_snapshot_the_train_table_at_200x60(snap_compare: Any) -> None:
    app = _train_app()

    async def mid_round(pilot: Pilot[Any]) -> None:
        await _train_turns(pilot, app, 2)
        await _settle(pilot)

    assert snap_compare(app, terminal_size=BIG, run_before=mid_round)

