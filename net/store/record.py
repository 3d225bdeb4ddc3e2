"""The match record: a finished match, whole, as one file that anybody may read.

When a match is over everything in it is public: every deal, every hand,
every action. The host then sends each seat and spectator the match's record
(docs/PROTOCOL.md, section 4, `record`; the file is docs/RECORD.md), keeps its own copy, and every player's
client keeps the one it received; ``capicu simulate --record FILE`` writes one
for a match of computer players. The replay screen, the coach and the history
all start from a record.

A record is one msgpack map (a `MatchRecord`): its ``format`` and ``version``
first, who sat where, when the match started and ended, the match's log (its
rules as a plain map, its seed, every deal and action in order, as
core/draw/match.py's `Match.log` writes them) and its final totals and winners, so
that a list of records or the history need not replay the match to show them.
It is readable with the ``msgpack`` package alone; `decode_record` reads it
with the limits of the wire (net/codec.py) and checks that its log replays to
the totals it states, so a damaged or hostile file is refused with one
sentence (`RecordError`) and never reaches the replay.

The bytes of a record are stable: the same record encodes to the same bytes,
and its file name comes from its start and its match id, so a record written
twice (by the host and by the player, sharing one data folder) is one file.
"""

from __future__ import annotations

import contextlib
import os
import stat
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal, TypeVar

import msgspec
from capicu.core import Rules, RulesError
from capicu.core.actions import MAX_RUN
from capicu.core.engine import Engine
from capicu.core.games import GAMES, AnyMatch, GameSpec, game_of, game_of_log, match_from_log
from capicu.core.rules import SETS
from capicu.net import wire
from capicu.net.limits import MATCH_ID_LIMIT, MAX_HOST_FRAME, MAX_HOST_ITEMS, MOST_SEATS, NAME_LIMIT
from capicu.net.unpack import Flaw, UnpackLimits, Unreadable, unpack
from msgspec import Meta, Struct

RECORD_FORMAT: Literal["capicu-record"] = "capicu-record"
RECORD_VERSION = 1
#: How a record file's name ends.
RECORD_SUFFIX = ".capicu-record"
#: The folder of the user data folder (and of a host's) that records are kept in.
RECORDS_FOLDER = "records"
#: The largest record read: what a host may send in one frame (a long Mexican Train
#: match's record is some tens of KB).
MAX_RECORD_BYTES = MAX_HOST_FRAME
#: The most entries (deals and actions) a record's log may hold, and items in any list or map
#: (the most a host's message may hold: a record travels in one).
MAX_ENTRIES = MAX_HOST_ITEMS

