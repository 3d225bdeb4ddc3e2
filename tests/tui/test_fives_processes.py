"""Fives and Threes with real processes: a headless host and a ``capicu join`` playing a hand by keys.

``capicu host --headless --preset fives-and-threes`` runs as its own process with
one computer seat; ``capicu join`` runs in an 80x24 pseudo-terminal, read through a
terminal emulator, and plays the whole first hand by keys, answering its status
line (Enter lays the tile under the cursor, ← chooses the left end for a tile that
fits both, a refused tile moves the cursor on, p knocks). The screen shows the
ends' total, each play's points in the log, the pegging board, and at the hand's
end the go (or a blocked hand) and each side's points; Enter says ready and the
second hand is dealt.
"""

from __future__ import annotations

import contextlib
import re
import sys
import time
from pathlib import Path

import pytest
from helpers_terminal import HeadlessHost, Terminal, capicu_env

CODE = "CINCO5"
_TILE = re.compile(r"\[(\d)\|(\d)\]")

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals")

#: What the status line asks on my turn, and the keys that answer it.
_ANSWERS: list[tuple[str, bytes]] = [
    ("press p to knock", b"p"),
    ("fits both ends", b"\x1b[D"),
    ("Your lead", b"\r"),
    ("Your turn", b"\r"),
    # A refusal: the tile under the cursor does not go there; try the next one.
    ("fits neither end", b"\x1b[C\r"),
    ("does not fit", b"\x1b[C\r"),
]


def _status(text: str) -> str:
    """The status line: the row below the pegging board's last track (the row above my seat)."""
    rows = text.splitlines()
    for index, row in enumerate(rows[1:], start=1):
        if "(you)" in row:
            return rows[index - 1].strip()
    return ""


def _hand(text: str) -> list[str]:
    """My hand's tiles: on my seat's row ("▶ Ana (you) to play   [1|2] [3|4]")."""
    row = next((row for row in text.splitlines() if "(you)" in row), "")
    return [f"{a}-{b}" for a, b in _TILE.findall(row)]


def _hand_over(text: str) -> bool:
    return "Hand over" in _status(text)


@pytest.fixture
def host(tmp_path: Path) -> HeadlessHost:
    host = HeadlessHost("--preset", "fives-and-threes", "--players", "2", "--computers", "1", "--code", CODE,
                        "--level", "easy", "--seed", "7", "--grace", "600", "--no-journal",
                        env=capicu_env(tmp_path / "host"))
    yield host
    host.stop()


def test_a_joiner_plays_a_hand_of_fives_and_threes_by_keys(host: HeadlessHost, tmp_path: Path) -> None:
    with contextlib.ExitStack() as started:
        argv = [sys.executable, "-m", "capicu.tui", "join", f"127.0.0.1:{host.port}", "--name", "Ana",
                "--code", CODE, "--no-mouse"]
        ana = Terminal(argv, capicu_env(tmp_path / "ana"))
        started.callback(ana.kill)
        ana.wait_for(lambda s: "Fives and Threes" in s and len(_hand(s)) == 7, "the table with my hand")
        answered, plays = "", 0
        until = time.monotonic() + 60
        while not _hand_over(ana.text()):
            assert time.monotonic() < until, f"the hand did not end; the screen shows:\n{ana.text()}"
            ana._read(0.05)
            text = ana.text()
            status = _status(text)
            # The same words may ask again on my next turn ("the ends add up to 7"): my hand tells.
            asked = f"{status} {_hand(text)}"
            if asked == answered:
                continue
            for prompt, keys in _ANSWERS:
                if prompt in status:
                    ana.send(keys)
                    plays += prompt in ("Your lead", "Your turn")
                    answered = asked
                    break
            else:
                answered = ""
        text = ana.text()
        assert plays >= 1
        assert "hand 1" in text  # the title
        assert "This hand:" in text and "Score:" in text  # the hand's end, beside the line
        assert "for the go" in text or "blocked" in text or "reached" in text
        # The pegging board: a track a player, each with its score.
        tracks = [row for row in text.splitlines() if "┆" in row]
        assert len(tracks) == 2, text
        # Ready: the second hand is dealt.
        until = time.monotonic() + 10
        while "hand 2" not in ana.text():
            assert time.monotonic() < until, ana.text()
            ana.send(b"\r")
            with contextlib.suppress(AssertionError):
                ana.wait_for(lambda s: "hand 2" in s, "the second hand", timeout=0.5)
        ana.wait_for(lambda s: len(_hand(s)) >= 6, "my new hand")
