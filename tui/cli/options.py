"""The command line's options: their argparse types and groups, and what they ask for.

`rules_from_args` turns the rule options into `Rules`, `host_config_from_args`
turns ``capicu host``'s options into the net `HostConfig`, and `parse_address`
reads ``HOST[:PORT]``. Nothing here imports Textual (``--colors`` must be applied
before it loads). A bad value is a `CliError`: one line, exit code 2.
"""

from __future__ import annotations

import argparse
import os
import re
import socket
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import msgspec
from capicu.core import LEVELS, Rules, RulesError
from capicu.core.games import game_of
from capicu.core.rules import ALL_PRESET_NAMES, RULE_OPTIONS, SETS, Game, OptionKind, RuleOption
from capicu.net.host.sanitize import clean_text
from capicu.net.host.server import NO_LAN, Announce, HostConfig, Limits, new_join_code
from capicu.net.host.table import MAX_SPECTATORS, ConfigError, ConfigProblem, TableConfig
from capicu.net.limits import NAME_LIMIT, TABLE_NAME_LIMIT
from capicu.net.protocol import DEFAULT_PORT, MOST_SEATS
from capicu.net.store.journal import Keep, worth_keeping
from capicu.net.store.journals import JournalFolder, JournalKind
from capicu.tui.prefs.settings import COLOR_MODES, journals_dir, load_settings, records_dir
from capicu.tui.widgets.tiles import TileStyle
from capicu.tui.words.describe import describe_rules_problem, list_separator
from capicu.tui.words.describe_rules import METAVARS, OFF_HELP, OPTION_GROUPS, OPTION_HELP
from capicu.tui.words.messages import LANGUAGES, N_, t

Number = TypeVar("Number", int, float)

#: ``--resume`` without a file: the latest unfinished match in the folder of journals.
LATEST = Path("\0latest")

class CliError(Exception):
    """What the user asked for cannot be done: printed as one line, exit code 2."""


def number_in(
    convert: Callable[[str], Number], low: float, high: float | None = None, *,
    what: str = N_("a whole number"),
) -> Callable[[str], Number]:
    """An argparse type: ``convert`` the text and check it lies in [low, high] (no top: high None).

    ``what`` is a message (marked with `N_`), worded when a value is refused.
    """

    def parse(text: str) -> Number:
        typed = repr(text)
        try:
            value = convert(text)
        except ValueError:
            # TRANSLATORS: {value} is what was typed, in quotes; {what} says what it should be.
            raise argparse.ArgumentTypeError(t("{value} is not {what}", value=typed, what=t(what))) from None
        # The bounds as typed on a command line ("65535", not "65,535").
        bottom, top = format(low, "g"), format(high if high is not None else low, "g")
        if high is None and value < low:
            raise argparse.ArgumentTypeError(t("{value} must be {low} or more", value=typed, low=bottom))
        if high is not None and not low <= value <= high:
            raise argparse.ArgumentTypeError(t("{value} must be from {low} to {high}", value=typed,
                                               low=bottom, high=top))
        return value

    return parse


positive_int = number_in(int, 1)
whole_int = number_in(int, 0)
port_number = number_in(int, 0, 65535, what=N_("a port number"))
seconds = number_in(float, 0, 86400, what=N_("a number of seconds"))
_rate = number_in(float, 1, 1_000_000, what=N_("a number"))
_count = number_in(int, 0, MOST_SEATS)


def _delay(text: str) -> float | None:
    """An argparse type: seconds before the next round, or ``none`` for no countdown."""
    if text.strip().lower() == "none":
        return None
    return seconds(text)


def add_rule_arguments(parser: argparse.ArgumentParser, *, players: bool = True) -> None:
    """The options that choose and change the rules (shared by simulate, play, host, rules and club).

    ``players``: offer ``--players`` (a club night has many players; its tables' size is its own option).
    """
    groups = {"rules": parser.add_argument_group(t(OPTION_GROUPS["rules"]))}
    groups["rules"].add_argument("--preset", choices=ALL_PRESET_NAMES, default=ALL_PRESET_NAMES[0],
                                 help=t("the game to play (default: %(default)s)"))
    if players:
        groups["rules"].add_argument("--players", type=positive_int, default=None, metavar=t("N"),
                                     help=t("how many players (default: the preset's fewest)"))
    for option in RULE_OPTIONS:
        group_name = _group_of(option)
        if group_name not in groups:
            groups[group_name] = parser.add_argument_group(t(OPTION_GROUPS[group_name]))
        _add_rule_option(groups[group_name], option)


