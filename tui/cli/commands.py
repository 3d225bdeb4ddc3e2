"""The commands: ``play``, ``join``, ``host``, ``replay``, ``history``, ``rules`` and the main menu.

Textual reads the colour system once, as it loads, so ``--colors`` must be
applied before it is imported: this module and everything it imports leave
Textual alone, and `run_app` loads the interface once `prepare_terminal` has
run. Bad input becomes a `CliError` (one line, exit code 2); so does a host
that cannot be reached.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import re
import socket
import sys
from collections.abc import Callable
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, TypeVar

from capicu.net.host.server import HostConfig
from capicu.net.protocol import DEFAULT_PORT
from capicu.net.store.journals import Unfinished, summarize
from capicu.net.store.record import RecordError, read_record
from capicu.tui.game import DisplayOptions, HostGame, JoinGame, OpenReplays, SoloGame, StartRequest
from capicu.tui.prefs.settings import apply_color_mode, records_dir, themes_dir
from capicu.tui.words.describe import (
    describe_history_problem,
    describe_host_note,
    describe_host_problem,
    describe_unfinished,
    list_separator,
    played_at,
)
from capicu.tui.words.describe_rules import describe_rules, preset_title
from capicu.tui.words.messages import N_, t, tn

from .club import add_club_command, host_club_from_args, join_club_from_args
from .club_history import add_club_history_arguments, add_standings_arguments, export_standings
from .options import (
    CliError,
    add_display_arguments,
    add_host_arguments,
    add_rule_arguments,
    add_ssh_arguments,
    check_level,
    check_table,
    host_config_from_args,
    level_option,
    number_in,
    parse_address,
    rules_from_args,
)
from .tables import add_tables_command, ask_code, look_for, table_name_shown

if TYPE_CHECKING:
    from capicu.net.host.headless import News
    from capicu.net.store.history import History
    from capicu.tui.ssh.gateway import Gateway

#: The command line's parser class (the sub-commands are made of it).
Parser = TypeVar("Parser", bound=argparse.ArgumentParser)


def _name_help() -> str:
    """``--name``'s help: the name is for this game; the one kept is changed in Settings."""
    return t("your name at the table in this game (Settings keeps the name you usually play under)")


def add_commands(subparsers: argparse._SubParsersAction[Parser]) -> None:
    """Add ``play``, ``join``, ``host``, ``tables``, ``club``, ``replay``, ``rules`` and ``history``.

    Each command's options are added when it is the command run or its help is shown (the
    parser's ``options``): a command costs the others nothing.
    """
    subparsers.add_parser(
        "play", help=t("play against the computer"),
        description=t("Play a match against computer players in this terminal."),
        options=_play_options,
    ).set_defaults(handler=run_play)
    subparsers.add_parser(
        "join", help=t("join a game on the network"),
        description=t("Join a game that someone hosts with 'capicu host'."),
        options=_join_options,
    ).set_defaults(handler=run_join)
    subparsers.add_parser(
        "host", help=t("host a table on the local network"),
        description=t("Host a table that players on the local network join with the address, "
        "port and join code it prints."),
        options=_host_options,
    ).set_defaults(handler=run_host)
    add_tables_command(subparsers)
    club = add_club_command(subparsers, then=add_standings_arguments)
    club.set_defaults(handler=run_club)
    subparsers.add_parser(
        "replay", help=t("look back at a finished match"),
        description=t("Replay a recorded match move by move, every hand face up; with no file, "
                      "choose one of your recorded matches, newest first."),
        options=_replay_options,
    ).set_defaults(handler=run_replay)
    subparsers.add_parser(
        "rules", help=t("print the rules of a game"),
        description=t("Print the rules a game is played by, written from the engine's own settings."),
        options=_rules_options,
    ).set_defaults(handler=run_rules)
    subparsers.add_parser(
        "history", help=t("the figures of every finished match kept"),
        description=t("Print how a player did in the matches kept on this machine (played, won, points a "
                      "round, capicús; by game and by opponent), or a host's table standings, or write "
                      "the whole history as CSV."),
        options=_history_options,
    ).set_defaults(handler=run_history)


