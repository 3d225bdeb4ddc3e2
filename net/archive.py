"""Where a finished match is kept: the one place that saves it, whoever kept it.

The host keeps its own copy of each match it finishes, a player's client the
copy the host sent (net/client.py), each in its data folder's ``records/``.
Everything a finished match should leave behind starts here: the record's file
now, and whatever is kept of it besides (the history of matches played).
"""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path

from .record import MatchRecord, write_record


class KeptBy(StrEnum):
    """Whose copy of a match's record is kept."""

    #: The host that played the match.
    HOST = "host"
    #: A player's (or a spectator's) client, given it by the host.
    PLAYER = "player"


def keep_finished_match(record: MatchRecord, folder: Path, *, kept_by: KeptBy) -> Path:
    """Keep the finished match ``record`` in ``folder``; the record's file.

    Host and player sharing one data folder (a solo game, the menu's Host) both
    call this with the same record: it is one file. `RecordError` when it cannot
    be written.
    """
    return write_record(folder, record)


__all__ = ["KeptBy", "keep_finished_match"]
