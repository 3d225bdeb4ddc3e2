"""Real processes in real pseudo-terminals, read through a terminal emulator (pyte).

For the tests that a crash must survive: a headless host as its own process, and
``capicu join`` in an 80x24 pseudo-terminal, killed with SIGKILL and started again.
Every wait is bounded; nothing sleeps to synchronise (a read waits for output).
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import pty
import select
import signal
import struct
import subprocess
import sys
import termios
import time
from collections.abc import Callable
from pathlib import Path

import pyte
from helpers_process import ProcessLines

#: The longest any single wait in these tests may take.
WAIT = 30.0


def capicu_env(config: Path, **extra: str) -> dict[str, str]:
    """The environment of a capicu process with its own config and data folder."""
    env = dict(os.environ)
    env.update(TERM="xterm-256color", COLORTERM="", CAPICU_CONFIG_DIR=str(config), COLUMNS="80", LINES="24")
    env.pop("CAPICU_DATA_DIR", None)
    env.update(extra)
    return env


class HeadlessHost:
    """``capicu host --headless`` as a process; it prints its port, then serves until stopped.

    With ``--ssh`` among the options, ``ssh_port`` is the port its SSH gateway says it listens on.
    """

    def __init__(self, *options: str, env: dict[str, str]) -> None:
        argv = [sys.executable, "-m", "capicu.tui", "host", "--headless", "--bind", "127.0.0.1",
                "--port", "0", *options]
        self.process = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env,
                                        start_new_session=True)
        self.output = ProcessLines(self.process.stdout, WAIT)
        self.port = int(self.output.matching(r"listening on \S+ port (\d+)").group(1))
        self.ssh_port: int | None = None
        if "--ssh" in options:
            self.ssh_port = int(self.output.matching(r"SSH on port (\d+)").group(1))

    def kill(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(WAIT)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(5)
            except subprocess.TimeoutExpired:
                self.kill()


class Terminal:
    """A program in an 80x24 pseudo-terminal; `text` is what a person would see on it."""

    def __init__(self, argv: list[str], env: dict[str, str], size: tuple[int, int] = (80, 24)) -> None:
        columns, rows = size
        self.master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
        self.process = subprocess.Popen(argv, stdin=slave, stdout=slave, stderr=slave, env=env,
                                        close_fds=True, start_new_session=True)
        os.close(slave)
        self.screen = pyte.Screen(columns, rows)
        self.stream = pyte.ByteStream(self.screen)
        self.seen = b""
        self.closed = False  # the terminal's other side (ours) is closed

    def _read(self, timeout: float) -> bool:
        ready, _, _ = select.select([self.master], [], [], timeout)
        if not ready:
            return False
        try:
            data = os.read(self.master, 65536)
        except OSError:  # the program ended and the terminal closed
            return False
        if not data:
            return False
        self.seen += data
        self.stream.feed(data)
        return True

    def read_for(self, seconds: float) -> None:
        """Keep up with what the program draws for ``seconds`` (its output never fills the terminal)."""
        deadline = time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0:
            if not self._read(left) and self.process.poll() is not None:
                return

    def text(self) -> str:
        return "\n".join(self.screen.display)

    def wait_for(self, check: Callable[[str], object], what: str, timeout: float = WAIT) -> str:
        """Read until ``check(text)`` holds; the text then. Fails after ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        while True:
            text = self.text()
            if check(text):
                return text
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out waiting for {what}; the screen shows:\n{text}")
            if not self._read(0.2) and self.process.poll() is not None:
                self._read(0.2)
                text = self.text()
                if check(text):
                    return text
                raise AssertionError(f"the program ended ({self.process.returncode}) before {what}:\n{text}")

    def send(self, data: bytes) -> None:
        os.write(self.master, data)

    def kill(self) -> None:
        """SIGKILL, as a crash, a closed terminal or a lost SSH session would end it (again: nothing)."""
        self.close()

    def hang_up(self) -> None:
        """Close our side of the terminal, as a closed window or a lost SSH client would."""
        if not self.closed:
            self.closed = True
            os.close(self.master)

    def wait_exit(self, timeout: float = WAIT) -> int:
        deadline = time.monotonic() + timeout
        while self.process.poll() is None:
            if time.monotonic() > deadline:
                raise AssertionError(f"the program did not end; the screen shows:\n{self.text()}")
            self._read(0.2)
        while self._read(0.1):
            pass
        return self.process.returncode

    def close(self) -> None:
        """Kill the program (once: a reaped process's group may be another's by now), close the terminal."""
        if self.process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(WAIT)
        self.hang_up()
