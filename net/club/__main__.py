"""A headless club night's host: ``python -m capicu.net.club FOLDER [options]`` (for tests, benches
and servers; ``capicu club`` is the interface's).

It prints where it listens, the join code and the organiser's key, one line each (and the name the
night is announced by on the local network, unless ``--no-announce``, CAPICU_NO_LAN, or a bind to
the loopback address), then runs the night until it is stopped (Ctrl-C or SIGTERM). Run again with
the same command (the same folder) after a crash, it resumes the night where it stood: the draw,
the standings, every table. The organiser draws rounds and closes tables from a client
(``club_start``, ``club_close``, with the organiser's key), unless ``--round-delay`` draws each
next round by itself.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import signal
import socket
import sys
from pathlib import Path

import msgspec
from capicu.core import Rules
from capicu.core.club import ByeRule, ClubConfig, ClubError, ClubFormat
from capicu.net.host.server import NO_LAN, Announce, HostError

from .host import ClubHost, ClubHostConfig


def parser() -> argparse.ArgumentParser:
    parse = argparse.ArgumentParser(prog="python -m capicu.net.club", description=__doc__.splitlines()[0])
    parse.add_argument("folder", type=Path,
                       help="the night's folder (made if need be; resumed if it holds one)")
    parse.add_argument("--preset", default="puerto-rican-drawing", help="the game every table plays")
    parse.add_argument("--target", type=int, help="each match's target (the preset's by default)")
    parse.add_argument("--format", default="swiss", choices=[f.value for f in ClubFormat])
    parse.add_argument("--rounds", type=int, default=3)
    parse.add_argument("--table-size", type=int, default=2)
    parse.add_argument("--bye", default="computer", choices=[b.value for b in ByeRule])
    parse.add_argument("--name", default="", help="the night's name")
    parse.add_argument("--bind", default=None, help="the address to listen on (every interface by default)")
    parse.add_argument("--port", type=int, default=7254)
    parse.add_argument("--code", default=None, help="the join code people give")
    parse.add_argument("--level", default="normal", help="the computer players' level")
    parse.add_argument("--grace", type=float, default=60.0)
    parse.add_argument("--next-round-delay", type=float, default=20.0, help="a match's pause between rounds")
    parse.add_argument("--round-delay", type=float, default=None,
                       help="seconds from a round's end to the next draw (default: the organiser draws)")
    parse.add_argument("--no-announce", action="store_true",
                       help="do not announce the night on the local network (it is announced by its name, "
                            "else as this machine's club)")
    return parse


async def run(options: argparse.Namespace) -> int:
    rules = Rules.preset_named(options.preset)
    if options.target is not None:
        rules = msgspec.structs.replace(rules, target=options.target)
    try:
        club = ClubConfig(rules=rules, format=ClubFormat(options.format), rounds=options.rounds,
                          table_size=options.table_size, bye=ByeRule(options.bye), name=options.name)
    except ClubError as exc:
        print(f"club: {exc}", file=sys.stderr)
        return 2
    announce = None
    if not (options.no_announce or os.environ.get(NO_LAN)):
        announce = Announce(options.name or f"{socket.gethostname()[:24]}'s club")
    host = ClubHost(ClubHostConfig(
        club, options.folder, bind=options.bind, port=options.port, code=options.code,
        computer_level=options.level, grace=options.grace, next_round_delay=options.next_round_delay,
        round_delay=options.round_delay, announce=announce))
    try:
        address, port = await host.start()
    except HostError as exc:
        print(f"club: {exc}", file=sys.stderr)
        return 1
    night = host.night
    print(f"club: listening on {address} port {port}", flush=True)
    print(f"club: join code {options.code or '-'}", flush=True)
    print(f"club: organiser key {host.organiser_key}", flush=True)
    if host.announced is not None:
        print(f"club: announced on the local network as {host.announced}", flush=True)
    people = len(night.entrants)
    print(f"club: night {night.phase.value} round {night.round} with {people} people", flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(signum, stop.set)
    try:
        await stop.wait()
    finally:
        await host.stop()
    return 0


def main(argv: list[str] | None = None) -> int:
    return asyncio.run(run(parser().parse_args(argv)))


if __name__ == "__main__":
    sys.exit(main())
