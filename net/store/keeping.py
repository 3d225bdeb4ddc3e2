"""What keeping a finished match may say, without opening anything: who kept it, and why the
history could not be used as it was.

Declared apart from the history (net/store/history.py, with SQLite and the csv module) and
from the archive that keeps a match (net/store/archive.py), so that what the client's model,
the host and the interface's words need of them loads at start, and the storage itself only
when a match ends.
"""

from __future__ import annotations

from enum import StrEnum

from capicu.core.codes import Code


class HistoryProblem(Code):
    """Why the history could not be used as it was (the interface words each)."""

    #: The file was not a database SQLite can read: moved to ``kept``, a new one started.
    SET_ASIDE = "set_aside", "file", "kept"
    #: A newer capicu wrote the file: left alone, and no match is added to it.
    TOO_NEW = "too_new", "file", "version"
    #: The file or its folder cannot be opened or written (``problem``: the system's words).
    UNUSABLE = "unusable", "file", "problem"


class KeptBy(StrEnum):
    """Whose copy of a match's record is kept (net/store/archive.py), and so who keeps it in the history."""

    #: The host that played the match.
    HOST = "host"
    #: A player's (or a spectator's) client, given it by the host.
    PLAYER = "player"


__all__ = ["HistoryProblem", "KeptBy"]
