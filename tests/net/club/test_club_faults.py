"""A club night's faults on a real club host (issue 33): a person who drops is covered by the computer
and offered the seat back on return; one who leaves for good is covered and out of later draws; the
organiser closes late tables with their scores as they stand; anybody watches any table."""

from __future__ import annotations

from collections.abc import Callable

from capicu.core.club import ClubFormat
from capicu.net import Seats
from capicu.net.club import ClubClient
from capicu.net.club.client import ClubChange
from capicu.net.protocol import ClubRoster, HostBye

from ..conftest import LOOPBACK, WAIT
from .test_club_night import CODE, club_config, start_club


async def until(club: ClubClient, wanted: Callable[[ClubChange], bool]) -> ClubChange:
    """The first change of ``club`` from now on that is ``wanted`` (each wait bounded)."""
    while True:
        change = await club.next_change(WAIT)
        if wanted(change):
            return change


def seat_map(seat: int, test: Callable[..., bool]) -> Callable[[ClubChange], bool]:
    """A table's seat map whose seat ``seat`` passes ``test``."""
    def wanted(change: ClubChange) -> bool:
        message = change.change.message if change.change is not None else None
        return change.source == "table" and isinstance(message, Seats) and test(message.seats[seat])
    return wanted


async def test_drops_leaves_late_tables_and_watchers(tmp_path):
    club = club_config("puerto-rican-drawing", format=ClubFormat.SWISS, rounds=2, table_size=2, target=500)
    host = await start_club(tmp_path / "night", club, round_delay=None, grace=0.2)
    port = host.port or 0
    clubs = {name: await ClubClient.connect(LOOPBACK, port, name=name, code=CODE, max_backoff=0.2)
             for name in ("Ana", "Bea", "Cruz", "Dani")}
    try:
        await host.start_round()
        for player in clubs.values():
            await until(player, lambda change: change.source == "seated")
        tables = {name: (player.table.table, player.table.seat)
                  for name, player in clubs.items() if player.table}
        assert len({table for table, _ in tables.values()}) == 2

        def opponent_of(name: str) -> ClubClient:
            return next(clubs[other] for other in clubs
                        if other != name and tables[other][0] == tables[name][0])

        # Dani drops: after the grace period the computer covers her seat.
        dani_token, (dani_table, dani_seat) = clubs["Dani"].token, tables["Dani"]
        await clubs["Dani"].drop()
        rival = opponent_of("Dani")
        await until(rival, seat_map(dani_seat, lambda seat: seat.covered and not seat.left))
        # She comes back with her club token (a new process): she is offered her seat, and takes it.
        dani = await ClubClient.connect(LOOPBACK, port, name="Dani", token=dani_token, follow=False)
        clubs["Dani"] = dani
        offered = await until(dani, lambda change: change.source == "offered")
        assert offered.draw is not None and (offered.draw.table, offered.draw.seat) == (dani_table, dani_seat)
        assert await dani.take_seat()
        await until(dani, lambda change: change.source == "seated")
        await until(rival, seat_map(dani_seat, lambda seat: seat.connected and not seat.covered))

        # Cruz leaves for good: the computer plays his seat, and the roster says he left.
        cruz_seat, rival = tables["Cruz"][1], opponent_of("Cruz")
        await clubs.pop("Cruz").close()
        await until(rival, seat_map(cruz_seat, lambda seat: seat.covered and seat.left))
        await until(clubs["Ana"], lambda change: change.source == "club" and isinstance(
            change.change.message if change.change else None, ClubRoster)
            and not change.change.message.entrants[2].active)  # type: ignore[union-attr]

        # The organiser closes both late tables: their scores as they stand are their results.
        for name in sorted({table for table, _ in tables.values()}):
            await host.close_table(name)
        assert [result.closed for result in host.night.results] == [True, True]
        await until(clubs["Ana"], lambda change: change.source == "table" and isinstance(
            change.change.message if change.change else None, HostBye))
        assert host.night.phase.value == "between"

        # Round 2 leaves Cruz out; a computer fills the seat three people leave empty.
        await host.start_round()
        draw = host.night.draws[-1]
        seated = [who for table in draw.tables for who in table.seats]
        assert 2 not in seated and sorted(who for who in seated if who is not None) == [0, 1, 3]
        assert seated.count(None) == 1
        for player in clubs.values():
            change = await until(player, lambda change: change.source in ("seated", "offered"))
            if change.source == "offered":  # (Dani's client asks her first)
                assert player is dani and await player.take_seat()
            assert change.draw is not None and change.draw.round == 2

        # Anybody with the code watches the night, and any table of it.
        eve = await ClubClient.connect(LOOPBACK, port, name="Eve", code=CODE, spectate=True)
        clubs["Eve"] = eve
        await until(eve, lambda change: change.source == "club" and eve.model.club is not None)
        assert eve.entrant is None and eve.token is None
        watching = await eve.watch("r2-t1")
        try:
            assert watching.seat is None
            while watching.view is None:
                await watching.next_change(WAIT)
        finally:
            await watching.close()
    finally:
        for player in clubs.values():
            await player.drop()
        await host.stop()
