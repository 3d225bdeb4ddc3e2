"""One table of a host: its seats, its match, its spectators and its timers.

The table is the host's authority over one match. It checks every intent
with the engine, numbers the public events, sends each seat the view built
for that seat (and spectators the public view), and never serialises anything
else. With a journal, the records of an action are on disk before anybody is
told of it: the `Record` effect comes first, and the host's machine holds
back the table's effects after it until the journal has synced it. The journal begins with the
first seat handed out, so that a host killed in the lobby keeps its seats.

The table is pure (sans-I/O, after h11): it never touches a socket, a file,
a thread, a clock or a source of randomness. Time comes in as ``now``, and
random bytes (its match id, seat tokens and keys, the seed) from the
``entropy`` it is made with, as aioquic takes its clock; every call returns
the effects to carry out in order (net/host/effects.py: send, close, journal,
think), and `Table.next_deadline` says when it next wants `Table.wake`. The
asyncio host carries the effects out and keeps the one timer.

A table's match stands in one `Phase` (lobby, playing, a break between rounds,
over); `MOVES` lists every move between them, in one place, after h11's
state machine, and any other is a `PhaseError`.

The table does not know which game it holds: core's registry of games
(core/games.py) makes its match and its computer players, and the wire's
declaration of that game (net/protocol.py, `GameWire`) its snapshots and updates.

Between rounds the table pauses (its match runs with ``pause_between_rounds``)
so that people can read the finished table: the next deal comes when every
connected person has said `ready`, or when the countdown of
`TableConfig.next_round_delay` runs out.
Computer players think in the host's executor, never on the event loop (a
`Think` effect): a thread pool, or a process pool so that a slow player holds
up nothing else; their choice comes back through `Table.chosen`.
"""

from __future__ import annotations

import base64
import hmac
from collections import deque
from collections.abc import Collection
from datetime import UTC, datetime
from enum import StrEnum
from pathlib import Path
from typing import Any

import msgspec
from capicu.core import DRAW, REDEAL, Action, IllegalAction, Rules
from capicu.core.codes import Code
from capicu.core.engine import Engine
from capicu.core.games import game_of, game_of_view, match_from_log
from capicu.net.codec import encode_frame
from capicu.net.codes import Entropy, new_seat_key, same_code
from capicu.net.protocol import (
    RECENT_CHAT_LIMIT,
    WATCHERS_LIMIT,
    ActedBy,
    ByeReason,
    Chat,
    Error,
    ErrorCode,
    GameSnapshot,
    GameUpdate,
    GameView,
    HostBye,
    HostMessage,
    MatchRecorded,
    NextRound,
    ProtocolError,
    Seat,
    SeatKind,
    Seats,
    TurnTimer,
    Welcome,
    clean_chat,
    clean_name,
    to_wire,
    wire_of_game,
)
from capicu.net.store.journal import (
    Header,
    Journal,
    JournalError,
    JournalSeat,
    Recovered,
    SeatsRecord,
    check_numbering,
    entry_records,
)
from capicu.net.store.record import MatchRecord, RecordSeat, record_of, utc_text
from msgspec import UNSET, UnsetType

from .effects import (
    Arrived,
    Close,
    Effect,
    HostNote,
    KeepRecord,
    Peer,
    Player,
    Record,
    Report,
    RoundScored,
    Send,
    Tell,
    Think,
)
from .sanitize import name_key, names_look_alike
from .timing import Deadlines

#: Spectators a table takes at once unless its config says otherwise.
MAX_SPECTATORS = 32


class ConfigProblem(Code):
    """Why a table or a host cannot be set up as asked, with the params it is said with;
    an interface words it (the command line names its own options)."""

    #: More computer seats than seats.
    COMPUTERS = "computers", "computers", "players"
    #: No computer player has that name.
    LEVEL = "level", "level"
    #: A turn timer must be more than 0 seconds.
    TURN_TIMER = "turn_timer", "seconds"
    #: ``field`` (grace, computer_delay or next_round_delay) is below 0 seconds.
    NEGATIVE_SECONDS = "negative_seconds", "field", "seconds"
    #: A table's name is 1 to 32 characters.
    TABLE_NAME = "table_name", "name"
    #: Below 0 spectators.
    SPECTATORS = "spectators", "spectators"
    #: Not from 0 to 65535.
    PORT = "port", "port"
    #: A join code is 1 to 32 letters or digits.
    JOIN_CODE = "join_code", "join_code"
    #: Rejoining by name without a join code would let anybody take a player's seat.
    REJOIN_NEEDS_CODE = "rejoin_needs_code"
    #: A resumed match goes on in the journal it was resumed from.
    RESUME_ELSEWHERE = "resume_elsewhere", "journal", "resume"
    #: Computer players need a thread (and 0 processes or more).
    WORKERS = "workers", "threads", "processes"


class ConfigError(ValueError):
    """A setting of `TableConfig` or `HostConfig` cannot be used: a `ConfigProblem` and its params;
    ``str()`` says it in English.

    The params must be the code's declared ones (ValueError otherwise), as `HostError`'s.
    """

    def __init__(self, message: str, code: ConfigProblem, **params: str | int | float | None) -> None:
        super().__init__(message)
        if set(params) != code.params:
            raise ValueError(f"{code} is said with {sorted(code.params)}, not {sorted(params)}")
        self.code = code
        self.params = params


