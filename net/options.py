"""The ``capicu host`` command: its options, and running a dedicated (headless) host.

`add_host_command` is called by the command line in tui/ with its shared
rule options; everything else about hosting lives here, so that net/ needs
nothing from tui/ (except, at run time, the interface for host-and-play).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import signal
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from capicu.core import PRESET_NAMES, Rules, RulesError
from capicu.core.record import replace

from .host import Host, HostConfig, HostError, Limits, new_join_code
from .protocol import DEFAULT_PORT

EXIT_USAGE = 2

#: Rule options of the command line (their argparse ``dest``) and the `Rules` field each sets.
_RULE_OPTIONS = (
    ("target", "target"),
    ("max_pip", "max_pip"),
    ("reserve", "reserve"),
    ("capicu_bonus", "capicu_bonus"),
    ("chuchazo_bonus", "chuchazo_bonus"),
    ("voluntary_draw", "voluntary_draw"),
    ("max_draws", "max_draws_per_turn"),
    ("tranque_last_player_leads", "tranque_last_player_leads"),
)


class OptionsError(Exception):
    """Options that cannot be used together or at all; printed as one line, exit code 2.

    The command line in tui/ raises it (as ``CliError``) for every bad argument.
    """


def number_in(
    convert: Callable[[str], float], low: float, high: float | None = None, *, what: str = "a whole number"
) -> Callable[[str], Any]:
    """An argparse type: ``convert`` the text and check it lies in [low, high] (no top: high None)."""

    def parse(text: str) -> Any:
        try:
            value = convert(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not {what}") from None
        if high is None and value < low:
            raise argparse.ArgumentTypeError(f"{text!r} must be {low:g} or more")
        if high is not None and not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{text!r} must be from {low:g} to {high:g}")
        return value

    return parse


positive_int = number_in(int, 1)
whole_int = number_in(int, 0)
_port = number_in(int, 0, 65535, what="a port number")
_seconds = number_in(float, 0, 86400, what="a number of seconds")
_rate = number_in(float, 1, 1_000_000, what="a number")
_count = number_in(int, 0, 4)


def _delay(text: str) -> float | None:
    """An argparse type: seconds before the next round, or ``none`` for no countdown."""
    if text.strip().lower() == "none":
        return None
    value: float = _seconds(text)
    return value


def add_rule_arguments(parser: argparse.ArgumentParser) -> None:
    """The options that choose and change the rules (shared by simulate, play and host)."""
    group = parser.add_argument_group("rules")
    group.add_argument("--preset", choices=PRESET_NAMES, default="puerto-rican-drawing",
                       help="the game to play (default: %(default)s)")
    group.add_argument("--players", type=positive_int, default=None,
                       help="how many players (default: the preset's fewest)")
    group.add_argument("--target", type=positive_int, default=None,
                       help="points that win the match (default: the preset's)")
    group.add_argument("--set", dest="max_pip", type=int, choices=(6, 9, 12), default=None,
                       help="the set: double-6, double-9 or double-12")
    group.add_argument("--reserve", type=whole_int, default=None,
                       help="boneyard tiles that can never be drawn")
    group.add_argument("--capicu-bonus", type=whole_int, default=None, help="bonus for a capicú (0: off)")
    group.add_argument("--chuchazo-bonus", type=whole_int, default=None, help="bonus for a chuchazo (0: off)")
    group.add_argument("--voluntary-draw", action=argparse.BooleanOptionalAction, default=None,
                       help="allow drawing while holding a tile that fits")
    group.add_argument("--max-draws", type=positive_int, default=None,
                       help="most tiles drawn in one turn before passing")
    group.add_argument("--tranque-last-player-leads", action=argparse.BooleanOptionalAction,
                       default=None, help="after a tranque, the player who laid the last tile leads")


def add_host_command(
    subparsers: Any, add_rule_arguments: Callable[[argparse.ArgumentParser], None]
) -> argparse.ArgumentParser:
    """Add ``host`` to the command line's subcommands; its handler is `run_host_command`."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "host",
        help="host a table on the local network",
        description="Host a table that players on the local network join with the address, "
        "port and join code it prints.",
    )
    add_rule_arguments(parser)
    net = parser.add_argument_group("hosting")
    net.add_argument("--headless", action="store_true",
                     help="run only the host, without playing in this terminal")
    net.add_argument("--bind", metavar="ADDRESS", default=None,
                     help="the address to listen on (default: every interface, for a LAN)")
    net.add_argument("--port", type=_port, default=DEFAULT_PORT,
                     help="the port to listen on (default: %(default)s; 0: any free port)")
    net.add_argument("--computers", type=_count, default=0, metavar="N",
                     help="seats played by the computer (default: 0)")
    net.add_argument("--level", default="greedy",
                     help="the computer players' level (default: %(default)s)")
    net.add_argument("--computer-processes", type=_count, default=None, metavar="N",
                     help="worker processes the computer players think in, so a slow level never "
                     "delays another table (default: 2 for the hard level, else 0: threads)")
    codes = net.add_mutually_exclusive_group()
    codes.add_argument("--code", default=None,
                       help="the join code players must give (default: a random one, printed)")
    codes.add_argument("--no-code", action="store_true",
                       help="let anybody who reaches the host join, without a code")
    net.add_argument("--turn-timer", type=_seconds, default=None, metavar="SECONDS",
                     help="seconds per turn before the computer plays for the player (default: none)")
    net.add_argument("--grace", type=_seconds, default=60.0, metavar="SECONDS",
                     help="seconds a dropped player's seat waits before a computer covers it "
                     "(default: %(default)s)")
    net.add_argument("--next-round-delay", type=_delay, default=20.0, metavar="SECONDS",
                     help="seconds the finished round stays in view before the next deal, unless "
                     "every player is ready sooner (default: %(default)s; 0: deal at once; "
                     "none: wait for the players)")
    net.add_argument("--rejoin-by-name", action="store_true",
                     help="let the join code and the name of a player who is away take their seat "
                     "back (a headless host otherwise needs the seat's token or key)")
    net.add_argument("--journal", type=Path, default=None, metavar="PATH",
                     help="write the match journal here, to resume after a crash")
    net.add_argument("--resume", type=Path, default=None, metavar="PATH",
                     help="resume the match recorded in this journal (and keep writing to it)")
    net.add_argument("--rate", type=_rate, default=None, metavar="MESSAGES",
                     help="messages a second one connection may send, on average "
                     f"(default: {Limits().messages_per_second:g})")
    net.add_argument("--seed", type=int, default=None, help="the seed of the deals (default: random)")
    net.add_argument("--name", default=None,
                     help="your name at the table when you host and play (headless: ignored)")
    parser.set_defaults(handler=run_host_command)
    return parser


