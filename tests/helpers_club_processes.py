"""A club night with real processes, for tests/tui/test_club_night_processes_*.py (one night a file, so
that the test workers share them): a headless club host, two ``capicu club --join`` in
pseudo-terminals, six protocol players.

The club host runs as its own process (``python -m capicu.net.club``); two people join
it with ``capicu club --join`` in 80x24 pseudo-terminals, read through a terminal
emulator, and six protocol clients (net/club/client.py, in a thread of the test)
make up the field of eight. The organiser draws round 1 (``club_start`` with the key the
host printed); each later round is drawn by itself once every table is done. The two
people play by keys only and are taken to each seat by the draw alone (nobody types a
join line again), go back to the club's standings after each match, and end the
night on the final standings, which equal the host's, recomputed from its journal.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import socket
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from capicu.core.club import ClubNight
from capicu.net import NextRound, Update
from capicu.net.club import ClubClient
from capicu.net.club.night_log import read_night
from capicu.net.protocol import GameSnapshot
from capicu.net.store.record import read_record
from helpers_process import ProcessLines
from helpers_terminal import WAIT, Terminal, capicu_env

CODE = "CLUB42"
#: The longest the whole night may take (every single wait in it is bounded too).
NIGHT_WAIT = 300.0


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass(frozen=True)
class Night:
    """A night of the issue's test: its game, format, rounds, table size and each match's target."""

    preset: str
    format: str
    rounds: int
    table_size: int
    target: int
    #: The protocol players beside the two people in pseudo-terminals.
    bots: tuple[str, ...] = ("Cruz", "Dani", "Eli", "Fer", "Gus", "Hilda")


#: The issue's two kinds of night, eight people each: a 3-round Swiss night of 2-player matches, and
#: a 2-round rotating-partners night of the partners' game (short targets).
NIGHTS = {
    "swiss": Night("puerto-rican-drawing", "swiss", 3, 2, 10),
    "rotating-partners": Night("puerto-rican-partners", "rotating-partners", 2, 4, 20),
}


class ClubHostProcess:
    """``python -m capicu.net.club`` as a process: it prints its port and the organiser's key."""

    def __init__(self, folder: Path, port: int, night: Night) -> None:
        argv = [sys.executable, "-m", "capicu.net.club", str(folder), "--preset", night.preset,
                "--target", str(night.target), "--format", night.format, "--rounds", str(night.rounds),
                "--table-size", str(night.table_size), "--bind", "127.0.0.1", "--port", str(port),
                "--code", CODE, "--level", "greedy", "--next-round-delay", "0", "--round-delay", "0"]
        self.process = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                        env={**os.environ, "PYTHONUNBUFFERED": "1"}, start_new_session=True)
        lines = ProcessLines(self.process.stdout, WAIT)
        self.port = int(lines.matching(r"listening on \S+ port (\d+)").group(1))
        self.key = lines.matching(r"organiser key (\S+)").group(1)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)


