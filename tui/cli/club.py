"""``capicu club``: a club night's options, checked, and the host that runs the night.

The organiser chooses the game and its options (any preset, with the rule options
core/rules.py declares once, as ``capicu host`` takes them), the format, the number
of rounds, the table size, the bye rule, and where and how the club listens. A bad
value is a `CliError`: one line, exit code 2, and nothing starts.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from typing import TypeVar

from capicu.core import Rules
from capicu.core.rules import MOST_PLAYERS
from capicu.net.host.server import new_join_code
from capicu.net.protocol import DEFAULT_PORT
from capicu.tui.words.messages import N_, t

from .options import (
    CliError,
    add_display_arguments,
    add_rule_arguments,
    add_ssh_arguments,
    number_in,
    port_number,
    rules_from_args,
)

__all__ = ["BYE_RULES", "CLUB_FORMATS", "ClubOptions", "add_club_command", "club_options_from_args"]

Parser = TypeVar("Parser", bound=argparse.ArgumentParser)

#: The formats a night is played in, as typed (core/club/format.py's `ClubFormat` values).
CLUB_FORMATS = ("swiss", "rotating-partners", "round-robin")
#: What a bye is worth, as typed (core/club/format.py's `ByeRule` values).
BYE_RULES = ("computer", "win", "nothing")
#: Most rounds a night may have (a long evening of short matches).
MOST_ROUNDS = 20
#: Rounds of a Swiss or rotating-partners night when none are asked for.
DEFAULT_ROUNDS = 3
#: The night's name is as long as a table's name (what the players' lists show).
NIGHT_NAME_LIMIT = 32


@dataclass(frozen=True, slots=True)
class ClubOptions:
    """What ``capicu club``'s options ask for, checked; the club's own types are made from it."""

    preset: str
    format: str
    #: Rounds of the night (None: round robin's, as many as the field needs).
    rounds: int | None
    table_size: int
    bye: str
    name: str
    bind: str | None
    port: int
    code: str | None
    seed: int | None


def add_club_command(subparsers: argparse._SubParsersAction[Parser]) -> argparse.ArgumentParser:
    """``capicu club`` on the command line (its handler is set by the caller)."""
    club = subparsers.add_parser(
        "club", help=t("run a club night: a league or tournament over several tables"),
        description=t("Run a club night from this terminal: people join with the address and join code "
                      "it shows, you start each round when they are there, every player is taken to "
                      "their table, and the standings follow every match."),
    )
    add_rule_arguments(club, players=False)
    group = club.add_argument_group(t("club night"))
    group.add_argument("--format", choices=CLUB_FORMATS, default="swiss",
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
    group.add_argument("--bye", choices=BYE_RULES, default="computer",
                       help=t("when the players do not fill the last table: computer (a computer takes "
                              "the empty seats), win (a bye counts as a match won), nothing (default: "
                              "%(default)s)"))
    group.add_argument("--night-name", default=None, metavar=t("NAME"),
                       help=t("the night's name, on the standings (default: the game and the date)"))
    group.add_argument("--bind", metavar=t("ADDRESS"), default=None,
                       help=t("the address to listen on (default: every interface, for a LAN)"))
    group.add_argument("--port", type=port_number, default=DEFAULT_PORT,
                       help=t("the port to listen on (default: %(default)s; 0: any free port)"))
    codes = group.add_mutually_exclusive_group()
    codes.add_argument("--code", default=None, metavar=t("CODE"),
                       help=t("the join code players must give (default: a random one, shown)"))
    codes.add_argument("--no-code", action="store_true",
                       help=t("let anybody who reaches the club join, without a code"))
    group.add_argument("--seed", type=int, default=None, metavar=t("N"),
                       help=t("the seed of the draws and the deals (default: random)"))
    add_ssh_arguments(club)
    add_display_arguments(club)
    return club


#: The code's letters: a join code is letters and digits (net/codes.py shows them upper case).
_CODE_LIMIT = 32


def club_options_from_args(args: argparse.Namespace) -> ClubOptions:
    """The night ``capicu club``'s options describe, checked; CliError names the one thing wrong.

    The rules are checked by `rules_from_args` (the same words as ``capicu host``); what
    is the club's own (the format against the game, the table size) is checked here, in
    the options' own terms, before the club's types check it again.
    """
    preset: str = args.preset
    base = Rules.preset_named(preset)
    table_size = args.table_size if args.table_size is not None else _default_table_size(base)
    if not base.min_players <= table_size <= base.max_players:
        raise CliError(t("--table-size {size}: {preset} is played by {low} to {high} at a table",
                         size=str(table_size), preset=preset, low=str(base.min_players),
                         high=str(base.max_players)))
    args.players = table_size
    rules, _ = rules_from_args(args)
    partners = rules.sides(table_size) != table_size
    if args.format == "rotating-partners" and not partners:
        raise CliError(t("--format rotating-partners needs a partners' game at tables of 4 (such as "
                         "--preset puerto-rican-partners): {preset} at tables of {size} has no partners",
                         preset=preset, size=str(table_size)))
    rounds: int | None = args.club_rounds
    if args.format != "round-robin" and rounds is None:
        rounds = DEFAULT_ROUNDS
    name = " ".join((args.night_name or "").split())
    if args.night_name is not None and not name:
        raise CliError(t("--night-name cannot be empty"))
    if len(name) > NIGHT_NAME_LIMIT:
        raise CliError(t("--night-name is at most {limit} letters", limit=str(NIGHT_NAME_LIMIT)))
    code: str | None = None
    if not args.no_code:
        code = args.code.strip() if args.code is not None else new_join_code()
        if not code or len(code) > _CODE_LIMIT or not code.isalnum():
            raise CliError(t(N_("--code must be 1 to 32 letters or digits")))
    if args.ssh is not None and args.ssh == args.port and args.port != 0:
        raise CliError(t("--ssh {port} is the game's own port: give SSH another one (such as {default})",
                         port=str(args.ssh), default="2222"))
    if args.ssh is None and args.ssh_keys is not None:
        raise CliError(t("--ssh-keys goes with --ssh"))
    return ClubOptions(preset=preset, format=args.format, rounds=rounds, table_size=table_size,
                       bye=args.bye, name=name, bind=args.bind, port=args.port, code=code, seed=args.seed)


def _default_table_size(rules: Rules) -> int:
    """A table's size when none is asked for: 4 for a partners' game, else the game's fewest."""
    if rules.partnerships and rules.max_players >= 4:
        return 4
    return rules.min_players
