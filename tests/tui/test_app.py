"""The real app, driven by key presses through the real in-process host (no mocks)."""

from __future__ import annotations

import asyncio
from functools import partial
from pathlib import Path

import msgspec
import pytest
from capicu.core import Play, Rules
from capicu.net.host.server import Host, HostConfig
from capicu.net.host.table import TableConfig
from capicu.net.protocol import Seat, SeatKind
from capicu.tui.app import CapicuApp
from capicu.tui.game import (
    DisplayOptions,
    HostGame,
    JoinGame,
    SoloGame,
    make_host_config,
    seat_notices,
)
from capicu.tui.screens.draw_table import DrawTableScreen
from capicu.tui.screens.lobby import LobbyScreen
from capicu.tui.screens.menu import MainMenuScreen
from capicu.tui.screens.reconnecting import ReconnectingScreen
from capicu.tui.words.describe_rules import describe_rules
from helpers_app import (
    my_turn,
    play_turn_and_wait,
    round_over,
    screen_text,
    solo_app,
    summary_ready,
    wait_for,
)
from textual.widgets import Input

SIZE = (80, 24)


def _on_table(app: CapicuApp) -> bool:
    return isinstance(app.screen, DrawTableScreen)


@pytest.fixture(autouse=True)
def _own_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Settings go to a fresh folder: a test never reads or writes the user's."""
    monkeypatch.setenv("CAPICU_CONFIG_DIR", str(tmp_path / "config"))


async def test_a_whole_solo_round_by_key_presses() -> None:
    app = solo_app(seed=3, players=3)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, DrawTableScreen), what="the table")
        for _ in range(60):
            await wait_for(pilot, lambda: my_turn(app) or round_over(app), what="my turn")
            if round_over(app):
                break
            await play_turn_and_wait(pilot, app)
        assert round_over(app)
        summary = screen_text(app)
        # The finished table stays: the round's summary beside it, not a new deal.
        assert "Round 1: " in summary and "in total" in summary
        assert "press Enter when you are ready" in summary
        assert app.table is not None and app.table.view is not None
        assert app.table.view.round_number == 1 and app.table.view.line
        # The table ignores an Enter in its first moments (one meant for the last tile).
        await wait_for(pilot, lambda: summary_ready(app), what="the round's end to take Enter")
        await pilot.press("enter")
        game = app.table
        await wait_for(pilot, lambda: game.view is not None and game.view.round_number == 2,
                       what="the next round")


async def test_a_tile_that_fits_both_ends_asks_which_end() -> None:
    app = solo_app(seed=3, players=2)
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(200):
            await wait_for(pilot, lambda: my_turn(app) or round_over(app), what="my turn")
            if round_over(app):
                await wait_for(pilot, lambda: summary_ready(app), what="the summary to take Enter")
                await pilot.press("enter")
                await wait_for(pilot, lambda: not round_over(app), what="the next round")
                continue
            assert app.table is not None and app.table.view is not None
            view = app.table.view
            tiles = [a.tile for a in view.legal if isinstance(a, Play)]
            both = [tile for tile in tiles if tiles.count(tile) == 2]
            if both and view.ends is not None and view.ends[0] != view.ends[1]:
                await pilot.press("home")
                for _ in range(view.hand.index(both[0])):
                    await pilot.press("right")
                await pilot.press("enter")
                await wait_for(pilot, lambda: getattr(app.screen, "choosing_end", None) is not None,
                               what="the end choice")
                assert "fits both ends" in screen_text(app)
                await pilot.press("right")
                laid, game = both[0], app.table
                await wait_for(pilot, lambda: game.view is not None and laid not in game.view.hand,  # noqa: B023
                               what="the tile laid")
                return
            await play_turn_and_wait(pilot, app)
        pytest.fail("no tile fitting two different ends came up")


