"""A club night's host: one evening of matches over several tables, on one `Host` (issue 33).

Usage (``capicu club`` does this; so does ``python -m capicu.net.club``)::

    club = ClubHost(ClubHostConfig(ClubConfig(rules=rules, format=ClubFormat.SWISS, rounds=3),
                                   folder=data / "clubs" / "friday", code="K7PX2M"))
    address, port = await club.start()     # resumes the night if its folder holds one
    club.organiser_key                     # the organiser's secret (for a client that organises)
    await club.start_round()               # the organiser draws round 1 (and each round after)
    await club.close_table("r2-t3")        # a late table: its score as it stands counts
    await club.stop()

People join the club as they join a table: a ``hello`` whose ``table`` is ``"club"``
(`CLUB_TABLE`), with the join code. The host welcomes them (``table`` "club", their club
token in ``token``), lists them (``club``: the roster and the night's phase) and keeps them
told (``standings``). Each round is drawn by core/club (`ClubNight.start_round`); the host
opens a table per drawn table ("r1-t2"), seats the people the draw put there with their seat
token and key (`Table.seat_drawn`), starts its match, and sends each person in the club a
``club_draw`` naming their table, seat and token: their client opens that table with the token,
as it comes back after a drop, and nobody types anything. Spectators watch any table by name.

A finished table waits; when every table of the round is done, the next round is drawn after
``round_delay`` seconds, or when the organiser says (``club_start``); the organiser may close a
late table (``club_close``), its score as it stands. A person who drops from a table is covered
by the computer after the grace period, as at any table, and their client takes the seat back
with its token when it comes back; one who leaves the club (a ``bye`` on the club's connection)
leaves for good: the computer plays their seat, and later draws leave them out.

Everything the night needs to go on is on disk before anybody hears of it: the night's journal
(net/store/club.py's `ClubJournal`: every join, leave, draw and result of `ClubNight`'s log, the
night's secret, which its tokens, organiser's key and seeds are drawn from, and who has come to their
drawn seat: a seat still awaited after a restart sits its person down, it is no return) and each table's
own match journal. After each round, and at its end, the night is kept in the club history. A host
killed with ``kill -9`` and started again on the same folder resumes the night: the draw, the
standings, and every table where it stood, its seats held for their people (the same tokens).
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import re
import secrets
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec
from capicu.core.club import (
    ClubConfig,
    ClubError,
    ClubNight,
    ClubProblem,
    DrawRound,
    MatchResult,
    Phase,
    TableDraw,
    draw_round,
)
from capicu.core.codes import Statement
from capicu.net.codec import encode_frame
from capicu.net.codes import Entropy, new_seat_key, same_code
from capicu.net.host.effects import Close, Effect, Peer, Send
from capicu.net.host.machine import Limits
from capicu.net.host.server import Announce, Host, HostConfig, HostError, HostNote, HostProblem
from capicu.net.host.table import Table, TableConfig
from capicu.net.protocol import (
    CLUB_TABLE,
    DEFAULT_PORT,
    ClubClose,
    ClubDrawn,
    ClubEntrant,
    ClubRoster,
    ClubStandings,
    ClubStart,
    ClubTable,
    Error,
    ErrorCode,
    Hello,
    HostMessage,
    ProtocolError,
    StandingRow,
    TableState,
    Welcome,
    clean_name,
    to_wire,
)
from capicu.net.store.archive import history_note
from capicu.net.store.club import ClubJournal, keep_night
from capicu.net.store.journal import JournalError
from capicu.net.store.journals import JournalLock
from capicu.net.store.record import MatchRecord, record_file_name, utc_text

from .announce import ClubAnnouncement

#: The files of a night's folder: its journal, its tables' journals, its records.
NIGHT_FILE = "night.journal"
TABLES_FOLDER = "tables"
RECORDS_FOLDER = "records"

#: The host's own journal lines (`ClubJournal.write_host`) that keep which drawn seats still await
#: their person: ``{"awaiting": round}`` as a round is drawn (every person's seat of it awaits),
#: then ``{"arrived": table, "seat": n}`` as each person first comes to their seat.
AWAITING = "awaiting"
ARRIVED = "arrived"

_TABLE_NAME = re.compile(r"r(\d+)-t(\d+)")
_CONNECTIONS = Limits().connections_per_address
#: Seconds within which the tables' points are told once a round of a match ends (at most once
#: in that time, whatever the tables: a night of many tables tells its roster once a second).
SCORES_EVERY = 1.0


def table_name(round: int, number: int) -> str:
    """The name of table ``number`` of round ``round`` on the host: ``r2-t3``."""
    return f"r{round}-t{number}"


def table_of(name: str) -> tuple[int, int] | None:
    """(round, table number) of a club table's name; None for another name."""
    found = _TABLE_NAME.fullmatch(name)
    return (int(found.group(1)), int(found.group(2))) if found else None


