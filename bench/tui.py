"""How fast the table comes up and how many bytes the terminal receives, at 80x24 in 256 colours.

Runs ``capicu play`` for real in a pseudo-terminal (as a player in an SSH
session would: no mouse, 256 colours) and, in the same run, a bare Textual
app, and prints one JSON line:

- ``start_s``: from starting ``capicu play`` until the table is on screen;
- ``bare_start_s``: from starting a bare Textual app until its one line shows;
- ``start_ratio``: their ratio (goal <= 1.6, ``start_ratio_goal``, the median of 7 runs alternated
  with the version before: a game loads what its first frame needs, and what a match's end or
  hosting needs when asked for; plain code, no start-up tricks);
- ``cursor_move_bytes``: what Textual writes for one cursor move in the hand (goal <= 2.5 KB);
- ``opponent_move_bytes``: what it writes for one opponent's move (goal <= 4 KB);
- ``mexican_start_s``, ``mexican_cursor_move_bytes``, ``mexican_opponent_move_bytes``: the
  same three for Mexican Train with 8 players (``--preset mexican-train --players 8``: nine
  lanes), and ``mexican_*_ratio``: each over the Draw family's figure (goal <= 1.5).

Each figure is the median of ``--runs`` runs, after one warm-up run of each
(bytecode is compiled once, as for an installed package). A burst of output is everything
written until the terminal has been quiet for ``QUIET`` seconds.

With ``--against PYTHON`` (another checkout's environment, e.g. the version before), each run
also starts that version's ``capicu play`` just before or just after this one's (in turn), and
prints ``against_start_s`` and ``against_start_ratio``: the two versions side by side on the
same minutes of a shared machine.

    python bench/tui.py [--runs 3] [--against ../before/.venv/bin/python]
"""

from __future__ import annotations

import argparse
import fcntl
import json
import os
import pty
import re
import select
import shutil
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import time
from collections.abc import Callable
from pathlib import Path

COLUMNS, ROWS = 80, 24
#: The most ``start_ratio`` may be (issue 31).
START_RATIO_GOAL = 1.6
QUIET = 0.25
RIGHT = b"\x1b[C"
LEFT = b"\x1b[D"
ENTER = b"\r"

BARE_APP = """
from textual.app import App
from textual.widgets import Static

class Bare(App):
    def compose(self):
        yield Static("bare-app-ready")

Bare().run(mouse=False)
"""


class Terminal:
    """A program running in a pseudo-terminal of 80x24; we read what it writes."""

    def __init__(self, argv: list[str], env: dict[str, str]) -> None:
        self.master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLUMNS, 0, 0))
        self.started = time.perf_counter()
        self.process = subprocess.Popen(
            argv, stdin=slave, stdout=slave, stderr=slave, env=env, close_fds=True, start_new_session=True
        )
        os.close(slave)
        self.seen = b""

    def read(self, timeout: float) -> bytes:
        ready, _, _ = select.select([self.master], [], [], timeout)
        if not ready:
            return b""
        try:
            data = os.read(self.master, 65536)
        except OSError:
            return b""
        self.seen += data
        return data

    def wait_for(self, marker: bytes, timeout: float = 30.0) -> float:
        """Seconds since start when ``marker`` (a regular expression) first appeared in the output."""
        deadline = time.perf_counter() + timeout
        pattern = re.compile(marker)
        while not pattern.search(self.seen):
            if time.perf_counter() > deadline:
                raise TimeoutError(f"{marker!r} never appeared")
            self.read(0.05)
        return time.perf_counter() - self.started

    def burst(self, first_wait: float = 5.0) -> bytes:
        """The next burst of output: wait for it to start, then read until quiet."""
        out = self.read(first_wait)
        if not out:
            return b""
        while True:
            more = self.read(QUIET)
            if not more:
                return out
            out += more

    def drain(self) -> None:
        while self.read(QUIET):
            pass

    def send(self, data: bytes) -> None:
        os.write(self.master, data)

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(3)
            except subprocess.TimeoutExpired:
                self.process.kill()
        os.close(self.master)


