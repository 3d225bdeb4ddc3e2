"""Mexican Train's table driven with Pilot against a real in-process host (issue 22).

The opening run built on the screen (grow, take back, refused on a double, end), choosing a lane
for a tile that fits several trains, an open double to cover, the hint, a spectator's table, the
round's end and the match over.
"""

from __future__ import annotations

import re
from typing import Any

import msgspec
import pytest
from capicu.core import MexicanView, Play, Rules, Tile
from capicu.core.actions import MEXICAN, Train
from capicu.core.mexican.events import MexicanTilePlayed
from capicu.core.mexican.refusals import run_steps
from capicu.net.host.server import Host, HostConfig
from capicu.net.host.table import TableConfig
from capicu.tui.app import CapicuApp
from capicu.tui.game import DisplayOptions, JoinGame, SoloGame
from capicu.tui.screens.mexican_match_over import MexicanMatchOverScreen
from capicu.tui.screens.mexican_table import MexicanTableScreen
from capicu.tui.screens.rules_keys import RulesKeysScreen
from capicu.tui.widgets.event_log import EventLog
from capicu.tui.widgets.hand_view import HandView
from capicu.tui.widgets.status_line import StatusLine
from capicu.tui.widgets.train_lanes import TrainLanes, lane_keys
from helpers_app import screen_text, wait_for
from helpers_train import (
    MEXICAN_TRAIN,
    cursor_to,
    deal_by_hand,
    my_train_turn,
    next_train_turn,
    table_view,
    take_train_turn,
    train_app,
    train_round_over,
)
from textual.widgets import Static

SIZE = (80, 24)


def _status(app: object) -> str:
    screen = app.screen  # type: ignore[attr-defined]
    status = screen.query_one(StatusLine)
    return str(status.notice or status.prompt)


def _log(app: object) -> str:
    screen = app.screen  # type: ignore[attr-defined]
    return "\n".join(strip.text for strip in screen.query_one(EventLog).lines)


def _offered(app: object) -> list[str]:
    """The footer's keys now: the descriptions of the shown bindings the screen allows."""
    screen = app.screen  # type: ignore[attr-defined]
    return [active.binding.description for active in screen.active_bindings.values()
            if active.enabled and active.binding.show and active.binding.description]


def _my_lane_tiles(app: object) -> tuple[tuple[int, int], ...]:
    screen = app.screen  # type: ignore[attr-defined]
    lanes = screen.query_one(TrainLanes).lanes
    return next(lane.tiles for lane in lanes if lane.me)


async def test_the_opening_run_grows_is_taken_back_refused_on_a_double_and_sent_whole():
    # Seed 5: seat 0 plays first and holds 11-12 and 11-11 (a double that may go second).
    app = train_app(seed=5)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: my_train_turn(app), what="my first turn")
        screen = app.screen
        assert isinstance(screen, MexicanTableScreen)
        view = table_view(app)
        assert view is not None and view.may_run
        first, double = Tile(11, 12), Tile(11, 11)
        assert first in run_steps(view, ()) and double in run_steps(view, (first,))
        await cursor_to(pilot, app, first)
        await pilot.press("enter")
        assert screen.run == (first,)
        assert _my_lane_tiles(app) == ((12, 11),)
        await cursor_to(pilot, app, double)
        await pilot.press("space")
        assert screen.run == (first, double)
        assert _my_lane_tiles(app) == ((12, 11), (11, 11))
        await pilot.press("enter")  # a run may not end on a double: nothing is sent
        await pilot.pause()
        assert "may not end on a double (11-11)" in _status(app)
        assert table_view(app) is view and screen.run == (first, double)
        await pilot.press("escape")  # takes back the double, not the table
        assert screen.run == (first,) and isinstance(app.screen, MexicanTableScreen)
        assert _my_lane_tiles(app) == ((12, 11),)
        # The refusal is no longer true: the status line says the run as it is now.
        assert "double" not in _status(app) and "Run of 1" in _status(app)
        await pilot.press("enter")  # ends the run of one tile: sent as one action
        model = app.table
        assert model is not None
        await wait_for(pilot, lambda: model.view is not view, what="the run laid")
        laid = table_view(app)
        assert laid is not None and laid.trains[0].tiles[:1] == ((12, 11),)
        assert screen.run == ()
        assert "You play 11-12 on your train." in _log(app)


