"""The network worker: the one place the interface touches the network.

The App owns a `GameLink`; its `run` coroutine runs as a Textual worker. It
starts an in-process host when this terminal hosts (a solo game is a host on
127.0.0.1 with computer seats: the same code path as a LAN game) and connects
the client, which keeps the one model of the table (`TableModel`, held by the
App as ``game.table``) and applies each host message to it. The worker posts
each `Change` to the App in one generic message, `ModelChanged`; screens read
the model and follow its changes. They send intents through the App, which
calls `send_action` / `chat` here.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import msgspec
from capicu.core import Action
from capicu.core.codes import Statement
from capicu.net.client import Client, ClientError, Closed, Dial, JoinError, LinkEnd, Reconnected, Update
from capicu.net.host.sanitize import name_key
from capicu.net.host.server import Host, HostConfig, HostError, HostNote, RejoinRequest, reachable
from capicu.net.model import Change, TableModel
from capicu.net.protocol import CLUB_TABLE, ClubDrawn, ErrorCode, MatchRecorded, SeatKind, Waiting, Welcome
from capicu.tui.prefs.saved_seats import SavedSeat, SeatStore
from capicu.tui.words.describe import describe_host_error, describe_host_note, describe_host_problem
from capicu.tui.words.messages import t
from textual.app import App

if TYPE_CHECKING:
    from capicu.net.club.client import ClubClient
    from capicu.net.club.host import ClubHost, ClubHostConfig
from textual.message import Message

# -- what the worker tells the App -------------------------------------------------


@dataclass
class ModelChanged(Message):
    """The client applied one message to the table's model: what it took and what it replaced."""

    change: Change


@dataclass
class ClubChanged(Message):
    """The club night's connection applied one message to the club's model (tui/club.py follows it)."""

    change: Change


@dataclass
class ClubSeatOffered(Message):
    """The club night's draw gives us a seat we do not hold (net/club/client.py's ``offered``): the
    App takes it (`GameLink.take_seat`), or asks first when the computer plays it meanwhile."""

    draw: ClubDrawn


@dataclass
class HostReady(Message):
    """This terminal hosts: where others join, and with which code."""

    address: str
    port: int
    code: str | None
    #: The name the table is announced by on the local network (None: not announced).
    announced: str | None = None
    #: What is hosted is a club night (joined with ``capicu club --join``), not a table.
    club: bool = False


@dataclass
class AskingHost(Message):
    """The host's operator is asked to give us our seat back; the answer may take a while."""


@dataclass
class RejoinAsked(Message):
    """(We host.) Someone asks for an away seat back by name: allow it or not."""

    request_id: int
    seat: int
    name: str
    address: str


@dataclass
class RejoinSettled(Message):
    """(We host.) A request for a seat ended without our answer (they came back, or gave up)."""

    request_id: int


@dataclass
class LinkFailed(Message):
    """The link never came up (the host could not start, or would not let us in): one sentence why.

    Once the link is up, its end is the model's `Closed`, in a `ModelChanged`.
    """

    reason: str
    #: The table was reached and refused us (not: it could not be reached).
    refused: bool = False
    #: The table asks for a join code and we gave none.
    needs_code: bool = False
    #: The host has no table of the name asked for (a club night's host has no "main" table: only
    #: its club, and the round's tables).
    no_table: bool = False


@dataclass
class MatchLost(Message):
    """A seat saved here was for a match the host no longer plays (it restarted without it): the
    saved seat is forgotten, and we joined its new match as anybody would."""


def seat_gone(closed: Closed) -> bool:
    """Whether the host ended the link saying our seat is not held there (its match is lost, or the
    seat was freed): coming back later cannot work, and the saved seat is dropped."""
    return closed.reason == LinkEnd.REFUSED and closed.params.get("code") in (
        ErrorCode.MATCH_GONE, ErrorCode.BAD_TOKEN)


# -- what the worker is asked to do -------------------------------------------------