def environment(config: str, pycache: str) -> dict[str, str]:
    env = dict(os.environ)
    # Compiled bytecode as an installed package has it (a development shell may turn
    # it off), kept in a folder of our own; a warm-up run fills it.
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = pycache
    env.update(TERM="xterm-256color", COLORTERM="", TEXTUAL_COLOR_SYSTEM="256",
               SSH_CONNECTION="10.0.0.2 50000 10.0.0.1 22", CAPICU_CONFIG_DIR=config,
               COLUMNS=str(COLUMNS), LINES=str(ROWS))
    return env


def bare_start(env: dict[str, str], script: Path) -> float:
    term = Terminal([sys.executable, str(script)], env)
    try:
        return term.wait_for(b"bare-app-ready")
    finally:
        term.close()


#: A tile of the hand as drawn: "[3|5]", or "[ 0|12]" in a double-twelve set.
TILE = rb"\[ ?\d{1,2}\| ?\d{1,2}\]"


def capicu_start(env: dict[str, str], seed: int, python: str) -> float:
    """Seconds until ``python``'s ``capicu play`` shows its table (the start alone, as `capicu_run`'s)."""
    data = tempfile.mkdtemp(prefix="capicu-bench-data-")
    argv = [python, "-m", "capicu.tui", "play", "--players", "2", "--seed", str(seed),
            "--name", "Bench", "--colors", "256", "--no-mouse"]
    term = Terminal(argv, {**env, "CAPICU_DATA_DIR": data})
    try:
        return term.wait_for(TILE)
    finally:
        term.close()
        shutil.rmtree(data, ignore_errors=True)


def capicu_run(env: dict[str, str], seed: int) -> tuple[float, int, int]:
    """(start seconds, cursor move bytes, opponent move bytes) for one ``capicu play``.

    Each run has a data folder of its own: the run before was stopped mid-match, and a
    first start finds no unfinished match to offer (its journal is written, as a player's is).
    """
    argv = [sys.executable, "-m", "capicu.tui", "play", "--players", "2", "--seed", str(seed),
            "--name", "Bench", "--colors", "256", "--no-mouse"]
    return _measure(argv, env, _play_draw_tile)


def mexican_run(env: dict[str, str], seed: int) -> tuple[float, int, int]:
    """The same three figures for Mexican Train with 8 players (nine lanes on screen).

    The computers open first; on the player's turn Enter lays the tile under the cursor
    as the opening run's first and Enter again ends the run, then the next seat plays.
    """
    # A deal may give the player nothing to open with (the first turn is then a draw): the next seed.
    for tried in range(5):
        argv = [sys.executable, "-m", "capicu.tui", "play", "--preset", "mexican-train", "--players", "8",
                "--seed", str(seed + 100 * tried), "--name", "Bench", "--colors", "256", "--no-mouse"]
        try:
            return _measure(argv, env, _play_train_tile)
        except TimeoutError:
            continue
    raise RuntimeError(f"no deal from seed {seed} on let the player open")


def _play_draw_tile(term: Terminal) -> None:
    mark = len(term.seen)
    term.send(ENTER)
    term.burst()
    if b"fits both ends" in term.seen[mark:]:
        term.send(LEFT)
        term.burst()
    if not re.search(rb"You (play|lead)", term.seen[mark:]):
        raise RuntimeError("the tile under the cursor was not played")


def _play_train_tile(term: Terminal) -> None:
    mark = len(term.seen)
    term.send(ENTER)
    term.burst()
    if b"Run of 1" in term.seen[mark:]:
        term.send(ENTER)  # the opening run: one tile, ended
    elif b"Lay it here" in term.seen[mark:]:
        term.send(ENTER)  # the tile fits several lanes: the first offered
    else:
        raise RuntimeError("the tile under the cursor was not played")
    term.burst()


