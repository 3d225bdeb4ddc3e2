"""A club night kept: its journal while it runs, the nights in SQLite after, and its standings printed.

- **The night's journal** (`ClubJournal`): the host appends each event of the night's log
  (core/club/night.py) as it happens, one line each in net/store/journal.py's form (eight hex
  digits of the line's CRC-32, a space, then JSON) and with its writer (written and fsynced in a
  worker thread, in order, before anyone hears of the event). The first line is the header: the
  night's id, when it began, its game and config. A ``host`` line holds whatever the host must
  keep besides (opaque here: its seats' secrets, its tables' journals). A host killed with
  ``kill -9`` reads it back (`read_club_journal`) and resumes the night; a crash only cuts the
  last line short, so a damaged line with good lines after it is refused, as a match journal is.
  The file holds secrets (created readable by its owner only).
- **The nights kept** (`ClubHistory`, ``clubs.sqlite3`` beside the match history): each night's
  log whole (the standings and every player's matches are recomputed from it, by the one pure
  function that made them live), with its name, game, format and times, and its players by name
  for finding them. Opened as the history is (net/store/history.py): a schema version
  (``PRAGMA user_version``), writes in transactions, a damaged file set aside.
- **The standings printed** (`write_standings_csv`, `standings_html`): a kept night's standings
  as CSV (cleaned and formula-defused as ``capicu history --csv`` writes, `clean_text`) and as a
  printable HTML page for the pub's wall, every text escaped. The page's words are the caller's
  (`PageWords`: the interface says them in the language spoken); the CSV's columns are fixed names.
"""

from __future__ import annotations

import asyncio
import csv
import html
import json
import os
import sqlite3
import zlib
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Literal, TextIO

import msgspec
from capicu.core.club import LOG_FORMAT, ClubError, ClubEvent, ClubNight, PlayerMatch, Standing, name_key
from capicu.core.codes import Statement
from capicu.core.games import game_of
from capicu.net import wire
from capicu.net.host.sanitize import clean_text
from msgspec import Struct

from .history import BUSY_SECONDS, _opening, _prepare, _set_aside, _statements
from .journal import Journal, JournalChanged, JournalError, _keep_a_copy, _parse_line, _sync_directory
from .keeping import HistoryProblem
from .record import UtcTime

#: The journal's first line declares it.
JOURNAL_FORMAT: Literal["capicu-club-journal/1"] = "capicu-club-journal/1"
#: The file of kept nights, in the folder of records (beside history.sqlite3).
CLUBS_FILE = "clubs.sqlite3"


# -- the night's journal ---------------------------------------------------------------------------


class ClubHeader(Struct, frozen=True, kw_only=True):
    """The journal's first line: which night, since when, and its settings (as its log holds them)."""

    format: Literal["capicu-club-journal/1"] = JOURNAL_FORMAT
    log_format: str = LOG_FORMAT
    #: The night's id (the host's, for its history and its tables' records).
    night: str
    started: UtcTime
    #: The game's name (core/games.py) and the night's `ClubConfig`, as plain data.
    game: str
    config: dict[str, Any]


class EventLine(Struct, frozen=True):
    """One event of the night's log."""

    event: ClubEvent


class HostLine(Struct, frozen=True):
    """Something the host keeps besides the night's log (opaque here), read back in order."""

    host: dict[str, Any]


def _line(record: ClubHeader | EventLine | HostLine) -> bytes:
    text = msgspec.json.encode(wire.plain(record))
    return b"%08x %s\n" % (zlib.crc32(text), text)


class RecoveredNight(msgspec.Struct, frozen=True):
    """What a club journal holds: the night rebuilt, the host's own lines, and what was dropped."""

    header: ClubHeader
    night: ClubNight
    #: The host's lines (`HostLine.host`), in order.
    host: list[dict[str, Any]]
    #: Bytes of the file holding whole, intact lines.
    good_size: int
    #: A sentence saying what was dropped, or None when the whole file was good.
    damage: str | None = None