async def test_a_host_app_and_a_joining_app_play_a_round_over_loopback() -> None:
    config = make_host_config(
        rules=Rules.preset_named("puerto-rican-drawing"), players=2, computers=0, level="normal",
        bind="127.0.0.1", port=0, code="mesa42", seed=11,
    )
    host_app = CapicuApp(DisplayOptions(mouse=False), HostGame(config=config, name="Ana"))
    async with host_app.run_test(size=SIZE) as host_pilot:
        await wait_for(host_pilot, lambda: host_app.hosted_at is not None,
                       what="the host to listen")
        assert isinstance(host_app.screen, LobbyScreen)
        port = host_app.hosted_at.port  # type: ignore[union-attr]
        assert f"capicu join 127.0.0.1:{port} --code mesa42" in screen_text(host_app)
        guest_app = CapicuApp(DisplayOptions(mouse=False), JoinGame("127.0.0.1", port, "Beto", "mesa42"))
        async with guest_app.run_test(size=SIZE) as guest_pilot:
            apps = ((host_app, host_pilot), (guest_app, guest_pilot))
            for app, pilot in apps:
                await wait_for(pilot, partial(_on_table, app), what="the table")
            for _ in range(80):
                if all(round_over(app) for app, _ in apps):
                    break
                for app, pilot in apps:
                    await pilot.pause()
                    if my_turn(app) and not round_over(app):
                        await play_turn_and_wait(pilot, app)
            for app, pilot in apps:
                await wait_for(pilot, partial(round_over, app), what="the round's end on both")
            assert "Beto" in screen_text(host_app)
            assert "Ana" in screen_text(guest_app)


async def test_a_dropped_link_shows_the_overlay_and_resumes_the_seat() -> None:
    table = TableConfig(rules=Rules.preset_named("puerto-rican-drawing"), players=2, computers=1,
                        computer_level="normal", seed=5)
    host = Host(HostConfig(table, bind="127.0.0.1", port=0, code=None))
    _, port = await host.start()
    try:
        app = CapicuApp(DisplayOptions(mouse=False), JoinGame("127.0.0.1", port, "Ana"))
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: my_turn(app), what="my turn")
            seat = app.table.seat  # type: ignore[union-attr]
            assert app.link is not None and app.link.client is not None
            # Pull the cable: the client sees the connection die and reconnects with its token.
            app.link.client._writer.transport.abort()
            await wait_for(pilot, lambda: app.table.drops == 1, what="the drop to be seen")
            await wait_for(pilot, lambda: not app.table.lost  # type: ignore[union-attr]
                           and not any(isinstance(s, ReconnectingScreen) for s in app.screen_stack),
                           what="the seat to be resumed")
            assert app.table.seat == seat  # type: ignore[union-attr]
            await wait_for(pilot, lambda: my_turn(app), what="my turn after resuming")
            await play_turn_and_wait(pilot, app)
    finally:
        await host.stop()


async def test_an_unreachable_host_fails_with_one_sentence() -> None:
    app = CapicuApp(DisplayOptions(mouse=False), JoinGame("127.0.0.1", 9, "Ana"))
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: app.failure is not None, what="the failure")
    assert app.failure is not None and "127.0.0.1:9" in app.failure and "\n" not in app.failure


async def test_the_menu_reaches_every_screen_and_back() -> None:
    app = CapicuApp(DisplayOptions(mouse=False))
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, MainMenuScreen), what="the menu")
        for key in ("p", "h", "j", "r", "s"):
            await pilot.press(key)
            await pilot.pause()
            assert not isinstance(app.screen, MainMenuScreen), key
            await pilot.press("escape")
            await pilot.pause()
            assert isinstance(app.screen, MainMenuScreen), key


async def test_rules_and_keys_are_written_from_the_engine() -> None:
    app = CapicuApp(DisplayOptions(mouse=False))
    async with app.run_test(size=(100, 60)) as pilot:
        await pilot.press("r")
        await pilot.pause()
        text = screen_text(app)
        for line in describe_rules(Rules.preset_named("puerto-rican-drawing"), 2)[:2]:
            assert line[:40] in text
        assert "Hint" in text and "Draw" in text


