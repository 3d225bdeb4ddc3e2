"""Tiles drawn as text: pure functions that return Rich `Text`, easy to test.

A tile is drawn from its two numbers in the order they are seen (left then
right, or top then bottom for a crosswise double), not from a `Tile`, because
on the line of play the orientation matters: ``(5, 3)`` is drawn ``[5|3]``.

Four styles: compact ``[3|5]`` (one row; fits 80x24), boxed digits (three
rows), a pip grid (five rows, for large screens; sets above double-9 fall back
to boxed digits, since a 3x3 grid holds at most nine pips) and the Unicode
domino glyphs (only when asked for: many terminal fonts lack them; double-6
only). ``ascii=True`` uses only ASCII for every part, borders included, for
terminals that mangle box drawing; the glyph style then falls back to compact.

A face knows its `middle` row: the row that lies on the line's axis, so that a
crosswise double (taller than the tiles beside it) sits centred on the line.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum

import msgspec
from rich.style import Style
from rich.text import Text

StyleType = Style | str


class TileStyle(Enum):
    """How tiles are drawn; the value is what settings and the command line store."""

    #: The pip grid on a large screen, compact digits on a small one.
    AUTO = "auto"
    COMPACT = "compact"
    BOXED = "boxed"
    PIPS = "pips"
    GLYPH = "glyph"

    @classmethod
    def parse(cls, value: object, default: TileStyle | None = None) -> TileStyle:
        """The style named ``value``, or ``default`` (compact) when it names none."""
        for style in cls:
            if value == style.value or value is style:
                return style
        return default if default is not None else cls.COMPACT


class TileFace(msgspec.Struct, frozen=True):
    """A tile drawn as rows of equal width; ``middle`` is the row on the line's axis."""

    rows: tuple[Text, ...]
    middle: int

    @property
    def width(self) -> int:
        return self.rows[0].cell_len if self.rows else 0

    @property
    def height(self) -> int:
        return len(self.rows)

    def plain(self) -> str:
        return "\n".join(row.plain for row in self.rows)


class _Box(msgspec.Struct, frozen=True):
    """The characters of one border set."""

    h: str
    v: str
    tl: str
    tr: str
    bl: str
    br: str
    t_down: str  # ┬
    t_up: str  # ┴
    t_right: str  # ├
    t_left: str  # ┤
    pip: str
    joint_h: str  # the joint of a crosswise compact double, seen from the side


_UNICODE_BOX = _Box("─", "│", "┌", "┐", "└", "┘", "┬", "┴", "├", "┤", "●", "─")
_ASCII_BOX = _Box("-", "|", "+", "+", "+", "+", "+", "+", "+", "+", "o", "-")

#: Which cells of a 3x3 grid (row by row) hold a pip for 0 to 9.
_PIP_CELLS: tuple[frozenset[int], ...] = (
    frozenset(),
    frozenset({4}),
    frozenset({0, 8}),
    frozenset({0, 4, 8}),
    frozenset({0, 2, 6, 8}),
    frozenset({0, 2, 4, 6, 8}),
    frozenset({0, 2, 3, 5, 6, 8}),
    frozenset({0, 2, 3, 4, 5, 6, 8}),
    frozenset({0, 1, 2, 3, 5, 6, 7, 8}),
    frozenset(range(9)),
)

_GLYPH_HORIZONTAL = 0x1F031  # DOMINO TILE HORIZONTAL-00-00
_GLYPH_VERTICAL = 0x1F063  # DOMINO TILE VERTICAL-00-00
GLYPH_MAX = 6


def _box(ascii: bool) -> _Box:
    return _ASCII_BOX if ascii else _UNICODE_BOX


def _num(n: int, digits: int) -> str:
    return str(n).rjust(digits)


def _face(rows: Sequence[str], middle: int, style: StyleType) -> TileFace:
    return TileFace(tuple(Text(row, style=style, end="") for row in rows), middle)


