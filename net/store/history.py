"""The history of every finished match, kept in an SQLite database beside the match records.

One file, ``history.sqlite3`` (`HISTORY_FILE`) in the folder of records (the user
data folder's ``records/``; net/store/archive.py adds each match as its record is
written), holds every match this machine kept: a player's client keeps the matches
it sat at (and which seat was its player's), a host keeps those played at its table
(a club night's standings). Both may share one folder (a game against the computer
hosts and plays in one process): a match is kept once, by its match id, and
remembers both keepers.

- **Schema by version number.** ``PRAGMA user_version`` says which of `MIGRATIONS`
  a file has had; opening it applies the rest in order, each step and its new
  version number in one transaction, so a file is always at one version or the next
  (and two keepers opening a new file at once apply each step once).
- **Writes in transactions.** A match is added in one transaction (``BEGIN
  IMMEDIATE`` ... ``COMMIT``) with ``synchronous=FULL``: once `History.add` returns,
  the match is on disk, and a process killed in the middle of the next one loses only
  that one.
- **The default rollback journal, not WAL.** A history is written once a match and
  read by one screen or command: WAL's gain (readers never wait for a writer) buys
  nothing here, while it needs shared memory beside the file (not on a network home
  folder) and leaves three files where one is easy to copy. With the rollback
  journal the file at rest is the whole history.
- **A damaged file costs the history, never the game.** `open_history` sets a file
  SQLite cannot read aside (renamed beside it, to be looked at or deleted) and starts
  a new one; it says so with a `HistoryProblem` that the interface words.

The figures (`Figures`) are counted for a player's seats: by name, or the seats
this machine's player sat in (`MY_SEATS`): the matches played and won, and each
game's own figures, as the game declares them (core/figures.py, `GameSpec.figures`:
the Draw family's rounds, points, capicús and chuchazos, Mexican Train's counts,
Fives and Threes' hands, points and best play). Each seat's values are kept with
the match (the ``figures`` table, by game and figure name) and summed, or their
best taken, as declared: no figure of one game is added to another's, since a
point of one is not a point of the other, and a new game adds no line here. A
year is a calendar year of the matches' ends, in UTC; the caller says which
(`this_year` reads the clock it is given).
"""

from __future__ import annotations

import contextlib
import csv
import re
import sqlite3
from collections.abc import Iterator, Mapping, Sequence
from datetime import UTC, datetime
from functools import cache
from pathlib import Path
from typing import Any, TextIO

import msgspec
from capicu.core.codes import Statement
from capicu.core.draw.scoring import Bonus
from capicu.core.figures import Combine, RoundFacts
from capicu.core.games import FIVES, GAMES, LINE, MEXICAN_TRAIN, game_of, match_from_log
from capicu.net.host.sanitize import clean_text

from . import record as records
from .keeping import HistoryProblem, KeptBy
from .record import MatchRecord, RecordSeat

try:  # POSIX; elsewhere opening is not locked (net/store/journals.py does the same)
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]

HISTORY_FILE = "history.sqlite3"
#: Beside it, the file locked while a history is opened (`open_history`).
LOCK_SUFFIX = ".lock"
#: How long a write waits for another process's (a host and its player share a file).
BUSY_SECONDS = 10.0
#: The game of a match as the file keeps it: its name in the registry (core/games.py).
LINE_GAME = LINE.name
TRAIN_GAME = MEXICAN_TRAIN.name
FIVES_GAME = FIVES.name
#: The seats this machine's player sat in, for the queries' ``player``.
MY_SEATS = None


# -- the schema -----------------------------------------------------------------------------

