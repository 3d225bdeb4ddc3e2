"""The match journal: a durable record from which a crashed host resumes its match.

One record a line: eight hex digits of the line's CRC-32, a space, then JSON.
The first record is the header (the match log's header, the match's id, and
the seats with their names, secret tokens and seat keys, so that players
reclaim their seats after a restart), written when the first seat is handed
out; a ``seats`` record says the seats again whenever they change in the
lobby; every other record holds one entry of `Match.log()` (a deal or an
action), and, for a move the computer made for an absent person (covering
their seat, or on their turn timer), how many of its events it made
(``covered``), so that a restarted host still tells that person which moves
were not theirs (docs/PROTOCOL.md, section 4, ``covered``; a journal written
before says none). A record is written and fsynced before anyone hears of what it
holds. The writes and fsyncs run in a worker thread, never on the event loop,
and records that arrive while one fsync runs are grouped into the next.

A crash can only cut the last record short: a file whose last line is cut or
damaged is read up to it, and the caller is told what was dropped. The file
cannot tell a crash from a file cut by hand (inside the middle of its match),
so before a host drops the tail to write on, it keeps the file as it was
beside it (`Journal.reopen`). A damaged line with good lines after it was not
made by a crash; the journal is refused (`JournalError`), and nothing in it is
changed.

The journal holds every deal (the order of the whole set) and the seats'
tokens: it is the host's secret, created readable by its owner only
(mode 0600). Every hosted match keeps one by default, in the user data folder
(net/store/journals.py names the files, offers the unfinished ones and prunes the
finished ones).

Each record is declared once as a msgspec Struct (`Header`, `SeatsRecord`,
`EntryRecord`): msgspec writes its JSON and checks it when it is read back,
a record that breaks its declaration naming its line and field.
"""

from __future__ import annotations

import asyncio
import os
import zlib
from collections.abc import Sequence
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any, Generic, Literal, TypeVar

import msgspec
from capicu.core import Rules
from capicu.core.games import game_of_log, match_from_log
from capicu.net import wire
from capicu.net.codes import normal_code
from capicu.net.protocol import MOST_SEATS, SeatKind
from msgspec import UNSET, Meta, Struct, UnsetType

from .record import Entry, UtcTime

FORMAT: Literal["capicu-journal/1"] = "capicu-journal/1"
T = TypeVar("T")
#: The rules type of the journalled match's game (core/games.py).
R = TypeVar("R", bound=Rules)

class JournalSeat(Struct, frozen=True):
    """A seat as the journal keeps it: who it is for, and the secrets that give it back."""

    kind: SeatKind
    name: str | None = None
    token: str | None = None
    key: str | None = None


class Header(Struct, Generic[R], frozen=True, kw_only=True):
    """The journal's first record: the match log's header, the match's id and the seats.

    Its rules are of the game's rules type: read back as ``Header[that type]``, the
    game its ``log_format`` names (core/games.py).
    """

    format: Literal["capicu-journal/1"] = FORMAT
    log_format: str
    rules: R
    players: Annotated[int, Meta(ge=2, le=MOST_SEATS)]
    seed: int
    #: The last public event number before the first entry.
    seq: Annotated[int, Meta(ge=0)] = 0
    #: The table's name, its match's id and its computers' level (a journal of an older
    #: host may lack them: the host's own are used).
    table: str | None = None
    match: str = ""
    computer_level: str | None = None
    seats: Annotated[tuple[JournalSeat, ...], Meta(max_length=MOST_SEATS)]
    pause_between_rounds: bool = False
    #: When the match's first deal was made (UTC, as a match record writes it), once it was:
    #: a resumed match's record says when it began. Left out before (the bytes of before).
    started: UtcTime | UnsetType = UNSET


class SeatsRecord(Struct, frozen=True):
    """The seats as they are now (in the lobby, where they change): the header's, replaced.

    The last one, written as the match starts, says when (``started``, as the header's).
    """

    seats: Annotated[tuple[JournalSeat, ...], Meta(max_length=MOST_SEATS)]
    started: UtcTime | UnsetType = UNSET


class EntryRecord(Struct, frozen=True):
    """One entry of the match log, and the last public event number once it applies."""

    entry: Entry
    seq: Annotated[int, Meta(ge=0)] = 0
    #: The entry is a move the computer made for an absent person's seat: how many public events, from
    #: its first on, it made for them (`GameSnapshot.covered`). Left out otherwise (the bytes of before).
    covered: Annotated[int, Meta(ge=1)] | UnsetType = UNSET