def _group_of(option: RuleOption) -> str:
    """The help's group of a rule option: the house rules, one game's own (by its name), or every game's."""
    if option.house:
        return "house"
    if Game.LINE_OF_PLAY not in option.games and len(option.games) == 1:
        return next(iter(option.games)).value
    return "rules"


def _add_rule_option(group: argparse._ArgumentGroup, option: RuleOption) -> None:
    """The argparse option a rule option declares (core/rules.py `RULE_OPTIONS`), worded by the interface."""
    words: dict[str, Any] = {"help": t(OPTION_HELP[option.name]), "default": None}
    if option.metavar:
        words["metavar"] = t(METAVARS[option.metavar])
    kind = option.kind
    if kind is OptionKind.PAIR:
        both = group.add_mutually_exclusive_group()
        both.add_argument(option.flag, dest=option.name, action="store_const", const=True, **words)
        both.add_argument(option.off_flag, dest=option.name, action="store_const", const=False,
                          help=t(OFF_HELP[option.name]))
    elif kind is OptionKind.SWITCH:
        group.add_argument(option.flag, dest=option.name, action=argparse.BooleanOptionalAction, **words)
    elif kind is OptionKind.CHOICE:
        values = [value for _, value in option.choices]
        if all(isinstance(value, int) and str(value) == text for text, value in option.choices):
            group.add_argument(option.flag, dest=option.name, type=int, choices=tuple(values), **words)
        else:
            texts = tuple(text for text, _ in option.choices)
            group.add_argument(option.flag, dest=option.name, choices=texts, **words)
    else:
        # The declared most bounds it here too: refused as typed, before any rules are made.
        number = number_in(int, 1 if kind is OptionKind.POSITIVE else 0, option.most)
        group.add_argument(option.flag, dest=option.name, type=number, **words)


def add_display_arguments(parser: argparse.ArgumentParser, *, top_level: bool = False) -> None:
    """The options that change how the table looks and reads input.

    They are accepted both before and after the command (``capicu --ascii play``
    and ``capicu play --ascii``): the sub-command's copy uses SUPPRESS so it
    only overrides what was actually typed.
    """
    default: object = None if top_level else argparse.SUPPRESS
    group = parser.add_argument_group(t("display"))
    group.add_argument("--mouse", action=argparse.BooleanOptionalAction, default=default,
                       help=t("use the mouse (default: on, off inside SSH)"))
    group.add_argument("--colors", choices=COLOR_MODES, default=default,
                       help=t("the terminal's colours (default: auto)"))
    group.add_argument("--ascii", action="store_true", default=False if top_level else argparse.SUPPRESS,
                       help=t("draw tiles and borders with ASCII only"))
    group.add_argument("--tile-style", choices=[style.value for style in TileStyle], default=default,
                       help=t("how tiles are drawn (default: remembered, else auto: pips on large screens)"))
    group.add_argument("--theme", default=default, metavar=t("THEME"), help=t("the theme to start with"))
    group.add_argument("--lang", choices=tuple(LANGUAGES), default=default,
                       help=t("the language of the interface (default: remembered, else the locale's)"))


def level_option() -> dict[str, Any]:
    """``--level``'s argparse settings (play, host and simulate): one of core's `LEVELS`, so that a
    bad level is refused by argparse, in the interface's language."""
    return {"choices": LEVELS, "default": "normal",
            "help": t("the computer players' level (default: %(default)s)")}


