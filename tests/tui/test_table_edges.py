"""The table's rough edges a player hit (issue 20): each as a player meets it, by key presses.

The real app against a real in-process host; what is asserted is what the
screen shows (its text, the footer's keys, the status line).
"""

from __future__ import annotations

from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
from capicu.core import Play
from capicu.net.model import LinkState
from capicu.net.protocol import NAME_LIMIT
from capicu.tui.app import CapicuApp
from capicu.tui.screens.draw_table import DrawTableScreen
from capicu.tui.screens.rules_keys import RulesKeysScreen
from capicu.tui.widgets.chat_panel import ChatPanel
from capicu.tui.widgets.event_log import EventLog
from capicu.tui.widgets.quiet_footer import QuietFooter
from capicu.tui.widgets.status_line import StatusLine
from helpers_app import my_turn, play_turn_and_wait, screen_text, solo_app, wait_for
from textual.widgets import Static

SIZE = (80, 24)


@pytest.fixture(autouse=True)
def _own_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CAPICU_CONFIG_DIR", str(tmp_path / "config"))


def _footer_keys(app: CapicuApp) -> list[str]:
    footer = app.screen.query_one(QuietFooter)
    return [key.description for key in footer.query("FooterKey")
            if key.styles.visibility != "hidden" and not key.has_class("-command-palette")]


def _table(app: CapicuApp) -> DrawTableScreen:
    return next(s for s in app.screen_stack if isinstance(s, DrawTableScreen))


def _status(app: CapicuApp) -> str:
    status = _table(app).query_one(StatusLine)
    return status.notice or status.prompt


def _log(app: CapicuApp) -> str:
    if not any(isinstance(s, DrawTableScreen) for s in app.screen_stack):
        return ""
    # Pushed, the table may not be composed yet: no log to read then.
    return " ".join(strip.text.strip() for log in _table(app).query(EventLog) for strip in log.lines)


def _record_intents(app: CapicuApp) -> list[object]:
    """Every intent the screen sends, seen on its way to the host (and passed on)."""
    sent: list[object] = []
    link = app.link
    assert link is not None
    send = link.send_action

    async def seen(action: Any) -> bool:
        sent.append(action)
        return await send(action)

    link.send_action = seen  # type: ignore[method-assign]
    return sent


async def _my_turn_with_a_play(pilot: Any, app: CapicuApp) -> None:
    for _ in range(40):
        await wait_for(pilot, lambda: my_turn(app), what="my turn")
        view = app.table.view  # type: ignore[union-attr]
        if any(isinstance(a, Play) for a in view.legal):
            return
        await play_turn_and_wait(pilot, app)
    pytest.fail("no turn with a tile to play")


@pytest.mark.parametrize(("theme", "size"), [("felt", SIZE), ("high-contrast", (100, 30)), (None, SIZE)])
async def test_chat_shows_what_is_typed_while_typing(theme: str | None, size: tuple[int, int]) -> None:
    app = solo_app(theme=theme)
    async with app.run_test(size=size) as pilot:
        await wait_for(pilot, lambda: my_turn(app), what="my turn")
        await pilot.press("c")
        await wait_for(pilot, lambda: app.screen.query_one(ChatPanel).has_focus_within, what="chat focused")
        await pilot.press(*"hola")
        await pilot.pause()
        chat = app.screen.query_one(ChatPanel).input
        assert chat.content_region.height == 1  # the focused field keeps its one row for the text
        assert "hola" in screen_text(app)


async def test_while_chatting_the_footer_offers_only_the_way_back() -> None:
    app = solo_app()
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: my_turn(app), what="my turn")
        await wait_for(pilot, lambda: "Leave" in _footer_keys(app), what="the table's footer")
        await pilot.press("c")
        await wait_for(pilot, lambda: _footer_keys(app) == ["Back to the table"], what="chat's footer")
        await pilot.press("q")  # a letter, typed
        assert app.screen.query_one(ChatPanel).input.value == "q"
        assert isinstance(app.screen, DrawTableScreen)
        await pilot.press("escape")
        await wait_for(pilot, lambda: "Leave" in _footer_keys(app), what="the table's keys back")
        assert isinstance(app.screen, DrawTableScreen)


async def test_no_table_key_acts_while_the_table_is_hidden() -> None:
    app = solo_app(seed=3)
    async with app.run_test(size=SIZE) as pilot:
        await _my_turn_with_a_play(pilot, app)
        sent = _record_intents(app)
        await pilot.resize_terminal(60, 20)
        await wait_for(pilot, lambda: "Make the window" in screen_text(app), what="the table hidden")
        await pilot.press("enter", "x", "k", "c", "h")
        await pilot.pause()
        assert sent == []
        assert not app.screen.query_one(ChatPanel).has_focus_within
        # The footer offers what works (leaving), its labels apart: nothing runs into the palette's key.
        assert _footer_keys(app) == ["Leave"]
        assert "Play^p" not in screen_text(app) and "Play tile" not in screen_text(app)
        await pilot.resize_terminal(*SIZE)
        await wait_for(pilot, lambda: "Make the window" not in screen_text(app), what="the table back")
        await pilot.press("enter")
        await wait_for(pilot, lambda: bool(sent), what="the tile played at full size")


