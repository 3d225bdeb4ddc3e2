"""``capicu club``: a club night's options, checked, and the host that runs the night.

The organiser chooses the game and its options (any preset, with the rule options
core/rules.py declares once, as ``capicu host`` takes them), the format, the number
of rounds, the table size, the bye rule, and where and how the club listens. A bad
value is a `CliError`: one line, exit code 2, and nothing starts.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import TypeVar

from capicu.core import Rules
from capicu.core.rules import MOST_PLAYERS
from capicu.net.host.server import new_join_code
from capicu.net.protocol import CODE_LIMIT, DEFAULT_PORT
from capicu.tui.game import HostClub, JoinGame
from capicu.tui.words.messages import t

from .options import (
    DEFAULT_SSH_PORT,
    CliError,
    add_display_arguments,
    add_rule_arguments,
    add_ssh_arguments,
    number_in,
    parse_address,
    port_number,
    rules_from_args,
    seconds,
)
from .tables import ask_code, look_for

__all__ = [
    "DEFAULT_ROUNDS", "add_club_command", "default_table_size", "host_club_from_args", "join_club_from_args",
]

Parser = TypeVar("Parser", bound=argparse.ArgumentParser)

#: Rounds of a Swiss or rotating-partners night when none are asked for.
DEFAULT_ROUNDS = 3
#: ``--join`` with no address: look for club nights on the local network.
LOOK = ""


def add_club_command(subparsers: argparse._SubParsersAction[Parser],
                     then: Callable[[argparse.ArgumentParser], None]) -> argparse.ArgumentParser:
    """``capicu club`` on the command line (its handler is set by the caller).

    Its options, then ``then``'s, are added when it is the command run or its help is shown:
    they load the club night's code, which every other command does without.
    """
    def options(club: argparse.ArgumentParser) -> None:
        add_club_options(club)
        then(club)

    return subparsers.add_parser(
        "club", help=t("run a club night: a league or tournament over several tables"),
        description=t("Run a club night from this terminal: people join with the address and join code "
                      "it shows, you start each round when they are there, every player is taken to "
                      "their table, and the standings follow every match."),
        options=options,
    )


def add_club_options(club: argparse.ArgumentParser) -> None:
    from capicu.core.club import MOST_ROUNDS, ByeRule, ClubFormat

    add_rule_arguments(club, players=False)
    group = club.add_argument_group(t("club night"))
    group.add_argument("--format", choices=[f.value for f in ClubFormat], default=ClubFormat.SWISS.value,
                       help=t("how tables are drawn each round: swiss (by the standings, no one meets "
                              "the same opponents twice where possible), rotating-partners (a new partner "
                              "every round; partners' games), round-robin (everyone meets everyone once, "
                              "for a small field) (default: %(default)s)"))
    group.add_argument("--club-rounds", type=number_in(int, 1, MOST_ROUNDS), default=None, metavar=t("N"),
                       help=t("rounds of the night (default: {rounds}; round robin: as many as the field "
                              "needs)", rounds=str(DEFAULT_ROUNDS)))
    group.add_argument("--table-size", type=number_in(int, 2, max(MOST_PLAYERS.values())), default=None,
                       metavar=t("N"),
                       help=t("players at each table (default: the game's: 4 for a partners' game, else "
                              "its fewest; Mexican Train: 2 to 8)"))
    group.add_argument("--bye", choices=[b.value for b in ByeRule], default=ByeRule.COMPUTER.value,
                       help=t("when the players do not fill the last table: computer (a computer takes "
                              "the empty seats), win (a bye counts as a match won), nothing (default: "
                              "%(default)s)"))
    group.add_argument("--night-name", default=None, metavar=t("NAME"),
                       help=t("the night's name, on the standings (default: none)"))
    group.add_argument("--bind", metavar=t("ADDRESS"), default=None,
                       help=t("the address to listen on (default: every interface, for a LAN)"))
    group.add_argument("--port", type=port_number, default=DEFAULT_PORT,
                       help=t("the port to listen on (default: %(default)s; 0: any free port)"))
    codes = group.add_mutually_exclusive_group()
    codes.add_argument("--code", default=None, metavar=t("CODE"),
                       help=t("the join code players must give (default: a random one, shown)"))
    codes.add_argument("--no-code", action="store_true",
                       help=t("let anybody who reaches the club join, without a code"))
    group.add_argument("--round-delay", type=_delay, default=60.0, metavar=t("SECONDS"),
                       help=t("seconds the standings stay in view once every table of a round is done, "
                              "before the next round is drawn (default: %(default)g; none: you draw each "
                              "round)"))
    group.add_argument("--name", default=None, metavar=t("NAME"),
                       help=t("your name in the club (Settings keeps the name you usually play under)"))
    group.add_argument("--no-announce", action="store_true",
                       help=t("do not announce the night on the local network (it is announced by its "
                              "name, else as your club): people join by address"))
    group.add_argument("--new", dest="new_night", action="store_true",
                       help=t("start a new night even though the last one run here is unfinished (it is "
                              "set aside; by default the same command goes on with it)"))
    joining = club.add_argument_group(t("joining someone's club night"))
    joining.add_argument("--join", metavar=t("HOST[:PORT]|NIGHT"), nargs="?", const=LOOK, default=None,
                         help=t("join the club night this host runs, or the one of this name on the local "
                                "network (none: look for club nights and choose one), as a player (with "
                                "--code and --name): each round takes you to your table by itself"))
    joining.add_argument("--spectate", action="store_true", help=t("with --join: watch the night"))
    add_ssh_arguments(club)
    add_display_arguments(club)


def host_club_from_args(args: argparse.Namespace) -> HostClub:
    """The night ``capicu club``'s options describe, checked; CliError names the one thing wrong.

    The rules are checked by `rules_from_args` (the same words as ``capicu host``); the
    night's own settings by core's `ClubConfig` (`ClubError`, worded for the command line).
    """
    from capicu.core.club import MOST_ROUNDS, ByeRule, ClubConfig, ClubError, ClubFormat
    from capicu.tui.words.describe_club import describe_club_problem

    base = Rules.preset_named(args.preset)
    table_size = args.table_size if args.table_size is not None else default_table_size(base)
    if not base.min_players <= table_size <= base.max_players:
        raise CliError(t("--table-size {size}: {preset} is played by {low} to {high} at a table",
                         size=str(table_size), preset=args.preset, low=str(base.min_players),
                         high=str(base.max_players)))
    args.players = table_size
    rules, _ = rules_from_args(args)
    rounds: int | None = args.club_rounds
    if rounds is None:
        # A round robin plays as many rounds as its field needs (core stops it there).
        rounds = MOST_ROUNDS if args.format == ClubFormat.ROUND_ROBIN else DEFAULT_ROUNDS
    name = " ".join((args.night_name or "").split())
    if args.night_name is not None and not name:
        raise CliError(t("--night-name cannot be empty"))
    try:
        club = ClubConfig(rules=rules, format=ClubFormat(args.format), rounds=rounds, table_size=table_size,
                          bye=ByeRule(args.bye), name=name)
    except ClubError as exc:
        raise CliError(describe_club_problem(exc.code, exc.params, command_line=True)) from None
    code: str | None = None
    if not args.no_code:
        code = args.code.strip() if args.code is not None else new_join_code()
        if not code or len(code) > CODE_LIMIT or not code.isalnum():
            raise CliError(t("--code must be 1 to 32 letters or digits"))
    if args.ssh is not None and args.ssh == args.port and args.port != 0:
        raise CliError(t("--ssh {port} is the game's own port: give SSH another one (such as {default})",
                         port=str(args.ssh), default=str(DEFAULT_SSH_PORT)))
    if args.ssh is None and args.ssh_keys is not None:
        raise CliError(t("--ssh-keys goes with --ssh"))
    return HostClub(club=club, bind=args.bind, port=args.port, code=code, round_delay=args.round_delay,
                    name=player_name(args), new=args.new_night, announce=not args.no_announce,
                    ssh_port=args.ssh or None)


def join_club_from_args(args: argparse.Namespace) -> JoinGame:
    """``capicu club --join [HOST[:PORT]|NIGHT]``: a player's (or a watcher's) way into someone's club
    night: at that address, or the night of that name on the local network, or (no address) the one
    chosen of those heard there."""
    code: str | None = args.code
    chosen = look_for(args.join if args.join != LOOK else None, args.spectate, clubs_only=True)
    if chosen is not None:
        host, port = chosen.found.address, chosen.found.port
        if chosen.found.ad.code_needed and code is None:
            code = ask_code(chosen)
    else:
        host, port = parse_address(args.join)
    return JoinGame(host=host, port=port, name=player_name(args), code=code, spectate=args.spectate,
                    club=True)


def player_name(args: argparse.Namespace) -> str | None:
    """``--name``, stripped; CliError when it is empty."""
    name: str | None = args.name
    if name is not None and not name.strip():
        raise CliError(t("a name cannot be empty"))
    return name.strip() if name else None


def _delay(text: str) -> float | None:
    """An argparse type: seconds, or ``none``."""
    if text.strip().lower() == "none":
        return None
    return seconds(text)


def default_table_size(rules: Rules) -> int:
    """A table's size when none is asked for: 4 for a partners' game, else the game's fewest."""
    if rules.partnerships and rules.max_players >= 4:
        return 4
    return rules.min_players