def add_host_arguments(parser: argparse.ArgumentParser) -> None:
    """``capicu host``'s own options (the rules and the display are added beside them)."""
    group = parser.add_argument_group(t("hosting"))
    group.add_argument("--headless", action="store_true",
                       help=t("run only the host, without playing in this terminal"))
    group.add_argument("--bind", metavar=t("ADDRESS"), default=None,
                       help=t("the address to listen on (default: every interface, for a LAN)"))
    group.add_argument("--port", type=port_number, default=DEFAULT_PORT,
                       help=t("the port to listen on (default: %(default)s; 0: any free port)"))
    group.add_argument("--computers", type=_count, default=0, metavar=t("N"),
                       help=t("seats played by the computer (default: 0)"))
    group.add_argument("--level", **level_option())
    group.add_argument("--computer-processes", type=_count, default=None, metavar=t("N"),
                       help=t("worker processes the computer players think in, so a slow level never "
                       "delays another table (default: 2 for the hard level, else 0: threads)"))
    codes = group.add_mutually_exclusive_group()
    codes.add_argument("--code", default=None, metavar=t("CODE"),
                       help=t("the join code players must give (default: a random one, printed)"))
    codes.add_argument("--no-code", action="store_true",
                       help=t("let anybody who reaches the host join, without a code"))
    group.add_argument("--turn-timer", type=seconds, default=None, metavar=t("SECONDS"),
                       help=t("seconds per turn before the computer plays for the player (default: none)"))
    group.add_argument("--grace", type=seconds, default=60.0, metavar=t("SECONDS"),
                       help=t("seconds a dropped player's seat waits before a computer covers it "
                       "(default: %(default)s)"))
    group.add_argument("--next-round-delay", type=_delay, default=20.0, metavar=t("SECONDS"),
                       help=t("seconds the finished round stays in view before the next deal, unless "
                       "every player is ready sooner (default: %(default)s; 0: deal at once; "
                       "none: wait for the players)"))
    group.add_argument("--rejoin-by-name", action="store_true",
                       help=t("let the join code and the name of a player who is away take their seat "
                       "back (a headless host otherwise needs the seat's token or key)"))
    journals = group.add_mutually_exclusive_group()
    journals.add_argument("--journal", type=Path, default=None, metavar=t("PATH"),
                          help=t("write the match journal here instead of in the user data folder"))
    journals.add_argument("--no-journal", action="store_true",
                          help=t("keep no journal: a crash of this host loses the match"))
    group.add_argument("--resume", type=Path, nargs="?", const=LATEST, default=None, metavar=t("PATH"),
                       help=t("resume the latest unfinished match (or the one in this journal) and keep "
                              "writing to its journal"))
    group.add_argument("--new", "--new-journal", dest="new_match", action="store_true",
                       help=t("start a new match even though an unfinished one is kept (it is set aside "
                              "with the finished ones; with --journal: the file is replaced)"))
    group.add_argument("--rate", type=_rate, default=None, metavar=t("MESSAGES"),
                       help=t("messages a second one connection may send, on average (default: {rate})",
                              rate=Limits().messages_per_second))
    group.add_argument("--seed", type=int, default=None, metavar=t("N"),
                       help=t("the seed of the deals (default: random)"))
    group.add_argument("--max-spectators", type=whole_int, default=MAX_SPECTATORS, metavar=t("N"),
                       help=t("people who may watch the table at once (default: %(default)s)"))
    group.add_argument("--name", default=None, metavar=t("NAME"),
                       help=t("your name at the table when you host and play, in this game (Settings keeps "
                              "the name you usually play under; headless: ignored)"))
    group.add_argument("--table-name", default=None, metavar=t("NAME"),
                       help=t("the table's name, as players on the local network see it in their list "
                              "(default: your name's table, or this machine's)"))
    group.add_argument("--no-announce", action="store_true",
                       help=t("do not announce the table on the local network: players join by address"))


#: The SSH gateway's port when ``--ssh`` names none.
DEFAULT_SSH_PORT = 2222


def add_ssh_arguments(parser: argparse.ArgumentParser) -> None:
    """``capicu host``'s SSH gateway: players come in with ``ssh``, nothing to install."""
    group = parser.add_argument_group(t("SSH (needs pip install 'capicu[ssh]')"))
    group.add_argument("--ssh", type=port_number, nargs="?", const=DEFAULT_SSH_PORT, default=None,
                       metavar=t("PORT"),
                       help=t("also let players in with any SSH client: ssh -p PORT NAME@HOST, the join "
                              "code as the password (port {port} if none given)", port=str(DEFAULT_SSH_PORT)))
    group.add_argument("--ssh-keys", type=Path, default=None, metavar=t("PATH"),
                       help=t("an authorized-keys file: these keys come in by SSH without the join code, "
                              "and come back to their seat at once"))
    group.add_argument("--ssh-max-sessions", type=positive_int, default=40, metavar=t("N"),
                       help=t("SSH players at once (default: %(default)s)"))
    group.add_argument("--ssh-per-address", type=positive_int, default=4, metavar=t("N"),
                       help=t("SSH players at once from one address (default: %(default)s)"))
    group.add_argument("--ssh-idle", type=number_in(float, 1, 1440, what=N_("a number of minutes")),
                       default=30.0, metavar=t("MINUTES"),
                       help=t("close an SSH session after this long without a key pressed "
                              "(default: %(default)g)"))


