"""The interface in Spanish: pictures of the table, a round's end and the rules at 80x24 with no
English sentence in them, a change of language in the middle of a match, and the command line.

"English" here is any two words in a row of an English message of the catalogue whose Spanish
differs (so "capicú", "Chat" or "Total", the same in both, never count).
"""

from __future__ import annotations

import re
import signal
import subprocess
import sys
from collections.abc import Iterator
from functools import cache
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
from babel.messages.pofile import read_po
from capicu.core import Rules
from capicu.tui.app import CapicuApp
from capicu.tui.cli.main import main
from capicu.tui.game import DisplayOptions, SoloGame
from capicu.tui.prefs.settings import load_settings
from capicu.tui.screens.draw_table import DrawTableScreen
from capicu.tui.screens.menu import MainMenuScreen
from capicu.tui.screens.rules_keys import RulesKeysScreen
from capicu.tui.screens.settings import SettingsScreen
from capicu.tui.widgets.event_log import EventLog
from capicu.tui.widgets.hand_view import HandView
from capicu.tui.words.messages import DOMAIN, LOCALE_DIR, placeholders
from helpers_app import my_turn, play_turn_and_wait, play_until, round_over, screen_text, wait_for
from helpers_process import ProcessLines
from textual.pilot import Pilot
from textual.widgets import Select

SIZE = (80, 24)


@pytest.fixture(autouse=True)
def _own_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CAPICU_CONFIG_DIR", str(tmp_path / "config"))
    for variable in ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"):
        monkeypatch.delenv(variable, raising=False)
    # Notices stay on the status line, so that a picture does not depend on the machine's speed.
    monkeypatch.setattr("capicu.tui.widgets.status_line.NOTICE_SECONDS", 3600.0)


def _solo(language: str | None, *, seed: int = 3, players: int = 3) -> CapicuApp:
    """A solo game whose computers move at once, in ``language`` (None: the saved one, else the locale's)."""
    request = SoloGame(Rules.preset_named("puerto-rican-drawing"), players, "normal", seed=seed, name="Ana",
                       pace=0.0)
    return CapicuApp(DisplayOptions(mouse=False, language=language), request)


# -- what reads as English ----------------------------------------------------------------

#: A word (a token of the command line such as "puerto-rican-drawing" is one).
_WORD = re.compile(r"[A-Za-z][A-Za-z'-]+")


def _pairs(text: str) -> set[tuple[str, str]]:
    """Two words in a row within one clause (not across a comma or a stop)."""
    pairs: set[tuple[str, str]] = set()
    for clause in re.split(r"[,.;:!?()\[\]{}|=+]", text):
        pairs |= set(pairwise(word.lower() for word in _WORD.findall(clause)))
    return pairs


@cache
def _english_pairs() -> frozenset[tuple[str, str]]:
    """Every two words in a row of an English message that Spanish says otherwise."""
    with (LOCALE_DIR / "es" / "LC_MESSAGES" / f"{DOMAIN}.po").open("rb") as handle:
        catalogue = read_po(handle)
    pairs: set[tuple[str, str]] = set()
    spanish_pairs: set[tuple[str, str]] = set()
    for message in catalogue:
        if not message.id:
            continue
        english = message.id if isinstance(message.id, tuple) else (message.id,)
        spanish = message.string if isinstance(message.string, tuple) else (message.string,)
        for text in spanish:
            spanish_pairs |= _pairs(text)
        for text in english:
            for name in placeholders(text):  # the literal words between the placeholders
                text = text.replace("{" + name + "}", "\n")
            for part in re.split(r"\n|%\(\w+\)\w|%\w", text):
                pairs |= _pairs(part)
    # Words Spanish says too ("la mesa", "el pozo") are not English.
    return frozenset(pairs - spanish_pairs)


def english_on(text: str) -> list[str]:
    """The rows of ``text`` with English in them (two words of an English message in a row)."""
    english = _english_pairs()
    return [row for row in text.splitlines() if _pairs(row) & english]