class ClubHostConfig(msgspec.Struct, frozen=True):
    """A club night's host: the night (`ClubConfig`), its folder, where it listens, how its tables play."""

    club: ClubConfig
    #: The night's folder: its journal, its secret, its tables' journals and its records.
    #: A folder that already holds a night resumes it (its own settings win over ``club``'s).
    folder: Path
    bind: str | None = None
    port: int = DEFAULT_PORT
    #: The join code people give to join the club, or to watch a table (None: anybody may).
    code: str | None = None
    #: The computer players' level (for computer seats, and for people covered).
    computer_level: str = "normal"
    computer_delay: float = 0.0
    turn_timer: float | None = None
    #: Seconds a dropped person's seat waits before a computer covers it (also for somebody
    #: who has not come to the seat they were drawn to).
    grace: float = 60.0
    #: A match's pause between its rounds (`TableConfig.next_round_delay`).
    next_round_delay: float | None = 20.0
    #: Seconds from the round's last table done to the next round's draw; None: the organiser
    #: draws each round (``club_start``, `ClubHost.start_round`).
    round_delay: float | None = 60.0
    #: A host's limits, but twice the connections from one address: each person holds two (the
    #: club's and their table's), and the one they leave may not be gone yet as they open the next.
    limits: Limits = msgspec.field(default_factory=lambda: Limits(connections_per_address=2 * _CONNECTIONS))
    computer_threads: int = 4
    #: Where each finished match's record is kept, and the night in the club history beside the
    #: match history (net/store/club.py): a data folder's ``records/``. None: the night's folder's.
    records: Path | None = None
    #: Announce the night on the local network as a table is (net/club/announce.py); None: do not.
    #: A club that listens on the loopback address only never announces.
    announce: Announce | None = None