async def test_ascii_mode_shows_nothing_outside_ascii() -> None:
    app = solo_app(seed=3, players=3, ascii=True, name="José Peña")
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: my_turn(app), what="my turn")
        await pilot.press("x")  # a hint's toast too
        await pilot.pause(0.3)
        text = screen_text(app)
        assert "Jose Pena" in text
        assert "c to chat, Enter sends" in text  # the chat box keeps its one text row
        outside = sorted({c for c in text if ord(c) > 126})
        assert not outside, outside


async def test_ascii_mode_menus_and_summary_show_nothing_outside_ascii() -> None:
    menu = CapicuApp(DisplayOptions(mouse=False, ascii=True))
    async with menu.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(menu.screen, MainMenuScreen), what="the menu")
        for key in ("", "p", "h", "j", "s"):
            if key:
                await pilot.press("ctrl+b")
                await pilot.press(key)
            await pilot.pause()
            outside = sorted({c for c in screen_text(menu) if ord(c) > 126})
            assert not outside, (key, outside)
    app = solo_app(seed=3, players=2, ascii=True)
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(60):
            await wait_for(pilot, lambda: my_turn(app) or round_over(app), what="my turn")
            if round_over(app):
                break
            await play_turn_and_wait(pilot, app)
        outside = sorted({c for c in screen_text(app) if ord(c) > 126})
        assert not outside, outside


async def test_the_match_ends_with_the_summary_then_the_winner_and_play_again() -> None:
    from capicu.tui.screens.match_over import MatchOverScreen

    rules = msgspec.structs.replace(Rules.preset_named("puerto-rican-drawing"), target=1)
    request = SoloGame(rules, 2, "normal", seed=3, name="Ana", pace=0.0)
    app = CapicuApp(DisplayOptions(mouse=False), request)
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(400):
            await wait_for(pilot, lambda: my_turn(app) or round_over(app), what="my turn")
            if round_over(app):
                if app.table is not None and app.table.view is not None and app.table.view.match_over:
                    break
                await wait_for(pilot, lambda: summary_ready(app), what="the summary to take Enter")
                await pilot.press("enter")
                await wait_for(pilot, lambda: not round_over(app), what="the next round")
                continue
            await play_turn_and_wait(pilot, app)
        await wait_for(pilot, lambda: summary_ready(app), what="the summary to take Enter")
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, MatchOverScreen), what="the match-over screen")
        assert "wins the match" in screen_text(app) or "You win the match" in screen_text(app)
        # The table beneath says the state: the final score is shown, not to be asked for.
        from capicu.tui.widgets.status_line import StatusLine

        table = next(s for s in app.screen_stack if isinstance(s, DrawTableScreen))
        assert table.query_one(StatusLine).prompt == "The match is over."
        first = app.link
        await pilot.press("a")
        await wait_for(pilot, lambda: app.link is not first and isinstance(app.screen, DrawTableScreen)
                       and app.table is not None and app.table.view is not None
                       and not app.table.view.match_over, what="a new match")


async def test_the_hint_key_names_a_move_and_why() -> None:
    app = solo_app(seed=3, players=2)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: my_turn(app), what="my turn")
        await pilot.press("x")
        # On the status line, not in a toast over the hand.
        await wait_for(pilot, lambda: "Hint:" in screen_text(app), what="the hint")
        assert not app._notifications


async def test_a_theme_chosen_is_remembered(tmp_path: Path) -> None:
    from capicu.tui.prefs.settings import load_settings

    app = CapicuApp(DisplayOptions(mouse=False))
    async with app.run_test(size=SIZE) as pilot:
        app.theme = "high-contrast"
        await pilot.pause()
    assert load_settings()[0].theme == "high-contrast"
    again = CapicuApp(DisplayOptions(mouse=False))
    async with again.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert again.theme == "high-contrast"


async def test_a_spectator_watches_without_a_hand() -> None:
    table = TableConfig(rules=Rules.preset_named("puerto-rican-drawing"), players=2, computers=2,
                        computer_level="normal", computer_delay=0.05, seed=5)
    host = Host(HostConfig(table, bind="127.0.0.1", port=0, code=None))
    _, port = await host.start()
    try:
        app = CapicuApp(DisplayOptions(mouse=False), JoinGame("127.0.0.1", port, "Vera", spectate=True))
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: isinstance(app.screen, DrawTableScreen), what="the table")
            assert app.table is not None and app.table.seat is None
            await pilot.pause()
            assert "You are watching" in screen_text(app)
    finally:
        await host.stop()


