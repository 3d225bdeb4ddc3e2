"""The line of play laid out as on a table: a snake from the lead, ends labelled, the last tile marked."""

from __future__ import annotations

import itertools
import re
from typing import Any

from capicu.core import End, Match, Play, RoundEnded, Rules, TilePlayed
from capicu.tui.widgets.line_of_play import LineMarks, LineOfPlay, Snake, lay_snake, line_marks
from capicu.tui.widgets.tiles import TileStyle
from capicu.tui.words.messages import set_ascii
from hypothesis import given
from hypothesis import strategies as st
from rich.style import Style
from rich.text import Text
from textual.geometry import Region
from textual.pilot import Pilot
from textual.theme import Theme
from widget_harness import SIZE, WidgetApp, styled_app

Pair = tuple[int, int]

#: A whole double-6 line: 28 tiles end to end, seven doubles among them.
FULL_LINE: tuple[Pair, ...] = (
    (0, 0), (0, 1), (1, 1), (1, 2), (2, 2), (2, 3), (3, 3), (3, 4), (4, 4), (4, 5), (5, 5), (5, 6),
    (6, 6), (6, 0), (0, 2), (2, 4), (4, 6), (6, 1), (1, 3), (3, 5), (5, 0), (0, 3), (3, 6), (6, 2),
    (2, 5), (5, 1), (1, 4), (4, 0),
)
#: The content box the table gives the line at 80x24 (measured: 48x15; 14 leaves the lead room).
BOX_80x24 = (48, 14)
#: The content box the table gives the line at 200x60.
BOX_200x60 = (168, 48)
TILE = re.compile(r"\[ ?(\d+)\| ?(\d+)\]")


def _ends(line: tuple[Pair, ...]) -> Pair:
    return (line[0][0], line[-1][1])


def _boxed_app(line: LineOfPlay, box: tuple[int, int]) -> WidgetApp:
    """An app giving the line the content box the table would (its padding is one cell a side)."""
    return styled_app(lambda: [line], f"LineOfPlay {{ width: {box[0] + 2}; height: {box[1]}; }}")


def _plain(line: LineOfPlay) -> list[str]:
    return [row.plain for row in line.rows(line.content_size.width)]


def _drawn_tiles(rows: list[str]) -> dict[frozenset[int], tuple[int, int, int, Pair]]:
    """Each flat compact tile drawn: (row, first column, last column + 1, numbers as read)."""
    found = {}
    for y, row in enumerate(rows):
        for match in TILE.finditer(row):
            pair = (int(match[1]), int(match[2]))
            key = frozenset(pair)
            assert key not in found, f"{pair} drawn twice"
            found[key] = (y, match.start(), match.end(), pair)
    return found


def _spy(widget: Any) -> list[tuple[Region | str, ...]]:
    calls: list[tuple[Region | str, ...]] = []
    original = widget.refresh

    def refresh(*regions: Region, **kwargs: Any) -> Any:
        calls.append(regions if regions and not kwargs.get("layout") else ("whole",))
        return original(*regions, **kwargs)

    widget.refresh = refresh
    return calls


def _round_lines(seed: int, players: int = 2) -> list[tuple[tuple[Pair, ...], Pair | None, LineMarks]]:
    """A real first round, a play on each end in turn where it can: the line and its marks after each tile."""
    match = Match(Rules.preset_named("puerto-rican-drawing"), players, seed=seed)
    states = []
    wanted = End.RIGHT
    while match.turn is not None and match.round_number == 1:
        legal = match.legal_actions()
        plays = [a for a in legal if isinstance(a, Play)]
        chosen = next((p for p in plays if p.end is wanted), plays[0] if plays else legal[0])
        events = match.apply(chosen)
        if isinstance(chosen, Play):
            wanted = End.LEFT if wanted is End.RIGHT else End.RIGHT
        view = match.view(0)
        if view.round_number != 1 or not any(isinstance(e, TilePlayed) for e in events):
            continue
        states.append((view.line, view.ends, line_marks(view.events)))
    return states


# -- line_marks: where the lead and the last tile are --------------------------------