def test_english_is_found_where_there_is_some() -> None:
    assert english_on("  Te toca: escoge una ficha\n  Your turn: pick a tile") == ["  Your turn: pick a tile"]
    assert english_on("¡Dominó! Ana domina con el 3-5. ¡Capicú!") == []


# -- the pictures -------------------------------------------------------------------------


async def _settle(pilot: Pilot[Any]) -> None:
    await pilot.wait_for_scheduled_animations()
    await pilot.pause(0.2)
    pilot.app.clear_notifications()
    await pilot.pause()


async def _mid_round(pilot: Pilot[Any]) -> None:
    app = pilot.app
    assert isinstance(app, CapicuApp)
    await wait_for(pilot, lambda: my_turn(app), what="my turn")
    await play_turn_and_wait(pilot, app)
    await wait_for(pilot, lambda: my_turn(app), what="my second turn")
    await _settle(pilot)
    assert not english_on(screen_text(app)), english_on(screen_text(app))


async def _round_end(pilot: Pilot[Any]) -> None:
    app = pilot.app
    assert isinstance(app, CapicuApp)
    await wait_for(pilot, lambda: isinstance(app.screen, DrawTableScreen), what="the table")
    await play_until(pilot, app, lambda: round_over(app))
    await _settle(pilot)
    assert not english_on(screen_text(app)), english_on(screen_text(app))


async def _rules(pilot: Pilot[Any]) -> None:
    app = pilot.app
    assert isinstance(app, CapicuApp)
    await wait_for(pilot, lambda: my_turn(app), what="my turn")
    await pilot.press("r")
    await wait_for(pilot, lambda: isinstance(app.screen, RulesKeysScreen), what="the rules")
    await _settle(pilot)
    assert not english_on(screen_text(app)), english_on(screen_text(app))


def test_snapshot_the_table_in_spanish(snap_compare: Any) -> None:
    assert snap_compare(_solo("es"), terminal_size=SIZE, run_before=_mid_round)


def test_snapshot_the_round_end_in_spanish(snap_compare: Any) -> None:
    assert snap_compare(_solo("es"), terminal_size=SIZE, run_before=_round_end)


def test_snapshot_the_rules_and_keys_in_spanish(snap_compare: Any) -> None:
    assert snap_compare(_solo("es"), terminal_size=SIZE, run_before=_rules)


# -- a change of language ----------------------------------------------------------------


def _footer(app: CapicuApp) -> list[str]:
    return [key.description for key in app.screen.query("FooterKey") if key.styles.visibility != "hidden"]


def _log(app: CapicuApp) -> str:
    return "\n".join(strip.text for strip in app.screen.query_one(EventLog).lines)


async def test_switching_language_mid_match_keeps_the_game_and_words_everything_again() -> None:
    app = _solo("en", players=2)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: my_turn(app), what="my turn")
        await play_turn_and_wait(pilot, app)
        await wait_for(pilot, lambda: my_turn(app), what="my second turn")
        await _settle(pilot)
        assert app.table is not None
        view, cursor = app.table.view, app.screen.query_one(HandView).cursor
        english_log = _log(app)
        assert "Round 1 starts." in english_log and "Play tile" in _footer(app)

        await pilot.press("ctrl+p")
        await pilot.press(*"Language")
        await pilot.pause(0.3)
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, DrawTableScreen)
                       and "Jugar ficha" in _footer(app), what="the footer in Spanish")
        await _settle(pilot)
        # The same game, the same cursor, the log's lines all there: only the words changed.
        assert app.table.view is view
        assert app.screen.query_one(HandView).cursor == cursor
        spanish_log = _log(app)
        assert "Empieza la mano 1." in spanish_log
        assert spanish_log.count("\n") >= english_log.count("\n") - 1
        shown = screen_text(app)
        assert not english_on(shown), english_on(shown)
        assert "Te toca" in shown and "mano 1" in shown
        assert " der." in shown and "izq. " in shown  # the line's end labels, one word each
        assert load_settings()[0].language == "es"  # remembered for next time
        app.set_language("en")
        await wait_for(pilot, lambda: "Play tile" in _footer(app), what="the footer in English again")
        await _settle(pilot)
        assert " right" in screen_text(app) and "left " in screen_text(app)
        assert _log(app) == english_log


