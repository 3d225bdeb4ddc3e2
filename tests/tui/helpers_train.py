"""Helpers for Mexican Train's table: a real match's views, and turns taken by keys with Pilot."""

from __future__ import annotations

from typing import Any

import msgspec
from capicu.core import DRAW, PASS, MexicanView, Play, Rules
from capicu.core.actions import Train
from capicu.core.mexican.match import MexicanMatch
from capicu.core.mexican.refusals import run_steps
from capicu.tui.app import CapicuApp
from capicu.tui.game import DisplayOptions, SoloGame
from capicu.tui.screens.mexican_table import MexicanTableScreen
from capicu.tui.widgets.hand_view import HandView
from capicu.tui.widgets.train_lanes import lane_keys
from helpers_app import wait_for, walk_cursor
from textual.pilot import Pilot

#: Mexican Train as seed 004 plays it (the default): the engine dealt and laid by its holder, several
#: doubles a turn. The table's tests and snapshots play it.
MEXICAN_TRAIN = Rules.preset_named("mexican-train")
#: Mexican Train as capicu played it before issue 29 (the options: the engine set aside, one double a
#: turn): kept for the few tests of those options.
AS_BEFORE = msgspec.structs.replace(MEXICAN_TRAIN, engine_set_aside=True, one_double_a_turn=True)


def train_match(players: int, seed: int = 5, *, pause: bool = False, rules: Rules = MEXICAN_TRAIN
                ) -> MexicanMatch:
    """A match of Mexican Train; with ``pause`` it waits for its next deal after each round."""
    return MexicanMatch(rules, players, seed=seed, pause_between_rounds=pause)  # type: ignore[arg-type]


def step(match: MexicanMatch) -> None:
    """One move of a simple player: the first tile listed, else what is left (end the run, draw, pass)."""
    legal = match.legal_actions()
    plays = [a for a in legal if isinstance(a, Play)]
    match.apply(plays[0] if plays else legal[0])


def train_view(players: int, moves: int, seat: int | None = 0, seed: int = 5) -> MexicanView:
    """A real view of a Mexican Train match after ``moves`` simple moves."""
    match = train_match(players, seed)
    for _ in range(moves):
        if match.turn is None:
            break
        step(match)
    return match.view(seat)


def view_where(players: int, condition: Any, seat: int | None = 0, seed: int = 5, moves: int = 600,
               pause: bool = False) -> MexicanView:
    """The first view (of ``seat``) of a simple match for which ``condition(view)`` holds."""
    match = train_match(players, seed, pause=pause)
    for _ in range(moves):
        view = match.view(seat)
        if condition(view):
            return view
        if match.turn is None:
            break
        step(match)
    raise AssertionError("no such view in the match")


def train_app(*, seed: int = 3, players: int = 2, ascii: bool = False, theme: str | None = None,
              name: str = "Ana", rules: Rules = MEXICAN_TRAIN) -> CapicuApp:
    """A solo Mexican Train game against computers that move at once (pace 0), by the seed's rules
    unless ``rules`` says otherwise."""
    request = SoloGame(rules, players, "normal", seed=seed, name=name, pace=0.0)
    return CapicuApp(DisplayOptions(ascii=ascii, theme=theme, mouse=False), request)


def table_view(app: CapicuApp) -> MexicanView | None:
    model = app.table
    return model.view if model is not None and isinstance(model.view, MexicanView) else None


def my_train_turn(app: CapicuApp) -> bool:
    view = table_view(app)
    return (isinstance(app.screen, MexicanTableScreen) and bool(app.screen.query(HandView))
            and view is not None and view.is_my_turn and bool(view.legal))


def train_round_over(app: CapicuApp) -> bool:
    view = table_view(app)
    return (isinstance(app.screen, MexicanTableScreen) and bool(app.screen.query(HandView))
            and view is not None and view.turn is None)


async def cursor_to(pilot: Pilot[Any], app: CapicuApp, tile: object) -> None:
    """Walk the hand's cursor to ``tile`` by keys."""
    await walk_cursor(pilot, app, tile)