class Connection(msgspec.Struct, frozen=True):
    """Where to connect and as whom."""

    host: str
    port: int
    name: str
    code: str | None = None
    spectate: bool = False
    #: A seat key typed by the player (``--seat-key``): take that seat back.
    seat_key: str | None = None
    table: str = "main"
    #: A seat's token given by the host (a club night's draw: the seat it drew for us).
    token: str | None = None
    #: The seat is the one a club night's draw gave us (with its ``token``).
    drawn: bool = False
    #: Seconds the client keeps trying to reach a host that went away: by default long
    #: enough for someone to restart it with ``--resume`` (the saved seat works later still).
    give_up_after: float = 600.0


class GameLink:
    """The client (and, when we host, the host) behind the App, run as one worker."""

    def __init__(
        self, app: App[Any], connection: Connection, model: TableModel,
        host_config: HostConfig | ClubHostConfig | None = None, seats: SeatStore | None = None,
        dial: Dial | None = None,
        records: Path | None = None,
        client: Client | None = None,
    ) -> None:
        self._app = app
        self.connection = connection
        #: The table's one model: the client applies every message to it.
        self.model = model
        self.host_config = host_config
        #: Where seats at other people's tables are saved (None: we host, nothing to save).
        self.seats = seats
        #: How to reach the host when not by TCP (an SSH session, in the host's own process).
        self.dial = dial
        #: Where the client keeps the finished match's record (the player's ``records/``).
        self.records = records
        self.host: Host | None = None
        #: The club night's host, when we organise one (it runs its tables on a `Host` of its own).
        self.club_host: ClubHost | None = None
        self.client: Client | None = None
        #: A client connected already, that this link runs (a club night's seat, which the club's
        #: `ClubClient` opened with the seat's token).
        self._adopted = client
        #: The club night's connection, when this link is a club's: it follows the draws.
        self.club_client: ClubClient | None = None
        self._closed = False
        #: Our player leaves on purpose (`close`): a host we run tells everybody the table closed.
        self._closing = False
        self._saved: SavedSeat | None = None
        #: We host and the player ended the game on purpose (`close`).
        self._end_match = False
        #: The host's stop, once begun (`_stop_host`).
        self._stopping: asyncio.Task[None] | None = None
        #: The connection is a club night's (asked for, or so welcomed): its changes are `ClubChanged`.
        self.club = connection.table == CLUB_TABLE
        #: The club night's organiser key, when this link runs the club's host (its operator's).
        self.organiser_key: str | None = None

    # -- the worker body ---------------------------------------------------------

    async def run(self) -> None:
        """Host if asked, connect, and pass on every change of the model until the link closes."""
        post = self._app.post_message
        connection = self.connection
        try:
            if isinstance(self.host_config, HostConfig):
                connection = await self._start_host(self.host_config)
            elif self.host_config is not None:
                connection = await self._start_club(self.host_config)
            client = self._adopted if self._adopted is not None else await self._connect(connection)
        except Exception as exc:  # every failure to start is reported, never raised
            refused = isinstance(exc, JoinError)
            # No code given to a table that asks for one: say to add it (the host says only "bad code").
            needs_code = (isinstance(exc, JoinError) and exc.code == ErrorCode.BAD_CODE
                          and not (connection.code or "").strip())
            no_table = isinstance(exc, JoinError) and exc.code == ErrorCode.NO_TABLE
            post(LinkFailed(_reason(exc, connection), refused=refused, needs_code=needs_code,
                            no_table=no_table))
            await self._stop_host()
            return
        self.client = client
        if connection.drawn:
            # The club's draw gave us this seat: we sit down at it, we do not come back to it.
            self.model.resumed = False
        self._save_seat(client)
        try:
            async for change in self._changes(client):
                message = change.message
                if isinstance(message, Closed) and self._closed:
                    break  # we left: nobody is told
                if isinstance(message, Closed) and message.reason == LinkEnd.HOST_BYE \
                        and not message.params.get("resumable"):
                    self._forget_seat()  # the match cannot come back: its seat means nothing now
                if isinstance(message, Closed) and seat_gone(message):
                    self._forget_seat()  # the host holds it no more: coming back cannot work
                if isinstance(message, Update) and message.view.match_over:
                    self._forget_seat()
                if isinstance(message, Reconnected):
                    self._save_seat(client)
                if isinstance(message, MatchRecorded) and self.model.record_problem is not None:
                    self._app.log.warning(self.model.record_problem)  # for a bug report, as the host's notes
                if isinstance(message, Welcome) and message.table == CLUB_TABLE:
                    self.club = True  # the host is a club night's: its messages go to the club's screens
                post(ClubChanged(change) if self.club else ModelChanged(change))
        finally:
            # Our player closing the table (`close`) tells everybody so; any other end does not.
            await self._stop_host(closing=self._closing)

    async def _changes(self, client: Client) -> AsyncIterator[Change]:
        """The changes of the link's model: the club's (its `ClubClient` follows the draws, and says
        when one gives us a seat: `ClubSeatOffered`), or the table's."""
        club = self.club_client
        if club is None:
            async for change in client.changes():
                yield change
            return
        while True:
            taken = await club.next_change()
            if taken.source == "offered" and taken.draw is not None:
                self._app.post_message(ClubSeatOffered(taken.draw))
            elif taken.source == "club" and taken.change is not None:
                yield taken.change
                if isinstance(taken.change.message, Closed):
                    return

    async def take_seat(self) -> Client | None:
        """(A club night's link.) Open the seat the round's draw gives us, with its token: its
        client, for a link of its own; None when there is none, or it cannot be reached now."""
        club = self.club_client
        if club is None or not await club.take_seat():
            return None
        return club.table

    async def _start_host(self, config: HostConfig) -> Connection:
        host = self.host = Host(config, report=self._host_report, ask=self._host_asks,
                                cancelled=self._host_request_ended)
        bind, port = await host.start()
        self._app.post_message(HostReady(reachable(bind), port, host.code, host.announced))
        local = "127.0.0.1" if bind in ("0.0.0.0", "::", "") else bind  # ourselves, by loopback
        # A resumed match: our own seat comes back by its key (the host holds it for us).
        own_key = _own_seat_key(host, config.table.name, self.connection.name) if config.resume else None
        return Connection(local, port, self.connection.name, host.code, False, seat_key=own_key)

    async def _start_club(self, config: ClubHostConfig) -> Connection:
        """Run the club night's host (we organise it); watch the night on the loopback, as its organiser."""
        from capicu.net.club.host import ClubHost  # a club night's only

        club = self.club_host = ClubHost(config, report=self._host_report)
        bind, port = await club.start()
        self.organiser_key = club.organiser_key
        self._app.post_message(HostReady(reachable(bind), port, config.code, club.announced, club=True))
        local = "127.0.0.1" if bind in ("0.0.0.0", "::", "") else bind  # ourselves, by loopback
        return Connection(local, port, self.connection.name, config.code, spectate=True, table=CLUB_TABLE)

    def _host_report(self, note: Statement[HostNote]) -> None:
        """The host's notes for its operator: to Textual's log (the devtools console), not over the screen;
        a problem with the history of matches on the screen too (it is this player's history)."""
        self._app.log.warning(describe_host_note(note.code, note.values))
        if note.code is HostNote.HISTORY_PROBLEM:
            self._app.notify(describe_host_note(note.code, note.values), severity="warning", timeout=10)

    def _host_asks(self, request: RejoinRequest) -> None:
        self._app.post_message(RejoinAsked(request.id, request.seat, request.name, request.address))

    def _host_request_ended(self, request_id: int) -> None:
        self._app.post_message(RejoinSettled(request_id))

    def answer_rejoin(self, request_id: int, allow: bool) -> None:
        """(We host.) Our operator's answer to a request for a seat by name."""
        if self.host is not None:
            self.host.answer_rejoin(request_id, allow)

    async def _connect(self, connection: Connection) -> Client:
        """Connect: with a seat key if one was typed, else a seat saved here, else as a newcomer;
        to a club night by its `ClubClient` (it follows the draws; the App takes each seat)."""
        if connection.table == CLUB_TABLE:
            from capicu.net.club.client import ClubClient  # a club night's only

            club = self.club_client = await ClubClient.connect(
                connection.host, connection.port, name=connection.name, code=connection.code,
                spectate=connection.spectate, follow=False, pump_tables=False, dial=self.dial,
                records=self.records, give_up_after=connection.give_up_after, model=self.model)
            return club.lobby
        if connection.token is not None:
            return await self._open(connection, token=connection.token)
        if connection.seat_key is not None:
            return await self._open(connection, seat_key=connection.seat_key)
        store = self.seats
        # Only a seat saved for the name we join as: another name sharing this data folder (a second
        # terminal, --name Bob) joins as itself and never takes Ana's seat from her.
        place = (connection.host, connection.port, connection.table)
        for saved in store.seats_at(*place, name=connection.name) if store else []:
            try:
                client = await self._open(connection, token=saved.token)
            except JoinError as exc:
                if exc.code not in (ErrorCode.BAD_TOKEN, ErrorCode.MATCH_GONE):
                    raise
                # That match is over, or the host is a new one: the token means nothing there.
                assert store is not None
                store.forget(*place, saved.match, saved.name)
                if exc.code == ErrorCode.MATCH_GONE:
                    self._app.post_message(MatchLost())  # joined anew below: the player is told
                continue
            return client
        return await self._open(connection)

    async def _open(self, connection: Connection, *, token: str | None = None,
                    seat_key: str | None = None) -> Client:
        def waiting(_: Waiting) -> None:
            self._app.post_message(AskingHost())

        return await Client.connect(
            connection.host, connection.port, name=connection.name, code=connection.code,
            token=token, seat_key=seat_key, spectate=connection.spectate, table=connection.table,
            give_up_after=connection.give_up_after, on_waiting=waiting, dial=self.dial, model=self.model,
            records=self.records,
        )

    def _save_seat(self, client: Client) -> None:
        """Keep the seat's token on disk, so that re-running the join line brings us back."""
        connection = self.connection
        if self.seats is None or client.token is None or client.seat is None or client.match_id is None:
            return
        self._saved = SavedSeat(
            host=connection.host, port=connection.port, table=connection.table, match=client.match_id,
            token=client.token, seat_key=client.seat_key,
            name=self.model.name or client.name, seat=client.seat,
        )
        self.seats.save(self._saved)

    def _forget_seat(self) -> None:
        if self.seats is not None and self._saved is not None:
            saved, self._saved = self._saved, None
            self.seats.forget(saved.host, saved.port, saved.table, saved.match, saved.name)

    async def _stop_host(self, *, closing: bool = False) -> None:
        """Stop the host we run, once, whoever asks first (the worker, or `close`); both wait for it.

        ``closing``: our player closes the table, and everybody is told so (that the match
        can be resumed, unless our player ended it: `close`'s ``end_match``).
        The stop runs in a task of its own, shielded: cancelling the worker that waits
        for it must not leave the host half-stopped (its journal neither settled nor set aside).
        """
        if self.host is not None:
            host, self.host = self.host, None
            self._stopping = asyncio.get_running_loop().create_task(self._stop(host, closing))
        if self.club_host is not None:
            club, self.club_host = self.club_host, None
            self._stopping = asyncio.get_running_loop().create_task(club.stop())
        if self._stopping is not None:
            await asyncio.shield(self._stopping)

    async def _stop(self, host: Host, closing: bool) -> None:
        path, folder = host.journal_path, host.config.journals
        with contextlib.suppress(Exception):
            await host.stop(closing=closing, closed_by=self.model.name or self.connection.name,
                            resumable=not self._end_match)
        ended = self._end_match and path is not None and folder is not None and folder.holds(path)
        if ended and path is not None and folder is not None and path.exists():
            folder.set_aside(path)  # a few file operations: the game is ending

    # -- intents ---------------------------------------------------------------------

    async def send_action(self, action: Action) -> bool:
        """Send an intent; False when the link is down right now (the overlay says so)."""
        if self.client is None:
            return False
        try:
            await self.client.send_action(action)
        except ClientError:
            return False
        return True

    async def ready(self) -> bool:
        """Say we are ready for the next deal."""
        if self.client is None:
            return False
        try:
            await self.client.ready()
        except ClientError:
            return False
        return True

    async def chat(self, text: str) -> bool:
        if self.client is None:
            return False
        try:
            await self.client.chat(text)
        except ClientError:
            return False
        return True

    async def start_round(self, key: str) -> bool:
        """(The club night's organiser.) Draw the night's next round; False when the link is down."""
        if self.client is None:
            return False
        try:
            await self.client.start_round(key)
        except ClientError:
            return False
        return True

    async def close_table(self, key: str, table: str) -> bool:
        """(The club night's organiser.) Close the late table ``table``, its score as it stands."""
        if self.client is None:
            return False
        try:
            await self.client.close_table(key, table)
        except ClientError:
            return False
        return True

    def fill_with_computers(self) -> int:
        """When we host: computers take the open seats and the match starts; seats filled."""
        if self.host is None:
            return 0
        return int(self.host.fill_with_computers())

    async def close(self, leaving: bool = True, *, end_match: bool = False) -> None:
        """Leave the table and stop the host we run, if any.

        ``leaving=False`` hangs up without a goodbye, as a dropped connection does: the
        host holds the seat for its grace period (an SSH player whose connection went).
        ``end_match``: we host and end the game on purpose: its journal, if it is kept
        unfinished in the folder of journals, is set aside with the finished ones.
        """
        self._closed = True
        self._closing = leaving
        # Kept here: the worker may stop the host first, as the client's end reaches it.
        self._end_match = end_match
        client, self.client = self.client, None
        club, self.club_client = self.club_client, None
        if club is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(club.close() if leaving else club.drop(), 2)
        elif client is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(client.close() if leaving else client.drop(), 2)
        await self._stop_host(closing=leaving)


