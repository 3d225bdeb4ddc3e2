"""A real LAN inside this machine: tables found by name, joined, followed, and a cable pulled out.

Each "machine" is a network namespace on a bridge (tests/helpers_lan.py), with its own
address on 10.231.0.0/24, a subnet that exists only inside the namespaces these tests
make; nothing is sent anywhere else. Hosts are real ``capicu host --headless`` processes
(``ip netns exec``); players are real ``capicu join`` processes in pseudo-terminals and
the protocol client, run on their machine by `Machine.run`. They need root and ``ip``:
elsewhere they are skipped saying so, and with CAPICU_REQUIRE_LAN set (.ci/run sets it)
a skip is a failure. Select them with ``-m lan``; they live in this one file so that
xdist keeps them on one worker.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from capicu.core import make_player
from capicu.net import Client, Closed, Error, NextRound, Reconnected, Reconnecting, Update
from capicu.net.discovery import Ad, Found, listings, tables_named
from capicu.net.protocol import PROTOCOL_VERSION
from helpers_lan import Lan, Machine, lan_unavailable
from helpers_process import ProcessLines
from helpers_terminal import Terminal, capicu_env

pytestmark = pytest.mark.lan

#: The longest any single wait here takes.
WAIT = 30.0
ANA = "Ana's table"


@dataclass
class Net:
    """The test's LAN, and what was started on it (stopped at the end, before the LAN goes)."""

    lan: Lan
    home: Path
    processes: list[subprocess.Popen[bytes]] = field(default_factory=list)
    terminals: list[Terminal] = field(default_factory=list)

    def add(self) -> Machine:
        return self.lan.add()


@pytest.fixture
def net(tmp_path: Path) -> Iterator[Net]:
    """A LAN of its own for the test; everything started on it is stopped, and it is taken down."""
    reason = lan_unavailable()
    if reason is not None:
        if os.environ.get("CAPICU_REQUIRE_LAN"):
            pytest.fail(f"CAPICU_REQUIRE_LAN is set, but {reason}")
        pytest.skip(reason)
    made = Net(Lan(), tmp_path)
    try:
        yield made
    finally:
        for terminal in made.terminals:
            terminal.close()
        for process in made.processes:
            _stop(process)
        made.lan.close()


def _stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait(WAIT)


def _env(net: Net, who: str) -> dict[str, str]:
    """A capicu process's environment: its own folders, and the LAN allowed (the suite forbids it)."""
    env = capicu_env(net.home / who)
    env.pop("CAPICU_NO_LAN", None)
    return env


class LanHost:
    """``capicu host --headless`` on ``machine``: its join code once it announces (or listens)."""

    def __init__(self, net: Net, machine: Machine, *options: str) -> None:
        argv = machine.command(sys.executable, "-m", "capicu.tui", "host", "--headless", "--no-journal",
                               "--lang", "en", *options)
        self.process = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                        env=_env(net, f"host-{machine.address}"), start_new_session=True)
        net.processes.append(self.process)
        self.output = ProcessLines(self.process.stdout, WAIT)
        self.port = int(self.output.matching(r"listening on \S+ port (\d+)").group(1))
        self.code = self.output.matching(r"join code (\w+)|no join code").group(1)
        self.join_line = self.output.matching(r"to join, give address (\S+), port").group(1)
        if "--no-announce" not in options:
            self.output.matching(r"announced on the local network as")

    def stop(self) -> None:
        self.process.send_signal(signal.SIGTERM)
        self.output.matching(r"capicu host: stopped")
        self.process.wait(WAIT)


async def _tables(seconds: float, enough: Any = None) -> list[Found]:
    from capicu.net.mdns import look_for_tables

    return await look_for_tables(seconds, enough)


def _named(name: str, found: list[Found]) -> list[Found]:
    return [each.found for each in tables_named(name, listings(found))]


def _tables_cli(net: Net, machine: Machine, *options: str) -> list[dict[str, Any]]:
    """What ``capicu tables --json`` prints on ``machine``."""
    done = subprocess.run(machine.command(sys.executable, "-m", "capicu.tui", "tables", "--json", *options),
                          capture_output=True, env=_env(net, f"tables-{machine.address}"), timeout=WAIT)
    assert done.returncode == 0, done.stderr
    tables: list[dict[str, Any]] = json.loads(done.stdout)
    return tables