class ClubHost:
    """A running club night (see the module docstring): the night, its lobby, its tables on one `Host`.

    It is the host machine's lobby (net/host/machine.py's `Lobby`): the machine checks each club
    hello's version, join code and secrets, and hands it here. ``report`` gets the operator's notes;
    ``clock`` and ``entropy`` as `Host`'s.
    """

    #: The name a hello gives to come to the club (`Lobby.name`).
    name = CLUB_TABLE

    def __init__(
        self,
        config: ClubHostConfig,
        *,
        report: Callable[[Statement[HostNote]], None] | None = None,
        clock: Callable[[], float] | None = None,
        entropy: Entropy = secrets.token_bytes,
        draw: DrawRound = draw_round,
    ) -> None:
        self.config = config
        club = config.club
        #: What draws each round (core/club/draw.py's; a test gives one it holds back).
        self._draw = draw
        #: The next round's draw being made (`start_round`).
        self._drawing: asyncio.Task[None] | None = None
        #: Where the night's matches' records are kept, and the night in the club history.
        self.records = config.records or config.folder / RECORDS_FOLDER
        self.host = Host(
            HostConfig(
                TableConfig(rules=club.rules, players=club.table_size), bind=config.bind, port=config.port,
                code=config.code, records=self.records, limits=config.limits,
                computer_threads=config.computer_threads, no_first_table=True,
            ),
            report=report, clock=clock, entropy=entropy, match_over=self._match_over,
            round_scored=self._round_scored, arrived=self._arrived,
        )
        self.host.machine.lobby = self
        self._entropy = entropy
        self.night = ClubNight.open(club)
        #: The night's secret (its tokens, the organiser's key and its seeds come from it).
        self._secret = b""
        #: Names the night for clients (their club tokens begin with it).
        self.night_id = ""
        #: The organiser's secret: a client that gives it may draw rounds and close tables.
        self.organiser_key = ""
        #: The club's connections: who each is (an entrant's id; None: a watcher).
        self._lobby: dict[Peer, int | None] = {}
        self._journal: ClubJournal | None = None
        #: The last write to the night's journal (what is told waits for it).
        self._written: asyncio.Future[None] | None = None
        #: When the night began (UTC text, as its journal's header says).
        self.started = ""
        self._lock: JournalLock | None = None
        self._next_round: asyncio.TimerHandle | None = None
        #: Tables the organiser is closing (their results are being written).
        self._closing: set[str] = set()
        self._tasks: set[asyncio.Task[Any]] = set()
        self._journal_failed = False
        #: When the tables' points will be told (a round of a match ended), if they are to be.
        self._scores_timer: asyncio.TimerHandle | None = None
        #: Entrants whose join is being written (their name is theirs already).
        self._joining: set[int] = set()
        #: The night being kept in the club history (a stop waits for it).
        self._keeping: set[asyncio.Task[None]] = set()
        #: Set whenever the night changes (a test or the interface waits on it).
        self.changed = asyncio.Event()
        #: The night's announcement on the local network (None: not announced).
        self._announcement: ClubAnnouncement | None = None
        #: (Resuming.) The round's tables' drawn seats whose person had not come yet, by table.
        self._resumed_awaited: dict[str, set[int]] = {}

    # -- starting and stopping -------------------------------------------------------

    @property
    def folder(self) -> Path:
        return self.config.folder

    @property
    def port(self) -> int | None:
        return self.host.port

    async def start(self) -> tuple[str, int]:
        """Open (or resume) the night in its folder, then listen; the bound (address, port).

        `HostError` when the folder cannot be used or another host runs this night.
        """
        folder = self.folder
        path = folder / NIGHT_FILE
        try:
            await asyncio.to_thread(lambda: (folder / TABLES_FOLDER).mkdir(parents=True, exist_ok=True))
            lock = await asyncio.to_thread(_lock, path)
        except OSError as exc:
            problem = str(exc.strerror or exc)
            raise HostError(f"cannot keep a club night in {folder}: {problem}", HostProblem.JOURNALS_FOLDER,
                            path=str(folder), problem=problem) from None
        if lock is None:
            raise HostError(f"another host is running the club night of {folder} now",
                            HostProblem.JOURNAL_IN_USE, path=str(path))
        self._lock = lock
        try:
            if path.stat().st_size:
                await self._reopen(path)
            else:
                await self._begin(path)
            # The round's tables first: a client that comes back finds its table there.
            await self._resume_round()
            address, port = await self.host.start()
            config = self.config
            self._announcement = ClubAnnouncement.start(config.announce, port=port, bind=config.bind,
                                                        code_needed=config.code is not None)
        except BaseException:
            await self.host.stop()
            if self._journal is not None:
                await self._journal.close()
            self._release()
            raise
        self._then(self._after_change)
        return address, port

    async def _begin(self, path: Path) -> None:
        """A new night: its journal's header, then its secret (a line of the host's own)."""
        secret = self._entropy(32)
        self._secrets(secret, self._text(secret, "night", 12))
        self.started = utc_text(time.time())
        self.night = ClubNight.open(self.config.club)
        self._journal, header = ClubJournal.begin(path, self.night, night_id=self.night_id,
                                                  started=self.started)
        await header
        await self._journal.write_host({"secret": secret.hex()})

    async def _reopen(self, path: Path) -> None:
        """The night its journal holds, to go on with (its own settings win over the config's)."""
        try:
            self._journal, recovered = await asyncio.to_thread(ClubJournal.resume, path)
            secret = bytes.fromhex(next(line["secret"] for line in recovered.host if "secret" in line))
        except (JournalError, StopIteration, ValueError, TypeError) as exc:
            problem = str(exc) if not isinstance(exc, StopIteration) else "it holds no secret"
            raise HostError(f"cannot resume the club night of {path}: {problem}", HostProblem.CANNOT_RESUME,
                            path=str(path), problem=problem) from None
        self._secrets(secret, recovered.header.night)
        self.started = recovered.header.started
        self.night = recovered.night
        self._resumed_awaited = _awaited_seats(recovered.night, recovered.host)
        if recovered.damage is not None:
            self.host.report(HostNote.BESIDE(text=f"the club night's journal {path}: {recovered.damage}"))

    def _secrets(self, secret: bytes, night_id: str) -> None:
        self._secret, self.night_id = secret, night_id
        self.organiser_key = new_seat_key(_stream(secret, b"organiser"))

    async def _resume_round(self) -> None:
        """Open the last round's tables where each stood (its journal), or anew if it has none yet;
        a table the organiser closed stays closed."""
        night = self.night
        if night.phase is Phase.BETWEEN:
            self._schedule_next_round()
        if not night.draws:
            return
        draw = night.draws[-1]
        for drawn in draw.tables:
            name = table_name(draw.round, drawn.number)
            result = night.result_of(draw.round, drawn.number)
            path = self._table_journal(name)
            if result is not None and result.closed:
                continue
            if path.exists() and path.stat().st_size:
                await self.host.resume_table(self._table_config(draw.round, drawn.number), path,
                                             awaited=self._resumed_awaited.get(name, set()))
                if result is None:
                    # (A match that ended as the host stopped, before the night heard: its record
                    # now, and its result with it.)
                    self.host.finish_restored(name)
            elif result is None:
                self._open_table(draw.round, drawn)

    async def stop(self) -> None:
        """Hang up on everybody and stop; the night and its tables stay on disk to be resumed."""
        announcement, self._announcement = self._announcement, None
        if announcement is not None:  # withdrawn first: nobody should find a night that is closing
            await announcement.close()
        for timer in (self._next_round, self._scores_timer):
            if timer is not None:
                timer.cancel()
        self._next_round = self._scores_timer = None
        for task in list(self._tasks):
            task.cancel()
        if self._keeping:
            await asyncio.wait(set(self._keeping))
        try:
            await self.host.stop()
        finally:
            if self._journal is not None:
                await self._journal.close()
                self._journal = None
            self._release()

    def _release(self) -> None:
        lock, self._lock = self._lock, None
        if lock is not None:
            lock.release()

    @property
    def announced(self) -> str | None:
        """The name the night is listed by on the local network (None: it is not announced)."""
        return self._announcement.name if self._announcement is not None else None

    def join_command(self) -> str:
        """The ``capicu club --join`` line people type (the join code and address)."""
        return self.host.join_command().replace("capicu join", "capicu club --join", 1)

    # -- the organiser ------------------------------------------------------------------

    async def start_round(self) -> None:
        """Draw the next round and seat it; `ClubError` when it cannot be drawn now (say why).

        The draw (a pure function of the night and a seed, which takes a while for a big field)
        runs in a worker thread, the host answering everybody meanwhile. The round's start is one
        step: a start asked for while a round is being drawn waits for that draw, and draws no other.
        """
        if self._next_round is not None:
            self._next_round.cancel()
            self._next_round = None
        drawing = self._drawing
        if drawing is None:
            drawing = self._drawing = asyncio.get_running_loop().create_task(self._draw_round_now())
            self._tasks.add(drawing)

            def drawn(task: asyncio.Task[None]) -> None:
                self._tasks.discard(task)
                self._drawing = None

            drawing.add_done_callback(drawn)
        await asyncio.shield(drawing)

    @property
    def drawing(self) -> bool:
        """A round is being drawn now (`start_round`)."""
        return self._drawing is not None

    async def _draw_round_now(self) -> None:
        while True:
            night = self.night
            round = night.round + 1
            seed = self._seed("round", round)
            made = await asyncio.to_thread(night.next_draw, seed, self._draw)
            if self.night is night:
                break
            # Somebody joined or left the night while it was drawn: drawn again, with them.
        night = night.start_round(seed, drawn=made)
        self._write(night)
        # Its seats await their people until each first comes (`_arrived`): kept for a restart.
        self._write_host({AWAITING: round})
        draw = night.draws[-1]
        for drawn in draw.tables:
            self._open_table(draw.round, drawn)
        self._then(self._tell_draw)

    def _tell_draw(self) -> None:
        for peer in self._lobby:
            self._send(peer, self._draw_message(peer))
        self._after_change()

    async def close_table(self, name: str) -> None:
        """Close the late table ``name`` of the round: its match ends with its score as it stands.

        `ClubError` when it is no table of the round being played, or already done.
        """
        where = table_of(name)
        table = self.host.tables.get(name)
        if where is None or table is None or name in self._closing:
            raise ClubError(f"round {self.night.round} has no table {name!r} being played",
                            ClubProblem.NO_TABLE, round=self.night.round, table=where[1] if where else 0)
        points = _points_now(table, len(self.config.club.sides_of_table(self.config.club.table_size)))
        night = self.night.close_table(where[0], where[1], points)
        self._closing.add(name)
        try:
            self._write(night)
            if self._written is not None:
                await asyncio.shield(self._written)
            await self.host.close_table(name, farewell=True)
        finally:
            self._closing.discard(name)
        self._told_result()

    # -- the lobby (net/host/machine.py's `Lobby`) ----------------------------------------

    def join(self, peer: Peer, hello: Hello, now: float) -> list[Effect]:
        name = clean_name(hello.name)
        if hello.spectate:
            self._enter(peer, name, None)
            return []
        night = self.night
        entrant = night.entrant_named(name)
        if entrant is not None:
            # The join code and the name of somebody not here bring them back (a new machine).
            if entrant.id in self._joining or any(who == entrant.id for who in self._lobby.values()):
                raise ProtocolError(ErrorCode.NAME_TAKEN, f"somebody in the club is already called {name!r}")
            if not entrant.active:
                raise ProtocolError(ErrorCode.REFUSED, f"{entrant.name!r} left the club night")
            self._enter(peer, entrant.name, entrant.id)
            return []
        try:
            night = night.join(name)
        except ClubError as exc:
            raise ProtocolError(ErrorCode.REFUSED, str(exc)) from None
        self._write(night)
        entrant_id = night.entrants[-1].id
        # Welcomed once the join is on disk (its name held meanwhile: nobody else takes it).
        self._joining.add(entrant_id)

        def welcome() -> None:
            self._joining.discard(entrant_id)
            self._enter(peer, name, entrant_id)

        self._then(welcome)
        return []

    def resume(self, peer: Peer, token: str, now: float) -> list[Effect]:
        found = None
        for entrant in self.night.entrants:  # every token compared, in constant time
            if hmac.compare_digest(self._token(entrant.id).encode(), token.encode()):
                found = entrant
        if found is None:
            night, dot, _ = token.partition(".")
            if dot and night != self.night_id:
                raise ProtocolError(ErrorCode.MATCH_GONE, "that token is of another club night")
            raise ProtocolError(ErrorCode.BAD_TOKEN, "that token is nobody's in this club night")
        if not found.active:
            raise ProtocolError(ErrorCode.REFUSED, f"{found.name!r} left the club night")
        for old, who in list(self._lobby.items()):
            if who == found.id and old is not peer:
                del self._lobby[old]
                old.in_lobby = False
                self.host.carry_out([Close(old, Error(ErrorCode.REPLACED, "you came back to the club on "
                                                      "another connection", fatal=True))])
        self._enter(peer, found.name, found.id)
        return []

    def organise(self, peer: Peer, message: ClubStart | ClubClose, now: float) -> list[Effect]:
        if not self.organiser_key or not same_code(message.key, self.organiser_key):
            raise ProtocolError(ErrorCode.REFUSED, "that is not the club night's organiser's key")
        if isinstance(message, ClubStart):
            if not self.drawing:  # (a second start while the round is drawn: that draw is the answer)
                self._spawn(self._start_asked(peer))
        else:
            self._spawn(self._close_asked(peer, message.table))
        return []

    async def _start_asked(self, peer: Peer) -> None:
        try:
            await self.start_round()
        except ClubError as exc:
            self._send(peer, Error(ErrorCode.NOT_READY, str(exc)))

    async def _close_asked(self, peer: Peer, name: str) -> None:
        try:
            await self.close_table(name)
        except ClubError as exc:
            self._send(peer, Error(ErrorCode.NOT_READY, str(exc)))

    def gone(self, peer: Peer, now: float, *, on_purpose: bool) -> list[Effect]:
        who = self._lobby.pop(peer, None)
        peer.in_lobby = False
        if who is not None and on_purpose and self.night.entrants[who].active:
            # A bye on the club's connection: they leave the night for good.
            night = self.night.leave(who)
            self._write(night)
            self._cover(who)
        self._then(self._after_change)
        return []

    # -- what happens at the tables ----------------------------------------------------------

    def _round_scored(self, name: str) -> None:
        """A round of a table's match ended: the night's tables, their points as they stand then, are
        told within `SCORES_EVERY` seconds (once for every table whose round ends meanwhile)."""
        if self._scores_timer is None:
            self._scores_timer = asyncio.get_running_loop().call_later(SCORES_EVERY, self._tell_scores)

    def _tell_scores(self) -> None:
        self._scores_timer = None
        self._then(lambda: self._tell(standings=False))

    def _match_over(self, name: str, record: MatchRecord) -> None:
        """A table's match is over (the host is carrying out its effects): its result, once that is done."""
        asyncio.get_running_loop().call_soon(self._table_done, name, record)

    def _table_done(self, name: str, record: MatchRecord) -> None:
        where = table_of(name)
        night = self.night
        if where is None or where[0] != night.round or night.result_of(*where) is not None:
            return
        draw = night.draws[-1].table(where[1])
        if draw is None or self._journal is None or name in self._closing:
            return
        winners = tuple(seat for seat in record.winners)
        self._record(self._result(where[0], draw, record.totals, winners, record_file_name(record)))

    def _result(self, round: int, drawn: TableDraw, totals: tuple[int, ...], winning_seats: tuple[int, ...],
                record: str) -> MatchResult:
        sides = self.config.club.sides_of_table(len(drawn.seats))
        winners = tuple(i for i, side in enumerate(sides) if any(seat in winning_seats for seat in side))
        return MatchResult(round=round, table=drawn.number, seats=drawn.seats, sides=sides, points=totals,
                           winners=winners, record=record)

    def _record(self, result: MatchResult) -> None:
        self._write(self.night.record(result))
        self._then(self._told_result)

    def _told_result(self) -> None:
        """A table's result is on disk: everybody is told, the night kept in the club history after
        each round, and the next round drawn in its time."""
        phase = self.night.phase
        if phase is Phase.BETWEEN:
            self._schedule_next_round()
        if phase in (Phase.BETWEEN, Phase.OVER):
            keeping = asyncio.get_running_loop().create_task(self._keep_in_history())
            self._keeping.add(keeping)
            keeping.add_done_callback(self._keeping.discard)
        self._after_change()

    async def _keep_in_history(self) -> None:
        night = self.night
        ended = utc_text(time.time()) if night.phase is Phase.OVER else None
        problem = await asyncio.to_thread(keep_night, self.records, night, night_id=self.night_id,
                                          started=self.started, ended=ended)
        if problem is not None:
            self.host.report(history_note(CLUB_TABLE, problem))

    def _schedule_next_round(self) -> None:
        delay = self.config.round_delay
        if delay is None or self._next_round is not None:
            return
        self._next_round = asyncio.get_running_loop().call_later(delay, self._draw_next)

    def _draw_next(self) -> None:
        self._next_round = None
        if self.night.phase is Phase.BETWEEN:
            self._spawn(self._draw_next_round())

    async def _draw_next_round(self) -> None:
        try:
            await self.start_round()
        except ClubError as exc:  # (too few people left, say): the organiser decides
            self.host.report(HostNote.BESIDE(text=f"the club night cannot draw its next round: {exc}"))

    def _arrived(self, name: str, seat: int) -> None:
        """A person came to their drawn seat the first time: kept, so that a resumed table awaits
        them no more (their return is a return)."""
        where = table_of(name)
        if where is not None and where[0] == self.night.round and self._journal is not None:
            self._write_host({ARRIVED: name, "seat": seat})

    def _cover(self, entrant: int) -> None:
        """``entrant`` left for good: the computer plays their seat at the round's table, if any."""
        night = self.night
        if night.phase is not Phase.PLAYING:
            return
        for drawn in night.waiting:
            if entrant in drawn.seats:
                name = table_name(night.round, drawn.number)
                if name in self.host.tables:
                    self.host.cover_seat(name, drawn.seats.index(entrant))

    def _open_table(self, round: int, drawn: TableDraw) -> Table:
        """Open and seat one drawn table, its match started (its people come with their tokens)."""
        table = self.host.open_table(self._table_config(round, drawn.number))
        names = self.night.entrants
        self.host.seat_drawn(table.name, [None if who is None else names[who].name for who in drawn.seats])
        return table

    def _table_config(self, round: int, number: int) -> TableConfig:
        config, club = self.config, self.config.club
        name = table_name(round, number)
        return TableConfig(
            name=name, rules=club.rules, players=club.table_size, computers=0,
            computer_level=config.computer_level, computer_delay=config.computer_delay,
            seed=self._seed("table", round, number), turn_timer=config.turn_timer, grace=config.grace,
            journal=self._table_journal(name), next_round_delay=config.next_round_delay,
        )

    def _table_journal(self, name: str) -> Path:
        return self.folder / TABLES_FOLDER / f"{name}.journal"

    # -- telling people ------------------------------------------------------------------------

    def _enter(self, peer: Peer, name: str, entrant: int | None) -> None:
        """``peer`` is in the club now: its welcome, the night, the standings, and its seat if drawn."""
        if peer.closed:
            return  # (gone while its join was written)
        peer.in_lobby, peer.name = True, name
        self._lobby[peer] = entrant
        club = self.config.club
        self._send(peer, Welcome(table=CLUB_TABLE, name=name, seat=None,
                                 token=None if entrant is None else self._token(entrant), seat_key=None,
                                 players=club.table_size, heartbeat=self.host.config.limits.heartbeat,
                                 match=self.night_id))
        self._send(peer, self._roster(entrant))
        self._send(peer, self._standings())
        if self.night.phase is Phase.PLAYING:
            self._send(peer, self._draw_message(peer))
        self._after_change(but=peer)

    def _after_change(self, *, but: Peer | None = None) -> None:
        """Tell everybody in the club the night as it stands now."""
        self._tell(but=but)

    def _tell(self, *, but: Peer | None = None, standings: bool = True) -> None:
        """Send everybody in the club (but ``but``) the roster, and the ``standings``; each made once
        (the roster's ``you`` aside) and the standings encoded once for all."""
        roster = self._roster(None)
        told = encode_frame(to_wire(self._standings())) if standings else None
        effects: list[Effect] = []
        for peer, who in self._lobby.items():
            if peer is but:
                continue
            effects.append(Send(peer, encode_frame(to_wire(msgspec.structs.replace(roster, you=who)))))
            if told is not None:
                effects.append(Send(peer, told))
        self.host.carry_out(effects)
        if self._announcement is not None:
            self._announcement.show(self.night)  # (sent only when what it says changed)
        self.changed.set()

    def _send(self, peer: Peer, message: HostMessage) -> None:
        self.host.carry_out([Send(peer, encode_frame(to_wire(message)))])

    def _roster(self, you: int | None) -> ClubRoster:
        night, club = self.night, self.config.club
        here = set(self._lobby.values())
        entrants = tuple(ClubEntrant(e.id, e.name, e.active, e.id in here) for e in night.entrants)
        return ClubRoster(name=club.name, rules=club.rules, format=club.format.value,
                          rounds=night.total_rounds, round=night.round, phase=night.phase.value,
                          you=you, entrants=entrants, tables=self._tables())

    def _tables(self) -> tuple[ClubTable, ...]:
        night, club = self.night, self.config.club
        if not night.draws:
            return ()
        draw = night.draws[-1]
        tables = []
        for drawn in draw.tables:
            sides = club.sides_of_table(len(drawn.seats))
            name = table_name(draw.round, drawn.number)
            result = night.result_of(draw.round, drawn.number)
            if result is not None:
                state, points = (TableState.CLOSED if result.closed else TableState.DONE), result.points
            else:
                table = self.host.tables.get(name)
                state, points = TableState.PLAYING, _points_now(table, len(sides)) if table else ()
            tables.append(ClubTable(drawn.number, name, drawn.seats, state.value, sides, tuple(points)))
        return tuple(tables)

    def _draw_message(self, peer: Peer) -> ClubDrawn:
        """The round's draw, with ``peer``'s own table, seat and its secrets if it plays this round."""
        night = self.night
        draw = night.draws[-1]
        who = self._lobby.get(peer)
        mine: dict[str, Any] = {}
        for drawn in draw.tables:
            if who is None or who not in drawn.seats:
                continue
            name = table_name(draw.round, drawn.number)
            table = self.host.tables.get(name)
            if table is None or night.result_of(draw.round, drawn.number) is not None:
                break
            seat = table.seats[drawn.seats.index(who)]
            mine = {"table": name, "seat": seat.index, "token": seat.token, "seat_key": seat.seat_key,
                    "covered": seat.covered}
        return ClubDrawn(round=draw.round, tables=self._tables(), byes=draw.byes, **mine)

    def _standings(self) -> ClubStandings:
        night = self.night
        names = night.entrants
        rows = tuple(
            StandingRow(s.entrant, names[s.entrant].name, s.played, s.won, s.points_for, s.points_against,
                        s.byes, s.computer_seats, s.buchholz, tuple(s.opponents), tuple(s.partners),
                        s.difference, s.head_to_head)
            for s in night.standings()
        )
        return ClubStandings(night.round, night.phase is Phase.OVER, rows)

    # -- the night's secrets and journal ------------------------------------------------------

    def _write(self, night: ClubNight) -> None:
        """Take ``night`` as the night, its new events queued for the journal: what is told of them
        waits for them to be on disk (`_then`)."""
        journal = self._journal
        if journal is None:
            raise RuntimeError("the club night is not started")
        self.night = night
        written = self._written = journal.write_night(night)
        written.add_done_callback(self._journal_done)

    def _write_host(self, record: dict[str, Any]) -> None:
        """Queue a line of the host's own for the night's journal (after what is queued)."""
        journal = self._journal
        if journal is None:
            raise RuntimeError("the club night is not started")
        written = self._written = journal.write_host(record)
        written.add_done_callback(self._journal_done)

    def _then(self, tell: Callable[[], None]) -> None:
        """Do ``tell`` once everything the night's journal was given is on disk (at once if it is)."""
        written = self._written
        if written is None or written.done():
            if written is None or (not written.cancelled() and written.exception() is None):
                tell()
            return
        written.add_done_callback(lambda done: None if done.cancelled() or done.exception() else tell())

    def _journal_done(self, written: asyncio.Future[None]) -> None:
        """A write to the night's journal failed: nothing more can be promised, so the club closes."""
        if written.cancelled() or written.exception() is None or self._journal_failed:
            return
        self._journal_failed = True
        problem = str(written.exception())
        self.host.report(HostNote.BESIDE(text=f"the club night stopped: its journal cannot be written "
                                              f"({problem})"))
        error = Error(ErrorCode.SHUTTING_DOWN, f"the club night stopped: {problem}", fatal=True)
        for peer in list(self._lobby):
            self.host.carry_out([Close(peer, error)])
        self._lobby.clear()

    def _token(self, entrant: int) -> str:
        """Entrant ``entrant``'s club token: the night's id, a dot, then its secret."""
        return f"{self.night_id}.{self._text(self._secret, f'entrant:{entrant}', 24)}"

    @staticmethod
    def _text(secret: bytes, what: str, size: int) -> str:
        """``size`` bytes drawn from ``secret`` for ``what``, as URL-safe text."""
        digest = hmac.new(secret, what.encode(), hashlib.sha256).digest()[:size]
        return base64.urlsafe_b64encode(digest).rstrip(b"=").decode("ascii")

    def _seed(self, *what: str | int) -> int:
        """A seed of the night's (a round's draw, a table's deals), the same after a restart."""
        text = ":".join(str(part) for part in what)
        return int.from_bytes(hmac.new(self._secret, text.encode(), hashlib.sha256).digest()[:4], "big") >> 1

    def _spawn(self, work: Any) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)