def read_club_journal(path: Path) -> RecoveredNight:
    """The night the journal at ``path`` records, up to its last whole intact line.

    `JournalError` naming the file when it cannot be read or replayed; `JournalChanged` when a
    damaged line has good lines after it (not a crash's doing).
    """
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise JournalError(f"cannot read the club journal {path}: {exc.strerror or exc}") from None
    records: list[Any] = []
    offset, number, damage = 0, 0, None
    while offset < len(data):
        number += 1
        end = data.find(b"\n", offset)
        if end < 0:
            damage = f"line {number} was cut short (the host stopped while writing it)"
            break
        record = _parse_line(data[offset:end])
        if record is None:
            if any(_parse_line(later) is not None for later in data[end + 1:].split(b"\n")):
                raise JournalChanged(f"{path}: line {number} is damaged and good lines follow it; a crash "
                                     "only cuts the last line short, so the file was changed")
            damage = f"line {number} is damaged"
            break
        records.append(record)
        offset = end + 1
    if damage is not None:
        damage += f"; {len(data) - offset} bytes from there on are dropped"
    if not records or not isinstance(records[0], dict) or records[0].get("format") != JOURNAL_FORMAT:
        raise JournalError(f"{path} is not a club night's journal (expected format {JOURNAL_FORMAT!r})")
    header = _read(path, 1, records[0], ClubHeader)
    events: list[Any] = []
    host: list[dict[str, Any]] = []
    for line, record in enumerate(records[1:], 2):
        if isinstance(record, dict) and "host" in record:
            host.append(_read(path, line, record, HostLine).host)
        else:
            events.append(_read(path, line, record, EventLine).event)
    log = {"format": header.log_format, "game": header.game, "config": header.config, "events": events}
    try:
        night = ClubNight.from_log(log)
    except ClubError as exc:
        raise JournalError(f"{path}: {exc}") from None
    return RecoveredNight(header, night, host, offset, damage)


def _read(path: Path, number: int, data: Any, kind: type[Any]) -> Any:
    try:
        return wire.read(data, kind)
    except msgspec.ValidationError as exc:
        raise JournalError(f"{path}: line {number} is not a club journal line: "
                           f"{wire.sentence(exc, 'record')}") from None


class ClubJournal(Journal):
    """A night's journal, appended to as the night goes (net/store/journal.py's writer).

    ``write_night(night)`` queues the night's events the file does not hold yet; the future is
    done once they are on disk. Nothing here blocks the event loop but `resume` (call it before
    serving or from a worker thread).
    """

    def __init__(self, path: Path, file: Any = None, *, written: int = 0,
                 kept_as: Path | None = None) -> None:
        super().__init__(path, file, kept_as=kept_as)
        #: The night's events the file holds (or are queued for it).
        self.written = written

    @classmethod
    def begin(cls, path: Path, night: ClubNight, *, night_id: str, started: str) -> tuple[ClubJournal,
                                                                                       asyncio.Future[None]]:
        """A new journal at ``path`` for ``night`` (its header and its events so far queued)."""
        journal = cls(path)
        header = ClubHeader(night=night_id, started=started, game=game_of(night.config.rules).name,
                            config=wire.plain(night.config))
        return journal, journal._queue(_line(header) + journal._events(night))

    @classmethod
    def resume(cls, path: Path) -> tuple[ClubJournal, RecoveredNight]:
        """The journal at ``path`` read back and opened for appending after its last good line.

        A damaged tail is cut off, once the file as it was is kept beside it (``<name>.torn-<n>``).
        """
        recovered = read_club_journal(path)
        kept_as = None
        try:
            file = open(path, "r+b", buffering=0)  # noqa: SIM115 (kept open for the night)
            try:
                if os.fstat(file.fileno()).st_size > recovered.good_size:
                    kept_as = _keep_a_copy(path, file)
                file.truncate(recovered.good_size)
                file.seek(recovered.good_size)
                os.fsync(file.fileno())
            except BaseException:
                file.close()
                raise
        except OSError as exc:
            raise JournalError(f"cannot append to the club journal {path}: {exc.strerror or exc}") from None
        journal = cls(path, file, written=len(recovered.night.events), kept_as=kept_as)
        return journal, recovered

    def _events(self, night: ClubNight) -> bytes:
        new = night.events[self.written:]
        self.written = len(night.events)
        return b"".join(_line(EventLine(event)) for event in new)

    def write_night(self, night: ClubNight) -> asyncio.Future[None]:
        """Queue the events of ``night`` not yet written (a later value of the journal's night)."""
        return self._queue(self._events(night))

    def write_host(self, record: dict[str, Any]) -> asyncio.Future[None]:
        """Queue one of the host's own lines (read back as `RecoveredNight.host`)."""
        return self._queue(_line(HostLine(record)))