async def test_a_computers_opening_run_is_told_in_one_line_once_it_ends():
    # Seed 7: I was dealt the engine and laid it; the three computers open before my first turn.
    app = train_app(seed=7, players=4)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: my_train_turn(app), what="my first turn")
        view = table_view(app)
        assert view is not None
        laid = [e for e in view.events if isinstance(e, MexicanTilePlayed) and e.seat != 0]
        runs = {e.seat for e in laid}
        assert any(sum(e.seat == s for e in laid) > 1 for s in runs), "a computer laid a run"
        log = " ".join(_log(app).split())  # lines as written, not as wrapped
        # One line per computer's run, naming every tile of it, and a double within
        # the run is not news of a cover.
        for seat in runs:
            tiles = [str(e.tile) for e in laid if e.seat == seat]
            said = f"Computer {seat + 1} plays {', '.join(tiles[:-1])} and {tiles[-1]} on their own train."
            assert said in log
        assert "covered" not in log


async def test_a_tile_that_fits_several_trains_asks_which_and_a_lane_key_chooses():
    app = train_app(seed=5)
    async with app.run_test(size=SIZE) as pilot:

        def several() -> bool:
            view = table_view(app)
            if view is None or not my_train_turn(app):
                return False
            places: dict[Tile, set[object]] = {}
            for action in view.legal:
                if isinstance(action, Play):
                    places.setdefault(action.tile, set()).add(action.place)
            return any(len(p) > 1 for p in places.values())

        for _ in range(40):
            await wait_for(pilot, lambda: my_train_turn(app) or train_round_over(app), what="my turn")
            if several():
                break
            await next_train_turn(pilot, app)
        else:
            raise AssertionError("no tile fitting two trains came")
        view = table_view(app)
        assert view is not None
        screen = app.screen
        assert isinstance(screen, MexicanTableScreen)
        plays = [a for a in view.legal if isinstance(a, Play)]
        tile = next(p.tile for p in plays if sum(q.tile == p.tile for q in plays) > 1)
        trains = {p.place for p in plays if p.tile == tile}
        await cursor_to(pilot, app, tile)
        await pilot.press("enter")
        assert screen.choosing is not None and set(screen.choosing[1]) == trains
        assert "which train?" in _status(app) and "Esc" in _status(app)
        lit = {lane.train for lane in screen.query_one(TrainLanes).lanes if lane.playable}
        assert lit == trains
        await pilot.press("escape")  # another tile: nothing sent
        assert screen.choosing is None and table_view(app) is view
        await pilot.press("enter")
        target = sorted(trains, key=lambda t: t == MEXICAN)[-1]  # the Mexican train when offered
        await pilot.press(lane_keys(view)[target])
        model = app.table
        assert model is not None
        await wait_for(pilot, lambda: model.view is not view, what="the tile laid")
        after = table_view(app)
        assert after is not None
        assert any(isinstance(e, MexicanTilePlayed) and (e.seat, e.tile, e.train) == (0, tile, target)
                   for e in after.events)


async def test_the_hint_names_the_longest_run_then_a_tile_and_a_train_and_moves_the_cursor_there():
    app = train_app(seed=5)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: my_train_turn(app), what="my first turn")
        screen = app.screen
        assert isinstance(screen, MexicanTableScreen)
        hand = screen.query_one(HandView)
        await pilot.press("x")
        await wait_for(pilot, lambda: _status(app).startswith("Hint: "), what="the hint")
        text = _status(app)
        assert "the longest run your hand makes" in text, text
        run = [Tile.parse(word) for word in text.split("run ", 1)[1].split(" on your train")[0].split()]
        assert hand.selected == run[0]
        await pilot.press("enter")  # the hint's first tile laid on the screen
        await pilot.press("x")
        await wait_for(pilot, lambda: _status(app).startswith("Hint: "), what="the hint again")
        assert len(run) == 1 or hand.selected == run[1]
        await pilot.press("escape")
        await next_train_turn(pilot, app)  # a run laid
        await wait_for(pilot, lambda: my_train_turn(app), what="my second turn")
        view = table_view(app)
        assert view is not None
        await pilot.press("x")
        await wait_for(pilot, lambda: _status(app).startswith("Hint: "), what="the second hint")
        text = _status(app)
        if any(isinstance(a, Play) for a in view.legal):
            assert f"Hint: play {hand.selected} on " in text, text