def rules_from_args(args: argparse.Namespace) -> tuple[Rules, int]:
    """The rules and player count the rule options ask for; CliError if unplayable."""
    try:
        rules = Rules.preset_named(args.preset)
        given = [option for option in RULE_OPTIONS if getattr(args, option.name, None) is not None]
        for option in sorted(given, key=lambda option: option.name):
            if rules.game in option.games:
                continue
            # TRANSLATORS: {option} is a command-line option as typed ("--rounds"); {preset} a game's name.
            raise CliError(t("{option} is not an option of {preset}", option=option.flag, preset=args.preset))
        if args.max_pip is not None and args.max_pip not in SETS[rules.game]:
            sets = list_separator().join(f"double-{n}" for n in SETS[rules.game])
            raise CliError(t("{preset} is played with one of these sets: {sets}", preset=args.preset,
                             sets=sets))
        changes = {option.field: option.value_of(getattr(args, option.name)) for option in given}
        if changes:
            rules = msgspec.structs.replace(rules, **changes)
        players = args.players or rules.min_players
        rules.check_players(players)
        if getattr(args, "partnerships", None) and rules.sides(players) == players:
            # Asked for by name with 2 or 3 players: said, not quietly played each for themselves.
            raise CliError(t("--partnerships needs 4 players, not {players}", players=players))
    except RulesError as exc:
        raise CliError(describe_rules_problem(exc.code, exc.params)) from None
    return rules, players


#: What ``capicu host`` says when a `ConfigError` refuses its options, in terms of the options.
_CONFIG_PROBLEMS = {
    ConfigProblem.COMPUTERS: N_("--computers {computers} is more than the {players} seats"),
    ConfigProblem.LEVEL: N_("there is no computer level {level}: the levels are {levels}"),
    ConfigProblem.TURN_TIMER: N_("--turn-timer must be more than 0 seconds"),
    ConfigProblem.NEGATIVE_SECONDS: N_("{option} must be 0 seconds or more"),
    ConfigProblem.TABLE_NAME: N_("a table's name is 1 to 32 characters"),
    ConfigProblem.SPECTATORS: N_("--max-spectators must be 0 or more"),
    ConfigProblem.PORT: N_("--port must be a number from 0 to 65535"),
    ConfigProblem.JOIN_CODE: N_("--code must be 1 to 32 letters or digits"),
    ConfigProblem.REJOIN_NEEDS_CODE: N_("--rejoin-by-name needs a join code: leave out --no-code"),
    ConfigProblem.RESUME_ELSEWHERE: N_("--resume goes on writing the journal it reads: leave out --journal"),
    ConfigProblem.WORKERS: N_("the computer players need at least one thread"),
}
#: The option of each `TableConfig` field of seconds the command line sets (a problem names the field).
_SECONDS_OPTIONS = {"grace": "--grace", "next_round_delay": "--next-round-delay"}


def describe_config_problem(error: ConfigError) -> str:
    """A `ConfigError` worded for the command line, naming the option to change."""
    params = {name: "" if value is None else value for name, value in error.params.items()}
    option = _SECONDS_OPTIONS.get(str(params.get("field", "")), str(params.get("field", "")))
    return t(_CONFIG_PROBLEMS[error.code], **params, option=option, levels=", ".join(LEVELS))


def check_level(rules: Rules, level: str) -> None:
    """CliError when the rules' game has no computer player of ``level`` (each game has its own)."""
    levels = game_of(rules).levels
    if level not in levels:
        raise CliError(t("there is no computer level {level} for {preset} yet: the levels are {levels}",
                         level=level, preset=rules.preset, levels=", ".join(levels)))


def check_table(rules: Rules) -> None:
    """CliError when the rules' game has no table screen to play it at (a game may come to core first)."""
    from capicu.tui.games import FACES

    if game_of(rules).name not in FACES:
        raise CliError(t("{preset} has no table screen yet: watch it with capicu simulate --preset {preset}, "
                         "or host it with --headless", preset=rules.preset))