class JournalError(Exception):
    """A journal that cannot be read or written; the message names the file and the problem."""


class JournalChanged(JournalError):
    """A damaged line with good lines after it: not a crash's doing, so the file was changed."""


def encode_record(record: Header[Any] | SeatsRecord | EntryRecord) -> bytes:
    """One line of the journal: the CRC-32 of the record's JSON, a space, the JSON."""
    text = msgspec.json.encode(wire.plain(record))
    return b"%08x %s\n" % (zlib.crc32(text), text)


def entry_records(entries: Sequence[Any], seq: int, *, covered: int = 0) -> list[EntryRecord]:
    """One record per entry of the match log (``seq``: the last event number once they apply); with
    ``covered``, the first is a move the computer made for an absent person, that many events of it."""
    records = [EntryRecord(entry, seq) for entry in entries]
    if covered and records:
        records[0] = EntryRecord(entries[0], seq, covered)
    return records


class Recovered(msgspec.Struct, frozen=True):
    """What a journal file holds: its header, its entries, and what was dropped."""

    #: The header, its seats replaced by the last seats record of the lobby.
    header: Header[Any]
    entries: list[Any]
    #: Bytes of the file that hold whole, intact records (the rest was dropped).
    good_size: int
    #: The number of the last public event these entries produced.
    seq: int
    #: A sentence saying what was dropped, or None when the whole file was good.
    damage: str | None
    #: The number (from 1) of the line dropped with everything after it; None when none was.
    dropped_line: int | None = None
    #: Whether that line was cut short (the host stopped while writing it), not damaged.
    cut_short: bool = False
    #: The bytes dropped from that line on.
    dropped_bytes: int = 0
    #: The lines dropped (that line and any after it, none of them good): the entries lost, at most.
    dropped_lines: int = 0
    #: Each entry's line in the file (numbered from 1) and its ``seq``, in order (`check_numbering`).
    numbered: tuple[tuple[int, int], ...] = ()
    #: The entries that are moves the computer made for an absent person: (the entry's index in
    #: ``entries``, how many of its events it made for them), in order.
    covering: tuple[tuple[int, int], ...] = ()

    def match_log(self) -> dict[str, Any]:
        """The match log this journal records (for core's `match_from_log`)."""
        header = self.header
        log = {
            "format": header.log_format,
            "rules": header.rules,
            "players": header.players,
            "seed": header.seed,
            "entries": list(self.entries),
        }
        if header.pause_between_rounds:
            log["pause_between_rounds"] = True
        return log


