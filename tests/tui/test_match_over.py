"""The match-over screen: the winner in one sentence, every round and the totals, at 80x24.

The views come from real matches played to the end by computer players from
core (seeds chosen so that each match has 16 rounds).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from capicu.core import Match, Rules, View, make_player
from capicu.net.model import TableModel
from capicu.net.protocol import Seat, SeatKind
from capicu.tui.app import CapicuApp
from capicu.tui.game import DisplayOptions, GameState, JoinGame, SoloGame
from capicu.tui.screens.draw_match_over import DrawMatchOverScreen
from helpers_app import screen_text, wait_for
from textual.pilot import Pilot
from textual.widgets import Static

SIZE = (80, 24)
NAMES = ("Ana", "Pepe", "Luis", "Beto")


@pytest.fixture(autouse=True)
def _own_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CAPICU_CONFIG_DIR", str(tmp_path / "config"))


def finished_match(preset: str, players: int, seed: int) -> Match:
    """A match played to its end by greedy computer players (the same seed, the same match)."""
    match = Match(Rules.preset_named(preset), players, seed=seed)
    bots = [make_player("greedy", seed + seat) for seat in range(players)]
    while not match.is_over:
        seat = match.turn
        assert seat is not None
        match.apply(bots[seat].choose(match.view(seat)), seat)
    return match


def sixteen_rounds() -> Match:
    match = finished_match("puerto-rican-drawing", 2, seed=16)
    assert len(match.results) == 16 and match.winner == 0 and match.scores == [103, 84]
    return match


def over_app(*, ascii: bool = False) -> CapicuApp:
    return CapicuApp(DisplayOptions(mouse=False, ascii=ascii))


async def show_over(pilot: Pilot[Any], view: View, *, join: bool = False) -> DrawMatchOverScreen:
    """Seat the app at the finished table as ``view``'s reader and put the match-over screen up."""
    app = pilot.app
    assert isinstance(app, CapicuApp)
    request = JoinGame("10.0.0.2", 47254) if join else SoloGame(view.rules, view.players)
    seats = tuple(Seat(seat, SeatKind.PERSON, NAMES[seat], True, False) for seat in range(view.players))
    model = TableModel("Ana")
    model.seat, model.seats, model.started, model.view = view.seat, seats, True, view
    app.game = GameState(request=request, table=model)
    await pilot.pause()
    while len(app.screen_stack) > 1:  # over a blank screen: the snapshot shows this screen only
        await app.pop_screen()
    screen = DrawMatchOverScreen(view)
    app.push_screen(screen)
    await wait_for(pilot, lambda: app.screen is screen and position(screen) != "", what="the rounds laid out")
    return screen


def position(screen: DrawMatchOverScreen) -> str:
    """The line under the rounds ("" until the screen is composed and laid out)."""
    found = screen.query("#over-position").results(Static)
    return "".join(str(line.render()) for line in found)


def row_of(text: str, first: str) -> list[str]:
    """The words of the screen row that starts (inside the box) with ``first``."""
    for line in text.splitlines():
        words = line.strip(" │|").split()
        if words and words[0] == first:
            return words
    return []


async def test_sixteen_rounds_at_80x24_scroll_to_the_last_round_and_the_totals() -> None:
    view = sixteen_rounds().view(0)
    app = over_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await show_over(pilot, view)
        text = screen_text(app)
        assert "You win the match with 103 points!" in text
        assert row_of(text, "Round")[:4] == ["Round", "Ended", "You", "Pepe"]
        assert row_of(text, "1") == ["1", "domino", "+10", "=", "10", "0"]
        assert not row_of(text, "Total")
        assert "Rounds 1-16 of 16; more below" in position(screen)
        assert "more below" in text  # the indicator is on screen, not only in the widget
        await pilot.press("pagedown")
        await wait_for(pilot, lambda: "more above" in position(screen), what="the table to scroll")
        text = screen_text(app)
        assert row_of(text, "16") == ["16", "domino", "+4", "=", "103", "84"]
        assert row_of(text, "Total") == ["Total", "103", "84"]
        assert "Rounds 2-16 of 16 and the totals; more above" in text
        await pilot.press("up")
        await wait_for(pilot, lambda: "Rounds 1-16 of 16; more below" in position(screen), what="back up")


async def test_the_footer_offers_play_again_only_where_the_app_allows_it() -> None:
    view = sixteen_rounds().view(0)
    app = over_app()
    async with app.run_test(size=SIZE) as pilot:
        await show_over(pilot, view)
        footer = screen_text(app).splitlines()[-1]
        assert "Play again" in footer and "Leave" in footer
    app = over_app()
    async with app.run_test(size=SIZE) as pilot:
        await show_over(pilot, view, join=True)
        footer = screen_text(app).splitlines()[-1]
        assert "Play again" not in footer and "Leave" in footer
        await pilot.press("a")  # refused: nothing starts
        assert isinstance(app.screen, DrawMatchOverScreen)


async def test_a_spectator_and_the_loser_read_the_winner_by_name() -> None:
    match = sixteen_rounds()
    for seat, columns in ((None, ["Ana", "Pepe"]), (1, ["Ana", "You"])):
        app = over_app()
        async with app.run_test(size=SIZE) as pilot:
            await show_over(pilot, match.view(seat))
            text = screen_text(app)
            assert "Ana wins the match with 103 points." in text
            assert row_of(text, "Round")[2:4] == columns


async def test_partners_read_their_team_and_the_bonus_rounds() -> None:
    match = finished_match("quinientos", 4, seed=32)
    assert len(match.results) == 16 and match.winner == 1
    for seat, sentence, columns in (
        (0, "Pepe and Beto win the match with 510 points.", "You and Luis  Pepe and Beto"),
        (3, "You and Pepe win the match with 510 points!", "Ana and Luis  You and Pepe"),
    ):
        app = over_app()
        async with app.run_test(size=SIZE) as pilot:
            await show_over(pilot, match.view(seat))
            text = screen_text(app)
            assert sentence in text
            assert columns in text
            assert row_of(text, "6")[:2] == ["6", "capicú"]


async def test_ascii_mode_stays_ascii() -> None:
    app = over_app(ascii=True)
    async with app.run_test(size=SIZE) as pilot:
        await show_over(pilot, finished_match("quinientos", 4, seed=32).view(0))
        text = screen_text(app)
        assert row_of(text, "6")[:2] == ["6", "capicu"]
        outside = sorted({c for c in text if ord(c) > 126})
        assert not outside, outside


@pytest.mark.parametrize("size", [SIZE, (160, 48)])
def test_snapshot_of_sixteen_rounds(snap_compare: Any, size: tuple[int, int]) -> None:
    view = sixteen_rounds().view(0)

    async def shown(pilot: Pilot[Any]) -> None:
        await show_over(pilot, view)
        await pilot.wait_for_scheduled_animations()
        await pilot.pause()

    assert snap_compare(over_app(), terminal_size=size, run_before=shown)