async def test_settings_switch_the_language_of_every_screen_and_it_is_remembered() -> None:
    app = CapicuApp(DisplayOptions(mouse=False))
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, MainMenuScreen), what="the menu")
        assert "Play against the computer" in screen_text(app)
        await pilot.press("s")
        await wait_for(pilot, lambda: isinstance(app.screen, SettingsScreen), what="the settings")
        app.screen.query_one("#name").value = "Pepe"  # typed, not saved yet: kept through the change
        app.screen.query_one("#language", Select).value = "es"
        await wait_for(pilot, lambda: "Idioma" in screen_text(app), what="the settings in Spanish")
        assert app.screen.query_one("#name").value == "Pepe"
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, MainMenuScreen), what="the menu")
        await _settle(pilot)
        shown = screen_text(app)
        assert "Jugar contra la computadora" in shown
        assert not english_on(shown), english_on(shown)
    settings, _ = load_settings()
    assert (settings.language, settings.name) == ("es", "Pepe")
    again = CapicuApp(DisplayOptions(mouse=False))
    async with again.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(again.screen, MainMenuScreen), what="the menu")
        assert again.language.code == "es"
    english = CapicuApp(DisplayOptions(mouse=False, language="en"))  # --lang wins over the setting
    async with english.run_test(size=SIZE):
        assert english.language.code == "en"


async def test_the_locale_chooses_when_nothing_else_does(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LANG", "es_PR.UTF-8")
    app = CapicuApp(DisplayOptions(mouse=False))
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, MainMenuScreen), what="the menu")
        assert app.language.code == "es"
        assert "Unirse a una partida" in screen_text(app)


