"""The client's model of the table: one state, and every host message applied to it once.

After h11's `Connection`: `TableModel.apply` takes one message (from the host,
or the client's own word on the connection: `Reconnecting`, `Reconnected`,
`Closed`) with the time it is taken, changes the model, and returns a `Change`
saying what it took and what it replaced. Nothing here reads a socket or a
clock, and nothing depends on how the bytes were decoded: it sees declared
messages only. `Client` owns one model and applies each message as the reader
takes it, so the model is never ahead of what its reader has seen; the
interface holds that same model and follows its changes.

A new host message touches three places: its declaration in net/protocol.py,
its `apply` branch here (and the field it sets), and the screen that shows it.
"""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import Any, ClassVar

import msgspec
from capicu.core.codes import Code, Statement
from capicu.net.store.keeping import HistoryProblem
from capicu.net.store.record import MatchRecord, RecordError, finished_match

from .protocol import (
    ActedBy,
    Chat,
    ClubDrawn,
    ClubRoster,
    ClubStandings,
    Error,
    GameSnapshot,
    GameUpdate,
    GameView,
    HostBye,
    MatchRecorded,
    NextRound,
    Seat,
    Seats,
    TurnTimer,
    Welcome,
    advance_view,
)


class LinkEnd(Code):
    """Why a connection to the host ended (`Reconnecting`) or the client stopped (`Closed`).

    Each is said with exactly the params it declares (checked where a `Reconnecting`
    or a `Closed` is made); the interface puts them into words.
    """

    #: Three heartbeats without a word from the host.
    HOST_SILENT = "host_silent"
    HOST_CLOSED = "host_closed"
    #: ``problem``: what the codec could not read (English, for programmers).
    UNREADABLE = "unreadable", "problem"
    #: ``problem``: the system's words for the broken connection.
    BROKEN = "broken", "problem"
    #: ``problem``: the system's words ("connection refused"); "" when nothing answered in time.
    UNREACHABLE = "unreachable", "problem"
    #: ``code``: the host's `ErrorCode` (it refused us, or hangs up: shutting down, too slow).
    REFUSED = "refused", "code"
    #: ``seconds`` spent trying; ``last``: the `LinkEnd` of the last try, with that one's
    #: ``problem`` or ``code`` ("" for the one it does not have).
    GAVE_UP = "gave_up", "seconds", "last", "problem", "code"
    #: The host ended the game on purpose (its `HostBye`): ``reason``, ``name`` (who closed it, or
    #: ""), ``resumable`` (1: a host started again can resume the match, and the seat stays saved).
    HOST_BYE = "host_bye", "reason", "name", "resumable"
    #: This client closed (`Client.close`) or dropped (`Client.drop`) the connection.
    CLOSED_HERE = "closed_here"
    DROPPED_HERE = "dropped_here"


def _check_link_params(reason: LinkEnd, params: LinkParams) -> None:
    if set(params) != reason.params:
        raise ValueError(f"{reason} is said with {sorted(reason.params)}, not {sorted(params)}")


#: The params of a `LinkEnd`: texts and numbers.
LinkParams = dict[str, str | int | float]


class Update(msgspec.Struct, frozen=True):
    """Public events, numbered, and the whole view after them (a `GameUpdate` as the model took it).

    The wire's update carries only the view's changing fields; the model makes
    the whole view from the one before, in arrival order (`advance_view`). The
    events and the view are the table's game's.
    """

    type: ClassVar[str] = "update"
    #: The number of the last event in ``events``.
    seq: int
    events: tuple[Any, ...]
    view: GameView
    #: The seat whose action caused the events (None for the deal after a break).
    actor: int | None
    by: ActedBy
    #: The ``ref`` of your intent, when this update answers it.
    ref: int | None


