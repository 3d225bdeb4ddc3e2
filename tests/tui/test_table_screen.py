"""The table as a player meets it: notices that cover nothing, keys that say why, the round's end.

The real app against a real in-process host, driven by key presses; two apps
talk through a real host on 127.0.0.1 where a test needs two people.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import msgspec
import pytest
from capicu.core import DRAW, Play, Rules, TilesDrawn
from capicu.net.host.server import Host, HostConfig
from capicu.net.host.table import TableConfig
from capicu.tui.app import CapicuApp
from capicu.tui.game import DisplayOptions, HostGame, JoinGame, make_host_config
from capicu.tui.screens.base import CapicuScreen
from capicu.tui.screens.draw_table import DrawTableScreen
from capicu.tui.screens.reconnecting import ReconnectingScreen
from capicu.tui.screens.rejoin_request import RejoinRequestScreen
from capicu.tui.widgets.event_log import EventLog
from capicu.tui.widgets.hand_view import HandView
from capicu.tui.widgets.quiet_footer import QuietFooter
from helpers_app import (
    my_turn,
    next_turn,
    play_turn_and_wait,
    round_over,
    screen_text,
    solo_app,
    summary_ready,
    wait_for,
)
from textual.widgets._footer import FooterKey

SIZE = (80, 24)


@pytest.fixture(autouse=True)
def _own_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CAPICU_CONFIG_DIR", str(tmp_path / "config"))


def _log(app: CapicuApp) -> str:
    """The table's log as one text (its lines wrap at the side panel's width)."""
    return " ".join(strip.text.strip() for strip in app.screen.query_one(EventLog).lines)


def _footer_keys(app: CapicuApp) -> list[str]:
    """The descriptions of the keys the Footer shows now (hidden ones left out)."""
    footer = app.screen.query_one(QuietFooter)
    return [key.description for key in footer.query(FooterKey) if key.styles.visibility != "hidden"]


async def test_a_draw_is_told_on_the_status_line_and_the_new_tiles_are_marked() -> None:
    app = solo_app(seed=5, players=2)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        # Every intent the screen sends, seen on its way to the host (and passed on).
        sent: list[object] = []
        link = app.link
        assert link is not None
        send = link.send_action

        async def seen(action: Any) -> bool:
            sent.append(action)
            return await send(action)

        link.send_action = seen  # type: ignore[method-assign]
        for _ in range(80):
            game = app.table
            view = game.view if game is not None else None
            if view is not None and view.is_my_turn and any(
                isinstance(e, TilesDrawn) and e.seat == view.seat for e in view.events
            ) and view.legal != (DRAW,):
                break
            await next_turn(pilot, app)
        else:
            pytest.fail("I never had to draw")
        # The rules forced those draws: the host made them, the screen sent no draw for them.
        assert sent and DRAW not in sent
        hand = app.screen.query_one(HandView)
        await wait_for(pilot, lambda: bool(hand.fresh), what="the drawn tiles marked")
        text = screen_text(app)
        assert "You drew " in text
        drawn = sorted(str(tile) for tile in hand.fresh)
        assert all(tile in text for tile in drawn)
        assert "new" in "\n".join(text.splitlines()[-4:-1])
        assert not app._notifications  # nothing over the hand
        # My next move clears the marks.
        if any(isinstance(a, Play) for a in app.table.view.legal):  # type: ignore[union-attr]
            await play_turn_and_wait(pilot, app)
            await wait_for(pilot, lambda: not hand.fresh, what="the marks gone after my move")


async def test_a_key_that_is_not_allowed_says_why_in_the_engines_words() -> None:
    app = solo_app(seed=3, players=2)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        for _ in range(40):
            await wait_for(pilot, lambda: my_turn(app), what="my turn")
            view = app.table.view  # type: ignore[union-attr]
            if any(isinstance(a, Play) for a in view.legal) and DRAW not in view.legal:
                break
            await play_turn_and_wait(pilot, app)
        await pilot.press("d")
        await wait_for(pilot, lambda: "so you cannot draw" in screen_text(app), what="why not")
        assert "Draw" not in _footer_keys(app) and "Play tile" in _footer_keys(app)
        await pilot.press("p")
        await wait_for(pilot, lambda: "cannot pass" in screen_text(app), what="why not pass")
        assert not app._notifications


async def test_the_finished_round_stays_until_enter_and_the_log_comes_back_whole() -> None:
    app = solo_app(seed=3, players=3)
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(80):
            if round_over(app):
                break
            await wait_for(pilot, lambda: my_turn(app) or round_over(app), what="my turn")
            if not round_over(app):
                await play_turn_and_wait(pilot, app)
        game = app.table
        assert game is not None and game.view is not None and game.view.between_rounds
        text = screen_text(app)
        # Every other hand beside its seat, with its count; the line still on the table.
        result = game.view.results[-1]
        for seat, tiles in enumerate(result.hands):
            if seat != game.seat and tiles:
                assert " ".join(str(tile) for tile in tiles)[:11] in text
        assert "pips" in text and game.view.line
        assert "Ready" in _footer_keys(app)
        await wait_for(pilot, lambda: summary_ready(app), what="the round's end to take Enter")
        await pilot.press("enter")
        await wait_for(pilot, lambda: game.view is not None and game.view.round_number == 2,
                       what="the next deal")
        await pilot.pause()
        log = app.screen.query_one(EventLog)
        # Lines written while the summary hid the log are wrapped to its width, not a letter a row.
        assert all(len(strip.text.strip()) > 2 for strip in log.lines if strip.text.strip())


async def test_the_footer_works_out_the_active_keys_once_a_change(monkeypatch: pytest.MonkeyPatch) -> None:
    """Textual works the active keys out anew each time it is asked (every key's check, in the
    table's words): the footer, told the keys may have changed, asks once (it asked two or three times)."""
    app = solo_app(seed=3, players=2)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: my_turn(app) and _footer_keys(app), what="my turn")
        await pilot.pause()
        asked: list[object] = []
        active = CapicuScreen.active_bindings

        def counted(screen: CapicuScreen[Any]) -> Any:
            asked.append(screen)
            return active.__get__(screen)

        monkeypatch.setattr(CapicuScreen, "active_bindings", property(counted))
        footer = app.screen.query_one(QuietFooter)
        footer.bindings_changed(app.screen)  # the same keys: nothing to draw
        assert len(asked) == 1