async def test_keys_that_do_nothing_now_say_why() -> None:
    app = solo_app(seed=3)
    async with app.run_test(size=SIZE) as pilot:
        await _my_turn_with_a_play(pilot, app)
        for key, said in (("k", "has a seat key"), ("h", "choose an end when a tile fits both"),
                          ("2", "choose an end when a tile fits both"), ("j", "played here alone")):
            app.screen.query_one(StatusLine).clear_notice()
            await pilot.press(key)
            await wait_for(pilot, lambda said=said: said in _status(app), what=f"why {key} did nothing")
        assert "How to join" not in _footer_keys(app) and "Seat key" not in _footer_keys(app)


async def test_the_rules_and_keys_screen_lists_each_key_once() -> None:
    app = solo_app()
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: my_turn(app), what="my turn")
        await pilot.press("r")
        await wait_for(pilot, lambda: isinstance(app.screen, RulesKeysScreen), what="the rules screen")
        text = str(app.screen.query_one("#rules-keys", Static).render())
        keys = [line.strip().split("  ")[0] for line in text.splitlines() if line.startswith(" ")]
        written = [key for line in keys for key in line.split(" / ")]
        assert len(written) == len(set(written)), written
        assert "Enter" in written and "←" in written and "h" in written
        assert "Play tile; Ready" in text


async def test_a_notice_lasts_its_turn_and_the_status_line_says_the_state() -> None:
    app = solo_app(seed=3)
    async with app.run_test(size=SIZE) as pilot:
        await _my_turn_with_a_play(pilot, app)
        await pilot.press("k")
        await wait_for(pilot, lambda: "seat key" in _status(app), what="the notice")
        await play_turn_and_wait(pilot, app)
        # The turn moved on: the notice went with it (the computer moves at once, well within its 6 s).
        assert "seat key" not in _status(app)


async def test_a_name_over_the_limit_is_said_to_be_cut() -> None:
    long_name = "Maximiliana" * 4
    app = solo_app(name=long_name)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, DrawTableScreen) and "letters" in _log(app),
                       what="the name's notice")
        assert f"at most {NAME_LIMIT} letters" in _log(app)
        assert app.table is not None and app.table.name == long_name[:NAME_LIMIT]
        assert not app._notifications  # in the log, not a toast over the hand


async def test_a_partners_round_end_shows_its_last_line_at_80x24_when_the_others_win() -> None:
    app = solo_app(seed=3, players=4, preset="puerto-rican-partners")
    async with app.run_test(size=SIZE) as pilot:
        from helpers_app import play_until, round_over

        await play_until(pilot, app, lambda: round_over(app))
        view = app.table.view  # type: ignore[union-attr]
        result = view.results[-1]
        assert result.winner is not None and result.winner != view.side_of(view.seat)
        await pilot.pause()
        text = screen_text(app)
        # One form for a side, the language's list: never "Team ... & ...".
        assert "Computer 2 and Computer 4" in text and "&" not in text and "Team" not in text
        assert f"{result.scores[result.winner]} in total." in text


async def test_under_the_host_gone_overlay_my_own_seat_is_not_connected() -> None:
    from capicu.core import Rules
    from capicu.net.host.server import Host, HostConfig
    from capicu.net.host.table import TableConfig
    from capicu.tui.game import DisplayOptions, JoinGame
    from capicu.tui.screens.reconnecting import ReconnectingScreen
    from capicu.tui.widgets.seat_panel import SeatPanel

    table = TableConfig(rules=Rules.preset_named("puerto-rican-drawing"), players=2, computers=1,
                        computer_level="normal", seed=5)
    host = Host(HostConfig(table, bind="127.0.0.1", port=0, code=None))
    _, port = await host.start()
    app = CapicuApp(DisplayOptions(mouse=False), JoinGame("127.0.0.1", port, "Ana", give_up_after=30))
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: my_turn(app), what="my turn")
        screen = app.screen
        assert isinstance(screen, DrawTableScreen)
        mine = screen.query_one("#seat-me", SeatPanel)
        assert "connected" in mine.render().plain.split("\n")[-1]
        await host.stop()
        await wait_for(pilot, lambda: any(isinstance(s, ReconnectingScreen) and s.host_down
                                          for s in app.screen_stack), what="the host said gone")
        await wait_for(pilot, lambda: "disconnected" in mine.render().plain, what="my seat not connected")
        await app.leave_game()