async def _play_round(found: Found, name: str, code: str | None, *, hold: Any = None) -> dict[str, Any]:
    """Join the table ``found`` names and play until its first round ends; what happened.

    ``hold``: a (played, resume) pair of `threading.Event`s: after its first move the player
    says so and plays on only once ``resume`` is set (the test pulls the cable meanwhile),
    and stops once the host has taken its next move.
    """
    client = await asyncio.wait_for(Client.connect(found.address, found.port, name=name, code=code), WAIT)
    player = make_player("greedy", 1)
    seat, moves, links = client.seat, 0, []
    pending: int | None = None
    held = False
    try:
        async with asyncio.timeout(WAIT * 3):
            while True:
                view = client.view
                if view is not None and view.is_my_turn and pending is None:
                    if hold is not None and moves == 1:
                        hold[0].set()
                        await asyncio.to_thread(hold[1].wait, WAIT * 2)
                        hold, held = None, True
                    pending = await client.send_action(player.choose(view))
                    moves += 1
                message = await client.receive(timeout=WAIT * 2)
                if isinstance(message, NextRound) or (view is not None and view.match_over):
                    break
                assert not isinstance(message, Closed), message
                if isinstance(message, Reconnecting | Reconnected):
                    links.append(type(message).__name__)
                if isinstance(message, Update) and message.ref == pending and held and moves > 1:
                    break  # the move after the outage was taken
                if isinstance(message, Reconnected | Error) or (
                        isinstance(message, Update) and message.ref == pending):
                    pending = None
        return {"seat": seat, "seat_after": client.seat, "moves": moves, "links": links}
    finally:
        await client.close()


async def _reaches(address: str, port: int) -> bool:
    """Whether a connection to ``address:port`` is accepted within 2 s."""
    try:
        _, writer = await asyncio.wait_for(asyncio.open_connection(address, port), 2.0)
    except (OSError, TimeoutError):
        return False
    writer.close()
    return True


def test_a_table_is_found_by_name_on_another_machine_joined_by_name_and_a_round_played(net: Net) -> None:
    host_machine, player_machine, watcher_machine = net.add(), net.add(), net.add()
    host = LanHost(net, host_machine, "--table-name", ANA, "--players", "2", "--computers", "1",
                   "--next-round-delay", "none")
    # The join line names the address the others reach, not 127.0.0.1 (this LAN has no default route).
    assert host.join_line == host_machine.address

    async def find_and_play() -> tuple[float, dict[str, Any]]:
        started = time.monotonic()
        found = await _tables(3.0, lambda tables: bool(_named(ANA, tables)))
        took = time.monotonic() - started
        [table] = _named(ANA, found)
        assert (table.address, table.port, table.ad.code_needed) == (host_machine.address, host.port, True)
        return took, await _play_round(table, "Beto", host.code)

    took, played = player_machine.run(find_and_play).result(WAIT * 4)
    assert took < 3.0, f"found after {took:.2f} s"
    assert played["moves"] >= 1 and played["seat"] == played["seat_after"] == 0

    # A real `capicu join` by the table's name, in a terminal on a third machine: it asks for the
    # join code the announcement says is needed, and watches the table.
    watcher = Terminal(watcher_machine.command(sys.executable, "-m", "capicu.tui", "join", ANA, "--spectate",
                                               "--name", "Cleo", "--lang", "en"), env=_env(net, "cleo"))
    net.terminals.append(watcher)
    watcher.wait_for(lambda text: f"Join code for {ANA}:" in text, "the question for the join code")
    watcher.send(f"{host.code}\r".encode())
    watcher.wait_for(lambda text: "Beto" in text and "Computer" in text, "the table, watched")


def test_the_seats_announced_follow_the_lobby(net: Net) -> None:
    host_machine, watch_machine, players_machine = net.add(), net.add(), net.add()
    host = LanHost(net, host_machine, "--table-name", ANA, "--players", "3", "--no-code")
    seen: list[int] = []
    changed = threading.Event()
    stop = threading.Event()

    async def watch() -> list[int]:
        from capicu.net.mdns import TableWatch

        def heard(found: list[Found]) -> None:
            for table in found:
                if not seen or seen[-1] != table.ad.taken:
                    seen.append(table.ad.taken)
                    changed.set()

        table_watch = TableWatch(heard)
        await table_watch.start()
        try:
            await asyncio.to_thread(stop.wait, WAIT * 2)
        finally:
            await table_watch.close()
        return seen

    watching = watch_machine.run(watch)

    def seen_taken(count: int) -> None:
        deadline = time.monotonic() + 10
        while not (seen and seen[-1] == count):
            assert time.monotonic() < deadline, f"the announcement said {seen}, never {count} taken"
            changed.wait(0.5)
            changed.clear()

    seen_taken(0)
    port = host.port
    first_in, second_in, leave = threading.Event(), threading.Event(), threading.Event()

    async def two_players() -> None:
        ana = await Client.connect(host_machine.address, port, name="Ana")
        first_in.set()
        beto = await Client.connect(host_machine.address, port, name="Beto")
        second_in.set()
        await asyncio.to_thread(leave.wait, WAIT)
        await beto.close()
        await asyncio.to_thread(stop.wait, WAIT * 2)
        await ana.close()

    players = players_machine.run(two_players)
    assert first_in.wait(WAIT)
    assert second_in.wait(WAIT)
    seen_taken(2)
    leave.set()
    seen_taken(1)  # a player who leaves the lobby frees the seat, and the announcement says so
    stop.set()
    players.result(WAIT)
    assert 1 in watching.result(WAIT)
    assert seen[0] == 0 and 2 in seen