def rules_from_args(args: argparse.Namespace) -> tuple[Rules, int]:
    """The rules and player count the shared rule options ask for; OptionsError if unplayable."""
    try:
        rules = Rules.preset_named(getattr(args, "preset", None) or PRESET_NAMES[0])
        changes = {
            name: getattr(args, option)
            for option, name in _RULE_OPTIONS
            if getattr(args, option, None) is not None
        }
        if changes:
            rules = rules.replace(**changes)
        players = getattr(args, "players", None) or rules.min_players
        rules.check_players(players)
    except RulesError as exc:
        raise OptionsError(str(exc)) from None
    return rules, players


def host_config_from_args(args: argparse.Namespace) -> HostConfig:
    """The `HostConfig` the options describe; OptionsError names what is wrong."""
    rules, players = rules_from_args(args)
    if args.computers > players:
        raise OptionsError(f"--computers {args.computers} is more than the {players} seats")
    if args.turn_timer is not None and args.turn_timer <= 0:
        raise OptionsError("--turn-timer must be more than 0 seconds")
    if args.resume is not None and args.journal is not None and args.journal != args.resume:
        raise OptionsError("--resume goes on writing the journal it reads: leave out --journal")
    if args.resume is not None and not args.resume.is_file():
        raise OptionsError(f"--resume {args.resume}: there is no such file")
    if getattr(args, "rejoin_by_name", False) and args.no_code:
        raise OptionsError("--rejoin-by-name needs a join code: leave out --no-code")
    code = None if args.no_code else (args.code if args.code is not None else new_join_code())
    processes = getattr(args, "computer_processes", None)
    if processes is None:
        processes = 2 if args.level == "hard" and args.computers else 0
    limits = Limits()
    if args.rate is not None:
        limits = replace(limits, messages_per_second=args.rate, message_burst=2 * args.rate)
    try:
        return HostConfig(
            rules=rules, players=players, computers=args.computers, computer_level=args.level,
            seed=args.seed, bind=args.bind, port=args.port, code=code,
            turn_timer=args.turn_timer, grace=args.grace, journal=args.journal,
            resume=args.resume, limits=limits, computer_processes=processes,
            next_round_delay=getattr(args, "next_round_delay", 20.0),
            rejoin_by_name=getattr(args, "rejoin_by_name", False),
        )
    except (ValueError, RulesError) as exc:
        raise OptionsError(str(exc)) from None


def run_host_command(args: argparse.Namespace) -> int:
    """``capicu host``: a dedicated host with ``--headless``, else host-and-play in the interface."""
    try:
        config = host_config_from_args(args)
    except OptionsError as exc:
        print(f"capicu: {exc}", file=sys.stderr)
        return EXIT_USAGE
    if args.headless:
        return asyncio.run(serve_headless(config))
    try:
        from capicu.tui.commands import host_and_play
    except ImportError:
        print("capicu: the terminal interface is not installed; use --headless to run only the host",
              file=sys.stderr)
        return EXIT_USAGE
    return int(host_and_play(args, config) or 0)


async def serve_headless(config: HostConfig, out: Any = None) -> int:
    """Run a host until Ctrl-C or SIGTERM, after printing how to join."""
    out = out or sys.stdout
    host = Host(config)
    try:
        address, port = await host.start()
    except HostError as exc:
        print(f"capicu: {exc}", file=sys.stderr)
        return EXIT_USAGE
    print(f"capicu host: listening on {address} port {port}", file=out)
    print(f"capicu host: join code {config.code}" if config.code else "capicu host: no join code",
          file=out)
    print(f"capicu host: to join, give {host.join_line()}", file=out)
    print(f"capicu host: or type: {host.join_command()}", file=out, flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(sig, stop.set)
    try:
        await stop.wait()
    finally:
        await host.stop()
    print("capicu host: stopped", file=out, flush=True)
    return 0