async def test_leaving_the_table_asks_and_enter_stays() -> None:
    from capicu.tui.screens.table import LeaveScreen

    app = solo_app(seed=3, players=2)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: my_turn(app), what="my turn")
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, LeaveScreen), what="the question")
        await pilot.press("enter")  # Enter never leaves
        await wait_for(pilot, lambda: isinstance(app.screen, DrawTableScreen), what="the table again")
        await pilot.press("q")  # the second key (not Ctrl+B: tmux keeps that one for itself)
        await wait_for(pilot, lambda: isinstance(app.screen, LeaveScreen), what="the question")
        await pilot.press("y")
        await wait_for(pilot, lambda: app.link is None, what="the link closed")


async def test_from_the_menu_to_a_solo_table_and_back_twice() -> None:
    from capicu.tui.screens.host_setup import HostSetupScreen

    app = CapicuApp(DisplayOptions(mouse=False))
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(2):
            await wait_for(pilot, lambda: isinstance(app.screen, MainMenuScreen), what="the menu")
            await pilot.press("p")
            await wait_for(pilot, lambda: isinstance(app.screen, HostSetupScreen), what="the setup")
            await pilot.press("ctrl+s")
            await wait_for(pilot, lambda: isinstance(app.screen, DrawTableScreen), what="the table")
            await pilot.press("escape")
            await pilot.pause()
            await pilot.press("y")
        await wait_for(pilot, lambda: isinstance(app.screen, MainMenuScreen) and app.link is None,
                       what="the menu again")
        assert len(app.screen_stack) == 2  # Textual's default screen, then the menu


async def test_a_join_code_of_only_dashes_and_spaces_is_refused_by_the_host_setup() -> None:
    from capicu.tui.screens.host_setup import HostSetupScreen

    app = CapicuApp(DisplayOptions(mouse=False))
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, MainMenuScreen), what="the menu")
        await pilot.press("h")
        await wait_for(pilot, lambda: isinstance(app.screen, HostSetupScreen), what="the setup")
        app.screen.query_one("#code", Input).value = "- -"
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: any("join code must be" in n.message for n in app._notifications),
                       what="the notice")
        assert isinstance(app.screen, HostSetupScreen) and app.link is None


async def test_a_damaged_saved_seat_is_named_in_a_notice_and_the_player_joins_as_a_newcomer() -> None:
    from capicu.tui.prefs.saved_seats import SEATS_FILE
    from capicu.tui.prefs.settings import data_dir

    host = Host(HostConfig(TableConfig(players=2), bind="127.0.0.1", port=0, code=None))
    _, port = await host.start()
    path = data_dir() / SEATS_FILE
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text('{"seats": [{"host": "127.0.0.1", "port": 0}]}')
    try:
        app = CapicuApp(DisplayOptions(mouse=False), JoinGame("127.0.0.1", port, "Ana"))
        async with app.run_test(size=SIZE, notifications=True) as pilot:
            await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen), what="the lobby")
            notices = [n.message for n in app._notifications if SEATS_FILE in n.message]
            assert len(notices) == 1 and "seats[0]: port must be >= 1" in notices[0], notices
    finally:
        await host.stop()


async def test_joining_an_unreachable_host_from_the_menu_says_so_and_returns() -> None:
    from capicu.tui.screens.join_form import JoinFormScreen

    app = CapicuApp(DisplayOptions(mouse=False))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("j")
        await wait_for(pilot, lambda: isinstance(app.screen, JoinFormScreen), what="the join form")
        app.screen.query_one("#address", Input).value = "127.0.0.1:9"
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: isinstance(app.screen, MainMenuScreen) and app.link is None,
                       what="the menu again")
        assert any("Could not reach the table" in n.message for n in app._notifications)


