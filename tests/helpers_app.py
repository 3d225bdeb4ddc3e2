"""Helpers for driving the real app with Pilot: wait on app state (never sleep), read the screen."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from capicu.core import DRAW, PASS, Play, Rules
from capicu.tui.app import CapicuApp
from capicu.tui.game import DisplayOptions, SoloGame
from textual.pilot import Pilot


async def wait_for(pilot: Pilot[Any], condition: Callable[[], object], *, steps: int = 400,
                   what: str = "the app") -> None:
    """Let the app run until ``condition()`` holds; fail after a bounded number of steps."""
    for _ in range(steps):
        if condition():
            return
        await pilot.pause(0.02)
    raise AssertionError(f"timed out waiting for {what}")


def screen_text(app: CapicuApp) -> str:
    """What the terminal shows now, as plain text (one line per row)."""
    strips = app.screen._compositor.render_strips()
    return "\n".join(strip.text for strip in strips)


def solo_app(*, seed: int = 3, players: int = 2, theme: str | None = None, ascii: bool = False,
             preset: str = "puerto-rican-drawing", name: str = "Ana") -> CapicuApp:
    """A solo game against computers that move at once (pace 0), with a fixed seed."""
    request = SoloGame(Rules.preset_named(preset), players, "normal", seed=seed, name=name, pace=0.0)
    return CapicuApp(DisplayOptions(ascii=ascii, theme=theme, mouse=False), request)


async def walk_cursor(pilot: Pilot[Any], app: CapicuApp, tile: object) -> None:
    """Walk the hand's cursor to ``tile`` by the fewest keys: arrows from where it stands, or Home
    then Right, or End then Left. (Each key Pilot presses waits for the app to be idle, tens of
    milliseconds, and a match takes hundreds: Home and Right to every tile were most of a match.)"""
    from capicu.tui.widgets.hand_view import HandView

    await pilot.pause()  # the hand shows what the app knows now (as the first key's wait did)
    hand = app.screen.query_one(HandView)
    index, here, last = hand.hand.index(tile), hand.cursor, len(hand.hand) - 1  # type: ignore[arg-type]
    paths = [
        ["right" if index > here else "left"] * abs(index - here),
        ["home", *["right"] * index],
        ["end", *["left"] * (last - index)],
    ]
    keys = min(paths, key=len)
    if keys:
        await pilot.press(*keys)
    assert hand.selected == tile, (hand.selected, tile, keys)


def my_turn(app: CapicuApp) -> bool:
    game = app.table
    return bool(game and game.view and game.view.is_my_turn and game.view.legal not in ((), (DRAW,)))


async def take_turn(pilot: Pilot[Any], app: CapicuApp) -> None:
    """Take my turn with key presses only: walk the cursor to the first tile that fits and play it."""
    assert app.table is not None and app.table.view is not None
    view = app.table.view
    if view.legal == (PASS,):
        await pilot.press("p")
        return
    plays = [a for a in view.legal if isinstance(a, Play)]
    if not plays:
        await pilot.press("d")
        return
    await walk_cursor(pilot, app, plays[0].tile)
    await pilot.press("enter")
    await pilot.pause()
    if getattr(app.screen, "choosing_end", None) is not None:
        await pilot.press("left")


def round_over(app: CapicuApp) -> bool:
    """Whether the table shows a finished round (between rounds, or the match's last)."""
    from capicu.tui.screens.draw_table import DrawTableScreen

    game = app.table
    return (isinstance(app.screen, DrawTableScreen) and game is not None and game.view is not None
            and game.view.turn is None)


def summary_ready(app: CapicuApp) -> bool:
    """Whether the finished round takes an Enter now (it ignores one at first)."""
    return round_over(app) and bool(getattr(app.screen, "takes_ready", False))


async def play_turn_and_wait(pilot: Pilot[Any], app: CapicuApp) -> None:
    """Take my turn by keys and wait until the host has answered it."""
    assert app.table is not None
    before = app.table.view
    await take_turn(pilot, app)
    game = app.table
    await wait_for(pilot, lambda: game.view is not before or round_over(app), what="the host's answer")


async def next_turn(pilot: Pilot[Any], app: CapicuApp) -> None:
    """Play my turn by keys, or, when a round has ended, start the next one with Enter."""
    await wait_for(pilot, lambda: my_turn(app) or round_over(app), what="my turn")
    if round_over(app):
        await wait_for(pilot, lambda: summary_ready(app), what="the round's end to take Enter")
        await pilot.press("enter")
        await wait_for(pilot, lambda: not round_over(app), what="the next round")
    else:
        await play_turn_and_wait(pilot, app)


async def play_until(pilot: Pilot[Any], app: CapicuApp, done: Callable[[], object], *,
                     turns: int = 80) -> None:
    """Play turns (`next_turn`) until ``done()``; fail if it never comes."""
    for _ in range(turns):
        await wait_for(pilot, lambda: bool(done()) or my_turn(app) or round_over(app), what="my turn")
        if done():
            return
        await next_turn(pilot, app)
    raise AssertionError("it never came")