def _play_options(play: argparse.ArgumentParser) -> None:
    add_rule_arguments(play)
    play.add_argument("--level", **level_option())
    play.add_argument("--name", default=None, metavar=t("NAME"), help=_name_help())
    play.add_argument("--seed", type=int, default=None, metavar=t("N"),
                      help=t("the seed of the deals (default: random)"))
    play.add_argument("--no-journal", action="store_true",
                      help=t("keep no journal: a crash loses the game (by default an unfinished game "
                             "is offered again at the next start)"))
    add_display_arguments(play)


def _join_options(join: argparse.ArgumentParser) -> None:
    join.add_argument("address", metavar=t("HOST[:PORT]|TABLE"), nargs="?", default=None,
                      help=t("the host's address as 'capicu host' shows it (port {port} if none), or the "
                             "table's name on the local network (none: look for tables and choose one)",
                             port=str(DEFAULT_PORT)))
    join.add_argument("--name", default=None, metavar=t("NAME"), help=_name_help())
    join.add_argument("--code", default=None, metavar=t("CODE"), help=t("the join code the host shows"))
    join.add_argument("--spectate", action="store_true", help=t("watch without a seat"))
    join.add_argument("--seat-key", default=None, metavar=t("KEY"),
                      help=t("take back your seat from another machine with the key the table showed you"))
    join.add_argument("--give-up-after", type=number_in(float, 1, 86400, what=N_("a number of seconds")),
                      default=600.0, metavar=t("SECONDS"),
                      help=t("how long to keep trying to reach a host that went away (default: %(default)g)"))
    add_display_arguments(join)


def _host_options(host: argparse.ArgumentParser) -> None:
    add_rule_arguments(host)
    add_host_arguments(host)
    add_ssh_arguments(host)
    add_display_arguments(host)  # hosting from this terminal shows the table too


def _replay_options(replay: argparse.ArgumentParser) -> None:
    replay.add_argument("file", nargs="?", type=Path, default=None, metavar=t("FILE"),
                        help=t("a match record (default: the list of your recorded matches)"))
    replay.add_argument("--text", action="store_true",
                        help=t("print the match move by move as plain text, for pasting into a chat"))
    add_display_arguments(replay)


def _rules_options(rules: argparse.ArgumentParser) -> None:
    add_rule_arguments(rules)
    add_display_arguments(rules)  # accepted after the command as before it (only --lang changes anything)


def _history_options(history: argparse.ArgumentParser) -> None:
    history.add_argument("--player", default=None, metavar=t("NAME"),
                         help=t("whose figures, by name (default: yours, the seats you sat in on this "
                                "machine whatever your name was)"))
    period = history.add_mutually_exclusive_group()
    period.add_argument("--year", type=number_in(int, 1970, 9999, what=N_("a year")), default=None,
                        metavar=t("YYYY"), help=t("only the matches that ended in that year"))
    period.add_argument("--this-year", action="store_true", help=t("only this year's matches"))
    history.add_argument("--host", action="store_true",
                         help=t("the standings of every player at the table hosted on this machine"))
    history.add_argument("--csv", default=None, metavar=t("FILE"),
                         help=t("write every match kept to FILE as CSV, one row per seat per match "
                                "('-': the standard output)"))
    add_club_history_arguments(history)
    add_display_arguments(history)  # accepted after the command as before it


# -- running the app --------------------------------------------------------------


def prepare_terminal(args: argparse.Namespace) -> None:
    """Apply ``--colors`` before Textual is imported (it reads the setting once)."""
    apply_color_mode(getattr(args, "colors", None) or "auto")


class GameLost(Exception):
    """A game under way ended badly (the host gone for good): one line, exit code 1."""

    exit_code = 1