def host_config_from_args(args: argparse.Namespace) -> HostConfig:
    """The `HostConfig` ``capicu host``'s options describe; CliError names what is wrong.

    The settings are checked by `TableConfig` and `HostConfig`; this checks only what
    needs the file system (a journal to resume, or one that would be replaced).
    """
    rules, players = rules_from_args(args)
    if args.computers:
        check_level(rules, args.level)
    resume: Path | None = args.resume
    journal: Path | None = args.journal
    default_journals = journal is None and not args.no_journal
    folder = JournalFolder(journals_dir(), JournalKind.HOST) if default_journals else None
    if resume is not None and args.no_journal:
        raise CliError(t("--resume goes on writing the journal it reads: leave out --no-journal"))
    if resume is not None and args.new_match:
        raise CliError(t("--resume goes on with a match, --new starts one: choose one"))
    if resume == LATEST:
        kept = folder.unfinished() if folder is not None else []
        if not kept:
            raise CliError(t("--resume: there is no unfinished match in {folder}",
                             folder=str(journals_dir() if folder is None else folder.root)))
        resume = kept[0].path
    if resume is not None and not resume.is_file():
        raise CliError(t("--resume {path}: there is no such file", path=str(resume)))
    keep = (worth_keeping(journal) if journal is not None and resume is None
            and not args.new_match and journal.is_file() else None)
    # The journal is the only record of that match: replacing it takes a word.
    if keep is Keep.UNFINISHED:
        raise CliError(t("--journal {path} holds an unfinished match: --resume {path} goes on with it, "
                         "--new-journal starts over", path=str(journal)))
    if keep is Keep.CHANGED:
        raise CliError(t("--journal {path} holds a match, but a line before its end is damaged (the file "
                         "was changed), so --resume cannot go on with it: --new-journal starts over, "
                         "replacing it", path=str(journal)))
    code = None if args.no_code else (args.code if args.code is not None else new_join_code())
    processes = args.computer_processes
    if processes is None:
        processes = 2 if args.level == "hard" and args.computers else 0
    rate = args.rate
    limits = Limits() if rate is None else Limits(messages_per_second=rate, message_burst=2 * rate)
    try:
        table = TableConfig(
            rules=rules, players=players, computers=args.computers, computer_level=args.level, seed=args.seed,
            turn_timer=args.turn_timer, grace=args.grace, journal=journal,
            next_round_delay=args.next_round_delay, max_spectators=args.max_spectators,
        )
        return HostConfig(
            table=table, bind=args.bind, port=args.port, code=code, resume=resume, journals=folder,
            limits=limits, records=records_dir(),
            computer_processes=processes, rejoin_by_name=args.rejoin_by_name,
            announce=None if args.no_announce else announce_from_args(args),
        )
    except RulesError as exc:
        raise CliError(describe_rules_problem(exc.code, exc.params)) from None
    except ConfigError as exc:
        raise CliError(describe_config_problem(exc)) from None


def default_table_name(person: str | None) -> str:
    """The table's name when none is given: the hosting person's, else this machine's."""
    # TRANSLATORS: the name a hosted table is announced by on the local network ("Ana's table").
    return t("{name}'s table", name=_host_name(person))


def default_club_name(person: str | None) -> str:
    """A club night's name on the local network when the night has none: its organiser's, else this
    machine's."""
    # TRANSLATORS: the name a club night is announced by on the local network ("Ana's club").
    return t("{name}'s club", name=_host_name(person))


def _host_name(person: str | None) -> str:
    """Whose table (or club night) it is: the hosting person's name, else this machine's."""
    name = clean_text(person or "", limit=NAME_LIMIT) or clean_text(socket.gethostname(), limit=NAME_LIMIT)
    return name or "capicu"


def announce_for(person: str) -> Announce | None:
    """How the menu's Host announces the table of ``person`` (None: `NO_LAN` is set)."""
    return None if os.environ.get(NO_LAN) else Announce(default_table_name(person))


def announce_from_args(args: argparse.Namespace) -> Announce | None:
    """How ``capicu host`` announces its table (``--table-name``, else the default; the SSH port).

    None when `NO_LAN` is set.
    """
    if args.table_name is not None:
        name = clean_text(args.table_name, limit=TABLE_NAME_LIMIT)
        if not name:
            raise CliError(t("--table-name cannot be empty"))
    else:
        name = default_table_name(None if args.headless else (args.name or load_settings()[0].name))
    if os.environ.get(NO_LAN):
        return None
    return Announce(name, ssh_port=getattr(args, "ssh", None) or None)


_HOST_PORT = re.compile(r"^(?:\[(?P<v6>[0-9a-fA-F:.]+)\]|(?P<host>[^:\s\[\]]+))(?::(?P<port>\d+))?$")


def parse_address(text: str, default: int = DEFAULT_PORT) -> tuple[str, int]:
    """``host``, ``host:port`` or ``[v6]:port`` as (host, port); CliError when malformed."""
    text = text.strip()
    if text.count(":") > 1 and not text.startswith("["):  # a bare IPv6 address
        return text, default
    found = _HOST_PORT.match(text)
    if not found:
        raise CliError(t("{text} is not an address: write it as HOST or HOST:PORT", text=repr(text)))
    host = found.group("v6") or found.group("host")
    port = int(found.group("port")) if found.group("port") else default
    if not 1 <= port <= 65535:
        raise CliError(t("{port} is not a port: use a number from 1 to 65535", port=str(port)))
    return host, port
