"""The ``capicu`` command line: one parser, one line and exit code 2 for bad input."""

from __future__ import annotations

import argparse
import gc
import gettext
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NoReturn

from capicu.tui.prefs.settings import load_settings
from capicu.tui.words.messages import LANGUAGES, choose_language, command_line_language, t

from .commands import GameLost, add_commands, open_main_menu
from .options import (
    CliError,
    add_display_arguments,
    add_rule_arguments,
    check_level,
    level_option,
    rules_from_args,
)

__all__ = ["CliError", "build_parser", "main"]

EXIT_USAGE = 2


class _Parser(argparse.ArgumentParser):
    def __init__(self, *args: Any,
                 options: Callable[[argparse.ArgumentParser], None] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        #: Adds a command's options when it is the command run or its help is shown (None: they
        #: are in): a command costs the others nothing (``club``'s load the club night's code).
        self._options = options

    def _add_options(self) -> None:
        if self._options is not None:
            options, self._options = self._options, None
            options(self)

    def format_usage(self) -> str:
        self._add_options()
        return super().format_usage()

    def format_help(self) -> str:
        self._add_options()
        return super().format_help()

    def error(self, message: str) -> NoReturn:
        # argparse prints usage and exits 2; we keep the exit code but say it in one line.
        see = t("(see {command} --help)", command=self.prog)
        self.exit(EXIT_USAGE, f"capicu: {message} {see}\n")

    def parse_known_args(  # type: ignore[override]  # typeshed declares it as two overloads
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> tuple[argparse.Namespace, list[str]]:
        self._add_options()
        parsed, extras = super().parse_known_args(args, namespace)
        if extras and self.prog != "capicu":
            # A command's parser says it itself: argparse would hand the words up to the top
            # parser, whose error points at "capicu --help" instead of the command's own help.
            self.error(gettext.gettext("unrecognized arguments: %s") % " ".join(extras))
        return parsed, extras


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="capicu", description=t("A dominoes table for the terminal."))
    commands = parser.add_subparsers(dest="command", metavar=t("COMMAND"), parser_class=_Parser)

    commands.add_parser(
        "simulate", help=t("watch computer players play a whole match"),
        description=t("Play a whole match between computer players and print every move."),
        options=_simulate_options,
    )
    add_commands(commands)
    add_display_arguments(parser, top_level=True)
    return parser


def _simulate_options(simulate: argparse.ArgumentParser) -> None:
    add_rule_arguments(simulate)
    add_display_arguments(simulate)  # accepted after the command as before it (only --lang changes anything)
    simulate.add_argument("--seed", type=int, default=0, metavar=t("N"),
                          help=t("the seed of the deals (default: 0)"))
    simulate.add_argument("--level", **level_option())
    simulate.add_argument("--record", type=Path, metavar=t("FILE"),
                          help=t("also write the match's record to FILE (what capicu replay opens)"))


def language_asked(argv: Sequence[str]) -> str | None:
    """The language the command line asks for (``--lang``), read before the parser is built in it."""
    early = argparse.ArgumentParser(add_help=False)
    early.add_argument("--lang")
    asked, _ = early.parse_known_args(argv)
    return asked.lang if asked.lang in LANGUAGES else None


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line: ``--lang``, else the saved setting, else the locale, words it all."""
    arguments = list(sys.argv[1:] if argv is None else argv)
    settings, _ = load_settings()
    with command_line_language(choose_language(language_asked(arguments), settings.language)):
        return _run(arguments)


def _run(argv: list[str]) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not gc.isenabled():
        # `capicu.tui.cli.run` paused the collector while the command line loaded: what loading
        # made lives as long as the program, so it is frozen (never walked again), and the
        # collector goes back to work for the command.
        gc.freeze()
        gc.enable()
    try:
        if args.command == "simulate":
            from .simulate import run_simulation  # (a game's start does not simulate one)

            rules, players = rules_from_args(args)
            check_level(rules, args.level)
            return run_simulation(rules, players, seed=args.seed, level=args.level, out=sys.stdout,
                                  record=args.record)
        handler: Callable[[argparse.Namespace], int] = getattr(args, "handler", open_main_menu)
        return int(handler(args) or 0)
    except CliError as exc:
        print(f"capicu: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except GameLost as exc:
        print(f"capicu: {exc}", file=sys.stderr)
        return GameLost.exit_code
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader went away (``capicu simulate | head``): nothing left to say.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


if __name__ == "__main__":
    sys.exit(main())