def test_two_hosts_are_listed_a_stopped_one_goes_and_an_unannounced_one_never_shows(net: Net) -> None:
    ana_machine, looker, beto_machine, quiet_machine = net.add(), net.add(), net.add(), net.add()
    ana = LanHost(net, ana_machine, "--table-name", ANA)
    beto = LanHost(net, beto_machine, "--table-name", "Beto's table", "--no-code",
                   "--preset", "mexican-train", "--bind", beto_machine.address)  # its one address
    LanHost(net, quiet_machine, "--table-name", "Quiet table", "--no-announce")

    listed = _tables_cli(net, looker)
    assert sorted((t["name"], t["address"], t["code_needed"], t["preset"]) for t in listed) == [
        (ANA, ana_machine.address, True, "puerto-rican-drawing"),
        ("Beto's table", beto_machine.address, False, "mexican-train"),
    ]

    async def gone_after_stop() -> float:
        from capicu.net.mdns import TableWatch

        heard = asyncio.Event()
        watch = TableWatch(lambda found: heard.set())
        await watch.start()
        try:
            async with asyncio.timeout(WAIT):
                while not _named(ANA, list(watch.tables.values())):
                    heard.clear()
                    await heard.wait()
                await asyncio.to_thread(ana.stop)
                stopped = time.monotonic()
                while _named(ANA, list(watch.tables.values())):
                    heard.clear()
                    await heard.wait()
            return time.monotonic() - stopped
        finally:
            await watch.close()

    took = looker.run(gone_after_stop).result(WAIT * 2)
    assert took < 3.0, f"the stopped table was still listed {took:.2f} s later"
    # The plain list: one line a table, its address first.
    done = subprocess.run(looker.command(sys.executable, "-m", "capicu.tui", "--lang", "en", "tables"),
                          capture_output=True, text=True, env=_env(net, "tables-plain"), timeout=WAIT)
    assert done.stdout.splitlines() == [
        f"{beto_machine.address}:{beto.port}  Beto's table  (mexican-train, 2 of 2 seats free)"], done


def test_the_hosts_cable_out_for_20_seconds_and_back_the_players_are_in_their_seats(net: Net) -> None:
    host_machine, bot_machine, person_machine = net.add(), net.add(), net.add()
    # Three seats: the protocol client, a person in a terminal (the computer plays their turns
    # after 2 s: the test is about the link, not their keys) and a computer.
    host = LanHost(net, host_machine, "--table-name", ANA, "--players", "3", "--computers", "1",
                   "--turn-timer", "2", "--no-code", "--next-round-delay", "none")
    # `capicu join` with no address: the one table it hears is offered at once.
    person = Terminal(person_machine.command(sys.executable, "-m", "capicu.tui", "join", "--name", "Dora",
                                             "--lang", "en"), env=_env(net, "dora"))
    net.terminals.append(person)
    person.wait_for(lambda text: f"Join {ANA}? [Y/n]" in text and "1. Ana's table" in text, "the offer")
    where = f"{host_machine.address}:{host.port}"
    assert f"puerto-rican-drawing  ·  2 of 3 seats free  ·  {where}" in person.text(), person.text()
    person.send(b"\r")
    person.wait_for(lambda text: "Lobby" in text and "Dora" in text, "Dora in the lobby")
    played, resume = threading.Event(), threading.Event()
    table = Found(Ad(ANA, "line-of-play", "puerto-rican-drawing", 3, 2, False), host_machine.address,
                  host.port, ANA)
    bot = bot_machine.run(lambda: _play_round(table, "Beto", None, hold=(played, resume)))
    assert played.wait(WAIT), "the player never made a first move"
    person.wait_for(lambda text: "Beto" in text and "Lobby" not in text, "Dora at the table")

    host_machine.link_down()
    try:
        outage_end = time.monotonic() + 20
        # The cable is really out: nobody reaches the host.
        assert not bot_machine.run(lambda: _reaches(host_machine.address, host.port)).result(WAIT)
        # A connection may survive 20 s without its cable (TCP waits); here the host's system
        # gives up on them, so the players must find their way back by themselves.
        host_machine.cut_connections(host.port)
        while time.monotonic() < outage_end:  # out for 20 s: that is the test, not a wait for something
            person.read_for(min(1.0, max(0.0, outage_end - time.monotonic())))
    finally:
        host_machine.link_up()
    resume.set()
    result = bot.result(WAIT * 3)
    assert result["seat_after"] == result["seat"] == 1, result  # Dora came first: seat 0
    assert "Reconnected" in result["links"], result  # back in its seat by itself, with its hand
    assert result["moves"] >= 2, result  # it played on after the outage, in its own seat
    person.wait_for(lambda text: "Beto" in text and "econnect" not in text, "Dora back at the table")
    assert host.process.poll() is None
    # And the table is still announced, its seats all taken now.
    assert [(t["name"], t["free"]) for t in _tables_cli(net, bot_machine)] == [(ANA, 0)]


