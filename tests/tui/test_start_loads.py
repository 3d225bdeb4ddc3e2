"""What a Draw-family game's start loads (issue 31, item 17): only what its first frame needs.

A subprocess starts the command line's modules and the app on a two-player ``capicu play``
(headless, as Pilot runs it) and lists the modules loaded once the table shows. Later, when
asked for: what a match's end needs (the records' folder, the history with SQLite and csv,
the replay of a record, the final score), the hosting screens, the main menu and the forms
it opens, the lobby (a solo table has none), ``capicu simulate`` and the settings' writer;
the other games' modules (Mexican Train's, Fives and Threes') and the wire's making of their
messages when one of them is played; the local network's tables when they are looked for; a
club night's code (and ``capicu club``'s options, which need it) and a headless host's when run.

And the garbage collector, which would only walk what a start loads: paused while the command
line loads (then what it loaded is frozen) and until a game's table has drawn its first frame.
"""
from __future__ import annotations

import gc
import os
import subprocess
import sys
from typing import Any

import pytest
from capicu.tui.app import CapicuApp
from capicu.tui.game import DisplayOptions
from capicu.tui.prefs.settings import Settings, save_settings
from capicu.tui.screens.base import SCREENS_CSS
from capicu.tui.screens.table import TableScreen
from helpers_app import solo_app, wait_for
from textual.color import Color
from textual.css.stylesheet import Stylesheet

#: Loaded when asked for, never by the start of a game against the computer.
NOT_AT_START = (
    "sqlite3",
    "csv",
    "tomli_w",
    "capicu.net.store.history",
    "capicu.net.store.archive",
    "capicu.tui.words.describe_history",
    "capicu.tui.screens.how_to_join",
    "capicu.tui.screens.resume_offer",
    "capicu.tui.terminal_gone",
    "capicu.core.replay",
    "capicu.net.discovery",
    "capicu.net.mdns",
    "capicu.tui.screens.menu",
    "capicu.tui.screens.lobby",
    "capicu.tui.screens.host_setup",
    "capicu.tui.screens.join_form",
    "capicu.tui.screens.settings",
    "capicu.tui.cli.simulate",
    "capicu.tui.screens.match_over",
    "capicu.tui.screens.draw_match_over",
    "capicu.net.host.headless",
    "capicu.core.club",
    "capicu.tui.words.describe_club",
)
#: Loaded when asked for too, each a test of its own below.
WHEN_ASKED = (
    "capicu.core.figures",  # a game's history figures: when a history counts them
    "capicu.tui.club",  # a club night's session: when one is run or joined
    "capicu.tui.screens.reconnecting",  # when the link drops
    "capicu.tui.screens.rejoin_request",  # when someone asks a host for a seat back
    "capicu.tui.screens.rules_keys",  # when the rules and keys are asked for
    "textual.widgets._checkbox",  # the forms' (menu, settings, join): no table has one
    "getpass",  # only when no name was given nor kept
    "calendar",  # only to read a kept journal's times
    "json",  # only for ``capicu tables --json``
)
#: Another game's own modules (core/<game>/, its computer players, its screens and words).
OTHER_GAMES = ("mexican", "fives", "train")

START = """
import asyncio, sys
from capicu.tui.cli.main import build_parser  # what the command line loads before the app
build_parser().parse_args(["play", "--players", "2"])  # and builds: every command's options, and play's read

async def start() -> None:
    from capicu.core import Rules
    from capicu.tui.app import CapicuApp
    from capicu.tui.game import DisplayOptions, SoloGame
    request = SoloGame(Rules.preset_named("puerto-rican-drawing"), 2, "normal", seed=4, name="Ana", pace=0.0)
    app = CapicuApp(DisplayOptions(mouse=False), request)
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(500):
            shown = type(app.screen).__name__.endswith("TableScreen")
            if shown and app.table is not None and app.table.view is not None:
                break
            await pilot.pause(0.02)
        else:
            raise SystemExit("the table did not show")
        await pilot.pause(0.2)  # its first frame drawn
        print(" ".join(sorted(sys.modules)))
        app.exit()

asyncio.run(start())
"""