class Bots:
    """Two protocol players in a thread of their own: they play the first legal action all night, and
    one of them, as the organiser's client, draws round 1 once the four are in the club."""

    def __init__(self, port: int, key: str, names: tuple[str, ...]) -> None:
        self.port, self.key, self.names = port, key, names
        self.field = 2 + len(names)
        self.failure: BaseException | None = None
        self._stop: asyncio.Event | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        try:
            asyncio.run(self._night())
        except BaseException as exc:
            self.failure = exc

    async def _night(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._stop = asyncio.Event()
        clubs = [await ClubClient.connect("127.0.0.1", self.port, name=name, code=CODE)
                 for name in self.names]
        tasks = [asyncio.create_task(self._play(club, organiser=club is clubs[0])) for club in clubs]
        await self._stop.wait()
        for task in tasks:
            task.cancel()
        for club in clubs:
            with contextlib.suppress(Exception):
                await club.drop()

    async def _play(self, club: ClubClient, *, organiser: bool) -> None:
        """Play all night; the organiser's client draws round 1 as the roster reaches the whole field."""
        started = False
        while True:
            change = await club.next_change()
            roster = club.model.club
            if organiser and not started and roster is not None and len(roster.entrants) >= self.field:
                started = True
                await club.start_round(self.key)
            if change.source != "table" or change.change is None or club.table is None:
                continue
            message = change.change.message
            if isinstance(message, NextRound):
                await club.table.ready()
            view = message.view if isinstance(message, Update | GameSnapshot) else None
            if view is not None and view.is_my_turn and view.legal:
                await club.table.send_action(view.legal[0])

    def close(self) -> None:
        if self._loop is not None and self._stop is not None:
            self._loop.call_soon_threadsafe(self._stop.set)
        self._thread.join(WAIT)
        if self.failure is not None and not isinstance(self.failure, asyncio.CancelledError):
            raise AssertionError(f"the protocol players failed: {self.failure!r}")


def _join(port: int, config: Path, name: str) -> Terminal:
    argv = [sys.executable, "-m", "capicu.tui", "club", "--join", f"127.0.0.1:{port}", "--name", name,
            "--code", CODE, "--no-mouse"]
    return Terminal(argv, capicu_env(config))


_TILE = re.compile(r"\[ ?(\d)\| ?(\d)\]")
RIGHT, LEFT, HOME = b"\x1b[C", b"\x1b[D", b"\x1b[H"


def _status(text: str) -> str:
    """The table's status line: the row below the chat line."""
    rows = text.splitlines()
    for index, row in enumerate(rows[:-1]):
        if "c to chat" in row:
            return rows[index + 1].strip()
    return ""


def _hand(text: str) -> list[str]:
    """My hand's tiles, from the row with my name."""
    row = next((row for row in text.splitlines() if "(you)" in row and _TILE.search(row)), "")
    return [f"{a}-{b}" for a, b in _TILE.findall(row)]


_SEATING = re.compile(r"Round \d: you sit at table \d, seat \d")


def _seatings(text: str) -> list[str]:
    """Each "Round N: you sit at table T, seat S" on the screen: on the status line (one row), or in
    the log, wrapped after "table T," onto the next row at the same column. (The status line soon
    shows the next notice, "Beto sat down.", so a loaded reader may see the seating in the log only.)"""
    rows = text.splitlines()
    found = _SEATING.findall(text)
    for index, row in enumerate(rows[:-1]):
        for wrapped in re.finditer(r"Round \d: you sit at table \d,\s*$", row):
            column = wrapped.start()
            found += _SEATING.findall(row[column:].rstrip() + " " + rows[index + 1][column:].strip())
    return found


class Person:
    """A person at the keyboard: answers the table's status line with keys, reads the club's screens."""

    def __init__(self, terminal: Terminal) -> None:
        self.terminal = terminal
        self.answered = ""
        self.since = 0.0
        self.tries = 0
        #: When we last pressed Esc on a match's final score.
        self.escaped = 0.0
        #: "Round N: you sit at table T, seat S" as each table said it.
        self.seated: set[str] = set()

    def step(self) -> None:
        terminal = self.terminal
        terminal._read(0.05)
        text = terminal.text()
        self.seated.update(_seatings(text))
        if "Standings" in text or "Final standings" in text:
            return  # back at the club: the draw moves us on by itself
        if "n/esc Stay" in text:  # the question of leaving (never meant here): stay
            terminal.send(b"n")
            return
        now = time.monotonic()
        if "Ended" in text and "Total" in text:  # the final score's table of rounds
            # Read: back to the club's standings, with one Esc (a second one, sent before the screen
            # changed, would leave the standings: at once when the night is over).
            if now - self.escaped > 3.0:
                terminal.send(b"\x1b")
                self.escaped = now
            return
        status = _status(text)
        if status == self.answered and now - self.since < 0.6:
            return  # answered: give the table a moment to change
        keys = self._answer(status, text, again=status == self.answered)
        if keys:
            terminal.send(keys)
            self.answered, self.since = status, now

    def _answer(self, status: str, text: str, *, again: bool) -> bytes:
        hand = _hand(text)
        fits = re.search(r"fits \((\d)-(\d)\)", status)
        if fits is not None and f"{fits.group(1)}-{fits.group(2)}" in hand:
            return HOME + RIGHT * hand.index(f"{fits.group(1)}-{fits.group(2)}") + b"\r"
        footer = text.rstrip().splitlines()[-1] if text.strip() else ""
        # (The footer offers p, or d, when nothing fits, whatever the status line still says.)
        if "press p" in status or " p Pass" in footer:
            return b"p"
        if "press d" in status or " d Draw " in footer:
            return b"d"
        if "fits both ends" in status:
            return LEFT
        if "fits neither" in status or "does not fit" in status or (again and "Your turn" in status):
            self.tries += 1  # the next tile, from the left (the cursor does not wrap round)
            return HOME + RIGHT * (self.tries % max(1, len(hand))) + b"\r"
        if any(words in status for words in ("Your turn", "Your lead", "when you are ready",
                                             "for the final score")):
            return b"\r"
        if "(you) to play" in text:
            # Our turn, the status line still saying what happened (what we drew, where we sit):
            # the hand's cursor starts on a tile that may be played.
            return b"\r"
        return b""


def _standings_shown(text: str, names: list[str]) -> list[str]:
    """The names of the standings' rows on the screen, top to bottom."""
    return [name for row in text.splitlines()
            if (found := re.match(r"^\s*\d+\s+(\w+)", row)) and (name := found.group(1)) in names]


def play_the_night(tmp_path: Path, night_asked: Night) -> None:
    """The night ``night_asked`` with two people in pseudo-terminals and six protocol players, to its
    final standings, checked against the host's journal."""
    folder = tmp_path / "night"
    host = ClubHostProcess(folder, _free_port(), night_asked)
    with contextlib.ExitStack() as started:  # every process this test starts is stopped, whatever fails
        started.callback(host.stop)
        ana = _join(host.port, tmp_path / "ana", "Ana")
        started.callback(ana.kill)
        beto = _join(host.port, tmp_path / "beto", "Beto")
        started.callback(beto.kill)
        for terminal in (ana, beto):
            terminal.wait_for(lambda text: "(you)" in text, "the club's lobby with me in it")
        bots = Bots(host.port, host.key, night_asked.bots)
        started.callback(bots.close)
        people = [Person(ana), Person(beto)]
        until = time.monotonic() + NIGHT_WAIT
        while not all("Final standings" in person.terminal.text() for person in people):
            screens = "\n\n".join(person.terminal.text() for person in people)
            assert time.monotonic() < until, f"the night did not end; the screens show:\n{screens}"
            for person in people:
                person.step()
        for person in people:
            # The final standings stay on the screen until the person leaves.
            assert person.terminal.process.poll() is None, person.terminal.text()
            # A seat a round, each taken by the draw alone.
            rounds = {f"Round {number}" for number in range(1, night_asked.rounds + 1)}
            assert {seat[:7] for seat in person.seated} == rounds, person.seated
        night: ClubNight = read_night(folder / "night.journal")
        # Every result is its match's record, as the host kept it.
        for result in night.results:
            record = read_record(folder / "records" / result.record)
            winners = tuple(side for side, seats in enumerate(result.sides)
                            if any(seat in record.winners for seat in seats))
            assert (tuple(record.totals), winners) == (result.points, result.winners), result
        assert len(night.results) == night_asked.rounds * (8 // night_asked.table_size)
        names = {entrant.id: entrant.name for entrant in night.entrants}
        order = [names[standing.entrant] for standing in night.standings()]
        for person in people:
            # (Read until the whole list is drawn: a frame caught while the table is refilled is short.)
            person.terminal.wait_for(lambda text: _standings_shown(text, order)[:len(order)] == order,
                                     f"the final standings in the host's order {order}")
            assert person.terminal.process.poll() is None, "the final standings stay until one leaves"
