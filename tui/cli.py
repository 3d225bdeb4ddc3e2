"""The ``capicu`` command line: one parser, one line and exit code 2 for bad input."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence

from capicu.core import PRESET_NAMES, Rules, RulesError

EXIT_USAGE = 2


class CliError(Exception):
    """A problem with what the user asked for; printed as one line, exit code 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        # argparse prints usage and exits 2; we keep the exit code but say it in one line.
        self.exit(EXIT_USAGE, f"capicu: {message} (see {self.prog} --help)\n")


def positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r} must be 1 or more")
    return value


def whole_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"{text!r} must be 0 or more")
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


def rules_from_args(args: argparse.Namespace) -> tuple[Rules, int]:
    """The rules and player count the rule options ask for; CliError if they cannot be played."""
    rules = Rules.preset_named(args.preset)
    changes: dict[str, object] = {}
    for option, field in (
        ("target", "target"),
        ("max_pip", "max_pip"),
        ("reserve", "reserve"),
        ("capicu_bonus", "capicu_bonus"),
        ("chuchazo_bonus", "chuchazo_bonus"),
        ("voluntary_draw", "voluntary_draw"),
        ("max_draws", "max_draws_per_turn"),
        ("tranque_last_player_leads", "tranque_last_player_leads"),
    ):
        value = getattr(args, option, None)
        if value is not None:
            changes[field] = value
    try:
        if changes:
            rules = rules.replace(**changes)
        players = args.players if args.players is not None else rules.min_players
        rules.check_players(players)
    except RulesError as exc:
        raise CliError(str(exc)) from None
    return rules, players


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="capicu", description="A dominoes table for the terminal.")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    simulate = commands.add_parser(
        "simulate", help="watch computer players play a whole match",
        description="Play a whole match between computer players and print every move.",
    )
    add_rule_arguments(simulate)
    simulate.add_argument("--seed", type=int, default=0, help="the seed of the deals (default: 0)")
    simulate.add_argument("--level", default="greedy", help="the computer players' level (default: greedy)")

    try:
        from capicu.net.options import add_host_command
    except ImportError:  # the LAN layer is not there yet
        pass
    else:
        add_host_command(commands, add_rule_arguments)
    try:
        from capicu.tui.commands import add_display_arguments, add_interface_commands
    except ImportError:  # the interface is not there yet
        pass
    else:
        add_interface_commands(commands, add_rule_arguments)
        add_display_arguments(parser, top_level=True)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        if args.command == "simulate":
            from capicu.tui.simulate import run_simulation

            rules, players = rules_from_args(args)
            return run_simulation(rules, players, seed=args.seed, level=args.level, out=sys.stdout)
        handler = getattr(args, "handler", None)
        if handler is None:
            handler = _default_handler()
            if handler is None:
                parser.print_help()
                return 0
        return int(handler(args) or 0)
    except CliError as exc:
        print(f"capicu: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader went away (``capicu simulate | head``): nothing left to say.
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


def _default_handler() -> Callable[[argparse.Namespace], int] | None:
    """The main menu when the interface is installed."""
    try:
        from capicu.tui.commands import open_main_menu
    except ImportError:
        return None
    handler: Callable[[argparse.Namespace], int] = open_main_menu
    return handler


if __name__ == "__main__":
    sys.exit(main())