def glyph(a: int, b: int, *, vertical: bool = False) -> str:
    """The Unicode domino glyph showing ``a`` then ``b`` (double-6 numbers only)."""
    if not (0 <= a <= GLYPH_MAX and 0 <= b <= GLYPH_MAX):
        raise ValueError(f"there is no domino glyph for {a}-{b}")
    base = _GLYPH_VERTICAL if vertical else _GLYPH_HORIZONTAL
    return chr(base + a * 7 + b)


def tile_face(
    a: int,
    b: int,
    style: TileStyle = TileStyle.COMPACT,
    *,
    ascii: bool = False,
    crosswise: bool | None = None,
    digits: int = 1,
    face_style: StyleType = "",
    given: int = 0,
) -> TileFace:
    """The tile showing ``a`` then ``b``, drawn in ``style``.

    ``crosswise`` (default: True for a double) turns the tile across the line:
    ``a`` on top, ``b`` below. ``digits`` pads numbers so tiles of a double-9 or
    double-12 set line up. ``face_style`` colours the whole face. ``given`` marks
    wild blanks shown with the number they were given (1: ``a``'s half, 2: ``b``'s,
    3: both): a `GIVEN_MARK` in the border beside that number (``*2|5]``), so that a
    given blank is told from a real number in any colours and in ASCII.
    """
    digits = max(digits, len(str(a)), len(str(b)))
    across = (a == b) if crosswise is None else crosswise
    box = _box(ascii)
    # Numbers come from a host: anything a style cannot draw falls back to digits.
    low = min(a, b)
    if given and style is TileStyle.GLYPH:
        style = TileStyle.COMPACT  # a glyph has no border to mark: the digits, as in ASCII
    if style is TileStyle.GLYPH and not ascii and low >= 0 and max(a, b) <= GLYPH_MAX:
        return _face([glyph(a, b, vertical=across)], 0, face_style)
    if style is TileStyle.PIPS and low >= 0 and max(a, b) <= 9:
        face = _pip_face(a, b, box, across, face_style)
    elif style is TileStyle.BOXED or style is TileStyle.PIPS:
        face = _boxed_face(_num(a, digits), _num(b, digits), box, across, face_style)
    else:
        face = _compact_face(_num(a, digits), _num(b, digits), box, across, ascii, face_style)
    return _mark_given(face, given, across) if given else face


#: What stands in the border beside a wild blank's given number: the same in ASCII.
GIVEN_MARK = "*"


