"""``kill -9`` of a real club host process in the middle of a round, started again with the same
command: the night goes on where it stood (issue 33).

The host runs as its own process (``python -m capicu.net.club``); eight `ClubClient`s play in this
one. Each table stops in the middle of its match (its player on turn holds), the host is killed with
SIGKILL and run again with the very same command: every client is back in its seat by itself (the
club's token, the seat's token), every table where it was (the same event number, the same hand),
the night's draw and standings as they were; then the night is played to its end and its standings
equal a recomputation from the records.
"""

from __future__ import annotations

import asyncio
import os
import re
import signal
import socket
import sys
from typing import Any

import pytest
from capicu.core.club import ClubFormat
from capicu.net import NextRound, Reconnected, Update
from capicu.net.club import ClubClient
from capicu.net.club.client import ClubChange
from capicu.net.club.night_log import read_night
from capicu.net.protocol import GameSnapshot, Seats

from ..conftest import LOOPBACK, WAIT
from .test_club_night import CODE, NAMES, NIGHT_WAIT, recomputed, rows

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((LOOPBACK, 0))
        return int(probe.getsockname()[1])


async def start_club_process(command: list[str]) -> tuple[asyncio.subprocess.Process, dict[str, str]]:
    """The club host's process, and what it printed as it started (its port, key and night)."""
    process = await asyncio.create_subprocess_exec(
        *command, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL,
        env={**os.environ, "PYTHONUNBUFFERED": "1"})
    said: dict[str, str] = {}
    assert process.stdout is not None
    async with asyncio.timeout(WAIT):
        while "night" not in said:
            line = (await process.stdout.readline()).decode()
            if not line:
                raise AssertionError(f"the club host did not start: {said}")
            for key, pattern in (("port", r"listening on \S+ port (\d+)"), ("key", r"organiser key (\S+)"),
                                 ("night", r"night (.+)$")):
                found = re.search(pattern, line.strip())
                if found:
                    said[key] = found.group(1)
    return process, said


class Bot:
    """A club client that plays the first legal action, and holds its turn in round 1 once it has
    played ``moves`` times, until ``release`` is set (so that its table stands still)."""

    def __init__(self, club: ClubClient, moves: int, release: asyncio.Event) -> None:
        self.club = club
        self.moves = moves
        self.release = release
        self.played = 0
        #: It holds its turn now (its table stands still).
        self.holding = asyncio.Event()
        #: Its table's snapshot after the host came back, and the club's connection back.
        self.table_back: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        self.club_back = asyncio.Event()

    async def play(self) -> Any:
        club = self.club
        dropped = False
        while True:
            if self.holding.is_set() and self.release.is_set():
                self.holding.clear()
                await self._act(club.table.view if club.table else None)
            change = await self._next_change()
            if change is None:
                continue
            if change.source == "club":
                standings = club.model.standings
                if standings is not None and standings.final:
                    return standings
                if isinstance(change.change.message if change.change else None, Reconnected):
                    self.club_back.set()
                continue
            if change.source != "table" or change.change is None or club.table is None:
                continue
            message = change.change.message
            if isinstance(message, Reconnected):
                dropped = True
            if isinstance(message, GameSnapshot) and dropped and not self.table_back.done():
                self.table_back.set_result(message.seq)
            if isinstance(message, NextRound):
                await club.table.ready()
            await self._act(message.view if isinstance(message, Update | GameSnapshot) else None)

    async def _next_change(self) -> ClubChange | None:
        """The club's next change; None when ``release`` is set first while holding."""
        get = asyncio.ensure_future(self.club.next_change(NIGHT_WAIT))
        if not self.holding.is_set():
            return await get
        release = asyncio.ensure_future(self.release.wait())
        done, _ = await asyncio.wait({get, release}, return_when=asyncio.FIRST_COMPLETED)
        release.cancel()
        if get in done:
            return get.result()
        get.cancel()  # (a queue's get cancelled takes nothing from it)
        return None

    async def _act(self, view: Any) -> None:
        table = self.club.table
        if view is None or table is None or not view.is_my_turn or not view.legal:
            return
        if not self.release.is_set() and self.played >= self.moves and table.table.startswith("r1-"):
            self.holding.set()
            return
        self.played += 1
        await table.send_action(view.legal[0])


