"""One table of a host: its seats, its match, its spectators and its timers.

The table is the host's authority over one match. It checks every intent
with the engine, numbers the public events, sends each seat the view built
for that seat (and spectators the public view), and never serialises anything
else. With a journal, the records of an action are on disk before anybody is
told of it: everything a table sends about the match goes through `_emit`,
which releases messages in order once the journal has synced what they
depend on.

Time comes in as ``now`` (the event loop's clock); deadlines live in a pure
`Deadlines` and the table asks the loop to wake it at the next one.

Between rounds the table pauses (its match runs with ``pause_between_rounds``)
so that people can read the finished table: the next deal comes when every
connected person has said `ready`, or when the countdown of
`TableConfig.next_round_delay` runs out.
Computer players think in the host's executor, never on the event loop: a
thread pool, or a process pool so that a slow player holds up nothing else
(in a thread it would still compete with the event loop for the interpreter).
"""

from __future__ import annotations

import asyncio
import hmac
import secrets
import sys
from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from capicu.core import (
    Action,
    ComputerPlayer,
    Event,
    IllegalAction,
    Match,
    Rules,
    View,
    make_player,
)

from .codec import encode_frame
from .codes import new_seat_key, same_code
from .journal import Journal, Recovered, plain_rules
from .protocol import (
    ActedBy,
    Chat,
    Error,
    ErrorCode,
    HostMessage,
    NextRound,
    ProtocolError,
    Seat,
    SeatKind,
    Seats,
    Snapshot,
    StateUpdate,
    TurnTimer,
    ViewState,
    Welcome,
    clean_chat,
    clean_name,
    to_wire,
)
from .timing import Deadlines


class Peer(Protocol):
    """A connection as a table sees it (the host's `Connection` is one)."""

    name: str | None
    seat: int | None
    table: Table | None

    def send(self, message: HostMessage) -> None: ...

    def send_frame(self, frame: bytes) -> None: ...

    def close(self, error: Error | None = None) -> None: ...


@dataclass(frozen=True, slots=True)
class TableConfig:
    """How one table plays; `HostConfig` builds the first table's from its own fields."""

    name: str = "main"
    rules: Rules = field(default_factory=lambda: Rules.preset_named("puerto-rican-drawing"))
    players: int = 2
    #: Seats played by the computer (the last seats of the table).
    computers: int = 0
    computer_level: str = "greedy"
    #: Seconds a computer waits before it acts, so that people can follow the game.
    computer_delay: float = 0.0
    #: The seed of the deals; None draws one from `secrets`.
    seed: int | None = None
    #: Seconds a person has for each turn before the computer acts for them; None: no limit.
    turn_timer: float | None = None
    #: Seconds a dropped person's seat waits before a computer covers it.
    grace: float = 60.0
    journal: Path | None = None
    max_spectators: int = 32
    #: Seconds from a round's end to the next deal, unless every person is ready
    #: sooner; None: wait for the people however long; 0: no pause, the deal
    #: comes in the update that ends the round.
    next_round_delay: float | None = 20.0

    def __post_init__(self) -> None:
        self.rules.check_players(self.players)
        if not 0 <= self.computers <= self.players:
            raise ValueError(f"{self.computers} computers do not fit {self.players} seats")
        make_player(self.computer_level, 0)  # raises ValueError naming the levels
        if self.turn_timer is not None and not self.turn_timer > 0:
            raise ValueError("the turn timer must be a positive number of seconds")
        if not self.grace >= 0:
            raise ValueError("the grace period must be 0 seconds or more")
        if not self.computer_delay >= 0:
            raise ValueError("the computer delay must be 0 seconds or more")
        if self.next_round_delay is not None and not self.next_round_delay >= 0:
            raise ValueError("the delay before the next round must be 0 seconds or more")
        if not self.name or len(self.name) > 32:
            raise ValueError("a table's name is a text of 1 to 32 characters")