async def lay_run(pilot: Pilot[Any], app: CapicuApp, view: MexicanView) -> tuple[Any, ...]:
    """Lay a run by keys (each next tile the engine offers, no double last), and end it; the run."""
    screen = app.screen
    assert isinstance(screen, MexicanTableScreen)
    laid: list[Any] = []
    while True:
        steps = run_steps(view, tuple(laid))
        if not steps:
            break
        tile = next((t for t in steps if not t.is_double), steps[0])
        await cursor_to(pilot, app, tile)
        await pilot.press("enter" if not laid else "space")
        laid.append(tile)
        if tile.is_double:
            continue
        if len(laid) >= 3:
            break
    assert screen.run == tuple(laid)
    await pilot.press("enter")
    return tuple(laid)


async def take_train_turn(pilot: Pilot[Any], app: CapicuApp) -> None:
    """Take my turn by keys: a short opening run, else the first play listed, else draw or pass."""
    view = table_view(app)
    assert view is not None and view.seat is not None
    if view.may_run and run_steps(view, ()):
        await lay_run(pilot, app, view)
    else:
        screen = app.screen
        assert isinstance(screen, MexicanTableScreen)
        # A double laid stays on the screen (the turn goes on): lay on until the turn is sent.
        for _ in range(20):
            turn = screen.turn_view(view)
            plays = [a for a in turn.legal if isinstance(a, Play)]
            if plays:
                await cursor_to(pilot, app, plays[0].tile)
                await pilot.press("enter")
                await pilot.pause()
                if screen.choosing is not None:
                    place = plays[0].place
                    assert isinstance(place, Train)
                    await pilot.press(lane_keys(view)[place])
                    await pilot.pause()
                if screen.sending or not screen.laid:
                    break
            elif DRAW in turn.legal:
                await pilot.press("d")
                break
            elif PASS in turn.legal:
                await pilot.press("p")
                break
    model = app.table
    assert model is not None
    await wait_for(pilot, lambda: model.view is not view, what="the host's answer")


async def next_train_turn(pilot: Pilot[Any], app: CapicuApp) -> None:
    """My turn by keys, or Enter for the next deal after a round."""
    await wait_for(pilot, lambda: my_train_turn(app) or train_round_over(app), what="my turn")
    if train_round_over(app):
        screen = app.screen
        await wait_for(pilot, lambda: getattr(screen, "takes_ready", False), what="the round end")
        await pilot.press("enter")
        await wait_for(pilot, lambda: not train_round_over(app), what="the next round")
    else:
        await take_train_turn(pilot, app)


def deal_by_hand(monkeypatch: Any, rules: Rules, hands: list[str], stock: str = "", *,
                 first: int = 0) -> None:
    """The next match of ``rules`` and these seats is dealt the tiles written first (the engine to
    nobody unless a hand holds it), the boneyard ``stock`` first; ``first`` is the seat drawn to play
    first when nobody holds the engine. Later deals are the seed's. (A recorded deal, as a log's.)"""
    from capicu.core import Tile, tile_set

    tiles = tile_set(rules.max_pip)
    named = [Tile.parse(t) for hand in hands for t in hand.split()]
    drawn = [Tile.parse(t) for t in stock.split()]
    rest = [t for t in tiles.tiles if t not in set(named) | set(drawn)]
    order = [tiles.index[t] for t in named + drawn + rest]
    seed_init = MexicanMatch.__init__
    dealt: list[bool] = []

    def init(match: MexicanMatch, rules_: Any, players: int, seed: int = 0, *,
             deals: list[tuple[list[int], int]] | None = None, pause_between_rounds: bool = False) -> None:
        if deals is None and not dealt and players == len(hands) and rules_.max_pip == rules.max_pip:
            dealt.append(True)
            deals = [(list(order), first)]
        seed_init(match, rules_, players, seed, deals=deals, pause_between_rounds=pause_between_rounds)

    monkeypatch.setattr(MexicanMatch, "__init__", init)