async def test_my_sent_run_is_not_laid_again_while_the_next_seat_may_open():
    # Seen over SSH: once my run was sent, the next seat's own opening run could come (the view
    # says may_run for whoever's turn it is), so my run stayed on the screen on top of the tiles
    # the host laid: six tiles, three of them "-1". A computer that waits shows that moment.
    # Seed 2: the computer laid the engine; I open first, then it opens (its first turn still).
    request = SoloGame(MEXICAN_TRAIN, 2, "normal", seed=2, name="Ana", pace=60.0)
    app = CapicuApp(DisplayOptions(mouse=False), request)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: my_train_turn(app), what="my first turn")
        view = table_view(app)
        assert view is not None and view.may_run
        await cursor_to(pilot, app, run_steps(view, ())[0])
        await pilot.press("enter", "enter")  # a run of one tile, ended
        await wait_for(pilot, lambda: (v := table_view(app)) is not None and not v.is_my_turn,
                       what="the next seat's turn")
        view = table_view(app)
        assert view is not None and view.may_run  # the next seat may open now: the moment that went wrong
        await pilot.pause()
        lanes = app.screen.query_one(TrainLanes).lanes
        mine = next(lane for lane in lanes if lane.me)
        assert mine.tiles == view.train_of(Train(view.seat or 0)).tiles
        assert "|-1]" not in screen_text(app) and "[-1|" not in screen_text(app)


async def test_a_hint_longer_than_the_row_is_read_whole_at_80x24():
    # Seed 5: the longest run seat 0 can open with is long; its hint does not fit one 80-column row.
    app = train_app(seed=5)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: my_train_turn(app), what="my first turn")
        await pilot.pause()
        before = screen_text(app).splitlines()
        await pilot.press("x")
        await wait_for(pilot, lambda: _status(app).startswith("Hint: "), what="the hint")
        await pilot.pause()
        hint = _status(app)
        assert len(hint) > SIZE[0] - 2, hint  # longer than the status line's row
        rows = screen_text(app).splitlines()
        at = next(index for index, row in enumerate(rows) if row.strip().startswith("Hint: "))
        assert f"{rows[at].strip()} {rows[at + 1].strip()}" == hint, rows[at : at + 2]
        # The second row comes from the log's share: the lanes above and the hand below stay put.
        assert rows[: at - 2] == before[: at - 2]
        hand = app.screen.query_one(HandView)
        assert hand.region.bottom == SIZE[1] - 1
        # Back to the one-row prompt once the notice goes.
        app.screen.query_one(StatusLine).clear_notice()
        await pilot.pause()
        rows = screen_text(app).splitlines()
        assert not any(row.strip().startswith("Hint: ") for row in rows)
        assert app.screen.query_one(StatusLine).region.height == 1


