"""Every option of Fives and Threes is offered on the setup form (solo and hosted), as core/rules.py
declares it once (`FORM_OPTIONS`): partnerships or each for themselves, the league deal, drawing, the
exact finish, and the target; the Draw family's house rules are not offered for it."""

from __future__ import annotations

from pathlib import Path

import pytest
from capicu.core.rules import FORM_OPTIONS, RULE_OPTIONS, FivesRules, Game
from capicu.net.host.server import HostConfig
from capicu.tui.app import CapicuApp
from capicu.tui.game import DisplayOptions
from capicu.tui.screens.fives_table import FivesTableScreen
from capicu.tui.screens.host_setup import HostSetupScreen
from capicu.tui.screens.menu import MainMenuScreen
from helpers_app import screen_text, wait_for
from textual.widgets import Input, Select


@pytest.fixture(autouse=True)
def _own_folders(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CAPICU_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("CAPICU_DATA_DIR", str(tmp_path / "data"))


def test_every_option_of_fives_and_threes_is_on_the_form() -> None:
    fives = {option.name for option in RULE_OPTIONS if Game.FIVES_AND_THREES in option.games}
    assert fives - {"target", "max_pip"} <= {option.name for option in FORM_OPTIONS}


@pytest.mark.parametrize("key", ["p", "h"])  # against the computer, and hosted
async def test_the_setup_form_plays_fives_and_threes_with_the_options_chosen(key: str) -> None:
    app = CapicuApp(DisplayOptions(mouse=False))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, MainMenuScreen), what="the menu")
        await pilot.press(key)
        await wait_for(pilot, lambda: isinstance(app.screen, HostSetupScreen), what="the setup")
        screen = app.screen
        screen.query_one("#preset", Select).value = "fives-and-threes"
        await pilot.pause()
        for house in ("wild-blanks", "draw-several", "redeal-on-doubles"):
            assert not screen.query_one(f"#{house}", Select).display, house
        offered = ("partnerships", "league-deal", "drawing", "exact-finish")
        for name in offered:
            select = screen.query_one(f"#{name}", Select)
            assert select.display and select.region.bottom <= 24 and select.region.right <= 80, name
        # Each starts at the preset's own value: partners, the usual deal, set aside, any finish.
        assert [screen.query_one(f"#{name}", Select).value for name in offered] == [True, False, False, False]
        text = screen_text(app)
        assert "partners" in text and "House rules" not in text and "Options" in text
        screen.query_one("#players", Select).value = 4
        screen.query_one("#partnerships", Select).value = False
        screen.query_one("#league-deal", Select).value = True
        screen.query_one("#drawing", Select).value = True
        screen.query_one("#exact-finish", Select).value = True
        screen.query_one("#target", Input).value = "31"
        await pilot.pause()
        await pilot.press("ctrl+s")
        if key == "h":  # hosted: the host waits in its lobby for three people, with the rules chosen
            await wait_for(pilot, lambda: app.link is not None, what="the host")
            assert app.link is not None and isinstance(app.link.host_config, HostConfig)
            rules = app.link.host_config.table.rules
            assert isinstance(rules, FivesRules)
            assert (rules.partnerships, rules.league_deal, rules.drawing, rules.exact_finish) == (
                False, True, True, True)
            assert app.link.host_config.table.players == 4 and rules.target == 31
            return
        await wait_for(pilot, lambda: isinstance(app.screen, FivesTableScreen) and app.table is not None
                       and app.table.view is not None, what="the table")
        assert app.table is not None and app.table.view is not None
        view = app.table.view
        assert isinstance(view.rules, FivesRules)
        assert (view.rules.partnerships, view.rules.league_deal, view.rules.drawing,
                view.rules.exact_finish) == (False, True, True, True)
        assert view.players == 4 and view.target == 31 and len(view.scores) == 4