def _points_now(table: Table | None, sides: int) -> tuple[int, ...]:
    """Each side's points at ``table`` as they stand (a Draw-family or Fives view's ``scores``, a
    Mexican Train view's ``totals``); zeros before the first deal."""
    match = table.match if table is not None else None
    if match is None:
        return (0,) * sides
    view = match.view(None)
    points: tuple[int, ...] = getattr(view, "scores", None) or getattr(view, "totals", None) or ()
    return tuple(int(p) for p in points)[:sides] or (0,) * sides


def _awaited_seats(night: ClubNight, lines: list[dict[str, Any]]) -> dict[str, set[int]]:
    """The round's tables' drawn seats whose person had not come yet, by table name, as the
    journal's host lines say (`AWAITING`, then `ARRIVED`); none for a journal from before them."""
    if not night.draws or not any(line.get(AWAITING) == night.round for line in lines):
        return {}
    draw = night.draws[-1]
    awaited = {table_name(draw.round, drawn.number): {seat for seat, who in enumerate(drawn.seats)
                                                       if who is not None}
               for drawn in draw.tables}
    for line in lines:
        seats = awaited.get(line.get(ARRIVED, ""))
        if seats is not None and isinstance(line.get("seat"), int):
            seats.discard(line["seat"])
    return awaited


def _lock(path: Path) -> JournalLock | None:
    try:
        return JournalLock.take(path, create=True)
    except FileExistsError:
        return JournalLock.take(path)


def _stream(secret: bytes, what: bytes) -> Entropy:
    """A source of bytes drawn from ``secret`` (the same every time): for the organiser's key."""
    counter = 0

    def entropy(size: int) -> bytes:
        nonlocal counter
        counter += 1
        return hmac.new(secret, what + counter.to_bytes(4, "big"), hashlib.sha256).digest()[:size]

    return entropy


__all__ = ["ClubHost", "ClubHostConfig", "table_name", "table_of"]
