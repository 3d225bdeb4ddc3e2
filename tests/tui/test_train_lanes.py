"""The lanes of Mexican Train (tui/widgets/train_lanes.py), drawn from views of a real `MexicanMatch`."""

from __future__ import annotations

import pytest
from capicu.core import Play
from capicu.core.actions import MEXICAN, Train
from capicu.tui.widgets.train_lanes import TrainLanes, lane_order, lanes_from_view
from helpers_train import train_view, view_where
from widget_harness import WidgetApp


def _names(players: int) -> list[str]:
    return ["Ana", "Pepe", "Luis", "Carla", "Beto", "Dana", "Eva", "Fito"][:players]


async def _rows(view, width: int, *, ascii: bool = False, playable=frozenset(), counts=None) -> list[str]:
    lanes = TrainLanes(ascii=ascii)
    app = WidgetApp(lambda: [lanes])
    async with app.run_test(size=(width, 24)) as pilot:
        lanes.update_lanes(lanes_from_view(view, _names(view.players), playable=playable, counts=counts),
                           view.engine)
        await pilot.pause()
        return [row.plain for row in lanes.rows(width)]


def test_the_lanes_stand_mexican_first_then_yours_then_the_others_in_turn_order():
    view = train_view(5, 0, seat=3)
    assert lane_order(view) == [MEXICAN, Train(3), Train(4), Train(0), Train(1), Train(2)]
    lanes = lanes_from_view(view, _names(5))
    assert [lane.key for lane in lanes] == ["m", "1", "2", "3", "4", "5"]
    assert lanes[1].me and not any(lane.me for lane in lanes[2:])


async def test_eight_players_lanes_fit_80_columns_and_fold_their_older_tiles():
    view = view_where(8, lambda v: max(len(t.tiles) for t in v.trains) >= 9)
    rows = await _rows(view, 80)
    assert len(rows) == 10  # the engine's row, the Mexican train and eight seats
    assert all(len(row) <= 80 for row in rows)
    assert f"engine [{view.engine.low}|{view.engine.high}]" in rows[0]
    longest = max(view.trains, key=lambda t: len(t.tiles))
    lane = next(row for row in rows[1:] if row.split("│")[0].rstrip().endswith(f"{len(longest.tiles):>3}"))
    shown = lane.split("│", 1)[1]
    folded = int(shown.split()[0].lstrip("+"))
    assert folded > 0 and shown.count("[") + folded == len(longest.tiles)
    assert shown.rstrip().endswith(f"→{longest.head:>2}")


async def test_a_wider_window_shows_more_of_each_lane():
    view = view_where(4, lambda v: max(len(t.tiles) for t in v.trains) >= 12)
    narrow, wide = await _rows(view, 80), await _rows(view, 160)
    assert sum(r.count("[") for r in wide) > sum(r.count("[") for r in narrow)
    assert "+" not in "".join(r.split("│", 1)[-1] for r in wide[1:])


async def test_markers_up_and_the_open_double_are_marked_and_the_lanes_lit_are_yours_to_play():
    view = view_where(3, lambda v: v.open_double is not None and any(t.marker for t in v.trains[:3]))
    playable = frozenset(a.place for a in view.legal if isinstance(a, Play))
    rows = await _rows(view, 80, playable=playable)
    lanes = lanes_from_view(view, _names(3), playable=playable)
    for lane, row in zip(lanes, rows[1:], strict=True):
        assert ("▲" in row.split("│")[0]) == lane.marker
        assert ("cover!" in row) == (view.open_double == lane.train)
        assert lane.playable == (lane.train in playable)


@pytest.mark.parametrize("players", [2, 8])
async def test_ascii_lanes_are_ascii(players: int):
    view = train_view(players, 40)
    rows = await _rows(view, 80, ascii=True)
    assert all(row.isascii() for row in rows)
    assert all("|" in row for row in rows[1:]) and all("->" in row for row in rows[1:])


async def test_the_round_end_shows_each_hand_count_in_its_lane():
    view = view_where(2, lambda v: v.turn is None and bool(v.results), pause=True)
    result = view.results[-1]
    rows = await _rows(view, 80, counts=result.counts)
    for seat, count in enumerate(result.counts):
        lane = rows[2 + seat]  # seat 0's view: yours first
        assert f"={count}" in lane and f"{result.totals[seat]}" in lane


async def test_every_tile_of_the_lanes_is_padded_alike():
    """Issue 31: ``[12| 8][8|7]``: a tile with a two-digit number was padded, the next one not.
    Every tile shows its numbers as they are (``[12|8][8|7]``), so that a lane holds the most tiles."""
    import re

    view = view_where(4, lambda v: any(max(t) < 10 for train in v.trains for t in train.tiles)
                      and any(max(t) >= 10 for train in v.trains for t in train.tiles))
    rows = await _rows(view, 160)
    tiles = [tile for row in rows for tile in re.findall(r"\[[^\]]*\]", row)]
    assert tiles and not [tile for tile in tiles if " " in tile], rows
    assert {len(tile) for tile in tiles} >= {5, 6}  # [8|7] and [12|8]