def read_journal(path: Path) -> Recovered:
    """The records of the journal at ``path``, up to the last whole intact one."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise JournalError(f"cannot read the journal {path}: {exc.strerror or exc}") from None
    records: list[Any] = []
    offset = 0
    damage = None
    cut_short = False
    line_number = 0
    while offset < len(data):
        line_number += 1
        end = data.find(b"\n", offset)
        if end < 0:
            damage = f"line {line_number} was cut short (the host stopped while writing it)"
            cut_short = True
            break
        line = data[offset:end]
        record = _parse_line(line)
        if record is None:
            if any(_parse_line(later) is not None for later in data[end + 1 :].split(b"\n")):
                raise JournalChanged(
                    f"{path}: line {line_number} is damaged and good lines follow it; a crash "
                    "only cuts the last line short, so the file was changed: it is left as it is"
                )
            damage = f"line {line_number} is damaged"
            break
        records.append(record)
        offset = end + 1
    if damage is not None:
        damage += f"; {len(data) - offset} bytes from there on are dropped"
    if not records:
        raise JournalError(f"{path} holds no readable journal header")
    first = records[0]
    if not isinstance(first, dict) or first.get("format") != FORMAT:
        raise JournalError(f"{path} is not a capicu journal (expected format {FORMAT!r})")
    rules_type = game_of_log({"format": first.get("log_format")}).rules_type
    header: Header[Any] = _record(path, 1, first, Header[rules_type])  # type: ignore[valid-type]
    entries: list[Any] = []
    numbered: list[tuple[int, int]] = []
    covering: list[tuple[int, int]] = []
    seq = header.seq
    for number, record in enumerate(records[1:], 2):
        if isinstance(record, dict) and "seats" in record and not entries:
            seats = _record(path, number, record, SeatsRecord)
            header = msgspec.structs.replace(header, seats=seats.seats)
            if seats.started is not UNSET:
                header = msgspec.structs.replace(header, started=seats.started)
            continue
        entry = _record(path, number, record, EntryRecord)
        if entry.covered is not UNSET:
            covering.append((len(entries), entry.covered))
        entries.append(entry.entry)
        numbered.append((number, entry.seq))
        seq = entry.seq
    dropped = data[offset:]
    return Recovered(header, entries, offset, seq, damage, line_number if damage is not None else None,
                     cut_short, len(dropped), _line_count(dropped), tuple(numbered), tuple(covering))


def _line_count(data: bytes) -> int:
    """The lines ``data`` holds, a last one without its newline (cut short) counted too; 0 for none."""
    return data.count(b"\n") + (1 if data and not data.endswith(b"\n") else 0)


def check_numbering(recovered: Recovered, counted: Sequence[int]) -> None:
    """`JournalError` unless each entry's ``seq`` is the number its events reached when it was written.

    ``counted``: after each entry, the number of the last public event, counted by replaying the
    entries from the header's ``seq``. The entries one host's move wrote together share the number
    their last one reached. A journal of a host from before the numbers (every ``seq`` 0) is not checked.
    The last entry of a journal cut short may lack the rest of its move: it may say more than it reached.
    """
    numbered = recovered.numbered
    if not any(seq for _, seq in numbered):
        return
    for index, ((line, seq), reached) in enumerate(zip(numbered, counted, strict=True)):
        following = numbered[index + 1] if index + 1 < len(numbered) else None
        last_of_move = following is None or following[1] != seq
        torn_tail = following is None and recovered.damage is not None
        if seq < reached or (last_of_move and seq != reached and not torn_tail):
            if following is not None and seq > reached and counted[index + 1] == seq:
                # This entry waits for the rest of its move, and the next one, which ends it, says otherwise.
                (line, seq), reached = following, counted[index + 1]
            raise JournalError(
                f"line {line} of the journal numbers the match's events up to {seq}, but its entries "
                f"reach {reached}: entries are numbered in order, so the file was changed by hand")


def _record(path: Path, number: int, data: Any, kind: type[T]) -> T:
    """The record of line ``number``, read by its declaration; `JournalError` naming the field."""
    try:
        return wire.read(data, kind)
    except msgspec.ValidationError as exc:
        problem = wire.sentence(exc, "record")
        raise JournalError(f"{path}: line {number} is not a journal record: {problem}") from None


def _parse_line(line: bytes) -> Any | None:
    if len(line) < 10 or line[8:9] != b" ":
        return None
    try:
        crc = int(line[:8], 16)
    except ValueError:
        return None
    body = line[9:]
    if zlib.crc32(body) != crc:
        return None
    try:
        return msgspec.json.decode(body)
    except msgspec.DecodeError:
        return None


class Journal:
    """A journal file that records are appended to, durably and in order.

    Nothing here blocks the event loop: `write` queues records and
    return a future, and one writer task hands the queued bytes to a worker
    thread that writes and fsyncs them; records queued meanwhile share the
    next fsync.
    """

    def __init__(self, path: Path, file: Any = None, *, kept_as: Path | None = None) -> None:
        self.path = path
        #: Where the file was kept as it was before its damaged tail was dropped (`reopen`).
        self.kept_as = kept_as
        self._file = file
        self._pending: list[tuple[bytes, asyncio.Future[None]]] = []
        self._writer: asyncio.Task[None] | None = None
        self._failed: JournalError | None = None

    @classmethod
    def reopen(cls, path: Path, recovered: Recovered) -> Journal:
        """The journal at ``path`` opened for appending after its last good record.

        A damaged tail is cut off first, so that new records follow good ones, once the
        file as it was is kept beside it (`kept_as`: ``<name>.torn-<n>``, readable by its
        owner only, as the journal): a tail that was not a crash's can still be looked into.
        Blocking: call it before serving or from a worker thread.
        """
        kept_as = None
        try:
            file = open(path, "r+b", buffering=0)  # noqa: SIM115 (kept open for the match)
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
            raise JournalError(f"cannot append to the journal {path}: {exc.strerror or exc}") from None
        return cls(path, file, kept_as=kept_as)

    def write(self, records: Sequence[Header[Any] | SeatsRecord | EntryRecord]) -> asyncio.Future[None]:
        """Queue whole ``records``; the future is done once they are on disk (in order)."""
        return self._queue(b"".join(encode_record(r) for r in records))

    def _queue(self, data: bytes) -> asyncio.Future[None]:
        loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()
        if self._failed is not None:
            future.set_exception(self._failed)
            return future
        self._pending.append((data, future))
        if self._writer is None or self._writer.done():
            self._writer = loop.create_task(self._write_pending())
        return future

    async def _write_pending(self) -> None:
        while self._pending:
            batch, self._pending = self._pending, []
            data = b"".join(d for d, _ in batch)
            try:
                await asyncio.to_thread(self._write_sync, data)
            except OSError as exc:
                self._failed = JournalError(
                    f"cannot write the journal {self.path}: {exc.strerror or exc}"
                )
            for _, future in batch:
                if future.done():
                    continue
                if self._failed is not None:
                    future.set_exception(self._failed)
                else:
                    future.set_result(None)

    def _write_sync(self, data: bytes) -> None:
        if self._file is None:
            fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            self._file = os.fdopen(fd, "wb", buffering=0)
            _sync_directory(self.path)
        _write_all(self._file, data)
        os.fsync(self._file.fileno())

    async def close(self) -> None:
        """Wait for the queued records, then close the file."""
        while self._writer is not None and not self._writer.done():
            await asyncio.shield(self._writer)
        if self._file is not None:
            self._file.close()
            self._file = None


def _keep_a_copy(path: Path, file: Any) -> Path:
    """Copy the open journal ``file`` to a new ``<path>.torn-<n>`` beside it, synced; the copy's path."""
    number = 1
    while True:
        copy = path.with_name(f"{path.name}.torn-{number}")
        try:
            descriptor = os.open(copy, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            number += 1
            continue
        break
    with os.fdopen(descriptor, "wb") as out:
        file.seek(0)
        while chunk := file.read(1 << 20):
            _write_all(out, chunk)
        out.flush()
        os.fsync(out.fileno())
    _sync_directory(path)
    return copy


def _write_all(file: Any, data: bytes) -> None:
    view = memoryview(data)
    while view:
        written = file.write(view)
        view = view[written:]


def _sync_directory(path: Path) -> None:
    """Make a new file's directory entry durable too (POSIX only; best effort elsewhere)."""
    try:
        fd = os.open(path.parent if str(path.parent) else ".", os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def seat_keys(path: Path) -> set[str]:
    """The seat keys the journal at ``path`` handed out (in their compared form, `normal_code`);
    empty when it cannot be read. Only its header and the lobby's seats records are read."""
    keys: set[str] = set()
    try:
        with open(path, "rb") as file:
            for number, line in enumerate(file, 1):
                record = _parse_line(line.rstrip(b"\n"))
                if not isinstance(record, dict) or not isinstance(seats := record.get("seats"), list):
                    break  # the first entry: the lobby is over
                if number == 1 and record.get("format") != FORMAT:
                    break
                keys.update(normal_code(seat["key"]) for seat in seats
                            if isinstance(seat, dict) and isinstance(seat.get("key"), str))
    except OSError:
        pass
    return keys


class Keep(StrEnum):
    """Why a journal should not be replaced without a word (`worth_keeping`)."""

    #: It holds a match that is not over (or not begun): ``--resume`` goes on with it.
    UNFINISHED = "unfinished"
    #: A line before its end is damaged (`JournalChanged`): it cannot be resumed, and it is
    #: still the only record of its match.
    CHANGED = "changed"


def worth_keeping(path: Path) -> Keep | None:
    """Why the journal at ``path`` is worth keeping from being replaced; None when it is not.

    None for a finished match, a file that is not a journal, or one that cannot be read.
    """
    try:
        recovered = read_journal(path)
    except JournalChanged:
        return Keep.CHANGED
    except JournalError:
        return None
    try:
        log = recovered.match_log()
        unfinished = not log["entries"] or not match_from_log(log).is_over
    except (KeyError, TypeError, ValueError):
        return None
    return Keep.UNFINISHED if unfinished else None