@dataclass(slots=True)
class HostSeat:
    """A seat as the host holds it: the public `Seat` plus its secrets, which never reach the wire."""

    index: int
    kind: SeatKind = SeatKind.OPEN
    name: str | None = None
    #: The seat's secret for the machine that took it, and its key for a person to type.
    token: str | None = None
    seat_key: str | None = None
    peer: Peer | None = None
    covered: bool = False
    #: The person left on purpose (the computer covers the seat until they come back).
    left: bool = False
    player: ComputerPlayer | None = None

    @property
    def computer_plays(self) -> bool:
        return self.kind is SeatKind.COMPUTER or self.covered

    @property
    def person_here(self) -> bool:
        """A person holds the seat over a live connection."""
        return self.kind is SeatKind.PERSON and self.peer is not None

    @property
    def person_away(self) -> bool:
        """The seat is a person's, who has no live connection (dropped, covered or left)."""
        return self.kind is SeatKind.PERSON and self.peer is None

    def vacate(self) -> None:
        """Nobody's seat any more (before the match starts)."""
        self.kind, self.name, self.token, self.seat_key = SeatKind.OPEN, None, None, None
        self.covered = self.left = False

    def public(self) -> Seat:
        """The seat as everyone sees it."""
        return Seat(
            seat=self.index, kind=self.kind, name=self.name,
            connected=self.kind is SeatKind.COMPUTER or self.peer is not None, covered=self.covered,
            left=self.left,
        )


def choose_in_worker(level: str, seed: int, view: View) -> Action:
    """A computer player's choice, in a worker process (see `Table._think`)."""
    return make_player(level, seed).choose(view)


def _computer_name(index: int) -> str:
    return f"Computer {index + 1}"


#: The deadline of the countdown to the next deal (one per table).
_NEXT_DEAL = ("next_round", -1)


