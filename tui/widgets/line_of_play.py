"""The line of play (la mesa), laid out as on a real table: a snake grown from the lead.

The round's first tile (the lead) sits at the centre and stays there, so a new
tile repaints only its own cells (see `repaint`: SSH players pay for every
byte). The right arm grows to the right and the left arm to the left; at an
edge an arm bends into the next row and comes back, the right arm downwards and
the left arm upwards, and the new row starts under (or over) the tile it goes
on from. A tile on a row that runs backwards is drawn turned round, so touching
numbers always match: (3, 5) laid leftwards reads [5|3]. Doubles lie across.

Each open end has its label ("left 3", "5 right") on its tile's row, on the
side the line would go on; that room is kept at the end of every row, so a tile
never moves once laid. The tile just played has the `line--last` colours and a
caption under it ("▲ Ana"), which reads without colour too. With wild blanks
(a house rule), a tile whose blank was given a number shows that number with a
``*`` in the border beside it (``*2|5]``; the glyph style draws such a tile in
digits), underlined and bold (`line--wild`): it reads in 16 colours and in ASCII
too, and two tiles showing the same numbers are told apart.

A line that does not fit is drawn smaller: doubles flat, then smaller tile
styles (a whole double-six set fits at 80x24). A double-nine or double-twelve
line that still does not fit folds its oldest rows, the ones around the lead,
into one line saying how many tiles it hides, so that both open ends and the
newest tiles of each arm stay in view.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Collection, Iterable, Sequence
from typing import ClassVar

import msgspec
from capicu.core import End, Event, RoundStarted, TilePlayed
from capicu.net.host.sanitize import clean_text
from capicu.tui.words.ascii_only import to_ascii
from capicu.tui.words.messages import current, t, tn
from rich.cells import cell_len
from rich.style import Style
from rich.text import Text
from textual.geometry import Size
from textual.reactive import reactive
from textual.widget import Widget

from .repaint import repaint_changes
from .tiles import TileFace, TileStyle, smaller_styles, tile_face, turn_column

Pair = tuple[int, int]

#: The longest name a caption shows.
CAPTION_NAME = 16


class LineMarks(msgspec.Struct, frozen=True):
    """Where a round's lead and last tile lie in its line, and who laid the last one."""

    #: The index in the line of the round's first tile.
    lead: int = 0
    #: The index in the line of the tile played last; None before the lead.
    last: int | None = None
    last_seat: int | None = None


def line_marks(events: Iterable[Event]) -> LineMarks:
    """The marks of the line that these public events (a round's `View.events`) laid."""
    lead, last, seat, laid = 0, None, None, 0
    for event in events:
        if isinstance(event, RoundStarted):
            lead, last, seat, laid = 0, None, None, 0
        elif isinstance(event, TilePlayed):
            if laid and event.end is End.LEFT:
                lead += 1  # a tile before it in the line
                last = 0
            else:
                last = laid
            laid += 1
            seat = event.seat
    return LineMarks(lead, last, seat)


# -- the snake: where each tile lies ------------------------------------------------


class Spot(msgspec.Struct, frozen=True):
    """Where one tile lies: its first column and its row of tiles (0 is the lead's, above it < 0)."""

    x: int
    lane: int
    #: Its row runs against the line's order, so the tile is drawn turned round.
    backwards: bool


class Bend(msgspec.Struct, frozen=True):
    """Where an arm bends from one row of tiles into the next."""

    x: int
    #: The upper of the two rows of tiles it joins.
    lane: int
    #: On the right-hand side of its tiles (┐ │ ┘), else on their left (┌ │ └).
    right: bool


class Snake(msgspec.Struct, frozen=True):
    """A line laid out from its lead: a spot per tile, in line order, and the bends."""

    spots: tuple[Spot, ...]
    bends: tuple[Bend, ...]
    #: Every tile, and the label of each end, lies within the width.
    fits: bool