#: Each step brings a file from the version before to its own (step 1 makes version 1).
#: A step is never changed once released: a new need is a new step at the end.
MIGRATIONS: tuple[str, ...] = (
    # 1: matches, their seats (sides are partners), every round, each seat's count, the bonuses.
    """
    CREATE TABLE matches (
        id INTEGER PRIMARY KEY,
        match_id TEXT NOT NULL UNIQUE,
        started TEXT NOT NULL,
        ended TEXT NOT NULL,
        preset TEXT NOT NULL,
        game TEXT NOT NULL,
        players INTEGER NOT NULL,
        rounds INTEGER NOT NULL,
        record_path TEXT,
        me INTEGER
    );
    CREATE TABLE seats (
        match INTEGER NOT NULL REFERENCES matches(id) ON DELETE CASCADE,
        seat INTEGER NOT NULL,
        name TEXT NOT NULL,
        kind TEXT NOT NULL,
        level TEXT,
        side INTEGER NOT NULL,
        score INTEGER NOT NULL,
        won INTEGER NOT NULL,
        PRIMARY KEY (match, seat)
    );
    CREATE TABLE rounds (
        match INTEGER NOT NULL REFERENCES matches(id) ON DELETE CASCADE,
        round_number INTEGER NOT NULL,
        reason TEXT NOT NULL,
        last_player INTEGER NOT NULL,
        winner_side INTEGER,
        points INTEGER NOT NULL,
        PRIMARY KEY (match, round_number)
    );
    CREATE TABLE round_counts (
        match INTEGER NOT NULL,
        round_number INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        count INTEGER NOT NULL,
        PRIMARY KEY (match, round_number, seat),
        FOREIGN KEY (match, round_number) REFERENCES rounds(match, round_number) ON DELETE CASCADE
    );
    CREATE TABLE bonuses (
        match INTEGER NOT NULL,
        round_number INTEGER NOT NULL,
        bonus TEXT NOT NULL,
        points INTEGER NOT NULL,
        FOREIGN KEY (match, round_number) REFERENCES rounds(match, round_number) ON DELETE CASCADE
    );
    """,
    # 2: who kept each match (a host keeps its table's); version 1 only kept a player's own.
    """
    ALTER TABLE matches ADD COLUMN by_player INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE matches ADD COLUMN by_host INTEGER NOT NULL DEFAULT 0;
    UPDATE matches SET by_player = 1;
    CREATE INDEX matches_by_end ON matches(ended);
    CREATE INDEX seats_by_name ON seats(name COLLATE NOCASE);
    """,
    # 3: each seat's figures, as its game declares them (core/figures.py); the matches kept before
    # get theirs from the tables above (a Fives and Threes match's best play was not kept: none).
    """
    CREATE TABLE figures (
        match INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        figure TEXT NOT NULL,
        value INTEGER NOT NULL,
        PRIMARY KEY (match, seat, figure),
        FOREIGN KEY (match, seat) REFERENCES seats(match, seat) ON DELETE CASCADE
    );
    INSERT INTO figures (match, seat, figure, value)
        SELECT s.match, s.seat, 'rounds', m.rounds FROM seats s JOIN matches m ON m.id = s.match
        WHERE m.game IN ('line', 'mexican-train');
    INSERT INTO figures (match, seat, figure, value)
        SELECT s.match, s.seat, 'hands', m.rounds FROM seats s JOIN matches m ON m.id = s.match
        WHERE m.game = 'fives-and-threes';
    INSERT INTO figures (match, seat, figure, value)
        SELECT s.match, s.seat, 'points', s.score FROM seats s JOIN matches m ON m.id = s.match
        WHERE m.game IN ('line', 'fives-and-threes');
    INSERT INTO figures (match, seat, figure, value)
        SELECT s.match, s.seat, 'count', s.score FROM seats s JOIN matches m ON m.id = s.match
        WHERE m.game = 'mexican-train';
    INSERT INTO figures (match, seat, figure, value)
        SELECT s.match, s.seat, lower(replace(b.bonus, 'ú', 'u')), count(b.bonus)
        FROM seats s JOIN matches m ON m.id = s.match
        LEFT JOIN rounds r ON r.match = s.match AND r.last_player = s.seat
        LEFT JOIN bonuses b ON b.match = r.match AND b.round_number = r.round_number
        WHERE m.game = 'line' AND b.bonus IN ('capicú', 'chuchazo')
        GROUP BY s.match, s.seat, b.bonus;
    INSERT INTO figures (match, seat, figure, value)
        SELECT s.match, s.seat, bonus.name, 0
        FROM seats s JOIN matches m ON m.id = s.match, (SELECT 'capicu' AS name UNION SELECT 'chuchazo') bonus
        WHERE m.game = 'line' AND NOT EXISTS (
            SELECT 1 FROM figures f WHERE f.match = s.match AND f.seat = s.seat AND f.figure = bonus.name);
    """,
)
SCHEMA_VERSION = len(MIGRATIONS)


class HistoryError(Exception):
    """The history file cannot be used (damaged, too new, or not to be opened); ``problem`` says why."""

    def __init__(self, problem: Statement[HistoryProblem]) -> None:
        super().__init__(f"{problem.code}: {problem.values}")
        self.problem = problem


