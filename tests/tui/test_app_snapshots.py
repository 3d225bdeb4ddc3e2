"""Snapshots of the screens that matter: the lobby, the table mid-round, a long line turning at the
edges with the last tile marked, a draw with its new tiles marked, a round's end with the board and
every hand, the window too small, and a spectator's table (80x24, some at 160x48 too).

Seeds, names and the port are fixed so each picture is the same on every run;
computers play at once (pace 0) and the app is only photographed once it
waits for this player.
"""

from __future__ import annotations

import asyncio
import socket
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from capicu.core import Rules
from capicu.tui.app import CapicuApp
from capicu.tui.game import DisplayOptions, HostGame, JoinGame, make_host_config
from capicu.tui.screens.draw_table import DrawTableScreen
from helpers_app import my_turn, play_turn_and_wait, play_until, round_over, solo_app, wait_for
from textual.pilot import Pilot

SIZE = (80, 24)
THEMES = ("felt", "high-contrast")


@pytest.fixture(autouse=True)
def _own_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CAPICU_CONFIG_DIR", str(tmp_path / "config"))
    # A notice leaves the status line after a few seconds: frozen, so that the picture does not
    # depend on how fast the machine played the turns before it.
    monkeypatch.setattr("capicu.tui.widgets.status_line.NOTICE_SECONDS", 3600.0)


def _free_port_near(port: int) -> int:
    """``port`` if it is free (so the join line in the picture is stable), else skip."""
    with socket.socket() as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            pytest.skip(f"port {port} is taken; the lobby snapshot needs it")
    return port


def _lobby_app(theme: str) -> CapicuApp:
    config = make_host_config(
        rules=Rules.preset_named("puerto-rican-drawing"), players=3, computers=1, level="normal",
        bind="127.0.0.1", port=_free_port_near(47254), code="mesa42", seed=1,
    )
    return CapicuApp(DisplayOptions(mouse=False, theme=theme), HostGame(config=config, name="Ana"))


async def _settle(pilot: Pilot[Any]) -> None:
    """Let scrolling and layout finish (the log scrolls to its end after each line)."""
    await pilot.wait_for_scheduled_animations()
    await pilot.pause(0.2)
    pilot.app.clear_notifications()
    await pilot.pause()


@pytest.mark.parametrize("theme", THEMES)
def test_lobby(snap_compare: Any, theme: str) -> None:
    app = _lobby_app(theme)

    async def ready(pilot: Pilot[Any]) -> None:
        await wait_for(pilot, lambda: app.table is not None and len(app.table.seats) == 3, what="the seats")
        await _settle(pilot)

    assert snap_compare(app, terminal_size=SIZE, run_before=ready)


async def _play_until(pilot: Pilot[Any], app: CapicuApp, done: Any) -> None:
    await wait_for(pilot, lambda: isinstance(app.screen, DrawTableScreen), what="the table")
    await play_until(pilot, app, done)


def _view(app: CapicuApp) -> Any:
    return app.table.view if app.table is not None else None


@pytest.mark.parametrize("theme", THEMES)
def test_table_mid_round(snap_compare: Any, theme: str) -> None:
    app = solo_app(seed=3, players=3, theme=theme)

    async def mid_round(pilot: Pilot[Any]) -> None:
        await wait_for(pilot, lambda: my_turn(app), what="my turn")
        await play_turn_and_wait(pilot, app)
        await wait_for(pilot, lambda: my_turn(app), what="my second turn")
        await _settle(pilot)

    assert snap_compare(app, terminal_size=SIZE, run_before=mid_round)


@pytest.mark.parametrize("size", [SIZE, (160, 48)])
def test_a_long_line_turning_with_the_last_tile_marked(snap_compare: Any, size: tuple[int, int]) -> None:
    app = solo_app(seed=2, players=2)

    def long_line() -> bool:
        view = _view(app)
        return view is not None and view.is_my_turn and len(view.line) >= 13

    async def play(pilot: Pilot[Any]) -> None:
        await _play_until(pilot, app, long_line)
        await _settle(pilot)

    assert snap_compare(app, terminal_size=size, run_before=play)


@pytest.mark.parametrize("size", [SIZE, (160, 48)])
def test_a_draw_with_the_new_tiles_marked(snap_compare: Any, size: tuple[int, int]) -> None:
    from capicu.tui.widgets.hand_view import HandView

    app = solo_app(seed=5, players=2)

    def drew() -> bool:
        screen = app.screen
        return isinstance(screen, DrawTableScreen) and bool(screen.query_one(HandView).fresh) and my_turn(app)

    async def play(pilot: Pilot[Any]) -> None:
        await _play_until(pilot, app, drew)
        await _settle(pilot)

    assert snap_compare(app, terminal_size=size, run_before=play)


@pytest.mark.parametrize(("theme", "size"), [("felt", SIZE), ("high-contrast", SIZE), ("felt", (160, 48))])
def test_the_round_end_keeps_the_board_and_shows_every_hand(
    snap_compare: Any, theme: str, size: tuple[int, int]
) -> None:
    app = solo_app(seed=3, players=3, theme=theme)

    async def round_end(pilot: Pilot[Any]) -> None:
        await _play_until(pilot, app, lambda: round_over(app))
        await _settle(pilot)

    assert snap_compare(app, terminal_size=size, run_before=round_end)


def test_below_80x24_a_message_instead_of_the_table(snap_compare: Any) -> None:
    app = solo_app(seed=3, players=2)

    async def table(pilot: Pilot[Any]) -> None:
        await wait_for(pilot, lambda: my_turn(app), what="my turn")
        await _settle(pilot)

    assert snap_compare(app, terminal_size=(60, 20), run_before=table)


@pytest.fixture
def computers_table() -> Iterator[int]:
    """A host on 127.0.0.1 whose two computers wait (a long pace), in a thread of its own: its port.

    The app under the snapshot must find it listening when it starts.
    """
    from capicu.net.host.server import Host, HostConfig
    from capicu.net.host.table import TableConfig

    port = _free_port_near(47255)
    ready = threading.Event()
    stop: list[asyncio.Event] = []

    async def serve() -> None:
        table = TableConfig(rules=Rules.preset_named("puerto-rican-drawing"), players=2, computers=2,
                            computer_level="normal", computer_delay=3600.0, seed=4)
        host = Host(HostConfig(table, bind="127.0.0.1", port=port, code=None))
        await host.start()
        stop.append(asyncio.Event())
        ready.set()
        await stop[0].wait()
        await host.stop()

    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_until_complete, args=(serve(),), daemon=True)
    thread.start()
    assert ready.wait(10), "the host did not start"
    yield port
    loop.call_soon_threadsafe(stop[0].set)
    thread.join(10)
    loop.close()


@pytest.mark.parametrize("size", [SIZE, (160, 48)])
def test_a_spectators_table_and_footer(
    snap_compare: Any, computers_table: int, size: tuple[int, int]
) -> None:
    watching = JoinGame("127.0.0.1", computers_table, "Vera", spectate=True)
    app = CapicuApp(DisplayOptions(mouse=False), watching)

    async def watch(pilot: Pilot[Any]) -> None:
        await wait_for(pilot, lambda: isinstance(app.screen, DrawTableScreen) and _view(app) is not None,
                       what="the table")
        await _settle(pilot)

    assert snap_compare(app, terminal_size=size, run_before=watch)