class TableConfig(msgspec.Struct, frozen=True):
    """How one table plays; each setting is checked here, once (`ConfigError`, or the rules' `RulesError`)."""

    name: str = "main"
    rules: Rules = msgspec.field(default_factory=lambda: Rules.preset_named("puerto-rican-drawing"))
    players: int = 2
    #: Seats played by the computer (the last seats of the table).
    computers: int = 0
    #: A computer player's level: one of core's `LEVELS` (``random`` and ``greedy`` serve benchmarks).
    computer_level: str = "normal"
    #: Seconds a computer waits before it acts, so that people can follow the game.
    computer_delay: float = 0.0
    #: The seed of the deals; None draws one from the table's entropy.
    seed: int | None = None
    #: Seconds a person has for each turn before the computer acts for them; None: no limit.
    turn_timer: float | None = None
    #: Seconds a dropped person's seat waits before a computer covers it.
    grace: float = 60.0
    #: Write the match journal here (replaced if it exists).
    journal: Path | None = None
    max_spectators: int = MAX_SPECTATORS
    #: Seconds from a round's end to the next deal, unless every person is ready
    #: sooner; None: wait for the people however long; 0: no pause, the deal
    #: comes in the update that ends the round.
    next_round_delay: float | None = 20.0

    def __post_init__(self) -> None:
        self.rules.check_players(self.players)
        if not 0 <= self.computers <= self.players:
            raise ConfigError(f"{self.computers} computers do not fit {self.players} seats",
                              ConfigProblem.COMPUTERS, computers=self.computers, players=self.players)
        levels = game_of(self.rules).levels
        if self.computer_level not in levels:
            raise ConfigError(f"there is no computer player {self.computer_level!r}; choose one of "
                              f"{', '.join(levels)}", ConfigProblem.LEVEL, level=self.computer_level)
        if self.turn_timer is not None and not self.turn_timer > 0:
            raise ConfigError("the turn timer must be a positive number of seconds", ConfigProblem.TURN_TIMER,
                              seconds=self.turn_timer)
        for name in ("grace", "computer_delay", "next_round_delay"):
            seconds = getattr(self, name)
            if seconds is not None and not seconds >= 0:
                raise ConfigError(f"{name} must be 0 seconds or more", ConfigProblem.NEGATIVE_SECONDS,
                                  field=name, seconds=seconds)
        if not 1 <= len(self.name) <= 32:
            raise ConfigError("a table's name is a text of 1 to 32 characters", ConfigProblem.TABLE_NAME,
                              name=self.name)
        if self.max_spectators < 0:
            raise ConfigError("a table takes 0 spectators or more", ConfigProblem.SPECTATORS,
                              spectators=self.max_spectators)


class HostSeat(msgspec.Struct):
    """A seat as the host holds it: the public `Seat` plus its secrets, which never reach the wire."""

    index: int
    kind: SeatKind = SeatKind.OPEN
    name: str | None = None
    #: The seat's secret for the machine that took it, and its key for a person to type.
    token: str | None = None
    seat_key: str | None = None
    peer: Peer | None = None
    covered: bool = False
    #: A drawn seat (a club night's) whose person has not come to it yet.
    awaited: bool = False
    #: The person left on purpose (the computer covers the seat until they come back).
    left: bool = False
    player: Player | None = None

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


#: A match of the table's game (core/engine.py: every game's engine has this shape).
AnyMatch = Engine[Any, Any]


def computer_player(rules: Rules, level: str, seed: int) -> Player:
    """A computer player of ``level`` for the rules' game (each game has its own players)."""
    player: Player = game_of(rules).make_player(level, seed)
    return player


def choose_in_worker(level: str, seed: int, view: GameView) -> Action:
    """A computer player's choice, in a worker process (see `Think`): a player of the view's game."""
    return choose_with(game_of_view(view).make_player(level, seed), view)


def choose_with(player: Player, view: GameView) -> Action:
    """``player``'s choice from ``view`` (a player of the view's game, as `computer_player` made it)."""
    return player.choose(view)


def log_format(rules: Rules) -> str:
    """The format of the match log the rules' game writes (a journal's header names it)."""
    return game_of(rules).log_format


def _computer_name(index: int) -> str:
    return f"Computer {index + 1}"


#: The deadline of the countdown to the next deal (one per table).
_NEXT_DEAL = ("next_round", -1)


class Phase(StrEnum):
    """Where a table's match stands; `MOVES` lists every move between them (after h11's states)."""

    #: Seats are being taken; nothing is dealt yet.
    LOBBY = "lobby"
    #: A round is being played: a seat is on turn.
    PLAYING = "playing"
    #: A round is over and the next is not dealt: people read the table and say they are ready.
    BREAK = "break"
    #: The match is over; its record is public.
    OVER = "over"

    @classmethod
    def of(cls, match: AnyMatch | None) -> Phase:
        """The phase a table holding ``match`` (None: nothing dealt yet) is in."""
        if match is None:
            return cls.LOBBY
        if match.is_over:
            return cls.OVER
        return cls.BREAK if match.awaiting_deal else cls.PLAYING


#: The phases a table may move to from each: a table's whole life, in one place. (A round that
#: ends without a pause is dealt again in the same update: the table stays `Phase.PLAYING`.)
MOVES: dict[Phase, frozenset[Phase]] = {
    Phase.LOBBY: frozenset({Phase.PLAYING}),
    Phase.PLAYING: frozenset({Phase.BREAK, Phase.OVER}),
    Phase.BREAK: frozenset({Phase.PLAYING}),
    Phase.OVER: frozenset(),
}


class PhaseError(RuntimeError):
    """A table was to move between two phases that `MOVES` does not join: a bug of the host's."""

    def __init__(self, before: Phase, after: Phase) -> None:
        allowed = ", ".join(sorted(MOVES[before])) or "nothing"
        super().__init__(f"a table cannot go from {before} to {after} (from {before}: {allowed})")
        self.before = before
        self.after = after


