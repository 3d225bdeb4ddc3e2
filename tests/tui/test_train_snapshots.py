"""Snapshots of Mexican Train's table (issue 22): the opening run, an open double, markers up, the
round end and the match over, with 2, 4 and 8 players, at 80x24 and 160x48, and in ASCII.

Seeds and names are fixed; computers play at once (pace 0), and a picture is taken only when the
table waits for this player, so each is the same on every run.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec
import pytest
from capicu.tui.app import CapicuApp
from capicu.tui.game import DisplayOptions, SoloGame
from capicu.tui.screens.mexican_match_over import MexicanMatchOverScreen
from helpers_app import wait_for
from helpers_train import (
    MEXICAN_TRAIN,
    cursor_to,
    deal_by_hand,
    my_train_turn,
    next_train_turn,
    step,
    table_view,
    train_match,
    train_round_over,
)
from textual.pilot import Pilot

SMALL, LARGE = (80, 24), (160, 48)


@pytest.fixture(autouse=True)
def _own_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CAPICU_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setattr("capicu.tui.widgets.status_line.NOTICE_SECONDS", 3600.0)


def _app(players: int, *, seed: int = 5, ascii: bool = False, rounds: int | None = None) -> CapicuApp:
    rules = msgspec.structs.replace(MEXICAN_TRAIN, rounds=rounds)
    request = SoloGame(rules, players, "normal", seed=seed, name="Ana", pace=0.0)
    return CapicuApp(DisplayOptions(ascii=ascii, mouse=False), request)


async def _settle(pilot: Pilot[Any]) -> None:
    await pilot.wait_for_scheduled_animations()
    await pilot.pause(0.2)
    pilot.app.clear_notifications()
    await pilot.pause()


async def _play_until(pilot: Pilot[Any], app: CapicuApp, done: Any, turns: int = 200) -> None:
    for _ in range(turns):
        await wait_for(pilot, lambda: my_train_turn(app) or train_round_over(app), what="my turn")
        if done():
            return
        await next_train_turn(pilot, app)
    raise AssertionError("it never came")


@pytest.mark.parametrize(("players", "size", "ascii"), [
    (2, SMALL, False), (4, SMALL, False), (8, SMALL, False), (8, LARGE, False), (8, SMALL, True),
])
def test_the_opening_run_on_the_screen(snap_compare: Any, players: int, size: tuple[int, int],
                                       ascii: bool) -> None:
    app = _app(players, ascii=ascii)

    async def opening(pilot: Pilot[Any]) -> None:
        await _play_until(pilot, app, lambda: (v := table_view(app)) is not None and v.may_run
                          and my_train_turn(app))
        await pilot.press("enter")  # the first tile of the run, laid on the screen only
        await _settle(pilot)

    assert snap_compare(app, terminal_size=size, run_before=opening)


@pytest.mark.parametrize(("players", "size", "seed"), [(4, SMALL, 5), (8, SMALL, 1), (8, LARGE, 1)])
def test_an_open_double_to_cover(snap_compare: Any, players: int, size: tuple[int, int], seed: int) -> None:
    app = _app(players, seed=seed)

    def open_double() -> bool:  # another's double, left open for me to cover
        view = table_view(app)
        return view is not None and view.open_double is not None and not view.doubling and my_train_turn(app)

    async def play(pilot: Pilot[Any]) -> None:
        await _play_until(pilot, app, open_double)
        await _settle(pilot)

    assert snap_compare(app, terminal_size=size, run_before=play)


@pytest.mark.parametrize(("players", "size"), [(2, SMALL), (4, SMALL), (8, LARGE)])
def test_markers_up_and_a_tile_asking_for_its_train(snap_compare: Any, players: int,
                                                    size: tuple[int, int]) -> None:
    from capicu.core import Play

    app = _app(players, seed=5)

    def two_trains() -> bool:
        view = table_view(app)
        if view is None or not my_train_turn(app) or not any(t.marker for t in view.trains[:-1]):
            return False
        tiles = [a.tile for a in view.legal if isinstance(a, Play)]
        return len(tiles) != len(set(tiles))

    async def play(pilot: Pilot[Any]) -> None:
        await _play_until(pilot, app, two_trains)
        view = table_view(app)
        assert view is not None
        tiles = [a.tile for a in view.legal if isinstance(a, Play)]
        await cursor_to(pilot, app, next(t for t in tiles if tiles.count(t) > 1))
        await pilot.press("enter")  # which train? the lanes it may go on lit
        await _settle(pilot)

    assert snap_compare(app, terminal_size=size, run_before=play)


@pytest.mark.parametrize(("players", "size", "ascii"), [
    (2, SMALL, False), (4, SMALL, False), (8, SMALL, False), (8, LARGE, False), (4, SMALL, True),
])
def test_the_round_end_keeps_the_trains_and_every_count(snap_compare: Any, players: int,
                                                       size: tuple[int, int], ascii: bool) -> None:
    app = _app(players, ascii=ascii)

    async def round_end(pilot: Pilot[Any]) -> None:
        await _play_until(pilot, app, lambda: train_round_over(app))
        await _settle(pilot)

    assert snap_compare(app, terminal_size=size, run_before=round_end)


def _finished(players: int) -> Any:
    match = train_match(players, seed=5)
    while match.turn is not None:
        step(match)
    return match.view(0)


@pytest.mark.parametrize(("players", "size", "ascii"), [
    (2, SMALL, False), (4, SMALL, False), (8, SMALL, False), (8, LARGE, False), (8, SMALL, True),
])
def test_the_match_over_every_round_and_the_winner(snap_compare: Any, players: int, size: tuple[int, int],
                                                  ascii: bool) -> None:
    app = _app(players, ascii=ascii)

    async def over(pilot: Pilot[Any]) -> None:
        await wait_for(pilot, lambda: my_train_turn(app), what="the table")
        await app.push_screen(MexicanMatchOverScreen(_finished(players)))
        await wait_for(pilot, lambda: isinstance(app.screen, MexicanMatchOverScreen), what="the final score")
        await _settle(pilot)

    assert snap_compare(app, terminal_size=size, run_before=over)


@pytest.mark.parametrize("ascii", [False, True])
def test_a_turn_of_two_doubles_marked_cover_1st_and_2nd(snap_compare: Any, monkeypatch: pytest.MonkeyPatch,
                                                       ascii: bool) -> None:
    from capicu.core import Tile
    from test_train_table import DOUBLES_HANDS, DOUBLES_STOCK, NINE_ONE, _to_my_doubles

    deal_by_hand(monkeypatch, NINE_ONE, DOUBLES_HANDS, DOUBLES_STOCK)
    request = SoloGame(NINE_ONE, 2, "normal", seed=5, name="Ana", pace=0.0)
    app = CapicuApp(DisplayOptions(ascii=ascii, mouse=False), request)

    async def doubles(pilot: Pilot[Any]) -> None:
        await _to_my_doubles(pilot, app)
        for tile in (Tile(5, 5), Tile(6, 6)):  # laid on the screen: my lane to cover first, the Mexican 2nd
            await cursor_to(pilot, app, tile)
            await pilot.press("enter")
        await _settle(pilot)

    assert snap_compare(app, terminal_size=SMALL, run_before=doubles)
