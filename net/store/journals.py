"""The folder of match journals: every hosted match is journalled by default, one file a match.

A host that keeps its matches here (`HostConfig.journals`) writes each match's
journal (net/store/journal.py) to a new file in the folder, named by when it began
and who hosts it: ``20261201T170233Z-host-3fa9c1.journal`` (``host`` for a table
on the network, ``play`` for a game against the computer). The file stays there
while the match is not over, so that the next host started on this machine
finds it (`JournalFolder.unfinished`) and offers to resume it. The rule for the
rest:

- A finished match's journal moves to ``finished/`` when its host stops (after a
  crash, when the next host looks at the folder). So does a journal set aside on
  purpose (a new match chosen instead of resuming it), and one that cannot be
  resumed (damaged, or holding no match).
- ``finished/`` keeps the newest `KEEP_FINISHED` journals, and at most
  `FINISHED_BYTES` in all: older ones are deleted whenever a journal moves in.
- A file nobody sat at (a host stopped before the first seat was taken) is empty
  and is deleted.
- Unfinished journals are never deleted: only a finished match, or one set aside,
  ever leaves the folder's top.

A running host holds a lock on its journal (``flock``; released by the system
when the process dies, even by SIGKILL), so that a match being played is never
offered to another host, and two hosts never resume the same file.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import time
from collections.abc import Callable
from enum import StrEnum
from pathlib import Path

import msgspec
from capicu.core.games import match_from_log
from capicu.net.protocol import SeatKind

from .journal import JournalError, read_journal, seat_keys

try:  # POSIX; elsewhere a journal is not locked (and a live host's match may be offered)
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]

#: Finished journals kept at most (the newest); enough for a season of replays.
KEEP_FINISHED = 100
#: The most bytes ``finished/`` holds (a long match's journal is some tens of KB).
FINISHED_BYTES = 32 * 1024 * 1024
SUFFIX = ".journal"
FINISHED = "finished"


class JournalKind(StrEnum):
    """Who hosts the match: a table on the network, or a game against the computer."""

    HOST = "host"
    PLAY = "play"


class Unfinished(msgspec.Struct, frozen=True):
    """An unfinished match kept in the folder: where, which game, when it began, who, how far."""

    path: Path
    #: When the match was first dealt, else (not dealt yet) when its journal was made: seconds
    #: since the epoch. Not when the journal was last written, which moves with every move.
    began: float
    #: Every seat, in seat order: its kind and its name (a computer's is worded by the reader; an
    #: open seat of the lobby has none).
    seats: tuple[tuple[SeatKind, str], ...]
    #: Rounds played to their end.
    rounds: int
    #: The match had begun (False: the lobby, seats taken, no deal yet).
    started: bool
    #: The game: its rules' preset name (``puerto-rican-drawing``, ``mexican-train``...).
    preset: str


class JournalLock:
    """A lock held on one journal file while its host runs (see the module docstring)."""

    def __init__(self, path: Path, descriptor: int) -> None:
        self.path = path
        self._descriptor: int | None = descriptor

    @classmethod
    def take(cls, path: Path, *, create: bool = False) -> JournalLock | None:
        """The lock on ``path`` (made empty, mode 0600, with ``create``); None when another host holds it.

        OSError when the file cannot be opened (or, with ``create``, exists already).
        """
        flags = os.O_RDWR | (os.O_CREAT | os.O_EXCL if create else 0)
        descriptor = os.open(path, flags, 0o600)
        if fcntl is not None:
            try:
                fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                os.close(descriptor)
                return None
        return cls(path, descriptor)

    def release(self) -> None:
        if self._descriptor is not None:
            os.close(self._descriptor)
            self._descriptor = None


def _in_use(path: Path) -> bool:
    """Whether a running host holds ``path``'s lock (False too when the file cannot be opened)."""
    try:
        lock = JournalLock.take(path)
    except OSError:
        return False
    if lock is None:
        return True
    lock.release()
    return False