class Reconnecting(msgspec.Struct, frozen=True):
    """The connection dropped; the client retries in ``delay`` seconds (attempt ``attempt``).

    The first comes at once (attempt 1), then one after each failed attempt;
    ``reason`` is why the last one failed (the drop itself, for the first).
    """

    type: ClassVar[str] = "reconnecting"
    attempt: int
    delay: float
    reason: LinkEnd
    params: LinkParams = msgspec.field(default_factory=dict)
    #: The last attempt could not reach the host at all (refused, unreachable,
    #: timed out), or the host said it was shutting down: say the host is gone.
    host_down: bool = False

    def __post_init__(self) -> None:
        _check_link_params(self.reason, self.params)


class Reconnected(msgspec.Struct, frozen=True):
    """Back in the seat (a `Snapshot` follows)."""

    type: ClassVar[str] = "reconnected"
    seat: int | None


class Closed(msgspec.Struct, frozen=True):
    """The client is finished: it closed, was refused, or gave up reconnecting."""

    type: ClassVar[str] = "closed"
    reason: LinkEnd
    params: LinkParams = msgspec.field(default_factory=dict)

    def __post_init__(self) -> None:
        _check_link_params(self.reason, self.params)


#: Everything the model takes, and `Client` yields (a `GameUpdate` is yielded as an `Update`).
Incoming = (
    Welcome | Seats | GameSnapshot[Any] | Update | Chat | TurnTimer | NextRound | HostBye | Error
    | MatchRecorded | ClubRoster | ClubDrawn | ClubStandings | Reconnecting | Reconnected | Closed
)
#: What `TableModel.apply` is given: what the host sent (its update as on the wire) and the client's word.
Taken = (
    Welcome | Seats | GameSnapshot[Any] | GameUpdate[Any, Any] | Chat | TurnTimer | NextRound
    | HostBye | Error | MatchRecorded | ClubRoster | ClubDrawn | ClubStandings | Reconnecting | Reconnected
    | Closed
)


class LinkState(StrEnum):
    """How the connection to the host stands, as the client last said."""

    UP = "up"
    RECONNECTING = "reconnecting"
    CLOSED = "closed"


class ChatLine(msgspec.Struct, frozen=True):
    """A chat line as the host cleaned it; ``seat`` None for a spectator."""

    name: str
    seat: int | None
    text: str


class NextRoundState(msgspec.Struct, frozen=True):
    """Between rounds: who is ready for the next deal, who the host waits for, and when it deals."""

    #: When the countdown runs out, on the clock `apply` was given (None: no countdown).
    deadline: float | None
    ready: tuple[int, ...]
    waiting: tuple[int, ...]


class TurnClock(msgspec.Struct, frozen=True):
    """Seat ``seat`` must act by ``deadline`` (on the clock `apply` was given), or the computer acts."""

    seat: int
    deadline: float


class Change(msgspec.Struct, frozen=True):
    """One message the model took, and what it replaced: screens tell what is new from the two."""

    #: What was taken (a `GameUpdate` as the `Update` with the whole view).
    message: Incoming
    #: The view before it (None before the first snapshot).
    view_before: GameView | None = None
    #: The seats before it (a seat map: who sat down, dropped, left or came back).
    seats_before: tuple[Seat, ...] = ()
    #: The seats awaited before it (a club night's drawn seats whose person had not come yet).
    awaited_before: frozenset[int] = frozenset()


