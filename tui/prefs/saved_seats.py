"""The seats this player holds at other people's tables, kept on disk.

A seat's token is the only way back into it, so it must outlive the process
that received it: a ``kill -9``, a closed terminal, a dropped SSH session or a
reboot. `SeatStore` keeps each token in a small JSON file in the user data
folder (mode 0600: a token is a secret), keyed by the host address and port
as typed, the table's name, the match's id and the player's name; ``capicu join
HOST`` looks there first, for a seat saved for the name it joins as (two people
sharing one data folder, say two terminals on one machine, each get their own
seat back, never each other's). A finished match's seat is forgotten.

The file is input from outside like any other: it may be damaged, huge or
edited by hand. Each entry is checked against `SavedSeat`'s declaration; a bad
file or entry is ignored (the player joins as a newcomer), never a crash, and
the store's ``warn`` is told what was wrong with it, naming the file and the field.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import msgspec
from capicu.net.host.sanitize import name_key
from capicu.tui.words.messages import t
from msgspec import Meta

from .files import FileProblem, checked, read_file

SEATS_FILE = "seats.json"
#: A file larger than this is not read (an entry is about 300 bytes).
MAX_FILE_BYTES = 256 * 1024
#: Seats kept at most; the oldest go first.
MAX_SEATS = 64


Address = Annotated[str, Meta(min_length=1, max_length=255)]
TableName = Annotated[str, Meta(min_length=1, max_length=32)]
Secret = Annotated[str, Meta(min_length=1, max_length=64)]
SeatKey = Annotated[str, Meta(min_length=1, max_length=32)]
Name = Annotated[str, Meta(min_length=1, max_length=96)]


class SavedSeat(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One seat held at a table: where, which match, and the secrets that take it back."""

    host: Address
    port: Annotated[int, Meta(ge=1, le=65535)]
    table: TableName
    #: The match's id, as the host named it in ``welcome``.
    match: Secret
    token: Secret
    seat_key: SeatKey | None
    name: Name
    seat: Annotated[int, Meta(ge=0, le=3)]

    @property
    def place(self) -> tuple[str, int, str]:
        return (self.host.lower(), self.port, self.table)


class SeatsFile(msgspec.Struct, frozen=True):
    """The file as a whole: its entries, each checked on its own (a bad one costs only itself)."""

    seats: list[Any]


class SeatStore:
    """The saved seats in one file (see the module docstring)."""

    def __init__(self, path: Path, warn: Callable[[str], object] | None = None) -> None:
        """``warn`` is told, in a sentence, each problem found in the file (once: the file is read
        again at every look-up and save)."""
        self.path = path
        self._warn = warn
        self._told: set[str] = set()

    def _problem(self, problem: str) -> None:
        sentence = t("Saved seats file {file}: {problem}; that is ignored.", file=str(self.path),
                     problem=problem)
        if self._warn is not None and sentence not in self._told:
            self._told.add(sentence)
            self._warn(sentence)

    def _read(self) -> list[SavedSeat]:
        if not self.path.exists():
            return []
        try:
            entries = read_file(self.path, SeatsFile, kind="json", limit=MAX_FILE_BYTES).seats
        except FileProblem as exc:
            self._problem(str(exc))
            return []
        seats = []
        for index, entry in enumerate(entries[:MAX_SEATS]):
            try:
                seats.append(checked(entry, SavedSeat))
            except FileProblem as exc:
                self._problem(t("seats[{index}]: {problem}", index=index, problem=str(exc)))
        return seats

    def _write(self, seats: list[SavedSeat]) -> None:
        """Replace the file at once (a crash leaves the old one or the new one, never half)."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        temporary = self.path.with_name(self.path.name + ".tmp")
        text = msgspec.json.format(msgspec.json.encode(SeatsFile(seats[-MAX_SEATS:])), indent=1)
        descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(descriptor, "wb") as handle:
            handle.write(text)
        os.chmod(temporary, 0o600)  # an older file kept its mode through O_TRUNC
        os.replace(temporary, self.path)

    def seats_at(self, host: str, port: int, table: str, name: str | None = None) -> list[SavedSeat]:
        """The seats held at that table, the newest first; only those saved for ``name`` when given
        (names compared as the host compares them: case and Unicode forms aside)."""
        place = (host.lower(), port, table)
        return [seat for seat in reversed(self._read())
                if seat.place == place and (name is None or name_key(seat.name) == name_key(name))]

    def save(self, seat: SavedSeat) -> bool:
        """Remember ``seat`` (replacing what was kept for its table, match and name); False if it failed."""
        kept = [s for s in self._read()
                if (s.place, s.match, name_key(s.name)) != (seat.place, seat.match, name_key(seat.name))]
        try:
            self._write([*kept, seat])
        except OSError:
            return False
        return True

    def forget(self, host: str, port: int, table: str, match: str | None = None,
               name: str | None = None) -> None:
        """Drop the seats held at that table (only that match's, when ``match`` is given; only the one
        saved for ``name``, when given)."""
        place = (host.lower(), port, table)
        seats = self._read()
        kept = [s for s in seats if s.place != place or (match is not None and s.match != match)
                or (name is not None and name_key(s.name) != name_key(name))]
        if len(kept) != len(seats):
            with contextlib.suppress(OSError):
                self._write(kept)
