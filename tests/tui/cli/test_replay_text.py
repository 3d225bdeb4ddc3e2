"""``capicu replay FILE --text`` (issue 24, part 2): the match round by round as plain text, in the
chosen language; a damaged or missing FILE: the record's sentence and exit code 2."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest
from capicu.core.replay import replay
from capicu.net.store.record import read_record
from capicu.tui.cli.main import main
from helpers_replay import keep


@pytest.fixture(autouse=True)
def _own_folders(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CAPICU_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("CAPICU_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()


def _text(path: Path, capsys: pytest.CaptureFixture[str], *options: str) -> list[str]:
    assert main([*options, "replay", str(path), "--text"]) == 0
    return capsys.readouterr().out.splitlines()


def test_a_draw_family_match_move_by_move(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = keep(tmp_path, "puerto-rican-drawing", 2)
    record = read_record(path)
    lines = _text(path, capsys)
    assert lines[0] == "puerto-rican-drawing, played 2026-09-21 14:13: Ana, Beto (computer)"
    rounds = replay(record.match_log()).round_starts()
    assert sum(line.startswith("Round ") and " starts." in line for line in lines) == len(rounds)
    # The first deal: every hand as dealt, then el pozo.
    first = lines.index(next(line for line in lines if line.startswith("Round 1 starts.")))
    dealt = replay(record.match_log()).positions[0]
    for seat, name in enumerate(record.names):
        hand = " ".join(str(tile) for tile in dealt.views[seat].hand)
        assert lines[first + 1 + seat] == f"  {name}: {hand}"
    assert lines[first + 3] == "  el pozo: 14 tiles"
    assert "  Beto leads with 6-6." in lines  # the table's own words
    assert any(line.startswith("  Ana plays ") for line in lines)
    assert any(" drew " in line for line in lines)
    # Each round's result with the totals; the last ones are the record's.
    for seat, name in enumerate(record.names):
        assert f"  {name}: {record.total_of(seat)} in total." in lines
    winner = record.winner_names[0]
    assert lines[-1] == f"{winner} wins the match with {max(record.totals)} points."
    assert all(line.isprintable() for line in lines)


def test_a_mexican_train_match(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = keep(tmp_path, "mexican-train", 3, seed=2)
    record = read_record(path)
    lines = _text(path, capsys)
    assert sum(line.startswith("Round ") and " of 13: the engine is " in line for line in lines) == 13
    assert "  the boneyard: " in "\n".join(lines)
    assert any(" on their own train." in line for line in lines)
    for seat, name in enumerate(record.names):
        assert any(line.startswith(f"  {name}: +") and line.endswith(f"total {record.total_of(seat)}")
                   for line in lines)
    best = min(record.totals)
    assert lines[-1].endswith(f"with the lowest total: {best} points counted against them.")


@pytest.mark.parametrize("players", [2, 4])
def test_a_fives_and_threes_match_play_by_play(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                               players: int) -> None:
    # It printed blank lines once: the Draw family's words had no words for Fives' events.
    path = keep(tmp_path, "fives-and-threes", players)
    record = read_record(path)
    lines = _text(path, capsys)
    rounds = replay(record.match_log()).round_starts()
    assert sum(line.startswith("Hand ") for line in lines) == len(rounds)  # Fives' word for a round
    first = lines.index("Hand 1")
    dealt = replay(record.match_log()).positions[0]
    for seat, name in enumerate(record.names):
        hand = " ".join(str(tile) for tile in dealt.views[seat].hand)
        assert lines[first + 1 + seat] == f"  {name}: {hand}"
    assert any(line.startswith(f"  {record.names[0]} plays ") for line in lines)
    assert all(line.strip() for line in lines[1:] if line != "")  # no blank-but-spaces line
    assert lines.count("") == len(rounds) + 1  # before each round and before the end
    winner = record.winner_names[0] if players == 2 else "team "
    assert lines[-1].startswith(f"{winner}") and f" wins the match, {max(record.totals)} to " in lines[-1]
    assert lines[-1].endswith(f" after {len(rounds)} hands") and "passes" not in "\n".join(lines)
    assert all(line.isprintable() for line in lines)


def test_in_spanish(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = keep(tmp_path, "puerto-rican-drawing", 2)
    lines = _text(path, capsys, "--lang", "es")
    text = "\n".join(lines)
    assert "Empieza la mano 1." in text
    assert "  el pozo: 14 fichas" in lines
    for english in ("played", "(computer)", " starts.", " plays ", " in total."):
        assert english not in text  # nothing left in English


@pytest.mark.parametrize("content", [b"", b"garbage", b"\x81\xa6format\xadcapicu-record"])
def test_a_damaged_file_says_why_and_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                             content: bytes) -> None:
    path = tmp_path / "broken.capicu-record"
    path.write_bytes(content)
    assert main(["replay", str(path), "--text"]) == 2
    assert main(["replay", str(path)]) == 2  # the screen is not even opened
    error = capsys.readouterr().err.splitlines()
    assert len(error) == 2 and error[0] == error[1]
    assert error[0].startswith(f"capicu: {path}: ")


def test_a_missing_file_and_text_without_a_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(tmp_path / "nowhere.capicu-record")]) == 2
    assert "cannot read the record" in capsys.readouterr().err
    assert main(["replay", "--text"]) == 2
    assert "--text needs" in capsys.readouterr().err


#: ``capicu replay FILE --text`` in a process of its own: which modules it loaded, and how many
#: times the record's log was replayed (each replay is one call of core's ``match_from_log``).
_COUNTED = """
import contextlib, io, sys
from capicu.tui.cli.main import main
calls = []
def count(frame, event, arg):
    if event == "call" and frame.f_code.co_name == "match_from_log":
        calls.append(frame.f_code.co_filename)
sys.setprofile(count)
with contextlib.redirect_stdout(io.StringIO()) as out:
    code = main(["replay", sys.argv[1], "--text"])
sys.setprofile(None)
assert code == 0 and ("Round 1" in out.getvalue() or "Hand 1" in out.getvalue()), (code, out.getvalue()[:200])
print(len(calls), any(name.split(".")[0] == "textual" for name in sys.modules))
"""


@pytest.mark.parametrize("preset", ["puerto-rican-drawing", "mexican-train", "fives-and-threes"])
def test_the_text_replays_the_log_once_and_loads_no_screen(tmp_path: Path, preset: str) -> None:
    path = keep(tmp_path, preset, 4 if preset == "mexican-train" else 2)
    done = subprocess.run([sys.executable, "-c", _COUNTED, str(path)], capture_output=True, text=True,
                          timeout=60, check=True)
    assert done.stdout.split() == ["1", "False"], done.stdout
