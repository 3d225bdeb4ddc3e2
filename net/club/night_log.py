"""Reading a club night's journal back (net/store/club.py writes it) as the night it records."""

from __future__ import annotations

from pathlib import Path

from capicu.core.club import ClubError, ClubNight, ClubProblem
from capicu.net.store.club import read_club_journal
from capicu.net.store.journal import JournalError


def read_night(path: Path) -> ClubNight:
    """The night the journal at ``path`` records (a line cut short by a crash dropped);
    `ClubError` (``BAD_LOG``) for a journal that cannot be read or replayed, OSError for no file."""
    if not path.exists():
        raise FileNotFoundError(path)
    try:
        return read_club_journal(path).night
    except JournalError as exc:
        raise ClubError(str(exc), ClubProblem.BAD_LOG, what=str(exc)) from None


__all__ = ["read_night"]
