"""Club nights played on a real club host by real protocol clients (issue 33).

Eight `ClubClient`s join a `ClubHost` on 127.0.0.1 with the join code, are taken to their seats
round after round by the draw alone, and play their matches (short targets) to the night's end;
the standings every client is told, and the host's, equal a recomputation from the records the
host kept.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import msgspec
import pytest
from capicu.core import Rules
from capicu.core.club import ClubConfig, ClubFormat, ClubNight, MatchResult, standings
from capicu.net import Limits, NextRound, Update
from capicu.net.club import ClubClient, ClubHost, ClubHostConfig
from capicu.net.club.host import RECORDS_FOLDER
from capicu.net.protocol import ClubStandings, GameSnapshot, StandingRow
from capicu.net.store.club import open_club_history
from capicu.net.store.record import read_record

from ..conftest import LOOPBACK, WAIT

CODE = "K7PX2M"
NAMES = ("Ana", "Bea", "Cruz", "Dani", "Eli", "Fer", "Gus", "Hilda")
#: A whole night's play is bounded: every single wait in it is (WAIT), and so is the night.
NIGHT_WAIT = 120.0


def club_config(preset: str, *, format: ClubFormat, rounds: int, table_size: int, target: int) -> ClubConfig:
    rules = msgspec.structs.replace(Rules.preset_named(preset), target=target)
    return ClubConfig(rules=rules, format=format, rounds=rounds, table_size=table_size, name="Friday")


async def start_club(folder: Path, club: ClubConfig, **options: Any) -> ClubHost:
    options.setdefault("round_delay", 0.0)
    host = ClubHost(ClubHostConfig(
        club, folder, bind=LOOPBACK, port=0, code=CODE, computer_level="greedy", next_round_delay=0,
        limits=Limits(messages_per_second=10_000, message_burst=10_000, connections_per_address=64),
        **options))
    await host.start()
    return host


async def play_the_night(club: ClubClient) -> ClubStandings:
    """Play every match the draw takes ``club`` to (the first legal action each turn) until the
    night is over; the final standings it was told."""
    while True:
        change = await club.next_change(WAIT)
        if change.source == "club":
            standings = club.model.standings
            if standings is not None and standings.final:
                return standings
            continue
        if change.source != "table" or change.change is None or club.table is None:
            continue
        message = change.change.message
        if isinstance(message, NextRound):
            await club.table.ready()
        view = message.view if isinstance(message, Update | GameSnapshot) else None
        if view is not None and view.is_my_turn and view.legal:
            await club.table.send_action(view.legal[0])


def recomputed(night: ClubNight, folder: Path) -> tuple[MatchResult, ...]:
    """Every result of the night made again from the match record the host kept for it."""
    results = []
    names = {entrant.id: entrant.name for entrant in night.entrants}
    for result in night.results:
        record = read_record(folder / RECORDS_FOLDER / result.record)
        assert [names.get(who) for who in result.seats if who is not None] == [
            seat.name for seat, who in zip(record.seats, result.seats, strict=True) if who is not None]
        winners = tuple(side for side, seats in enumerate(result.sides)
                        if any(seat in record.winners for seat in seats))
        results.append(msgspec.structs.replace(result, points=tuple(record.totals), winners=winners))
    return tuple(results)


def rows(night: ClubNight, results: tuple[MatchResult, ...]) -> tuple[StandingRow, ...]:
    names = {entrant.id: entrant.name for entrant in night.entrants}
    return tuple(
        StandingRow(s.entrant, names[s.entrant], s.played, s.won, s.points_for, s.points_against, s.byes,
                    s.computer_seats, s.buchholz, tuple(s.opponents), tuple(s.partners), s.difference,
                    s.head_to_head)
        for s in standings(night.config, night.entrants, results, night.draws))


async def a_whole_night(tmp_path: Path, club: ClubConfig) -> tuple[ClubHost, list[ClubStandings]]:
    host = await start_club(tmp_path / "night", club)
    clients: list[ClubClient] = []
    try:
        for name in NAMES:
            clients.append(await ClubClient.connect(LOOPBACK, host.port or 0, name=name, code=CODE))
        assert [e.name for e in host.night.entrants] == list(NAMES)
        await host.start_round()  # the organiser starts round 1; the others follow as each round ends
        told = await asyncio.wait_for(asyncio.gather(*(play_the_night(c) for c in clients)), NIGHT_WAIT)
    finally:
        for client in clients:
            await client.drop()
        await host.stop()  # (waits for the records being written)
    return host, told


async def test_a_swiss_night_of_two_player_matches_is_played_to_its_end(tmp_path):
    club = club_config("puerto-rican-drawing", format=ClubFormat.SWISS, rounds=3, table_size=2, target=20)
    host, told = await a_whole_night(tmp_path, club)
    night = host.night
    assert night.phase.value == "over" and len(night.draws) == 3
    assert len(night.results) == 12 and not any(r.closed for r in night.results)
    met: set[frozenset[int | None]] = set()
    for draw in night.draws:
        seated = [who for table in draw.tables for who in table.seats]
        assert sorted(seated) == list(range(8))  # everyone plays every round, once
        for table in draw.tables:
            assert frozenset(table.seats) not in met  # nobody meets anybody twice (avoidable here)
            met.add(frozenset(table.seats))
    # The standings everyone was told are the host's, and a recomputation from the kept records.
    again = recomputed(night, tmp_path / "night")
    assert again == night.results
    assert {standing.rows for standing in told} == {rows(night, again)}
    # The night is kept in the club history beside the records, over, its standings the same.
    history, problem = open_club_history(tmp_path / "night" / RECORDS_FOLDER)
    with history:
        (kept,) = history.nights()
    assert problem is None and kept.night_id == host.night_id and kept.ended is not None
    assert kept.standings == night.standings()


async def test_a_rotating_partners_night_gives_new_partners(tmp_path):
    club = club_config("puerto-rican-partners", format=ClubFormat.ROTATING, rounds=2, table_size=4, target=20)
    host, told = await a_whole_night(tmp_path, club)
    night = host.night
    assert night.phase.value == "over" and len(night.results) == 4
    partners: set[frozenset[int]] = set()
    for draw in night.draws:
        for table in draw.tables:
            for pair in ((table.seats[0], table.seats[2]), (table.seats[1], table.seats[3])):
                assert None not in pair
                assert frozenset(pair) not in partners  # nobody partners anybody twice
                partners.add(frozenset(pair))  # type: ignore[arg-type]
    again = recomputed(night, tmp_path / "night")
    assert again == night.results
    assert {standing.rows for standing in told} == {rows(night, again)}


@pytest.mark.parametrize("wrong", ["AAAA-BBBB", ""])
async def test_only_the_organisers_key_starts_a_round(tmp_path, wrong):
    club = club_config("puerto-rican-drawing", format=ClubFormat.SWISS, rounds=1, table_size=2, target=20)
    host = await start_club(tmp_path / "night", club)
    try:
        clients = [await ClubClient.connect(LOOPBACK, host.port or 0, name=n, code=CODE) for n in NAMES[:2]]
        await clients[0].start_round(wrong)
        while True:
            change = await clients[0].next_change(WAIT)
            if change.change is not None and getattr(change.change.message, "code", None) == "refused":
                break
        assert host.night.round == 0
        await clients[1].start_round(host.organiser_key)
        for client in clients:
            while client.table is None:
                await client.next_change(WAIT)
        assert host.night.round == 1
        assert {client.table.seat for client in clients if client.table} == {0, 1}
        for client in clients:
            await client.drop()
    finally:
        await host.stop()


async def test_everybody_in_the_club_sees_the_tables_points_as_each_round_of_a_match_ends(tmp_path):
    club = club_config("puerto-rican-drawing", format=ClubFormat.SWISS, rounds=1, table_size=2, target=500)
    host = await start_club(tmp_path / "night", club)
    players = [await ClubClient.connect(LOOPBACK, host.port or 0, name=n, code=CODE) for n in NAMES[:2]]
    watcher = await ClubClient.connect(LOOPBACK, host.port or 0, name="Eve", code=CODE, spectate=True)

    def scored(roster: Any) -> bool:
        return roster is not None and roster.tables and roster.tables[0].state == "playing" and any(
            roster.tables[0].points)

    async def play_until_a_round_scores(club: ClubClient) -> None:
        """Play until a round of the match has ended with points (then the table waits)."""
        while True:
            change = await club.next_change(WAIT)
            message = change.change.message if change.source == "table" and change.change else None
            view = message.view if isinstance(message, Update | GameSnapshot) else None
            if view is None or club.table is None:
                continue
            if any(view.scores):
                return
            if view.is_my_turn and view.legal:
                await club.table.send_action(view.legal[0])

    try:
        await host.start_round()
        await asyncio.wait_for(asyncio.gather(*(play_until_a_round_scores(p) for p in players)), NIGHT_WAIT)
        for client in (*players, watcher):  # everybody in the club is told, the watcher of the night too
            while not scored(client.model.club):
                await client.next_change(WAIT)
        assert not host.night.results  # the match goes on: its points, not its result
    finally:
        for client in (*players, watcher):
            await client.drop()
        await host.stop()
