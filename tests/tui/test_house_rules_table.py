"""The house rules at the table, against a real in-process host: a wild blank's number asked on the
status line, and the new deal offered to a player dealt five doubles (snapshots at 80x24)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec
import pytest
from capicu.core import RoundStarted, Rules, TilePlayed
from capicu.tui.app import CapicuApp
from capicu.tui.game import DisplayOptions, SoloGame
from capicu.tui.screens.draw_table import DrawTableScreen
from helpers_app import my_turn, screen_text, wait_for
from textual.pilot import Pilot

SIZE = (80, 24)
#: drawing-game with wild blanks: seed 30 gives Ana the lead and 0-5 first in her hand.
WILD = msgspec.structs.replace(Rules.preset_named("drawing-game"), wild_blanks=True)
#: The default game with the new deal on five doubles: seed 147 deals Ana five doubles.
REDEAL = msgspec.structs.replace(Rules.preset_named("puerto-rican-drawing"), redeal_on_doubles=True)


@pytest.fixture(autouse=True)
def _own_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CAPICU_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setattr("capicu.tui.widgets.status_line.NOTICE_SECONDS", 3600.0)


def _app(rules: Rules, seed: int, *, ascii: bool = False) -> CapicuApp:
    request = SoloGame(rules, 2, "normal", seed=seed, name="Ana", pace=0.0)
    return CapicuApp(DisplayOptions(ascii=ascii, mouse=False), request)


def _table(app: CapicuApp) -> DrawTableScreen:
    assert isinstance(app.screen, DrawTableScreen)
    return app.screen


async def _ask_for_the_blank(pilot: Pilot[Any], app: CapicuApp) -> None:
    await wait_for(pilot, lambda: my_turn(app), what="my lead")
    assert app.table is not None and app.table.view is not None
    assert str(app.table.view.hand[0]) == "0-5"
    await pilot.press("home", "enter")
    await wait_for(pilot, lambda: _table(app).choosing_blank is not None, what="the question")
    await pilot.pause()


async def test_a_blank_left_open_asks_its_number_and_esc_chooses_another_tile() -> None:
    app = _app(WILD, 30)
    async with app.run_test(size=SIZE) as pilot:
        await _ask_for_the_blank(pilot, app)
        assert "Blank of 0-5 as which number (0-6)?" in screen_text(app)
        await pilot.press("escape")
        assert _table(app).choosing_blank is None and my_turn(app)
        await pilot.press("enter")
        await wait_for(pilot, lambda: _table(app).choosing_blank is not None, what="the question again")
        await pilot.press("left", "left", "enter")  # from 6, down to 4

        def laid() -> bool:
            view = app.table.view if app.table is not None else None
            return view is not None and any(isinstance(e, TilePlayed) for e in view.events)
        await wait_for(pilot, laid, what="the lead")
        assert app.table is not None and app.table.view is not None
        lead = next(e for e in app.table.view.events if isinstance(e, TilePlayed))
        assert (str(lead.tile), lead.blank, lead.left, lead.right) == ("0-5", 4, 4, 5)


async def test_a_digit_chooses_the_blanks_number_and_enter_lays_it() -> None:
    """The prompt says "digit, Enter": a digit chooses (as the arrows do), Enter confirms. A digit
    used to lay the tile at once, so the Enter the prompt asked for played the next tile."""
    app = _app(WILD, 30)
    async with app.run_test(size=SIZE) as pilot:
        await _ask_for_the_blank(pilot, app)
        await pilot.press("2")
        await pilot.pause()
        assert "Enter: 2." in screen_text(app)
        await pilot.press("9")  # not one of 0-6: said, and the choice stays 2
        await pilot.pause()
        assert "The blank of 0-5 cannot be 9 here." in screen_text(app)
        question = _table(app).choosing_blank
        assert question is not None and question.number == 2
        await pilot.press("3")
        await pilot.pause()
        assert "Enter: 3." in screen_text(app)
        assert app.table is not None and app.table.view is not None and not any(
            isinstance(e, TilePlayed) for e in app.table.view.events)
        await pilot.press("enter")

        def laid() -> bool:
            view = app.table.view if app.table is not None else None
            return view is not None and any(isinstance(e, TilePlayed) for e in view.events)
        await wait_for(pilot, laid, what="the lead")
        assert app.table is not None and app.table.view is not None
        lead = next(e for e in app.table.view.events if isinstance(e, TilePlayed))
        assert (lead.blank, lead.left, lead.right) == (3, 3, 5)


@pytest.mark.parametrize("ascii", [False, True])
def test_snapshot_the_number_prompt(snap_compare: Any, ascii: bool) -> None:
    app = _app(WILD, 30, ascii=ascii)

    async def asked(pilot: Pilot[Any]) -> None:
        await _ask_for_the_blank(pilot, app)
        await pilot.wait_for_scheduled_animations()
        await pilot.pause(0.2)

    assert snap_compare(app, terminal_size=SIZE, run_before=asked)


async def test_a_player_dealt_five_doubles_is_offered_a_new_deal_before_the_first_tile() -> None:
    app = _app(REDEAL, 147)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: my_turn(app), what="my lead")
        await pilot.pause()
        assert "n asks for a new deal" in screen_text(app)
        await pilot.press("n")

        def redealt() -> bool:
            view = app.table.view if app.table is not None else None
            return view is not None and any(isinstance(e, RoundStarted) and e.asked_by == 0
                                            for e in view.events)
        await wait_for(pilot, redealt, what="the new deal")
        await pilot.pause()
        assert "You asked for a new deal" in screen_text(app)


async def test_the_rules_and_keys_of_a_game_with_wild_blanks_say_them_and_their_keys() -> None:
    from capicu.tui.screens.rules_keys import RulesKeysScreen

    app = _app(WILD, 30)
    async with app.run_test(size=(100, 60)) as pilot:
        await wait_for(pilot, lambda: my_turn(app), what="my lead")
        await pilot.press("r")
        await wait_for(pilot, lambda: isinstance(app.screen, RulesKeysScreen), what="the rules")
        await pilot.pause()
        keys = str(app.screen.query_one("#rules-keys").render())
        rules = str(app.screen.query_one("#rules-text").render())
        assert "When a blank is left open" in keys and "Lay it" in keys
        assert "New deal" not in keys  # not a rule of this game
        assert "Blanks are wild" in rules
