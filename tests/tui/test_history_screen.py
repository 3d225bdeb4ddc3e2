"""``capicu history`` and the History screen: the hand-made history's figures (tests/helpers_history.py)
in words, by the command line and by the real app driven with Pilot; a damaged history costs the
history, never the app; snapshots at 80x24."""

from __future__ import annotations

import csv
import io
import sqlite3
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from capicu.net.store.history import HISTORY_FILE, HistoryProblem, KeptBy, open_history
from capicu.tui.app import CapicuApp
from capicu.tui.cli.commands import run_history
from capicu.tui.cli.main import main
from capicu.tui.game import DisplayOptions
from capicu.tui.prefs.settings import Settings, save_settings, settings_path
from capicu.tui.screens.history import HistoryScreen
from capicu.tui.screens.menu import MainMenuScreen
from helpers_app import screen_text, wait_for
from helpers_history import FIVES_MADE, write_hand_made
from textual.pilot import Pilot
from textual.widgets import DataTable

SIZE = (80, 24)
#: The clock the screen and the command are given: the hand-made history's "this year" is 2026.
NOW = datetime(2026, 12, 1, 20, 0, tzinfo=UTC)


@pytest.fixture(autouse=True)
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The folder of records the history is kept in, in one folder for settings and data."""
    monkeypatch.delenv("CAPICU_DATA_DIR", raising=False)
    monkeypatch.setenv("CAPICU_CONFIG_DIR", str(tmp_path))
    records = tmp_path / "records"
    records.mkdir()
    return records


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    try:
        code = main(argv)
    except SystemExit as exc:  # argparse's own errors exit; ours return
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


# -- the command line ---------------------------------------------------------------------------


def test_the_command_says_when_nothing_is_kept_yet(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(["history"], capsys)
    assert code == 0 and "No finished match is kept yet" in out
    assert not (folder / HISTORY_FILE).exists()
    assert str(folder / HISTORY_FILE) in out


def test_the_command_prints_the_players_figures(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write_hand_made(folder)
    code, out, _ = _run(["history"], capsys)
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "Your history, all time"
    assert lines[1] == ("4 matches played, 2 won (50%), 76.2 points a round, 20 counted a round in Mexican "
                        "Train, 2 capicús, 1 chuchazo.")
    assert "By game" in lines and "By opponent" in lines
    beto = next(line for line in lines if line.startswith("Beto "))
    assert beto.split()[:3] == ["Beto", "3", "1"]
    train = next(line for line in lines if line.startswith("Mexican Train"))
    assert "20 counted" in train
    # A game is named in words, as a table's header says it, never by its command-line name.
    assert not any(line.startswith(("mexican-train", "puerto-rican-drawing")) for line in lines), lines
    code, out, _ = _run(["--lang", "es", "history"], capsys)
    assert code == 0 and any(line.startswith("Tren mexicano ") for line in out.splitlines()), out


def test_the_command_prints_fives_and_threes_as_a_game_of_its_own(
        folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write_hand_made(folder)
    with open_history(folder)[0] as history:
        for facts in FIVES_MADE:
            history.add(facts, kept_by=KeptBy.PLAYER, me=0)
    code, out, _ = _run(["history"], capsys)
    assert code == 0
    lines = out.splitlines()
    assert lines[1] == ("6 matches played, 3 won (50%), 76.2 points a round, 20 counted a round in Mexican "
                        "Train, 10.1 points a hand in Fives and Threes (best play 8), 2 capicús, 1 chuchazo.")
    fives = next(line for line in lines if line.startswith("Fives and Threes"))
    assert fives.split()[:6] == ["Fives", "and", "Threes", "2", "1", "(50%)"] and "10.1, best 8" in fives
    # In Spanish, the game's own words.
    code, out, _ = _run(["--lang", "es", "history"], capsys)
    assert code == 0 and "10,1 puntos por mano en cincos y treses (mejor jugada: 8)" in out, out
    assert "10,1; mejor 8" in out


def test_a_history_of_fives_and_threes_only_speaks_of_its_own_figures(
        folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """No "0 capicús, 0 chuchazos" (the Draw family's bonuses) for who played Fives and Threes only,
    and an opponent met there has that game's figures, not a "-"."""
    with open_history(folder)[0] as history:
        for facts in FIVES_MADE:
            history.add(facts, kept_by=KeptBy.PLAYER, me=0)
    code, out, _ = _run(["history"], capsys)
    assert code == 0
    lines = out.splitlines()
    assert lines[1] == "2 matches played, 1 won (50%), 10.1 points a hand in Fives and Threes (best play 8)."
    beto = next(line for line in lines if line.startswith("Beto "))
    assert "10.1, best 8" in beto, beto
    # No Capicú and Chuchazo counts in a row of a game without them (the Draw family's figures).
    assert beto.split()[-2:] == ["-", "-"], beto
    fives = next(line for line in lines if line.startswith("Fives and Threes"))
    assert fives.split()[-2:] == ["-", "-"], fives


def test_the_command_by_name_and_year(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write_hand_made(folder)
    code, out, _ = _run(["history", "--player", "beto", "--year", "2025"], capsys)
    assert code == 0
    assert out.splitlines()[:2] == ["History of beto, in 2025",
                                    "1 match played, 0 won (0%), 10 points a round, 0 capicús, 0 chuchazos."]


def test_the_player_is_the_seats_that_were_mine_whatever_the_saved_name(
    folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 31: matches played as root are "mine"; a name saved later (Carla) does not hide them."""
    write_hand_made(folder)
    assert save_settings(Settings(name="Carla"), settings_path()) is None
    _, out, _ = _run(["history"], capsys)
    assert out.splitlines()[:2] == ["Your history, all time",
                                    "4 matches played, 2 won (50%), 76.2 points a round, 20 counted a round "
                                    "in Mexican Train, 2 capicús, 1 chuchazo."]
    _, out, _ = _run(["history", "--player", "Carla"], capsys)  # a name, when asked for
    assert out.splitlines()[:2] == ["History of Carla, all time",
                                    "1 match played, 1 won (100%), 166.7 points a round, 1 capicú, "
                                    "0 chuchazos."]


def test_this_year_is_the_year_of_the_clock(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write_hand_made(folder)
    from capicu.tui.cli.main import build_parser

    args = build_parser().parse_args(["history", "--this-year"])
    assert run_history(args, now=NOW) == 0
    assert capsys.readouterr().out.splitlines()[1].startswith("3 matches played, 1 won (33%)")
    assert run_history(args, now=datetime(2025, 7, 1, tzinfo=UTC)) == 0
    assert capsys.readouterr().out.splitlines()[1].startswith("1 match played, 1 won (100%)")


def test_the_command_prints_a_hosts_standings(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write_hand_made(folder, kept_by=KeptBy.HOST)
    code, out, _ = _run(["--lang", "es", "history", "--host", "--year", "2026"], capsys)
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "Clasificación de esta mesa, en 2026"
    assert [line.split()[0] for line in lines[2:]] == ["Beto", "Carla", "Ana", "Dora", "Dos", "Uno"]
    assert lines[-1].startswith("Uno (computadora)")
    assert "30,5" in lines[2]  # Beto's points a round, the Spanish way


def test_the_csv_export(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write_hand_made(folder)
    target = folder / "history.csv"
    code, out, _ = _run(["history", "--csv", str(target)], capsys)
    assert code == 0 and "11 rows written" in out
    rows = list(csv.DictReader(io.StringIO(target.read_text(encoding="utf-8"))))
    assert len(rows) == 11
    assert {row["match_id"] for row in rows} == {"m1", "m2", "m3", "m4"}
    code, out, _ = _run(["history", "--csv", "-"], capsys)
    assert code == 0 and out.splitlines()[0].startswith("match_id,started,ended,preset")


def test_the_csv_export_writes_no_escape_sequence(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A history.sqlite3 written by someone else: its names reach the terminal through ``--csv -`` cleaned."""
    write_hand_made(folder)
    with sqlite3.connect(folder / HISTORY_FILE) as db:
        db.execute("UPDATE seats SET name = ? WHERE name = 'Ana'",
                   ("\x1b]0;owned\x07A\u200bna\x9b2J\x1b[31m",))
        db.execute("UPDATE seats SET name = ?, level = ? WHERE name = 'Beto'",
                   ("\x1b[2J=HYPERLINK(1)\x85", "hard\x1bc"))
    db.close()
    code, out, _ = _run(["history", "--csv", "-"], capsys)
    assert code == 0
    rows = list(csv.DictReader(io.StringIO(out)))
    names = {row["name"] for row in rows}
    assert {"Ana", "'=HYPERLINK(1)"} <= names and not names & {"Beto"}, names
    assert "hard" in {row["level"] for row in rows}
    assert all(line.isprintable() for line in out.splitlines()), repr(out)


@pytest.mark.parametrize("argv", [
    ["history", "--year", "12"],
    ["history", "--year", "2026", "--this-year"],
    ["history", "--host", "--player", "Ana"],
    ["history", "--player", "  "],
    ["history", "--csv", "/no/such/folder/history.csv"],
])
def test_bad_arguments_get_one_line_and_exit_code_2(argv: list[str], capsys: pytest.CaptureFixture[str],
                                                    folder: Path) -> None:
    write_hand_made(folder)
    code, _, err = _run(argv, capsys)
    assert code == 2
    assert err.startswith("capicu: ") and err.count("\n") == 1, err


def test_a_damaged_history_is_said_in_one_sentence_and_set_aside(
        folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (folder / HISTORY_FILE).write_bytes(b"not a database at all" * 50)
    code, out, err = _run(["history"], capsys)
    assert code == 0
    assert err.startswith("capicu: The history file ") and "kept aside as" in err and err.count("\n") == 1
    assert out.splitlines()[1] == "No finished match."
    assert (folder / "history.damaged-1.sqlite3").read_bytes().startswith(b"not a database")


# -- the screen ---------------------------------------------------------------------------------


def _app(*, ascii: bool = False, language: str | None = None) -> CapicuApp:
    return CapicuApp(DisplayOptions(mouse=False, ascii=ascii, language=language))


async def _open_history(pilot: Pilot[Any], app: CapicuApp) -> HistoryScreen:
    await wait_for(pilot, lambda: isinstance(app.screen, MainMenuScreen), what="the main menu")
    await pilot.press("y")
    await wait_for(pilot, lambda: isinstance(app.screen, HistoryScreen), what="the History screen")
    await pilot.pause()
    assert isinstance(app.screen, HistoryScreen)
    return app.screen


def _table(screen: HistoryScreen) -> list[list[str]]:
    table = screen.query_one(DataTable)
    return [[str(cell) for cell in table.get_row_at(row)] for row in range(table.row_count)]


async def test_the_history_screen_follows_its_keys(folder: Path) -> None:
    write_hand_made(folder)
    app = _app()
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, MainMenuScreen), what="the main menu")
        app.push_screen(HistoryScreen(now=NOW))
        await wait_for(pilot, lambda: isinstance(app.screen, HistoryScreen), what="the History screen")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, HistoryScreen)
        text = screen_text(app)
        assert "Your history, all time" in text and "4 matches played, 2 won (50%)" in text
        assert [row[0] for row in _table(screen)] == ["Beto", "Dora", "Dos (computer)", "Uno (computer)"]
        assert _table(screen)[0][:3] == ["Beto", "3", "1 (33%)"]
        assert "Matches won so far" in text  # the chart

        await pilot.press("g")
        assert [row[0] for row in _table(screen)] == ["Puerto Rican Drawing Game", "Mexican Train",
                                                      "Quinientos"]
        assert _table(screen)[1][3] == "20 counted"

        await pilot.press("y")
        text = screen_text(app)
        assert "Your history, in 2026" in text and "3 matches played, 1 won (33%)" in text
        assert [row[0] for row in _table(screen)] == ["Mexican Train", "Puerto Rican Drawing Game",
                                                      "Quinientos"]

        await pilot.press("s")  # kept by a player only: no standings
        assert "No match was hosted at this table." in screen_text(app)
        assert _table(screen) == []

        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, MainMenuScreen), what="back to the menu")


