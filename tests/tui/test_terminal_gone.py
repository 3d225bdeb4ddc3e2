"""A ``capicu join`` whose terminal went away ends, and its seat is held for it.

Real processes: a headless host on 127.0.0.1 and ``capicu join`` in an 80x24
pseudo-terminal. Closing the terminal's other side (a window closed, an SSH client
gone) used to leave the program spinning at a whole core, since Textual's reader
takes an empty read for "nothing yet". Now the program hangs up as a dropped
connection does (the host holds the seat: the same command sits there again) and
exits; SIGHUP, what the kernel says to a terminal's own programs, ends it cleanly too.
"""

from __future__ import annotations

import os
import pty
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from capicu.tui.terminal_gone import has_hung_up
from helpers_terminal import HeadlessHost, Terminal, capicu_env

CODE = "COLGAR"

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals")


def _join(port: int, config: Path) -> Terminal:
    argv = [sys.executable, "-m", "capicu.tui", "join", f"127.0.0.1:{port}", "--name", "Ana", "--code", CODE,
            "--no-mouse"]
    return Terminal(argv, capicu_env(config))


def _at_the_table(text: str) -> bool:
    return "(you)" in text


@pytest.fixture
def host(tmp_path: Path) -> HeadlessHost:
    host = HeadlessHost("--players", "2", "--computers", "1", "--code", CODE, "--grace", "600",
                        "--level", "easy", "--seed", "5", env=capicu_env(tmp_path / "host"))
    yield host
    host.stop()


def test_a_hung_up_terminal_is_told_apart_from_a_quiet_one() -> None:
    master, slave = pty.openpty()
    try:
        assert not has_hung_up(slave)  # open, nothing typed
        os.write(master, b"x")
        assert not has_hung_up(slave)  # something typed
        os.close(master)
        assert has_hung_up(slave)
    finally:
        os.close(slave)


def test_a_join_whose_terminal_closed_exits_and_its_seat_is_held(host: HeadlessHost, tmp_path: Path) -> None:
    ana = _join(host.port, tmp_path / "ana")
    try:
        ana.wait_for(_at_the_table, "the table")
        # The window closes: the pseudo-terminal's other side is gone (this is not the
        # program's controlling terminal, so no SIGHUP comes: the program must notice).
        ana.hang_up()
        try:
            returncode = ana.process.wait(10)
        except subprocess.TimeoutExpired:
            raise AssertionError("capicu join went on after its terminal closed") from None
        assert returncode == 0
    finally:
        ana.kill()
    again = _join(host.port, tmp_path / "ana")
    try:
        again.wait_for(lambda text: _at_the_table(text) and "back in your seat" in text, "my seat again")
    finally:
        again.kill()


def test_sighup_ends_a_join_cleanly(host: HeadlessHost, tmp_path: Path) -> None:
    ana = _join(host.port, tmp_path / "ana")
    try:
        ana.wait_for(_at_the_table, "the table")
        ana.process.send_signal(signal.SIGHUP)
        # Without a handler Python dies of the signal (a negative code) and says no goodbye.
        assert ana.wait_exit(10) == 0
    finally:
        ana.kill()
