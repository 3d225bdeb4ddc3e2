"""``capicu simulate`` and the command line's handling of bad input."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest
from capicu.core import Rules
from capicu.tui.cli.main import main
from capicu.tui.cli.simulate import run_simulation


@pytest.fixture(autouse=True)
def _own_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The command line reads the settings (their language): never the user's, another run may write them."""
    monkeypatch.setenv("CAPICU_CONFIG_DIR", str(tmp_path / "config"))


def test_simulate_prints_a_whole_match() -> None:
    out = io.StringIO()
    assert run_simulation(Rules(), 3, seed=3, level="greedy", out=out) == 0
    text = out.getvalue()
    assert text.startswith("puerto-rican-drawing: 3 players")
    assert "Round 1" in text and "seat 1:" in text  # the deal, hands shown
    assert "leads with" in text and " plays " in text and "ends " in text
    assert "pips" in text and "totals:" in text
    assert "wins the match" in text.splitlines()[-1]


@pytest.mark.parametrize("preset", ["drawing-game", "quinientos", "draw", "puerto-rican-partners"])
def test_simulate_every_preset(preset: str, capsys: pytest.CaptureFixture[str]) -> None:
    players = Rules.preset_named(preset).max_players
    assert main(["simulate", "--preset", preset, "--players", str(players), "--seed", "1"]) == 0
    assert "wins the match" in capsys.readouterr().out


def test_same_seed_same_log(capsys: pytest.CaptureFixture[str]) -> None:
    main(["simulate", "--seed", "9", "--target", "30"])
    first = capsys.readouterr().out
    main(["simulate", "--seed", "9", "--target", "30"])
    assert capsys.readouterr().out == first


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["simulate", "--players", "5"], "2 to 3 players, not 5"),
        (["simulate", "--preset", "quinientos", "--players", "2"], "exactly 4 players"),
        (["simulate", "--target", "0"], "--target: '0' must be from 1 to 10000"),
        # Every number a rule option takes has a declared most, said with the value (core/rules.py).
        (["simulate", "--target", "99999999999"], "--target: '99999999999' must be from 1 to 10000"),
        (["play", "--target", "99999999999"], "--target: '99999999999' must be from 1 to 10000"),
        (["host", "--headless", "--target", "99999999999"],
         "--target: '99999999999' must be from 1 to 10000"),
        (["rules", "--target", "10001"], "--target: '10001' must be from 1 to 10000"),
        (["simulate", "--reserve", "92"], "--reserve: '92' must be from 0 to 91"),
        (["simulate", "--capicu-bonus", "5000"], "--capicu-bonus: '5000' must be from 0 to 1000"),
        (["simulate", "--chuchazo-bonus", "5000"], "--chuchazo-bonus: '5000' must be from 0 to 1000"),
        (["simulate", "--max-draws", "500"], "--max-draws: '500' must be from 1 to 91"),
        (["rules", "--preset", "mexican-train", "--double-blank-points", "99999"],
         "--double-blank-points: '99999' must be from 0 to 1000"),
        (["simulate", "--target", "ten"], "'ten' is not a whole number"),
        (["simulate", "--preset", "dominican"], "invalid choice: 'dominican'"),
        (["simulate", "--level", "genius"], "'genius' (choose from 'easy', 'normal', 'hard')"),
        (["simulate", "--level", "greedy"], "invalid choice: 'greedy'"),
        (["simulate", "--reserve", "-1"], "--reserve: '-1' must be from 0 to 91"),
    ],
)
def test_bad_options_give_one_line_and_exit_code_2(
    argv: list[str], words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as info:
        code = main(argv)
        raise SystemExit(code)
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert words in err
    assert len(err.strip().splitlines()) == 1
    assert "Traceback" not in err


def test_the_installed_command_and_module_run() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "capicu.tui", "simulate", "--seed", "2", "--target", "20"],
        capture_output=True, text=True, timeout=60, check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "wins the match" in done.stdout


def test_no_generic_top_level_packages(tmp_path: object) -> None:
    # Run outside the checkout, so only what the install put on the path is seen.
    probe = (
        "import importlib.util, capicu.core, capicu.net, capicu.tui;"
        "print([n for n in ('core', 'net', 'tui', 'themes') if importlib.util.find_spec(n)])"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=60,
        check=False, cwd=str(tmp_path),
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


@pytest.mark.parametrize(("preset", "players"), [("puerto-rican-drawing", 2), ("quinientos", 4),
                                                 ("mexican-train", 3)])
def test_simulate_record_writes_the_match_it_prints(
    preset: str, players: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from capicu.core.replay import replay
    from capicu.net.store.record import read_record

    options = ["simulate", "--preset", preset, "--players", str(players), "--seed", "2"]
    if preset == "mexican-train":
        options += ["--rounds", "1"]
    assert main(options) == 0
    printed = capsys.readouterr().out
    path = tmp_path / "match.capicu-record"
    assert main([*options, "--record", str(path)]) == 0
    assert capsys.readouterr().out == printed  # recording changes nothing printed
    record = read_record(path)
    assert record.preset == preset and record.names == tuple(f"Computer {n + 1}" for n in range(players))
    assert all(seat.kind == "computer" and seat.level == "normal" for seat in record.seats)
    final = replay(record.match_log()).positions[-1].board
    assert final.match_over
    if preset == "mexican-train":
        assert tuple(final.totals) == record.totals
    else:
        assert tuple(final.scores) == record.totals
    assert "wins the match" in printed.splitlines()[-1] or "share the win" in printed.splitlines()[-1]


def test_simulate_record_that_cannot_be_written_is_one_line_and_exit_code_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["simulate", "--record", str(tmp_path / "missing" / "m.capicu-record")]) == 2
    error = capsys.readouterr().err
    assert error.startswith("capicu: --record ") and error.count("\n") == 1