@pytest.mark.parametrize(("language", "games"), [
    ("en", ["Puerto Rican Drawing Game", "Mexican Train", "Quinientos"]),
    ("es", ["Robado boricua", "Tren mexicano", "Quinientos"]),
])
async def test_the_history_screen_names_each_game_in_words(folder: Path, language: str,
                                                           games: list[str]) -> None:
    """As a table's header says it ("Mexican Train"), not as the command line writes it ("mexican-train")."""
    write_hand_made(folder)
    app = _app(language=language)
    async with app.run_test(size=SIZE) as pilot:
        screen = await _open_history(pilot, app)
        await pilot.press("g")
        await pilot.pause()
        assert [row[0] for row in _table(screen)] == games


async def test_the_history_screen_speaks_spanish_and_follows_a_change_of_language(folder: Path) -> None:
    write_hand_made(folder, kept_by=KeptBy.HOST)
    app = _app(language="es")
    async with app.run_test(size=SIZE) as pilot:
        screen = await _open_history(pilot, app)
        await pilot.press("s")
        text = screen_text(app)
        assert "Clasificación de esta mesa, desde siempre" in text
        # Everyone who sat at the table, the computers too.
        assert [row[0] for row in _table(screen)] == ["Beto", "Ana", "Carla", "Dora", "Dos (computadora)",
                                                      "Uno (computadora)"]
        app.set_language("en")
        await wait_for(pilot, lambda: "Standings at this table, all time" in screen_text(app),
                       what="the screen in English")
        assert [row[0] for row in _table(screen)] == ["Beto", "Ana", "Carla", "Dora", "Dos (computer)",
                                                      "Uno (computer)"]


