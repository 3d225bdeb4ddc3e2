"""``capicu replay`` given a device or a pipe for a record: one line, exit 2, at once.

Real processes. A record is read from a regular file only, and at most the record limit
and one byte of it: ``/dev/zero`` used to take the process to gigabytes (a bare
``MemoryError``; a traceback in the screen form), ``/dev/urandom`` ran on, and a FIFO
named like a record hung. Every process runs with its address space capped (so a
regression fails instead of eating the machine's memory) and every wait is bounded.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from helpers_terminal import Terminal, capicu_env

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="devices, FIFOs and pseudo-terminals")

WAIT = 30.0
#: The address space a capicu process may take here: far more than it needs, far less than a runaway read.
MEMORY_CAP = 1536 * 1024 * 1024
#: ``python -c`` this, then capicu's arguments: capicu with its memory capped.
CAPPED = (
    "import resource, runpy, sys;"
    f"resource.setrlimit(resource.RLIMIT_AS, ({MEMORY_CAP}, {MEMORY_CAP}));"
    "sys.argv[0] = 'capicu';"
    "runpy.run_module('capicu.tui', run_name='__main__')"
)


def capicu(*arguments: str) -> list[str]:
    return [sys.executable, "-c", CAPPED, *arguments]


@pytest.fixture(params=["/dev/zero", "/dev/urandom", "fifo"])
def special_file(request: pytest.FixtureRequest, tmp_path: Path) -> Path:
    if request.param != "fifo":
        return Path(request.param)
    fifo = tmp_path / "x.capicu-record"
    os.mkfifo(fifo)
    return fifo


def test_replay_text_of_a_device_or_a_pipe_is_one_line_and_exit_2(special_file: Path, tmp_path: Path) -> None:
    done = subprocess.run(capicu("replay", str(special_file), "--text"), capture_output=True, text=True,
                          timeout=WAIT, env=capicu_env(tmp_path / "config"), stdin=subprocess.DEVNULL)
    assert done.returncode == 2, done
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr, done.stderr
    assert f"{special_file} is not a record" in done.stderr


def test_the_replay_screen_of_a_device_or_a_pipe_is_one_line_and_exit_2(special_file: Path,
                                                                          tmp_path: Path) -> None:
    terminal = Terminal(capicu("replay", str(special_file)), capicu_env(tmp_path / "config"), size=(300, 24))
    try:
        assert terminal.wait_exit(WAIT) == 2
        said = [line for line in terminal.text().splitlines() if line.strip()]
        assert len(said) == 1 and f"{special_file} is not a record" in said[0], terminal.text()
    finally:
        terminal.close()