def test_a_hostile_announcement_is_cleaned_or_left_out_and_never_breaks_the_list(net: Net) -> None:
    """Anybody on the LAN may announce anything: escapes in a name, a record of garbage."""
    rogue, looker = net.add(), net.add()
    announced, stop = threading.Event(), threading.Event()

    async def announce_rubbish() -> None:
        from capicu.net.discovery import SERVICE_TYPE
        from zeroconf import IPVersion
        from zeroconf.asyncio import AsyncServiceInfo, AsyncZeroconf

        fields = {"v": "1", "proto": str(PROTOCOL_VERSION), "game": "line-of-play", "preset": "draw",
                  "seats": "4", "taken": "1", "code": "0",
                  "name": "\x1b]0;owned\x07Ana\u202e's\x1b[2J table\u200b"}
        escapes = b"".join(bytes([len(entry)]) + entry
                           for entry in (f"{key}={value}".encode() for key, value in fields.items()))
        records = {"escapes": escapes, "garbage": b"\xff\x00\x03v=9name", "lies": escapes.replace(
            b"\x07taken=1", b"\x08taken=99")}
        zeroconf = AsyncZeroconf(interfaces=[rogue.address], ip_version=IPVersion.V4Only)
        try:
            infos = [AsyncServiceInfo(SERVICE_TYPE, f"{label}.{SERVICE_TYPE}", port=7254, properties=txt,
                                      parsed_addresses=[rogue.address]) for label, txt in records.items()]
            sent = await asyncio.gather(*(zeroconf.async_register_service(info) for info in infos))
            await asyncio.gather(*sent)
            announced.set()
            await asyncio.to_thread(stop.wait, WAIT)
        finally:
            await zeroconf.async_close()

    running = rogue.run(announce_rubbish)
    assert announced.wait(WAIT)
    try:
        listed = _tables_cli(net, looker)
    finally:
        stop.set()
        running.result(WAIT)
    # The escapes and invisible characters are gone; the garbage and the lie (99 of 4 seats) are left out.
    assert [(t["name"], t["address"], t["taken"]) for t in listed] == [("Ana's table", rogue.address, 1)]


# -- a club night on the LAN ---------------------------------------------------------------

NIGHT = "Friday league"


