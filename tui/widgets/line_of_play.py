"""The line of play (la mesa): tiles wrapped across rows, both open ends marked.

The line wraps like text, left to right and top to bottom, so it never scrolls
sideways and every tile stays readable at 80 columns. The two open ends are the
first and last pieces of that reading order; each end's tile gets the open-end
colour and a label with its number ("left 3", "5 right"), so the ends read even
in a terminal without colour.

A new tile repaints only the cells that changed (see `repaint`): a tile laid on
the right end costs two tiles' worth of bytes, not the whole line.
"""

from __future__ import annotations

from typing import ClassVar

from rich.style import Style
from rich.text import Text
from textual.geometry import Size
from textual.reactive import reactive
from textual.widget import Widget

from ..messages import t
from .repaint import merge_spans, repaint_changes
from .tiles import TileFace, TileStyle, label_face, smaller_styles, stack_row, tile_face, wrap_widths

Pair = tuple[int, int]


class LineOfPlay(Widget):
    """The tiles on the table, from `View.line` and `View.ends`."""

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
    """

    COMPONENT_CLASSES: ClassVar[set[str]] = {"line--tile", "line--end-tile", "line--end-label", "line--empty"}

    line: reactive[tuple[Pair, ...]] = reactive((), repaint=False)
    ends: reactive[Pair | None] = reactive(None, repaint=False)
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

    def update_line(self, line: tuple[Pair, ...], ends: Pair | None, max_pip: int = 6) -> None:
        """Show this line (a no-op when nothing changed, so nothing is redrawn)."""
        self.digits = len(str(max_pip))
        self.line = tuple(line)
        self.ends = ends

    def watch_line(self) -> None:
        self._repaint_changes()

    def watch_ends(self) -> None:
        self._repaint_changes()

    def _repaint_changes(self) -> None:
        self._painted = repaint_changes(self, self._painted, self.rows, self._fixed_height())

    # -- layout -----------------------------------------------------------

    def _faces(self, tile_style: TileStyle, crosswise: bool) -> list[TileFace]:
        tile = self.get_component_rich_style("line--tile")
        end = self.get_component_rich_style("line--end-tile")
        last = len(self.line) - 1
        faces = []
        for i, (a, b) in enumerate(self.line):
            style = end if i in (0, last) else tile
            faces.append(
                tile_face(
                    a,
                    b,
                    tile_style,
                    ascii=self.ascii,
                    crosswise=None if crosswise else False,
                    digits=self.digits,
                    face_style=style,
                )
            )
        return faces

    def _fixed_height(self) -> int | None:
        """The rows the layout gives this widget, or None when it sizes itself (height auto)."""
        height = self.styles.height
        if height is None or height.is_auto or not self.is_mounted:
            return None
        return self.content_size.height or None

    def rows(self, width: int, height: int | None = None) -> list[Text]:
        """The rows of text that draw the line at ``width`` cells (cached per state).

        With a fixed ``height`` (default: the one the layout gave this widget), a
        line too tall for it is drawn smaller rather than cut off: doubles lie
        flat first, then the tiles take a smaller style (pips, boxed, compact).
        """
        height = self._fixed_height() if height is None else height
        label_style: Style = self.get_component_rich_style("line--end-label")
        styles = tuple(self.get_component_rich_style(name) for name in sorted(self.COMPONENT_CLASSES))
        screen = (self.app.size.width, self.app.size.height)
        key = (self.line, self.ends, self.tile_style, self.ascii, self.crosswise, self.digits, width, height,
               styles, screen)
        if key == self._cache_key:
            return self._cache
        if not self.line:
            text = Text(t("line.empty"), style=self.get_component_rich_style("line--empty"), end="")
            text.truncate(max(width, 1))
            rows = [text]
        else:
            candidates = [(style, across) for style in smaller_styles(self.tile_style, screen)
                          for across in dict.fromkeys((self.crosswise, False))]
            for tile_style, crosswise in candidates:
                rows = self._layout(max(width, 1), label_style, tile_style, crosswise)
                if height is None or len(rows) <= height:
                    break
        self._cache_key, self._cache = key, rows
        return rows

    def _layout(self, width: int, label_style: Style, tile_style: TileStyle, crosswise: bool) -> list[Text]:
        faces = self._faces(tile_style, crosswise)
        left, right = self.ends if self.ends is not None else (self.line[0][0], self.line[-1][1])
        pieces = [
            label_face(t("line.left_end", number=left) + " ", label_style),
            *faces,
            label_face(" " + t("line.right_end", number=right), label_style),
        ]
        # Compact tiles carry their own brackets; boxes side by side would merge.
        gap = 0 if tile_style is TileStyle.COMPACT else 1
        rows: list[Text] = []
        for span in wrap_widths([piece.width for piece in pieces], width, gap):
            row = stack_row([pieces[i] for i in span], gap)
            for text in row:
                text.truncate(width)
                merge_spans(text)
            rows.extend(row)
        return rows

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return len(self.rows(width))

    def render(self) -> Text:
        self._painted = self.rows(self.content_size.width)
        return Text("\n", end="").join(self._painted)