async def test_an_open_double_is_loud_until_covered():
    app = train_app(seed=30, players=3)
    nothing_covers = False  # an open double came that nothing in my hand covered (drawn or passed)
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(120):
            await wait_for(pilot, lambda: my_train_turn(app) or train_round_over(app), what="my turn")
            view = table_view(app)
            if (view is not None and view.open_double is not None and not view.doubling
                    and my_train_turn(app)):  # another's double, left open
                if any(isinstance(a, Play) for a in view.legal):
                    if view.drawn is None:  # a cover in my hand (not only the tile the host drew me)
                        break
                    await next_train_turn(pilot, app)
                    continue
                # Nothing covers it: the one key offered is the one the status line names.
                nothing_covers = True
                assert "must be covered" in _status(app) and "Nothing covers it" in _status(app)
                assert "Play tile" not in _offered(app)
                assert len({"Draw", "Pass"} & set(_offered(app))) == 1, _offered(app)
            await next_train_turn(pilot, app)
        else:
            raise AssertionError("no open double came on my turn")
        assert view is not None and view.open_double is not None
        double = Tile(*view.train_of(view.open_double).tiles[-1])
        lanes = app.screen.query_one(TrainLanes)
        loud = [lane for lane in lanes.lanes if lane.cover == 1]
        assert [lane.train for lane in loud] == [view.open_double]
        assert "cover!" in screen_text(app)
        assert _status(app).startswith(f"{double} on ") and "must be covered" in _status(app)
        plays = [a for a in view.legal if isinstance(a, Play)]
        assert all(a.place == view.open_double for a in plays)
        # The footer offers only what covers it, and the hand lights only the tiles that do.
        hand = app.screen.query_one(HandView)
        covering = {a.tile for a in plays}
        assert {tile for tile in hand.hand if hand.plays_for(tile)} == covering
        if plays:
            assert "Play tile" in _offered(app)
            assert not {"Draw", "Pass"} & set(_offered(app)), _offered(app)
            others = [tile for tile in hand.hand if tile not in covering]
            if others:  # a tile that does not cover it is refused, and says why
                await cursor_to(pilot, app, others[0])
                await pilot.press("enter")
                assert _status(app).startswith(str(others[0])), _status(app)
                assert table_view(app) is view
        assert nothing_covers  # seed 30: the first open double on my turn found nothing in my hand
        if plays:
            await cursor_to(pilot, app, plays[0].tile)
            await pilot.press("enter")
            model = app.table
            assert model is not None
            await wait_for(pilot, lambda: model.view is not view, what="the cover")
            assert f"You covered the {double}." in _log(app)


async def test_a_key_not_allowed_says_why():
    app = train_app(seed=5)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: my_train_turn(app), what="my first turn")
        await pilot.press("d")
        assert "You must play" in _status(app)
        await pilot.press("p")
        assert "You cannot pass while" in _status(app)


async def test_a_spectator_sees_every_lane_and_no_hand():
    from capicu.net.host.server import Host, HostConfig
    from capicu.net.host.table import TableConfig
    from capicu.tui.app import CapicuApp
    from capicu.tui.game import DisplayOptions, JoinGame

    config = TableConfig(rules=Rules.preset_named("mexican-train"), players=3, computers=3, seed=5,
                         computer_delay=0.3)
    host = Host(HostConfig(config, bind="127.0.0.1", port=0, code=None))
    _, port = await host.start()
    try:
        watcher = CapicuApp(DisplayOptions(mouse=False), JoinGame("127.0.0.1", port, "Eve", spectate=True))
        async with watcher.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: isinstance(watcher.screen, MexicanTableScreen), steps=600,
                           what="the watcher's table")
            view = table_view(watcher)
            assert view is not None and view.seat is None and view.hand == ()
            lanes = watcher.screen.query_one(TrainLanes).lanes
            assert len(lanes) == 4 and lanes[0].train == MEXICAN
            assert [lane.train for lane in lanes[1:]] == [Train(0), Train(1), Train(2)]
            assert all(lane.state == "computer" for lane in lanes[1:])
            assert "You are watching." in watcher.screen.query_one(StatusLine).prompt
            await pilot.press("x")  # no hint for a spectator: the status line says why
            assert watcher.screen.query_one(StatusLine).notice == "You are watching."
            model = watcher.table
            assert model is not None
            seen = model.view
            await wait_for(pilot, lambda: model.view is not seen, what="a computer's move")
            assert "plays" in _log(watcher) or "drew" in _log(watcher)
    finally:
        await host.stop()


