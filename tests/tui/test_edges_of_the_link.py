"""Rough edges a player hit at the door and on the way out (issue 20): Pilot against real hosts."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import msgspec
import pytest
from capicu.core import Rules
from capicu.net.client import Client, Closed, Reconnecting
from capicu.net.host.server import Host, HostConfig
from capicu.net.host.table import TableConfig
from capicu.net.model import LinkEnd
from capicu.tui.app import CapicuApp
from capicu.tui.game import DisplayOptions, HostGame, JoinGame, SoloGame, make_host_config
from capicu.tui.prefs.saved_seats import SavedSeat
from capicu.tui.screens.draw_table import DrawTableScreen
from capicu.tui.screens.host_setup import HostSetupScreen
from capicu.tui.screens.menu import MainMenuScreen
from capicu.tui.screens.table import LeaveScreen
from capicu.tui.widgets.event_log import EventLog
from capicu.tui.words.describe import describe_link_end
from helpers_app import screen_text, wait_for
from textual.pilot import Pilot
from textual.widgets import Input, Label

SIZE = (80, 24)


@pytest.fixture(autouse=True)
def _own_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CAPICU_CONFIG_DIR", str(tmp_path / "config"))
    for variable in ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"):
        monkeypatch.delenv(variable, raising=False)


def _solo(language: str | None) -> CapicuApp:
    request = SoloGame(Rules.preset_named("puerto-rican-drawing"), 2, "normal", seed=3, name="Ana", pace=0.0)
    return CapicuApp(DisplayOptions(mouse=False, language=language), request)


async def test_in_spanish_s_says_yes_to_leaving_and_the_question_says_the_keys() -> None:
    app = _solo("es")
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, DrawTableScreen), what="the table")
        await pilot.press("q")
        await wait_for(pilot, lambda: isinstance(app.screen, LeaveScreen), what="the question")
        text = screen_text(app)
        assert "Pulsa s para irte" in text, text
        assert " y se va" not in text
        await pilot.press("s")
        await wait_for(pilot, lambda: app.game is None or not app.is_running, what="leaving")


async def test_in_spanish_y_still_says_yes() -> None:
    app = _solo("es")
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, DrawTableScreen), what="the table")
        await pilot.press("q")
        await wait_for(pilot, lambda: isinstance(app.screen, LeaveScreen), what="the question")
        await pilot.press("y")
        await wait_for(pilot, lambda: app.game is None or not app.is_running, what="leaving")


async def test_in_english_s_does_not_leave() -> None:
    app = _solo("en")
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, DrawTableScreen), what="the table")
        await pilot.press("q")
        await wait_for(pilot, lambda: isinstance(app.screen, LeaveScreen), what="the question")
        assert "Press y to leave; n or Esc to stay." in screen_text(app)
        await pilot.press("s")
        await pilot.pause()
        assert isinstance(app.screen, LeaveScreen) and app.game is not None
        await pilot.press("n")
        await wait_for(pilot, lambda: isinstance(app.screen, DrawTableScreen), what="the table again")


@pytest.mark.parametrize("language", ["en", "es"])
async def test_the_host_forms_labels_never_touch_their_fields_and_its_code_is_upper_case(
        language: str) -> None:
    app = CapicuApp(DisplayOptions(mouse=False, language=language))
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, MainMenuScreen), what="the menu")
        app.push_screen(HostSetupScreen(solo=False))
        await wait_for(pilot, lambda: isinstance(app.screen, HostSetupScreen), what="the form")
        await pilot.pause()
        screen = app.screen
        shown = [w for w in screen.query("#setup-grid > *") if w.display]  # (not another game's rows)
        fields = [w for w in shown if not isinstance(w, Label)]
        labels = [w for w in shown if isinstance(w, Label)]
        assert len(labels) == len(fields)
        for label, field in zip(labels, fields, strict=True):
            words = str(label.render()).rstrip()
            assert label.region.x + 1 + len(words) < field.region.x, (words, label.region, field.region)
        code = screen.query_one("#code", Input).value
        assert code == code.upper() and code.isalnum() and len(code) >= 4, code


# -- at the door: no code, a wrong code ------------------------------------------------------

CODE = "KQ7RTM"


async def _host(**table: object) -> tuple[Host, int]:
    options: dict[str, object] = {"players": 2, "computers": 0, "seed": 4}
    options.update(table)
    config = TableConfig(**options)  # type: ignore[arg-type]
    host = Host(HostConfig(config, bind="127.0.0.1", port=0, code=CODE))
    _, port = await host.start()
    return host, port


@pytest.mark.parametrize(
    ("code", "said"),
    [(None, "This table needs a join code: add --code CODE."),
     ("", "This table needs a join code: add --code CODE."),
     ("WRONG1", "The table refused: That is not this table's join code.")],
)
async def test_a_refusal_at_the_door_says_what_to_do_not_that_the_table_was_unreachable(
        code: str | None, said: str) -> None:
    host, port = await _host()
    try:
        app = _join(port, code)
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: app.failure is not None, what="the refusal")
        assert app.failure == said
    finally:
        await host.stop()


# -- the host leaves on purpose ----------------------------------------------------------------


def _join(port: int, code: str | None = CODE) -> CapicuApp:
    request = JoinGame("127.0.0.1", port, "Ana", code=code)
    return CapicuApp(DisplayOptions(mouse=False, language="en"), request)


async def _seated(port: int, name: str) -> Client:
    client = await Client.connect("127.0.0.1", port, name=name, code=CODE)
    async with asyncio.timeout(20):
        while client.model.view is None:
            await client.receive()
    return client


@pytest.mark.parametrize(("journalled", "keys", "resumable"), [
    (False, ("q", "y"), False),
    # The leave dialog ends the match for everyone: its journal is set aside, nothing to resume.
    (True, ("q", "y"), False),
])
async def test_a_hosting_player_who_quits_tells_the_others_who_closed_the_table(
        journalled: bool, keys: tuple[str, ...], resumable: bool, tmp_path: Path) -> None:
    journal = tmp_path / "match.journal" if journalled else None
    config = make_host_config(rules=Rules.preset_named("puerto-rican-drawing"), players=2, computers=0,
                              level="normal", bind="127.0.0.1", port=0, code=CODE, seed=4)
    config = msgspec.structs.replace(config, table=msgspec.structs.replace(config.table, journal=journal))
    app = CapicuApp(DisplayOptions(mouse=False, language="en"), HostGame(config=config, name="Ana"))
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: app.hosted_at is not None, what="the host")
        assert app.hosted_at is not None
        beto = await _seated(app.hosted_at.port, "Beto")
        try:
            await wait_for(pilot, lambda: isinstance(app.screen, DrawTableScreen), what="the table")
            await pilot.press("q")
            await wait_for(pilot, lambda: isinstance(app.screen, LeaveScreen), what="the question")
            await pilot.press(*keys[1:])
            async with asyncio.timeout(20):
                while not isinstance(closed := await beto.receive(), Closed):
                    assert not isinstance(closed, Reconnecting), "a closed table is not waited for"
        finally:
            await beto.close()
    assert closed.reason == LinkEnd.HOST_BYE
    assert beto.model.host_bye is not None and beto.model.host_bye.name == "Ana"
    assert beto.model.host_bye.resumable is resumable
    sentence = describe_link_end(closed.reason, closed.params)
    assert sentence.startswith("Ana closed the table.")
    assert ("Your seat is saved" in sentence) is resumable


async def test_a_hosting_app_quit_without_the_leave_dialog_lets_the_others_wait(tmp_path: Path) -> None:
    """Ctrl+Q is not "end the game": the journalled match is kept to be offered again, so the
    others are not told the table closed; they keep trying, as after a crash."""
    config = make_host_config(rules=Rules.preset_named("puerto-rican-drawing"), players=2, computers=0,
                              level="normal", bind="127.0.0.1", port=0, code=CODE, seed=4)
    config = msgspec.structs.replace(config, table=msgspec.structs.replace(config.table,
                                                                   journal=tmp_path / "match.journal"))
    app = CapicuApp(DisplayOptions(mouse=False, language="en"), HostGame(config=config, name="Ana"))
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: app.hosted_at is not None, what="the host")
        assert app.hosted_at is not None
        beto = await _seated(app.hosted_at.port, "Beto")
        try:
            await wait_for(pilot, lambda: isinstance(app.screen, DrawTableScreen), what="the table")
            await pilot.press("ctrl+q")
            async with asyncio.timeout(20):
                while not isinstance(message := await beto.receive(), Reconnecting | Closed):
                    pass
        finally:
            await beto.close()
    assert isinstance(message, Reconnecting) and beto.model.host_bye is None


@pytest.mark.parametrize("resumable", [False, True])
async def test_a_joined_player_ends_cleanly_when_the_host_closes_keeping_the_seat_only_if_resumable(
        resumable: bool, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    host, port = await _host(journal=tmp_path / "match.journal" if resumable else None)
    try:
        app = _join(port)
        async with app.run_test(size=SIZE) as pilot:
            other = await Client.connect("127.0.0.1", port, name="Beto", code=CODE)
            await wait_for(pilot, lambda: isinstance(app.screen, DrawTableScreen), what="the table")
            store = app.seat_store
            assert store is not None and store.seats_at("127.0.0.1", port, "main")
            await host.stop(closing=True, closed_by="Beto")
            await wait_for(pilot, lambda: app.farewell is not None, what="the farewell")
            await other.close()
        assert app.failure is None, app.failure
        assert app.farewell is not None and app.farewell.startswith("Beto closed the table.")
        assert bool(store.seats_at("127.0.0.1", port, "main")) is resumable
    finally:
        await host.stop()


# -- chat survives a comeback ----------------------------------------------------------------------


async def test_a_player_who_comes_back_reads_what_was_said_before() -> None:
    host, port = await _host()
    try:
        ana = await Client.connect("127.0.0.1", port, name="Ana", code=CODE)
        beto = await _seated(port, "Beto")
        for number in range(25):
            await beto.chat(f"line {number}\x1b[31m")
        async with asyncio.timeout(20):
            while len(ana.model.chat) < 25:
                await ana.receive()
        token = ana.token
        await ana.drop()
        # A new process on the same machine: the seat saved there brings Ana back.
        app = _join(port)
        assert app.seat_store is not None and token is not None
        app.seat_store.save(SavedSeat(host="127.0.0.1", port=port, table="main",
                                      match=host.tables["main"].match_id, token=token, seat_key=None,
                                      name="Ana", seat=0))
        async with app.run_test(size=(100, 30)) as pilot:
            await wait_for(pilot, lambda: isinstance(app.screen, DrawTableScreen), what="the table")
            assert app.table is not None
            said = [line.text for line in app.table.chat]
            assert said == [f"line {number}" for number in range(5, 25)], said  # the last 20, cleaned
            log = app.screen.query_one(EventLog)

            def logged() -> str:
                return "\n".join(strip.text for strip in log.lines)

            await wait_for(pilot, lambda: "Beto: line 24" in logged(), what="the chat in the log")
            assert "Beto: line 5" in logged() and "line 4\n" not in logged() + "\n"
        await beto.close()
    finally:
        await host.stop()


# -- pictures of the screens that changed --------------------------------------------------------


def test_snapshot_the_leave_question_in_spanish(snap_compare: Any) -> None:
    async def asked(pilot: Pilot[Any]) -> None:
        app = pilot.app
        await wait_for(pilot, lambda: isinstance(app.screen, DrawTableScreen), what="the table")
        await pilot.press("q")
        await wait_for(pilot, lambda: isinstance(app.screen, LeaveScreen), what="the question")
        await pilot.pause()

    assert snap_compare(_solo("es"), terminal_size=SIZE, run_before=asked)


def test_snapshot_the_host_form_in_spanish(snap_compare: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("capicu.tui.screens.host_setup.new_join_code", lambda: "K7PX2M")

    async def shown(pilot: Pilot[Any]) -> None:
        app = pilot.app
        await wait_for(pilot, lambda: isinstance(app.screen, MainMenuScreen), what="the menu")
        app.push_screen(HostSetupScreen(solo=False))
        await wait_for(pilot, lambda: isinstance(app.screen, HostSetupScreen), what="the form")
        await pilot.pause()

    assert snap_compare(CapicuApp(DisplayOptions(mouse=False, language="es")), terminal_size=SIZE,
                        run_before=shown)


async def test_from_the_menu_a_closed_table_is_said_and_the_menu_comes_back() -> None:
    host, port = await _host()
    try:
        app = CapicuApp(DisplayOptions(mouse=False, language="en"))
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: isinstance(app.screen, MainMenuScreen), what="the menu")
            other = await Client.connect("127.0.0.1", port, name="Beto", code=CODE)
            app.start_game(JoinGame("127.0.0.1", port, "Ana", code=CODE))
            await wait_for(pilot, lambda: isinstance(app.screen, DrawTableScreen), what="the table")
            await host.stop(closing=True, closed_by="Beto")
            await wait_for(pilot, lambda: isinstance(app.screen, MainMenuScreen) and app.link is None,
                           what="the menu again")
            await other.close()
            notices = [n.message for n in app._notifications]
            assert "Beto closed the table." in notices, notices
            assert not any("Connection lost" in n or "Could not reach" in n for n in notices), notices
    finally:
        await host.stop()