class JournalFolder:
    """The match journals of one kind in ``root`` (see the module docstring).

    ``clock`` gives the time new files are named by (tests pass their own).
    """

    def __init__(self, root: Path, kind: JournalKind, *, clock: Callable[[], float] = time.time,
                 keep: int = KEEP_FINISHED, max_bytes: int = FINISHED_BYTES) -> None:
        self.root = root
        self.kind = kind
        self.finished = root / FINISHED
        self._clock = clock
        self.keep = keep
        self.max_bytes = max_bytes

    def holds(self, path: Path) -> bool:
        """Whether ``path`` is one of this folder's unfinished journals (its host settles it)."""
        return path.parent.resolve() == self.root.resolve() and path.suffix == SUFFIX

    def new_journal(self) -> JournalLock:
        """A new, empty, locked file for a match's journal. OSError when the folder cannot be written."""
        self.root.mkdir(parents=True, exist_ok=True, mode=0o700)
        stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime(self._clock()))
        while True:
            path = self.root / f"{stamp}-{self.kind}-{secrets.token_hex(3)}{SUFFIX}"
            try:
                lock = JournalLock.take(path, create=True)
            except FileExistsError:
                continue
            assert lock is not None  # a file just made is nobody else's
            return lock

    def unfinished(self) -> list[Unfinished]:
        """The unfinished matches of this kind that no running host holds, the newest first.

        Tidies on the way: a finished match's journal or one that cannot be resumed moves
        to ``finished/``, an empty file nobody holds is deleted.
        """
        found = []
        for path in self._journals():
            if _in_use(path):
                continue
            summary = self._summary(path)
            if summary is not None:
                found.append(summary)
        return found

    def seat_keys_set_aside(self) -> frozenset[str]:
        """The seat keys (compared form) of the matches in ``finished/``: over, or set aside for another.

        A host that started another match answers one of them ``match_gone``, as it answers
        a token of another match: the seat is lost, not mistyped.
        """
        try:
            paths = [Path(entry.path) for entry in os.scandir(self.finished)
                     if entry.is_file() and entry.name.endswith(SUFFIX) and f"-{self.kind}-" in entry.name]
        except OSError:
            return frozenset()
        return frozenset(key for path in paths for key in seat_keys(path))

    def _journals(self) -> list[Path]:
        try:
            names = [entry.name for entry in os.scandir(self.root) if entry.is_file()]
        except OSError:
            return []
        mine = (name for name in names if name.endswith(SUFFIX) and f"-{self.kind}-" in name)
        return [self.root / name for name in sorted(mine, reverse=True)]

    def _summary(self, path: Path) -> Unfinished | None:
        """What ``path`` holds, if it is an unfinished match; else it is tidied away (None)."""
        try:
            empty = path.stat().st_size == 0
        except OSError:
            return None
        if empty:
            with contextlib.suppress(OSError):
                path.unlink()
            return None
        summary = summarize(path)
        if summary is None:
            self.set_aside(path)
        return summary

    def set_aside(self, path: Path) -> Path | None:
        """Move ``path`` to ``finished/`` (then prune it); where it went, None if it could not move."""
        target = self.finished / path.name
        try:
            self.finished.mkdir(parents=True, exist_ok=True, mode=0o700)
            os.replace(path, target)
        except OSError:
            return None
        self.prune()
        return target

    def settle(self, path: Path, *, tidy: bool = True) -> None:
        """A host is done with ``path``: an empty one goes; with ``tidy``, a finished match's (or one
        that cannot be resumed) moves to ``finished/``.

        An unfinished match's journal stays where it is (the next host offers it).
        """
        try:
            if path.stat().st_size == 0:
                path.unlink()
                return
        except OSError:
            return
        if tidy:
            self._summary(path)  # moves it aside when it is finished

    def prune(self) -> list[Path]:
        """Delete the oldest finished journals beyond `keep` files or `max_bytes`; the paths deleted."""
        try:
            entries = sorted(((entry.name, entry.stat().st_size) for entry in os.scandir(self.finished)
                              if entry.is_file() and entry.name.endswith(SUFFIX)), reverse=True)
        except OSError:
            return []
        deleted = []
        total = 0
        for count, (name, size) in enumerate(entries, 1):
            total += size
            if count > self.keep or total > self.max_bytes:
                with contextlib.suppress(OSError):
                    (self.finished / name).unlink()
                    deleted.append(self.finished / name)
        return deleted


def summarize(path: Path) -> Unfinished | None:
    """The unfinished match the journal at ``path`` holds; None when it holds none it can resume
    (the match is over, or the file cannot be read or replayed)."""
    try:
        made = path.stat().st_mtime
        recovered = read_journal(path)
        header = recovered.header
        log = recovered.match_log()
        match = match_from_log(log) if log["entries"] else None  # either game's
    except (OSError, JournalError, KeyError, TypeError, ValueError):
        return None
    if match is not None and match.is_over:
        return None
    began = _utc_seconds(header.started) if isinstance(header.started, str) else None
    if began is None:
        began = _utc_seconds(path.name.split("-", 1)[0], "%Y%m%dT%H%M%SZ") or made  # the folder's name for it
    seats = tuple((seat.kind, seat.name or "") for seat in header.seats)
    return Unfinished(path, began, seats, len(match.results) if match else 0, match is not None,
                      header.rules.preset)


def _utc_seconds(text: str, form: str = "%Y-%m-%dT%H:%M:%SZ") -> float | None:
    """A UTC time written as ``form`` (a record's by default), in seconds since 1970; None if not one."""
    import calendar  # (only to read a kept journal's times)

    try:
        return calendar.timegm(time.strptime(text, form))
    except ValueError:
        return None