async def test_the_round_end_keeps_the_trains_and_shows_every_count_then_the_match_over_scrolls():
    from capicu.tui.app import CapicuApp
    from capicu.tui.game import DisplayOptions, SoloGame
    from msgspec.structs import replace

    rules = replace(Rules.preset_named("mexican-train"), rounds=1)
    app = CapicuApp(DisplayOptions(mouse=False), SoloGame(rules, 4, "normal", seed=5, name="Ana", pace=0.0))
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(200):
            await wait_for(pilot, lambda: my_train_turn(app) or train_round_over(app), what="my turn")
            if train_round_over(app):
                break
            await next_train_turn(pilot, app)
        view = table_view(app)
        assert isinstance(view, MexicanView) and view.match_over
        result = view.results[-1]
        lanes = app.screen.query_one(TrainLanes).lanes
        counts = {lane.train.owner: lane.count for lane in lanes if not lane.train.is_mexican}
        assert counts == dict(enumerate(result.counts))
        assert sum(len(lane.tiles) for lane in lanes) == sum(len(t.tiles) for t in view.trains)
        text = screen_text(app)
        assert "Round 1 is" in text
        screen = app.screen
        await wait_for(pilot, lambda: getattr(screen, "takes_ready", False), what="the round end")
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, MexicanMatchOverScreen), what="the final score")
        text = screen_text(app)
        assert "The match is over" in text and "Total" in text
        assert "wins the match" in text or "share the win" in text or "You win" in text


async def test_the_footer_names_the_space_key_in_the_readers_language():
    """Issue 31: the Spanish footer said "space" for the opening run's next tile."""
    for language, shown, other in (("es", "espacio", "space"), ("en", "space", "espacio")):
        request = SoloGame(Rules.preset_named("mexican-train"), 2, "normal", seed=5, name="Ana", pace=0.0,
                           journal=False)
        app = CapicuApp(DisplayOptions(mouse=False, language=language), request)
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda app=app: my_train_turn(app), what="my first turn")
            await cursor_to(pilot, app, Tile(11, 12))
            await pilot.press("enter")  # the run's first tile: Space lays the next
            await pilot.pause()
            footer = screen_text(app).splitlines()[-1]
            assert f"{shown} " in footer and other not in footer, footer


async def test_a_refusal_leaves_the_status_line_once_the_table_changes(monkeypatch):
    """Issue 31: "5-5 does not fit Computer 5's train, which shows 3" stayed after that train changed."""
    monkeypatch.setattr("capicu.tui.widgets.status_line.NOTICE_SECONDS", 3600.0)  # only a change clears it
    app = train_app(seed=5)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: my_train_turn(app), what="my first turn")
        await take_train_turn(pilot, app)  # the opening run
        for _ in range(30):  # a later turn with a tile to play: d is refused, then the tile is played
            await wait_for(pilot, lambda: my_train_turn(app), what="my turn")
            view = table_view(app)
            assert view is not None
            if any(isinstance(a, Play) for a in view.legal):
                break
            await take_train_turn(pilot, app)
        await pilot.press("d")
        assert "You must play" in _status(app)
        await take_train_turn(pilot, app)  # by keys that say nothing themselves (a tile, maybe its lane)
        await pilot.pause()
        assert "You must play" not in _status(app)


@pytest.mark.parametrize(("language", "own", "others"), [
    ("en", ["Take back", "Lay", "End run", "Lay it here", "Previous train", "That lane's train"],
     ["Left end"]),
    ("es", ["Quitar", "Terminar corrida", "Ponerla aquí", "Tren anterior"], ["Punta izquierda"]),
])
async def test_the_rules_and_keys_list_the_mexican_tables_own_keys(language: str, own: list[str],
                                                                   others: list[str]) -> None:
    # Issue 31 item 7: the Mexican table's keys screen listed the Draw family's end keys and none of its own.
    request = SoloGame(Rules.preset_named("mexican-train"), 2, "normal", seed=3, name="Ana", pace=0.0)
    app = CapicuApp(DisplayOptions(mouse=False, language=language), request)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: my_train_turn(app), what="my turn")
        await pilot.press("r")
        await wait_for(pilot, lambda: isinstance(app.screen, RulesKeysScreen), what="the rules and keys")
        await pilot.pause()
        keys = str(app.screen.query_one("#rules-keys", Static).render())
        assert all(word in keys for word in own), keys
        assert not any(word in keys for word in others), keys
        # The lanes' keys, each once, on one line: the same declaration binds them at the table.
        assert "1 / 2 / 3 / 4 / 5 / 6 / 7 / 8 / m" in keys, keys
        assert "h / 1" not in keys and "l / 2" not in keys