@given(st.integers(0, 10_000), st.sampled_from([2, 3]))
def test_line_marks_find_the_lead_and_the_last_tile_in_a_real_round(seed: int, players: int) -> None:
    match = Match(Rules.preset_named("puerto-rican-drawing"), players, seed=seed)
    first = last = None
    for _ in range(40):
        if match.turn is None or match.round_number != 1:
            break
        legal = match.legal_actions()
        action = legal[(seed + len(match.view(None).line)) % len(legal)]
        for event in match.apply(action):
            if isinstance(event, TilePlayed) and match.round_number == 1:
                first = first or event
                last = event
        if match.round_number != 1:
            break
        view = match.view(None)
        marks = line_marks(view.events)
        if first is None or last is None:
            assert marks == LineMarks(0, None, None)
            continue
        assert set(view.line[marks.lead]) == {first.tile.low, first.tile.high}
        assert marks.last is not None and set(view.line[marks.last]) == {last.tile.low, last.tile.high}
        assert marks.last_seat == last.seat
        assert marks.last in (0, len(view.line) - 1)  # a tile is only ever laid at an end


def test_at_the_end_of_a_round_the_marks_point_at_the_tile_that_ended_it() -> None:
    for seed in range(6):
        match = Match(Rules.preset_named("puerto-rican-drawing"), 2, seed=seed)
        events = list(match.opening_events)
        while not any(isinstance(e, RoundEnded) for e in events):
            legal = match.legal_actions()
            plays = [a for a in legal if isinstance(a, Play)]
            events += match.apply(plays[-1] if plays else legal[0])
        ended = next(i for i, e in enumerate(events) if isinstance(e, RoundEnded))
        result = events[ended].result  # type: ignore[union-attr]
        marks = line_marks(events[:ended + 1])
        plays_made = [e for e in events[:ended] if isinstance(e, TilePlayed)]
        assert marks.last_seat == result.last_player
        assert plays_made[-1].tile == result.last_tile
        laid_left = sum(e.end is End.LEFT for e in plays_made[1:])
        assert marks.lead == laid_left
        on_left = plays_made[-1].end is End.LEFT and len(plays_made) > 1
        assert marks.last == (0 if on_left else len(plays_made) - 1)


# -- the snake, as pure geometry ----------------------------------------------------------


def _lanes(snake: Snake, widths: list[int]) -> dict[int, list[tuple[int, int]]]:
    lanes: dict[int, list[tuple[int, int]]] = {}
    for spot, w in zip(snake.spots, widths, strict=True):
        lanes.setdefault(spot.lane, []).append((spot.x, spot.x + w))
    return lanes


@given(
    st.lists(st.tuples(st.sampled_from([3, 5, 7]), st.booleans()), min_size=1, max_size=60),
    st.integers(30, 170),
)
def test_a_laid_tile_never_moves_and_tiles_never_overlap(plays: list[tuple[int, bool]], width: int) -> None:
    widths: list[int] = []
    lead = 0
    before: list[Any] = []
    for w, on_left in plays:
        if widths and on_left:
            widths.insert(0, w)
            lead += 1
            before = [None, *before]
        else:
            widths.append(w)
            before = [*before, None]
        doubles = {i for i, w in enumerate(widths) if w == 3}
        snake = lay_snake(widths, lead, width, labels=(7, 8), spaced=doubles)
        assert snake.spots[lead].x == (width - widths[lead]) // 2 and snake.spots[lead].lane == 0
        for old, new in zip(before, snake.spots, strict=True):
            assert old is None or old == new
        before = list(snake.spots)
        for spans in _lanes(snake, widths).values():
            spans.sort()
            assert all(a[1] <= b[0] for a, b in itertools.pairwise(spans))
            assert not snake.fits or (spans[0][0] >= 0 and spans[-1][1] <= width)
        for bend in snake.bends:
            for lane in (bend.lane, bend.lane + 1):
                assert all(not a <= bend.x < b for a, b in _lanes(snake, widths).get(lane, []))


def test_the_right_arm_bends_down_and_back_the_left_arm_up_and_back() -> None:
    widths = [5] * 21
    snake = lay_snake(widths, 10, 40, labels=(7, 8))
    right = [snake.spots[i] for i in range(10, 21)]
    left = [snake.spots[i] for i in range(10, -1, -1)]
    assert [s.lane for s in right] == sorted(s.lane for s in right) and right[-1].lane > 0
    assert [s.lane for s in left] == sorted((s.lane for s in left), reverse=True) and left[-1].lane < 0
    for arm, outwards in ((right, 1), (left, -1)):
        for a, b in itertools.pairwise(arm):
            if a.lane == b.lane:
                # Along a row the arm keeps its way: outwards on the lead's row, then back and forth.
                way = outwards if a.lane % 2 == 0 else -outwards
                assert (b.x - a.x) * way > 0
                assert b.backwards == (way != outwards)
            else:
                assert b.lane - a.lane == outwards
                assert b.x + 5 == a.x + 5 or b.x == a.x  # the new row starts under (over) its tile
    assert {bend.right for bend in snake.bends if bend.lane == 0} == {True}  # right arm, at the right
    assert {bend.right for bend in snake.bends if bend.lane == -1} == {False}  # left arm, at the left


