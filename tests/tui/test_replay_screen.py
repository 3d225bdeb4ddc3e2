"""The replay screen (issue 24, part 2): stepping a recorded match with ← →, Home/End and PgUp/PgDn
reaches the right positions, and the last one shows the recorded final totals; the list of records,
newest first, with a damaged file listed as damaged; Replays in the main menu.

Records are made by computer players (tests/tui/helpers_replay.py) and read from a folder of the
test's own, as `capicu replay` reads the player's.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from capicu.net.store.record import read_record
from capicu.tui.app import CapicuApp
from capicu.tui.game import DisplayOptions, OpenReplays
from capicu.tui.screens.replay import ReplayScreen
from capicu.tui.screens.replays import ReplaysScreen
from capicu.tui.widgets.seat_panel import SeatPanel
from capicu.tui.widgets.status_line import StatusLine
from capicu.tui.widgets.train_lanes import TrainLanes
from helpers_app import screen_text, wait_for
from helpers_replay import START, keep
from textual.pilot import Pilot
from textual.widgets import DataTable


@pytest.fixture(autouse=True)
def _own_folders(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CAPICU_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("CAPICU_DATA_DIR", str(tmp_path / "data"))


def _records(tmp_path: Path) -> Path:
    return tmp_path / "data" / "records"


async def _replay_of(pilot: Pilot[Any]) -> ReplayScreen:
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, ReplayScreen), what="the replay")
    screen = pilot.app.screen
    assert isinstance(screen, ReplayScreen)
    return screen


def _status(screen: ReplayScreen) -> str:
    return screen.query_one(StatusLine).prompt


@pytest.mark.parametrize(("preset", "players"), [("puerto-rican-drawing", 2), ("puerto-rican-partners", 4),
                                                 ("mexican-train", 4)])
async def test_the_keys_step_through_the_match(tmp_path: Path, preset: str, players: int) -> None:
    path = keep(_records(tmp_path), preset, players)
    record = read_record(path)
    app = CapicuApp(DisplayOptions(mouse=False), OpenReplays(path))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _replay_of(pilot)
        positions = screen.replay.positions
        starts = screen.replay.round_starts()
        assert screen.position == 0
        assert _status(screen).startswith("Round 1, the deal")
        await pilot.press("right", "right", "right")
        assert screen.position == 3
        assert _status(screen).startswith(f"Round 1, move 3 of {starts[1] - 1}:")
        await pilot.press("left")
        assert screen.position == 2
        await pilot.press("pagedown")
        assert screen.position == starts[1]
        assert _status(screen).startswith("Round 2, the deal")
        await pilot.press("right", "right", "pageup")
        assert screen.position == starts[1]  # back to this round's deal
        await pilot.press("pageup")
        assert screen.position == starts[0]
        await pilot.press("left")
        assert screen.position == 0  # nothing before the first
        await pilot.press("end")
        assert screen.position == len(positions) - 1
        await pilot.press("right")
        assert screen.position == len(positions) - 1  # nothing after the last
        await pilot.press("pagedown")
        assert screen.position == len(positions) - 1
        # The last position shows the totals the record says.
        await pilot.pause()
        if preset == "mexican-train":
            lanes = screen.query_one(TrainLanes).lanes
            shown = {lane.owner: lane.total for lane in lanes if lane.hand is not None}
            assert shown == {name: record.total_of(seat) for seat, name in enumerate(record.names)}
        else:
            for seat in range(players):
                panel = screen.query_one(f"#seat-{seat}", SeatPanel)
                assert panel.info is not None and panel.info.score == record.total_of(seat)
        text = screen_text(app)
        for name in record.winner_names:
            assert name in text  # the summary says who won
        await pilot.press("home")
        assert screen.position == 0
        await pilot.press("q")
        await wait_for(pilot, lambda: not app.is_running, what="the app to end")


async def test_every_hand_is_shown_face_up_and_the_log_follows(tmp_path: Path) -> None:
    path = keep(_records(tmp_path), "puerto-rican-drawing", 2)
    app = CapicuApp(DisplayOptions(mouse=False), OpenReplays(path))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _replay_of(pilot)
        dealt = screen.replay.positions[0]
        text = screen_text(app)
        for view in dealt.views:
            for tile in view.hand:
                assert f"[{tile.low}|{tile.high}]" in text
        await pilot.press("right", "right")
        text = screen_text(app)
        assert "Beto leads with 6-6." in text  # the log, in the table's words
        assert "Round 1, move 2 of" in text


async def test_the_list_is_newest_first_and_a_damaged_file_does_not_open(tmp_path: Path) -> None:
    folder = _records(tmp_path)
    keep(folder, "puerto-rican-drawing", 2, seed=1, started=START)
    keep(folder, "mexican-train", 3, seed=2, started=START + 7200)
    keep(folder, "draw", 3, seed=3, started=START + 3600)
    (folder / "20250101T000000Z-broken.capicu-record").write_bytes(b"\x81\xa6format")
    app = CapicuApp(DisplayOptions(mouse=False), OpenReplays(None))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ReplaysScreen), what="the list")
        screen = app.screen
        assert isinstance(screen, ReplaysScreen)
        games = [entry.preset if not isinstance(entry, str) else "damaged" for _, entry in screen.rows]
        assert games == ["mexican-train", "draw", "puerto-rican-drawing", "damaged"]
        assert "damaged" in screen_text(app)
        table = screen.query_one(DataTable)
        table.move_cursor(row=3)
        await pilot.pause()
        # Its whole reason is read under the list while its row is chosen (its column cuts it).
        reason = screen.rows[3][1]
        assert isinstance(reason, str) and len(reason) > 40
        shown = " ".join(row.strip() for row in screen_text(app).splitlines())
        assert f"20250101T000000Z-broken.capicu-record cannot be replayed: {reason}" in shown, shown
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is screen  # it did not open...
        assert any("cannot be replayed" in n.message for n in app._notifications)  # ...and said why
        table.move_cursor(row=1)
        await pilot.press("enter")
        replay = await _replay_of(pilot)
        assert replay.replay.positions[0].board.rules.preset == "draw"
        await pilot.press("q")
        await wait_for(pilot, lambda: app.screen is screen, what="back to the list")
        await pilot.press("q")
        await wait_for(pilot, lambda: not app.is_running, what="the app to end")


async def test_an_empty_folder_says_so(tmp_path: Path) -> None:
    app = CapicuApp(DisplayOptions(mouse=False), OpenReplays(None))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ReplaysScreen), what="the list")
        assert "No recorded matches yet" in screen_text(app)


async def test_replays_in_the_main_menu(tmp_path: Path) -> None:
    keep(_records(tmp_path), "puerto-rican-drawing", 2)
    app = CapicuApp(DisplayOptions(mouse=False))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert "Replays" in screen_text(app)
        await pilot.press("v")
        await wait_for(pilot, lambda: isinstance(app.screen, ReplaysScreen), what="the list")
        await pilot.press("enter")
        await _replay_of(pilot)
        await pilot.press("q", "q")
        await wait_for(pilot, lambda: "Replays" in screen_text(app) and app.is_running, what="the menu")


async def test_a_damaged_file_asked_for_ends_the_app_with_its_sentence(tmp_path: Path) -> None:
    path = tmp_path / "bad.capicu-record"
    path.write_bytes(b"not msgpack at all \xc1")
    app = CapicuApp(DisplayOptions(mouse=False), OpenReplays(path))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: not app.is_running, what="the app to end")
    assert app.failure is not None and str(path) in app.failure


async def test_the_replay_follows_a_change_of_language(tmp_path: Path) -> None:
    path = keep(_records(tmp_path), "mexican-train", 2)
    app = CapicuApp(DisplayOptions(mouse=False), OpenReplays(path))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _replay_of(pilot)
        await pilot.press("right", "right")
        assert _status(screen).startswith("Round 1, move 2 of")
        app.set_language("es")
        await wait_for(pilot, lambda: _status(screen).startswith("Mano 1, jugada 2 de"), what="Spanish")
        text = screen_text(app)
        assert "Repetición" in text and "la máquina es el 12-12" in text
        assert screen.position == 2  # where it was