async def test_the_mexican_table_counts_the_turn_timer_down() -> None:
    # The turn timer is every table's (TableScreen): the lane of the seat on turn shows its seconds.
    rules = Rules.preset_named("mexican-train")
    config = TableConfig(rules=rules, players=2, computers=1, seed=5, turn_timer=30.0, computer_delay=0.0)
    host = Host(HostConfig(config, bind="127.0.0.1", port=0, code=None))
    _, port = await host.start()
    try:
        app = CapicuApp(DisplayOptions(mouse=False), JoinGame("127.0.0.1", port, "Ana", None))
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: my_train_turn(app), what="my turn")
            lanes = app.screen.query_one(TrainLanes)

            def seconds_shown() -> int | None:
                row = next(row.plain for row, lane in zip(lanes.rows(80)[1:], lanes.lanes, strict=True)
                           if lane.me)
                found = re.search(r"\b(\d+)s\b", row)
                return int(found.group(1)) if found else None

            await wait_for(pilot, lambda: seconds_shown() is not None, what="the turn timer in my lane")
            first = seconds_shown()
            assert first is not None and 25 <= first <= 30
            await wait_for(pilot, lambda: (seconds_shown() or first) < first, what="the countdown")
            others = [row.plain for row, lane in zip(lanes.rows(80)[1:], lanes.lanes, strict=True)
                      if not lane.me]
            assert not any(re.search(r"\b\d+s\b", row) for row in others), others
    finally:
        await host.stop()


async def test_the_mexican_table_counts_the_next_deal_down() -> None:
    # The next deal's countdown is every table's (TableScreen._break_prompt): said at Mexican Train's too.
    from msgspec.structs import replace

    rules = replace(Rules.preset_named("mexican-train"), rounds=4, max_pip=9)  # a short first round
    config = TableConfig(rules=rules, players=2, computers=1, seed=5, computer_delay=0.0,
                         next_round_delay=30.0)
    host = Host(HostConfig(config, bind="127.0.0.1", port=0, code=None))
    _, port = await host.start()
    try:
        app = CapicuApp(DisplayOptions(mouse=False), JoinGame("127.0.0.1", port, "Ana", None))
        async with app.run_test(size=SIZE) as pilot:
            for _ in range(200):
                await wait_for(pilot, lambda: my_train_turn(app) or train_round_over(app), what="my turn")
                if train_round_over(app):
                    break
                await next_train_turn(pilot, app)
            view = table_view(app)
            assert view is not None and view.between_rounds and not view.match_over
            found = re.compile(r"Next deal in (\d+) s\.")
            await wait_for(pilot, lambda: found.search(_status(app)) is not None, what="the countdown")
            match = found.search(_status(app))
            assert match is not None and 25 <= int(match.group(1)) <= 30
    finally:
        await host.stop()


# -- a turn of several doubles (issue 29) ------------------------------------------------------------

#: Double-nine, one round, two players: I open with 9-5 and lay 6-9 on the Mexican train; seat 1 (a
#: computer) holds no 9, 6, 5 or 2 and draws only tiles that do not fit, so on my third turn my train
#: shows 5 and the Mexican train 6, and I hold 5-5, 6-6 and 2-5: two doubles, then a cover.
NINE_ONE = msgspec.structs.replace(MEXICAN_TRAIN, max_pip=9, rounds=1)
DOUBLES_HANDS = ["9-5 6-9 5-5 6-6 2-5 0-1 0-3 1-3 3-3", "0-0 1-1 3-4 4-7 7-8 0-4 1-7 3-8 0-7"]
DOUBLES_STOCK = "1-4 3-7 0-8 4-4 8-8 1-8 4-8 7-7 0-2"