def test_seat_changes_become_sentences() -> None:

    before = (Seat(0, SeatKind.PERSON, "Ana", True, False), Seat(1, SeatKind.OPEN, None, False, False))
    joined = (Seat(0, SeatKind.PERSON, "Ana", True, False), Seat(1, SeatKind.PERSON, "Beto", True, False))
    dropped = (Seat(0, SeatKind.PERSON, "Ana", True, False), Seat(1, SeatKind.PERSON, "Beto", False, False))
    covered = (Seat(0, SeatKind.PERSON, "Ana", True, False), Seat(1, SeatKind.PERSON, "Beto", False, True))
    def said(before: tuple[Seat, ...], after: tuple[Seat, ...], me: int) -> list[str]:
        return [words() for words in seat_notices(before, after, me)]  # worded when shown

    assert said(before, joined, 0) == ["Beto sat down."]
    assert said(joined, dropped, 0) == ["Beto lost the connection; the seat is held."]
    assert said(dropped, covered, 0) == ["The computer plays for Beto until they come back."]
    assert said(covered, joined, 0) == ["Beto is back."]
    # A club night's drawn seat, awaited: its person's first arrival is sitting down, covered or not.
    assert [words() for words in seat_notices(dropped, joined, 0, awaited={1})] == ["Beto sat down."]
    assert [words() for words in seat_notices(covered, joined, 0, awaited={1})] == ["Beto sat down."]
    assert said(joined, dropped, 1) == []  # never about myself


async def test_a_bad_theme_file_is_skipped_with_a_warning(tmp_path: Path) -> None:
    themes = tmp_path / "config" / "themes"
    themes.mkdir(parents=True)
    (themes / "broken.toml").write_text("name = [unclosed\n")
    (themes / "mine.toml").write_text('name = "mine"\nprimary = "#ff8800"\n')
    app = CapicuApp(DisplayOptions(mouse=False))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert "mine" in app.available_themes
        assert any("broken.toml" in n.message for n in app._notifications)


async def test_the_host_starts_with_computers_in_the_open_seats() -> None:
    config = make_host_config(
        rules=Rules.preset_named("puerto-rican-drawing"), players=3, computers=0, level="greedy",
        bind="127.0.0.1", port=0, code=None, seed=4,
    )
    app = CapicuApp(DisplayOptions(mouse=False), HostGame(config=config, name="Ana"))
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: app.table is not None and bool(app.table.seats),
                       what="the lobby's seats")
        assert isinstance(app.screen, LobbyScreen)
        await wait_for(pilot, lambda: "Start with computers" in screen_text(app), what="the footer key")
        await pilot.press("s")
        await wait_for(pilot, partial(_on_table, app), what="the table")
        assert "Computer 2" in screen_text(app) and "Computer 3" in screen_text(app)


async def test_hosting_on_a_port_in_use_says_why_and_exits() -> None:
    taken = await asyncio.start_server(lambda r, w: None, "127.0.0.1", 0)
    port = taken.sockets[0].getsockname()[1]
    config = make_host_config(
        rules=Rules.preset_named("puerto-rican-drawing"), players=2, computers=0, level="greedy",
        bind="127.0.0.1", port=port, code=None, seed=4,
    )
    app = CapicuApp(DisplayOptions(mouse=False), HostGame(config=config, name="Ana"))
    try:
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: app.failure is not None, what="the failure")
    finally:
        taken.close()
    assert app.failure is not None
    assert app.failure.startswith(f"Could not reach the table: Cannot listen on 127.0.0.1 port {port} ("), (
        app.failure)


async def test_a_guest_cannot_seat_computers() -> None:
    host = Host(HostConfig(TableConfig(rules=Rules(), players=3), bind="127.0.0.1", port=0, code=None))
    _, port = await host.start()
    try:
        app = CapicuApp(DisplayOptions(mouse=False), JoinGame("127.0.0.1", port, "Beto", None))
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: app.table is not None and bool(app.table.seats), what="the lobby")
            assert "Start with computers" not in screen_text(app)
            await pilot.press("s")
            await pilot.pause()
            assert host.tables["main"].match is None
    finally:
        await host.stop()
