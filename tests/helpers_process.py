"""The lines a child process writes to a pipe, read as they come, every wait bounded by a deadline.

One reader for the tests and the benchmarks that run ``capicu host --headless`` as its own
process and wait for what it prints (its port, its join code, a note in the operator's
language). Standard library only, so that bench/ loads it without the test extras.
"""

from __future__ import annotations

import os
import re
import select
import time
from typing import IO

#: The longest a wait for a line takes unless told otherwise.
WAIT = 30.0


class ProcessLines:
    """What a process writes to ``stream`` (a binary pipe of a `subprocess.Popen`), line by line.

    ``lines`` keeps every whole line read so far (UTF-8, without its newline), for a test's
    message when the line it waits for never comes.
    """

    def __init__(self, stream: IO[bytes] | None, timeout: float = WAIT) -> None:
        assert stream is not None, "the process was started without a pipe for this stream"
        self._descriptor = stream.fileno()
        self.timeout = timeout
        self.lines: list[str] = []
        self._unread = b""
        self._next = 0  # the first line not yet handed out
        self.ended = False

    def matching(self, pattern: str, timeout: float | None = None) -> re.Match[str]:
        """The match of the first line from here on that ``pattern`` is found in.

        AssertionError, naming every line read, when the stream ends or the deadline passes first.
        """
        compiled = re.compile(pattern)
        deadline = time.monotonic() + (self.timeout if timeout is None else timeout)
        while True:
            while self._next < len(self.lines):
                line = self.lines[self._next]
                self._next += 1
                found = compiled.search(line)
                if found:
                    return found
            if not self._read_more(deadline):
                raise AssertionError(f"the process never printed {pattern!r}: {self.lines}")

    def first(self, count: int, timeout: float | None = None) -> list[str]:
        """The next ``count`` lines (fewer when the stream ends or the deadline passes first)."""
        deadline = time.monotonic() + (self.timeout if timeout is None else timeout)
        while len(self.lines) - self._next < count and self._read_more(deadline):
            pass
        taken = self.lines[self._next : self._next + count]
        self._next += len(taken)
        return taken

    def _read_more(self, deadline: float) -> bool:
        """Read what is there (waiting at most until ``deadline``); False once nothing more can come."""
        if self.ended:
            return False
        left = deadline - time.monotonic()
        if left <= 0 or not select.select([self._descriptor], [], [], left)[0]:
            return False
        data = os.read(self._descriptor, 65536)
        if not data:
            self.ended = True
            if self._unread:
                self.lines.append(self._unread.decode("utf-8", "replace"))
                self._unread = b""
            return True
        *whole, self._unread = (self._unread + data).split(b"\n")
        self.lines.extend(line.decode("utf-8", "replace") for line in whole)
        return True