# -- the nights kept ---------------------------------------------------------------------------------

#: Each step brings a file from the version before to its own.
MIGRATIONS = (
    """
    CREATE TABLE nights (
        id INTEGER PRIMARY KEY,
        night_id TEXT NOT NULL UNIQUE,
        name TEXT NOT NULL,
        game TEXT NOT NULL,
        preset TEXT NOT NULL,
        format TEXT NOT NULL,
        rounds INTEGER NOT NULL,
        started TEXT NOT NULL,
        -- NULL while the night is not over
        ended TEXT,
        -- the night's log (core/club/night.py) as JSON: everything else is recomputed from it
        log TEXT NOT NULL
    );
    CREATE TABLE night_players (
        night INTEGER NOT NULL REFERENCES nights(id) ON DELETE CASCADE,
        entrant INTEGER NOT NULL,
        name TEXT NOT NULL,
        place INTEGER NOT NULL,
        PRIMARY KEY (night, entrant)
    );
    CREATE INDEX nights_by_start ON nights(started);
    CREATE INDEX night_players_by_name ON night_players(name COLLATE NOCASE);
    """,
)
SCHEMA_VERSION = len(MIGRATIONS)


class ClubHistoryError(Exception):
    """There is no club history to be had; ``problem`` says why (the interface words it)."""

    def __init__(self, problem: Statement[HistoryProblem]) -> None:
        super().__init__(problem.code.value)
        self.problem = problem


class KeptNight(msgspec.Struct, frozen=True):
    """A night as kept: its number in the file (1, 2, ... in the order kept), its facts and itself."""

    number: int
    night_id: str
    name: str
    game: str
    preset: str
    format: str
    started: str
    ended: str | None
    night: ClubNight

    @property
    def standings(self) -> tuple[Standing, ...]:
        return self.night.standings()

    def name_of(self, entrant: int) -> str:
        """An entrant's name, cleaned for a terminal or a page (whoever wrote the file)."""
        return _clean(self.night.entrants[entrant].name)

    def matches_of(self, entrant: int) -> tuple[PlayerMatch, ...]:
        return self.night.matches_of(entrant)


