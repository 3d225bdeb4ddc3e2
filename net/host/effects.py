"""What the host's pure code asks the asyncio host to do, and the connection it speaks of.

The table (net/host/table.py) and the host's state machine (net/host/machine.py) never
touch a socket, a file, a thread or a clock. Each call into them returns a
list of effects, which the asyncio host (net/host/server.py) carries out in order:
send these bytes to that peer, close that one, write these records to a
journal, keep a finished match's record, let a computer player think, ask the
operator, tell the operator.
A `Record` holds back its table's later effects until the records are on
disk (the machine keeps them, see `HostMachine.recorded`), so that nobody
hears of an action a crash could lose; other tables are not held up.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

import msgspec
from capicu.core.codes import Code, Statement
from capicu.net.codec import Codec
from capicu.net.protocol import ActedBy, Error, GameView, HostMessage

from .timing import Liveness, TokenBucket

if TYPE_CHECKING:
    from capicu.core import Action
    from capicu.net.store.journal import EntryRecord, Header, Journal, SeatsRecord
    from capicu.net.store.record import MatchRecord

    from .machine import RejoinRequest
    from .table import Table


class Peer(msgspec.Struct, eq=False):
    """One connection as the pure code sees it: its codec, its clocks and where it sits.

    ``id`` names it to the asyncio host, which keeps the socket.
    """

    id: int
    address: str
    codec: Codec
    liveness: Liveness
    bucket: TokenBucket
    name: str | None = None
    seat: int | None = None
    table: Table | None = None
    #: The request for a seat back that this connection waits on, if any.
    rejoin: RejoinRequest | None = None
    #: The connection is in the host's lobby (a club night's, net/club/), not at a table.
    in_lobby: bool = False
    #: Closed by the host: nothing more is sent to it or read from it.
    closed: bool = False
    #: Counted against its address's limit of connections.
    counted: bool = False
    #: Refused messages in a row.
    strikes: int = 0
    pings: int = 0
    #: When the first byte of the frame not yet whole arrived (None: no frame begun).
    frame_started: float | None = None


class Send(msgspec.Struct, frozen=True):
    """Write ``frame`` (one encoded message) to ``peer``."""

    peer: Peer
    frame: bytes


class Tell(msgspec.Struct, frozen=True):
    """Encode ``message`` once and write it to each of ``peers``.

    The host encodes it when it comes to it, so that a mover's answer leaves
    before the other seats' views are encoded (the message is an immutable
    value: encoding it later says the same).
    """

    peers: tuple[Peer, ...]
    message: HostMessage


class Close(msgspec.Struct, frozen=True):
    """Send ``error`` (if any) to ``peer``, then hang up once it is written."""

    peer: Peer
    error: Error | None = None


class Record(msgspec.Struct, frozen=True):
    """Append ``records`` to ``journal`` (the first ones replace any file there).

    The host starts the write at once and calls `HostMachine.recorded` once the
    records are on disk (or `HostMachine.journal_failed`); until then the
    table's later effects wait in the machine.
    """

    journal: Journal
    records: tuple[Header[Any] | SeatsRecord | EntryRecord, ...]


class KeepRecord(msgspec.Struct, frozen=True):
    """Keep the record of table ``table``'s finished match in the host's folder of records.

    The host writes it off the event loop (net/store/archive.py) and says how it went
    (`HostNote.RECORD_KEPT`, `HostNote.RECORD_FAILED`); nothing waits for it.
    """

    table: str
    record: MatchRecord


class RoundScored(msgspec.Struct, frozen=True):
    """A round of table ``table``'s match ended (the match goes on): its scores moved.

    For whoever follows the host's tables from outside them (a club night's standings,
    net/club/); nothing waits for it.
    """

    table: str


class Arrived(msgspec.Struct, frozen=True):
    """The person drawn to seat ``seat`` of table ``table`` (a club night's) came to it the first
    time: it is awaited no more. For whoever keeps that across a restart (net/club/); nothing
    waits for it."""

    table: str
    seat: int


class Player(Protocol):
    """A computer player of some game (core/games.py makes one for each game's levels)."""

    def choose(self, view: Any) -> Action:
        """The action it takes from ``view`` (a view of its game, its seat on turn)."""
        ...


class Think(msgspec.Struct, frozen=True):
    """Let the computer choose seat ``seat``'s action from ``view``, off the event loop.

    ``player`` keeps its state from move to move (in a thread); without it, a
    fresh player of ``level`` seeded with ``seed`` chooses (in another process).
    The choice goes back through `HostMachine.chosen`.
    """

    table: Table
    seat: int
    version: int
    by: ActedBy
    view: GameView
    level: str
    seed: int
    player: Player | None


class Ask(msgspec.Struct, frozen=True):
    """Ask the operator whether the person of ``request`` may have the seat back."""

    request: RejoinRequest


class Cancelled(msgspec.Struct, frozen=True):
    """Request ``request_id`` ended without the operator's answer: put the question away."""

    request_id: int


class HostNote(Code):
    """What a running host tells its operator: a code and its params, which an interface words.

    Seats are counted from 0, as everywhere in the protocol.
    """

    #: A peer stopped reading and its unsent bytes passed `Limits.outbox_bytes`: it was cut off.
    CUT_OFF = "cut_off", "address", "unsent"
    #: Resuming dropped the journal's last line, cut short as the host stopped while writing it (or
    #: the file was cut there): ``line``: its number from 1; ``dropped``: the bytes from there on;
    #: ``lost``: the lines dropped (the entries lost, at most); ``entries``: those kept; ``round``:
    #: the round the match goes on in (0: not dealt); ``copy``: where the file is kept as it was.
    JOURNAL_CUT_SHORT = "journal_cut_short", "path", "entries", "line", "dropped", "lost", "round", "copy"
    #: Resuming dropped the journal's last line, damaged (its checksum or its text is wrong).
    JOURNAL_LINE_DAMAGED = (
        "journal_line_damaged", "path", "entries", "line", "dropped", "lost", "round", "copy")
    #: The operator could not be asked about a seat (``problem``: the error, for a bug report).
    ASK_FAILED = "ask_failed", "seat", "problem"
    #: A computer player failed to choose; the table played its first legal action instead.
    COMPUTER_FAILED = "computer_failed", "table", "seat", "problem"
    #: The journal cannot be written (``problem``: the journal's or the system's words): the table stopped.
    JOURNAL_FAILED = "journal_failed", "table", "problem"
    #: A person took seat ``seat`` of table ``table`` (``name``: as the table shows it).
    SEATED = "seated", "table", "seat", "name"
    #: The person of a seat lost the connection: the seat is held for them.
    DROPPED = "dropped", "table", "seat", "name"
    #: The person of a seat left on purpose (a ``bye``): the computer plays it, or it is free in the lobby.
    LEFT = "left", "table", "seat", "name"
    #: The person of a seat came back to it (a token, a seat key, the operator's yes).
    CAME_BACK = "came_back", "table", "seat", "name"
    #: Table ``table``'s finished match is kept in the record file ``path``.
    RECORD_KEPT = "record_kept", "table", "path"
    #: Table ``table``'s finished match's record cannot be written (``problem``: the system's words).
    RECORD_FAILED = "record_failed", "table", "problem"
    #: The finished match of table ``table`` could not be kept in the history of matches as it was
    #: (``history``: net/store/history.py's `HistoryProblem`; ``file``: the history's; ``detail``: where a
    #: damaged file was set aside, the version of a newer one, or the system's words).
    HISTORY_PROBLEM = "history_problem", "table", "history", "file", "detail"
    #: What runs beside the host (the SSH gateway) has something to say, already in words (``text``).
    BESIDE = "beside", "text"


class Report(msgspec.Struct, frozen=True):
    """A note for the operator (stderr by default)."""

    note: Statement[HostNote]


Effect = Send | Tell | Close | Record | KeepRecord | RoundScored | Arrived | Think | Ask | Cancelled | Report
