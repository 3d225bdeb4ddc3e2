"""Tiles drawn as text: shapes, orientation, crosswise doubles, ASCII mode, wrapping."""

from __future__ import annotations

import pytest
from capicu.tui.widgets.tiles import (
    GIVEN_MARK,
    TileFace,
    TileStyle,
    glyph,
    smaller_styles,
    tile_face,
    wrap_widths,
)
from hypothesis import given
from hypothesis import strategies as st


def rows(face: TileFace) -> list[str]:
    return [row.plain for row in face.rows]


def test_compact_is_the_numbers_in_the_order_seen() -> None:
    assert tile_face(3, 5).plain() == "[3|5]"
    assert tile_face(5, 3).plain() == "[5|3]"


def test_compact_double_stands_across_the_line_with_the_joint_on_the_axis() -> None:
    face = tile_face(6, 6)
    assert face.height == 3 and face.middle == 1
    assert rows(face)[0].strip("│") == "6"
    assert rows(face)[2].strip("│") == "6"
    assert "6" not in rows(face)[1]


def test_an_ascii_double_is_not_drawn_with_the_corners_of_a_bend() -> None:
    from capicu.tui.widgets.tiles import turn_column

    assert rows(tile_face(6, 6, ascii=True)) == ["|6|", "|-|", "|6|"]
    corners = {turn_column(3, right=right, ascii=True)[row] for right in (True, False) for row in (0, 2)}
    assert not corners & set("".join(rows(tile_face(6, 6, ascii=True))))


def test_a_double_can_lie_flat_when_asked() -> None:
    assert tile_face(6, 6, crosswise=False).plain() == "[6|6]"


@pytest.mark.parametrize("style", list(TileStyle))
@pytest.mark.parametrize("ascii", [False, True])
@pytest.mark.parametrize(("a", "b"), [(0, 0), (3, 5), (6, 6), (9, 2), (12, 12), (10, 11)])
def test_every_face_is_a_rectangle_with_its_middle_inside(
    style: TileStyle, ascii: bool, a: int, b: int
) -> None:
    face = tile_face(a, b, style, ascii=ascii, digits=2)
    widths = {row.cell_len for row in face.rows}
    assert len(widths) == 1
    assert 0 <= face.middle < face.height


@pytest.mark.parametrize("style", list(TileStyle))
def test_ascii_mode_holds_no_character_outside_ascii(style: TileStyle) -> None:
    for max_pip in (6, 9, 12):
        for a in range(max_pip + 1):
            for b in range(max_pip + 1):
                for crosswise in (None, True, False):
                    text = tile_face(a, b, style, ascii=True, crosswise=crosswise, digits=len(str(max_pip)))
                    assert text.plain().isascii(), (style, a, b, text.plain())


def test_boxed_digits() -> None:
    assert rows(tile_face(3, 5, TileStyle.BOXED)) == ["┌─┬─┐", "│3│5│", "└─┴─┘"]
    assert rows(tile_face(3, 5, TileStyle.BOXED, ascii=True)) == ["+-+-+", "|3|5|", "+-+-+"]
    double = tile_face(4, 4, TileStyle.BOXED)
    assert rows(double) == ["┌─┐", "│4│", "├─┤", "│4│", "└─┘"] and double.middle == 2


@pytest.mark.parametrize("n", range(10))
def test_pip_grid_shows_as_many_pips_as_the_number(n: int) -> None:
    face = tile_face(n, 0, TileStyle.PIPS)
    left_half = [row[1:8] for row in rows(face)[1:4]]
    assert sum(row.count("●") for row in left_half) == n
    ascii_face = tile_face(0, n, TileStyle.PIPS, ascii=True, crosswise=True)
    assert "".join(rows(ascii_face)[5:8]).count("o") == n


def test_pip_grid_falls_back_to_digits_above_nine() -> None:
    assert rows(tile_face(10, 12, TileStyle.PIPS))[1] == "│10│12│"


def test_numbers_are_padded_so_tiles_of_big_sets_line_up() -> None:
    assert tile_face(3, 12, digits=2).plain() == "[ 3|12]"
    assert tile_face(3, 5, digits=2).plain() == "[ 3| 5]"