# -- what is kept of a match ------------------------------------------------------------------


class SeatFacts(msgspec.Struct, frozen=True):
    """One seat of a finished match, as the history keeps it."""

    name: str
    #: "person" or "computer" (net/protocol.py's `SeatKind`).
    kind: str
    #: A computer's level ("easy", "normal", "hard"); None for a person.
    level: str | None
    #: The seat's side: its own number, or its team's with partnerships.
    side: int
    #: The side's final score (Draw family) or the seat's total count (Mexican Train).
    score: int
    won: bool
    #: (figure, value) of each figure its game declares (`GameSpec.figures`), for this seat.
    figures: tuple[tuple[str, int], ...] = ()


class MatchFacts(msgspec.Struct, frozen=True):
    """A finished match as the history keeps it (`facts_from_log` makes one from a match's log)."""

    match_id: str
    #: UTC, ISO 8601 ("2026-12-01T20:13:35Z").
    started: str
    ended: str
    preset: str
    #: Its game's name in the registry (`LINE_GAME`, `TRAIN_GAME`, `FIVES_GAME`, ...).
    game: str
    seats: tuple[SeatFacts, ...]
    rounds: tuple[RoundFacts, ...]


def facts_from_log(match_id: str, started: str, ended: str, seats: Sequence[RecordSeat],
                   log: Any) -> MatchFacts:
    """What the history keeps of the finished match ``log`` describes; ValueError if it is not one."""
    match = match_from_log(log)
    if not match.is_over:
        raise ValueError("the history keeps finished matches only")
    if len(seats) != match.players:
        raise ValueError(f"the match has {match.players} seats, not {len(seats)}")
    game = game_of(match.rules)
    declared = game.figures
    sides, totals, winners = records.outcome(match)
    seat_facts = tuple(SeatFacts(who.name, who.kind, who.level, sides[seat], totals[sides[seat]],
                                 seat in winners, declared.of_seat(match, seat))
                       for seat, who in enumerate(seats))
    return MatchFacts(match_id, utc_text(started), utc_text(ended), match.rules.preset, game.name, seat_facts,
                      tuple(declared.round_facts(result) for result in match.results))


def facts_from_record(record: MatchRecord) -> MatchFacts:
    """What the history keeps of a match record (net/store/record.py); ValueError if it does not replay."""
    return facts_from_log(record.match_id, record.started, record.ended, record.seats, record.match_log())


def utc_text(moment: str) -> str:
    """An ISO 8601 time as the history writes it (UTC, to the second, ``Z``): text order is time order."""
    parsed = datetime.fromisoformat(moment)
    # A time written without its zone is taken as UTC; then it is written as a record writes times.
    return records.utc_text(parsed if parsed.tzinfo is not None else parsed.replace(tzinfo=UTC))


def this_year(now: datetime) -> int:
    """The calendar year (UTC) of ``now``: the clock is the caller's."""
    return (now.astimezone(UTC) if now.tzinfo is not None else now).year


# -- the figures ------------------------------------------------------------------------------


class Figures(msgspec.Struct, frozen=True):
    """How a player did over some matches (see the module docstring for what is counted)."""

    played: int = 0
    won: int = 0
    #: Each game's own figures (its declaration's, core/figures.py) by (game, figure); none left
    #: out but those of no match (a game not played).
    games: Mapping[tuple[str, str], int] = msgspec.field(default_factory=dict)
    #: The matches played and won of each game, by its name (the games not played left out).
    played_by_game: Mapping[str, tuple[int, int]] = msgspec.field(default_factory=dict)

    def of(self, game: str, figure: str) -> int:
        """The player's ``figure`` of ``game`` (its name in the registry): 0 when none was kept."""
        return self.games.get((game, figure), 0)

    def per(self, game: str, figure: str, over: str) -> float | None:
        """``figure`` of ``game`` for each one of ``over`` (points per hand); None with none of those."""
        count = self.of(game, over)
        return self.of(game, figure) / count if count else None

    # The Draw family's and Mexican Train's, by the names they had before each game declared its own.

    @property
    def rounds(self) -> int:
        return self.of(LINE_GAME, "rounds")

    @property
    def points(self) -> int:
        return self.of(LINE_GAME, "points")

    @property
    def capicu(self) -> int:
        return self.of(LINE_GAME, "capicu")

    @property
    def chuchazo(self) -> int:
        return self.of(LINE_GAME, "chuchazo")

    @property
    def train_rounds(self) -> int:
        return self.of(TRAIN_GAME, "rounds")

    @property
    def train_count(self) -> int:
        return self.of(TRAIN_GAME, "count")

    @property
    def points_per_round(self) -> float | None:
        return self.per(LINE_GAME, "points", "rounds")

    @property
    def count_per_round(self) -> float | None:
        return self.per(TRAIN_GAME, "count", "rounds")