def run_app(args: argparse.Namespace, start: StartRequest | OpenReplays | None,
            gateway: Gateway | None = None, before_screen: Callable[[], None] | None = None) -> int:
    """Run the interface for ``start`` (None: the main menu) until the player leaves.

    The garbage collector is paused while the interface loads and its first screen is
    built: Textual and the game load objects that live as long as the program and a
    start makes hardly any garbage, so the collector would only walk them over and
    over (about 75 ms of ``capicu play``'s start). What is loaded is then frozen (never
    walked again), and the app turns the collector back on once its first screen is up
    (`CapicuApp.on_ready`). With a ``gateway`` (``capicu host --ssh``), the app starts it
    beside the host. ``before_screen`` runs once the options are checked and before the
    screen opens (it raises `CliError` to stop there: ``capicu join``'s check of the address).
    With its output not a terminal (a pipe, a file) there is no screen to draw: `CliError`
    says so (the interface would wait there for ever, at a whole core).
    """
    prepare_terminal(args)
    gc.disable()
    try:
        # Only now may Textual load: it has read the colours `prepare_terminal` chose.
        from capicu.tui.app import CapicuApp

        if gateway is None:
            app = CapicuApp(display=display_options(args), start=start, local_terminal=True)
        else:
            from capicu.tui.ssh.session import HostingApp

            assert not isinstance(start, OpenReplays)  # a gateway comes with hosting only
            app = HostingApp(display=display_options(args), start=start, gateway=gateway, local_terminal=True)
        if not sys.stdout.isatty():
            raise CliError(t("this command needs a terminal to draw its screen, and its output is not one "
                             "(a pipe or a file)"))
        if before_screen is not None:
            before_screen()
        gc.freeze()
        app.run(mouse=app.display_options.mouse)
    finally:
        gc.enable()
    if app.farewell is not None:
        print(app.farewell, flush=True)
    if app.failure is not None:
        if app.failure_code == GameLost.exit_code:
            raise GameLost(app.failure)
        raise CliError(app.failure)
    return 0


def display_options(args: argparse.Namespace) -> DisplayOptions:
    """How the command line asks the table to be drawn (call once Textual may load)."""
    mouse = getattr(args, "mouse", None)
    if mouse is None:
        mouse = not os.environ.get("SSH_CONNECTION")
    return DisplayOptions(
        ascii=bool(getattr(args, "ascii", False)),
        tile_style=getattr(args, "tile_style", None),
        mouse=bool(mouse),
        theme=_theme(args),
        language=getattr(args, "lang", None),
    )


def _theme(args: argparse.Namespace) -> str | None:
    """``--theme``, checked against the themes there are (the shipped ones and the user's)."""
    # Themes are Textual objects: loaded only here, once the colours are set.
    from capicu.tui.prefs.themes import theme_names

    theme: str | None = getattr(args, "theme", None)
    if theme is None:
        return None
    names = theme_names(themes_dir())
    if theme not in names:
        raise CliError(t("there is no theme called {theme}: the themes are {themes}", theme=repr(theme[:60]),
                         themes=list_separator().join(names)))
    return theme


def _player_name(args: argparse.Namespace) -> str | None:
    name: str | None = getattr(args, "name", None)
    if name is not None and not name.strip():
        raise CliError(t("a name cannot be empty"))
    return name.strip() if name else None


def open_main_menu(args: argparse.Namespace) -> int:
    """``capicu`` alone: the main menu."""
    return run_app(args, None)


def run_play(args: argparse.Namespace) -> int:
    """``capicu play``: a host on 127.0.0.1 in this process, joined like any other."""
    rules, players = rules_from_args(args)
    check_level(rules, args.level)
    check_table(rules)
    start = SoloGame(rules=rules, players=players, level=args.level, seed=args.seed, name=_player_name(args),
                     journal=not args.no_journal)
    return run_app(args, start)


def run_replay(args: argparse.Namespace) -> int:
    """``capicu replay [FILE]``: the replay screen (the list of records with no file), or ``--text``."""
    path: Path | None = args.file
    if args.text and path is None:
        raise CliError(t("--text needs the record's FILE"))
    if path is not None and args.text:
        from capicu.net.store.record import read_replay

        from .replay_text import record_text

        try:
            record, replayed = read_replay(path)  # the log replayed once: checked, then told
        except RecordError as exc:
            raise CliError(str(exc)) from None
        for line in record_text(record, played_at(record), replayed):
            print(line)
        return 0
    if path is not None:
        try:
            read_record(path)  # a damaged file is said before any screen opens
        except RecordError as exc:
            raise CliError(str(exc)) from None
    return run_app(args, OpenReplays(path))


def run_rules(args: argparse.Namespace) -> int:
    """``capicu rules``: the rules of the preset (and options) asked for, as sentences."""
    chosen, players = rules_from_args(args)
    print(tn("{preset}, {count} player:", "{preset}, {count} players:", players,
             preset=preset_title(chosen.preset)))
    for line in describe_rules(chosen, players):
        print(f"- {line}")
    return 0