def test_a_club_nights_announcement_follows_the_night_and_goes_when_its_host_stops(
        net: Net, tmp_path: Path) -> None:
    """A real club host (in-process, on one machine) heard by the real discovery on another."""
    host_machine, watch_machine = net.add(), net.add()
    seen: list[tuple[str, int, int] | None] = []
    changed, stop_watching = threading.Event(), threading.Event()

    async def watch() -> None:
        from capicu.net.mdns import TableWatch

        def heard(found: list[Found]) -> None:
            clubs = [each.ad.club for each in found if each.ad.name == NIGHT]
            now = (clubs[0].phase, clubs[0].round, clubs[0].people) if clubs and clubs[0] else None
            if not seen or seen[-1] != now:
                seen.append(now)
                changed.set()

        table_watch = TableWatch(heard)
        await table_watch.start()
        try:
            await asyncio.to_thread(stop_watching.wait, WAIT * 2)
        finally:
            await table_watch.close()

    def seen_now(state: tuple[str, int, int] | None) -> None:
        deadline = time.monotonic() + 10
        while not (seen and seen[-1] == state):
            assert time.monotonic() < deadline, f"the announcement said {seen}, never {state}"
            changed.wait(0.5)
            changed.clear()

    watching = watch_machine.run(watch)
    steps = [threading.Event() for _ in range(3)]

    async def club_night() -> None:
        from capicu.core import Rules
        from capicu.core.club import ClubConfig, ClubFormat
        from capicu.net.club import ClubClient, ClubHost, ClubHostConfig
        from capicu.net.host.server import Announce

        club = ClubConfig(rules=Rules(), format=ClubFormat.SWISS, rounds=2, table_size=2, name=NIGHT)
        host = ClubHost(ClubHostConfig(club, tmp_path / "night", port=0, round_delay=None, grace=600,
                                       announce=Announce(NIGHT)))
        await host.start()
        assert host.announced == NIGHT and host.port is not None
        people = [await ClubClient.connect("127.0.0.1", host.port, name=name) for name in ("Ana", "Beto")]
        try:
            await asyncio.to_thread(steps[0].wait, WAIT)
            await host.start_round()
            await asyncio.to_thread(steps[1].wait, WAIT)
        finally:
            for person in people:
                await person.close()
            await host.stop()
        steps[2].set()

    night = host_machine.run(club_night)
    seen_now(("gathering", 0, 2))
    steps[0].set()
    seen_now(("playing", 1, 2))  # a round drawn: the announcement says so
    steps[1].set()
    assert steps[2].wait(WAIT)
    night.result(WAIT)
    seen_now(None)  # the host stopped: its goodbye took the night off the list
    stop_watching.set()
    watching.result(WAIT)


def test_a_club_night_is_listed_and_joined_with_no_address_by_club_join_and_by_join(net: Net) -> None:
    host_machine, looker, dora_machine, eli_machine = net.add(), net.add(), net.add(), net.add()
    argv = host_machine.command(sys.executable, "-m", "capicu.net.club", str(net.home / "night"), "--name",
                                NIGHT, "--table-size", "2", "--rounds", "2", "--code", "K7PX2M")
    process = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               env=_env(net, "club-host"), start_new_session=True)
    net.processes.append(process)
    output = ProcessLines(process.stdout, WAIT)
    port = int(output.matching(r"listening on \S+ port (\d+)").group(1))
    output.matching(f"announced on the local network as {NIGHT}")

    [listed] = _tables_cli(net, looker)
    assert (listed["name"], listed["address"], listed["port"], listed["code_needed"]) == (
        NIGHT, host_machine.address, port, True)
    assert listed["club"] == {"format": "swiss", "phase": "gathering", "round": 0, "rounds": 2, "people": 0}

    # `capicu club --join` with no address: the one night heard is offered, its code asked for.
    dora = Terminal(dora_machine.command(sys.executable, "-m", "capicu.tui", "club", "--join", "--name",
                                         "Dora", "--lang", "en"), env=_env(net, "dora"))
    net.terminals.append(dora)
    dora.wait_for(lambda text: f"Join {NIGHT} (club night)? [Y/n]" in text, "the offer")
    assert "puerto-rican-drawing  ·  Swiss, not started, 0 players" in dora.text(), dora.text()
    dora.send(b"\r")
    dora.wait_for(lambda text: f"Join code for {NIGHT} (club night):" in text, "the question for the code")
    dora.send(b"K7PX2M\r")
    dora.wait_for(lambda text: "Dora (you)" in text, "Dora in the club's lobby")

    # `capicu join` with no address hears the club night too (its announcement followed Dora's join),
    # and takes Eli into it, not to a table.
    eli = Terminal(eli_machine.command(sys.executable, "-m", "capicu.tui", "join", "--name", "Eli",
                                       "--code", "K7PX2M", "--lang", "es"), env=_env(net, "eli"))
    net.terminals.append(eli)
    eli.wait_for(lambda text: f"{NIGHT} (noche de club)" in text and "suizo, sin empezar, 1 jugador" in text,
                 "the night in Spanish, with Dora in it")
    eli.send(b"\r")
    eli.wait_for(lambda text: "Eli (tú)" in text and "Dora" in text, "Eli in the club's lobby")
    dora.wait_for(lambda text: "Eli" in text, "Eli on Dora's roster")