async def test_below_80x24_the_table_says_so_and_comes_back() -> None:
    app = solo_app(seed=3, players=2)
    async with app.run_test(size=(60, 20)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, DrawTableScreen) and app.game is not None
                       and app.table.view is not None, what="the table")
        await pilot.pause()
        assert "Make the window at least 80x24" in screen_text(app)
        assert "[" not in screen_text(app).split("Make")[0]  # no garbled tiles around it
        await pilot.resize_terminal(80, 24)
        await wait_for(pilot, lambda: "Make the window" not in screen_text(app), what="the table back")
        assert "(you)" in screen_text(app)


async def test_a_blank_cell_keeps_the_lines_end_label_off_the_log_at_80x24() -> None:
    # The line may draw its end label up to its content's last cell ("[5|2] 2 right"); the line's
    # own padding and a cell of the log's keep "right." beside it from reading as the same sentence.
    app = solo_app(seed=3, players=2)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, DrawTableScreen), what="the table")
        await pilot.pause()
        line = app.screen.query_one("#line")
        log = app.screen.query_one(EventLog)
        assert log.content_region.x - line.content_region.right >= 2


@pytest.fixture
async def lone_host() -> AsyncIterator[tuple[Host, int]]:
    table = TableConfig(rules=Rules.preset_named("puerto-rican-drawing"), players=2, computers=2,
                        computer_level="normal", computer_delay=0.05, seed=5)
    host = Host(HostConfig(table, bind="127.0.0.1", port=0, code=None))
    _, port = await host.start()
    yield host, port
    await host.stop()


async def test_a_spectator_is_offered_only_a_spectators_keys(lone_host: tuple[Host, int]) -> None:
    _, port = lone_host
    app = CapicuApp(DisplayOptions(mouse=False), JoinGame("127.0.0.1", port, "Vera", spectate=True))
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, DrawTableScreen) and app.game is not None
                       and app.table.view is not None, what="the table")
        await pilot.pause()
        keys = _footer_keys(app)
        assert "Chat" in keys and "Rules" in keys and "Leave" in keys
        for key in ("Play tile", "Hint", "Draw", "Pass", "Seat key", "Ready"):
            assert key not in keys


def _lan_host_app(**options: object) -> CapicuApp:
    config = make_host_config(
        rules=Rules.preset_named("puerto-rican-drawing"), players=2, computers=0, level="normal",
        bind="127.0.0.1", port=0, code="mesa42", seed=11, **options,  # type: ignore[arg-type]
    )
    return CapicuApp(DisplayOptions(mouse=False), HostGame(config=config, name="Ana"))


