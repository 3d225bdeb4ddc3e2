"""``capicu history --club`` and ``capicu club --standings FILE``: the nights kept, in words and on paper."""

from __future__ import annotations

import argparse
import csv
from pathlib import Path

import pytest
from capicu.core import Rules
from capicu.core.club import ByeRule, ClubConfig, ClubNight
from capicu.net.store.club import keep_night
from capicu.tui.cli.club_history import add_standings_arguments, export_standings
from capicu.tui.cli.main import main
from capicu.tui.cli.options import CliError
from capicu.tui.prefs.settings import records_dir

STARTED = "2026-12-04T19:00:00Z"


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        code = main(list(argv))
    except SystemExit as exit:
        code = int(exit.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def keep_a_night(names: tuple[str, ...] = ("Ana", "Bea", "Cruz", "Dani", "Eva"), *, night_id: str = "n1",
                 name: str = "Friday", started: str = STARTED, over: bool = True) -> ClubNight:
    night = ClubNight.open(ClubConfig(rules=Rules(), rounds=2, bye=ByeRule.WIN, name=name))
    for person in names:
        night = night.join(person)
    for round in (1, 2):
        night = night.start_round(seed=round)
        for table in night.draws[-1].tables:
            night = night.finish_table(round, table.number, (100, 40), (0,))
    keep_night(records_dir(), night, night_id=night_id, started=started,
               ended="2026-12-04T23:00:00Z" if over else None)
    return night


def test_no_night_kept_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "history", "--club")
    assert code == 0 and "No club night is kept yet" in out


def test_history_club_lists_nights_standings_and_each_player_s_matches(
        capsys: pytest.CaptureFixture[str]) -> None:
    night = keep_a_night()
    keep_a_night(("Zoe", "Ana"), night_id="n2", name="", started="2026-12-11T19:00:00Z", over=False)
    code, out, _ = _run(capsys, "history", "--club")
    assert code == 0, out
    assert "1. Friday: Puerto Rican Drawing Game, Swiss, 2026-12-04" in out
    assert "2. Club night 2: Puerto Rican Drawing Game, Swiss, 2026-12-11" in out
    assert "Rounds played: 2 of 2; not over." in out
    winner = night.entrants[night.standings()[0].entrant].name
    assert f"Rounds played: 2; won by {winner}." in out
    assert "#  Name  Played  Won   +/-  Bh  Bye  Cpu" in out
    assert out.count("Round 1, table 1: won 100-40 against") == 2
    assert "Round 1: sat out, counted as a match won." in out
    code, out, _ = _run(capsys, "history", "--club", "--player", "zoe")
    assert code == 0 and "Club night 2" in out and "Friday" not in out
    assert "\nZoe\n" in out and "\nAna\n" not in out
    code, out, _ = _run(capsys, "history", "--club", "--night", "1", "--lang", "es")
    assert code == 0 and "1. Friday: Robado boricua, suizo, 2026-12-04" in out, out
    assert "Rondas jugadas: 2; ganó " in out


@pytest.mark.parametrize(("argv", "problem"), [
    (["history", "--club", "--host"], "--club goes with neither --host nor --csv"),
    (["history", "--club", "--year", "2026"], "choose one with --night N"),
    (["history", "--night", "1"], "--night goes with --club"),
    (["history", "--club", "--night", "7"], "there is no club night 7"),
    (["history", "--club", "--night", "0"], "'0' must be 1 or more"),
])
def test_bad_requests_are_one_line_and_exit_2(capsys: pytest.CaptureFixture[str], argv: list[str],
                                               problem: str) -> None:
    keep_a_night()
    code, out, err = _run(capsys, *argv)
    assert code == 2 and problem in err and out == "", (out, err)


def test_standings_are_written_for_the_wall(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    keep_a_night(("=1+1", "<b>Bea</b>", "Cruz"))
    parser = argparse.ArgumentParser()
    add_standings_arguments(parser)
    args = parser.parse_args(["--standings", str(tmp_path / "wall.html")])
    assert export_standings(args.standings, args.night) == 0
    out = capsys.readouterr().out
    assert "standings written to" in out and "wall.csv" in out
    rows = list(csv.reader((tmp_path / "wall.csv").open(encoding="utf-8", newline="")))
    assert "'=1+1" in [row[2] for row in rows]
    page = (tmp_path / "wall.html").read_text(encoding="utf-8")
    assert "&lt;b&gt;Bea&lt;/b&gt;" in page and "<b>Bea" not in page
    assert "Friday: final standings" in page


def test_standings_of_a_night_not_kept_are_refused(tmp_path: Path) -> None:
    with pytest.raises(CliError, match="No club night is kept yet"):
        export_standings(str(tmp_path / "wall"))
    keep_a_night()
    with pytest.raises(CliError, match="there is no club night 3"):
        export_standings(str(tmp_path / "wall"), 3)
    with pytest.raises(CliError, match="cannot write"):
        export_standings(str(tmp_path / "missing-folder" / "wall"))
    assert not (tmp_path / "wall.csv").exists()


def test_capicu_club_standings_writes_the_files_and_starts_nothing(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    keep_a_night()
    keep_a_night(("Zoe", "Ana"), night_id="n2", name="Second", started="2026-12-11T19:00:00Z")
    code, out, err = _run(capsys, "club", "--standings", str(tmp_path / "wall"), "--night", "1",
                          "--lang", "es")
    assert code == 0, err
    assert "clasificación escrita en" in out
    page = (tmp_path / "wall.html").read_text(encoding="utf-8")
    assert "Friday: clasificación final" in page and '<html lang="es">' in page
    code, out, err = _run(capsys, "club", "--standings", str(tmp_path / "last"))
    assert code == 0 and "Second: final standings" in (tmp_path / "last.html").read_text(encoding="utf-8")


@pytest.mark.parametrize(("argv", "problem"), [
    (["club", "--night", "1"], "--night goes with --standings"),
    (["club", "--standings", "x", "--join", "127.0.0.1"], "it cannot go with --join"),
    (["club", "--standings", "x", "--night", "9"], "there is no club night 9"),
])
def test_capicu_club_standings_refuses_in_one_line(capsys: pytest.CaptureFixture[str], argv: list[str],
                                                   problem: str) -> None:
    keep_a_night()
    code, out, err = _run(capsys, *argv)
    assert code == 2 and problem in err and out == "", (out, err)


def test_a_night_run_by_capicu_club_is_kept_where_history_club_reads_it() -> None:
    """The club host keeps its matches' records and the night itself in the records folder, as
    ``capicu host`` keeps its matches: not in the night's own folder (set aside, renamed, when the
    next night starts), where ``capicu history --club`` would never see it."""
    from capicu.tui.club import club_host_config
    from capicu.tui.game import HostClub

    config = club_host_config(HostClub(club=ClubConfig(rules=Rules()), bind="127.0.0.1", port=0))
    assert config.records == records_dir()
