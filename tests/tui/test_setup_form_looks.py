"""The setup form (menu, then a new game) as a player reads it: in ASCII mode its options row (one
row of compact selects) shows each choice, not an empty box."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from capicu.tui.app import CapicuApp
from capicu.tui.game import DisplayOptions
from capicu.tui.screens.host_setup import HostSetupScreen
from capicu.tui.screens.menu import MainMenuScreen
from helpers_app import screen_text, wait_for
from textual.pilot import Pilot
from textual.widgets import Select

SIZE = (80, 24)


@pytest.fixture(autouse=True)
def _own_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CAPICU_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("CAPICU_DATA_DIR", str(tmp_path / "data"))
    for variable in ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"):
        monkeypatch.delenv(variable, raising=False)


async def _open_the_form(pilot: Pilot[Any], preset: str | None = None) -> HostSetupScreen:
    app = pilot.app
    await wait_for(pilot, lambda: isinstance(app.screen, MainMenuScreen), what="the menu")
    await pilot.press("p")
    await wait_for(pilot, lambda: isinstance(app.screen, HostSetupScreen), what="the form")
    screen = app.screen
    assert isinstance(screen, HostSetupScreen)
    if preset is not None:
        screen.query_one("#preset", Select).value = preset
    await pilot.pause()
    return screen


@pytest.mark.parametrize(("preset", "words"), [
    ("puerto-rican-drawing", ["plain blanks", "draw 1 by 1", "no redeal"]),
    ("fives-and-threes", ["partners", "usual deal", "set aside", "any finish"]),
])
async def test_in_ascii_the_options_row_shows_each_choice(preset: str, words: list[str]) -> None:
    app = CapicuApp(DisplayOptions(mouse=False, ascii=True))
    async with app.run_test(size=SIZE) as pilot:
        await _open_the_form(pilot, preset)
        lines = screen_text(app).splitlines()
        row = next(line for line in lines if "Options" in line or "House rules" in line)
        for word in words:
            assert word in row, row
        assert row.isascii(), row


def test_snapshot_the_setup_form_in_ascii(snap_compare: Any) -> None:
    async def shown(pilot: Pilot[Any]) -> None:
        await _open_the_form(pilot)

    assert snap_compare(CapicuApp(DisplayOptions(mouse=False, ascii=True)), terminal_size=SIZE,
                        run_before=shown)
