"""The setup form (menu, then a new game) as a player reads it: in ASCII mode its options (rows of
compact selects) show each choice, not an empty box; each game's options show whole at 80x24 and
60x20, and the match's length is the game's own (points to win, or Mexican Train's rounds)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from capicu.tui.app import CapicuApp
from capicu.tui.game import DisplayOptions
from capicu.tui.screens.host_setup import HostSetupScreen
from capicu.tui.screens.menu import MainMenuScreen
from helpers_app import screen_text, wait_for
from rich.cells import cell_len
from textual.pilot import Pilot
from textual.widgets import Input, Label, Select, Static

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


#: One preset of each game the form offers.
GAMES = ("puerto-rican-drawing", "mexican-train", "fives-and-threes")


@pytest.mark.parametrize("key", ["p", "h"])  # against the computer, and hosted
@pytest.mark.parametrize(("size", "language"), [((80, 24), "en"), ((60, 20), "es")])
async def test_each_games_options_show_whole_and_its_own_length(key: str, size: tuple[int, int],
                                                                language: str) -> None:
    # The options take as many rows as fit their words (the form scrolls); the match's length is the
    # game's own: points to win, or Mexican Train's rounds (never "Points to win 0").
    app = CapicuApp(DisplayOptions(mouse=False, language=language))
    async with app.run_test(size=size) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, MainMenuScreen), what="the menu")
        await pilot.press(key)
        await wait_for(pilot, lambda: isinstance(app.screen, HostSetupScreen), what="the form")
        screen = app.screen
        for preset in GAMES:
            screen.query_one("#preset", Select).value = preset
            await pilot.pause()
            offered = [select for select in screen.query("#house-rules > Select") if select.display]
            assert len(offered) >= 3, preset
            for select in offered:
                label = select.query_one("SelectCurrent #label", Static)
                shown = str(label.render()).strip()
                assert label.content_region.width >= cell_len(shown) > 0, (preset, shown)
                assert select.region.right <= size[0], (preset, shown)
            rounds = preset == "mexican-train"
            assert screen.query_one("#rounds", Select).display is rounds, preset
            assert screen.query_one("#rounds-label", Label).display is rounds, preset
            assert screen.query_one("#target", Input).display is not rounds, preset
            assert screen.query_one("#target-label", Label).display is not rounds, preset


async def test_the_club_organisers_form_shows_mexican_trains_options_whole() -> None:
    # The same options' rows (tui/widgets/house_rules.py) on the organiser's form: five on two lines.
    from capicu.tui.screens.club_setup import ClubSetupScreen

    app = CapicuApp(DisplayOptions(mouse=False, language="en"))
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, MainMenuScreen), what="the menu")
        await pilot.press("c")
        await wait_for(pilot, lambda: isinstance(app.screen, ClubSetupScreen), what="the form")
        app.screen.query_one("#preset", Select).value = "mexican-train"
        await pilot.pause()
        offered = [select for select in app.screen.query("#house-rules > Select") if select.display]
        assert len(offered) == 5
        for select in offered:
            label = select.query_one("SelectCurrent #label", Static)
            shown = str(label.render()).strip()
            assert label.content_region.width >= cell_len(shown) > 0, shown
            assert select.region.bottom <= app.screen.query_one("#bye", Select).region.y, shown


@pytest.mark.parametrize("key", ["p", "c"])  # the table's setup form, and the club organiser's
@pytest.mark.parametrize(("language", "titles"), [
    ("en", {"puerto-rican-drawing": "Puerto Rican Drawing Game", "mexican-train": "Mexican Train",
            "fives-and-threes": "Fives and Threes"}),
    ("es", {"puerto-rican-drawing": "Robado boricua", "mexican-train": "Tren mexicano",
            "fives-and-threes": "Cincos y treses"}),
])
async def test_the_game_list_shows_each_games_title_in_words(key: str, language: str,
                                                             titles: dict[str, str]) -> None:
    # The command line's names ("puerto-rican-drawing") stay on the command line.
    app = CapicuApp(DisplayOptions(mouse=False, language=language))
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, MainMenuScreen), what="the menu")
        await pilot.press(key)
        await wait_for(pilot, lambda: not isinstance(app.screen, MainMenuScreen), what="the form")
        games = app.screen.query_one("#preset", Select)
        for preset, title in titles.items():
            games.value = preset
            await pilot.pause()
            shown = str(games.query_one("SelectCurrent #label", Static).render()).strip()
            assert shown == title, (preset, shown)


@pytest.mark.parametrize(("language", "rounds", "first"), [
    ("en", "Rounds", "13 rounds, one per double"),
    ("es", "Rondas", "13 rondas, una por doble"),
])
async def test_the_club_organisers_form_offers_mexican_trains_rounds(language: str, rounds: str,
                                                                     first: str) -> None:
    # As the table's setup form does (tui/widgets/match_length.py): never "Points to win (its rounds)".
    from capicu.tui.screens.club_setup import ClubSetupScreen

    app = CapicuApp(DisplayOptions(mouse=False, language=language))
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, MainMenuScreen), what="the menu")
        await pilot.press("c")
        await wait_for(pilot, lambda: isinstance(app.screen, ClubSetupScreen), what="the form")
        form = app.screen
        assert isinstance(form, ClubSetupScreen)
        form.query_one("#preset", Select).value = "mexican-train"
        await pilot.pause()
        text = screen_text(app)
        assert f"{rounds} " in text and first in text, text
        assert "(its rounds)" not in text and "(sus manos)" not in text, text
        assert not form.query_one("#target", Input).display and not form.query_one("#target-label").display
        # Every row, the Start button too, in view at 80x24 above the footer.
        assert form.query_one("#start").region.bottom <= SIZE[1] - 1
        form.query_one("#rounds", Select).value = 4
        request = form.request()
        assert request is not None and request.club.rules.rounds == 4, request
        # Back to a game played to a target: its points to win again, typed.
        form.query_one("#preset", Select).value = "fives-and-threes"
        await pilot.pause()
        assert form.query_one("#target", Input).display and not form.query_one("#rounds", Select).display
        form.query_one("#target", Input).value = "31"
        request = form.request()
        assert request is not None and request.club.rules.target == 31