class ClubHistory:
    """The nights kept on this machine (``clubs.sqlite3``); `open_club_history` opens it."""

    def __init__(self, connection: sqlite3.Connection, path: Path) -> None:
        self._db = connection
        self.path = path

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> ClubHistory:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def keep(self, night: ClubNight, *, night_id: str, started: str, ended: str | None = None) -> int:
        """Keep ``night`` (again: a night kept after each round is replaced); its number."""
        log = night.log()
        text = json.dumps(wire.plain(log), ensure_ascii=False, separators=(",", ":"))
        config = night.config
        places = {s.entrant: place for place, s in enumerate(night.standings(), 1)}
        self._db.execute("BEGIN IMMEDIATE")
        try:
            row = self._db.execute("SELECT id FROM nights WHERE night_id = ?", (night_id,)).fetchone()
            values = (config.name, game_of(config.rules).name, config.rules.preset, config.format.value,
                      night.round, started, ended, text)
            if row is None:
                number = self._db.execute(
                    "INSERT INTO nights (name, game, preset, format, rounds, started, ended, log, night_id)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", (*values, night_id)).lastrowid
            else:
                number = row[0]
                self._db.execute("UPDATE nights SET name = ?, game = ?, preset = ?, format = ?, rounds = ?,"
                                 " started = ?, ended = ?, log = ? WHERE id = ?", (*values, number))
                self._db.execute("DELETE FROM night_players WHERE night = ?", (number,))
            self._db.executemany(
                "INSERT INTO night_players (night, entrant, name, place) VALUES (?, ?, ?, ?)",
                [(number, e.id, e.name, places[e.id]) for e in night.entrants])
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")
        assert number is not None
        return int(number)

    def nights(self, player: str | None = None) -> list[KeptNight]:
        """Every night kept (those ``player`` was in, by name: the same once normalised and
        case-folded, any script), in the order they began."""
        query = "SELECT id, night_id, name, game, preset, format, started, ended, log FROM nights"
        if player is not None:
            key = name_key(player)
            numbers = [number for number, name in self._db.execute("SELECT night, name FROM night_players")
                       if name_key(name) == key]
            query += f" WHERE id IN ({', '.join('?' * len(numbers))})"
        rows = self._db.execute(query + " ORDER BY started, id", numbers if player is not None else ())
        return [kept for kept in (self._kept(row) for row in rows) if kept is not None]

    def night(self, number: int | None = None) -> KeptNight | None:
        """The night kept as ``number`` (None: the last one begun), or None."""
        query = "SELECT id, night_id, name, game, preset, format, started, ended, log FROM nights"
        row = self._db.execute(query + (" WHERE id = ?" if number is not None else
                                        " ORDER BY started DESC, id DESC LIMIT 1"),
                               (number,) if number is not None else ()).fetchone()
        return None if row is None else self._kept(row)

    def _kept(self, row: Sequence[Any]) -> KeptNight | None:
        """The night of a row; None when its log cannot be read (a file changed by hand)."""
        number, night_id, name, game, preset, format, started, ended, text = row
        try:
            night = ClubNight.from_log(json.loads(text))
        except (ValueError, ClubError):
            return None
        return KeptNight(number, night_id, name, game, preset, format, started, ended, night)


def clubs_path(folder: Path) -> Path:
    return folder / CLUBS_FILE


def _connect(path: Path) -> sqlite3.Connection:
    return sqlite3.connect(path, timeout=BUSY_SECONDS, isolation_level=None)


def _migrate(connection: sqlite3.Connection) -> None:
    """Apply the steps the file lacks, each with its version number in one transaction."""
    while True:
        connection.execute("BEGIN IMMEDIATE")
        try:
            number = int(connection.execute("PRAGMA user_version").fetchone()[0]) + 1
            if number > SCHEMA_VERSION:
                connection.execute("COMMIT")
                return
            for statement in _statements(MIGRATIONS[number - 1]):
                connection.execute(statement)
            connection.execute(f"PRAGMA user_version = {number:d}")
        except BaseException:
            connection.execute("ROLLBACK")
            raise
        connection.execute("COMMIT")


def open_club_history(folder: Path) -> tuple[ClubHistory, Statement[HistoryProblem] | None]:
    """The nights kept in ``folder``, and what had to be done to the file (a damaged one set aside).

    `ClubHistoryError` when there are none to be had: the folder or file cannot be opened, or a
    newer capicu wrote it (left untouched).
    """
    path = clubs_path(folder)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with _opening(path):
            return _open(path)
    except OSError as exc:
        raise ClubHistoryError(HistoryProblem.UNUSABLE(file=str(path), problem=_reason(exc))) from None