async def _to_my_doubles(pilot: Any, app: CapicuApp) -> MexicanView:
    """Open with 9-5, then 6-9 on the Mexican train: my turn with 5-5, 6-6 and 2-5 to lay."""
    await wait_for(pilot, lambda: my_train_turn(app), what="my first turn")
    await cursor_to(pilot, app, Tile(5, 9))
    await pilot.press("enter", "enter")  # a run of one tile
    await wait_for(pilot, lambda: my_train_turn(app) and not table_view(app).may_run,  # type: ignore[union-attr]
                   what="my second turn")
    await cursor_to(pilot, app, Tile(6, 9))
    await pilot.press("enter")
    screen = app.screen
    assert isinstance(screen, MexicanTableScreen)
    if screen.choosing is not None:  # seat 1's train is open too (its marker is up)
        await pilot.press("m")
    await wait_for(pilot, lambda: my_train_turn(app) and table_view(app).trains[-1].head == 6,  # type: ignore[union-attr]
                   what="my third turn")
    view = table_view(app)
    assert view is not None and view.trains[0].head == 5
    return view


async def test_two_doubles_then_a_cover_are_laid_by_keys_marked_in_order_and_sent_as_one_turn(monkeypatch):
    deal_by_hand(monkeypatch, NINE_ONE, DOUBLES_HANDS, DOUBLES_STOCK)
    app = train_app(rules=NINE_ONE, players=2)
    async with app.run_test(size=SIZE) as pilot:
        view = await _to_my_doubles(pilot, app)
        screen = app.screen
        assert isinstance(screen, MexicanTableScreen)
        await cursor_to(pilot, app, Tile(5, 5))
        await pilot.press("enter")  # 5-5 on my train: on the screen only, the turn stays mine
        assert screen.laid == (Play(Tile(5, 5), Train(0)),)
        assert table_view(app) is view  # nothing sent
        assert "Your doubles: 5-5" in _status(app) and "Esc takes back 5-5" in _status(app)
        await cursor_to(pilot, app, Tile(6, 6))
        await pilot.press("enter")  # 6-6 on the Mexican train
        assert screen.laid == (Play(Tile(5, 5), Train(0)), Play(Tile(6, 6), MEXICAN))
        lanes = {lane.train: lane for lane in screen.query_one(TrainLanes).lanes}
        assert (lanes[Train(0)].cover, lanes[MEXICAN].cover) == (1, 2)
        text = screen_text(app)
        assert "cover 1st" in text and "2nd" in text
        # The lane to cover is lit; the hand lights the cover only (no double is left to lay).
        assert {t for t, lane in lanes.items() if lane.playable} == {Train(0)}
        hand = screen.query_one(HandView)
        assert {tile for tile in hand.hand if hand.plays_for(tile)} == {Tile(2, 5)}
        assert hand.selected == Tile(2, 5)  # the cursor left where 6-6 was, for the one tile that may come
        assert "Cover 5-5 on your train" in _status(app) and table_view(app) is view
        await pilot.press("enter")  # the cover ends the turn: the three plays go to the host in order
        await wait_for(pilot, lambda: (v := table_view(app)) is not None and len(v.trains[0].tiles) == 3,
                       what="the turn laid")
        after = table_view(app)
        assert after is not None
        mine = [(e.tile, e.train) for e in after.events if isinstance(e, MexicanTilePlayed) and e.seat == 0]
        assert mine[-3:] == [(Tile(5, 5), Train(0)), (Tile(6, 6), MEXICAN), (Tile(2, 5), Train(0))]
        assert screen.laid == () and not screen.sending
        await wait_for(pilot, lambda: "6-6 on the Mexican train must be covered." in _log(app),
                       what="the double left open told")
        assert "You covered" not in _log(app)  # one's own cover in one's own turn is not news