async def test_a_damaged_history_costs_the_history_never_the_app(folder: Path) -> None:
    (folder / HISTORY_FILE).write_bytes(b"\x00garbage" * 300)
    app = _app()
    async with app.run_test(size=SIZE) as pilot:
        await _open_history(pilot, app)
        await wait_for(pilot, lambda: any("kept aside as" in str(n.message) for n in app._notifications),
                       what="the notice")
        assert "No finished match." in screen_text(app)
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, MainMenuScreen), what="back to the menu")
    assert (folder / "history.damaged-1.sqlite3").exists()


async def test_a_history_written_by_a_newer_capicu_is_said_on_the_screen(folder: Path) -> None:
    import sqlite3

    write_hand_made(folder)
    newer = sqlite3.connect(folder / HISTORY_FILE)
    newer.execute("PRAGMA user_version = 99")
    newer.commit()
    newer.close()
    app = _app()
    async with app.run_test(size=SIZE) as pilot:
        await _open_history(pilot, app)
        assert "written by a newer capicu (version 99)" in " ".join(screen_text(app).split())


# -- snapshots ----------------------------------------------------------------------------------


@pytest.mark.parametrize("ascii", [False, True], ids=["unicode", "ascii"])
def test_snapshot_of_the_history_screen(snap_compare: Any, folder: Path, ascii: bool) -> None:
    write_hand_made(folder)
    app = _app(ascii=ascii)

    async def shown(pilot: Pilot[Any]) -> None:
        await _open_history(pilot, app)
        await pilot.pause()

    assert snap_compare(app, terminal_size=SIZE, run_before=shown)


