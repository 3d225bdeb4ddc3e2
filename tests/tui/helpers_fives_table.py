"""Helpers for Fives and Threes' table: a solo game against computers, turns taken by keys with Pilot."""

from __future__ import annotations

from typing import Any

import msgspec
from capicu.core import PASS, Play, Rules
from capicu.core.fives import FivesView
from capicu.tui.app import CapicuApp
from capicu.tui.game import DisplayOptions, SoloGame
from capicu.tui.screens.fives_table import FivesTableScreen
from capicu.tui.widgets.event_log import EventLog
from capicu.tui.widgets.hand_view import HandView
from helpers_app import wait_for, walk_cursor
from textual.pilot import Pilot

FIVES = Rules.preset_named("fives-and-threes")


def fives_app(*, seed: int = 3, players: int = 4, ascii: bool = False, target: int | None = None,
              name: str = "Ana", language: str | None = None) -> CapicuApp:
    """A solo game of Fives and Threes against computers that move at once (pace 0)."""
    rules = FIVES if target is None else msgspec.structs.replace(FIVES, targets=(target, target, target))
    request = SoloGame(rules, players, "normal", seed=seed, name=name, pace=0.0)
    return CapicuApp(DisplayOptions(ascii=ascii, mouse=False, language=language), request)


def fives_view(app: CapicuApp) -> FivesView | None:
    model = app.table
    return model.view if model is not None and isinstance(model.view, FivesView) else None


def at_the_table(app: CapicuApp) -> bool:
    return isinstance(app.screen, FivesTableScreen) and bool(app.screen.query(HandView))


def my_fives_turn(app: CapicuApp) -> bool:
    view = fives_view(app)
    return at_the_table(app) and view is not None and view.is_my_turn and bool(view.legal)


def hand_over(app: CapicuApp) -> bool:
    view = fives_view(app)
    return at_the_table(app) and view is not None and view.turn is None


def log_text(app: CapicuApp) -> str:
    """The table's log as one text (its lines wrap at the side panel's width)."""
    return " ".join(strip.text.strip() for strip in app.screen.query_one(EventLog).lines)


async def take_fives_turn(pilot: Pilot[Any], app: CapicuApp) -> None:
    """Take my turn by keys (the first tile listed, on its first end; else knock) and wait for the answer."""
    view = fives_view(app)
    assert view is not None and app.table is not None
    if view.legal == (PASS,):
        await pilot.press("p")
    else:
        play = next(a for a in view.legal if isinstance(a, Play))
        await walk_cursor(pilot, app, play.tile)
        await pilot.press("enter")
        await pilot.pause()
        if getattr(app.screen, "choosing_end", None) is not None:
            await pilot.press("left" if play.place.value == "left" else "right")  # type: ignore[union-attr]
    model = app.table
    await wait_for(pilot, lambda: model.view is not view, what="the host's answer")


async def next_fives_turn(pilot: Pilot[Any], app: CapicuApp) -> None:
    """My turn by keys, or, at a hand's end, Enter for the next deal."""
    await wait_for(pilot, lambda: my_fives_turn(app) or hand_over(app), what="my turn")
    if hand_over(app):
        view = fives_view(app)
        if view is not None and view.match_over:
            return
        await wait_for(pilot, lambda: bool(getattr(app.screen, "takes_ready", False)), what="Enter taken")
        await pilot.press("enter")
        await wait_for(pilot, lambda: not hand_over(app), what="the next hand")
    else:
        await take_fives_turn(pilot, app)


async def play_fives_until(pilot: Pilot[Any], app: CapicuApp, done: Any, *, turns: int = 200) -> None:
    """Play turns by keys until ``done()``; fail if it never comes."""
    for _ in range(turns):
        await wait_for(pilot, lambda: bool(done()) or my_fives_turn(app) or hand_over(app), what="my turn")
        if done():
            return
        await next_fives_turn(pilot, app)
    raise AssertionError("it never came")
