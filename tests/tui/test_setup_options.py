"""The setup form offers each game's options as core/rules.py declares them (issue 29): Mexican Train's
own (the engine set aside, one double a turn, a double earns another play, ...) for Mexican Train, the
Draw family's house rules for its games, and the match starts with what was chosen."""

from __future__ import annotations

from pathlib import Path

import pytest
from capicu.core import MexicanView
from capicu.core.rules import RULE_OPTIONS, Game
from capicu.tui.app import CapicuApp
from capicu.tui.game import DisplayOptions
from capicu.tui.screens.host_setup import GAME_OPTIONS, HOUSE_OPTIONS, HostSetupScreen
from capicu.tui.screens.menu import MainMenuScreen
from capicu.tui.screens.mexican_table import MexicanTableScreen
from capicu.tui.words.describe_rules import FORM_CHOICES
from helpers_app import screen_text, wait_for
from textual.widgets import Select

SIZE = (80, 24)


@pytest.fixture(autouse=True)
def _own_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CAPICU_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("CAPICU_DATA_DIR", str(tmp_path / "data"))


def test_every_mexican_train_option_is_on_the_form_and_worded() -> None:
    mexican = {o.name for o in RULE_OPTIONS if Game.MEXICAN_TRAIN in o.games and o.form}
    assert {"engine_set_aside", "one_double_a_turn", "cover_doubles", "opening_run"} <= mexican
    assert {o.name for o in GAME_OPTIONS} == set(FORM_CHOICES)


@pytest.mark.parametrize("hosted", [False, True])
async def test_mexican_train_on_the_form_offers_its_own_options_and_the_match_plays_them(
        hosted: bool) -> None:
    app = CapicuApp(DisplayOptions(mouse=False))
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, MainMenuScreen), what="the menu")
        await pilot.press("h" if hosted else "p")
        await wait_for(pilot, lambda: isinstance(app.screen, HostSetupScreen), what="the setup")
        screen = app.screen
        for option in HOUSE_OPTIONS:  # the Draw family's game first: its house rules
            assert screen.query_one(f"#{option.flag[2:]}", Select).display
        assert not any(screen.query_one(f"#{o.flag[2:]}", Select).display for o in GAME_OPTIONS)
        screen.query_one("#preset", Select).value = "mexican-train"
        await pilot.pause()
        assert all(screen.query_one(f"#{o.flag[2:]}", Select).display for o in GAME_OPTIONS)
        assert not any(screen.query_one(f"#{o.flag[2:]}", Select).display for o in HOUSE_OPTIONS)
        assert not screen.query_one("#target").display  # Mexican Train is its rounds, no target
        text = screen_text(app)
        assert "holder's engine" in text and "many doubles" in text and "cover doubles" in text
        # The whole form still fits 80x24: the Start button and the footer show.
        assert "Start" in text.splitlines()[-3] or any("Start" in row for row in text.splitlines()[-4:])
        screen.query_one("#engine-set-aside", Select).value = 1
        screen.query_one("#one-double-a-turn", Select).value = 1
        screen.query_one("#rounds", Select).value = 1  # 1 round
        await pilot.pause()
        assert "engine aside" in screen_text(app) and "1 double a turn" in screen_text(app)
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: isinstance(app.screen, MexicanTableScreen)
                       or (hosted and app.table is not None), what="the game")
        model = app.table
        assert model is not None
        if hosted:
            rules = app.game.request.config.table.rules  # type: ignore[union-attr]
        else:
            await wait_for(pilot, lambda: isinstance(model.view, MexicanView), what="the table")
            rules = model.view.rules  # type: ignore[union-attr]
        assert rules.preset == "mexican-train"
        assert (rules.engine_set_aside, rules.one_double_a_turn, rules.rounds) == (True, True, 1)
        assert rules.cover_doubles and rules.opening_run  # the seed's, untouched