class Opponent(msgspec.Struct, frozen=True):
    """A player met across the table (partners are not opponents), and how it went against them."""

    name: str
    kind: str
    figures: Figures


class PresetFigures(msgspec.Struct, frozen=True):
    preset: str
    figures: Figures


class Standing(msgspec.Struct, frozen=True):
    """One player at a host's table (a person or a computer) and how they did there."""

    name: str
    figures: Figures
    #: ``person`` or ``computer``.
    kind: str = "person"


class MatchResult(msgspec.Struct, frozen=True):
    """One match of a player's, for the chart of results over time."""

    ended: str
    preset: str
    game: str
    won: bool
    rounds: int
    #: The side's score (Draw family) or the seat's total count (Mexican Train).
    score: int


def _bonus_count(bonus: Bonus, match: str, seat: str) -> str:
    """SQL counting the ``bonus`` paid in ``match`` for a last tile laid by ``seat`` (both SQL terms)."""
    return (f"(SELECT count(*) FROM bonuses b JOIN rounds r"
            f" ON r.match = b.match AND r.round_number = b.round_number"
            f" WHERE b.match = {match} AND r.last_player = {seat} AND b.bonus = '{bonus.value}')")


#: A game's name as the SQL below may hold it (the registry's names are such).
_GAME_NAME = re.compile(r"^[a-z][a-z-]{0,39}$")
#: How each `Combine` is done in SQL.
_AGGREGATE = {Combine.SUM: "sum", Combine.MAX: "max"}


@cache
def _declared() -> tuple[tuple[str, str, Combine], ...]:
    """(game, figure, how it combines) of every figure every game of the registry declares."""
    found = tuple((game.name, figure.name, figure.combine)
                  for game in GAMES for figure in game.figures.figures)
    for name, _, _ in found:
        if not _GAME_NAME.match(name):
            raise ValueError(f"a game's name is lower-case words joined by '-', not {name!r}")
    return found


@cache
def _figures_sql() -> str:
    """Each selected seat's figures, summed by the queries (``x`` is the seat chosen, ``m`` its match,
    ``s`` its seat row): the matches played and won in all, then played and won of each game, then
    each game's own figures as it declares them (the names are the registry's, checked above)."""
    columns = ["count(*)", "coalesce(sum(s.won), 0)"]
    for game in GAMES:
        columns += [f"coalesce(sum(m.game = '{game.name}'), 0)",
                    f"coalesce(sum(CASE WHEN m.game = '{game.name}' THEN s.won END), 0)"]
    for name, figure, combine in _declared():
        value = (f"(SELECT f.value FROM figures f WHERE f.match = x.match AND f.seat = x.seat"
                 f" AND f.figure = '{figure}')")
        columns.append(f"{_AGGREGATE[combine]}(CASE WHEN m.game = '{name}' THEN {value} END)")
    return ",\n    ".join(columns)


def _figure_count() -> int:
    return 2 + 2 * len(GAMES) + len(_declared())


def _figures(row: Sequence[Any]) -> Figures:
    played_by_game = {game.name: (int(row[2 + 2 * n]), int(row[3 + 2 * n])) for n, game in enumerate(GAMES)}
    own = row[2 + 2 * len(GAMES):_figure_count()]
    games = {(game, figure): int(value) for (game, figure, _), value in zip(_declared(), own, strict=True)
             if value is not None}
    return Figures(int(row[0]), int(row[1]), games, {game: counts for game, counts in played_by_game.items()
                                                     if counts[0]})


#: The columns `History.export_csv` writes: one row per seat per match; then `csv_columns` adds the
#: figures the games declare besides these (core/<game>/figures.py). ``capicu`` and ``chuchazo`` are
#: the Draw family's figures: empty on a row of a game that does not declare them.
CSV_COLUMNS = ("match_id", "started", "ended", "preset", "game", "players", "rounds", "seat", "name",
               "kind", "level", "side", "score", "won", "capicu", "chuchazo", "mine", "kept_by_player",
               "kept_by_host", "record")