def run_history(args: argparse.Namespace, now: datetime | None = None) -> int:
    """``capicu history``: the player's figures, a host's standings (``--host``), or the CSV (``--csv``).

    ``now``: the clock's time for ``--this-year`` (the tests give theirs).
    """
    from capicu.net.store.history import HistoryError, history_path, open_history, this_year
    from capicu.tui.words.describe_history import standings_lines, summary_lines

    from .club_history import run_club_history

    if args.club:
        return run_club_history(args)
    if args.night is not None:
        raise CliError(t("--night goes with --club"))

    player: str | None = args.player.strip() if args.player is not None else None
    if args.player is not None and not player:
        raise CliError(t("a name cannot be empty"))
    if args.host and player is not None:
        raise CliError(t("--host shows every player at the table: it cannot go with --player"))
    year: int | None = this_year(now or datetime.now(UTC)) if args.this_year else args.year
    folder = records_dir()
    if not history_path(folder).exists() and args.csv is None:
        print(t("No finished match is kept yet (the history will be kept in {file}).",
                file=str(history_path(folder))))
        return 0
    try:
        history, problem = open_history(folder)
    except HistoryError as exc:
        raise CliError(describe_history_problem(exc.problem.code, exc.problem.values)) from None
    with history:
        if problem is not None:
            print("capicu: " + describe_history_problem(problem.code, problem.values), file=sys.stderr)
        if args.csv is not None:
            return _export_history(history, args.csv)
        lines = standings_lines(history, year) if args.host else summary_lines(history, player, year)
    print("\n".join(lines))
    return 0


def _export_history(history: History, where: str) -> int:
    """Write the history as CSV to the file ``where`` (``-``: standard output)."""
    if where == "-":
        history.export_csv(sys.stdout)
        return 0
    path = Path(where)
    try:
        # newline="": the csv module writes its own line endings (RFC 4180's CRLF).
        with path.open("w", encoding="utf-8", newline="") as out:
            rows = history.export_csv(out)
    except OSError as exc:
        raise CliError(t("cannot write {file} ({problem})", file=where,
                         problem=exc.strerror or type(exc).__name__)) from None
    print(tn("capicu history: {count} row written to {file}",
             "capicu history: {count} rows written to {file}", rows, count=str(rows), file=where))
    return 0


#: A seat key as shown: letters and digits in groups, any case, spaces or dashes between.
_SEAT_KEY = re.compile(r"^[A-Za-z0-9]([A-Za-z0-9 -]{0,40}[A-Za-z0-9])?$")


def _seat_key(args: argparse.Namespace) -> str | None:
    key: str | None = getattr(args, "seat_key", None)
    if key is None:
        return None
    key = key.strip()
    if not _SEAT_KEY.match(key) or sum(c.isalnum() for c in key) < 8:
        raise CliError(t("{key} is not a seat key: a seat key is letters and digits, "
                         "such as K7PX-2MQR-HT4W-9C", key=repr(key[:60])))
    if getattr(args, "spectate", False):
        raise CliError(t("--seat-key takes a seat back: it cannot go with --spectate"))
    return key


#: Seconds the check before the screen waits for the host to accept a connection (the client's own wait).
REACH_TIMEOUT = 10.0


def check_reachable(host: str, port: int, timeout: float = REACH_TIMEOUT) -> None:
    """CliError when nothing at ``host:port`` accepts a connection: said before the screen opens.

    Only the first connection is checked so: a seat that was reached once and then lost
    is the app's to get back (it keeps trying, and says so on the screen).
    """
    where = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    try:
        with socket.create_connection((host, port), timeout=timeout):
            pass
    except TimeoutError:
        reason = t("no answer from {where}", where=where)
    except OSError as exc:
        # TRANSLATORS: {problem} is the system's own words ("Connection refused").
        reason = t("cannot reach {where} ({problem})", where=where, problem=exc.strerror or str(exc))
    else:
        return
    raise CliError(t("Could not reach the table: {reason}", reason=reason))


