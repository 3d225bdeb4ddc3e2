"""The setup form offers Mexican Train with its own options as core/rules.py declares them (issue 29:
the engine set aside, one double a turn, a double earns another play, a one-tile start, the Mexican
train after one's own; and its rounds instead of points to win), and the match starts with what was
chosen."""

from __future__ import annotations

from pathlib import Path

import pytest
from capicu.core import MexicanView
from capicu.core.rules import FORM_OPTIONS, FORM_ROWS, Game
from capicu.tui.app import CapicuApp
from capicu.tui.game import DisplayOptions
from capicu.tui.screens.host_setup import HostSetupScreen
from capicu.tui.screens.menu import MainMenuScreen
from helpers_app import screen_text, wait_for
from textual.widgets import Select

SIZE = (80, 24)
MEXICAN = [o for o in FORM_OPTIONS if Game.MEXICAN_TRAIN in o.games]


@pytest.fixture(autouse=True)
def _own_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CAPICU_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("CAPICU_DATA_DIR", str(tmp_path / "data"))


def test_mexican_trains_options_on_the_form_are_declared_in_core() -> None:
    assert {o.field for o in MEXICAN} == {"engine_set_aside", "one_double_a_turn", "cover_doubles",
                                          "opening_run", "mexican_needs_own_train"}
    assert [o.field for o in FORM_ROWS if Game.MEXICAN_TRAIN in o.games] == ["rounds"]


async def test_mexican_train_on_the_form_offers_its_own_options_and_the_match_plays_them() -> None:
    app = CapicuApp(DisplayOptions(mouse=False))
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, MainMenuScreen), what="the menu")
        await pilot.press("p")
        await wait_for(pilot, lambda: isinstance(app.screen, HostSetupScreen), what="the setup")
        screen = app.screen
        screen.query_one("#preset", Select).value = "mexican-train"
        await pilot.pause()
        text = screen_text(app)
        assert "dealt" in text and "2+ doubles" in text and "cover" in text and "run" in text, text
        assert "Mexican open" in text, text
        # No points to win (a match is its rounds, lowest total wins): its rounds instead.
        assert "Points to win" not in text and "Rounds" in text and "13 rounds, one per double" in text, text
        screen.query_one("#engine-set-aside", Select).value = True
        screen.query_one("#one-double-a-turn", Select).value = True
        screen.query_one("#mexican-after-own", Select).value = True
        screen.query_one("#rounds", Select).value = 4
        await pilot.pause()
        text = screen_text(app)
        assert "aside" in text and "1 double" in text and "own first" in text, text
        assert "the first 4 rounds" in text, text
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: app.table is not None and isinstance(app.table.view, MexicanView),
                       what="the table")
        rules = app.table.view.rules  # type: ignore[union-attr]
        assert rules.preset == "mexican-train"
        assert (rules.engine_set_aside, rules.one_double_a_turn) == (True, True)
        assert rules.mexican_needs_own_train and rules.rounds == 4
        assert rules.cover_doubles and rules.opening_run  # the seed's, untouched
