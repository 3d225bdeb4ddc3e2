"""A person's side of a club night: the club's connection, and the table each round takes them to.

Usage (the interface and the test bots do this)::

    club = await ClubClient.connect("192.168.1.20", 7254, name="Ana", code="K7PX2M")
    club.model.club, club.model.standings     # the night (roster, phase, tables) and the standings
    while True:
        change = await club.next_change()
        if change.source == "seated":         # a round was drawn: club.table is our table now
            ...
        elif change.source == "table" and club.table.view.is_my_turn:
            await club.table.send_action(club.table.view.legal[0])

The club's connection is a `Client` whose hello names the table ``"club"``; the host answers with
the roster (``club``), the standings and, when a round is drawn, ``club_draw``: our table, seat and
its token. The client then opens that table with the token itself (a `Client` to the table, which
reconnects by itself like any) and says ``seated``; nobody types anything. With ``follow`` False
(an interface that asks first, say on coming back to a seat the computer covers meanwhile), it
says ``offered`` instead, and `take_seat` follows the draw when the person says yes.

With ``pump_tables`` False (the interface), our table's changes are not ``"table"`` changes:
whoever took the seat reads ``club.table``'s changes itself.

`close` leaves the night for good (the host takes us out of later draws; the computer plays our
seat); `drop` only hangs up, and the token (``club.token``) brings us back.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from pathlib import Path
from typing import Literal

import msgspec
from capicu.net.client import Client, Dial, JoinError
from capicu.net.model import Change, TableModel
from capicu.net.protocol import CLUB_TABLE, ClubDrawn, ProtocolError

#: Seconds between the tries at opening a drawn seat before it is only offered.
FOLLOW_RETRIES = (0.1, 0.3, 1.0)
#: Where a `ClubChange` comes from.
Source = Literal["club", "table", "seated", "offered"]


class ClubChange(msgspec.Struct, frozen=True):
    """One change of the night as the client took it.

    ``source``: ``"club"``, a message of the club's connection (``change``; the model is
    `ClubClient.model`); ``"table"``, one of our table's (``change``; the model is
    ``club.table.model``); ``"seated"``, we were just taken to a new table (``club.table``; its
    welcome comes next as a ``"table"`` change); ``"offered"``, a seat is ours to take
    (``draw``; `ClubClient.take_seat` takes it).
    """

    source: Source
    change: Change | None = None
    draw: ClubDrawn | None = None


class ClubClient:
    """A connection to a club night (see the module docstring); build one with `ClubClient.connect`."""

    def __init__(self, lobby: Client, *, host: str, port: int, name: str, code: str | None,
                 follow: bool, dial: Dial | None, records: Path | None, timeout: float,
                 give_up_after: float, max_backoff: float, pump_tables: bool = True) -> None:
        #: The club's connection: roster, draws and standings (`TableModel.club` and the rest).
        self.lobby = lobby
        #: The table the last draw took us to (None before the first, or when we sit a round out).
        self.table: Client | None = None
        self.host, self.port, self.name, self.code = host, port, name, code
        self.follow = follow
        #: Our tables' changes come as ``"table"`` changes (False: whoever took the seat reads
        #: `table`'s changes itself, as the interface does).
        self.pump_tables = pump_tables
        self._dial = dial
        self._records = records
        self._timeout = timeout
        self._give_up_after = give_up_after
        self._max_backoff = max_backoff
        self._queue: asyncio.Queue[ClubChange] = asyncio.Queue()
        self._tasks: set[asyncio.Task[None]] = set()
        self._following: asyncio.Lock = asyncio.Lock()
        self.closed = False

    @classmethod
    async def connect(
        cls, host: str, port: int, *, name: str, code: str | None = None, token: str | None = None,
        spectate: bool = False, follow: bool = True, dial: Dial | None = None, records: Path | None = None,
        timeout: float = 10.0, give_up_after: float = 300.0, max_backoff: float = 5.0,
        wire_tap: Callable[[bytes], None] | None = None, model: TableModel | None = None,
        pump_tables: bool = True,
    ) -> ClubClient:
        """Join the club night at ``host:port`` as ``name`` (with its join ``code``), or come back
        with the club ``token`` this machine kept; ``spectate``: watch the night.

        Raises `JoinError` when the host refuses, `OSError`/`TimeoutError` when it cannot be
        reached. ``dial`` opens each connection instead of TCP (the SSH gateway's way in);
        ``records``: the folder each finished match's record is kept in; ``model``: the club's
        model (a new one by default); ``pump_tables``: as `pump_tables`.
        """
        lobby = await Client.connect(
            host, port, name=name, code=code, token=token, spectate=spectate, table=CLUB_TABLE, dial=dial,
            timeout=timeout, give_up_after=give_up_after, max_backoff=max_backoff, wire_tap=wire_tap,
            model=model)
        club = cls(lobby, host=host, port=port, name=name, code=code, follow=follow, dial=dial,
                   records=records, timeout=timeout, give_up_after=give_up_after, max_backoff=max_backoff,
                   pump_tables=pump_tables)
        club._spawn(club._pump_club())
        return club

    # -- what we know -----------------------------------------------------------------

    @property
    def model(self) -> TableModel:
        """The club's model: ``club`` (the roster and phase), ``club_draw``, ``standings``."""
        return self.lobby.model

    @property
    def token(self) -> str | None:
        """Our club token, for this machine to keep: it brings us back to the night."""
        return self.lobby.token

    @property
    def entrant(self) -> int | None:
        """Our entrant id in the night (None: we watch it)."""
        club = self.model.club
        return club.you if club is not None else None

    async def next_change(self, timeout: float | None = None) -> ClubChange:
        """The next change of the night (TimeoutError after ``timeout`` seconds)."""
        async with asyncio.timeout(timeout):
            return await self._queue.get()

    # -- following the draw ----------------------------------------------------------------

    async def _pump_club(self) -> None:
        async for change in self.lobby.changes():
            self._queue.put_nowait(ClubChange("club", change))
            message = change.message
            if isinstance(message, ClubDrawn) and message.table is not None and message.token is not None:
                if self._seated_at(message):
                    continue
                if self.follow:
                    await self._follow(message)
                else:
                    self._queue.put_nowait(ClubChange("offered", draw=message))

    def _seated_at(self, draw: ClubDrawn) -> bool:
        """We hold ``draw``'s seat already (a live table client with its token)."""
        table = self.table
        return (table is not None and not table.closed and table.table == draw.table
                and table.token == draw.token)

    async def take_seat(self) -> bool:
        """Take the seat the last draw gives us (after an ``offered``); False when it gives none.

        Once it is taken, `table` is its client; when it cannot be taken now it is offered again.
        """
        draw = self.model.club_draw
        if draw is None or draw.table is None or draw.token is None:
            return False
        if not self._seated_at(draw):
            await self._follow(draw)
        return True

    async def _follow(self, draw: ClubDrawn) -> None:
        """Open our table of ``draw`` with its token (the previous table's client is let go)."""
        async with self._following:
            if self.closed or self._seated_at(draw):
                return
            old, self.table = self.table, None
            if old is not None:
                await old.drop()
            assert draw.table is not None and draw.token is not None
            table = None
            for pause in FOLLOW_RETRIES:
                try:
                    table = await Client.connect(
                        self.host, self.port, name=self.name, token=draw.token, table=draw.table,
                        dial=self._dial, records=self._records, timeout=self._timeout,
                        give_up_after=self._give_up_after, max_backoff=self._max_backoff)
                    break
                except (OSError, TimeoutError, JoinError, ProtocolError):
                    # (The host may not have seen our last table's connection go yet, and
                    # counts it against our address's connections.)
                    await asyncio.sleep(pause)
            if table is None:
                # The seat cannot be taken now: it is offered (the club's connection brings the
                # draw again, with the seat's token as it is then, once the host is back).
                self._queue.put_nowait(ClubChange("offered", draw=draw))
                return
            self.table = table
            self._queue.put_nowait(ClubChange("seated", draw=draw))
            if self.pump_tables:
                self._spawn(self._pump_table(table))

    async def _pump_table(self, table: Client) -> None:
        async for change in table.changes():
            if self.table is table:
                self._queue.put_nowait(ClubChange("table", change))
        if self.table is table and not self.closed:
            # The table let us go (its token refused: the host started it again): the club's
            # connection gives us the seat's new token.
            draw = self.model.club_draw
            if draw is not None and draw.table == table.table and draw.token != table.token and self.follow:
                await self._follow(draw)

    async def watch(self, table: str) -> Client:
        """A spectator's connection to the night's table ``table`` (any table, by its name)."""
        return await Client.connect(self.host, self.port, name=self.name, code=self.code, spectate=True,
                                    table=table, dial=self._dial, timeout=self._timeout)

    # -- the organiser -------------------------------------------------------------------

    async def start_round(self, key: str) -> None:
        """As the organiser (``key``), draw the next round."""
        await self.lobby.start_round(key)

    async def close_table(self, key: str, table: str) -> None:
        """As the organiser, close the late table ``table``: its score as it stands counts."""
        await self.lobby.close_table(key, table)

    # -- leaving ----------------------------------------------------------------------------

    async def close(self) -> None:
        """Leave the night for good: the computer plays our seat, and later draws leave us out."""
        await self._end(leave=True)

    async def drop(self) -> None:
        """Hang up as if the network went: our seat and our place in the night are held for us."""
        await self._end(leave=False)

    async def _end(self, *, leave: bool) -> None:
        if self.closed:
            return
        self.closed = True
        table, self.table = self.table, None
        if table is not None:
            await (table.close() if leave else table.drop())
        await (self.lobby.close() if leave else self.lobby.drop())
        for task in list(self._tasks):
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    def _spawn(self, work: object) -> None:
        task: asyncio.Task[None] = asyncio.get_running_loop().create_task(work)  # type: ignore[arg-type]
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)


__all__ = ["ClubChange", "ClubClient"]