def csv_columns() -> tuple[str, ...]:
    """`CSV_COLUMNS`, then every other figure any game declares (``points``, ``count``, ``hands``,
    ``best_play``), in the registry's order: a figure's cell is empty on a row of a game without it."""
    more: list[str] = []
    for _, figure, _ in _declared():
        if figure not in CSV_COLUMNS and figure not in more:
            more.append(figure)
    return (*CSV_COLUMNS, *more)


class History:
    """An open history database: add finished matches, ask for figures (see the module docstring)."""

    def __init__(self, connection: sqlite3.Connection, path: Path) -> None:
        self._db = connection
        self.path = path

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> History:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        """One write transaction: all of it is kept, or none of it."""
        self._db.execute("BEGIN IMMEDIATE")
        try:
            yield self._db
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")

    # -- writing --------------------------------------------------------------------------

    def add(self, facts: MatchFacts, *, kept_by: KeptBy, me: int | None = None,
            record_path: Path | str | None = None) -> bool:
        """Keep a finished match; True when it is new, False when it was kept already.

        A match kept already (the host and its player share the folder) only learns
        what this keeper knows more: who kept it, which seat was this machine's player,
        where its record is.
        """
        if me is not None and not 0 <= me < len(facts.seats):
            raise ValueError(f"there is no seat {me} in a match of {len(facts.seats)}")
        path = None if record_path is None else str(record_path)
        by_player, by_host = int(kept_by is KeptBy.PLAYER), int(kept_by is KeptBy.HOST)
        with self._transaction() as db:
            found = db.execute("SELECT id FROM matches WHERE match_id = ?", (facts.match_id,)).fetchone()
            if found is not None:
                db.execute(
                    "UPDATE matches SET me = coalesce(me, ?), record_path = coalesce(record_path, ?),"
                    " by_player = max(by_player, ?), by_host = max(by_host, ?) WHERE id = ?",
                    (me, path, by_player, by_host, found[0]))
                return False
            cursor = db.execute(
                "INSERT INTO matches (match_id, started, ended, preset, game, players, rounds, record_path,"
                " me, by_player, by_host) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (facts.match_id, utc_text(facts.started), utc_text(facts.ended), facts.preset, facts.game,
                 len(facts.seats), len(facts.rounds), path, me, by_player, by_host))
            match = cursor.lastrowid
            db.executemany(
                "INSERT INTO seats (match, seat, name, kind, level, side, score, won)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                [(match, seat, s.name, s.kind, s.level, s.side, s.score, int(s.won))
                 for seat, s in enumerate(facts.seats)])
            db.executemany(
                "INSERT INTO rounds (match, round_number, reason, last_player, winner_side, points)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                [(match, r.number, r.reason, r.last_player, r.winner_side, r.points) for r in facts.rounds])
            db.executemany(
                "INSERT INTO round_counts (match, round_number, seat, count) VALUES (?, ?, ?, ?)",
                [(match, r.number, seat, count) for r in facts.rounds for seat, count in enumerate(r.counts)])
            db.executemany(
                "INSERT INTO bonuses (match, round_number, bonus, points) VALUES (?, ?, ?, ?)",
                [(match, r.number, bonus, points) for r in facts.rounds for bonus, points in r.bonuses])
            db.executemany(
                "INSERT INTO figures (match, seat, figure, value) VALUES (?, ?, ?, ?)",
                [(match, seat, name, value)
                 for seat, s in enumerate(facts.seats) for name, value in s.figures])
        return True

    # -- reading --------------------------------------------------------------------------

    def match_count(self) -> int:
        return int(self._db.execute("SELECT count(*) FROM matches").fetchone()[0])

    def match_ids(self) -> list[str]:
        """Every match kept, oldest first."""
        return [row[0] for row in self._db.execute("SELECT match_id FROM matches ORDER BY ended, id")]

    def round_scores(self, match_id: str) -> list[tuple[int, int | None, int, tuple[int, ...]]]:
        """A match's rounds in order: (number, side that scored, points, each seat's count)."""
        counts: dict[int, list[int]] = {}
        for number, count in self._db.execute(
                "SELECT c.round_number, c.count FROM round_counts c JOIN matches m ON m.id = c.match"
                " WHERE m.match_id = ? ORDER BY c.round_number, c.seat", (match_id,)):
            counts.setdefault(number, []).append(count)
        rows = self._db.execute(
            "SELECT r.round_number, r.winner_side, r.points FROM rounds r JOIN matches m ON m.id = r.match"
            " WHERE m.match_id = ? ORDER BY r.round_number", (match_id,))
        return [(number, side, points, tuple(counts.get(number, ()))) for number, side, points in rows]

    def _chosen(self, player: str | None, year: int | None, *,
                at_host: bool = False) -> tuple[str, list[Any]]:
        """The CTE ``chosen(match, seat)`` of the seats the figures are counted over, and its params."""
        where: list[str] = []
        params: list[Any] = []
        if at_host:
            where.append("m.by_host = 1")
        elif player is None:
            where.append("s.seat = m.me")
        else:
            where.append("s.kind = 'person' AND s.name = ? COLLATE NOCASE")
            params.append(player)
        if year is not None:
            where.append("m.ended >= ? AND m.ended < ?")
            params.extend((f"{year:04d}-01-01", f"{year + 1:04d}-01-01"))
        return ("WITH chosen AS (SELECT s.match AS match, s.seat AS seat FROM seats s"
                " JOIN matches m ON m.id = s.match WHERE " + " AND ".join(where) + ")"), params

    _JOINS = (" FROM chosen x JOIN matches m ON m.id = x.match"
              " JOIN seats s ON s.match = x.match AND s.seat = x.seat")

    def figures(self, player: str | None = MY_SEATS, *, year: int | None = None) -> Figures:
        """The player's figures (by name; None: this machine's player), over ``year`` or all time."""
        chosen, params = self._chosen(player, year)
        row = self._db.execute(f"{chosen} SELECT {_figures_sql()} {self._JOINS}", params).fetchone()
        return _figures(row)

    def by_opponent(self, player: str | None = MY_SEATS, *, year: int | None = None) -> list[Opponent]:
        """Every opponent the player met (partners left out), the most met first."""
        chosen, params = self._chosen(player, year)
        rows = self._db.execute(
            f"{chosen} SELECT {_figures_sql()}, o.name, o.kind {self._JOINS}"
            " JOIN seats o ON o.match = x.match AND o.side != s.side"
            " GROUP BY o.name, o.kind ORDER BY count(*) DESC, o.name, o.kind", params)
        return [Opponent(row[_figure_count()], row[_figure_count() + 1], _figures(row)) for row in rows]

    def by_preset(self, player: str | None = MY_SEATS, *, year: int | None = None) -> list[PresetFigures]:
        """The player's figures for each preset played, the most played first."""
        chosen, params = self._chosen(player, year)
        rows = self._db.execute(
            f"{chosen} SELECT {_figures_sql()}, m.preset {self._JOINS} GROUP BY m.preset"
            " ORDER BY count(*) DESC, m.preset", params)
        return [PresetFigures(row[_figure_count()], _figures(row)) for row in rows]

    def standings(self, *, year: int | None = None) -> list[Standing]:
        """Everyone who played at this host's table, the computers too (each kind by name apart):
        the most wins first, then the fewest matches."""
        chosen, params = self._chosen(None, year, at_host=True)
        rows = self._db.execute(
            f"{chosen} SELECT {_figures_sql()}, s.name, s.kind {self._JOINS} GROUP BY s.name, s.kind"
            " ORDER BY sum(s.won) DESC, count(*), s.name, s.kind", params)
        return [Standing(row[_figure_count()], _figures(row), row[_figure_count() + 1]) for row in rows]

    def results(self, player: str | None = MY_SEATS, *, year: int | None = None) -> list[MatchResult]:
        """The player's matches in the order they ended, for a chart of results over time."""
        chosen, params = self._chosen(player, year)
        rows = self._db.execute(
            f"{chosen} SELECT m.ended, m.preset, m.game, s.won, m.rounds, s.score {self._JOINS}"
            " ORDER BY m.ended, m.id", params)
        return [MatchResult(ended, preset, game, bool(won), rounds, score)
                for ended, preset, game, won, rounds, score in rows]

    def export_csv(self, out: TextIO) -> int:
        """Write every kept match to ``out`` as CSV, one row per seat per match (`CSV_COLUMNS`).

        Returns the rows written. Every text is cleaned as the host cleans a name
        (`clean_text`: no escape sequence, control or invisible character reaches the
        terminal or the spreadsheet, whoever wrote the database), and a name that a
        spreadsheet would take for a formula (it begins with ``=``, ``+``, ``-`` or ``@``)
        is written after a ``'``.
        """
        writer = csv.writer(out)
        columns = csv_columns()
        writer.writerow(columns)
        # A seat's value of a figure its game declares (kept by `add`); NULL, an empty cell, otherwise.
        figure = "(SELECT f.value FROM figures f WHERE f.match = m.id AND f.seat = s.seat AND f.figure = ?)"
        more = columns[len(CSV_COLUMNS):]
        rows = self._db.execute(
            "SELECT m.match_id, m.started, m.ended, m.preset, m.game, m.players, m.rounds, s.seat, s.name,"
            f" s.kind, s.level, s.side, s.score, s.won, {figure}, {figure},"
            " s.seat IS m.me, m.by_player, m.by_host, m.record_path"
            + "".join(f", {figure}" for _ in more)
            + " FROM matches m JOIN seats s ON s.match = m.id ORDER BY m.ended, m.id, s.seat",
            ("capicu", "chuchazo", *more))
        written = 0
        for row in rows:
            cells = [clean_text(cell, limit=len(cell)) if isinstance(cell, str) else cell for cell in row]
            cells[8] = _not_a_formula(cells[8])
            writer.writerow("" if cell is None else cell for cell in cells)
            written += 1
        return written


def _not_a_formula(text: str) -> str:
    return "'" + text if text[:1] in ("=", "+", "-", "@") else text


# -- opening ----------------------------------------------------------------------------------


def history_path(folder: Path) -> Path:
    return folder / HISTORY_FILE


def _connect(path: Path) -> sqlite3.Connection:
    # isolation_level=None: no hidden transactions; each write says BEGIN and COMMIT itself.
    return sqlite3.connect(path, timeout=BUSY_SECONDS, isolation_level=None)


def _prepare(connection: sqlite3.Connection) -> int:
    """Set the connection up and check the file; its schema version, or sqlite3.DatabaseError
    when the file is not a sound database."""
    connection.execute("PRAGMA foreign_keys = ON")
    connection.execute("PRAGMA synchronous = FULL")
    connection.execute("PRAGMA journal_mode = DELETE")  # (the module docstring says why not WAL)
    if connection.execute("PRAGMA quick_check").fetchone()[0] != "ok":
        raise sqlite3.DatabaseError("the database is not sound")
    return int(connection.execute("PRAGMA user_version").fetchone()[0])


def migrate(connection: sqlite3.Connection, target: int = SCHEMA_VERSION) -> None:
    """Apply the steps the file lacks up to ``target``, each with its version number in one transaction.

    The version is read inside each step's transaction (``BEGIN IMMEDIATE`` holds the
    file's write lock): a host and its player opening a new history at once never
    apply a step twice; the second finds it done.
    """
    while True:
        connection.execute("BEGIN IMMEDIATE")
        try:
            number = int(connection.execute("PRAGMA user_version").fetchone()[0]) + 1
            if number > target:
                connection.execute("COMMIT")
                return
            for statement in _statements(MIGRATIONS[number - 1]):
                connection.execute(statement)
            connection.execute(f"PRAGMA user_version = {number:d}")
        except BaseException:
            connection.execute("ROLLBACK")
            raise
        connection.execute("COMMIT")


def _statements(script: str) -> Iterator[str]:
    """A migration's statements one by one (``executescript`` would commit on its own)."""
    statement = ""
    for piece in script.split(";"):
        statement += piece + ";"
        # (a ";" inside a quoted text or a comment does not end a statement)
        if sqlite3.complete_statement(statement):
            if statement.strip(" \n;"):
                yield statement.strip()
            statement = ""
    if statement.strip(" \n;"):
        raise ValueError(f"a migration ends in an unfinished statement: {statement.strip()[:60]}")


def _set_aside(path: Path) -> Path:
    """Move a damaged history (and its journal) to a free name beside it; the new name."""
    number = 1
    while (kept := path.with_name(f"{path.stem}.damaged-{number}{path.suffix}")).exists():
        number += 1
    path.rename(kept)
    journal = path.with_name(path.name + "-journal")
    if journal.exists():
        journal.rename(kept.with_name(kept.name + "-journal"))
    return kept


def _begin_anew(path: Path) -> tuple[sqlite3.Connection, int, Statement[HistoryProblem] | None]:
    """Set the damaged file at ``path`` aside and open a new one: the connection, its version, and
    what was done (None when another keeper, the host or its player, did it first meanwhile)."""
    connection = _connect(path)
    try:
        return connection, _prepare(connection), None
    except sqlite3.OperationalError:
        connection.close()
        raise
    except sqlite3.DatabaseError:
        connection.close()
    kept = _set_aside(path)
    connection = _connect(path)
    try:
        version = _prepare(connection)
    except BaseException:
        connection.close()
        raise
    return connection, version, HistoryProblem.SET_ASIDE(file=str(path), kept=str(kept))


def open_history(folder: Path) -> tuple[History, Statement[HistoryProblem] | None]:
    """The history kept in ``folder``, brought to the current schema, and what had to be done to it.

    A file SQLite cannot read is set aside and a new one begun (`HistoryProblem.SET_ASIDE`).
    `HistoryError` when there is no history to be had: the folder or file cannot be
    opened, or a newer capicu wrote it (left untouched).
    """
    path = history_path(folder)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with _opening(path):
            return _open(path)
    except OSError as exc:
        raise HistoryError(HistoryProblem.UNUSABLE(file=str(path), problem=_reason(exc))) from None


@contextlib.contextmanager
def _opening(path: Path) -> Iterator[None]:
    """Hold the history's lock file while it is opened (checked, set aside, migrated).

    A host and its player keep the same match at once: without it, one could
    rename a damaged file aside while the other has it open, which SQLite does not
    survive ("disk I/O error"). ``flock`` is released by the system when a process dies.
    """
    if fcntl is None:  # pragma: no cover - Windows: nothing to hold
        yield
        return
    with open(path.with_name(path.name + LOCK_SUFFIX), "a+b") as lock:
        fcntl.flock(lock.fileno(), fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock.fileno(), fcntl.LOCK_UN)


def _open(path: Path) -> tuple[History, Statement[HistoryProblem] | None]:
    problem: Statement[HistoryProblem] | None = None
    try:
        connection = _connect(path)
    except sqlite3.Error as exc:
        raise HistoryError(HistoryProblem.UNUSABLE(file=str(path), problem=_reason(exc))) from None
    try:
        try:
            version = _prepare(connection)
        except sqlite3.DatabaseError as exc:
            if isinstance(exc, sqlite3.OperationalError):
                raise  # locked, read-only, out of space: the file may be sound
            connection.close()
            connection, version, problem = _begin_anew(path)
        if version > SCHEMA_VERSION:
            raise HistoryError(HistoryProblem.TOO_NEW(file=str(path), version=version))
        migrate(connection)
    except HistoryError:
        connection.close()
        raise
    except (OSError, sqlite3.Error) as exc:
        connection.close()
        raise HistoryError(HistoryProblem.UNUSABLE(file=str(path), problem=_reason(exc))) from None
    return History(connection, path), problem


def _reason(exc: BaseException) -> str:
    if isinstance(exc, OSError):
        return exc.strerror or type(exc).__name__
    return str(exc) or type(exc).__name__


def keep_in_history(folder: Path, record: MatchRecord, *, kept_by: KeptBy, me: int | None = None,
                    record_path: Path | str | None = None) -> Statement[HistoryProblem] | None:
    """Add a finished match's record to the history in ``folder`` (opened and closed again); any problem.

    For the places a finished match is kept (its record written): a history that
    cannot be used never stops the record from being kept. ``me``: the seat this
    machine's player sat in (None for a host's own copy).
    """
    facts = facts_from_record(record)
    try:
        history, problem = open_history(folder)
    except HistoryError as exc:
        return exc.problem
    with history:
        try:
            history.add(facts, kept_by=kept_by, me=me, record_path=record_path)
        except sqlite3.Error as exc:
            return HistoryProblem.UNUSABLE(file=str(history.path), problem=_reason(exc))
    return problem


__all__ = [
    "CSV_COLUMNS",
    "FIVES_GAME",
    "HISTORY_FILE",
    "LINE_GAME",
    "MIGRATIONS",
    "MY_SEATS",
    "SCHEMA_VERSION",
    "TRAIN_GAME",
    "Figures",
    "History",
    "HistoryError",
    "HistoryProblem",
    "KeptBy",
    "MatchFacts",
    "MatchResult",
    "Opponent",
    "PresetFigures",
    "RoundFacts",
    "SeatFacts",
    "Standing",
    "facts_from_log",
    "facts_from_record",
    "history_path",
    "keep_in_history",
    "migrate",
    "open_history",
    "this_year",
]