# -- the command line -----------------------------------------------------------------------


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        code = main(list(argv))
    except SystemExit as exit:
        code = int(exit.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def test_help_in_spanish_uses_the_games_words(capsys: pytest.CaptureFixture[str]) -> None:
    _, english, _ = _run(capsys, "play", "--help")
    code, spanish, _ = _run(capsys, "--lang", "es", "play", "--help")
    assert code == 0 and spanish != english
    assert spanish.startswith("uso: capicu play")
    for words in ("opciones:", "reglas:", "pantalla:", "muestra esta ayuda y sale", "la computadora",
                  "tranque", "capicú", "fichas del pozo"):
        assert words in spanish, words
    _, top, _ = _run(capsys, "--lang", "es", "--help")
    assert "Una mesa de dominó para la terminal." in top and "--lang {en,es}" in top
    assert not english_on(spanish), english_on(spanish)


def test_a_bad_argument_is_said_in_spanish(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = _run(capsys, "--lang", "es", "play", "--players", "x")
    assert code == 2
    assert err == ("capicu: argumento --players: 'x' no es un número entero (mira capicu play --help)\n")
    for command in ("play", "host", "simulate"):  # one set of levels, refused by argparse in Spanish
        code, _, err = _run(capsys, "--lang", "es", command, "--level", "experto")
        assert code == 2 and "opción no válida: 'experto' (escoge entre 'easy', 'normal', 'hard')" in err
    code, _, err = _run(capsys, "--lang", "es", "play", "--players", "9")
    assert (code, err) == (2, "capicu: puerto-rican-drawing se juega entre 2 y 3 jugadores, no 9\n")
    code, _, err = _run(capsys, "--lang", "es", "nada")
    assert code == 2 and "opción no válida: 'nada'" in err
    # And in English again, in the same process.
    code, _, err = _run(capsys, "play", "--players", "x")
    assert err == "capicu: argument --players: 'x' is not a whole number (see capicu play --help)\n"


def test_a_bad_rule_option_is_said_in_spanish(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = _run(capsys, "--lang", "es", "play", "--target", "0")
    assert (code, err) == (
        2, "capicu: argumento --target: '0' tiene que estar entre 1 y 10000 (mira capicu play --help)\n")
    code, _, err = _run(capsys, "--lang", "es", "play", "--target", "99999999999")
    assert (code, err) == (
        2, "capicu: argumento --target: '99999999999' tiene que estar entre 1 y 10000 "
           "(mira capicu play --help)\n")
    code, _, err = _run(capsys, "--lang", "es", "play", "--preset", "quinientos", "--players", "2")
    assert (code, err) == (2, "capicu: quinientos se juega con 4 jugadores exactos, no 2\n")
    code, _, err = _run(capsys, "--lang", "es", "host", "--headless", "--reserve", "-1")
    assert code == 2 and err.startswith("capicu: argumento --reserve: '-1'") and not english_on(err)


def test_a_headless_host_speaks_spanish() -> None:
    """A real ``capicu --lang es host --headless`` on 127.0.0.1: its lines in Spanish; SIGTERM stops it."""
    command = [sys.executable, "-m", "capicu.tui.cli.main", "--lang", "es", "host", "--headless",
               "--bind", "127.0.0.1", "--port", "0", "--code", "ABC123"]
    host = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        lines = ProcessLines(host.stdout, 20).first(4)
        assert len(lines) == 4, lines
        port = lines[0].rsplit(" ", 1)[1]
        assert lines == [
            f"capicu host: escuchando en 127.0.0.1 puerto {port}",
            "capicu host: código de entrada ABC123",
            f"capicu host: para unirse, da la dirección 127.0.0.1, puerto {port}, código de entrada ABC123",
            f"capicu host: o escribe: capicu join 127.0.0.1:{port} --code ABC123",
        ]
        host.send_signal(signal.SIGTERM)
        out, _ = host.communicate(timeout=20)
    finally:
        if host.poll() is None:
            host.kill()
            host.communicate()
    assert host.returncode == 0 and out.decode() == "capicu host: detenido\n"


def test_the_rules_command_in_spanish(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "--lang", "es", "rules", "--preset", "quinientos")
    assert code == 0
    assert out.splitlines()[0] == "quinientos, 4 jugadores:"
    assert "- Capicú (la última ficha pega en las dos puntas y no es doble): +100." in out
    assert not english_on(out), english_on(out)


@pytest.fixture
def spanish_locale(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("LC_ALL", "es_ES.UTF-8")
    yield


def test_the_locale_words_the_command_line(capsys: pytest.CaptureFixture[str], spanish_locale: None) -> None:
    code, out, _ = _run(capsys, "rules")
    assert code == 0 and out.startswith("robado boricua, 2 jugadores:")
    _, out, _ = _run(capsys, "--lang", "en", "rules")
    assert out.startswith("puerto-rican-drawing, 2 players:")


def test_a_headless_host_words_what_happens_while_it_runs_in_spanish(tmp_path: Path) -> None:
    """A real ``capicu --lang es host --headless`` whose journal cannot be written: its note in Spanish."""
    import socket
    import struct

    import msgpack

    command = [sys.executable, "-m", "capicu.tui.cli.main", "--lang", "es", "host", "--headless",
               "--bind", "127.0.0.1", "--port", "0", "--no-code",
               "--journal", str(tmp_path / "no such folder" / "match.journal")]
    host = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        port = int(ProcessLines(host.stdout, 20).matching(r"puerto (\d+)$").group(1))
        # The first seat handed out is journaled first: the write fails, and the table stops.
        with socket.create_connection(("127.0.0.1", port), timeout=20) as peer:
            body = msgpack.packb({"type": "hello", "version": 7, "name": "Ana"})
            peer.sendall(struct.pack(">I", len(body)) + body)
            note = ProcessLines(host.stderr, 20).matching(r"^capicu host: .*main.*")
    finally:
        host.terminate()
        host.communicate(timeout=20)
    assert note.group(0).startswith("capicu host: La mesa main se detuvo"), note.group(0)
    assert not english_on(note.group(0).split("(", 1)[0]), note.group(0)