# -- the widget --------------------------------------------------------------------------


async def test_the_lead_stays_put_and_a_new_tile_repaints_only_near_it() -> None:
    states = _round_lines(seed=5)
    assert {m.lead for _, _, m in states} != {0}  # tiles went on the left of the lead too
    line = LineOfPlay()
    line.crosswise = False  # the lead is a double: flat, it reads as [6|6]
    app = _boxed_app(line, BOX_80x24)
    async with app.run_test(size=SIZE) as pilot:
        where = None
        checked = 0
        for tiles, ends, marks in states:
            calls = _spy(line)
            line.update_line(tiles, ends, lead=marks.lead, last=marks.last, last_label="Ana")
            await pilot.pause()
            drawn = _drawn_tiles(_plain(line))
            lead = frozenset(tiles[marks.lead])
            if where is not None:
                assert drawn[lead][:3] == where
                regions = [r for call in calls for r in call]
                assert regions and all(isinstance(r, Region) for r in regions)  # never the whole line
                assert sum(r.area for r in regions if isinstance(r, Region)) <= 4 * 12
                checked += 1
            where = drawn[lead][:3]
        assert checked >= len(states) - 1


async def test_a_double_laid_in_a_fixed_space_repaints_only_its_own_rows() -> None:
    line = LineOfPlay()
    app = styled_app(lambda: [line], "LineOfPlay { height: 8; }")
    async with app.run_test(size=SIZE) as pilot:
        line.update_line(((1, 2), (2, 3)), (1, 3))
        await pilot.pause()
        axis = next(y for y, row in enumerate(_plain(line)) if "[1|2]" in row)
        calls = _spy(line)
        line.update_line(((1, 2), (2, 3), (3, 3)), (1, 3))  # it stands across the line: three rows
        await pilot.pause()
        regions = [r for call in calls for r in call]
        assert regions and all(isinstance(r, Region) for r in regions)
        assert {r.y for r in regions if isinstance(r, Region)} == {axis - 1, axis, axis + 1}


async def test_touching_numbers_match_on_every_row_and_each_row_goes_on_under_the_last() -> None:
    for lead in (0, 9, 14, 27):
        line = LineOfPlay()
        line.crosswise = False
        app = _boxed_app(line, BOX_80x24)
        async with app.run_test(size=SIZE) as pilot:
            line.update_line(FULL_LINE, (0, 0), lead=lead)
            await pilot.pause()
            rows = _plain(line)
            drawn = _drawn_tiles(rows)
            assert len(drawn) == len(FULL_LINE)  # every tile, none split across rows
            for (a, b), (c, d) in itertools.pairwise(FULL_LINE):
                y1, start1, end1, shown1 = drawn[frozenset((a, b))]
                y2, start2, end2, shown2 = drawn[frozenset((c, d))]
                if y1 == y2:
                    left, right = (shown1, shown2) if start1 < start2 else (shown2, shown1)
                    assert left[1] == right[0], rows  # touching numbers match
                    assert end1 == start2 or end2 == start1
                else:
                    assert abs(y1 - y2) == 2
                    assert start1 == start2 or end1 == end2  # under (or over) the tile it goes on from


async def test_each_end_label_sits_on_its_tiles_row_beside_it() -> None:
    for lead in (0, 5, 14, 27):
        line = LineOfPlay()
        app = _boxed_app(line, BOX_80x24)
        async with app.run_test(size=SIZE) as pilot:
            tiles = FULL_LINE[:20]
            line.update_line(tiles, _ends(tiles), lead=lead)
            await pilot.pause()
            rows = _plain(line)
            left = [r for r in rows if "left 0" in r]
            right = [r for r in rows if "5 right" in r]
            assert len(left) == len(right) == 1
            assert re.search(r"left 0 (\[0\|0\]|├─┤)|(\[0\|0\]|├─┤) left 0", left[0]), rows
            assert re.search(r"5 right \[5\|3\]|\[3\|5\] 5 right", right[0]), rows