# -- a match played in the app --------------------------------------------------------------------


async def test_a_match_played_in_the_app_is_in_its_history_and_a_damaged_file_is_said(folder: Path) -> None:
    import msgspec
    from capicu.core import Rules
    from capicu.tui.game import SoloGame
    from helpers_app import play_until

    (folder / HISTORY_FILE).write_bytes(b"not a database" * 100)
    rules = msgspec.structs.replace(Rules.preset_named("draw"), target=10)
    app = CapicuApp(DisplayOptions(mouse=False),
                    SoloGame(rules, 2, "normal", seed=4, name="Ana", pace=0.0))
    async with app.run_test(size=SIZE) as pilot:
        await play_until(pilot, app, lambda: app.table is not None and app.table.record is not None)
        # Whichever keeps it first, the host or the client, finds the file damaged, and it is said.
        await wait_for(pilot, lambda: any("kept aside as" in str(n.message) for n in app._notifications),
                       what="the notice that the history was set aside", steps=1500)
        # The client kept it too, in the new history (none of the two failed for the other).
        assert app.table is not None and app.table.record_file is not None
        problem = app.table.history_problem
        assert problem is None or problem.code is HistoryProblem.SET_ASIDE, problem
        app.push_screen(HistoryScreen(now=NOW))
        await wait_for(pilot, lambda: isinstance(app.screen, HistoryScreen), what="the History screen")
        await pilot.pause()
        assert "Your history, all time" in screen_text(app)
        assert "1 match played" in screen_text(app)
    assert (folder / "history.damaged-1.sqlite3").exists()


async def test_a_name_given_on_the_command_line_is_for_that_game_only(folder: Path) -> None:
    """Issue 31: ``capicu host ... --name Ana`` saved Ana as the settings' name, silently."""
    from capicu.core import Rules
    from capicu.tui.game import HostGame, make_host_config
    from capicu.tui.prefs.settings import load_settings

    assert save_settings(Settings(name="root"), settings_path()) is None
    config = make_host_config(rules=Rules.preset_named("puerto-rican-drawing"), players=2, computers=1,
                              level="normal", bind="127.0.0.1", port=0, code=None, seed=3, journals=None)
    app = CapicuApp(DisplayOptions(mouse=False), HostGame(config=config, name="Ana"))
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: app.table is not None and app.table.seat is not None, what="a seat")
        assert app.table is not None and app.table.seats[app.table.seat].name == "Ana"
        app.exit()
    assert load_settings()[0].name == "root"


async def test_the_history_screen_shows_the_seats_that_were_mine_whatever_the_name(folder: Path) -> None:
    write_hand_made(folder)
    assert save_settings(Settings(name="Carla"), settings_path()) is None
    app = _app()
    async with app.run_test(size=SIZE) as pilot:
        await _open_history(pilot, app)
        text = screen_text(app)
    assert "Your history, all time" in text and "4 matches played, 2 won (50%)" in text

