"""The scoreboard of Fives and Threes, filled as a cribbage board is pegged: one track a side, to the target.

Each side (a player, or two partners) has a row: its name, its track, its
score. The track has a hole for each point up to the target when the width
allows (61 holes at 80 columns), else each cell holds a few points. The holes
already pegged are filled; those the side's last score pegged (the front peg
moved on from the back peg) are drawn apart, so the board is seen to move as a
play scores, and the score says what it was ("23 +8"). Every fifth cell is
marked, as a board's holes are grouped. It reads without colour: filled,
just pegged and empty cells are different characters (in ASCII too).
"""

from __future__ import annotations

import math
from typing import ClassVar

import msgspec
from capicu.net.host.sanitize import clean_text
from capicu.tui.words.ascii_only import to_ascii
from rich.cells import cell_len
from rich.text import Text
from textual.geometry import Size
from textual.reactive import reactive
from textual.widget import Widget

from .repaint import repaint_changes

#: The fewest cells a side's name is given before the track takes fewer cells than the target's points.
MIN_LABEL = 12

#: The cells of a track: pegged, just pegged, a hole, every fifth hole (Unicode, then ASCII).
GLYPHS = ("█", "▓", "·", "┆")
ASCII_GLYPHS = ("#", "+", ".", ":")


class Track(msgspec.Struct, frozen=True):
    """One side's row: its name, its score and its score before its last play that scored (the back peg)."""

    label: str
    score: int
    back: int
    #: The reader's own side (its name in bold).
    mine: bool = False
    #: The last points pegged on the board were this side's ("+8" beside its score).
    last: bool = False


class PeggingBoard(Widget):
    """Each side's track to the target, one row a side."""

    DEFAULT_CSS = """
    PeggingBoard {
        height: auto;
        padding: 0 1;
        background: $surface;
    }
    PeggingBoard > .peg--label {
        color: $text;
    }
    PeggingBoard > .peg--mine {
        color: $text;
        text-style: bold;
    }
    PeggingBoard > .peg--pegged {
        color: $success;
    }
    PeggingBoard > .peg--new {
        color: $warning;
        text-style: bold;
    }
    PeggingBoard > .peg--hole {
        color: $text-muted;
    }
    PeggingBoard > .peg--score {
        color: $text;
        text-style: bold;
    }
    """

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "peg--label", "peg--mine", "peg--pegged", "peg--new", "peg--hole", "peg--score",
    }

    tracks: reactive[tuple[Track, ...]] = reactive((), repaint=False)
    target: reactive[int] = reactive(61, repaint=False)
    ascii: reactive[bool] = reactive(False, layout=True)

    def __init__(self, *, ascii: bool = False, name: str | None = None, id: str | None = None,
                 classes: str | None = None) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.set_reactive(PeggingBoard.ascii, ascii)
        self._painted: list[Text] = []

    def update_board(self, tracks: tuple[Track, ...], target: int) -> None:
        """Show these tracks to ``target``; nothing is redrawn when nothing changed."""
        if (tracks, target) == (self.tracks, self.target):
            return
        layout = len(tracks) != len(self.tracks)
        self.set_reactive(PeggingBoard.tracks, tracks)
        self.set_reactive(PeggingBoard.target, target)
        if layout:
            self.refresh(layout=True)
        else:
            self._painted = repaint_changes(self, self._painted, self.rows)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return max(1, len(self.tracks))

    def rows(self, width: int) -> list[Text]:
        """The board's rows at ``width`` cells."""
        tracks = self.tracks
        if not tracks:
            return [Text(end="")]
        glyphs = ASCII_GLYPHS if self.ascii else GLYPHS
        labels = [self._label(track.label) for track in tracks]
        scores = [self._score(track) for track in tracks]
        # Room for the widest score and its "+24" always, so the tracks never shift as a score comes.
        score_width = max(len(str(max(self.target, *(track.score for track in tracks)))) + 4,
                          *(len(score) for score in scores))
        target = max(1, self.target)
        # A hole a point when the width allows it beside a short name, else a few points a cell;
        # the names take what the track leaves.
        room = max(4, width - MIN_LABEL - score_width - 2)
        per_cell = max(1, math.ceil(target / room))
        cells = math.ceil(target / per_cell)
        label_width = max(1, min(max(cell_len(label) for label in labels), width - cells - score_width - 2))
        style = self.get_component_rich_style
        rows = []
        for track, label, score in zip(tracks, labels, scores, strict=True):
            row = Text(end="", no_wrap=True)
            shown = Text(label, style=style("peg--mine" if track.mine else "peg--label"))
            shown.truncate(label_width, overflow="crop", pad=True)
            row.append_text(shown)
            row.append(" ")
            for cell in range(cells):
                low, top = cell * per_cell, min(target, (cell + 1) * per_cell)  # it holds points low+1..top
                if track.score > low:
                    new = track.last and track.back < top
                    row.append(glyphs[1] if new else glyphs[0], style("peg--new" if new else "peg--pegged"))
                elif (cell + 1) % 5 == 0:
                    row.append(glyphs[3], style("peg--hole"))
                else:
                    row.append(glyphs[2], style("peg--hole"))
            row.append(" " + score.ljust(score_width), style("peg--score"))
            rows.append(row)
        return rows

    def _label(self, label: str) -> str:
        name = clean_text(label, limit=40)
        return to_ascii(name) if self.ascii else name

    @staticmethod
    def _score(track: Track) -> str:
        gained = track.score - track.back
        return f"{track.score} +{gained}" if track.last and gained > 0 else f"{track.score}"

    def render(self) -> Text:
        self._painted = self.rows(self.content_size.width)
        return Text("\n", end="").join(self._painted)