async def test_a_club_host_killed_mid_round_resumes_the_night_where_it_stood(tmp_path):
    folder = tmp_path / "night"
    command = [sys.executable, "-m", "capicu.net.club", str(folder), "--preset", "puerto-rican-drawing",
               "--target", "60", "--format", "swiss", "--rounds", "2", "--table-size", "2",
               "--bind", LOOPBACK, "--port", str(free_port()), "--code", CODE, "--level", "greedy",
               "--next-round-delay", "0", "--round-delay", "0"]
    process, said = await start_club_process(command)
    port, key = int(said["port"]), said["key"]
    clubs: list[ClubClient] = []
    release = asyncio.Event()
    try:
        for name in NAMES:
            clubs.append(await ClubClient.connect(LOOPBACK, port, name=name, code=CODE, max_backoff=0.2))
        bots = [Bot(club, 2, release) for club in clubs]
        playing = [asyncio.create_task(bot.play()) for bot in bots]
        await clubs[0].start_round(key)
        # Every table of round 1 stands still: one of its two players holds its turn.
        async with asyncio.timeout(WAIT):
            while len({bot.club.table.table for bot in bots if bot.holding.is_set() and bot.club.table}) < 4:
                await asyncio.wait([asyncio.create_task(bot.holding.wait()) for bot in bots],
                                   return_when=asyncio.FIRST_COMPLETED, timeout=1.0)
        before = {bot.club.name: (bot.club.table.table, bot.club.table.seq, bot.club.table.view)
                  for bot in bots if bot.club.table}
        night_before = read_night(folder / "night.journal")
        assert night_before.round == 1 and not night_before.results

        process.send_signal(signal.SIGKILL)
        await asyncio.wait_for(process.wait(), WAIT)
        process, said = await start_club_process(command)  # the very same command
        assert said["night"] == "playing round 1 with 8 people"
        assert int(said["port"]) == port and said["key"] == key

        # Every client comes back to its seat by itself; every table is where it stood.
        async with asyncio.timeout(WAIT):
            for bot in bots:
                seq = await bot.table_back
                await bot.club_back.wait()
                table = bot.club.table
                assert table is not None
                assert (table.table, seq, table.view) == before[bot.club.name]
        assert read_night(folder / "night.journal") == night_before

        release.set()
        told = await asyncio.wait_for(asyncio.gather(*playing), NIGHT_WAIT)
    finally:
        for club in clubs:
            await club.drop()
        if process.returncode is None:
            process.send_signal(signal.SIGTERM)
            await asyncio.wait_for(process.wait(), WAIT)
    night = read_night(folder / "night.journal")
    assert night.phase.value == "over" and len(night.results) == 8
    again = recomputed(night, folder)
    assert again == night.results
    assert {standing.rows for standing in told} == {rows(night, again)}


async def test_a_match_that_ended_as_the_host_stopped_is_recorded_when_it_resumes(tmp_path):
    # The table's journal holds the match's last action, the night's journal not its result yet:
    # a host killed between the two writes. Resumed, the night records it from the table's match.
    from .test_club_night import club_config, play_the_night, start_club

    club = club_config("puerto-rican-drawing", format=ClubFormat.SWISS, rounds=1, table_size=2, target=20)
    folder = tmp_path / "night"
    host = await start_club(folder, club)
    players = [await ClubClient.connect(LOOPBACK, host.port or 0, name=n, code=CODE) for n in NAMES[:2]]
    try:
        await host.start_round()
        await asyncio.wait_for(asyncio.gather(*(play_the_night(p) for p in players)), NIGHT_WAIT)
    finally:
        for player in players:
            await player.drop()
        await host.stop()
    (result,) = host.night.results
    journal = folder / "night.journal"
    lines = journal.read_bytes().splitlines(keepends=True)
    journal.write_bytes(b"".join(lines[:-1]))  # the result's line, never written
    assert read_night(journal).results == ()
    (folder / "records" / result.record).unlink()  # nor the record kept

    host = await start_club(folder, club)
    try:
        async with asyncio.timeout(WAIT):
            while not host.night.results:
                host.changed.clear()
                await host.changed.wait()
        assert host.night.results == (result,)
        assert host.night.phase.value == "over"
    finally:
        await host.stop()  # (waits for the record being written)
    assert read_night(journal).results == (result,)
    assert (folder / "records" / result.record).exists()