async def test_a_seat_asked_back_by_name_waits_for_the_hosts_answer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    host_app = _lan_host_app()
    async with host_app.run_test(size=SIZE) as host_pilot:
        await wait_for(host_pilot, lambda: host_app.hosted_at is not None,
                       what="the host to listen")
        port = host_app.hosted_at.port  # type: ignore[union-attr]
        monkeypatch.setenv("CAPICU_CONFIG_DIR", str(tmp_path / "first machine"))
        first = CapicuApp(DisplayOptions(mouse=False), JoinGame("127.0.0.1", port, "Beto", "mesa42"))
        async with first.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: isinstance(first.screen, DrawTableScreen), what="the table")
            seat = first.table.seat  # type: ignore[union-attr]
            await first.leave_game()  # on purpose: the seat is held, the computer plays it
        await wait_for(host_pilot, lambda: "Beto left the table; the computer plays for them" in
                       _log(host_app), what="the host told Beto left")

        # Another machine, no saved seat: only the host's answer gives it back.
        monkeypatch.setenv("CAPICU_CONFIG_DIR", str(tmp_path / "second machine"))
        refused = CapicuApp(DisplayOptions(mouse=False), JoinGame("127.0.0.1", port, "Beto", "mesa42"))
        async with refused.run_test(size=SIZE) as pilot:
            await wait_for(host_pilot, lambda: isinstance(host_app.screen, RejoinRequestScreen),
                           what="the host asked")
            await wait_for(host_pilot, lambda: "Beto asks for seat 2 back: allow?" in screen_text(host_app),
                           what="the question")
            await host_pilot.press("n")
            await wait_for(pilot, lambda: refused.failure is not None, what="the refusal")
        assert not isinstance(host_app.screen, RejoinRequestScreen)

        again = CapicuApp(DisplayOptions(mouse=False), JoinGame("127.0.0.1", port, "Beto", "mesa42"))
        async with again.run_test(size=SIZE) as pilot:
            await wait_for(host_pilot, lambda: isinstance(host_app.screen, RejoinRequestScreen),
                           what="the host asked again")
            await host_pilot.press("y")
            await wait_for(pilot, lambda: isinstance(again.screen, DrawTableScreen) and again.game is not None
                           and again.table.view is not None, what="the seat back")
            assert again.table.seat == seat  # type: ignore[union-attr]
            await wait_for(pilot, lambda: "You are back in your seat" in screen_text(again), what="welcome")
            await wait_for(host_pilot, lambda: "Beto is back" in _log(host_app), what="the host told")


async def test_when_the_host_dies_the_player_is_told_and_the_app_gives_up_with_code_1() -> None:
    table = TableConfig(rules=Rules.preset_named("puerto-rican-drawing"), players=2, computers=1,
                        computer_level="normal", seed=5)
    host = Host(HostConfig(table, bind="127.0.0.1", port=0, code=None))
    _, port = await host.start()
    app = CapicuApp(DisplayOptions(mouse=False), JoinGame("127.0.0.1", port, "Ana", give_up_after=1.5))
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: my_turn(app), what="my turn")
        await host.stop()
        await wait_for(pilot, lambda: any(isinstance(s, ReconnectingScreen) and s.host_down
                                          for s in app.screen_stack), what="the host said gone")
        await wait_for(pilot, lambda: "The host is gone" in screen_text(app), what="it said plainly")
        await wait_for(pilot, lambda: app.failure is not None, steps=600, what="giving up")
    assert app.failure_code == 1 and "\n" not in (app.failure or "")
    assert "The table is gone" in (app.failure or "")


async def test_a_finished_matchs_saved_seat_is_forgotten(tmp_path: Path) -> None:
    from capicu.tui.prefs.saved_seats import SEATS_FILE, SeatStore
    from capicu.tui.prefs.settings import data_dir

    # The first round wins it.
    rules = msgspec.structs.replace(Rules.preset_named("puerto-rican-drawing"), target=1)
    table = TableConfig(rules=rules, players=2, computers=1, computer_level="normal", seed=5,
                        next_round_delay=None)
    host = Host(HostConfig(table, bind="127.0.0.1", port=0, code=None))
    _, port = await host.start()
    try:
        app = CapicuApp(DisplayOptions(mouse=False), JoinGame("127.0.0.1", port, "Ana"))
        store = SeatStore(data_dir() / SEATS_FILE)
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: my_turn(app), what="my turn")
            assert [s.seat for s in store.seats_at("127.0.0.1", port, "main")] == [app.table.seat]  # type: ignore[union-attr]
            game = app.table
            while not (game is not None and game.view is not None and game.view.match_over):
                await next_turn(pilot, app)
            await wait_for(pilot, lambda: store.seats_at("127.0.0.1", port, "main") == [],
                           what="the seat forgotten")
    finally:
        await host.stop()


@pytest.mark.parametrize("preset", ["puerto-rican-drawing", "mexican-train"])
async def test_a_table_opened_as_the_app_ends_shows_nothing_and_raises_nothing(preset: str) -> None:
    # The app ends while a table is being mounted (Ctrl+Q, the host's goodbye): Textual still
    # sends the table its Mount, without the widgets that never came; it must end cleanly.
    from capicu.tui.games import face_of

    app = solo_app(preset=preset)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: app.table is not None and app.table.view is not None, what="the deal")
        view = app.table.view  # type: ignore[union-attr]
        app.push_screen(face_of(view.rules).table(view))
        app.exit()
    assert app.return_code == 0
