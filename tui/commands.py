"""The interface's commands: ``play``, ``join``, the main menu and ``host`` (interactive).

Everything here runs before Textual is imported, so that ``--colors`` can set
the colour system Textual reads at import time. Bad input becomes a
`CliError` (one line, exit code 2); so does a host that cannot be reached.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import os
import re
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from capicu.net.options import OptionsError as CliError
from capicu.net.options import number_in, rules_from_args

if TYPE_CHECKING:
    from capicu.tui.app import CapicuApp, DisplayOptions, StartRequest

#: The port a host listens on when none is given (net/ documents the same one).
FALLBACK_PORT = 7254
COLOR_CHOICES = ("auto", "16", "256", "truecolor")
TILE_STYLES = ("auto", "compact", "boxed", "pips", "glyph")
LEVELS = ("easy", "normal", "hard")
_TEXTUAL_COLORS = {"16": "standard", "256": "256", "truecolor": "truecolor"}


def default_port() -> int:
    """The LAN layer's documented default port (or ours, until it lands)."""
    try:
        from capicu.net.protocol import DEFAULT_PORT
    except ImportError:
        return FALLBACK_PORT
    return DEFAULT_PORT


def add_display_arguments(parser: argparse.ArgumentParser, *, top_level: bool = False) -> None:
    """The options that change how the table looks and reads input.

    They are accepted both before and after the command (``capicu --ascii play``
    and ``capicu play --ascii``): the sub-command's copy uses SUPPRESS so it
    only overrides what was actually typed.
    """
    default: Any = None if top_level else argparse.SUPPRESS
    group = parser.add_argument_group("display")
    group.add_argument("--mouse", action=argparse.BooleanOptionalAction, default=default,
                       help="use the mouse (default: on, off inside SSH)")
    group.add_argument("--colors", choices=COLOR_CHOICES, default=default,
                       help="the terminal's colours (default: auto)")
    group.add_argument("--ascii", action="store_true", default=False if top_level else argparse.SUPPRESS,
                       help="draw tiles and borders with ASCII only")
    group.add_argument("--tile-style", choices=TILE_STYLES, default=default,
                       help="how tiles are drawn (default: remembered, else auto: pips on large screens)")
    group.add_argument("--theme", default=default, help="the theme to start with")


def add_interface_commands(
    subparsers: Any, add_rule_arguments: Callable[[argparse.ArgumentParser], None]
) -> None:
    """Add ``play`` and ``join`` to the command line."""
    play = subparsers.add_parser(
        "play", help="play against the computer",
        description="Play a match against computer players in this terminal.",
    )
    add_rule_arguments(play)
    play.add_argument("--level", choices=LEVELS, default="normal",
                      help="the computer players' level (default: %(default)s)")
    play.add_argument("--name", default=None, help="your name at the table")
    play.add_argument("--seed", type=int, default=None, help="the seed of the deals (default: random)")
    add_display_arguments(play)
    play.set_defaults(handler=run_play)

    join = subparsers.add_parser(
        "join", help="join a game on the network",
        description="Join a game that someone hosts with 'capicu host'.",
    )
    join.add_argument("address", metavar="HOST[:PORT]",
                      help=f"the host's address as 'capicu host' shows it (port {default_port()} if none)")
    join.add_argument("--name", default=None, help="your name at the table")
    join.add_argument("--code", default=None, help="the join code the host shows")
    join.add_argument("--spectate", action="store_true", help="watch without a seat")
    join.add_argument("--seat-key", default=None, metavar="KEY",
                      help="take back your seat from another machine with the key the table showed you")
    join.add_argument("--give-up-after", type=number_in(float, 1, 86400, what="a number of seconds"),
                      default=600.0, metavar="SECONDS",
                      help="how long to keep trying to reach a host that went away (default: %(default)g)")
    add_display_arguments(join)
    join.set_defaults(handler=run_join)

    rules = subparsers.add_parser(
        "rules", help="print the rules of a game",
        description="Print the rules a game is played by, written from the engine's own settings.",
    )
    add_rule_arguments(rules)
    rules.set_defaults(handler=run_rules)

    host = subparsers.choices.get("host")
    if host is not None:  # net/'s parser: hosting from this terminal shows the table too
        add_display_arguments(host)


# -- addresses ------------------------------------------------------------------

_HOST_PORT = re.compile(r"^(?:\[(?P<v6>[0-9a-fA-F:.]+)\]|(?P<host>[^:\s\[\]]+))(?::(?P<port>\d+))?$")


def parse_address(text: str, default: int | None = None) -> tuple[str, int]:
    """``host``, ``host:port`` or ``[v6]:port`` as (host, port); CliError when malformed."""
    text = text.strip()
    if text.count(":") > 1 and not text.startswith("["):  # a bare IPv6 address
        return text, default if default is not None else default_port()
    found = _HOST_PORT.match(text)
    if not found:
        raise CliError(f"{text!r} is not an address: write it as HOST or HOST:PORT")
    host = found.group("v6") or found.group("host")
    port = int(found.group("port")) if found.group("port") else (default or default_port())
    if not 1 <= port <= 65535:
        raise CliError(f"{port} is not a port: use a number from 1 to 65535")
    return host, port


# -- running the app --------------------------------------------------------------


