"""A command that draws a screen, with its output not a terminal: one line, exit 2, at once.

Real processes, their output a pipe (``capicu replay --ascii 2>&1 | head -2``,
``capicu 2>&1 | tail -5``): the interface used to spin at a whole core, ignoring Ctrl-C,
with nothing to draw on. Every wait is bounded.
"""

from __future__ import annotations

import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest
from helpers_terminal import capicu_env

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals")

WAIT = 30.0


@pytest.mark.parametrize("command", [[], ["replay", "--ascii"], ["play"]])
def test_a_screen_command_into_a_pipe_says_it_needs_a_terminal(command: list[str], tmp_path: Path) -> None:
    keyboard, terminal = pty.openpty()  # the keyboard is a terminal, as in a shell's pipeline
    try:
        done = subprocess.run([sys.executable, "-m", "capicu.tui", *command], stdin=terminal,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=WAIT,
                              env=capicu_env(tmp_path / "config"), start_new_session=True)
    finally:
        os.close(keyboard)
        os.close(terminal)
    said = done.stdout.decode()
    assert done.returncode == 2, said
    assert said.count("\n") == 1 and "needs a terminal" in said, said


def test_a_text_command_into_a_pipe_still_writes_its_text(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "capicu.tui", "rules"], stdin=subprocess.DEVNULL,
                          capture_output=True, timeout=WAIT, env=capicu_env(tmp_path / "config"))
    assert done.returncode == 0 and done.stdout.startswith(b"puerto-rican-drawing"), done