def lay_snake(widths: Sequence[int], lead: int, width: int, *, gap: int = 0,
              labels: tuple[int, int] = (0, 0), spaced: Collection[int] = ()) -> Snake:
    """Tiles of these ``widths`` (in line order) laid outwards from the ``lead``, within ``width`` cells.

    ``gap`` is the blank cells between two tiles; ``labels`` the cells kept
    after each arm's last tile for the left and the right end's label; the
    tiles ``spaced`` (their indexes) keep a blank cell between them and a bend.
    """
    lead_x = (width - widths[lead]) // 2
    spots: list[Spot] = [Spot(lead_x, 0, False)] * len(widths)
    arm = _Arm(widths, width, gap, spaced, spots)
    right, right_fits = arm.lay(range(lead + 1, len(widths)), lead, lead_x + widths[lead], 1, labels[1])
    left, left_fits = arm.lay(range(lead - 1, -1, -1), lead, lead_x, -1, labels[0])
    lead_fits = lead_x >= labels[0] and lead_x + widths[lead] + labels[1] <= width
    return Snake(tuple(spots), (*left, *right), right_fits and left_fits and lead_fits)


def _has_room(x: int, w: int, rightwards: bool, width: int, label: int) -> bool:
    return x + w + label <= width if rightwards else x - label >= 0


class _Arm:
    """Lays one arm of the snake at a time into ``spots``."""

    def __init__(self, widths: Sequence[int], width: int, gap: int, spaced: Collection[int],
                 spots: list[Spot]) -> None:
        self.widths, self.width, self.gap, self.spaced, self.spots = widths, width, gap, spaced, spots

    def lay(self, order: Iterable[int], lead: int, cursor: int, step: int,
            label: int) -> tuple[list[Bend], bool]:
        """Lay the tiles in ``order`` (``step`` 1: the right arm, downwards; -1: the left, upwards).

        ``cursor`` is the lead's edge that the arm starts from.
        """
        lane, rightwards, fits, before = 0, step > 0, True, lead
        bends: list[Bend] = []
        for i in order:
            w = self.widths[i]
            x = cursor + self.gap if rightwards else cursor - self.gap - w
            if not _has_room(x, w, rightwards, self.width, label):
                # A double beside a bend would read as part of it.
                space = max(self.gap, int(i in self.spaced or before in self.spaced))
                column = cursor + space if rightwards else cursor - 1 - space
                bends.append(Bend(column, min(lane, lane + step), rightwards))
                lane += step
                rightwards = not rightwards
                x = cursor - w if not rightwards else cursor  # under (or over) the tile it goes on from
                fits = fits and _has_room(x, w, rightwards, self.width, label)
            self.spots[i] = Spot(x, lane, rightwards != (step > 0))
            cursor = x + w if rightwards else x
            before = i
        return bends, fits


# -- drawing ----------------------------------------------------------------------


class _Canvas:
    """A grid of cells to draw pieces on, read back as rows of `Text`."""

    def __init__(self, width: int, height: int) -> None:
        self.width = width
        self.height = height
        self._chars = [[" "] * width for _ in range(height)]
        self._styles: list[list[Style | None]] = [[None] * width for _ in range(height)]

    def put(self, x: int, y: int, text: str, style: Style | None = None) -> None:
        """Write ``text`` from cell ``x`` of row ``y``; what falls outside is cut off."""
        if not 0 <= y < self.height:
            return
        chars, styles = self._chars[y], self._styles[y]
        for char in text:
            cells = cell_len(char)
            if cells == 0:  # a combining mark joins the cell before it
                if 0 < x <= self.width:
                    chars[x - 1] += char
                continue
            if x >= 0 and x + cells <= self.width:
                chars[x], styles[x] = char, style
                for extra in range(x + 1, x + cells):
                    chars[extra], styles[extra] = "", style  # the second half of a wide character
            x += cells

    def is_blank(self, x: int, y: int, cells: int) -> bool:
        """Whether the ``cells`` from ``x`` on row ``y`` lie inside and hold nothing yet."""
        if not (0 <= y < self.height and x >= 0 and x + cells <= self.width):
            return False
        chars, styles = self._chars[y], self._styles[y]
        return all(chars[i] == " " and styles[i] is None for i in range(x, x + cells))

    def row(self, y: int) -> Text:
        """Row ``y`` as `Text`, one span per run of a style."""
        text = Text(end="")
        chars, styles = self._chars[y], self._styles[y]
        start = 0
        for x in range(1, self.width + 1):
            if x == self.width or styles[x] != styles[start]:
                text.append("".join(chars[start:x]), styles[start])
                start = x
        return text

    def rows(self) -> list[Text]:
        return [self.row(y) for y in range(self.height)]


