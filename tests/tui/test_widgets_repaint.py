"""Widgets repaint only the cells that changed (bytes matter over SSH)."""

from __future__ import annotations

from typing import Any

from capicu.core import End, Play, Tile
from capicu.tui.widgets.hand_view import HandView
from capicu.tui.widgets.line_of_play import LineOfPlay
from capicu.tui.widgets.repaint import changed_regions
from capicu.tui.widgets.seat_panel import SeatPanel, SeatView
from hypothesis import given
from hypothesis import strategies as st
from rich.console import Console
from rich.text import Text
from textual.geometry import Region
from widget_harness import SIZE, WidgetApp

CONSOLE = Console()


def test_changed_regions_finds_the_changed_cells_only() -> None:
    old = [Text("[1|2][2|3] right"), Text("same")]
    new = [Text("[1|2][2|3][3|4] right"), Text("same")]
    assert changed_regions(old, new, 40) == [Region(10, 0, 11, 1)]
    assert changed_regions(old, old, 40) == []
    assert changed_regions(old, new[:1], 40) is None  # height changed: a layout, not a repaint


def test_a_style_change_is_a_change_and_far_apart_changes_stay_apart() -> None:
    old = Text("[1|2] [3|4] [5|6] [0|0]")
    new = old.copy()
    new.stylize("bold", 0, 5)
    new.stylize("bold", 18, 23)
    assert changed_regions([old], [new], 40) == [Region(0, 0, 5, 1), Region(18, 0, 5, 1)]


@given(
    st.lists(st.tuples(st.text("ab[]|", max_size=12), st.sampled_from(["", "bold", "red"])), max_size=6),
    st.lists(st.tuples(st.text("ab[]|", max_size=12), st.sampled_from(["", "bold", "red"])), max_size=6),
)
def test_every_changed_cell_is_inside_a_region(old_pieces: list[tuple[str, str]],
                                                new_pieces: list[tuple[str, str]]) -> None:
    def row(pieces: list[tuple[str, str]]) -> Text:
        text = Text()
        for plain, style in pieces:
            text.append(plain, style)
        return text

    old, new = row(old_pieces), row(new_pieces)
    regions = changed_regions([old], [new], 80)
    assert regions is not None
    longest = max(len(old), len(new))
    for x in range(longest):
        before = (old.plain[x:x + 1], str(old.get_style_at_offset(CONSOLE, x)) if x < len(old) else "")
        after = (new.plain[x:x + 1], str(new.get_style_at_offset(CONSOLE, x)) if x < len(new) else "")
        if before != after:
            assert any(r.contains(x, 0) for r in regions), (x, old, new, regions)


def _spy(widget: Any) -> list[tuple[Region | str, ...]]:
    calls: list[tuple[Region | str, ...]] = []
    original = widget.refresh

    def refresh(*regions: Region, **kwargs: Any) -> Any:
        calls.append(regions if not kwargs.get("layout") else ("layout",))
        return original(*regions, **kwargs)

    widget.refresh = refresh
    return calls


def _regions(calls: list[tuple[Region | str, ...]]) -> list[Region]:
    """The regions refreshed; fails on a whole-widget refresh or a layout."""
    regions = [region for call in calls for region in call]
    assert regions and all(isinstance(r, Region) for r in regions), calls
    return [r for r in regions if isinstance(r, Region)]


async def test_a_cursor_move_repaints_two_tiles_not_the_hand() -> None:
    hand = HandView()
    app = WidgetApp(lambda: [hand])
    async with app.run_test(size=SIZE) as pilot:
        hand.update_hand((Tile(1, 2), Tile(3, 4), Tile(5, 6), Tile(0, 0)), (Play(Tile(1, 2), End.LEFT),))
        hand.focus()
        await pilot.pause()
        calls = _spy(hand)
        await pilot.press("right")
        await pilot.pause()
        regions = _regions(calls)
        assert sum(r.area for r in regions) <= 2 * (5 + 1) * 2  # two tiles and their cursor marks


async def test_the_marker_row_is_blank_but_for_the_cursor_and_new_tiles() -> None:
    # Textual rewrites a changed row from the widget's left edge, one colour code a styled run:
    # blank marks styled one by one cost ~50 bytes a tile on every cursor move over SSH.
    hand = HandView()
    app = WidgetApp(lambda: [hand])
    tiles = tuple(Tile(low, high) for low, high in ((0, 1), (1, 2), (2, 3), (3, 4), (4, 5), (5, 6), (0, 6)))
    async with app.run_test(size=SIZE) as pilot:
        hand.update_hand(tiles, tuple(Play(tile, End.LEFT) for tile in tiles))
        hand.cursor = 4
        await pilot.pause()
        marks = hand.render().split("\n")[1]
        assert [(span.start, span.end) for span in marks.spans] == [(24, 29)], marks.spans  # the cursor's
        assert marks.plain[24:29] == "▔" * 5 and not marks.plain[:24].strip()
        hand.fresh = frozenset({tiles[0]})
        await pilot.pause()
        marks = hand.render().split("\n")[1]
        assert [(span.start, span.end) for span in marks.spans] == [(0, 5), (24, 29)], marks.spans


async def test_a_tile_on_the_right_end_repaints_the_end_only() -> None:
    line = LineOfPlay()
    app = WidgetApp(lambda: [line])
    async with app.run_test(size=SIZE) as pilot:
        line.update_line(((1, 2), (2, 3), (3, 4)), (1, 4))
        await pilot.pause()
        calls = _spy(line)
        line.update_line(((1, 2), (2, 3), (3, 4), (4, 5)), (1, 5))
        await pilot.pause()
        regions = _regions(calls)
        assert min(r.x for r in regions) >= len("left 1 [1|2][2|3]")


async def test_a_ticking_timer_repaints_its_digits() -> None:
    panel = SeatPanel(SeatView(1, "Beto", 7, 0, turn=True))
    app = WidgetApp(lambda: [panel])
    async with app.run_test(size=SIZE) as pilot:
        panel.timer = 30
        await pilot.pause()
        calls = _spy(panel)
        panel.timer = 29
        await pilot.pause()
        assert all(r.y == 2 and r.width <= 2 for r in _regions(calls))