def run_join(args: argparse.Namespace) -> int:
    """``capicu join [HOST[:PORT] | TABLE]``: a seat (or a spectator's chair) at someone's table.

    With no address, the tables (and club nights) on the local network are listed to choose
    from; with a name that is not plainly an address, the table of that name is looked for
    (and, when none is heard, the name is taken as a host's). A club night chosen so is
    joined as ``capicu club --join`` joins it; so is one whose address is given (its host
    answers that it has no table: the app then joins its club, `CapicuApp.on_link_failed`).
    """
    spectate, seat_key, code = bool(args.spectate), _seat_key(args), args.code
    name = _player_name(args)
    chosen = look_for(args.address, spectate)
    club = chosen is not None and chosen.club
    if chosen is not None:
        host, port = chosen.found.address, chosen.found.port
        if club and seat_key is not None:
            raise CliError(t("{night} is a club night: its draw takes you to your seat, without a seat "
                             "key", night=table_name_shown(chosen)))
        if chosen.found.ad.code_needed and code is None and seat_key is None:
            code = ask_code(chosen)
    else:
        host, port = parse_address(args.address)
    start = JoinGame(host=host, port=port, name=name, code=code, spectate=spectate, seat_key=seat_key,
                     give_up_after=args.give_up_after, club=club)
    return run_app(args, start, before_screen=lambda: check_reachable(host, port))


def run_host(args: argparse.Namespace) -> int:
    """``capicu host``: a dedicated host with ``--headless``, else host and play in this terminal.

    By default the match is journalled in the user data folder. When an unfinished match
    is kept there (a crash, or a host stopped mid-match), the hosting app offers to resume
    it; a headless host says so and does not start (its players' clients would hear that
    their match is lost), unless ``--resume`` goes on with it or ``--new`` sets it aside.
    """
    config = host_config_from_args(args)
    if not args.headless:
        check_table(config.table.rules)  # hosting in this terminal plays at its table
    config = _settle_unfinished(args, config)
    resumed = summarize(config.resume) if config.resume is not None else None
    tell = partial(tell_operator, resumed=resumed)
    if args.ssh is not None:
        ssh_gateway = _ssh_gateway()
        ssh = ssh_gateway.gateway_config_from_args(args)
        if args.headless:
            return int(asyncio.run(ssh_gateway.serve_headless_with_ssh(config, ssh, tell=tell)))
        gateway = ssh_gateway.Gateway(ssh, config.code)
        try:
            gateway.prepare()  # the host key made (or read) and its fingerprint known before the screen
        except ssh_gateway.GatewayError as exc:
            raise CliError(str(exc)) from None
        try:
            return run_app(args, HostGame(config=config, name=_player_name(args)), gateway)
        finally:
            # Said once the full screen is gone (it would cover it before), and only when players
            # could come in by SSH: with its port taken, SSH was off (the screen said why).
            if gateway.served:
                print(t("capicu host: SSH host key fingerprint {fingerprint}",
                        fingerprint=gateway.fingerprint), flush=True)
    if args.ssh_keys is not None:
        raise CliError(t("--ssh-keys goes with --ssh"))
    if args.headless:
        from capicu.net.host.headless import serve_headless  # (a game in this terminal needs none of it)

        return asyncio.run(serve_headless(config, tell=tell))
    return run_app(args, HostGame(config=config, name=_player_name(args)))


def _settle_unfinished(args: argparse.Namespace, config: HostConfig) -> HostConfig:
    """The config to host with, once the unfinished matches kept in the folder of journals are seen to.

    ``--new`` sets them aside (saying so); a headless host stops with one line saying
    how to go on (CliError), but sets aside a match never dealt (a lobby: nothing in it
    is lost); the hosting app asks (`CapicuApp.start_game`).
    """
    folder = config.journals
    if folder is None or config.resume is not None or config.table.journal is not None:
        return config
    kept = folder.unfinished()
    if not kept:
        return config
    # --new sets every one aside; a headless host, those never dealt (a lobby: nothing in it is lost).
    aside = kept if args.new_match else [m for m in kept if not m.started] if args.headless else []
    for match in aside:
        if folder.set_aside(match.path) is not None:
            # TRANSLATORS: {match} is "the match of 17:02 (Ana, Beto; 3 rounds played)".
            print(t("capicu host: {match} is set aside in {folder}",
                    match=describe_unfinished(match), folder=str(folder.finished)), flush=True)
    kept = [match for match in kept if match not in aside]
    if kept and args.headless:
        # TRANSLATORS: {match} is "the match of 17:02 (Ana, Beto; 3 rounds played)".
        raise CliError(t("{match} is unfinished and kept in {path}: --resume goes on with it, "
                         "--new starts another match and sets it aside",
                         match=describe_unfinished(kept[0]), path=str(kept[0].path)))
    return config