async def test_back_at_the_table_on_my_turn_the_status_line_says_my_turn() -> None:
    from capicu.core import Rules
    from capicu.net.host.server import Host, HostConfig
    from capicu.net.host.table import TableConfig
    from capicu.tui.game import DisplayOptions, JoinGame
    from capicu.tui.screens.reconnecting import ReconnectingScreen

    table = TableConfig(rules=Rules.preset_named("puerto-rican-drawing"), players=2, computers=1,
                        computer_level="normal", seed=5)
    host = Host(HostConfig(table, bind="127.0.0.1", port=0, code=None))
    _, port = await host.start()
    try:
        app = CapicuApp(DisplayOptions(mouse=False), JoinGame("127.0.0.1", port, "Ana"))
        async with app.run_test(size=SIZE, notifications=True) as pilot:
            await wait_for(pilot, lambda: my_turn(app), what="my turn")
            assert app.link is not None and app.link.client is not None
            app.link.client._writer.transport.abort()
            await wait_for(pilot, lambda: app.table.drops == 1, what="the drop to be seen")  # type: ignore[union-attr]
            await wait_for(pilot, lambda: app.table.link is LinkState.UP  # type: ignore[union-attr]
                           and not any(isinstance(s, ReconnectingScreen) for s in app.screen_stack)
                           and my_turn(app), what="the seat resumed")
            await pilot.pause()
            assert _status(app).startswith("Your") and "Back at the table" not in _status(app)
            assert not any("Back at the table" in n.message for n in app._notifications)
    finally:
        await host.stop()


async def test_a_name_typed_to_the_limit_in_the_join_form_is_said_to_be_full() -> None:
    from capicu.tui.screens.join_form import JoinFormScreen
    from textual.widgets import Input

    app = CapicuApp()
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await app.push_screen(JoinFormScreen())
        field = app.screen.query_one("#name", Input)
        field.focus()
        field.value = ""
        await pilot.press(*("x" * (NAME_LIMIT + 6)))
        await wait_for(pilot, lambda: any(f"at most {NAME_LIMIT} letters" in n.message
                                          for n in app._notifications), what="the name said full")
        assert field.value == "x" * NAME_LIMIT


async def test_footer_keys_never_run_into_each_other_in_spanish_at_80_columns() -> None:
    from capicu.core import Rules
    from capicu.net.host.server import Host, HostConfig
    from capicu.net.host.table import TableConfig
    from capicu.tui.game import DisplayOptions, JoinGame

    table = TableConfig(rules=Rules.preset_named("puerto-rican-drawing"), players=2, computers=1,
                        computer_level="normal", seed=5)
    host = Host(HostConfig(table, bind="127.0.0.1", port=0, code=None))
    _, port = await host.start()
    try:
        app = CapicuApp(DisplayOptions(mouse=False, language="es"), JoinGame("127.0.0.1", port, "Ana"))
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: my_turn(app), what="my turn")

            def apart() -> bool:
                keys = [key.region for key in app.screen.query_one(QuietFooter).query("FooterKey")
                        if key.styles.visibility != "hidden"]
                ordered = sorted(keys, key=lambda region: region.x)
                return len(keys) >= 6 and all(a.right <= b.x for a, b in pairwise(ordered))

            def shown() -> bool:
                return "Llave del asiento" in screen_text(app) and "Paleta" in screen_text(app)

            # "k Llave del asiento" is long: the keys close up rather than overlap the palette's. (The
            # footer lays its keys out again as the turn comes: both are waited for, on one frame.)
            await wait_for(pilot, lambda: apart() and shown(), what="the footer's keys apart, all shown")
    finally:
        await host.stop()


@pytest.mark.parametrize(("language", "words"), [
    ("en", ["Play", "Host", "Join", "Replays", "History", "Rules", "Settings", "Quit"]),
    ("es", ["Jugar", "Abrir", "Unirse", "Repeticiones", "Historial", "Reglas", "Ajustes", "Salir"]),
])
async def test_the_main_menus_eight_keys_fit_80_columns_apart(language: str, words: list[str]) -> None:
    from capicu.tui.game import DisplayOptions
    from capicu.tui.screens.menu import MainMenuScreen
    from textual.widgets import Footer

    app = CapicuApp(DisplayOptions(mouse=False, language=language))
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, MainMenuScreen), what="the menu")
        footer = app.screen.query_one(Footer)
        await wait_for(pilot, lambda: len(footer.query("FooterKey")) == len(words), what="the menu's keys")
        regions = sorted((key.region for key in footer.query("FooterKey")), key=lambda region: region.x)
        assert all(a.right <= b.x for a, b in pairwise(regions)) and regions[-1].right <= SIZE[0]
        last_row = screen_text(app).splitlines()[-1]
        assert all(word in last_row for word in words)