def _measure(argv: list[str], env: dict[str, str],
             play: Callable[[Terminal], None]) -> tuple[float, int, int]:
    """Start ``argv`` in a pseudo-terminal of its own (and a data folder of its own), measure, stop it."""
    data = tempfile.mkdtemp(prefix="capicu-bench-data-")
    term = Terminal(argv, {**env, "CAPICU_DATA_DIR": data})
    try:
        # The table is drawn when the first tile of the hand is: "[3|5]".
        start = term.wait_for(TILE)
        # My turn: "Enter plays it" (or, opening a Mexican train, "Enter lays a tile").
        term.wait_for(b"Enter (plays it|lays a tile)", timeout=60.0)
        term.drain()
        # The cursor starts the turn on a tile that fits. Move it one step (right, or
        # left at the hand's end), measure, and move it back.
        term.send(RIGHT)
        burst = term.burst(first_wait=1.0)
        back = LEFT
        if not burst:
            term.send(LEFT)
            burst = term.burst(first_wait=1.0)
            back = RIGHT
        cursor = len(burst)
        term.send(back)
        term.drain()
        play(term)
        opponent = term.burst(first_wait=10.0)
        return start, cursor, len(opponent)
    finally:
        term.close()
        shutil.rmtree(data, ignore_errors=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seed", type=int, default=4)
    parser.add_argument("--against", metavar="PYTHON", default=None,
                        help="another version's interpreter (its environment has that checkout installed)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        env = environment(str(Path(folder) / "config"), str(Path(folder) / "pycache"))
        script = Path(folder) / "bare.py"
        script.write_text(BARE_APP)
        bare_start(env, script)  # warm-up: bytecode and the disk cache, for both
        capicu_run(env, args.seed)
        mexican_run(env, args.seed)
        if args.against:
            capicu_start(env, args.seed, args.against)
        starts, bares, cursors, opponents, against = [], [], [], [], []
        mexican: list[tuple[float, int, int]] = []
        for run in range(args.runs):
            bares.append(bare_start(env, script))
            if args.against and run % 2 == 0:
                against.append(capicu_start(env, args.seed + run, args.against))
            start, cursor, opponent = capicu_run(env, args.seed + run)
            if args.against and run % 2 == 1:
                against.append(capicu_start(env, args.seed + run, args.against))
            starts.append(start)
            cursors.append(cursor)
            opponents.append(opponent)
            mexican.append(mexican_run(env, args.seed + run))
    start_s = statistics.median(starts)
    bare_s = statistics.median(bares)
    cursor_bytes = int(statistics.median(cursors))
    opponent_bytes = int(statistics.median(opponents))
    mexican_start = statistics.median(m[0] for m in mexican)
    mexican_cursor = int(statistics.median(m[1] for m in mexican))
    mexican_opponent = int(statistics.median(m[2] for m in mexican))
    versus: dict[str, float] = {}
    if against:
        against_s = statistics.median(against)
        versus = {"against_start_s": round(against_s, 3), "against_start_ratio": round(against_s / bare_s, 2)}
    print(json.dumps({
        "start_s": round(start_s, 3),
        "bare_start_s": round(bare_s, 3),
        "start_ratio": round(start_s / bare_s, 2),
        "start_ratio_goal": START_RATIO_GOAL,
        **versus,
        "cursor_move_bytes": cursor_bytes,
        "opponent_move_bytes": opponent_bytes,
        "mexican_start_s": round(mexican_start, 3),
        "mexican_cursor_move_bytes": mexican_cursor,
        "mexican_opponent_move_bytes": mexican_opponent,
        "mexican_start_ratio": round(mexican_start / start_s, 2),
        "mexican_cursor_move_ratio": round(mexican_cursor / max(cursor_bytes, 1), 2),
        "mexican_opponent_move_ratio": round(mexican_opponent / max(opponent_bytes, 1), 2),
        "mexican_players": 8,
        "columns": COLUMNS,
        "rows": ROWS,
        "colors": 256,
        "runs": args.runs,
    }))
    return 0


if __name__ == "__main__":
    sys.exit(main())