def tell_operator(news: News, resumed: Unfinished | None = None) -> None:
    """What a headless host tells its operator, in the command line's language (a problem on stderr).

    ``resumed``: the match the host resumes, named once it listens.
    """
    from capicu.net.host.headless import CannotStart, Noted, Stopped

    if isinstance(news, CannotStart):
        print("capicu: " + describe_host_problem(news.code, news.params), file=sys.stderr)
        return
    if isinstance(news, Stopped):
        print(t("capicu host: stopped"), flush=True)
        if news.kept is not None:
            print(t("capicu host: the unfinished match is kept: capicu host --resume {path} goes on with it",
                    path=str(news.kept)), flush=True)
        return
    if isinstance(news, Noted):
        print(t("capicu host: {line}", line=describe_host_note(news.note.code, news.note.values)),
              file=sys.stderr, flush=True)
        return
    print(t("capicu host: listening on {address} port {port}", address=news.address, port=str(news.port)))
    if resumed is not None:
        # TRANSLATORS: {match} is "the match of 17:02 (Ana, Beto; 3 rounds played)".
        print(t("capicu host: resuming {match} from {path}", match=describe_unfinished(resumed),
                path=str(resumed.path)))
    if news.code:
        print(t("capicu host: join code {code}", code=news.code))
        print(t("capicu host: to join, give address {address}, port {port}, join code {code}",
                address=news.reach, port=str(news.port), code=news.code))
    else:
        print(t("capicu host: no join code"))
        print(t("capicu host: to join, give address {address}, port {port}, no join code",
                address=news.reach, port=str(news.port)))
    # TRANSLATORS: {command} is the command to type, as it is ("capicu join 192.168.1.20:7254 --code K7PX2M").
    print(t("capicu host: or type: {command}", command=news.command))
    if news.announced is not None:
        # TRANSLATORS: {name} is the table's name as players see it in their list ("Ana's table").
        print(t("capicu host: announced on the local network as {name}", name=news.announced))
    for line in news.more:
        print(t("capicu host: {line}", line=line))
    sys.stdout.flush()


def run_club(args: argparse.Namespace) -> int:
    """``capicu club``: a club night hosted from this terminal (the organiser's screens), or a kept
    night's standings written for the wall (``--standings FILE``: nothing starts)."""
    if args.standings is not None:
        if args.join is not None:
            raise CliError(t("--standings writes a night kept on this machine: it cannot go with --join"))
        return export_standings(args.standings, args.night)
    if args.night is not None:
        raise CliError(t("--night goes with --standings"))
    if args.join is not None:
        joining = join_club_from_args(args)
        return run_app(args, joining, before_screen=lambda: check_reachable(joining.host, joining.port))
    if args.spectate:
        raise CliError(t("--spectate goes with --join"))
    request = host_club_from_args(args)
    check_table(request.club.rules)  # the organiser's terminal shows no table, but its players' do
    if args.ssh is None:
        return run_app(args, request)
    ssh_gateway = _ssh_gateway()
    gateway = ssh_gateway.Gateway(ssh_gateway.gateway_config_from_args(args), request.code, club=True)
    try:
        gateway.prepare()  # the host key made (or read) and its fingerprint known before the screen
    except ssh_gateway.GatewayError as exc:
        raise CliError(str(exc)) from None
    try:
        return run_app(args, request, gateway)
    finally:
        if gateway.served:
            print(t("capicu host: SSH host key fingerprint {fingerprint}", fingerprint=gateway.fingerprint),
                  flush=True)


def _ssh_gateway() -> ModuleType:
    """The SSH gateway's module; CliError saying what to install when asyncssh is missing."""
    try:
        from capicu.tui.ssh import gateway as ssh_gateway
    except ModuleNotFoundError as exc:
        if exc.name != "asyncssh":
            raise
        raise CliError(t("--ssh needs asyncssh, which is not installed: pip install 'capicu[ssh]'")) from None
    return ssh_gateway
