"""Screens follow the App's own settings through its reactives: tile style, ASCII mode, language."""

from __future__ import annotations

from pathlib import Path

import pytest
from capicu.tui.screens.draw_table import DrawTableScreen
from capicu.tui.widgets.hand_view import HandView
from capicu.tui.widgets.line_of_play import LineOfPlay
from capicu.tui.widgets.seat_panel import SeatPanel
from capicu.tui.widgets.tiles import TileStyle
from helpers_app import my_turn, screen_text, solo_app, wait_for


@pytest.fixture(autouse=True)
def _own_config(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("CAPICU_CONFIG_DIR", str(tmp_path / "config"))


async def test_the_table_follows_the_tile_style_ascii_and_language_the_app_is_given() -> None:
    app = solo_app(seed=3)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, DrawTableScreen) and my_turn(app),
                       what="my turn")
        await pilot.pause()  # the mount handlers have all run
        table = app.screen
        hand, line = table.query_one(HandView), table.query_one(LineOfPlay)
        app.set_tile_style(TileStyle.PIPS.value)
        assert hand.tile_style is TileStyle.PIPS and line.tile_style is TileStyle.PIPS
        app.set_ascii(True)
        assert hand.ascii and line.ascii and all(panel.ascii for panel in table.query(SeatPanel))
        app.set_ascii(False)
        assert not hand.ascii
        app.set_language("es")
        await wait_for(pilot, lambda: "Jugar ficha" in screen_text(app), what="the table in Spanish")
        app.set_language("en")
        await wait_for(pilot, lambda: "Play tile" in screen_text(app), what="the table in English again")