class TableModel:
    """What this client knows of its table: who we are, the seats, the view, the clocks, chat, the link."""

    def __init__(self, name: str = "") -> None:
        #: Who we are: our name as the host has it (as asked until the welcome), seat (None: watching).
        self.name = name
        self.seat: int | None = None
        self.table = "main"
        #: The seat's secret for this machine to keep, and its key for a person to type elsewhere
        #: (the ones a hello offers, then the ones the welcome gives).
        self.token: str | None = None
        self.seat_key: str | None = None
        #: The id of the table's match: saved tokens are keyed by it.
        self.match_id: str | None = None
        #: The first welcome gave back a seat held for us (a token, a seat key, the operator's yes).
        self.resumed = False
        #: Seats at the table (from the welcome, then the seat map).
        self.players = 0
        self.seats: tuple[Seat, ...] = ()
        self.spectators = 0
        #: The spectators' names, in the order they came.
        self.watchers: tuple[str, ...] = ()
        #: A club night's drawn seats whose person has not come yet (`Seats.awaited`).
        self.awaited: frozenset[int] = frozenset()
        #: The match has begun (the seat map says so, or a view came).
        self.started = False
        #: The view as of the last snapshot or update taken (a view of the table's game), and
        #: the number of its last event.
        self.view: GameView | None = None
        self.seq = 0
        #: The numbers of the view's round's events that the computer made for our seat (covering it
        #: while we were away, or on our turn timer): the snapshot says them, and updates add theirs.
        self.covered: frozenset[int] = frozenset()
        self.timer: TurnClock | None = None
        #: Between rounds: the host's last word on the next deal; else None.
        self.next_round: NextRoundState | None = None
        self.chat: list[ChatLine] = []
        self.link = LinkState.UP
        #: How many times the connection dropped.
        self.drops = 0
        #: Why the link went down or ended, as last said (`Reconnecting` or `Closed`).
        self.link_end: Reconnecting | Closed | None = None
        #: The client stopped while it was trying to get the seat back (it gave up, or was refused).
        self.closed_while_reconnecting = False
        #: The last welcome, as it came.
        self.welcome: Welcome | None = None
        #: The host ended the game on purpose, and said so (who closed it, whether it can resume).
        self.host_bye: HostBye | None = None
        #: The finished match's record, as the host sent it once the match was over and this
        #: model checked it (None: none came, or it was refused).
        self.record: MatchRecord | None = None
        #: Why the host's record was refused, or could not be kept (a sentence, for a log).
        self.record_problem: str | None = None
        #: Where this machine keeps the record (set by the client that wrote it).
        self.record_file: Path | None = None
        #: What went wrong keeping the match in the history of matches (net/store/history.py), if anything.
        self.history_problem: Statement[HistoryProblem] | None = None
        #: On a club night's connection (``table`` "club"): the night as it stands, the last round
        #: drawn (with our table, seat and its secret in it) and the standings, as last said.
        self.club: ClubRoster | None = None
        self.club_draw: ClubDrawn | None = None
        self.standings: ClubStandings | None = None

    def apply(self, message: Taken, now: float) -> Change | None:
        """Take ``message`` at time ``now``; what changed, or None for an update the view already holds."""
        if isinstance(message, GameUpdate):
            return self._update(message)
        if isinstance(message, GameSnapshot):
            before = self.view
            self.view, self.seq = message.view, message.seq
            self.covered = frozenset(message.covered)
            self._chat_came(message.chat)
            self._view_came(message.view)
            return Change(message, before, self.seats)
        if isinstance(message, Seats):
            before_seats, awaited_before = self.seats, self.awaited
            self.seats, self.spectators, self.watchers = message.seats, message.spectators, message.watchers
            self.awaited = frozenset(message.awaited)
            self.started = self.started or message.started
            if message.seats:
                self.players = len(message.seats)
            return Change(message, self.view, before_seats, awaited_before)
        if isinstance(message, TurnTimer):
            self.timer = TurnClock(message.seat, now + message.seconds)
        elif isinstance(message, NextRound):
            deadline = None if message.seconds is None else now + message.seconds
            self.next_round = NextRoundState(deadline, tuple(message.ready), tuple(message.waiting))
        elif isinstance(message, Chat):
            self.chat.append(ChatLine(message.name, message.seat, message.text))
        elif isinstance(message, Welcome):
            self._welcome(message)
        elif isinstance(message, HostBye):
            self.host_bye = message
        elif isinstance(message, MatchRecorded):
            self._record_came(message.record)
        elif isinstance(message, ClubRoster):
            self.club = message
        elif isinstance(message, ClubDrawn):
            self.club_draw = message
        elif isinstance(message, ClubStandings):
            self.standings = message
        elif isinstance(message, Reconnecting):
            if self.link is not LinkState.RECONNECTING:
                self.drops += 1
            self.link, self.link_end = LinkState.RECONNECTING, message
        elif isinstance(message, Reconnected):
            self.link = LinkState.UP
        elif isinstance(message, Closed):
            self.closed_while_reconnecting = self.link is LinkState.RECONNECTING
            self.link, self.link_end = LinkState.CLOSED, message
        # An `Error` changes nothing here: it answers an intent (a fatal one: `Closed` follows).
        return Change(message, self.view, self.seats)

    def _record_came(self, record: MatchRecord) -> None:
        """Keep the host's record if it is this match's and replays to the totals we saw; else say why not."""
        try:
            self.record, self.record_problem = self._checked_record(record), None
        except RecordError as exc:
            self.record, self.record_problem = None, f"the host's match record is refused: {exc}"

    def _checked_record(self, record: MatchRecord) -> MatchRecord:
        if record.match_id != self.match_id:
            raise RecordError(f"it is the record of the match {record.match_id!r}, not of this one")
        view = self.view
        if view is None or not view.match_over:
            raise RecordError("it came before this client saw the match end")
        if len(record.seats) != view.players:
            raise RecordError("it does not name this table's seats")
        # The match it replays to ends as this client saw it end: the same view, totals and all.
        if finished_match(record).view(view.seat) != view:
            raise RecordError("its totals are not the ones this client saw the match end with")
        return record

    def _chat_came(self, recent: tuple[Chat, ...]) -> None:
        """The snapshot's recent chat: what of it this model has not taken yet, after what it has.

        A new process has nothing yet and takes it all; a client back after a drop has
        what was said before and takes what came after the last line it shares with the
        snapshot (all of it when none is shared: more was said than the snapshot holds).
        """
        lines = [ChatLine(line.name, line.seat, line.text) for line in recent]
        have = self.chat
        shared = next((n for n in range(min(len(have), len(lines)), 0, -1) if have[-n:] == lines[:n]), 0)
        self.chat = [*have, *lines[shared:]]

    def _welcome(self, welcome: Welcome) -> None:
        self.welcome = welcome
        self.name, self.seat, self.table = welcome.name, welcome.seat, welcome.table
        self.players = welcome.players
        if welcome.token is not None:
            self.token = welcome.token
        if welcome.seat_key is not None:
            self.seat_key = welcome.seat_key
        self.match_id = welcome.match

    def _update(self, update: GameUpdate[Any, Any]) -> Change | None:
        before = self.view
        if before is None or update.seq <= self.seq:
            return None  # before any snapshot, or already in the one taken since (after a reconnect)
        # The wire leaves out what follows from the view before: the whole view is made here,
        # in arrival order, so that every update taken carries a whole view.
        try:
            view = advance_view(before, update)
        except ValueError:
            return None  # an update of another game than the snapshot's: no host sends one
        self.view, self.seq = view, update.seq
        first = update.seq - len(view.events) + 1  # the number of the view's first event
        covered = {number for number in self.covered if number >= first}
        if update.actor is not None and update.actor == self.seat and update.by is not ActedBy.PERSON:
            covered.update(range(update.seq - len(update.events) + 1, update.seq + 1))
        self.covered = frozenset(covered)
        self._view_came(view)
        taken = Update(update.seq, update.events, view, update.actor, update.by, update.ref)
        return Change(taken, before, self.seats)

    def _view_came(self, view: GameView) -> None:
        self.started = True
        if not view.between_rounds:
            self.next_round = None

    @property
    def lost(self) -> bool:
        """The connection is down and the client is trying to get the seat back."""
        return self.link is LinkState.RECONNECTING


__all__ = [
    "Change",
    "ChatLine",
    "Closed",
    "Incoming",
    "LinkEnd",
    "LinkParams",
    "LinkState",
    "NextRoundState",
    "Reconnected",
    "Reconnecting",
    "TableModel",
    "Taken",
    "TurnClock",
    "Update",
]
