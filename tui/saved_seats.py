"""The seats this player holds at other people's tables, kept on disk.

A seat's token is the only way back into it, so it must outlive the process
that received it: a ``kill -9``, a closed terminal, a dropped SSH session or a
reboot. `SeatStore` keeps each token in a small JSON file in the user data
folder (mode 0600: a token is a secret), keyed by the host address and port
as typed, the table's name and the match's id; ``capicu join HOST`` looks
there first. A finished match's seat is forgotten.

The file is input from outside like any other: it may be damaged, huge or
edited by hand. A bad file or entry is ignored (the player joins as a newcomer),
never a crash.
"""

from __future__ import annotations

import contextlib
import json
import os
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any

SEATS_FILE = "seats.json"
#: A file larger than this is not read (an entry is about 300 bytes).
MAX_FILE_BYTES = 256 * 1024
#: Seats kept at most; the oldest go first.
MAX_SEATS = 64
_TEXT_LIMITS = {"host": 255, "table": 32, "match": 64, "token": 64, "seat_key": 32, "name": 96}


@dataclass(frozen=True, slots=True)
class SavedSeat:
    """One seat held at a table: where, which match, and the secrets that take it back."""

    host: str
    port: int
    table: str
    match: str
    token: str
    seat_key: str | None
    name: str
    seat: int

    @property
    def place(self) -> tuple[str, int, str]:
        return (self.host.lower(), self.port, self.table)


def _seat_from(data: Any) -> SavedSeat | None:
    """The entry ``data`` describes, or None when any field is missing or out of shape."""
    if not isinstance(data, dict) or set(data) != {f.name for f in fields(SavedSeat)}:
        return None
    for name, limit in _TEXT_LIMITS.items():
        value = data[name]
        if name == "seat_key" and value is None:
            continue
        if not isinstance(value, str) or not value or len(value) > limit:
            return None
    port, seat = data["port"], data["seat"]
    if type(port) is not int or not 1 <= port <= 65535 or type(seat) is not int or not 0 <= seat < 4:
        return None
    return SavedSeat(**data)


class SeatStore:
    """The saved seats in one file (see the module docstring)."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def _read(self) -> list[SavedSeat]:
        try:
            if not self.path.is_file() or self.path.stat().st_size > MAX_FILE_BYTES:
                return []
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, ValueError, RecursionError):
            return []
        entries = data.get("seats") if isinstance(data, dict) else None
        if not isinstance(entries, list):
            return []
        seats = [_seat_from(entry) for entry in entries[:MAX_SEATS]]
        return [seat for seat in seats if seat is not None]

    def _write(self, seats: list[SavedSeat]) -> None:
        """Replace the file at once (a crash leaves the old one or the new one, never half)."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        temporary = self.path.with_name(self.path.name + ".tmp")
        text = json.dumps({"seats": [asdict(seat) for seat in seats[-MAX_SEATS:]]}, indent=1)
        descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.chmod(temporary, 0o600)  # an older file kept its mode through O_TRUNC
        os.replace(temporary, self.path)

    def seats_at(self, host: str, port: int, table: str) -> list[SavedSeat]:
        """The seats held at that table, the newest first."""
        place = (host.lower(), port, table)
        return [seat for seat in reversed(self._read()) if seat.place == place]

    def save(self, seat: SavedSeat) -> bool:
        """Remember ``seat`` (replacing what was kept for its table and match); False if it failed."""
        kept = [s for s in self._read() if (s.place, s.match) != (seat.place, seat.match)]
        try:
            self._write([*kept, seat])
        except OSError:
            return False
        return True

    def forget(self, host: str, port: int, table: str, match: str | None = None) -> None:
        """Drop the seats held at that table (only that match's, when ``match`` is given)."""
        place = (host.lower(), port, table)
        seats = self._read()
        kept = [s for s in seats if s.place != place or (match is not None and s.match != match)]
        if len(kept) != len(seats):
            with contextlib.suppress(OSError):
                self._write(kept)
