"""``capicu simulate`` and ``capicu rules`` with ``--preset fives-and-threes``, in English and Spanish."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from capicu.net.store.record import read_record
from capicu.tui.cli.main import main


@pytest.fixture(autouse=True)
def _own_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The command line reads the settings (their language): never the user's."""
    monkeypatch.setenv("CAPICU_CONFIG_DIR", str(tmp_path / "config"))


def test_simulate_tells_each_play_its_total_and_points(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--preset", "fives-and-threes", "--players", "4", "--seed", "3"]) == 0
    text = capsys.readouterr().out
    lines = text.splitlines()
    assert lines[0] == "fives-and-threes: 4 players, double-6, to 61 points, seed 3"
    assert "  8 tiles set aside" in lines
    plays = [line for line in lines if " plays " in line]
    assert plays and all(re.search(r"(\d+ for \d+|total \d+)$", line) for line in plays)
    assert any(" for " in line for line in plays)
    assert "team 1 (seats 1 and 3)" in text and "points this hand:" in text
    assert "wins the match" in lines[-1]


def test_simulate_speaks_spanish(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--lang", "es", "simulate", "--preset", "fives-and-threes", "--seed", "1"]) == 0
    text = capsys.readouterr().out
    assert text.startswith("cincos y treses: 2 jugadores, doble 6, a 61 puntos")
    assert "14 fichas apartadas" in text and " da " in text and "puntos de esta mano:" in text


def test_simulate_with_every_option_and_a_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "fives.capicu"
    argv = ["simulate", "--preset", "fives-and-threes", "--players", "4", "--each-for-themselves",
            "--league-deal", "--drawing", "--exact-finish", "--target", "31", "--seed", "2",
            "--level", "easy", "--record", str(path)]
    assert main(argv) == 0
    text = capsys.readouterr().out
    assert "el pozo: 4 tiles" in text and "seat 4 (" not in text
    record = read_record(path)
    assert record.preset == "fives-and-threes" and max(record.totals) == 31  # the exact finish


def test_rules_in_english_and_spanish(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "--preset", "fives-and-threes", "--players", "4"]) == 0
    english = capsys.readouterr().out
    assert "4 players, in two partnerships sitting across; 5 tiles each." in english
    assert "(15 scores 8)" in english and "The first to 61 wins at once" in english
    assert main(["--lang", "es", "rules", "--preset", "fives-and-threes", "--players", "2", "--league-deal",
                 "--exact-finish"]) == 0
    spanish = capsys.readouterr().out
    assert spanish.startswith("cincos y treses, 2 jugadores:")
    assert "9 fichas cada uno" in spanish and "(15 da 8)" in spanish and "Cierre exacto" in spanish


def test_an_option_of_another_game_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "--preset", "fives-and-threes", "--wild-blanks"]) == 2
    assert "--wild-blanks is not an option of fives-and-threes" in capsys.readouterr().err
    assert main(["rules", "--preset", "draw", "--exact-finish"]) == 2
    assert "--exact-finish is not an option of draw" in capsys.readouterr().err


def test_play_and_host_find_the_fives_table(monkeypatch: pytest.MonkeyPatch) -> None:
    """`capicu play/host` of Fives and Threes play at its table (tui/games.py FACES); a game without one
    would still be refused in one line."""
    from capicu.core import Rules
    from capicu.tui.cli.main import CliError
    from capicu.tui.cli.options import check_table
    from capicu.tui.games import FACES, face_of
    from capicu.tui.screens.fives_table import FivesTableScreen

    rules = Rules.preset_named("fives-and-threes")
    check_table(rules)  # no refusal
    assert face_of(rules).table is FivesTableScreen
    monkeypatch.delitem(FACES, "fives-and-threes")
    with pytest.raises(CliError, match="fives-and-threes has no table screen yet"):
        check_table(rules)


@pytest.mark.parametrize(("command", "argv", "said"), [
    ("rules", ["--target", "0"], "--target: '0' must be from 1 to 10000"),
    ("play", ["--target", "99999999999"], "--target: '99999999999' must be from 1 to 10000"),
    ("simulate", ["--target", "abc"], "--target: 'abc' is not a whole number"),
    ("rules", ["--league-deal=yes"], "--league-deal"),
    ("rules", ["--players", "5"], "fives-and-threes is played by 2 to 4 players, not 5"),
    ("rules", ["--set", "9"], "fives-and-threes is played with one of these sets: double-6"),
    # Asked for by name where it cannot be: said, not played quietly each for themselves.
    ("rules", ["--partnerships", "--players", "3"], "--partnerships needs 4 players, not 3"),
    ("simulate", ["--partnerships"], "--partnerships needs 4 players, not 2"),
    ("play", ["--partnerships", "--players", "2"], "--partnerships needs 4 players, not 2"),
    ("host", ["--headless", "--partnerships", "--players", "3"], "--partnerships needs 4 players, not 3"),
])
def test_a_bad_value_of_a_fives_option_is_one_line_and_exit_2(
        capsys: pytest.CaptureFixture[str], command: str, argv: list[str], said: str) -> None:
    try:
        code = main([command, "--preset", "fives-and-threes", *argv])
    except SystemExit as exc:  # argparse's own refusals exit
        code = int(exc.code or 0)
    err = capsys.readouterr().err
    assert code == 2
    assert len(err.strip().splitlines()) == 1 and said in err, err


def test_partnerships_with_four_and_each_for_themselves_with_three_are_played() -> None:
    assert main(["rules", "--preset", "fives-and-threes", "--partnerships", "--players", "4"]) == 0
    assert main(["rules", "--preset", "fives-and-threes", "--each-for-themselves", "--players", "3"]) == 0
