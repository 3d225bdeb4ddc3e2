"""The night's journal: `ClubNight`'s log on disk, one line a step, each synced before it is told.

The first line holds the log's head (its format, its game and the night's settings), each
line after it one event (`ClubEvent`), as JSON. A line cut short by a crash (the host was
killed while writing it) is dropped when the night is read back: nobody heard of that step.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any, BinaryIO

import msgspec
from capicu.core.club import ClubError, ClubEvent, ClubNight, ClubProblem


class NightJournal:
    """An open night's journal, appended to and synced step by step."""

    def __init__(self, path: Path, file: BinaryIO) -> None:
        self.path = path
        self._file = file

    @classmethod
    def create(cls, path: Path, night: ClubNight) -> NightJournal:
        """A new journal at ``path`` (emptied) holding ``night``'s head and its events so far."""
        file = open(path, "wb")  # noqa: SIM115 (kept open: the journal's life)
        journal = cls(path, file)
        head = {key: value for key, value in night.log().items() if key != "events"}
        journal._append([msgspec.json.encode(head), *(msgspec.json.encode(e) for e in night.events)])
        return journal

    @classmethod
    def append_to(cls, path: Path) -> NightJournal:
        """The journal at ``path``, to go on with (a line cut short at its end is cut off first)."""
        data = path.read_bytes()
        whole = data[: data.rfind(b"\n") + 1]
        file = open(path, "r+b")  # noqa: SIM115
        file.truncate(len(whole))
        file.seek(len(whole))
        return cls(path, file)

    def write(self, events: Sequence[ClubEvent]) -> None:
        """Append ``events`` and sync them (a few milliseconds: a night's steps are rare)."""
        if events:
            self._append([msgspec.json.encode(event) for event in events])

    def _append(self, lines: list[bytes]) -> None:
        self._file.write(b"".join(line + b"\n" for line in lines))
        self._file.flush()
        os.fsync(self._file.fileno())

    def close(self) -> None:
        self._file.close()


def read_night(path: Path) -> ClubNight:
    """The night ``path`` journals, its events replayed; `ClubError` for a journal that cannot be read."""
    lines = path.read_bytes().split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    elif lines:
        lines.pop()  # cut short as the host stopped: nobody heard of it
    try:
        decoded: list[Any] = [msgspec.json.decode(line) for line in lines]
    except msgspec.DecodeError as exc:
        raise ClubError(f"{path}: a line that is not JSON ({exc})", ClubProblem.BAD_LOG,
                        what=str(exc)) from None
    if not decoded:
        raise ClubError(f"{path}: an empty night's journal", ClubProblem.BAD_LOG, what="empty")
    head, events = decoded[0], decoded[1:]
    return ClubNight.from_log({**head, "events": events})


__all__ = ["NightJournal", "read_night"]