#: A time of day in UTC, to the second, as ISO 8601 writes it: ``2026-12-01T17:02:00Z``.
UtcTime = Annotated[str, Meta(pattern=r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$")]
#: A match id as a host makes them (`secrets.token_urlsafe`): it names the record's file.
MatchId = Annotated[str, Meta(pattern=r"^[A-Za-z0-9_-]+$", min_length=1, max_length=MATCH_ID_LIMIT)]
SeatIndex = Annotated[int, Meta(ge=0, le=MOST_SEATS - 1)]
#: The most tiles a deal of any game orders: the largest set's (double-n holds (n+1)(n+2)/2).
MOST_TILES = max((n + 1) * (n + 2) // 2 for sizes in SETS.values() for n in sizes)
#: The format of a match log, as each game of the registry writes it (core/games.py).
if TYPE_CHECKING:
    from capicu.core.replay import Replay

    LogFormat = str
else:
    LogFormat = Literal[tuple(fmt for game in GAMES for fmt in (game.log_format, *game.old_log_formats))]
#: An entry of the match log (any game's ``log``): an action's text (an opening run names up
#: to `MAX_RUN` tiles), or a deal (the shuffled order of the set's tiles and the seat drawn),
#: which the match's ``from_log`` checks.
Entry = (
    Annotated[str, Meta(max_length=40 + 6 * MAX_RUN)]
    | Annotated[dict[str, int | Annotated[list[int], Meta(max_length=MOST_TILES)]], Meta(max_length=2)]
)


class RecordError(ValueError):
    """A record that cannot be read, written or trusted; the message says why in one sentence."""


class RecordSeat(Struct, frozen=True):
    """Who sat in a seat: a name, a person or the computer, and the computer's level."""

    name: Annotated[str, Meta(max_length=NAME_LIMIT)]
    kind: Literal["person", "computer"]
    #: The computer player's level (``easy``, ``normal``, ``hard``...); None for a person.
    level: Annotated[str, Meta(max_length=40)] | None = None


class RecordLog(Struct, frozen=True):
    """The match's log as its engine's ``log`` writes it, its rules as a plain map."""

    #: Which game's log it is (core/games.py: each game's log says its own format).
    format: LogFormat
    #: The rules (of the game's rules type), field by field, as the wire writes rules.
    rules: dict[str, Any]
    players: Annotated[int, Meta(ge=2, le=MOST_SEATS)]
    seed: int
    #: Every deal (a map: the shuffled order and the seat drawn; or a new deal asked for) and
    #: every action (its text: ``play 3-5 left``), in order.
    entries: Annotated[tuple[Entry, ...], Meta(max_length=MAX_ENTRIES)]
    pause_between_rounds: bool = False


class MatchRecord(Struct, frozen=True, kw_only=True):
    """A finished match: its seats, its times, its log, and how it ended."""

    format: Literal["capicu-record"] = RECORD_FORMAT
    version: int = RECORD_VERSION
    #: The host's id for the match (the welcome's ``match``).
    match_id: MatchId
    #: When the match's first deal was made, and when its last action ended it (UTC).
    started: UtcTime
    ended: UtcTime
    seats: Annotated[tuple[RecordSeat, ...], Meta(min_length=2, max_length=MOST_SEATS)]
    #: The name of the preset the rules are (or were changed from): ``puerto-rican-drawing``...
    preset: Annotated[str, Meta(max_length=40)]
    log: RecordLog
    #: The side each seat scored for, by seat: its own number, or (partnerships) 0 or 1.
    sides: Annotated[tuple[SeatIndex, ...], Meta(max_length=MOST_SEATS)]
    #: Each side's final total (points won; in Mexican Train, points counted against it).
    totals: Annotated[tuple[int, ...], Meta(max_length=MOST_SEATS)]
    #: The seats that won the match (both partners of the winning side; ties in Mexican Train).
    winners: Annotated[tuple[SeatIndex, ...], Meta(max_length=MOST_SEATS)]

    @property
    def names(self) -> tuple[str, ...]:
        """The seats' names, by seat."""
        return tuple(seat.name for seat in self.seats)

    @property
    def winner_names(self) -> tuple[str, ...]:
        """The names of the seats that won."""
        return tuple(self.seats[seat].name for seat in self.winners)

    def total_of(self, seat: int) -> int:
        """The final total of the side ``seat`` played for."""
        return self.totals[self.sides[seat]]

    @property
    def game(self) -> GameSpec:
        """The game the match was (core/games.py), as its log's format says."""
        return game_of_log({"format": self.log.format})

    def rules(self) -> Rules:
        """The match's rules as the engine's value (of its game's rules type).

        `RecordError` when the map holds no rules that can be played.
        """
        try:
            return wire.read(self.log.rules, self.game.rules_type)
        except (msgspec.ValidationError, ValueError) as exc:
            problem = wire.sentence(exc, "rules") if isinstance(exc, msgspec.ValidationError) else str(exc)
            raise RecordError(f"the record's rules cannot be played: {problem}") from None

    def match_log(self) -> dict[str, Any]:
        """The engine's log of the match, its rules a `Rules` value (for `match_from_log`, `replay`)."""
        log: dict[str, Any] = {
            "format": self.log.format,
            "rules": self.rules(),
            "players": self.log.players,
            "seed": self.log.seed,
            "entries": list(self.log.entries),
        }
        if self.log.pause_between_rounds:
            log["pause_between_rounds"] = True
        return log


T = TypeVar("T")


def utc_text(moment: datetime | float) -> str:
    """A time (a datetime, or seconds since 1970) as a record writes it: ``2026-12-01T17:02:00Z``."""
    if not isinstance(moment, datetime):
        moment = datetime.fromtimestamp(moment, UTC)
    elif moment.tzinfo is None:
        raise ValueError("a record's times are in UTC: give a datetime with its time zone")
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def outcome(match: AnyMatch | Engine[Any, Any]) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """A finished match's sides (by seat), totals (by side) and winning seats (its engine's `ending`)."""
    rules, players = match.rules, match.players
    sides = tuple(rules.side_of(seat, players) for seat in range(players))
    ending = match.ending
    assert ending is not None, "a match says how it ended only once it is over"
    return sides, ending.totals, ending.winners


def record_of(
    match: AnyMatch | Engine[Any, Any], seats: Sequence[RecordSeat], *, match_id: str,
    started: datetime | float | str,
    ended: datetime | float | str,
) -> MatchRecord:
    """The record of ``match``, finished, played in ``seats``; ValueError for a match not over.

    ``started`` and ``ended``: a datetime in UTC, seconds since 1970, or the text a record holds.
    """
    if not match.is_over:
        raise ValueError("a match is recorded only once it is over")
    if len(seats) != match.players:
        raise ValueError(f"a match of {match.players} players needs {match.players} seats, not {len(seats)}")
    log = match.log()
    sides, totals, winners = outcome(match)
    record = MatchRecord(
        match_id=match_id,
        started=started if isinstance(started, str) else utc_text(started),
        ended=ended if isinstance(ended, str) else utc_text(ended),
        seats=tuple(seats),
        preset=match.rules.preset,
        log=RecordLog(
            format=log["format"], rules=wire.plain(match.rules), players=match.players, seed=match.seed,
            entries=tuple(log["entries"]), pause_between_rounds=bool(log.get("pause_between_rounds")),
        ),
        sides=sides,
        totals=totals,
        winners=winners,
    )
    # Made as it will be read (its rules' lists are lists): the record `decode_record` gives back.
    return _decode(encode_record(record), replay=False)


# -- bytes -------------------------------------------------------------------------

_ENCODER = msgspec.msgpack.Encoder()


def encode_record(record: MatchRecord) -> bytes:
    """The record's bytes: one msgpack map, its fields in declared order (the same record, the same bytes)."""
    data: bytes = _ENCODER.encode(wire.plain(record))
    return data


def decode_record(data: bytes, *, replay: bool = True) -> MatchRecord:
    """The record ``data`` holds, checked (its log replays to its totals); `RecordError` saying why not.

    ``replay=False`` checks all but the replay (a few milliseconds a match): for a quick
    list of many records; read the one opened with the replay.
    """
    return _decode(data, replay=replay)


def _decode(data: bytes, *, replay: bool) -> MatchRecord:
    if len(data) > MAX_RECORD_BYTES:
        raise RecordError(f"the record is too large ({len(data)} bytes; at most {MAX_RECORD_BYTES} are read)")
    value = _unpack(data)
    if type(value) is not dict or value.get("format") != RECORD_FORMAT:
        raise RecordError("this is not a capicu match record")
    version = value.get("version")
    if type(version) is not int:
        raise RecordError("the record does not say its version")
    if version > RECORD_VERSION:
        raise RecordError(f"the record was written by a newer capicu (record version {version}; "
                          f"this one reads version {RECORD_VERSION})")
    if version < 1:
        raise RecordError(f"the record's version {version} was never written")
    try:
        record = wire.read(value, MatchRecord)
    except msgspec.ValidationError as exc:
        raise RecordError(f"the record is damaged: {wire.sentence(exc, 'record')}") from None
    return _checked(record, replay=replay)


#: The most a record's bytes may hold: a host's frame's size and items, the wire's depth.
_LIMITS = UnpackLimits(max_bytes=MAX_RECORD_BYTES, max_items=MAX_ENTRIES)
#: What each flaw of a record's bytes is, in a record's words.
_FLAWS = {
    Flaw.EMPTY: "the record is empty",
    Flaw.TOO_LARGE: "the record is too large (at most {max_bytes} bytes are read)",
    Flaw.NOT_MSGPACK: "this is not a capicu match record (it is not msgpack data)",
    Flaw.CUT_SHORT: "the record is cut short (it ends inside a value)",
    Flaw.EXTRA_DATA: "the record is damaged: bytes follow its end",
    Flaw.NOT_UTF8: "the record is damaged: a text in it is not valid UTF-8",
    Flaw.TOO_MANY_ITEMS: "the record is damaged: a list or a map in it holds more than {max_items} items",
    Flaw.TOO_DEEP: "the record is damaged: it nests deeper than {max_depth} levels",
    Flaw.BINARY: "the record is damaged: it holds binary data, which records never use",
    Flaw.EXTENSION: "the record is damaged: it holds a msgpack extension type, which records never use",
}


def _unpack(data: bytes) -> Any:
    """One msgpack value, under the wire's limits (net/unpack.py, as net/codec.py reads frames);
    `RecordError` otherwise."""
    try:
        return unpack(data, _LIMITS)
    except Unreadable as exc:
        first = exc.first
        if exc.flaw is Flaw.EXTRA_DATA and (type(first) is not dict or first.get("format") != RECORD_FORMAT):
            raise RecordError("this is not a capicu match record") from None
        limits = exc.limits
        raise RecordError(_FLAWS[exc.flaw].format(
            max_bytes=limits.max_bytes, max_items=limits.max_items, max_depth=limits.max_depth)) from None


def check_record(record: MatchRecord) -> MatchRecord:
    """``record`` once its parts agree and its log replays to its totals (as `decode_record` checks
    a file); `RecordError` saying why not. For a record that came in a message."""
    return _checked(record, replay=True)


def _checked(record: MatchRecord, *, replay: bool) -> MatchRecord:
    """``record``, once its parts agree and (``replay``) its log replays to its totals; `RecordError`."""
    players = record.log.players
    if len(record.seats) != players:
        raise RecordError(f"the record names {len(record.seats)} seats for a match of {players} players")
    if _game_of_preset(record.log.rules.get("preset")) not in (None, record.game):
        raise RecordError("the record's log is not of the game its rules are")
    for name, moment in (("started", record.started), ("ended", record.ended)):
        try:
            datetime.strptime(moment, "%Y-%m-%dT%H:%M:%SZ")
        except ValueError:
            raise RecordError(f"the record is damaged: record.{name} {moment!r} is not a real time") from None
    if record.started > record.ended:
        raise RecordError("the record's match ends before it starts")
    if replay:
        _check_ending(record, _replayed(record, match_from_log))
    return record


def finished_match(record: MatchRecord) -> AnyMatch:
    """The finished match ``record``'s log replays to, once the record checks (as `check_record`);
    `RecordError` saying why not."""
    _checked(record, replay=False)
    match = _replayed(record, match_from_log)
    _check_ending(record, match)
    return match


def _game_of_preset(name: Any) -> GameSpec | None:
    """The game of the preset ``name`` (None: no preset of that name)."""
    try:
        return game_of(Rules.preset_named(name)) if type(name) is str else None
    except RulesError:
        return None


def _replayed(record: MatchRecord, play: Callable[[dict[str, Any]], T]) -> T:
    """``play(log)`` of the record's log; `RecordError` when the log does not replay."""
    try:
        return play(record.match_log())
    except RecordError:
        raise
    except (ValueError, TypeError, KeyError, IndexError) as exc:
        raise RecordError(f"the record's log does not replay: {_short(exc)}") from None


def _check_ending(record: MatchRecord, match: AnyMatch) -> None:
    """`RecordError` unless ``match``, the record's log replayed, ends as the record says."""
    if not match.is_over:
        raise RecordError("the record's log stops before the match is over")
    if match.rules.preset != record.preset:
        raise RecordError(f"the record says the preset {record.preset!r}, its rules {match.rules.preset!r}")
    if outcome(match) != (record.sides, record.totals, record.winners):
        raise RecordError("the record's totals or winners are not what its log replays to")


def _short(exc: BaseException) -> str:
    return str(exc)[:200] or type(exc).__name__


# -- files -------------------------------------------------------------------------


def record_file_name(record: MatchRecord) -> str:
    """``20261201T170200Z-<match id>.capicu-record``: the start, then the match's id."""
    start = record.started.replace("-", "").replace(":", "")
    return f"{start}-{record.match_id}{RECORD_SUFFIX}"


def write_record(folder: Path, record: MatchRecord) -> Path:
    """Write ``record`` into ``folder`` (made if need be) at once or not at all; its path.

    Its name is `record_file_name`: the same record written twice (the host and the
    player, sharing one data folder) is one file. `RecordError` when it cannot be written.
    """
    path = folder / record_file_name(record)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise RecordError(f"cannot write the record {path}: {exc.strerror or exc}") from None
    return write_record_file(path, record)


def write_record_file(path: Path, record: MatchRecord) -> Path:
    """Write ``record`` to the file ``path``, whole or not at all (its folder must exist); the path.

    The bytes go to a temporary file beside it, synced, then renamed over the
    name: a reader never sees half a record. A file that holds these bytes already
    is left as it is.
    """
    data = encode_record(record)
    with contextlib.suppress(OSError):
        if path.stat().st_size == len(data) and path.read_bytes() == data:
            return path
    import tempfile  # (only for writing one: a game's start reads and writes no record)

    try:
        fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=".", suffix=RECORD_SUFFIX + ".part")
        try:
            with os.fdopen(fd, "wb") as file:
                file.write(data)
                file.flush()
                os.fsync(file.fileno())
            os.replace(temporary, path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
            raise
    except OSError as exc:
        raise RecordError(f"cannot write the record {path}: {exc.strerror or exc}") from None
    return path


def read_record(path: Path, *, replay: bool = True) -> MatchRecord:
    """The record in the file at ``path``; `RecordError` naming the file and the problem.

    ``replay``: as `decode_record`'s.
    """
    try:
        data = _record_bytes(path)
    except OSError as exc:
        raise RecordError(f"cannot read the record {path}: {exc.strerror or exc}") from None
    try:
        return decode_record(data, replay=replay)
    except RecordError as exc:
        raise RecordError(f"{path}: {exc}") from None


def _record_bytes(path: Path) -> bytes:
    """The bytes of the regular file at ``path``, at most `MAX_RECORD_BYTES` and one (`RecordError` beyond).

    A device (``/dev/zero``), a pipe or a folder is refused before a byte is read: its size
    says nothing of what it holds, and a pipe with no writer would wait forever (so it is
    opened without waiting).
    """
    descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0))
    with os.fdopen(descriptor, "rb") as file:
        status = os.fstat(descriptor)
        if not stat.S_ISREG(status.st_mode):
            raise RecordError(f"{path} is not a record: it is not a file but a device, a pipe or a folder")
        if status.st_size > MAX_RECORD_BYTES:
            raise RecordError(f"{path}: the record is too large ({status.st_size} bytes; at most "
                              f"{MAX_RECORD_BYTES} are read)")
        data = file.read(MAX_RECORD_BYTES + 1)
    if len(data) > MAX_RECORD_BYTES:  # it grew since
        raise RecordError(f"{path}: the record is too large (more than {MAX_RECORD_BYTES} bytes)")
    return data


def read_replay(path: Path) -> tuple[MatchRecord, Replay]:
    """The record in the file at ``path`` and its replay (every position), checked as `read_record`
    checks it: its log is replayed once, for both. `RecordError` naming the file and the problem."""
    from capicu.core.replay import replay as replay_log  # every position: the replay screen's, the coach's

    record = read_record(path, replay=False)
    try:
        replayed = _replayed(record, replay_log)
        _check_ending(record, replayed.match)
    except RecordError as exc:
        raise RecordError(f"{path}: {exc}") from None
    return record, replayed


def list_records(
    folder: Path, *, on_problem: Callable[[Path, RecordError], None] | None = None, replay: bool = True,
) -> list[tuple[Path, MatchRecord]]:
    """The records in ``folder``, newest first.

    A file that is no good is left out, and given to ``on_problem`` with its `RecordError`.
    ``replay``: as `decode_record`'s (False lists a season of matches at once).
    """
    found: list[tuple[Path, MatchRecord]] = []
    try:
        paths = sorted(folder.glob("*" + RECORD_SUFFIX))
    except OSError:
        return found
    for path in paths:
        if path.name.startswith("."):
            continue
        try:
            found.append((path, read_record(path, replay=replay)))
        except RecordError as exc:
            if on_problem is not None:
                on_problem(path, exc)
    found.sort(key=lambda item: (item[1].started, item[1].ended, item[1].match_id), reverse=True)
    return found


__all__ = [
    "MAX_RECORD_BYTES",
    "RECORDS_FOLDER",
    "RECORD_FORMAT",
    "RECORD_SUFFIX",
    "RECORD_VERSION",
    "MatchRecord",
    "RecordError",
    "RecordLog",
    "RecordSeat",
    "check_record",
    "decode_record",
    "encode_record",
    "list_records",
    "read_record",
    "read_replay",
    "record_file_name",
    "record_of",
    "utc_text",
    "write_record",
    "write_record_file",
]