async def test_a_seat_still_awaited_when_the_host_was_killed_is_awaited_after_it(tmp_path):
    # Ana came to her seat of round 1, Bea not yet; the host is killed and started again. Bea's seat
    # still awaits her (her first arrival is sitting down, not coming back); Ana's does not.
    folder = tmp_path / "night"
    command = [sys.executable, "-m", "capicu.net.club", str(folder), "--preset", "puerto-rican-drawing",
               "--format", "swiss", "--rounds", "1", "--table-size", "2", "--bind", LOOPBACK,
               "--port", str(free_port()), "--code", CODE, "--next-round-delay", "0"]
    process, said = await start_club_process(command)
    port, key = int(said["port"]), said["key"]
    ana = bea = None
    try:
        ana = await ClubClient.connect(LOOPBACK, port, name="Ana", code=CODE, max_backoff=0.2)
        bea = await ClubClient.connect(LOOPBACK, port, name="Bea", code=CODE, follow=False, max_backoff=0.2)
        await ana.start_round(key)

        async def ana_sees(check: Any) -> None:
            """Ana's changes, until one of her table's passes ``check`` (its message, her table's model)."""
            async with asyncio.timeout(WAIT):
                while True:
                    change = await ana.next_change()
                    table = ana.table
                    if change.source == "table" and table is not None and change.change is not None \
                            and check(change.change.message, table.model):
                        return

        def seat_of(model: Any, name: str) -> Any:
            return next(seat for seat in model.seats if seat.name == name)

        await ana_sees(lambda _, model: model.seats and seat_of(model, "Ana").connected)
        assert ana.table is not None
        bea_seat = seat_of(ana.table.model, "Bea").seat
        assert ana.table.model.awaited == {bea_seat}

        process.send_signal(signal.SIGKILL)
        await asyncio.wait_for(process.wait(), WAIT)
        process, said = await start_club_process(command)  # the very same command
        await ana_sees(lambda message, _: isinstance(message, Reconnected))  # she is back by herself
        await ana_sees(lambda message, _: isinstance(message, Seats))
        assert ana.table.model.awaited == {bea_seat}

        # Bea comes the first time: the seat map that says so had her seat awaited before it.
        assert await bea.take_seat()
        async with asyncio.timeout(WAIT):
            while True:
                change = await ana.next_change()
                message = change.change.message if change.change is not None else None
                if change.source == "table" and isinstance(message, Seats) \
                        and seat_of(ana.table.model, "Bea").connected:
                    break
        assert change.change is not None and bea_seat in change.change.awaited_before
        assert ana.table.model.awaited == set()
    finally:
        for club in (ana, bea):
            if club is not None:
                await club.drop()
        if process.returncode is None:
            process.send_signal(signal.SIGTERM)
            await asyncio.wait_for(process.wait(), WAIT)



async def test_a_journal_from_before_the_awaited_seats_resumes_with_none_awaited(tmp_path):
    # A night journaled by a host that kept no arrivals (no "awaiting" line): it resumes as it
    # did then, every seat held for its person and none awaited.
    from .test_club_night import club_config, start_club

    club = club_config("puerto-rican-drawing", format=ClubFormat.SWISS, rounds=1, table_size=2, target=20)
    folder = tmp_path / "night"
    host = await start_club(folder, club, round_delay=None)
    players = [await ClubClient.connect(LOOPBACK, host.port or 0, name=n, code=CODE, follow=False)
               for n in NAMES[:2]]
    try:
        await host.start_round()  # nobody comes to the seats drawn
        async with asyncio.timeout(WAIT):
            while host.night.round != 1:
                host.changed.clear()
                await host.changed.wait()
    finally:
        for player in players:
            await player.drop()
        await host.stop()
    journal = folder / "night.journal"
    lines = journal.read_bytes().splitlines(keepends=True)
    assert sum(b'"awaiting":1' in line for line in lines) == 1

    async def awaited_after_resuming() -> list[bool]:
        again = await start_club(folder, club, round_delay=None)
        try:
            return [seat.awaited for seat in again.host.tables["r1-t1"].seats]
        finally:
            await again.stop()

    assert await awaited_after_resuming() == [True, True]
    journal.write_bytes(b"".join(line for line in lines if b'"awaiting"' not in line))
    assert await awaited_after_resuming() == [False, False]