class Table:
    """A table in a running host; see the module docstring."""

    def __init__(
        self,
        config: TableConfig,
        *,
        executor: Executor,
        heartbeat: float = 15.0,
        report: Callable[[str], None] | None = None,
    ) -> None:
        self.config = config
        self.heartbeat = heartbeat
        self.name = config.name
        #: Names this table's match for clients (they key saved tokens by it); kept by a journal.
        self.match_id = secrets.token_urlsafe(12)
        self.match: Match | None = None
        self.seq = 0
        self.seats = [HostSeat(i) for i in range(config.players)]
        for i in range(config.players - config.computers, config.players):
            self.seats[i].kind = SeatKind.COMPUTER
            self.seats[i].name = _computer_name(i)
        self.spectators: list[Peer] = []
        self.journal: Journal | None = Journal(config.journal) if config.journal else None
        self.broken: str | None = None
        self._executor = executor
        self._report = report or (lambda text: print(f"capicu host: {text}", file=sys.stderr))
        #: ("grace" | "turn" | "computer", seat) or `_NEXT_DEAL` -> when.
        self._deadlines: Deadlines[tuple[str, int]] = Deadlines()
        #: Seats whose person said they are ready, during a break between rounds.
        self._ready: set[int] = set()
        self._timer: asyncio.TimerHandle | None = None
        self._version = 0
        self._thinking: tuple[int, int] | None = None
        self._logged = 0
        self._waiting: deque[tuple[asyncio.Future[None], Callable[[], None]]] = deque()

    # -- restoring -----------------------------------------------------------

    @classmethod
    def restore(
        cls,
        config: TableConfig,
        recovered: Recovered,
        journal: Journal,
        *,
        executor: Executor,
        now: float,
        heartbeat: float = 15.0,
        report: Callable[[str], None] | None = None,
    ) -> Table:
        """The table a journal recorded, its match replayed; every person is away.

        Raises ValueError when the journal's match cannot be replayed.
        """
        header = recovered.header
        match = Match.from_log(recovered.match_log())
        seats = header.get("seats")
        if not isinstance(seats, list) or len(seats) != match.players:
            raise ValueError("the journal's header does not list the table's seats")
        config = TableConfig(
            name=str(header.get("table", config.name)), rules=match.rules, players=match.players,
            computers=sum(1 for s in seats if isinstance(s, dict) and s.get("kind") == "computer"),
            computer_level=str(header.get("computer_level", config.computer_level)),
            computer_delay=config.computer_delay, seed=match.seed, turn_timer=config.turn_timer,
            grace=config.grace, journal=None, max_spectators=config.max_spectators,
            next_round_delay=config.next_round_delay,
        )
        table = cls(config, executor=executor, heartbeat=heartbeat, report=report)
        table.journal = journal
        match_id = header.get("match")
        if isinstance(match_id, str) and match_id:
            table.match_id = match_id
        for seat, saved in zip(table.seats, seats, strict=True):
            if not isinstance(saved, dict) or saved.get("kind") not in ("person", "computer"):
                raise ValueError(f"seat {seat.index + 1} of the journal's header is damaged")
            seat.kind = SeatKind(saved["kind"])
            seat.name = str(saved.get("name") or _computer_name(seat.index))
            token, key = saved.get("token"), saved.get("key")
            seat.token = token if isinstance(token, str) and token else None
            if seat.kind is SeatKind.PERSON:
                # A journal from before seat keys gets new ones (welcomes carry them).
                seat.seat_key = key if isinstance(key, str) and key else new_seat_key()
                table._deadlines.set(("grace", seat.index), now + config.grace)
        table.match = match
        table.seq = recovered.seq
        table._logged = len(recovered.entries)
        table._schedule_turn(now)
        if match.awaiting_deal:
            # Nobody is back yet: the countdown starts again, and waits for them.
            table._begin_break(now, announce=False)
        return table

    # -- joining and leaving ------------------------------------------------

    def join(self, peer: Peer, raw_name: str, spectate: bool, now: float) -> None:
        """Seat ``peer`` at the first open seat, or let it watch; ProtocolError if it cannot."""
        self._check_open()
        name = clean_name(raw_name)
        folded = name.casefold()
        taken = {s.name.casefold() for s in self.seats if s.name}
        taken |= {p.name.casefold() for p in self.spectators if p.name}
        if folded in taken:
            raise ProtocolError(ErrorCode.NAME_TAKEN, f"somebody at this table is already called {name!r}")
        seat = None if spectate else next((s for s in self.seats if s.kind is SeatKind.OPEN), None)
        if seat is None:
            if len(self.spectators) >= self.config.max_spectators:
                raise ProtocolError(ErrorCode.TABLE_FULL, "every seat and every spectator's place is taken")
            peer.name, peer.seat, peer.table = name, None, self
            self.spectators.append(peer)
            peer.send(self._welcome(None, name))
        else:
            seat.kind, seat.name, seat.peer = SeatKind.PERSON, name, peer
            seat.token, seat.seat_key = secrets.token_urlsafe(24), new_seat_key()
            seat.covered = seat.left = False
            peer.name, peer.seat, peer.table = name, seat.index, self
            peer.send(self._welcome(seat))
        self._broadcast_seats()
        if self.match is None and all(s.kind is not SeatKind.OPEN for s in self.seats):
            self._start(now)
        elif self.match is not None:
            self._send_snapshot(peer, now)

    def fill_with_computers(self, now: float) -> int:
        """Give every open seat to a computer and start the match; how many seats it filled.

        The host's own terminal uses it so that a missing player does not keep the
        table waiting. Does nothing once the match has started.
        """
        self._check_open()
        if self.match is not None:
            return 0
        opened = [s for s in self.seats if s.kind is SeatKind.OPEN]
        for seat in opened:
            seat.kind, seat.name = SeatKind.COMPUTER, _computer_name(seat.index)
        self._broadcast_seats()
        self._start(now)
        return len(opened)

    def resume(self, peer: Peer, now: float, *, token: str | None = None,
               seat_key: str | None = None) -> None:
        """Give the seat that ``token`` (else ``seat_key``) belongs to back to ``peer``.

        ProtocolError (``bad_token``) when it holds no seat here.
        """
        self._check_open()
        found = None
        for seat in self.seats:
            # Every seat is compared, in constant time, so timing says nothing.
            if token is not None:
                if seat.token is not None and hmac.compare_digest(seat.token.encode(), token.encode()):
                    found = seat
            elif seat_key is not None and seat.seat_key is not None and same_code(seat_key, seat.seat_key):
                found = seat
        if found is None:
            what = "token" if token is not None else "seat key"
            raise ProtocolError(ErrorCode.BAD_TOKEN, f"that {what} holds no seat at this table")
        self.take_back(peer, found.index, now)

    def away_seat(self, name: str) -> int | None:
        """The seat of the away person called ``name`` (cleaned, any case), if there is one."""
        folded = name.casefold()
        for seat in self.seats:
            if seat.person_away and seat.name is not None and seat.name.casefold() == folded:
                return seat.index
        return None

    def take_back(self, peer: Peer, index: int, now: float) -> None:
        """Seat ``peer`` in seat ``index``, its person's: as a resume with the token.

        An older connection that still holds the seat is told it was replaced.
        """
        self._check_open()
        found = self.seats[index]
        old = found.peer
        if old is not None and old is not peer:
            old.table = None
            old.close(Error(ErrorCode.REPLACED, "your seat was reclaimed on another connection", fatal=True))
        was_covered = found.covered
        found.peer, found.covered, found.left = peer, False, False
        self._deadlines.cancel(("grace", found.index))
        peer.name, peer.seat, peer.table = found.name, found.index, self
        peer.send(self._welcome(found))
        self._broadcast_seats()
        match = self.match
        if match is not None:
            self._send_snapshot(peer, now, next_round=False)
            if was_covered and match.turn == found.index:
                self._schedule_turn(now)
            if match.awaiting_deal:
                self._break_changed(now)

    def leave(self, peer: Peer, now: float, *, on_purpose: bool = False) -> None:
        """``peer`` is gone: hold its seat for the grace period, or act on its ``bye``.

        A dropped connection's seat waits for the grace period; then a computer
        covers it during a match, and before the match starts it becomes free
        again. A person who leaves on purpose (``on_purpose``) is covered at once
        during a match (the seat stays theirs), and frees the seat in the lobby.
        """
        if peer.table is not self:
            return
        peer.table = None
        if peer.seat is None:
            if peer in self.spectators:
                self.spectators.remove(peer)
                self._broadcast_seats()
            return
        seat = self.seats[peer.seat]
        if seat.peer is not peer:
            return
        seat.peer = None
        match = self.match
        if on_purpose and match is None:
            self._deadlines.cancel(("grace", seat.index))
            seat.vacate()
        elif on_purpose:
            self._deadlines.cancel(("grace", seat.index))
            seat.covered = seat.left = True
        elif not seat.covered:
            self._deadlines.set(("grace", seat.index), now + self.config.grace)
        self._rearm()
        self._broadcast_seats()
        if match is not None and seat.covered and match.turn == seat.index:
            self._schedule_turn(now)
        if match is not None and match.awaiting_deal:
            self._break_changed(now)

    def _check_open(self) -> None:
        if self.broken is not None:
            raise ProtocolError(ErrorCode.SHUTTING_DOWN, self.broken)

    def _welcome(self, seat: HostSeat | None, spectator: str = "") -> Welcome:
        """The welcome for the person in ``seat``, or for the spectator called ``spectator``."""
        if seat is None:
            return Welcome(table=self.name, name=spectator, seat=None, token=None, seat_key=None,
                           players=self.config.players, heartbeat=self.heartbeat, match=self.match_id)
        return Welcome(table=self.name, name=seat.name or "", seat=seat.index, token=seat.token,
                       seat_key=seat.seat_key, players=self.config.players, heartbeat=self.heartbeat,
                       match=self.match_id)

    # -- the match -------------------------------------------------------------

    def _start(self, now: float) -> None:
        seed = self.config.seed if self.config.seed is not None else secrets.randbits(31)
        match = Match(self.config.rules, self.config.players, seed,
                      pause_between_rounds=self.config.next_round_delay != 0)
        self.match = match
        self.seq = len(match.opening_events)
        log = match.log()
        self._logged = match.entry_count
        if self.journal is not None:
            header = {
                "log_format": log["format"], "rules": plain_rules(log["rules"]), "players": log["players"],
                "seed": log["seed"], "seq": self.seq, "table": self.name, "match": self.match_id,
                "computer_level": self.config.computer_level,
                "seats": [
                    {"kind": s.kind, "name": s.name, "token": s.token, "key": s.seat_key}
                    for s in self.seats
                ],
            }
            if log.get("pause_between_rounds"):
                header["pause_between_rounds"] = True
            self._emit_after(self.journal.begin(header, log["entries"]), lambda: None)
        seats = self._seats_message()
        frames = self._snapshot_frames()

        def deliver() -> None:
            self._send_all(seats)
            for peer, frame in frames:
                peer.send_frame(frame)

        self._emit([], deliver)
        self._schedule_turn(now)

    def act(self, peer: Peer, action: Action, ref: int | None, now: float) -> None:
        """Take ``peer``'s intent; ProtocolError (not fatal) when it cannot be taken."""
        if peer.seat is None:
            raise ProtocolError(ErrorCode.NOT_SEATED, "spectators watch: they cannot play")
        if self.match is None:
            raise ProtocolError(ErrorCode.NOT_STARTED, "the match starts when every seat is filled")
        try:
            events = self.match.apply(action, peer.seat)
        except IllegalAction as exc:
            raise ProtocolError(ErrorCode.ILLEGAL, str(exc)) from None
        self._publish(events, peer.seat, ActedBy.PERSON, peer, ref, now)

    def _publish(
        self, events: tuple[Event, ...], actor: int | None, by: ActedBy, mover: Peer | None,
        ref: int | None, now: float,
    ) -> None:
        """Journal and send what just happened, then see what comes next (a turn, a break)."""
        match = self.match
        assert match is not None
        self._version += 1
        self.seq += len(events)
        entries: list[Any] = []
        if self.journal is not None:
            # The action (and the next deal, without a pause), or the deal.
            entries = match.entries_since(self._logged)
            self._logged += len(entries)
        seated = [s for s in self.seats if s.peer is not None]
        # The mover's answer first: it leaves before the others' views are built.
        seated.sort(key=lambda s: s.peer is not mover)

        def build() -> Iterator[tuple[Peer, bytes]]:
            for seat in seated:
                assert seat.peer is not None
                update = StateUpdate(
                    self.seq, events, ViewState.of(match.view(seat.index)), actor, by,
                    ref if seat.peer is mover else None,
                )
                yield seat.peer, encode_frame(to_wire(update))
            if self.spectators:
                public = StateUpdate(self.seq, events, ViewState.of(match.view(None)), actor, by)
                frame = encode_frame(to_wire(public))
                for peer in self.spectators:
                    yield peer, frame

        if self.journal is None and not self._waiting:
            for peer, frame in build():
                peer.send_frame(frame)
        else:
            # Built now, sent once the journal has the action: the match moves on meanwhile.
            frames = list(build())

            def deliver() -> None:
                for peer, frame in frames:
                    if peer.table is self:
                        peer.send_frame(frame)

            self._emit(entries, deliver)
        self._schedule_turn(now)
        if match.awaiting_deal:
            self._begin_break(now)

    def chat(self, peer: Peer, text: str) -> None:
        line = clean_chat(text)
        if line:
            self._send_all(Chat(peer.name or "?", peer.seat, line))

    # -- between rounds ----------------------------------------------------------

    def ready(self, peer: Peer, now: float) -> None:
        """``peer`` has read the round's end; ignored outside a break and from spectators."""
        match = self.match
        if peer.seat is None or match is None or not match.awaiting_deal:
            return
        if self.seats[peer.seat].peer is not peer or peer.seat in self._ready:
            return
        self._ready.add(peer.seat)
        self._break_changed(now)

    def _begin_break(self, now: float, *, announce: bool = True) -> None:
        """A round just ended: start the countdown to the next deal and tell everyone.

        A restored table does not ``announce``: nobody is there yet, and the
        countdown gives them time to come back.
        """
        self._ready = set()
        delay = self.config.next_round_delay
        if delay is not None:
            self._deadlines.set(_NEXT_DEAL, now + delay)
            self._rearm()
        if announce:
            self._break_changed(now)

    def _break_changed(self, now: float) -> None:
        """Deal if nobody is left to wait for; else tell everyone who is ready and who is awaited."""
        here = [s.index for s in self.seats if s.person_here]
        if not here:
            self._deal(now, ActedBy.COMPUTER)
        elif all(index in self._ready for index in here):
            self._deal(now, ActedBy.PERSON)
        else:
            message = self._next_round_message(now)
            self._emit([], lambda: self._send_all(message))

    def _next_round_message(self, now: float) -> NextRound:
        deadline = self._deadlines.get(_NEXT_DEAL)
        waiting = tuple(s.index for s in self.seats if s.person_here and s.index not in self._ready)
        return NextRound(
            None if deadline is None else max(0.0, deadline - now), tuple(sorted(self._ready)), waiting
        )

    def _deal(self, now: float, by: ActedBy) -> None:
        match = self.match
        assert match is not None
        self._deadlines.cancel(_NEXT_DEAL)
        self._ready = set()
        self._publish(match.deal_next_round(), None, by, None, None, now)

    # -- whose turn: computers and timers ------------------------------------

    def _schedule_turn(self, now: float) -> None:
        for index in range(len(self.seats)):
            self._deadlines.cancel(("turn", index))
            self._deadlines.cancel(("computer", index))
        match = self.match
        if match is None or match.turn is None:
            self._rearm()
            return
        seat = self.seats[match.turn]
        if seat.computer_plays:
            if self.config.computer_delay > 0:
                self._deadlines.set(("computer", seat.index), now + self.config.computer_delay)
            else:
                self._think(seat.index, ActedBy.COMPUTER)
        elif self.config.turn_timer is not None:
            self._deadlines.set(("turn", seat.index), now + self.config.turn_timer)
            message = TurnTimer(seat.index, self.config.turn_timer)
            self._emit([], lambda: self._send_all(message))
        self._rearm()

    def _think(self, index: int, by: ActedBy) -> None:
        """Ask the computer for seat ``index``'s action, off the event loop."""
        match = self.match
        assert match is not None
        if self._thinking == (self._version, index):
            return
        self._thinking = (self._version, index)
        seat = self.seats[index]
        version, view = self._version, match.view(index)
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Action]
        if not isinstance(self._executor, ThreadPoolExecutor):
            # In another process (a ProcessPoolExecutor, which the host imports only
            # when it starts one) the player cannot keep its state from move to
            # move: a fresh one each time, its seed drawn from the match's.
            seed = (match.seed * 1_000_003 + index * 7_919 + version) % 2**31
            future = loop.run_in_executor(
                self._executor, choose_in_worker, self.config.computer_level, seed, view
            )
        else:
            if seat.player is None:
                seat.player = make_player(self.config.computer_level, (match.seed * 31 + index) % 2**31)
            future = loop.run_in_executor(self._executor, seat.player.choose, view)
        future.add_done_callback(lambda f: self._chosen(index, version, by, f))

    def _chosen(self, index: int, version: int, by: ActedBy, future: asyncio.Future[Action]) -> None:
        if self._thinking == (version, index):
            self._thinking = None
        match = self.match
        if future.cancelled() or self.broken or match is None:
            return
        if version != self._version or match.turn != index:
            return  # the table moved on while the computer thought
        if by is ActedBy.COMPUTER and not self.seats[index].computer_plays:
            return  # the person came back
        try:
            events = match.apply(future.result(), index)
        except Exception as exc:  # a computer player's bug must not stop the table
            self._report(f"table {self.name}: the computer for seat {index + 1} failed ({exc!r})")
            events = match.apply(match.legal_actions()[0], index)
        now = asyncio.get_running_loop().time()
        self._publish(events, index, by, None, None, now)

    def wake(self, now: float) -> None:
        """Act on every deadline that has come (the loop calls this at `next_deadline`)."""
        self._timer = None
        for kind, index in self._deadlines.pop_due(now):
            if kind == "next_round":
                if self.match is not None and self.match.awaiting_deal:
                    self._deal(now, ActedBy.TIMER)
            elif kind == "grace":
                seat = self.seats[index]
                if seat.peer is None and seat.kind is SeatKind.PERSON and self.match is None:
                    # Nothing was dealt yet: the seat is simply free again.
                    seat.vacate()
                    self._broadcast_seats()
                elif seat.peer is None and seat.kind is SeatKind.PERSON and not seat.covered:
                    seat.covered = True
                    self._broadcast_seats()
                    if self.match is not None and self.match.turn == index:
                        self._schedule_turn(now)
            elif kind == "computer":
                self._think(index, ActedBy.COMPUTER)
            elif kind == "turn":
                self._think(index, ActedBy.TIMER)
        self._rearm()

    def next_deadline(self) -> float | None:
        return self._deadlines.next()

    def _rearm(self) -> None:
        when = self.next_deadline()
        if self._timer is not None:
            if when is not None and self._timer.when() == when:
                return
            self._timer.cancel()
            self._timer = None
        if when is not None and self.broken is None:
            loop = asyncio.get_running_loop()
            self._timer = loop.call_at(when, lambda: self.wake(loop.time()))

    # -- sending -----------------------------------------------------------------

    def _emit(self, records: list[Any], deliver: Callable[[], None]) -> None:
        """Run ``deliver`` once ``records`` (and everything journaled before) are on disk."""
        if self.journal is None or (not records and not self._waiting):
            deliver()
            return
        if records:
            future = self.journal.append(records, self.seq)
        else:
            future = asyncio.get_running_loop().create_future()
            future.set_result(None)
        self._emit_after(future, deliver)

    def _emit_after(self, future: asyncio.Future[None], deliver: Callable[[], None]) -> None:
        self._waiting.append((future, deliver))
        future.add_done_callback(self._release)

    def _release(self, _: object = None) -> None:
        while self._waiting and self._waiting[0][0].done():
            future, deliver = self._waiting.popleft()
            error = future.exception()
            if error is not None:
                self._fail(str(error))
                return
            deliver()

    def _fail(self, reason: str) -> None:
        """The journal failed: nothing more can be promised durable, so the table stops."""
        if self.broken is not None:
            return
        self.broken = f"the host stopped this table: {reason}"
        self._report(f"table {self.name}: {reason}")
        self._waiting.clear()
        self.close(Error(ErrorCode.SHUTTING_DOWN, self.broken, fatal=True))

    def close(self, error: Error | None) -> None:
        """Hang up on everybody at the table and stop its timers and computers."""
        self.broken = self.broken or "the table is closed"
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self._deadlines = Deadlines()
        for peer in self.peers():
            peer.table = None
            peer.close(error)
        self.spectators.clear()
        for seat in self.seats:
            seat.peer = None

    def peers(self) -> list[Peer]:
        seated = [s.peer for s in self.seats if s.peer is not None]
        return seated + list(self.spectators)

    def _send_all(self, message: HostMessage) -> None:
        frame = encode_frame(to_wire(message))
        for peer in self.peers():
            peer.send_frame(frame)

    def _seats_message(self) -> Seats:
        return Seats(tuple(s.public() for s in self.seats), len(self.spectators), self.match is not None)

    def _broadcast_seats(self) -> None:
        message = self._seats_message()
        self._emit([], lambda: self._send_all(message))

    def _snapshot_frames(self) -> list[tuple[Peer, bytes]]:
        match = self.match
        assert match is not None
        frames = [
            (s.peer, encode_frame(to_wire(Snapshot(self.seq, match.view(s.index)))))
            for s in self.seats if s.peer is not None
        ]
        if self.spectators:
            public = encode_frame(to_wire(Snapshot(self.seq, match.view(None))))
            frames.extend((p, public) for p in self.spectators)
        return frames

    def _send_snapshot(self, peer: Peer, now: float, *, next_round: bool = True) -> None:
        """Send ``peer`` everything it may know now, and the clock it plays against.

        During a break that clock is the `NextRound` message, unless the caller
        sends everyone a new one anyway (``next_round`` False).
        """
        match = self.match
        assert match is not None
        snapshot = Snapshot(self.seq, match.view(peer.seat))
        timer: HostMessage | None = None
        turn = match.turn
        deadline = self._deadlines.get(("turn", turn)) if turn is not None else None
        if turn is not None and deadline is not None:
            timer = TurnTimer(turn, max(0.0, deadline - now))
        elif match.awaiting_deal and next_round:
            timer = self._next_round_message(now)

        def deliver() -> None:
            if peer.table is self:
                peer.send(snapshot)
                if timer is not None:
                    peer.send(timer)

        self._emit([], deliver)