async def test_doubles_lie_crosswise_when_there_is_room() -> None:
    line = LineOfPlay()
    app = _boxed_app(line, BOX_80x24)
    async with app.run_test(size=SIZE) as pilot:
        tiles = ((2, 3), (3, 3), (3, 5))
        line.update_line(tiles, (2, 5))
        await pilot.pause()
        rows = _plain(line)
        axis = next(y for y, row in enumerate(rows) if "[2|3]" in row)
        x = rows[axis].index("├─┤")
        assert rows[axis][x - 5:x + 8] == "[2|3]├─┤[3|5]"
        assert rows[axis - 1][x:x + 3] == rows[axis + 1][x:x + 3] == "│3│"


async def test_a_whole_double_six_set_fits_the_80x24_table() -> None:
    for lead in (0, 7, 14, 20, 27):
        for box in (BOX_80x24, (48, 15)):
            line = LineOfPlay(tile_style=TileStyle.AUTO)
            app = _boxed_app(line, box)
            async with app.run_test(size=SIZE) as pilot:
                line.update_line(FULL_LINE, (0, 0), lead=lead, last=len(FULL_LINE) - 1, last_label="Ana")
                await pilot.pause()
                rows = _plain(line)
                assert len(rows) == box[1] and all(len(row) <= box[0] for row in rows)
                tiles = sum(len(TILE.findall(row)) + row.count("├─┤") for row in rows)
                assert tiles == len(FULL_LINE), "\n".join(rows)
                assert "folded" not in "".join(rows)
                assert any("▲ Ana" in row or "▼ Ana" in row for row in rows)


async def test_at_200x60_the_line_fills_the_table_with_pips() -> None:
    line = LineOfPlay(tile_style=TileStyle.AUTO)
    app = _boxed_app(line, BOX_200x60)
    async with app.run_test(size=(200, 60)) as pilot:
        line.update_line(FULL_LINE, (0, 0), lead=14)
        await pilot.pause()
        rows = _plain(line)
        assert "●" in "".join(rows)
        used = [y for y, row in enumerate(rows) if row.strip()]
        assert used[-1] - used[0] > BOX_200x60[1] * 0.6
        assert max(len(row.rstrip()) for row in rows) - min(len(row) - len(row.lstrip()) for row in rows
                                                             if row.strip()) > BOX_200x60[0] * 0.7


def _long_chain(max_pip: int) -> tuple[Pair, ...]:
    """A long line of a double-``max_pip`` set, each tile once: the double first, then the tile
    whose far number has the most tiles left (so the walk seldom gets stuck)."""
    unused = {(a, b) for a in range(max_pip + 1) for b in range(a, max_pip + 1)}
    line = [(max_pip, max_pip)]
    unused.remove((max_pip, max_pip))

    def far(tile: Pair, end: int) -> int:
        return tile[1] if tile[0] == end else tile[0]

    while True:
        end = line[-1][1]
        fitting = sorted(t for t in unused if end in t)
        if not fitting:
            return tuple(line)
        tile = max(fitting, key=lambda t: (t[0] == t[1], sum(far(t, end) in u for u in unused)))
        unused.remove(tile)
        line.append((end, far(tile, end)))