async def test_esc_takes_back_the_last_double_laid_on_the_screen(monkeypatch):
    deal_by_hand(monkeypatch, NINE_ONE, DOUBLES_HANDS, DOUBLES_STOCK)
    app = train_app(rules=NINE_ONE, players=2)
    async with app.run_test(size=SIZE) as pilot:
        view = await _to_my_doubles(pilot, app)
        screen = app.screen
        assert isinstance(screen, MexicanTableScreen)
        await cursor_to(pilot, app, Tile(5, 5))
        await pilot.press("enter")
        await cursor_to(pilot, app, Tile(6, 6))
        await pilot.press("enter")
        assert len(screen.laid) == 2 and "Take back" in _offered(app)
        await pilot.press("escape")  # 6-6 back to the hand, the table stays
        assert screen.laid == (Play(Tile(5, 5), Train(0)),) and isinstance(app.screen, MexicanTableScreen)
        lanes = {lane.train: lane for lane in screen.query_one(TrainLanes).lanes}
        assert (lanes[Train(0)].cover, lanes[MEXICAN].cover) == (1, 0)
        assert "cover!" in screen_text(app) and Tile(6, 6) in screen.query_one(HandView).hand
        await pilot.press("escape")  # 5-5 back too: the turn as it began
        assert screen.laid == () and table_view(app) is view
        assert Tile(5, 5) in screen.query_one(HandView).hand
        assert all(lane.cover == 0 for lane in screen.query_one(TrainLanes).lanes)
        assert "cover!" not in screen_text(app) and "cover 1st" not in screen_text(app)
        assert isinstance(app.screen, MexicanTableScreen)  # Esc with nothing laid is leave's: not pressed


@pytest.mark.parametrize(("players", "seed", "said", "header"), [
    (4, 7, "You were dealt the engine, 12-12, and laid it.", "laid by you"),
    (2, 2, "Computer 2 was dealt the engine, 12-12, and laid it.", "laid by Computer 2"),
    (2, 5, "The engine, 12-12, came from the boneyard: nobody was dealt it.", "from the boneyard"),
])
async def test_who_laid_the_engine_is_told_in_the_log_and_beside_it(players, seed, said, header):
    app = train_app(seed=seed, players=players)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: my_train_turn(app), what="my first turn")
        await wait_for(pilot, lambda: said in " ".join(_log(app).split()), what="who laid the engine, told")
        first_row = screen_text(app).splitlines()[1]
        assert "engine [12|12] " + header in first_row, first_row


@pytest.mark.parametrize("laid", [1, 2])
async def test_the_hint_is_for_the_turn_as_the_doubles_laid_on_the_screen_leave_it(monkeypatch, laid):
    # 5-5 (and 6-6) laid on the screen, not sent: the hint is the engine's for the view after them
    # (`view_after`), never a double already laid; with both laid, only the cover 2-5 may come.
    from capicu.core.ai.mexican_hints import suggest_mexican
    from capicu.core.mexican.turn import view_after

    deal_by_hand(monkeypatch, NINE_ONE, DOUBLES_HANDS, DOUBLES_STOCK)
    app = train_app(rules=NINE_ONE, players=2)
    async with app.run_test(size=SIZE) as pilot:
        view = await _to_my_doubles(pilot, app)
        screen = app.screen
        assert isinstance(screen, MexicanTableScreen)
        for tile in (Tile(5, 5), Tile(6, 6))[:laid]:
            await cursor_to(pilot, app, tile)
            await pilot.press("enter")
        assert len(screen.laid) == laid and table_view(app) is view  # nothing sent
        turn = view_after(view, screen.laid)
        await pilot.press("x")
        await wait_for(pilot, lambda: _status(app).startswith("Hint: "), what="the hint")
        text = _status(app)
        hand = screen.query_one(HandView)
        for play in screen.laid:
            assert f"play {play.tile} " not in text, text
        hinted = next(tile for tile in turn.hand if f"play {tile} " in text)
        assert hand.selected == hinted
        assert any(isinstance(a, Play) and a.tile == hinted for a in turn.legal), (text, turn.legal)
        if laid == 2:
            assert [a for a in turn.legal if isinstance(a, Play)] == [Play(Tile(2, 5), Train(0))]
            assert text.startswith("Hint: play 2-5 on your train"), text
            assert suggest_mexican(turn, seed=turn.round_number).tile == Tile(2, 5)
        assert screen.laid and table_view(app) is view  # the hint sent nothing
