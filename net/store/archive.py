"""Where a finished match is kept: the one place that saves it, whoever kept it.

The host keeps its own copy of each match it finishes, a player's client the
copy the host sent (net/client.py), each in its data folder's ``records/``.
Everything a finished match leaves behind starts here: the record's file, and
the match in the history of matches played (net/store/history.py), whose database
lives in the same folder, beside the records it indexes.
"""

from __future__ import annotations

from pathlib import Path

import msgspec
from capicu.core.codes import Statement
from capicu.net.host.effects import HostNote

from .keeping import HistoryProblem, KeptBy
from .record import MatchRecord, write_record


class Kept(msgspec.Struct, frozen=True):
    """Where a finished match's record was written, and what went wrong with its history, if anything."""

    path: Path
    #: The record is kept all the same: a history that cannot be used never stops it.
    history_problem: Statement[HistoryProblem] | None = None


def keep_finished_match(record: MatchRecord, folder: Path, *, kept_by: KeptBy, me: int | None = None) -> Kept:
    """Keep the finished match ``record`` in ``folder``: its record's file, and the match in the history.

    Host and player sharing one data folder (a solo game, the menu's Host) both
    call this with the same record: it is one file, and one match in the history,
    which learns from the player's call which seat was theirs (``me``; None for a
    host's own copy, or a spectator's). `RecordError` when the record cannot be
    written (then nothing is added to the history). Blocking: call it off the event loop.
    """
    # The history (SQLite) is loaded when the first match ends, not at every start.
    from .history import keep_in_history

    path = write_record(folder, record)
    return Kept(path, keep_in_history(folder, record, kept_by=kept_by, me=me, record_path=path))


def history_note(table: str, problem: Statement[HistoryProblem]) -> Statement[HostNote]:
    """What a host tells its operator of a history problem met keeping table ``table``'s match."""
    values = problem.values
    detail = values.get("kept", values.get("version", values.get("problem", "")))
    return HostNote.HISTORY_PROBLEM(table=table, history=problem.code.value, file=str(values.get("file", "")),
                                    detail=detail)


__all__ = ["Kept", "KeptBy", "history_note", "keep_finished_match"]
