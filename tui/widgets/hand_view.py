"""Your hand: one focusable widget with a cursor over the tiles.

Which tiles may be played comes from the engine (`View.legal`), never from a
rule written here: a tile is highlighted when some ``Play`` of it is in the
legal actions, dimmed when it is not, and shown plain while it is not your turn
(no legal actions at all). Enter posts `HandView.TileChosen` with that tile's
legal plays, so the app can ask for an end when the tile fits both.

Any change redraws only the cells that changed (SSH players pay for every byte
written): a cursor move costs the two tiles it leaves and reaches.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from capicu.core import Action, Play, Tile, View
from capicu.tui.words.messages import N_, current, t, tc
from rich.style import Style
from rich.text import Text
from textual.binding import Binding, BindingType
from textual.events import Click
from textual.geometry import Region, Size
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

from .repaint import repaint_changes
from .tiles import TileStyle, smaller_styles, tile_face, wrap_widths

#: Cells between two tiles in the hand.
GAP = 1


class HandView(Widget, can_focus=True):
    """The tiles of this seat's hand, a cursor, and Enter to choose one."""

    DEFAULT_CSS = """
    HandView {
        height: auto;
        min-height: 2;
        /* Big tile styles give way to smaller ones beyond this (see _layout). */
        max-height: 40vh;
        padding: 0 1;
    }
    HandView > .hand--tile {
        background: $tile-face;
        color: $tile-pip;
    }
    HandView > .hand--legal {
        background: $tile-legal;
        color: $tile-legal-pip;
        text-style: bold;
    }
    HandView > .hand--dimmed {
        /* The theme's own dimmed colours, without text-style: dim (a blend Textual makes
           before the colours are cut down to 16, where it lands on the tile's own colour). */
        background: $tile-dimmed;
        color: $tile-dimmed-pip;
    }
    HandView > .hand--cursor {
        background: $tile-cursor;
        color: $tile-cursor-pip;
        text-style: bold;
    }
    HandView > .hand--cursor-dimmed {
        /* Not bold: xterm and PuTTY draw bold black as bright black, the dimmed face's grey. */
        background: $tile-dimmed;
        color: $tile-dimmed-pip;
    }
    HandView > .hand--marker {
        color: $tile-cursor;
        text-style: bold;
    }
    HandView > .hand--empty {
        text-style: italic;
    }
    """

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "hand--tile",
        "hand--legal",
        "hand--dimmed",
        "hand--cursor",
        "hand--cursor-dimmed",
        "hand--marker",
        "hand--empty",
    }

    #: The hand's keys, declared here once. At the table the hand never has the focus (the
    #: table's keys come in the table's order): the table screen binds these same bindings to
    #: actions of the same names, which drive the hand.
    CURSOR_BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "cursor(-1)", N_("Previous tile"), show=False),
        Binding("right", "cursor(1)", N_("Next tile"), show=False),
        Binding("home", "cursor_to(0)", N_("First tile"), show=False),
        Binding("end", "cursor_to(-1)", N_("Last tile"), show=False),
    ]
    CHOOSE_BINDING: ClassVar[Binding] = Binding("enter", "choose", N_("Play tile"))
    #: When no tile may be played, Enter still answers: the table says why.
    CHOOSE_ANYWAY_BINDING: ClassVar[Binding] = Binding("enter", "choose_anyway", "", show=False)
    BINDINGS: ClassVar[list[BindingType]] = [*CURSOR_BINDINGS, CHOOSE_BINDING, CHOOSE_ANYWAY_BINDING]

    @dataclass
    class TileChosen(Message):
        """The player chose a tile; ``actions`` are its legal plays (empty: it does not fit now)."""

        hand: HandView
        tile: Tile
        actions: tuple[Play, ...]

        @property
        def control(self) -> HandView:
            return self.hand

    hand: reactive[tuple[Tile, ...]] = reactive((), repaint=False)
    legal: reactive[tuple[Action, ...]] = reactive((), repaint=False)
    cursor: reactive[int] = reactive(0, repaint=False)
    tile_style: reactive[TileStyle] = reactive(TileStyle.COMPACT, layout=True)
    ascii: reactive[bool] = reactive(False, layout=True)
    digits: reactive[int] = reactive(1, layout=True)
    #: Watching, not playing: there is no hand to show.
    spectator: reactive[bool] = reactive(False, layout=True)
    #: A round is being played (False between rounds and once the match is over:
    #: Enter then belongs to the table, "ready for the next deal").
    playing: reactive[bool] = reactive(True, repaint=False)

    def watch_playing(self) -> None:
        self._repaint_changes()
    #: The row under the tiles (the cursor, "new"); False leaves it out where no tile is marked
    #: (the replay's hands, many to a screen).
    markers: reactive[bool] = reactive(True, layout=True)
    #: Tiles just drawn, marked "new" until the player's next move.
    fresh: reactive[frozenset[Tile]] = reactive(frozenset(), repaint=False)

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
        self.set_reactive(HandView.tile_style, tile_style)
        self.set_reactive(HandView.ascii, ascii)
        self._cache_key: object = None
        self._cache: tuple[list[Text], list[Region]] = ([], [])
        #: The round of the last view shown: a new one is a new deal.
        self._round = -1
        #: Rows the hand may take (from max-height), known once laid out.
        self._budget: int | None = None
        #: The rows last drawn (or last told to the compositor as changed).
        self._painted: list[Text] = []

    # -- data in ------------------------------------------------------------

    def update_hand(
        self, hand: Sequence[Tile], legal: Sequence[Action], max_pip: int = 6, *, new_deal: bool = False
    ) -> None:
        """Show this hand and these legal actions.

        The cursor stays on its tile while that tile is held, else on the same
        place; a ``new_deal`` starts it at the first tile.
        """
        current = None if new_deal else self.selected
        hand = tuple(hand)
        self.digits = len(str(max_pip))
        self.hand = hand
        self.legal = tuple(legal)
        if current in hand:
            self.cursor = hand.index(current)
        elif new_deal:
            self.cursor = 0
        else:
            self.cursor = min(self.cursor, max(len(hand) - 1, 0))

    def update_from_view(self, view: View) -> None:
        """Show a seat's `View`: its hand and what the engine says it may do."""
        self.spectator = view.seat is None
        playing = view.seat is not None and view.turn is not None
        if playing != self.playing:
            self.playing = playing
            self.refresh_bindings()
        new_deal = view.round_number != self._round
        self._round = view.round_number
        self.update_hand(view.hand, view.legal, view.rules.max_pip, new_deal=new_deal)

    # -- reading --------------------------------------------------------------

    @property
    def selected(self) -> Tile | None:
        """The tile under the cursor (None with an empty hand)."""
        if 0 <= self.cursor < len(self.hand):
            return self.hand[self.cursor]
        return None

    def plays_for(self, tile: Tile) -> tuple[Play, ...]:
        """The legal plays of ``tile``, as the engine listed them."""
        return tuple(a for a in self.legal if isinstance(a, Play) and a.tile == tile)

    def _playable(self) -> frozenset[Tile]:
        return frozenset(a.tile for a in self.legal if isinstance(a, Play))

    # -- actions --------------------------------------------------------------

    def action_cursor(self, step: int) -> None:
        if self.hand:
            self.cursor = max(0, min(len(self.hand) - 1, self.cursor + step))

    def action_cursor_to(self, index: int) -> None:
        if self.hand:
            self.cursor = index % len(self.hand)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # The Footer offers "Play tile" only when some tile may be played now.
        if action == "choose":
            return bool(self._playable())
        if action == "choose_anyway":
            return self.playing
        return True

    def action_choose(self) -> None:
        tile = self.selected
        if tile is not None:
            self.post_message(self.TileChosen(self, tile, self.plays_for(tile)))

    def action_choose_anyway(self) -> None:
        self.action_choose()

    def on_click(self, event: Click) -> None:
        _, regions = self._layout(self.content_size.width)
        for index, region in enumerate(regions):
            if region.contains(event.x - self.gutter.left, event.y - self.gutter.top):
                self.cursor = index
                self.action_choose()
                return

    # -- drawing --------------------------------------------------------------

    def validate_cursor(self, value: int) -> int:
        return max(0, min(value, len(self.hand) - 1)) if self.hand else 0

    def watch_cursor(self) -> None:
        self._repaint_changes()

    def watch_hand(self) -> None:
        self._repaint_changes()

    def watch_legal(self, before: tuple[Action, ...], after: tuple[Action, ...]) -> None:
        self._repaint_changes()
        if any(isinstance(a, Play) for a in before) != any(isinstance(a, Play) for a in after):
            self.refresh_bindings()

    def watch_fresh(self) -> None:
        self._repaint_changes()

    def _repaint_changes(self) -> None:
        self._painted = repaint_changes(self, self._painted, lambda width: self._layout(width)[0])

    def _style_for(self, index: int, playable: frozenset[Tile]) -> Style:
        # The marker row shows the cursor; the face still says whether the tile fits,
        # so a dimmed tile under the cursor stays dimmed-looking.
        fits = not self.legal or self.hand[index] in playable
        if index == self.cursor and self.playing:
            return self.get_component_rich_style("hand--cursor" if fits else "hand--cursor-dimmed")
        if not self.legal:
            return self.get_component_rich_style("hand--tile")
        return self.get_component_rich_style("hand--legal" if fits else "hand--dimmed")

    def _layout(self, width: int) -> tuple[list[Text], list[Region]]:
        """The rows that draw the hand, and each tile's region (tile and marker below it)."""
        width = max(width, 1)
        styles = tuple(self.get_component_rich_style(name) for name in sorted(self.COMPONENT_CLASSES))
        screen = (self.app.size.width, self.app.size.height)
        # The language too: "new" under a drawn tile and the empty hand's sentence are words.
        key = (self.hand, self.legal, self.cursor, self.tile_style, self.ascii, self.digits, width, styles,
               self.spectator, self._budget, screen, self.fresh, self.playing, self.markers, current().code)
        if key == self._cache_key:
            return self._cache
        if not self.hand:
            words = t("You are watching: no hand.") if self.spectator else t("No tiles in hand.")
            text = Text(words, style=self.get_component_rich_style("hand--empty"), end="")
            result: tuple[list[Text], list[Region]] = ([text], [])
            self._cache_key, self._cache = key, result
            return result
        for style in smaller_styles(self.tile_style, screen):
            result = self._lay_out_tiles(width, style)
            if self._budget is None or len(result[0]) <= self._budget:
                break
        self._cache_key, self._cache = key, result
        return result

    def _lay_out_tiles(self, width: int, tile_style: TileStyle) -> tuple[list[Text], list[Region]]:
        playable = self._playable()
        faces = [
            tile_face(tile.low, tile.high, tile_style, ascii=self.ascii, crosswise=False,
                      digits=self.digits, face_style=self._style_for(i, playable))
            for i, tile in enumerate(self.hand)
        ]
        marker_style = self.get_component_rich_style("hand--marker")
        mark = "^" if self.ascii else "▔"
        rows: list[Text] = []
        regions: list[Region] = [Region()] * len(faces)
        for span in wrap_widths([face.width for face in faces], width, GAP):
            height = max(faces[i].height for i in span)
            lines = [Text(end="") for _ in range(height + (1 if self.markers else 0))]
            x = 0
            for i in span:
                face = faces[i]
                if i != span.start:
                    for line in lines:
                        line.append(" " * GAP)
                    x += GAP
                for y in range(height):
                    if y < face.height:
                        lines[y].append_text(face.rows[y])
                    else:
                        lines[y].append(" " * face.width)
                if i == self.cursor and self.playing and self.hand[i] in self.fresh:
                    # TRANSLATORS: under a tile just drawn, as wide as a compact tile: 5 letters at most.
                    marker = tc("a tile just drawn", "new").center(face.width, mark)[: face.width]
                elif i == self.cursor and self.playing:
                    marker = mark * face.width
                elif self.hand[i] in self.fresh:
                    marker = tc("a tile just drawn", "new").center(face.width)[: face.width]
                else:
                    marker = ""
                if self.markers:
                    # A blank marker is the gap's own blank: the marker row is one run of spaces but
                    # for the cursor and "new", so a repaint of it costs a few colour codes, not one a tile.
                    if marker:
                        lines[height].append(marker, marker_style)
                    else:
                        lines[height].append(" " * face.width)
                regions[i] = Region(x, len(rows), face.width, len(lines))
                x += face.width
            rows.extend(lines)
        return rows, regions

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        limit = self.styles.max_height
        if limit is not None:
            self._budget = max(int(limit.resolve(container, viewport)) - self.gutter.height, 2)
        return len(self._layout(width)[0])

    def render(self) -> Text:
        self._painted = self._layout(self.content_size.width)[0]
        return Text("\n", end="").join(self._painted)
