"""Snapshots at 80x24 of the lobby, the table mid-round and the round summary, in two themes.

Seeds, names and the port are fixed so each picture is the same on every run;
computers play at once (pace 0) and the app is only photographed once it
waits for this player.
"""

from __future__ import annotations

import socket
from pathlib import Path
from typing import Any

import pytest
from capicu.core import Rules
from capicu.tui.app import CapicuApp, DisplayOptions, HostGame, make_host_config
from capicu.tui.screens.table import TableScreen
from helpers_app import my_turn, play_turn_and_wait, round_over, solo_app, wait_for
from textual.pilot import Pilot

SIZE = (80, 24)
THEMES = ("felt", "high-contrast")


@pytest.fixture(autouse=True)
def _own_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CAPICU_CONFIG_DIR", str(tmp_path / "config"))


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
        await wait_for(pilot, lambda: app.game is not None and len(app.game.seats) == 3, what="the seats")
        await _settle(pilot)

    assert snap_compare(app, terminal_size=SIZE, run_before=ready)


@pytest.mark.parametrize("theme", THEMES)
def test_table_mid_round(snap_compare: Any, theme: str) -> None:
    app = solo_app(seed=3, players=3, theme=theme)

    async def mid_round(pilot: Pilot[Any]) -> None:
        await wait_for(pilot, lambda: my_turn(app), what="my turn")
        await play_turn_and_wait(pilot, app)
        await wait_for(pilot, lambda: my_turn(app), what="my second turn")
        await _settle(pilot)

    assert snap_compare(app, terminal_size=SIZE, run_before=mid_round)


@pytest.mark.parametrize("theme", THEMES)
def test_round_summary(snap_compare: Any, theme: str) -> None:
    app = solo_app(seed=3, players=2, theme=theme)

    async def round_end(pilot: Pilot[Any]) -> None:
        await wait_for(pilot, lambda: isinstance(app.screen, TableScreen), what="the table")
        for _ in range(60):
            await wait_for(pilot, lambda: my_turn(app) or round_over(app), what="my turn")
            if round_over(app):
                break
            await play_turn_and_wait(pilot, app)
        assert round_over(app)
        # The next deal goes on beneath the summary: wait until it waits for us.
        await wait_for(pilot, lambda: my_turn(app), what="my turn in the next round")
        await _settle(pilot)

    assert snap_compare(app, terminal_size=SIZE, run_before=round_end)