def _open(path: Path) -> tuple[ClubHistory, Statement[HistoryProblem] | None]:
    problem: Statement[HistoryProblem] | None = None
    try:
        connection = _connect(path)
    except sqlite3.Error as exc:
        raise ClubHistoryError(HistoryProblem.UNUSABLE(file=str(path), problem=_reason(exc))) from None
    try:
        try:
            version = _prepare(connection)
        except sqlite3.DatabaseError as exc:
            if isinstance(exc, sqlite3.OperationalError):
                raise
            connection.close()
            kept = _set_aside(path)
            problem = HistoryProblem.SET_ASIDE(file=str(path), kept=str(kept))
            connection = _connect(path)
            version = _prepare(connection)
        if version > SCHEMA_VERSION:
            raise ClubHistoryError(HistoryProblem.TOO_NEW(file=str(path), version=version))
        _migrate(connection)
    except ClubHistoryError:
        connection.close()
        raise
    except (OSError, sqlite3.Error) as exc:
        connection.close()
        raise ClubHistoryError(HistoryProblem.UNUSABLE(file=str(path), problem=_reason(exc))) from None
    return ClubHistory(connection, path), problem


def _reason(exc: BaseException) -> str:
    if isinstance(exc, OSError):
        return exc.strerror or type(exc).__name__
    return str(exc) or type(exc).__name__


def keep_night(folder: Path, night: ClubNight, *, night_id: str, started: str,
               ended: str | None = None) -> Statement[HistoryProblem] | None:
    """Keep ``night`` in the club history in ``folder`` (opened and closed again); any problem.

    For the host, after each round and at the end: a history that cannot be used never stops
    the night.
    """
    try:
        history, problem = open_club_history(folder)
    except ClubHistoryError as exc:
        return exc.problem
    with history:
        try:
            history.keep(night, night_id=night_id, started=started, ended=ended)
        except sqlite3.Error as exc:
            return HistoryProblem.UNUSABLE(file=str(history.path), problem=_reason(exc))
    return problem


# -- the standings printed ---------------------------------------------------------------------------

#: The columns `write_standings_csv` writes: one row per entrant, best first.
CSV_COLUMNS = ("night", "place", "name", "left", "played", "won", "difference", "points_for",
               "points_against", "byes", "computer_seats", "buchholz", "head_to_head", "opponents",
               "partners")


def _clean(text: str) -> str:
    return clean_text(text, limit=len(text))


def not_a_formula(text: str) -> str:
    """``text`` as a spreadsheet takes it for text: after a ``'`` when it would be a formula."""
    return "'" + text if text[:1] in ("=", "+", "-", "@") else text


def write_standings_csv(kept: KeptNight, out: TextIO) -> int:
    """Write the night's standings to ``out`` as CSV (`CSV_COLUMNS`); the rows written.

    Every text is cleaned as the host cleans a name, and a text a spreadsheet would take for a
    formula is written after a ``'`` (as ``capicu history --csv`` writes).
    """
    writer = csv.writer(out)
    writer.writerow(CSV_COLUMNS)
    night = kept.night
    written = 0
    for place, standing in enumerate(kept.standings, 1):
        names = "; ".join
        cells: list[str | int] = [
            not_a_formula(_clean(kept.name)), place, not_a_formula(kept.name_of(standing.entrant)),
            "yes" if not night.entrants[standing.entrant].active else "", standing.played, standing.won,
            standing.difference, standing.points_for, standing.points_against, standing.byes,
            standing.computer_seats, standing.buchholz, standing.head_to_head,
            not_a_formula(names(kept.name_of(o) for o in standing.opponents)),
            not_a_formula(names(kept.name_of(p) for p in standing.partners)),
        ]
        writer.writerow(cells)
        written += 1
    return written


class PageWords(msgspec.Struct, frozen=True):
    """The words of the printed standings, in the language spoken (the interface gives them).

    ``title`` and ``subtitle`` are whole sentences; ``columns`` the table's titles in the order
    `standings_html` fills them: place, name, played, won, difference, points for, against,
    byes, computer seats, Buchholz, head to head, opponents.
    """

    language: str
    title: str
    subtitle: str
    columns: tuple[str, ...]
    #: Said after the name of someone who left the night.
    left: str