async def test_a_double_nine_line_too_long_folds_its_oldest_rows_keeping_both_ends() -> None:
    tiles = _long_chain(9)
    assert len(tiles) > 40
    line = LineOfPlay()
    app = _boxed_app(line, BOX_80x24)
    async with app.run_test(size=SIZE) as pilot:
        line.update_line(tiles, _ends(tiles), 9, lead=len(tiles) // 2, last=0, last_label="Zoë")
        await pilot.pause()
        rows = _plain(line)
        assert len(rows) == BOX_80x24[1]
        fold = [row for row in rows if "older tiles folded away" in row]
        assert len(fold) == 1
        hidden = int(re.search(r"(\d+) older", fold[0])[1])  # type: ignore[index]
        shown = sum(len(TILE.findall(row)) for row in rows)
        assert shown + hidden == len(tiles)
        text = "\n".join(rows)
        assert f"left {tiles[0][0]}" in text and f"{tiles[-1][1]} right" in text
        assert "▲ Zoë" in text or "▼ Zoë" in text


async def test_the_last_tile_is_marked_in_its_own_colours_with_who_played_it() -> None:
    line = LineOfPlay()
    app = _boxed_app(line, BOX_80x24)
    async with app.run_test(size=SIZE) as pilot:
        tiles = ((2, 3), (3, 4), (4, 1))
        line.update_line(tiles, (2, 1), lead=1, last=2, last_label="Ana\x1b[31m")
        await pilot.pause()
        rendered = line.rows(line.content_size.width)
        axis = next(y for y, row in enumerate(rendered) if "[4|1]" in row.plain)
        x = rendered[axis].plain.index("[4|1]")
        last = line.get_component_rich_style("line--last")
        assert last not in (line.get_component_rich_style("line--end-tile"),
                            line.get_component_rich_style("line--tile"))
        assert _style_at(rendered[axis], x) == last
        assert _style_at(rendered[axis], rendered[axis].plain.index("[2|3]")) != last
        caption = rendered[axis + 1].plain
        assert "▲ Ana" in caption and "\x1b" not in caption and "[31m" not in caption
        assert x <= caption.index("▲") < x + 5  # under the tile
        # The next tile takes the mark.
        line.update_line(((1, 2), *tiles), (1, 1), lead=2, last=0, last_label="you")
        await pilot.pause()
        text = "\n".join(_plain(line))
        assert "Ana" not in text and text.count("▲ you") + text.count("▼ you") == 1


def _style_at(text: Text, offset: int) -> object:
    styles = [span.style for span in text.spans if span.start <= offset < span.end]
    return styles[-1] if styles else None


async def test_ascii_mode_draws_only_ascii_with_a_marker_that_reads_without_colour() -> None:
    set_ascii(True)
    try:
        for style in TileStyle:
            line = LineOfPlay(tile_style=style, ascii=True)
            app = _boxed_app(line, BOX_80x24)
            async with app.run_test(size=SIZE) as pilot:
                line.update_line(FULL_LINE, (0, 0), lead=14, last=27, last_label="José")
                await pilot.pause()
                text = "\n".join(_plain(line))
                assert text.isascii(), text
                assert "^ Jose" in text or "v Jose" in text
                assert "+" in text  # the bends
        set_ascii(False)  # the widget's own switch is enough for what it draws
        line = LineOfPlay(ascii=True)
        app = _boxed_app(line, BOX_80x24)
        async with app.run_test(size=SIZE) as pilot:
            tiles = _long_chain(9)
            line.update_line(tiles, _ends(tiles), 9, lead=20, last=0, last_label="Zoë")
            await pilot.pause()
            text = "\n".join(_plain(line))
            assert "folded away" in text and text.isascii(), text
    finally:
        set_ascii(False)


async def test_an_empty_line_says_so_in_the_middle() -> None:
    line = LineOfPlay()
    app = _boxed_app(line, BOX_80x24)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        rows = _plain(line)
        said = [y for y, row in enumerate(rows) if row.strip()]
        assert "Nothing on la mesa yet" in " ".join(rows[y].strip() for y in said)
        assert said[0] >= 3 and said[-1] <= len(rows) - 3
        assert all(len(row) <= BOX_80x24[0] for row in rows)


async def test_a_line_too_tall_for_its_space_is_drawn_smaller_not_cut() -> None:
    line = LineOfPlay(tile_style=TileStyle.PIPS)
    app = styled_app(lambda: [line], "LineOfPlay { height: 8; }")
    async with app.run_test(size=SIZE) as pilot:
        line.update_line(FULL_LINE, (0, 0), lead=14)
        await pilot.pause()
        rows = line.rows(line.content_size.width)
        assert len(rows) == 8
        assert "[0|1]" in "".join(row.plain for row in rows) or "[1|0]" in "".join(row.plain for row in rows)
        assert len(line.rows(line.content_size.width, height=100)) == 100
        assert "●" in "".join(row.plain for row in line.rows(line.content_size.width, height=100))


async def test_a_line_that_sizes_itself_is_as_tall_as_its_drawing() -> None:
    line = LineOfPlay()
    app = WidgetApp(lambda: [line])
    async with app.run_test(size=SIZE) as pilot:
        line.update_line(((1, 2), (2, 3)), (1, 3), lead=0, last=1, last_label="Bo")
        await pilot.pause()
        rows = _plain(line)
        assert line.size.height == len(rows) == 2  # the tiles' row and the caption's
        assert rows[0].strip() == "left 1 [1|2][2|3] 3 right"
        assert "▲ Bo" in rows[1]


# -- snapshots -------------------------------------------------------------------------


#: The snapshots' own colours (the felt theme's, frozen): the pictures show the drawing, and
#: do not change whenever the shipped themes are tuned (the table's snapshots cover those).
SNAPSHOT_THEME = Theme(
    name="line-snapshot", dark=True, primary="#e0b040", secondary="#6fa37f", accent="#ffc629",
    warning="#ffb347", error="#e05a4f", success="#7ccf8a", foreground="#eef3ec", background="#0d3320",
    surface="#124128", panel="#17502f",
    variables={"felt": "#145a32", "felt-text": "#e8f0e8", "tile-face": "#f2ead3", "tile-pip": "#1b1b1b",
               "tile-cursor": "#ffc629", "tile-cursor-pip": "#000000", "open-end": "#ffc629",
               "open-end-text": "#000000"},
)


def _snapshot_app(box: tuple[int, int], tiles: tuple[Pair, ...], lead: int, max_pip: int = 6) -> WidgetApp:
    line = LineOfPlay(tile_style=TileStyle.AUTO)
    app = _boxed_app(line, box)
    app.register_theme(SNAPSHOT_THEME)
    app.theme = SNAPSHOT_THEME.name

    async def lay(pilot: Pilot[Any]) -> None:
        line.update_line(tiles, _ends(tiles), max_pip, lead=lead, last=len(tiles) - 1, last_label="Ana")
        await pilot.pause()

    app.lay = lay  # type: ignore[attr-defined]
    return app


def test_snapshot_a_long_line_turning_at_80x24(snap_compare: Any) -> None:
    app = _snapshot_app(BOX_80x24, FULL_LINE[:24], lead=9)
    assert snap_compare(app, terminal_size=SIZE, run_before=app.lay)  # type: ignore[attr-defined]


def test_snapshot_a_long_line_turning_at_160x48(snap_compare: Any) -> None:
    app = _snapshot_app((128, 36), FULL_LINE, lead=11)
    assert snap_compare(app, terminal_size=(160, 48), run_before=app.lay)  # type: ignore[attr-defined]


# -- wild blanks (a house rule) -------------------------------------------------------

#: A line with wild blanks: 3-5 led, 0-5 laid on its 5 with the blank left open as 2, then
#: 0-0 against the 3 (a double 3): `View.blanks` marks the given blanks' tiles.
WILD_LINE: tuple[Pair, ...] = ((3, 3), (3, 5), (5, 2))
WILD_BLANKS = (3, 0, 2)


async def test_a_given_blank_shows_its_number_marked_and_underlined_in_colour_and_in_ascii() -> None:
    for ascii in (False, True):
        line = LineOfPlay(tile_style=TileStyle.COMPACT, ascii=ascii)
        app = _boxed_app(line, BOX_80x24)
        async with app.run_test(size=SIZE) as pilot:
            line.update_line(WILD_LINE, (3, 2), 6, lead=1, last=2, last_label="Ana", blanks=WILD_BLANKS)
            await pilot.pause()
            rows = line.rows(line.content_size.width)
            marked = {
                row.plain[span.start:span.end].strip()
                for row in rows for span in row.spans
                if isinstance(span.style, Style) and span.style.underline
            }
            # The tiles with a given blank (the double 3, and 5-2 whose 2 is the blank's) are
            # underlined; 3-5 is not.
            assert any("2*" in text for text in marked), marked
            assert not any("[3|5]" in text for text in marked), marked
            drawn = "\n".join(row.plain for row in rows)
            # And marked in the border beside the given number, which reads without colour: two
            # tiles showing 5-2 are told apart (issue 31).
            assert "[5|2*" in drawn and "[3|5]" in drawn and drawn.count("*3*") == 2


def test_snapshot_a_given_blank_on_the_line_at_80x24(snap_compare: Any) -> None:
    line = LineOfPlay(tile_style=TileStyle.COMPACT, ascii=True)
    app = _boxed_app(line, BOX_80x24)
    app.register_theme(SNAPSHOT_THEME)
    app.theme = SNAPSHOT_THEME.name

    async def lay(pilot: Pilot[Any]) -> None:
        line.update_line(WILD_LINE, (3, 2), 6, lead=1, last=2, last_label="Ana", blanks=WILD_BLANKS)
        await pilot.pause()

    assert snap_compare(app, terminal_size=SIZE, run_before=lay)