class Table:
    """A table in a running host; see the module docstring."""

    def __init__(
        self,
        config: TableConfig,
        *,
        entropy: Entropy,
        heartbeat: float = 15.0,
        players_keep_state: bool = True,
        clock_offset: float = 0.0,
    ) -> None:
        """``entropy``: where the table's secrets and its seed come from, as the time comes in
        with ``now`` (a host passes `secrets.token_bytes`; a test, a seeded source).
        ``players_keep_state``: computer players think in threads and keep their state
        from move to move (False: each choice is made by a fresh player in another process).
        ``clock_offset``: what to add to the ``now`` the table is given for the time of day
        (seconds since 1970, UTC), which a finished match's record says it was played at.
        """
        self.config = config
        #: The table's game as the wire carries it (its snapshots, updates, rounds).
        self._game = wire_of_game(game_of(config.rules))
        self.heartbeat = heartbeat
        self.name = config.name
        self._entropy = entropy
        #: Names this table's match for clients (they key saved tokens by it); kept by a journal.
        self.match_id = self._random_text(12)
        #: Drawn now, so that a journal begun in the lobby already holds it.
        self.seed = config.seed if config.seed is not None else int.from_bytes(entropy(4), "big") >> 1
        self.match: AnyMatch | None = None
        self.seq = 0
        self.seats = [HostSeat(i) for i in range(config.players)]
        for i in range(config.players - config.computers, config.players):
            self.seats[i].kind = SeatKind.COMPUTER
            self.seats[i].name = _computer_name(i)
        self.spectators: list[Peer] = []
        self.journal: Journal | None = Journal(config.journal) if config.journal else None
        #: The journal's header is written (from the first seat handed out).
        self._journal_begun = False
        self.broken: str | None = None
        self._players_keep_state = players_keep_state
        #: ("grace" | "turn" | "computer", seat) or `_NEXT_DEAL` -> when.
        self._deadlines: Deadlines[tuple[str, int]] = Deadlines()
        #: Seats whose person said they are ready, during a break between rounds.
        self._ready: set[int] = set()
        self._version = 0
        self._thinking: tuple[int, int] | None = None
        #: A deal was just dealt: the computers not on turn are yet to be asked about a new one.
        self._deal_to_ask_about = False
        #: (version, seat) of the computers asked whether they want a new deal, not yet answered.
        self._asked_to_redeal: set[tuple[int, int]] = set()
        self._logged = 0
        #: The effects of the call in progress, handed out by `_drain`.
        self._out: list[Effect] = []
        #: The last chat lines said here, for the snapshot of a person who comes back.
        self._recent_chat: deque[Chat] = deque(maxlen=RECENT_CHAT_LIMIT)
        #: Seat -> the numbers of this round's events the computer made for that person's seat
        #: (covering them, or on their turn timer): their snapshot says so (`GameSnapshot.covered`).
        self._covered: dict[int, list[int]] = {}
        self._clock_offset = clock_offset
        #: When the match's first deal was made (on the clock of ``now``).
        self._started_at: float | None = None
        #: The finished match's record, made as its last action ends it (None until then).
        self.record: MatchRecord | None = None
        self._phase = Phase.LOBBY

    @property
    def phase(self) -> Phase:
        """Where the table's match stands (lobby, playing, a break between rounds, over)."""
        return self._phase

    def _move_to(self, phase: Phase) -> None:
        """The table's match now stands at ``phase``: one of the moves `MOVES` allows, or no move."""
        if phase is not self._phase:
            if phase not in MOVES[self._phase]:
                raise PhaseError(self._phase, phase)
            self._phase = phase

    # -- restoring -----------------------------------------------------------

    @classmethod
    def restore(
        cls,
        config: TableConfig,
        recovered: Recovered,
        journal: Journal,
        *,
        now: float,
        entropy: Entropy,
        heartbeat: float = 15.0,
        players_keep_state: bool = True,
        clock_offset: float = 0.0,
        awaited: Collection[int] = (),
    ) -> Table:
        """The table a journal recorded, its match replayed; every person is away.

        A journal begun in the lobby gives back the lobby, its seats held for
        their people for the grace period. ``awaited``: a drawn table's seats whose
        person had not come yet (the club night keeps that): their first arrival
        sits them down. Raises ValueError when the journal's match cannot be replayed.
        """
        header = recovered.header
        log = recovered.match_log()
        counted: list[int] = []  # the number of the last public event after each entry
        covering = dict(recovered.covering)  # entry -> the events the computer made for a person
        covered: dict[int, list[int]] = {}

        def count(_match: object, _action: object, actor: int | None, events: tuple[object, ...]) -> None:
            before = counted[-1] if counted else header.seq
            made = covering.get(len(counted), 0)
            if made and actor is not None:
                covered.setdefault(actor, []).extend(range(before + 1, before + 1 + made))
            counted.append(before + len(events))

        match = match_from_log(log, count) if log["entries"] else None
        try:
            check_numbering(recovered, counted)
        except JournalError as exc:
            raise ValueError(str(exc)) from None
        if len(header.seats) != header.players:
            raise ValueError("the journal's header does not list the table's seats")
        # The match's own settings come from the journal; the host's timings from ``config``.
        config = msgspec.structs.replace(
            config, name=header.table or config.name, rules=header.rules, players=header.players,
            computers=sum(1 for s in header.seats if s.kind is SeatKind.COMPUTER),
            computer_level=header.computer_level or config.computer_level, seed=header.seed, journal=None,
        )
        table = cls(config, entropy=entropy, heartbeat=heartbeat, players_keep_state=players_keep_state,
                    clock_offset=clock_offset)
        table.journal = journal
        # When the match began, on the clock of ``now`` (a journal of an older host does not say:
        # its record says it began when it was resumed).
        table._started_at = now
        if header.started is not UNSET:
            began = datetime.strptime(header.started, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC)
            table._started_at = began.timestamp() - clock_offset
        table._journal_begun = True
        if header.match:
            table.match_id = header.match
        for seat, saved in zip(table.seats, header.seats, strict=True):
            if saved.kind is SeatKind.OPEN:
                continue
            seat.kind = saved.kind
            seat.name = saved.name or _computer_name(seat.index)
            seat.token = saved.token or None
            if seat.kind is SeatKind.PERSON:
                # A journal from before seat keys gets new ones (welcomes carry them).
                seat.seat_key = saved.key or new_seat_key(entropy)
                seat.awaited = seat.index in awaited
                table._deadlines.set(("grace", seat.index), now + config.grace)
        table.match = match
        table._phase = Phase.of(match)  # a restored table begins where its match stands
        table.seq = recovered.seq
        table._logged = len(recovered.entries)
        if match is not None:
            # The computer's moves for a person, as before the restart: this round's (as `_note_covered`).
            first = table.seq - len(match.view(None).events) + 1
            table._covered = {seat: [n for n in numbers if n >= first] for seat, numbers in covered.items()}
        if match is not None and match.turn is not None and match.legal_actions() == (DRAW,):
            # A journal of an older host may stop where the rules force draws: make them now
            # (journaled; nobody is here to tell).
            drawer = match.turn
            by = ActedBy.COMPUTER if table.seats[drawer].computer_plays else ActedBy.PERSON
            table._publish((), drawer, by, None, None, now, announce_break=False)
        elif match is not None:
            table._deal_to_ask_about = True  # the computers' answers were not journalled
            table._schedule_turn(now)
            if table.phase is Phase.BREAK:
                # Nobody is back yet: the countdown starts again, and waits for them.
                table._begin_break(now, announce=False)
        # Nobody is connected yet: whatever the restore would send has nobody to reach,
        # but a computer's first move may be asked for (the host carries it out).
        return table

    def finish_restored(self, now: float) -> list[Effect]:
        """A restored match that is over (its host stopped as it ended): its record made and kept
        now (`KeepRecord`), as at its end; nothing for a match not over, or already recorded."""
        if self._phase is Phase.OVER and self.record is None and self.broken is None:
            self._finish(now)
        return self._drain()

    def take_effects(self) -> list[Effect]:
        """The effects of what happened outside a call (a restore's first computer move)."""
        return self._drain()

    def _drain(self) -> list[Effect]:
        out, self._out = self._out, []
        return out

    def _send(self, peer: Peer, message: HostMessage) -> None:
        self._out.append(Send(peer, encode_frame(to_wire(message))))

    # -- joining and leaving ------------------------------------------------

    def join(self, peer: Peer, raw_name: str, spectate: bool, now: float) -> list[Effect]:
        """Seat ``peer`` at the first open seat, or let it watch; ProtocolError if it cannot.

        A name that looks like another's (`names_look_alike`: the same once normalised and
        case-folded, or letter for letter confusable) is taken: two names that look alike
        on a screen are not two people.
        """
        self._check_open()
        name = clean_name(raw_name)
        taken = [s.name for s in self.seats if s.name] + [p.name for p in self.spectators if p.name]
        if any(names_look_alike(name, other) for other in taken):
            raise ProtocolError(ErrorCode.NAME_TAKEN, f"somebody at this table is already called {name!r}")
        seat = None if spectate else next((s for s in self.seats if s.kind is SeatKind.OPEN), None)
        if seat is None:
            if len(self.spectators) >= self.config.max_spectators:
                raise ProtocolError(ErrorCode.TABLE_FULL, "every seat and every spectator's place is taken")
            peer.name, peer.seat, peer.table = name, None, self
            self.spectators.append(peer)
            self._send(peer, self._welcome(None, name))
        else:
            seat.kind, seat.name, seat.peer = SeatKind.PERSON, name, peer
            seat.token, seat.seat_key = self._new_token(), new_seat_key(self._entropy)
            seat.covered = seat.left = False
            peer.name, peer.seat, peer.table = name, seat.index, self
            if self._phase is Phase.LOBBY:
                # The seat's secrets are on disk before its person has them: a host
                # killed in the lobby still knows whose seats these are.
                self._journal_seats()
            self._send(peer, self._welcome(seat))
            self._note(HostNote.SEATED, seat)
        self._broadcast_seats()
        if self._phase is not Phase.LOBBY:
            self._send_snapshot(peer, now)
        elif all(s.kind is not SeatKind.OPEN for s in self.seats):
            self._start(now)
        return self._drain()

    def seat_drawn(self, people: list[str | None], now: float) -> list[Effect]:
        """Seat a drawn table (a club night's round, net/club/) and start its match at once.

        ``people`` names each seat's person, in seat order (None: a computer plays the seat).
        Each person's seat is theirs before they come, with its token and key (their client
        is told them and comes back with the token, as after a drop); a person not here when
        the grace period ends is covered by the computer, like anybody who dropped.
        """
        self._check_open()
        if self._phase is not Phase.LOBBY or len(people) != len(self.seats):
            raise ValueError("a drawn table is seated once, a name or None for each of its seats")
        for seat, name in zip(self.seats, people, strict=True):
            if name is None:
                seat.kind, seat.name = SeatKind.COMPUTER, _computer_name(seat.index)
                continue
            seat.kind, seat.name, seat.awaited = SeatKind.PERSON, name, True
            seat.token, seat.seat_key = self._new_token(), new_seat_key(self._entropy)
            self._deadlines.set(("grace", seat.index), now + self.config.grace)
        self._journal_seats()
        self._start(now)
        return self._drain()

    def cover_seat(self, index: int, now: float) -> list[Effect]:
        """The person of seat ``index`` left for good (a club night's entrant who left it): the
        computer plays their seat from now on, as after a ``bye``; nothing if it is not theirs."""
        seat = self.seats[index]
        if self.broken is not None or seat.kind is not SeatKind.PERSON or self.match is None:
            return []
        old = seat.peer
        if old is not None:
            old.table = None
            self._out.append(Close(old, Error(ErrorCode.REPLACED, "you left the club night", fatal=True)))
            seat.peer = None
        self._deadlines.cancel(("grace", index))
        seat.covered = seat.left = True
        self._broadcast_seats()
        if self.match.turn == index:
            self._schedule_turn(now)
        if self._phase is Phase.BREAK:
            self._break_changed(now)
        return self._drain()

    def fill_with_computers(self, now: float) -> tuple[int, list[Effect]]:
        """Give every open seat to a computer and start the match: how many seats it filled.

        The host's own terminal uses it so that a missing player does not keep the
        table waiting. Does nothing once the match has started.
        """
        self._check_open()
        if self._phase is not Phase.LOBBY:
            return 0, []
        opened = [s for s in self.seats if s.kind is SeatKind.OPEN]
        for seat in opened:
            seat.kind, seat.name = SeatKind.COMPUTER, _computer_name(seat.index)
        self._broadcast_seats()
        self._start(now)
        return len(opened), self._drain()

    def resume(self, peer: Peer, now: float, *, token: str | None = None,
               seat_key: str | None = None) -> list[Effect]:
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
            match_id, dot, _ = (token or "").partition(".")
            if dot and match_id != self.match_id:
                # The token names a match this table is not playing: its host restarted without it.
                raise ProtocolError(ErrorCode.MATCH_GONE, f"the match {match_id!r} is not played at "
                                    "this table (its host restarted without it)")
            what = "token" if token is not None else "seat key"
            raise ProtocolError(ErrorCode.BAD_TOKEN, f"that {what} holds no seat at this table")
        return self.take_back(peer, found.index, now)

    def _new_token(self) -> str:
        """A seat's secret token: the match's id, a dot, then the secret (docs/PROTOCOL.md, section 2).

        The id lets a host that holds no such match say so (``match_gone``) rather than
        merely refuse the token: the player then knows the seat is lost, not mistyped.
        """
        return f"{self.match_id}.{self._random_text(24)}"

    def _random_text(self, size: int) -> str:
        """``size`` random bytes from the table's entropy, as URL-safe text (as `secrets.token_urlsafe`)."""
        return base64.urlsafe_b64encode(self._entropy(size)).rstrip(b"=").decode("ascii")

    def away_seat(self, name: str) -> int | None:
        """The seat of the away person called ``name`` (cleaned, any case), if there is one."""
        folded = name_key(name)
        for seat in self.seats:
            if seat.person_away and seat.name is not None and name_key(seat.name) == folded:
                return seat.index
        return None

    def take_back(self, peer: Peer, index: int, now: float) -> list[Effect]:
        """Seat ``peer`` in seat ``index``, its person's: as a resume with the token.

        An older connection that still holds the seat is told it was replaced.
        """
        self._check_open()
        found = self.seats[index]
        old = found.peer
        if old is not None and old is not peer:
            old.table = None
            self._out.append(Close(old, Error(ErrorCode.REPLACED,
                                              "your seat was reclaimed on another connection", fatal=True)))
        was_covered, first = found.covered, found.awaited
        found.peer, found.covered, found.left, found.awaited = peer, False, False, False
        self._deadlines.cancel(("grace", found.index))
        peer.name, peer.seat, peer.table = found.name, found.index, self
        self._send(peer, self._welcome(found))
        self._note(HostNote.SEATED if first else HostNote.CAME_BACK, found)
        if first:
            self._out.append(Arrived(self.name, found.index))
        self._broadcast_seats()
        match = self.match
        if match is None and all(s.kind is not SeatKind.OPEN and not s.person_away for s in self.seats):
            # A lobby restored full (the host stopped as its last seat was taken, before or
            # while the first deal was written) starts once its people are all back, as
            # `join` starts one when its last seat is taken.
            self._start(now)
        elif match is not None:
            self._send_snapshot(peer, now, next_round=False)
            if was_covered and match.turn == found.index:
                self._schedule_turn(now)
            if self._phase is Phase.BREAK:
                self._break_changed(now)
        return self._drain()

    def leave(self, peer: Peer, now: float, *, on_purpose: bool = False) -> list[Effect]:
        """``peer`` is gone: hold its seat for the grace period, or act on its ``bye``.

        A dropped connection's seat waits for the grace period; then a computer
        covers it during a match, and before the match starts it becomes free
        again. A person who leaves on purpose (``on_purpose``) is covered at once
        during a match (the seat stays theirs), and frees the seat in the lobby.
        """
        if peer.table is not self:
            return []
        peer.table = None
        if peer.seat is None:
            if peer in self.spectators:
                self.spectators.remove(peer)
                self._broadcast_seats()
            return self._drain()
        seat = self.seats[peer.seat]
        if seat.peer is not peer:
            return []
        seat.peer = None
        self._note(HostNote.LEFT if on_purpose else HostNote.DROPPED, seat)
        match = self.match
        if on_purpose and self._phase is Phase.LOBBY:
            self._deadlines.cancel(("grace", seat.index))
            seat.vacate()
            self._journal_seats()
        elif on_purpose:
            self._deadlines.cancel(("grace", seat.index))
            seat.covered = seat.left = True
        elif not seat.covered:
            self._deadlines.set(("grace", seat.index), now + self.config.grace)
        self._broadcast_seats()
        if match is not None and seat.covered and match.turn == seat.index:
            self._schedule_turn(now)
        if self._phase is Phase.BREAK:
            self._break_changed(now)
        return self._drain()

    def _note(self, note: HostNote, seat: HostSeat) -> None:
        """Tell the operator what became of a person's seat (an interface words it)."""
        self._out.append(Report(note(table=self.name, seat=seat.index, name=seat.name or "")))

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

    def _journal_header(self) -> Header[Rules]:
        header = Header(
            log_format=log_format(self.config.rules), rules=self.config.rules, players=self.config.players,
            seed=self.seed,
            table=self.name, match=self.match_id, computer_level=self.config.computer_level,
            seats=self._journal_seat_list(), pause_between_rounds=self.config.next_round_delay != 0,
        )
        return header

    def _journal_seat_list(self) -> tuple[JournalSeat, ...]:
        return tuple(JournalSeat(s.kind, s.name, s.token, s.seat_key) for s in self.seats)

    def _journal_seats(self, started: str | UnsetType = UNSET) -> None:
        """Put the seats as they are now in the journal (in the lobby, where they change);
        ``started``: the match starts now (the time a record says it began)."""
        if self.journal is None:
            return
        if not self._journal_begun:
            self._journal_begun = True
            header = self._journal_header()
            if started is not UNSET:
                header = msgspec.structs.replace(header, started=started)
            self._out.append(Record(self.journal, (header,)))
        else:
            self._out.append(Record(self.journal, (SeatsRecord(self._journal_seat_list(), started),)))

    def _start(self, now: float) -> None:
        match: AnyMatch = self._game.spec.new_match(self.config.rules, self.config.players, self.seed,
                                                    pause_between_rounds=self.config.next_round_delay != 0)
        self.match = match
        self._move_to(Phase.PLAYING)
        self._started_at = now
        # Mexican Train's first player may hold nothing for its train: the host draws its tile
        # now, as after any move (`_forced_draws`), and the snapshots hold that draw.
        self.seq = len(match.opening_events) + len(self._forced_draws())
        if self.journal is not None:
            self._journal_seats(utc_text(self._clock_offset + now))
            records = entry_records(match.entries_since(0), self.seq)
            self._out.append(Record(self.journal, tuple(records)))
        self._logged = match.entry_count
        self._deal_to_ask_about = True
        self._send_all(self._seats_message())
        self._out.extend(Send(peer, frame) for peer, frame in self._snapshot_frames())
        self._schedule_turn(now)

    def act(self, peer: Peer, action: Action, ref: int | None, now: float) -> list[Effect]:
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
        return self._drain()

    def _publish(
        self, events: tuple[Any, ...], actor: int | None, by: ActedBy,
        mover: Peer | None,
        ref: int | None, now: float, *, announce_break: bool = True,
    ) -> None:
        """Journal and send what just happened, then see what comes next (a turn, a break).

        The draws the rules then force on the seat on turn are made here and go
        out in the same update (see `_forced_draws`).
        """
        match = self.match
        assert match is not None
        acted = len(events)
        events += self._forced_draws()
        covering = self._note_covered(events, acted, actor, by)
        round_started = self._game.round_started
        if any(type(event) is round_started for event in events):
            self._deal_to_ask_about = True
            self._asked_to_redeal.clear()  # their answers are about the deal before
        self._version += 1
        self.seq += len(events)
        if self.journal is not None:
            # The action (and the next deal, without a pause), or the deal: on disk
            # before anybody hears of it (the host holds back what follows).
            # (The first entry is the move: a computer's for a person says so, for a restart's snapshots.)
            entries = match.entries_since(self._logged)
            self._logged += len(entries)
            records = entry_records(entries, self.seq, covered=covering)
            self._out.append(Record(self.journal, tuple(records)))
        seated = [s for s in self.seats if s.peer is not None]
        # The mover's answer first: the host writes it before it encodes the others'.
        seated.sort(key=lambda s: s.peer is not mover)
        out = self._out
        for seat in seated:
            assert seat.peer is not None
            out.append(Tell((seat.peer,), self._update(
                events, match.view(seat.index), actor, by, ref if seat.peer is mover else None,
            )))
        if self.spectators:
            public = self._update(events, match.view(None), actor, by, None)
            out.append(Tell(tuple(self.spectators), public))
        self._move_to(Phase.of(match))
        self._schedule_turn(now)
        if self._phase is Phase.BREAK:
            self._begin_break(now, announce=announce_break)
        if self._phase is Phase.OVER and self.record is None:
            self._finish(now)
        elif any(type(event) is self._game.round_ended for event in events):
            self._out.append(RoundScored(self.name))

    def _note_covered(self, events: tuple[Any, ...], acted: int, actor: int | None, by: ActedBy) -> int:
        """Keep the numbers of the first ``acted`` of ``events`` (numbered from ``self.seq + 1``) when
        the computer made them for a person's seat; forget those of a round these events end. How many
        it kept (the journal says it: 0 for none)."""
        started = [n for n, event in enumerate(events) if type(event) is self._game.round_started]
        if started:
            first = self.seq + started[-1] + 1  # the first number the views' events keep from now
            for numbers in self._covered.values():
                numbers[:] = [number for number in numbers if number >= first]
        if actor is not None and by is not ActedBy.PERSON and self.seats[actor].kind is SeatKind.PERSON:
            first = self.seq + 1
            self._covered.setdefault(actor, []).extend(range(first, first + acted))
            return acted
        return 0

    def _finish(self, now: float) -> None:
        """The match just ended: everybody here gets its record, right after the update that ended it,
        and the host keeps its own (`KeepRecord`). Never before: a record shows every hand."""
        match = self.match
        assert match is not None
        started = self._started_at if self._started_at is not None else now
        try:
            self.record = record_of(
                match, [self._record_seat(seat) for seat in self.seats], match_id=self.match_id,
                started=self._clock_offset + started, ended=self._clock_offset + now,
            )
        except ValueError as exc:  # (a match id of an old journal that cannot name a file): the game goes on
            self._out.append(Report(HostNote.RECORD_FAILED(table=self.name, problem=str(exc))))
            return
        peers = tuple(self.peers())
        if peers:
            self._out.append(Tell(peers, MatchRecorded(self.record)))
        self._out.append(KeepRecord(self.name, self.record))

    def _record_seat(self, seat: HostSeat) -> RecordSeat:
        if seat.kind is SeatKind.COMPUTER:
            return RecordSeat(seat.name or _computer_name(seat.index), "computer", self.config.computer_level)
        return RecordSeat(seat.name or "", "person")

    def _update(self, events: tuple[Any, ...], view: GameView, actor: int | None,
                by: ActedBy, ref: int | None) -> GameUpdate[Any, Any]:
        """The update that carries ``events`` and ``view``'s changing fields, in the table's game."""
        game = self._game
        return game.update(self.seq, events, game.state_of(view), actor, by, ref)

    def _forced_draws(self) -> tuple[Any, ...]:
        """Draw for the seat on turn while drawing is all the rules let it do; the events.

        docs/RULES.md: a player with no playable tile draws, one tile at a time,
        until a drawn tile can be played or the reserve is reached (then they
        pass, which stays their own intent). Nobody chooses these draws, so
        nobody is asked: no round trip per tile from a person's screen, no
        computer's think, no turn timer. Each is the engine's own `TilesDrawn`
        (who drew, never which tile), so every seat learns what it learned
        before, in one update instead of one per tile.

        Mexican Train the same way: a player who cannot play draws one tile
        (docs/RULES.md, ``mexican-train``), so when drawing is all its rules let
        the seat on turn do, the host draws that tile (a `MexicanTileDrawn`); then
        the seat plays it or passes, which stays its own intent.
        """
        match = self.match
        assert match is not None
        drawn: list[Any] = []
        while match.turn is not None and match.legal_actions() == (DRAW,):
            drawn.extend(match.apply(DRAW, match.turn))
        return tuple(drawn)

    def chat(self, peer: Peer, text: str) -> list[Effect]:
        line = clean_chat(text)
        if line:
            said = Chat(peer.name or "?", peer.seat, line)
            self._recent_chat.append(said)
            self._send_all(said)
        return self._drain()

    # -- between rounds ----------------------------------------------------------

    def ready(self, peer: Peer, now: float) -> list[Effect]:
        """``peer`` has read the round's end; ignored outside a break and from spectators."""
        if peer.seat is None or self._phase is not Phase.BREAK:
            return []
        if self.seats[peer.seat].peer is not peer or peer.seat in self._ready:
            return []
        self._ready.add(peer.seat)
        self._break_changed(now)
        return self._drain()

    def _begin_break(self, now: float, *, announce: bool = True) -> None:
        """A round just ended: start the countdown to the next deal and tell everyone.

        A restored table does not ``announce``: nobody is there yet, and the
        countdown gives them time to come back.
        """
        self._ready = set()
        delay = self.config.next_round_delay
        if delay is not None:
            self._deadlines.set(_NEXT_DEAL, now + delay)
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
            self._send_all(self._next_round_message(now))

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
            return
        self._ask_about_redeals()
        seat = self.seats[match.turn]
        if seat.computer_plays and self._asked_to_redeal:
            return  # the first move waits for their answers (`chosen` schedules it)
        if seat.computer_plays:
            if self.config.computer_delay > 0:
                self._deadlines.set(("computer", seat.index), now + self.config.computer_delay)
            else:
                self._think(seat.index, ActedBy.COMPUTER)
        elif self.config.turn_timer is not None:
            self._deadlines.set(("turn", seat.index), now + self.config.turn_timer)
            self._send_all(TurnTimer(seat.index, self.config.turn_timer))

    def _ask_about_redeals(self) -> None:
        """After a deal, ask each computer seat not on turn that may ask for a new deal whether it does.

        docs/RULES.md (redeal on five doubles): any player dealt five doubles may
        ask before the first tile, on turn or not. The seat on turn answers with
        its move; the others are asked once here, through the same `Think` as a
        move, and the first move of a computer on turn waits for their answers,
        so that what happens does not depend on which thread ends first.
        """
        match = self.match
        if not self._deal_to_ask_about or match is None or self.config.rules.redeal_on_doubles is not True:
            return
        self._deal_to_ask_about = False
        for seat in self.seats:
            if (seat.index != match.turn and seat.computer_plays
                    and match.view(seat.index).legal == (REDEAL,)):
                self._asked_to_redeal.add((self._version, seat.index))
                self._out.append(self._think_effect(seat.index, ActedBy.COMPUTER))

    def _think(self, index: int, by: ActedBy) -> None:
        """Ask for the computer's action for seat ``index`` (the host runs it off the event loop)."""
        if self._thinking == (self._version, index):
            return
        self._thinking = (self._version, index)
        self._out.append(self._think_effect(index, by))

    def _think_effect(self, index: int, by: ActedBy) -> Think:
        """The `Think` that asks seat ``index``'s computer for its choice from its view now."""
        match = self.match
        assert match is not None
        seat = self.seats[index]
        player = None
        if self._players_keep_state:
            if seat.player is None:
                seat.player = computer_player(self.config.rules, self.config.computer_level,
                                              (match.seed * 31 + index) % 2**31)
            player = seat.player
        # In another process the player cannot keep its state from move to move:
        # a fresh one each time, its seed drawn from the match's.
        seed = (match.seed * 1_000_003 + index * 7_919 + self._version) % 2**31
        return Think(self, index, self._version, by, match.view(index),
                     self.config.computer_level, seed, player)

    def chosen(self, think: Think, action: Action | None, failure: str | None,
               now: float) -> list[Effect]:
        """The computer's choice for ``think`` (``failure``: why it has none)."""
        index, version, by = think.seat, think.version, think.by
        if self._thinking == (version, index):
            self._thinking = None
        match = self.match
        if self.broken or match is None:
            return []
        if (version, index) in self._asked_to_redeal:
            self._redeal_answered(index, version, action, by, now)
            return self._drain()
        if version != self._version or match.turn != index:
            return []  # the table moved on while the computer thought
        if by is ActedBy.COMPUTER and not self.seats[index].computer_plays:
            return []  # the person came back
        try:
            if action is None:
                raise ValueError(failure or "no action")
            events = match.apply(action, index)
        except Exception as exc:  # a computer player's bug must not stop the table
            self._out.append(Report(HostNote.COMPUTER_FAILED(table=self.name, seat=index,
                                                             problem=failure or repr(exc))))
            events = match.apply(match.legal_actions()[0], index)
        self._publish(events, index, by, None, None, now)
        return self._drain()

    def _redeal_answered(self, index: int, version: int, action: Action | None, by: ActedBy,
                         now: float) -> None:
        """Seat ``index``'s computer, asked out of turn, answered: deal again, or go on with this deal.

        Anything but a new deal keeps the deal (the hard player declines by
        refusing to choose), and the seat is not asked again this round. An
        answer the table moved on from (a person laid the first tile) is dropped.
        """
        match = self.match
        assert match is not None
        self._asked_to_redeal.discard((version, index))
        # (A person back in the seat meanwhile asks for themselves.)
        if (action is REDEAL and version == self._version and self.seats[index].computer_plays
                and REDEAL in match.view(index).legal):
            self._publish(match.apply(REDEAL, index), index, by, None, None, now)
        elif not self._asked_to_redeal and match.turn is not None and self.seats[match.turn].computer_plays:
            self._schedule_turn(now)  # the first move waited for the answers

    def wake(self, now: float) -> list[Effect]:
        """Act on every deadline that has come by ``now`` (the host calls this at `next_deadline`)."""
        for kind, index in self._deadlines.pop_due(now):
            if kind == "next_round":
                if self._phase is Phase.BREAK:
                    self._deal(now, ActedBy.TIMER)
            elif kind == "grace":
                seat = self.seats[index]
                if seat.peer is None and seat.kind is SeatKind.PERSON and self._phase is Phase.LOBBY:
                    # Nothing was dealt yet: the seat is simply free again.
                    seat.vacate()
                    self._journal_seats()
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
        return self._drain()

    def next_deadline(self) -> float | None:
        """When `wake` next has something to do (None: nothing is timed)."""
        return None if self.broken is not None else self._deadlines.next()

    # -- sending -----------------------------------------------------------------

    def journal_failed(self, reason: str) -> list[Effect]:
        """The journal cannot be written: nothing more can be promised durable, so the table stops."""
        if self.broken is not None:
            return []
        self.broken = f"the host stopped this table: {reason}"
        self._out.append(Report(HostNote.JOURNAL_FAILED(table=self.name, problem=reason)))
        return self._drain() + self.close(Error(ErrorCode.SHUTTING_DOWN, self.broken, fatal=True))

    @property
    def resumable(self) -> bool:
        """A host started again could resume this table's match: it is journalled and not over."""
        if self.journal is None or not self._journal_begun or self.broken is not None:
            return False
        return self._phase is not Phase.OVER

    def farewell(self, name: str | None, *, resumable: bool = True) -> list[Effect]:
        """Tell everybody here the game ends on purpose (``name`` closed it), before the host hangs up;
        ``resumable=False``: the match will not be offered again (its journal is set aside)."""
        bye = HostBye(ByeReason.CLOSED, name, resumable and self.resumable)
        peers = tuple(self.peers())
        if peers:
            self._out.append(Tell(peers, bye))
        return self._drain()

    def close(self, error: Error | None) -> list[Effect]:
        """Hang up on everybody at the table and stop its timers and computers."""
        self.broken = self.broken or "the table is closed"
        self._deadlines = Deadlines()
        for peer in self.peers():
            peer.table = None
            self._out.append(Close(peer, error))
        self.spectators.clear()
        for seat in self.seats:
            seat.peer = None
        return self._drain()

    def peers(self) -> list[Peer]:
        seated = [s.peer for s in self.seats if s.peer is not None]
        return seated + list(self.spectators)

    def _send_all(self, message: HostMessage) -> None:
        frame = encode_frame(to_wire(message))
        self._out.extend(Send(peer, frame) for peer in self.peers())

    def _seats_message(self) -> Seats:
        return Seats(tuple(s.public() for s in self.seats), len(self.spectators),
                     self._phase is not Phase.LOBBY,
                     tuple(p.name or "" for p in self.spectators[:WATCHERS_LIMIT]),
                     tuple(s.index for s in self.seats if s.awaited))

    def _broadcast_seats(self) -> None:
        self._send_all(self._seats_message())

    def _snapshot_frames(self) -> list[tuple[Peer, bytes]]:
        match = self.match
        assert match is not None
        frames = [
            (s.peer, encode_frame(to_wire(self._snapshot(match.view(s.index)))))
            for s in self.seats if s.peer is not None
        ]
        if self.spectators:
            public = encode_frame(to_wire(self._snapshot(match.view(None))))
            frames.extend((p, public) for p in self.spectators)
        return frames

    def _snapshot(self, view: GameView, chat: tuple[Chat, ...] = ()) -> GameSnapshot[Any]:
        """The snapshot that carries ``view`` (and the last ``chat`` lines), in the table's game: a seat's
        says which of its round's events the computer made for it."""
        first = self.seq - len(view.events) + 1  # the number of the view's first event
        mine = self._covered.get(view.seat, []) if view.seat is not None else []
        covered = tuple(number for number in mine if number >= first)
        return self._game.snapshot(self.seq, view, chat, covered=covered)

    def _send_snapshot(self, peer: Peer, now: float, *, next_round: bool = True) -> None:
        """Send ``peer`` everything it may know now, and the clock it plays against.

        During a break that clock is the `NextRound` message, unless the caller
        sends everyone a new one anyway (``next_round`` False).
        """
        match = self.match
        assert match is not None
        # What was said lately comes along: a person who comes back reads it again.
        snapshot = self._snapshot(match.view(peer.seat), tuple(self._recent_chat))
        timer: HostMessage | None = None
        turn = match.turn
        deadline = self._deadlines.get(("turn", turn)) if turn is not None else None
        if turn is not None and deadline is not None:
            timer = TurnTimer(turn, max(0.0, deadline - now))
        elif self._phase is Phase.BREAK and next_round:
            timer = self._next_round_message(now)
        self._send(peer, snapshot)
        if timer is not None:
            self._send(peer, timer)
        if self.record is not None:
            # Once the match is over its record is public: whoever comes in now gets it too.
            self._send(peer, MatchRecorded(self.record))