_PAGE_STYLE = """
body { font-family: Georgia, 'Times New Roman', serif; margin: 2em; color: #000; background: #fff; }
h1 { font-size: 2em; margin-bottom: 0.1em; }
p.subtitle { margin-top: 0; color: #333; }
table { border-collapse: collapse; width: 100%; font-size: 1.05em; }
th, td { border: 1px solid #444; padding: 0.3em 0.5em; text-align: right; }
th { background: #eee; }
td.name, td.list, th.name, th.list { text-align: left; }
tr:nth-child(even) td { background: #f6f6f6; }
@media print { body { margin: 0; } tr { page-break-inside: avoid; } }
"""


def standings_html(kept: KeptNight, words: PageWords) -> str:
    """A printable HTML page of the night's standings: one table, every text escaped."""
    def cell(value: object, kind: str = "") -> str:
        css = f' class="{kind}"' if kind else ""
        return f"<td{css}>{html.escape(str(value))}</td>"

    names = ", ".join
    rows = []
    for place, standing in enumerate(kept.standings, 1):
        name = kept.name_of(standing.entrant)
        if not kept.night.entrants[standing.entrant].active:
            name += f" ({words.left})"
        rows.append("<tr>" + "".join([
            cell(place), cell(name, "name"), cell(standing.played), cell(standing.won),
            cell(f"{standing.difference:+d}" if standing.difference else "0"), cell(standing.points_for),
            cell(standing.points_against),
            cell(standing.byes), cell(standing.computer_seats), cell(standing.buchholz),
            cell(standing.head_to_head), cell(names(kept.name_of(o) for o in standing.opponents), "list"),
        ]) + "</tr>")
    kinds = {1: "name", 11: "list"}
    heads = "".join(f'<th class="{kinds[i]}">' + html.escape(title) + "</th>" if i in kinds
                    else "<th>" + html.escape(title) + "</th>" for i, title in enumerate(words.columns))
    title = html.escape(words.title)
    return "\n".join([
        "<!DOCTYPE html>",
        f'<html lang="{html.escape(words.language, quote=True)}">',
        '<head><meta charset="utf-8">',
        f"<title>{title}</title>",
        f"<style>{_PAGE_STYLE}</style></head>",
        "<body>",
        f"<h1>{title}</h1>",
        f'<p class="subtitle">{html.escape(words.subtitle)}</p>',
        "<table>",
        f"<thead><tr>{heads}</tr></thead>",
        "<tbody>",
        *rows,
        "</tbody></table>",
        "</body></html>",
        "",
    ])


def standings_files(base: Path) -> tuple[Path, Path]:
    """Where ``capicu club --standings FILE`` writes: FILE.csv and FILE.html (a suffix given is dropped)."""
    if base.suffix.lower() in (".csv", ".html", ".htm"):
        base = base.with_suffix("")
    return base.with_name(base.name + ".csv"), base.with_name(base.name + ".html")


def write_standings(kept: KeptNight, base: Path, words: PageWords) -> tuple[Path, Path]:
    """Write the night's standings as FILE.csv and FILE.html (`standings_files`); the two paths.

    Each file is written whole beside its place and renamed into it, so a reader never sees half.
    OSError when a file cannot be written.
    """
    csv_path, html_path = standings_files(base)
    _write_whole(csv_path, lambda out: write_standings_csv(kept, out), newline="")
    _write_whole(html_path, lambda out: out.write(standings_html(kept, words)))
    return csv_path, html_path


def _write_whole(path: Path, fill: Callable[[TextIO], object], *, newline: str | None = None) -> None:
    partial = path.with_name(path.name + ".partial")
    try:
        with partial.open("w", encoding="utf-8", newline=newline) as out:
            fill(out)
        partial.replace(path)
        _sync_directory(path)
    finally:
        partial.unlink(missing_ok=True)


__all__ = [
    "CLUBS_FILE",
    "CSV_COLUMNS",
    "JOURNAL_FORMAT",
    "ClubHeader",
    "ClubHistory",
    "ClubHistoryError",
    "ClubJournal",
    "KeptNight",
    "PageWords",
    "RecoveredNight",
    "clubs_path",
    "keep_night",
    "not_a_formula",
    "open_club_history",
    "read_club_journal",
    "standings_files",
    "standings_html",
    "write_standings",
    "write_standings_csv",
]