def test_glyphs_only_when_asked_and_only_for_double_six() -> None:
    assert glyph(0, 0) == "\U0001f031"
    assert glyph(6, 6, vertical=True) == "\U0001f093"
    assert tile_face(3, 5, TileStyle.GLYPH).plain() == chr(0x1F031 + 3 * 7 + 5)
    assert tile_face(2, 2, TileStyle.GLYPH).plain() == chr(0x1F063 + 2 * 7 + 2)
    assert tile_face(3, 5, TileStyle.GLYPH, ascii=True).plain() == "[3|5]"
    assert tile_face(3, 9, TileStyle.GLYPH).plain() == "[3|9]"
    with pytest.raises(ValueError):
        glyph(7, 1)


def test_tile_style_parse_falls_back_to_compact() -> None:
    assert TileStyle.parse("boxed") is TileStyle.BOXED
    assert TileStyle.parse("nonsense") is TileStyle.COMPACT
    assert TileStyle.parse(None, TileStyle.PIPS) is TileStyle.PIPS


@given(st.lists(st.integers(1, 20), max_size=40), st.integers(1, 80), st.integers(0, 2))
def test_wrap_keeps_order_and_width(widths: list[int], width: int, gap: int) -> None:
    spans = wrap_widths(widths, width, gap)
    assert [i for span in spans for i in span] == list(range(len(widths)))
    for span in spans:
        used = sum(widths[i] for i in span) + gap * (len(span) - 1)
        assert used <= width or len(span) == 1


def test_big_styles_fall_back_to_smaller_ones() -> None:
    assert smaller_styles(TileStyle.PIPS) == [TileStyle.PIPS, TileStyle.BOXED, TileStyle.COMPACT]
    assert smaller_styles(TileStyle.GLYPH) == [TileStyle.GLYPH, TileStyle.COMPACT]
    assert smaller_styles(TileStyle.COMPACT) == [TileStyle.COMPACT]


@given(st.integers(-(10**6), 10**6), st.integers(-(10**6), 10**6), st.sampled_from(list(TileStyle)),
       st.booleans(), st.sampled_from([None, True, False]))
def test_any_numbers_are_drawn_without_error(a: int, b: int, style: TileStyle, ascii: bool,
                                             crosswise: bool | None) -> None:
    face = tile_face(a, b, style, ascii=ascii, crosswise=crosswise)
    assert len({row.cell_len for row in face.rows}) == 1
    assert not ascii or face.plain().isascii()


def test_auto_draws_pips_only_on_a_large_screen() -> None:
    from capicu.tui.widgets.tiles import LARGE_SCREEN, TileStyle, smaller_styles

    assert smaller_styles(TileStyle.AUTO, (80, 24)) == [TileStyle.COMPACT]
    assert smaller_styles(TileStyle.AUTO, None) == [TileStyle.COMPACT]
    large = [TileStyle.PIPS, TileStyle.BOXED, TileStyle.COMPACT]
    assert smaller_styles(TileStyle.AUTO, LARGE_SCREEN) == large


@pytest.mark.parametrize("style", list(TileStyle))
@pytest.mark.parametrize("ascii", [False, True])
def test_a_given_blank_is_marked_beside_its_number_in_every_style(style: TileStyle, ascii: bool) -> None:
    """A blank played as a number is marked in the border beside that number, the face's size unchanged
    (the glyph style, which has no border, draws such a tile in digits)."""
    for a, b, halves, across in ((2, 5, 1, False), (5, 2, 2, False), (3, 3, 3, True)):
        plain = tile_face(a, b, style, ascii=ascii, crosswise=across)
        marked = tile_face(a, b, style, ascii=ascii, crosswise=across, given=halves)
        if style is not TileStyle.GLYPH:
            assert (marked.width, marked.height, marked.middle) == (plain.width, plain.height, plain.middle)
        assert marked.plain().count(GIVEN_MARK) == (2 * 2 if across else 1)
        assert GIVEN_MARK not in plain.plain()
        if ascii:
            assert marked.plain().isascii()
    assert tile_face(2, 5, TileStyle.COMPACT, given=1).plain() == "*2|5]"
    assert tile_face(5, 2, TileStyle.COMPACT, given=2).plain() == "[5|2*"