def _own_seat_key(host: Host, table: str, name: str) -> str | None:
    """(We host a resumed match.) The key of our own seat: the person's seat of our name, else the
    one person's seat of a table of computers (a solo game), else None (we join as anybody would)."""
    every = host.tables[table].seats
    seats = [seat for seat in every if seat.kind == SeatKind.PERSON]
    named = [seat for seat in seats if seat.name is not None and name_key(seat.name) == name_key(name)]
    solo = len(seats) == 1 and all(seat.kind == SeatKind.COMPUTER for seat in every if seat not in seats)
    chosen = named or (seats if solo else [])
    return chosen[0].seat_key if chosen else None


def _reason(exc: BaseException, connection: Connection) -> str:
    """Why we could not get to the table, in one sentence (in the app's language)."""
    where = f"{connection.host}:{connection.port}"
    if isinstance(exc, TimeoutError):
        return t("no answer from {where}", where=where)
    if isinstance(exc, OSError):
        # TRANSLATORS: {problem} is the system's own words ("Connection refused").
        return t("cannot reach {where} ({problem})", where=where, problem=exc.strerror or str(exc))
    if isinstance(exc, JoinError):
        return describe_host_error(exc.code)
    if isinstance(exc, HostError):  # we host, and our host cannot start
        return describe_host_problem(exc.code, exc.params)
    return str(exc) or type(exc).__name__  # a failure nobody foresaw: its own words, for a bug report