def _mark_given(face: TileFace, given: int, across: bool) -> TileFace:
    """``face`` with `GIVEN_MARK` in the border beside each half ``given`` marks (see `tile_face`).

    Flat, a half's number is on the middle row, its border the row's first (``a``) or last
    (``b``) cell; across, ``a`` is above the middle and ``b`` below, bordered on both sides.
    """
    rows = [row.plain for row in face.rows]

    def mark(row: int, cells: tuple[int, ...]) -> None:
        text = list(rows[row])
        for cell in cells:
            text[cell] = GIVEN_MARK
        rows[row] = "".join(text)

    middle = face.middle
    for half in (1, 2):
        if not given & half:
            continue
        if not across:
            mark(middle, (0,) if half == 1 else (-1,))
        else:
            mark(middle // 2 if half == 1 else middle + (middle + 1) // 2, (0, -1))
    styles = (row.style for row in face.rows)
    marked = tuple(Text(row, style=style, end="") for row, style in zip(rows, styles, strict=True))
    return TileFace(marked, middle)


def _compact_face(a: str, b: str, box: _Box, across: bool, ascii: bool, style: StyleType) -> TileFace:
    if not across:
        return _face([f"[{a}|{b}]"], 0, style)
    # Standing across the line: the numbers above and below, the joint on the axis.
    joint = box.joint_h * len(a)
    side = "|" if ascii else box.v
    # In ASCII the joint keeps the tile's sides ("|-|"): a "+" there would read as a bend's corner.
    middle = f"{side}{joint}{side}" if ascii else f"{box.t_right}{joint}{box.t_left}"
    return _face([f"{side}{a}{side}", middle, f"{side}{b}{side}"], 1, style)


def _boxed_face(a: str, b: str, box: _Box, across: bool, style: StyleType) -> TileFace:
    line = box.h * len(a)
    if not across:
        rows = [
            f"{box.tl}{line}{box.t_down}{line}{box.tr}",
            f"{box.v}{a}{box.v}{b}{box.v}",
            f"{box.bl}{line}{box.t_up}{line}{box.br}",
        ]
        return _face(rows, 1, style)
    rows = [
        f"{box.tl}{line}{box.tr}",
        f"{box.v}{a}{box.v}",
        f"{box.t_right}{line}{box.t_left}",
        f"{box.v}{b}{box.v}",
        f"{box.bl}{line}{box.br}",
    ]
    return _face(rows, 2, style)


def _pip_rows(n: int, pip: str) -> list[str]:
    cells = _PIP_CELLS[n]
    return [
        " " + " ".join(pip if row * 3 + col in cells else " " for col in range(3)) + " "
        for row in range(3)
    ]


def _pip_face(a: int, b: int, box: _Box, across: bool, style: StyleType) -> TileFace:
    top, bottom = _pip_rows(a, box.pip), _pip_rows(b, box.pip)
    line = box.h * 7
    if not across:
        rows = [f"{box.tl}{line}{box.t_down}{line}{box.tr}"]
        rows += [f"{box.v}{x}{box.v}{y}{box.v}" for x, y in zip(top, bottom, strict=True)]
        rows.append(f"{box.bl}{line}{box.t_up}{line}{box.br}")
        return _face(rows, 2, style)
    rows = [f"{box.tl}{line}{box.tr}"]
    rows += [f"{box.v}{x}{box.v}" for x in top]
    rows.append(f"{box.t_right}{line}{box.t_left}")
    rows += [f"{box.v}{y}{box.v}" for y in bottom]
    rows.append(f"{box.bl}{line}{box.br}")
    return _face(rows, 4, style)


#: The smallest screen (columns, rows) on which `TileStyle.AUTO` draws pips.
LARGE_SCREEN = (120, 40)


def smaller_styles(style: TileStyle, screen: tuple[int, int] | None = None) -> list[TileStyle]:
    """``style``, then the smaller styles to fall back on when it does not fit (pips, boxed, compact).

    `TileStyle.AUTO` is the pip grid on a ``screen`` of at least `LARGE_SCREEN`, else compact.
    """
    if style is TileStyle.AUTO:
        large = screen is not None and screen[0] >= LARGE_SCREEN[0] and screen[1] >= LARGE_SCREEN[1]
        style = TileStyle.PIPS if large else TileStyle.COMPACT
    chain = [style]
    if style is TileStyle.PIPS:
        chain.append(TileStyle.BOXED)
    if style is not TileStyle.COMPACT:
        chain.append(TileStyle.COMPACT)
    return chain


def turn_column(rows: int, *, right: bool, ascii: bool = False) -> list[str]:
    """The ``rows`` characters, top to bottom, of a bend joining two rows of tiles.

    ``right`` is the bend on the right-hand side of the tiles it joins (``┐ │ ┘``);
    otherwise it opens to the right (``┌ │ └``).
    """
    box = _box(ascii)
    top, bottom = (box.tr, box.br) if right else (box.tl, box.bl)
    if rows < 2:
        return [box.h] * rows  # rows side by side: nothing to bend
    return [top, *[box.v] * (rows - 2), bottom]


def wrap_widths(widths: Sequence[int], width: int, gap: int = 0) -> list[range]:
    """Pieces of these widths split into rows no wider than ``width`` (at least one each)."""
    rows: list[range] = []
    start, used = 0, 0
    for i, w in enumerate(widths):
        needed = w if i == start else used + gap + w
        if i > start and needed > width:
            rows.append(range(start, i))
            start, used = i, w
        else:
            used = needed
    if start < len(widths):
        rows.append(range(start, len(widths)))
    return rows