def prepare_terminal(args: argparse.Namespace) -> None:
    """Apply ``--colors`` before Textual is imported (it reads the setting once)."""
    choice = getattr(args, "colors", None) or "auto"
    try:
        from capicu.tui.settings import apply_color_mode
    except ImportError:
        if choice != "auto":
            os.environ["TEXTUAL_COLOR_SYSTEM"] = _TEXTUAL_COLORS[choice]
    else:
        apply_color_mode(choice)


def display_options(args: argparse.Namespace) -> DisplayOptions:
    from capicu.tui.app import DisplayOptions

    mouse = getattr(args, "mouse", None)
    if mouse is None:
        mouse = not os.environ.get("SSH_CONNECTION")
    return DisplayOptions(
        ascii=bool(getattr(args, "ascii", False)),
        tile_style=getattr(args, "tile_style", None),
        mouse=bool(mouse),
        theme=_theme(args),
    )


def _theme(args: argparse.Namespace) -> str | None:
    """``--theme``, checked against the themes there are (the shipped ones and the user's)."""
    theme: str | None = getattr(args, "theme", None)
    if theme is None:
        return None
    from capicu.tui.settings import themes_dir
    from capicu.tui.themes import theme_names

    names = theme_names(themes_dir())
    if theme not in names:
        raise CliError(f"there is no theme called {theme[:60]!r}: the themes are {', '.join(names)}")
    return theme


@contextlib.contextmanager
def _loading() -> Iterator[None]:
    """Load the interface with the garbage collector paused, and keep it paused.

    Textual and the game load a few hundred thousand objects that live as long as
    the program, and a start makes hardly any garbage: the collector would walk
    them over and over while they load, and again and again while the first
    screen is built (some 15 ms before the table showed, and 10 more after).
    `gc.freeze` keeps it from walking what was loaded ever after; the app lets
    it work again once it has started (`resume_collector`), and `_run_app` when
    the app ends.
    """
    gc.disable()
    try:
        yield
    except BaseException:
        gc.enable()  # no app will start
        raise
    gc.freeze()


class GameLost(Exception):
    """A game under way ended badly (the host gone for good): one line, exit code 1."""

    exit_code = 1


def _run_app(app: CapicuApp) -> int:
    from capicu.tui.app import resume_collector

    try:
        app.run(mouse=app.display_options.mouse)
    finally:
        resume_collector()
    if app.failure is not None:
        if app.failure_code == GameLost.exit_code:
            raise GameLost(app.failure)
        raise CliError(app.failure)
    return 0


def _make_app(args: argparse.Namespace, start: StartRequest | None) -> CapicuApp:
    from capicu.tui.app import CapicuApp

    return CapicuApp(display=display_options(args), start=start)


def _player_name(args: argparse.Namespace) -> str | None:
    name: str | None = getattr(args, "name", None)
    if name is not None and not name.strip():
        raise CliError("a name cannot be empty")
    return name.strip() if name else None


def open_main_menu(args: argparse.Namespace) -> int:
    """``capicu`` alone: the main menu."""
    with _loading():
        prepare_terminal(args)
        app = _make_app(args, None)
    return _run_app(app)


def run_play(args: argparse.Namespace) -> int:
    """``capicu play``: a host on 127.0.0.1 in this process, joined like any other."""
    rules, players = rules_from_args(args)
    name = _player_name(args)
    with _loading():
        prepare_terminal(args)
        from capicu.tui.app import SoloGame

        start = SoloGame(rules=rules, players=players, level=args.level, seed=args.seed, name=name)
        app = _make_app(args, start)
    return _run_app(app)


def run_rules(args: argparse.Namespace) -> int:
    """``capicu rules``: the rules of the preset (and options) asked for, as sentences."""
    chosen, players = rules_from_args(args)
    print(f"{chosen.preset}, {players} players:")
    for line in chosen.describe(players):
        print(f"- {line}")
    return 0


#: A seat key as shown: letters and digits in groups, any case, spaces or dashes between.
_SEAT_KEY = re.compile(r"^[A-Za-z0-9]([A-Za-z0-9 -]{0,40}[A-Za-z0-9])?$")


def _seat_key(args: argparse.Namespace) -> str | None:
    key: str | None = getattr(args, "seat_key", None)
    if key is None:
        return None
    key = key.strip()
    if not _SEAT_KEY.match(key) or sum(c.isalnum() for c in key) < 8:
        raise CliError(f"{key[:60]!r} is not a seat key: a seat key is letters and digits, "
                       "such as K7PX-2MQR-HT4W-9CV")
    if getattr(args, "spectate", False):
        raise CliError("--seat-key takes a seat back: it cannot go with --spectate")
    return key


def run_join(args: argparse.Namespace) -> int:
    """``capicu join HOST[:PORT]``: a seat (or a spectator's chair) at someone's table."""
    host, port = parse_address(args.address)
    name = _player_name(args)
    with _loading():
        prepare_terminal(args)
        from capicu.tui.app import JoinGame

        start = JoinGame(host=host, port=port, name=name, code=args.code, spectate=bool(args.spectate),
                         seat_key=_seat_key(args), give_up_after=args.give_up_after)
        app = _make_app(args, start)
    return _run_app(app)


def host_and_play(args: argparse.Namespace, host_config: Any) -> int:
    """``capicu host`` without ``--headless``: host on the chosen bind and port, and play here."""
    name = _player_name(args)
    with _loading():
        prepare_terminal(args)
        from capicu.tui.app import HostGame

        app = _make_app(args, HostGame(config=host_config, name=name))
    return _run_app(app)
