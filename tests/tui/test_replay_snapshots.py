"""Snapshots of the replay (issue 24): a Draw-family match mid-round and at a round's end, Mexican Train
mid-round, in ASCII, and the list of records, at 80x24.

The records are made by computer players from fixed seeds, and times are read in UTC, so that each
picture is the same on every run.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from capicu.tui.app import CapicuApp
from capicu.tui.game import DisplayOptions, OpenReplays
from capicu.tui.screens.replay import ReplayScreen
from capicu.tui.screens.replays import ReplaysScreen
from capicu.tui.widgets.status_line import StatusLine
from helpers_app import wait_for
from helpers_replay import START, keep
from textual.pilot import Pilot

SIZE = (80, 24)


@pytest.fixture(autouse=True)
def _own_folders(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CAPICU_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("CAPICU_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()


def _at(steps: int, *, round_end: bool = False) -> Any:
    async def go(pilot: Pilot[Any]) -> None:
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, ReplayScreen), what="the replay")
        screen = pilot.app.screen
        assert isinstance(screen, ReplayScreen)
        if round_end:
            await pilot.press("pagedown", "left")  # the first round's finished table
        else:
            await pilot.press(*["right"] * steps)
        await pilot.pause()

    return go


@pytest.mark.parametrize(("preset", "players", "steps", "ascii"), [
    ("puerto-rican-drawing", 2, 9, False),
    ("puerto-rican-partners", 4, 14, False),
    ("puerto-rican-partners", 4, 14, True),
    ("mexican-train", 4, 30, False),
    ("mexican-train", 8, 30, True),
])
def test_the_replay_mid_round(snap_compare: Any, tmp_path: Path, preset: str, players: int, steps: int,
                              ascii: bool) -> None:
    path = keep(tmp_path / "data" / "records", preset, players)
    app = CapicuApp(DisplayOptions(mouse=False, ascii=ascii), OpenReplays(path))
    assert snap_compare(app, terminal_size=SIZE, run_before=_at(steps))


@pytest.mark.parametrize(("preset", "players"), [("puerto-rican-partners", 4), ("mexican-train", 4)])
def test_the_replay_at_a_round_end(snap_compare: Any, tmp_path: Path, preset: str, players: int) -> None:
    path = keep(tmp_path / "data" / "records", preset, players)
    app = CapicuApp(DisplayOptions(mouse=False), OpenReplays(path))
    assert snap_compare(app, terminal_size=SIZE, run_before=_at(0, round_end=True))


def test_the_list_of_records(snap_compare: Any, tmp_path: Path) -> None:
    folder = tmp_path / "data" / "records"
    keep(folder, "puerto-rican-drawing", 2, seed=1, started=START)
    keep(folder, "mexican-train", 4, seed=2, started=START + 7200)
    keep(folder, "puerto-rican-partners", 4, seed=3, started=START + 3600)
    (folder / "20250101T000000Z-broken.capicu-record").write_bytes(b"garbage")
    app = CapicuApp(DisplayOptions(mouse=False), OpenReplays(None))

    async def listed(pilot: Pilot[Any]) -> None:
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, ReplaysScreen), what="the list")
        await pilot.pause()

    assert snap_compare(app, terminal_size=SIZE, run_before=listed)


def test_the_coach_at_a_flagged_decision(snap_compare: Any, tmp_path: Path) -> None:
    from capicu.core.ai.coach import CoachBudget
    from capicu.net.store.record import read_record
    from capicu.tui.screens.replays import replay_screen

    path = keep(tmp_path / "data" / "records", "puerto-rican-partners", 4)
    app = CapicuApp(DisplayOptions(mouse=False))

    async def coached(pilot: Pilot[Any]) -> None:
        screen = replay_screen(read_record(path), path)
        screen.coach_budget = CoachBudget(samples=12, train_samples=4)
        await pilot.app.push_screen(screen)
        await pilot.pause()
        screen.coach(0)
        await wait_for(pilot, lambda: screen.coached is not None, steps=3000, what="the analysis")
        screen.query_one(StatusLine).clear_notice()
        await pilot.press("f")
        await pilot.pause()

    assert snap_compare(app, terminal_size=SIZE, run_before=coached)