@pytest.fixture(scope="module")
def loaded(tmp_path_factory: pytest.TempPathFactory) -> set[str]:
    """The modules loaded once a two-player game's table shows (one start for the module's tests).

    The start has user folders of its own, as every test's (tests/conftest.py): nothing kept to resume.
    """
    folders = tmp_path_factory.mktemp("start")
    env = {**os.environ, "CAPICU_NO_LAN": "1", "CAPICU_CONFIG_DIR": str(folders / "config")}
    env.update({variable: str(folders / variable.lower())
                for variable in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME")})
    done = subprocess.run([sys.executable, "-c", START], capture_output=True, text=True, timeout=120,
                          check=False, env=env)
    assert done.returncode == 0, done.stderr[-2000:]
    modules = set(done.stdout.split())
    assert "capicu.tui.screens.table" in modules  # the table did show
    return modules


def test_a_draw_family_game_starts_without_what_a_matchs_end_and_hosting_need(loaded: set[str]) -> None:
    assert not loaded & set(NOT_AT_START), sorted(loaded & set(NOT_AT_START))
    others = sorted(name for name in loaded if name.startswith("capicu.")
                    and any(game in part for part in name.split(".") for game in OTHER_GAMES))
    assert not others, others


@pytest.mark.parametrize("module", WHEN_ASKED)
def test_a_game_against_the_computer_starts_without(loaded: set[str], module: str) -> None:
    assert module not in loaded


async def test_the_saved_theme_is_the_first_and_the_stylesheets_are_parsed_once(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Textual parses every stylesheet at start; choosing the theme after that had it parse them again."""
    save_settings(Settings(theme="daylight"))
    reparsed: list[Stylesheet] = []
    reparse = Stylesheet.reparse

    def counted(stylesheet: Stylesheet) -> None:
        reparsed.append(stylesheet)
        reparse(stylesheet)

    monkeypatch.setattr(Stylesheet, "reparse", counted)
    app = CapicuApp(DisplayOptions(mouse=False))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert app.theme == "daylight"
        assert app.has_class("-theme-daylight", "-light-mode") and not app.has_class("-dark-mode")
        assert app.screen.styles.background == Color.parse("#f3ecdf")  # daylight's, from the first parse
    assert not reparsed


async def test_a_games_table_comes_up_without_the_stylesheet_of_the_screens_opened_on_the_way() -> None:
    """Those screens (forms, history, replays, the coach, a club night) keep their looks in
    tui/screens/screens.tcss: a game's table comes up without parsing it."""
    app = solo_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, TableScreen), what="the table")
        await pilot.pause()
        assert not app.stylesheet.has_source(str(SCREENS_CSS))
        assert app.stylesheet.has_source(str(CapicuApp.CSS_PATH))


async def test_the_first_screen_opened_on_the_way_brings_its_looks() -> None:
    """The menu comes up without tui/screens/screens.tcss; Settings, the first screen opened that
    names it, is drawn with its rules (its form 76 columns wide, centred)."""
    app = CapicuApp(DisplayOptions(mouse=False))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert not app.stylesheet.has_source(str(SCREENS_CSS))
        await pilot.press("s")
        await wait_for(pilot, lambda: type(app.screen).__name__ == "SettingsScreen", what="Settings")
        await pilot.pause()
        assert app.stylesheet.has_source(str(SCREENS_CSS))
        form = app.screen.query_one(".form-box")
        assert form.outer_size.width == 76
        assert form.region.x == 2  # (80 - 76) / 2: `align: center top`, a rule of that file too


#: The ``capicu`` command's entry point, counting the garbage collector's runs until the first
#: arguments are read (the command line and everything it loads is then loaded), then `capicu rules`.
LOADING = """
import argparse, gc, sys
runs = []
gc.callbacks.append(lambda phase, info: runs.append(info["generation"]) if phase == "start" else None)
read = argparse.ArgumentParser.parse_known_args

def parse_known_args(self, *args, **kwargs):
    if not hasattr(sys, "loading_runs"):
        sys.loading_runs = len(runs)
    return read(self, *args, **kwargs)

argparse.ArgumentParser.parse_known_args = parse_known_args
from capicu.tui.cli import run
sys.argv = ["capicu", "rules"]
runs.clear()
code = run()
print(code, sys.loading_runs, gc.isenabled(), gc.get_freeze_count() > 0, file=sys.stderr)
"""


def test_the_command_line_loads_with_the_collector_paused_then_frozen_and_back_on() -> None:
    """Loading makes hardly any garbage: the collector does not walk what it loads (it ran 60 times
    while the command line loaded); the command then runs with it on, what was loaded frozen."""
    done = subprocess.run([sys.executable, "-c", LOADING], capture_output=True, text=True, timeout=60,
                          check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "players" in done.stdout  # the rules were said
    code, loading_runs, enabled, frozen = done.stderr.split()[-4:]
    assert (code, loading_runs, enabled, frozen) == ("0", "0", "True", "True")


async def test_the_collector_stays_paused_until_the_tables_first_frame(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The command line starts the app with the collector paused (`commands.run_app`) until its first
    screen is up: a game's is its table, not the empty screen under it while the host deals."""
    mounted: list[bool] = []
    mount = TableScreen.on_mount

    def on_mount(screen: TableScreen[Any]) -> None:
        mounted.append(gc.isenabled())
        mount(screen)

    monkeypatch.setattr(TableScreen, "on_mount", on_mount)
    gc.disable()
    try:
        app = solo_app(seed=4, players=2)
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_for(pilot, lambda: isinstance(app.screen, TableScreen) and app.table is not None
                           and app.table.view is not None, what="the table")
            await wait_for(pilot, gc.isenabled, what="the collector back on")
    finally:
        gc.enable()
    assert mounted == [False]