class _Drawing(msgspec.Struct, frozen=True):
    """The rows that draw a line, and what folding them needs."""

    rows: tuple[Text, ...]
    #: Everything lies within the width and the height asked for.
    fits: bool
    #: Per row of tiles, top to bottom: the first text row of its band and how many tiles lie on it.
    bands: tuple[tuple[int, int], ...] = ()


class LineOfPlay(Widget):
    """The tiles on the table, from `View.line` and `View.ends`, marked by `line_marks`."""

    DEFAULT_CSS = """
    LineOfPlay {
        height: auto;
        min-height: 1;
        background: $felt;
        color: $felt-text;
        padding: 0 1;
    }
    LineOfPlay > .line--tile {
        background: $tile-face;
        color: $tile-pip;
    }
    LineOfPlay > .line--end-tile {
        background: $open-end;
        color: $open-end-text;
        text-style: bold;
    }
    LineOfPlay > .line--end-label {
        color: $open-end;
        text-style: bold;
    }
    LineOfPlay > .line--empty {
        color: $felt-text;
        text-style: italic;
    }
    LineOfPlay > .line--last {
        background: $error;
        color: $open-end-text;
        /* Not bold: xterm and PuTTY draw bold black as bright black, the grey of a red. */
    }
    LineOfPlay > .line--last-label {
        color: $felt-text;
        text-style: bold;
    }
    LineOfPlay > .line--wild {
        text-style: bold underline;
    }
    """

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "line--tile", "line--end-tile", "line--end-label", "line--empty", "line--last", "line--last-label",
        "line--wild",
    }

    line: reactive[tuple[Pair, ...]] = reactive((), repaint=False)
    ends: reactive[Pair | None] = reactive(None, repaint=False)
    #: The index in `line` of the round's first tile: it stays at the centre.
    lead: reactive[int] = reactive(0, repaint=False)
    #: The index in `line` of the tile played last (marked), or None.
    last: reactive[int | None] = reactive(None, repaint=False)
    #: Who played it, shown under it: a name, or "you".
    last_label: reactive[str] = reactive("", repaint=False)
    #: What the tile just played made, after the name in its caption ("15 for 8"); "" for none.
    last_note: reactive[str] = reactive("", repaint=False)
    #: `View.blanks`: for each tile of `line`, which halves are wild blanks given a number (0: none).
    blanks: reactive[tuple[int, ...]] = reactive((), repaint=False)
    tile_style: reactive[TileStyle] = reactive(TileStyle.COMPACT, layout=True)
    ascii: reactive[bool] = reactive(False, layout=True)
    #: Draw doubles across the line (taller rows); False keeps every row one tile high.
    crosswise: reactive[bool] = reactive(True, layout=True)
    #: Digit cells per number: 2 for double-9 and double-12 sets.
    digits: reactive[int] = reactive(1, layout=True)

    def __init__(
        self,
        *,
        tile_style: TileStyle = TileStyle.COMPACT,
        ascii: bool = False,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.set_reactive(LineOfPlay.tile_style, tile_style)
        self.set_reactive(LineOfPlay.ascii, ascii)
        self._cache_key: object = None
        self._cache: list[Text] = []
        #: The rows last drawn (or last told to the compositor as changed).
        self._painted: list[Text] = []

    def update_line(self, line: Sequence[Pair], ends: Pair | None, max_pip: int = 6, *, lead: int = 0,
                    last: int | None = None, last_label: str = "", blanks: Sequence[int] = (),
                    last_note: str = "") -> None:
        """Show this line: ``lead`` is the index of the round's first tile, ``last`` the tile just played.

        ``last_label`` says who played it and ``last_note`` what it made (Fives and Threes: "15 for 8"),
        both in its caption; ``blanks`` marks the wild blanks given a
        number (`View.blanks`). A no-op when nothing changed, so nothing is
        redrawn; otherwise only the cells that changed are.
        """
        self.digits = len(str(max_pip))
        state = (tuple(line), ends, lead, last, last_label)
        self.set_reactive(LineOfPlay.blanks, tuple(blanks))
        unchanged = state == (self.line, self.ends, self.lead, self.last, self.last_label)
        if unchanged and last_note == self.last_note:
            return
        self.set_reactive(LineOfPlay.last_note, last_note)
        # Set together, so that the rows are compared once, with no half-updated state between.
        self.set_reactive(LineOfPlay.line, state[0])
        self.set_reactive(LineOfPlay.ends, ends)
        self.set_reactive(LineOfPlay.lead, lead)
        self.set_reactive(LineOfPlay.last, last)
        self.set_reactive(LineOfPlay.last_label, last_label)
        self._repaint_changes()

    def watch_line(self) -> None:
        self._repaint_changes()

    def watch_ends(self) -> None:
        self._repaint_changes()

    def watch_lead(self) -> None:
        self._repaint_changes()

    def watch_last(self) -> None:
        self._repaint_changes()

    def watch_last_label(self) -> None:
        self._repaint_changes()

    def _repaint_changes(self) -> None:
        self._painted = repaint_changes(self, self._painted, self.rows, self._fixed_height())

    # -- layout -----------------------------------------------------------

    def _fixed_height(self) -> int | None:
        """The rows the layout gives this widget, or None when it sizes itself (height auto)."""
        height = self.styles.height
        if height is None or height.is_auto or not self.is_mounted:
            return None
        return self.content_size.height or None

    def _part_styles(self) -> dict[str, Style]:
        return {name: self.get_component_rich_style(name) for name in sorted(self.COMPONENT_CLASSES)}

    def rows(self, width: int, height: int | None = None) -> list[Text]:
        """The rows of text that draw the line at ``width`` cells (cached per state).

        With a fixed ``height`` (default: the one the layout gave this widget)
        the rows are that many, the lead's row in the middle. A line too big for
        it is drawn smaller rather than cut off: doubles lie flat first, then the
        tiles take a smaller style (pips, boxed, compact); a line too big even
        then folds its oldest rows away.
        """
        height = self._fixed_height() if height is None else height
        width = max(width, 1)
        styles = self._part_styles()
        screen = (self.app.size.width, self.app.size.height)
        # The language too: the end labels and the empty line's sentence are words.
        key = (self.line, self.blanks, self.ends, self.lead, self.last, self.last_label, self.last_note,
               self.tile_style,
               self.ascii,
               self.crosswise, self.digits, width, height, tuple(styles.values()), screen, current().code)
        if key == self._cache_key:
            return self._cache
        if not self.line:
            rows = self._empty_rows(width, height, styles["line--empty"])
        else:
            candidates = [(style, across) for style in smaller_styles(self.tile_style, screen)
                          for across in dict.fromkeys((self.crosswise, False))]
            for tile_style, crosswise in candidates:
                drawing = self._draw(width, height, styles, tile_style, crosswise)
                if drawing.fits:
                    break
            rows = list(drawing.rows)
            if height is not None and len(rows) > height:
                rows = _fold(drawing, height, width, self._says_folded, styles["line--empty"])
        self._cache_key, self._cache = key, rows
        return rows

    def _empty_rows(self, width: int, height: int | None, style: Style) -> list[Text]:
        # (la mesa, a word of the game, inside an English sentence: never opening it, as if Spanish)
        said = t("Nothing on la mesa yet: the first tile leads the round.")
        words = [Text(line.center(width).rstrip(), style=style, end="")
                 for line in textwrap.wrap(said, width) or [""]]
        if height is None:
            return words
        top = max((height - len(words)) // 2, 0)
        return [*[Text(end="")] * top, *words, *[Text(end="")] * (height - top - len(words))][:height]

    def _draw(self, width: int, height: int | None, styles: dict[str, Style], tile_style: TileStyle,
              crosswise: bool) -> _Drawing:
        """The line drawn in ``tile_style`` at ``width`` cells, fitted into ``height`` rows if it can be."""
        line = self.line
        count = len(line)
        lead = min(max(self.lead, 0), count - 1)
        last = self.last if self.last is not None and 0 <= self.last < count else None
        across = None if crosswise else False

        def face(a: int, b: int, style: Style | str = "", given: int = 0) -> TileFace:
            return tile_face(a, b, tile_style, ascii=self.ascii, crosswise=across, digits=self.digits,
                             face_style=style, given=given)

        def given(i: int) -> int:
            return self.blanks[i] if i < len(self.blanks) else 0

        # Compact tiles carry their own brackets; boxes side by side would merge.
        gap = 0 if tile_style is TileStyle.COMPACT else 1
        left, right = self.ends if self.ends is not None else (line[0][0], line[-1][1])
        widest = 10 ** self.digits - 1
        room = (cell_len(t("left {number}", number=widest)) + 1,
                cell_len(t("{number} right", number=widest)) + 1)
        plain = [face(a, b, given=given(i)) for i, (a, b) in enumerate(line)]
        flat = face(0, 1)
        snake = lay_snake([f.width for f in plain], lead, width, gap=gap, labels=room,
                          spaced={i for i, f in enumerate(plain) if f.height > flat.height})

        faces: list[TileFace] = []
        for i, ((a, b), spot) in enumerate(zip(line, snake.spots, strict=True)):
            style = styles["line--last"] if i == last else (
                styles["line--end-tile"] if i in (0, count - 1) else styles["line--tile"])
            if given(i):
                style = style + styles["line--wild"]
            # Turned round, the tile's halves change sides, and so do its given blanks' marks.
            turned = (given(i) & 1) << 1 | (given(i) & 2) >> 1
            faces.append(face(b, a, style, turned) if spot.backwards else face(a, b, style, given(i)))
        # Rows of tiles lie a fixed pitch apart, whether or not a double is down yet, so
        # that the first double does not move every tile.
        samples = [flat, face(0, 0), *faces]
        above = max(f.middle for f in samples)
        below = max(f.height - f.middle - 1 for f in samples)
        # A blank row between two rows of flat tiles, for bends and the caption.
        pitch = max(above + below + 1, samples[0].height + 1)

        lanes = [spot.lane for spot in snake.spots]
        tops = [lane * pitch - f.middle for lane, f in zip(lanes, faces, strict=True)]
        top = min([*tops, *(bend.lane * pitch for bend in snake.bends)])
        bottom = max([*(y + f.height - 1 for y, f in zip(tops, faces, strict=True)),
                      *((bend.lane + 1) * pitch for bend in snake.bends)])
        needed = bottom - top + 1
        tall_enough = height is None or needed <= height
        if height is not None and tall_enough:
            # The lead's row in the middle, unless that puts a row of tiles outside.
            lead_row = min(max((height - 1) // 2, -top), height - 1 - bottom)
            canvas = _Canvas(width, height)
        else:
            lead_row = -top
            canvas = _Canvas(width, needed + (last is not None))  # a row for the caption

        for spot, f in zip(snake.spots, faces, strict=True):
            y = lead_row + spot.lane * pitch - f.middle
            for n, text in enumerate(f.rows):
                canvas.put(spot.x, y + n, text.plain, text.style if isinstance(text.style, Style) else None)
        for bend in snake.bends:
            y = lead_row + bend.lane * pitch
            for n, char in enumerate(turn_column(pitch + 1, right=bend.right, ascii=self.ascii)):
                canvas.put(bend.x, y + n, char)
        label_style = styles["line--end-label"]
        self._put_label(canvas, t("left {number}", number=left), snake.spots[0], faces[0],
                        lead_row + lanes[0] * pitch, outwards_left=True, style=label_style)
        self._put_label(canvas, t("{number} right", number=right), snake.spots[-1], faces[-1],
                        lead_row + lanes[-1] * pitch, outwards_left=False, style=label_style)
        if last is not None:
            # The caption's row is the one under the flat tiles of its row of tiles, whichever tile
            # it marks, so that the next tile's caption usually repaints that same row only.
            self._put_caption(canvas, snake.spots[last], faces[last], lead_row + lanes[last] * pitch,
                              flat.height - flat.middle, styles["line--last-label"])

        bands: list[tuple[int, int]] = []
        for lane in range(min(lanes), max(lanes) + 1):
            start = max(lead_row + lane * pitch - above, 0)
            bands.append((start, lanes.count(lane)))
        return _Drawing(tuple(canvas.rows()), snake.fits and tall_enough, tuple(bands))

    @staticmethod
    def _put_label(canvas: _Canvas, text: str, spot: Spot, face: TileFace, axis: int, *, outwards_left: bool,
                   style: Style) -> None:
        """An end's label, beside its tile on the side the line would go on."""
        # A tile turned round on its row is seen from the other side. The blank before
        # the label takes its style: one colour change fewer to write.
        if outwards_left != spot.backwards:
            canvas.put(spot.x - 1 - cell_len(text), axis, text + " ", style)
        else:
            canvas.put(spot.x + face.width, axis, " " + text, style)

    def _says_folded(self, count: int) -> str:
        text = tn("··· {count} older tile folded away ···", "··· {count} older tiles folded away ···", count)
        return to_ascii(text) if self.ascii else text

    def _caption_name(self) -> str:
        name = clean_text(self.last_label, limit=CAPTION_NAME)
        return to_ascii(name) if self.ascii else name

    def _put_caption(self, canvas: _Canvas, spot: Spot, face: TileFace, axis: int, under: int,
                     style: Style) -> None:
        """The marker of the tile just played, with who played it, in blank cells near it.

        First on the row ``under`` rows below the ``axis`` (the row under flat tiles):
        under the tile, or beside it when it reaches that low (a double across the
        line); then under it, then over it; with the whole name before a shortened one.
        """
        name = self._caption_name()
        note = to_ascii(self.last_note) if self.ascii else self.last_note
        top = axis - face.middle
        bottom = top + face.height - 1
        up, down, left, right = ("^", "v", "<", ">") if self.ascii else ("▲", "▼", "◀", "▶")
        below = axis + under
        # Nearest the middle of the tile first.
        columns = sorted(range(spot.x, spot.x + face.width), key=lambda x: abs(x - spot.x - face.width // 2))
        # The note stays while the name shortens; only when nothing fits with it does it go.
        shortened = [name[:keep] for keep in range(len(name), -1, -1)]
        captions = [f"{shown} {note}".strip() for shown in shortened] if note else []
        for shown in [*captions, *shortened]:
            places: list[tuple[int, int, str]] = []
            if below > bottom:
                places += self._pointing(below, columns, up, shown)
            else:
                places += [(below, spot.x + face.width + 1, f"{left} {shown}".rstrip()),
                           (below, spot.x - 2 - cell_len(shown) - bool(shown), f"{shown} {right}".lstrip())]
            places += self._pointing(bottom + 1, columns, up, shown)
            places += self._pointing(top - 1, columns, down, shown)
            for y, x, text in places:
                if canvas.is_blank(x, y, cell_len(text)):
                    canvas.put(x, y, text, style)
                    return

    @staticmethod
    def _pointing(y: int, columns: Sequence[int], arrow: str, name: str) -> list[tuple[int, int, str]]:
        """Places on row ``y`` for a caption whose arrow stands in one of ``columns``."""
        if not name:
            return [(y, x, arrow) for x in columns]
        after, before = f"{arrow} {name}", f"{name} {arrow}"
        return [place for x in columns for place in ((y, x, after), (y, x - cell_len(before) + 1, before))]

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return len(self.rows(width))

    def render(self) -> Text:
        self._painted = self.rows(self.content_size.width)
        return Text("\n", end="").join(self._painted)


def _fold(drawing: _Drawing, height: int, width: int, says: Callable[[int], str], style: Style) -> list[Text]:
    """A drawing too tall for ``height`` rows with its middle rows of tiles (the oldest) folded away.

    The top and the bottom row of tiles hold the two open ends, and the rows
    next to them the newest tiles of each arm: those stay, as many as fit.
    """
    rows, bands = drawing.rows, drawing.bands
    starts = [start for start, _ in bands] + [len(rows)]
    top, bottom = 1, 1  # rows of tiles kept above and below the fold

    def kept(top: int, bottom: int) -> int:
        return starts[top] + 1 + len(rows) - starts[len(bands) - bottom]

    while top + bottom < len(bands):
        if bottom < top and kept(top, bottom + 1) <= height:
            bottom += 1
        elif kept(top + 1, bottom) <= height:
            top += 1
        elif kept(top, bottom + 1) <= height:
            bottom += 1
        else:
            break
    if top + bottom >= len(bands) or kept(top, bottom) > height:
        return list(rows[:height])  # not even the two ends fit: the top of the table
    hidden = sum(tiles for _, tiles in bands[top:len(bands) - bottom])
    fold = Text(says(hidden).center(width).rstrip(), style=style, end="")
    folded = [*rows[:starts[top]], fold, *rows[starts[len(bands) - bottom]:]]
    above = (height - len(folded)) // 2
    return [*[Text(end="")] * above, *folded, *[Text(end="")] * (height - above - len(folded))]
