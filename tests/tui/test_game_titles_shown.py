"""Where a person reads a game's name in the app, it is the game's title in words ("Puerto Rican
Drawing Game"), not its command-line name ("puerto-rican-drawing"): the Rules screen's list and
title, the Replays list's Game column and a replay's title (the join list: test_join_list.py)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from capicu.core.rules import PRESET_NAMES
from capicu.tui.app import CapicuApp
from capicu.tui.game import DisplayOptions, OpenReplays
from capicu.tui.screens.menu import MainMenuScreen
from capicu.tui.screens.replay import ReplayScreen
from capicu.tui.screens.replays import ReplaysScreen
from capicu.tui.screens.rules_keys import RulesKeysScreen
from capicu.tui.words.describe_rules import game_title
from helpers_app import screen_text, wait_for
from helpers_replay import START, keep
from textual.widgets import Select, Static

SIZE = (80, 24)
TITLES = {"en": ("Puerto Rican Drawing Game", "Mexican Train"), "es": ("Robado boricua", "Tren mexicano")}


@pytest.fixture(autouse=True)
def _own_folders(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CAPICU_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("CAPICU_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()


@pytest.mark.parametrize("language", ["en", "es"])
async def test_the_rules_screen_lists_and_titles_the_games_in_words(language: str) -> None:
    app = CapicuApp(DisplayOptions(mouse=False, language=language))
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, MainMenuScreen), what="the menu")
        await pilot.press("r")
        await wait_for(pilot, lambda: isinstance(app.screen, RulesKeysScreen), what="the rules screen")
        await pilot.pause()
        title = str(app.screen.query_one("#rules-title", Static).render())
        drawing = TITLES[language][0]
        assert title == (f"Rules: {drawing}, 2 players" if language == "en"
                         else f"Reglas: {drawing}, 2 jugadores")
        assert "puerto-rican-drawing" not in screen_text(app)
        app.screen.query_one("#rules-preset", Select).focus()
        await pilot.press("enter")  # the list of games open
        await wait_for(pilot, lambda: all(game_title(preset) in screen_text(app) for preset in PRESET_NAMES),
                       what="every game by its title")
        assert not any(preset in screen_text(app) for preset in PRESET_NAMES if "-" in preset)


@pytest.mark.parametrize("language", ["en", "es"])
async def test_the_replays_list_and_a_replays_title_name_the_game_in_words(tmp_path: Path,
                                                                          language: str) -> None:
    folder = tmp_path / "data" / "records"
    keep(folder, "puerto-rican-drawing", 2, seed=1)
    keep(folder, "mexican-train", 4, seed=2, started=START + 60)
    app = CapicuApp(DisplayOptions(mouse=False, language=language), OpenReplays(None))
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ReplaysScreen)
                       and TITLES[language][1] in screen_text(app), what="the list")
        text = screen_text(app)
        assert all(title in text for title in TITLES[language]), text
        assert "puerto-rican-drawing" not in text and "mexican-train" not in text
        await pilot.press("down", "enter")  # the older: the Drawing Game's
        await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen), what="the replay")
        await pilot.pause()
        title = str(app.screen.query_one("#table-title", Static).render())
        assert TITLES[language][0] in title and "puerto-rican-drawing" not in title, title
