"""One seat at the table: name, tiles left, score, connection, whose turn, the turn timer."""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum
from typing import ClassVar

import msgspec
from capicu.core import Direction, RoundEnded, Tile, View
from capicu.net.protocol import NAME_LIMIT, Seat, SeatKind
from capicu.tui.words.describe import display_text, seat_name
from capicu.tui.words.messages import t, tc, tn
from rich.text import Text
from textual.geometry import Size
from textual.reactive import reactive
from textual.widget import Widget

from .repaint import repaint_changes


class SeatView(msgspec.Struct, frozen=True):
    """One seat as its panel shows it: who sits there (the wire's `Seat`), and how they stand (the `View`).

    Plain data, so that an unchanged seat is not redrawn.
    """

    seat: int
    name: str
    tiles: int
    score: int
    connected: bool = True
    #: A computer player's seat.
    computer: bool = False
    #: A person who is away while the computer plays their seat.
    covered: bool = False
    turn: bool = False
    me: bool = False
    partner: bool = False
    #: The person left on purpose (the computer plays for them).
    left: bool = False
    #: At the end of a round: the tiles left in this seat's hand, shown to all.
    revealed: tuple[Tile, ...] | None = None
    #: Between rounds: True once this person is ready for the next deal, False while
    #: the table waits for them, None when nobody waits for this seat.
    ready: bool | None = None
    #: What the third row says instead of the seat's connection (a replay: the hand's pips).
    note: str = ""
    #: A hand shown at the round's end is counted in pips (Fives and Threes' hands count nothing).
    pips: bool = True

    @classmethod
    def from_view(
        cls,
        view: View,
        seat: int,
        names: Sequence[str],
        *,
        occupant: Seat | None = None,
        ready: bool | None = None,
    ) -> SeatView:
        """Seat ``seat`` as ``view``'s seat sees it (its side's score), ``occupant`` the host's word on it."""
        side = view.side_of(seat)
        me = view.seat is not None and seat == view.seat
        partner = (
            view.seat is not None and not me and view.rules.partnerships and view.side_of(view.seat) == side
        )
        revealed = None
        if view.turn is None:  # the round is over: every hand is shown
            ended = next((e for e in reversed(view.events) if isinstance(e, RoundEnded)), None)
            if ended is not None and seat < len(ended.result.hands):
                revealed = ended.result.hands[seat]
        return cls(
            seat=seat,
            name=seat_name(names, seat),
            tiles=view.hand_counts[seat] if seat < len(view.hand_counts) else 0,
            score=view.scores[side] if side < len(view.scores) else 0,
            connected=occupant.connected if occupant else True,
            computer=occupant is not None and occupant.kind == SeatKind.COMPUTER,
            covered=occupant is not None and occupant.covered,
            turn=view.turn == seat,
            me=me,
            partner=partner,
            left=occupant is not None and occupant.left,
            revealed=revealed,
            ready=ready,
        )


class Position(Enum):
    """Where a seat sits on screen, seen from this seat (always at the bottom)."""

    BOTTOM = "bottom"
    RIGHT = "right"
    TOP = "top"
    LEFT = "left"


def table_positions(players: int, my_seat: int | None, direction: Direction) -> list[tuple[int, Position]]:
    """Each seat and where it sits on screen, in turn order from this seat.

    Seats are numbered in turn order; counterclockwise play means the next
    player sits to your right, clockwise to your left. A spectator sees seat 0
    at the bottom.
    """
    me = my_seat or 0
    if players == 2:
        spots = [Position.BOTTOM, Position.TOP]
    elif players == 3:
        spots = [Position.BOTTOM, Position.RIGHT, Position.LEFT]
    else:
        spots = [Position.BOTTOM, Position.RIGHT, Position.TOP, Position.LEFT]
    if direction is Direction.CLOCKWISE:
        mirror = {Position.RIGHT: Position.LEFT, Position.LEFT: Position.RIGHT}
        spots = [mirror.get(spot, spot) for spot in spots]
    return [((me + step) % players, spots[step]) for step in range(players)]


class SeatPanel(Widget):
    """Three lines: turn marker and name; tiles and score; status and timer."""

    DEFAULT_CSS = """
    SeatPanel {
        height: 3;
        width: 1fr;
        min-width: 16;
        padding: 0 1;
    }
    SeatPanel.-turn {
        background: $boost;
    }
    SeatPanel > .seat--name {
        text-style: bold;
    }
    SeatPanel > .seat--turn {
        color: $turn;
        text-style: bold;
    }
    SeatPanel > .seat--status {
        color: $text-muted;
    }
    SeatPanel > .seat--away {
        color: $warning;
    }
    SeatPanel > .seat--timer {
        color: $turn;
        text-style: bold;
    }
    """

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "seat--name",
        "seat--turn",
        "seat--status",
        "seat--away",
        "seat--timer",
    }

    info: reactive[SeatView | None] = reactive(None, repaint=False)
    #: Seconds left on the turn timer, None when no timer runs.
    timer: reactive[int | None] = reactive(None, repaint=False)
    ascii: reactive[bool] = reactive(False)

    def __init__(
        self,
        info: SeatView | None = None,
        *,
        ascii: bool = False,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.set_reactive(SeatPanel.ascii, ascii)
        #: The rows last drawn, so that a change repaints only the cells it touches.
        self._painted: list[Text] = []
        if info is not None:
            self.set_reactive(SeatPanel.info, info)
            self._set_classes(info)

    def update_seat(self, info: SeatView) -> None:
        """Show ``info`` (nothing is redrawn when it equals what is shown)."""
        self.info = info

    def watch_info(self, info: SeatView | None) -> None:
        if info is not None:
            self._set_classes(info)
        self._repaint_changes()

    def _set_classes(self, info: SeatView) -> None:
        # In one batch: Textual restyles the panel at once for every class that changes.
        self.update_classes({"-turn": info.turn, "-me": info.me, "-away": not info.connected or info.covered})

    def watch_timer(self) -> None:
        # As the clock ticks only its digits are repainted.
        self._repaint_changes()

    def _repaint_changes(self) -> None:
        self._painted = repaint_changes(self, self._painted, lambda _width: self._rows())

    def _name_line(self, info: SeatView) -> Text:
        marker = (">" if self.ascii else "▶") if info.turn else " "
        shown = display_text(info.name, NAME_LIMIT)
        if info.me:
            name = t("{name} (you)", name=shown)
        elif info.partner:
            name = t("{name} (partner)", name=shown)
        else:
            name = shown
        text = Text(end="", no_wrap=True)
        text.append(marker + " ", self.get_component_rich_style("seat--turn"))
        text.append(name, self.get_component_rich_style("seat--name"))
        if info.turn:
            text.append(" " + tc("whose turn it is", "to play"), self.get_component_rich_style("seat--turn"))
        return text

    def _count_line(self, info: SeatView) -> Text:
        tiles = tn("{count} tile", "{count} tiles", info.tiles)
        score = tn("{count} pt", "{count} pts", info.score)
        return Text(f"  {tiles}, {score}", end="", no_wrap=True)

    def _after_round(self, info: SeatView, tiles: tuple[Tile, ...], width: int) -> list[Text]:
        """The name and who is ready, then the hand shown to all and its count, over two rows."""
        first = self._name_line(info)
        if info.ready is not None and not info.me:  # mine is said on the status line
            state = t("ready") if info.ready else t("not ready yet")
            first.append("  " + state, self.get_component_rich_style("seat--status" if info.ready
                                                                     else "seat--turn"))
        pips = sum(tile.pips for tile in tiles)
        count = tn("{count} pip", "{count} pips", pips)
        counted = ["=", count] if info.pips else []
        if not tiles:
            words = [t("out: no tiles left")]
        elif info.me:  # my tiles are in my hand, beside this panel
            held = tn("{count} tile", "{count} tiles", len(tiles))
            words = [held, *counted]
        else:
            words = [*(str(tile) for tile in tiles), *counted]
        rows = [Text("  ", end="", no_wrap=True), Text("  ", end="", no_wrap=True)]
        row = 0
        for word in words:
            if row == 0 and rows[0].cell_len + len(word) + 1 > width and rows[0].cell_len > 2:
                row = 1
            rows[row].append(word if rows[row].cell_len == 2 else " " + word)
        return [first, *rows]

    def _status_line(self, info: SeatView) -> Text:
        text = Text("  ", end="", no_wrap=True)
        if info.note:
            text.append(info.note, self.get_component_rich_style("seat--status"))
        elif info.left and info.covered:
            text.append(t("left, computer plays"), self.get_component_rich_style("seat--away"))
        elif not info.connected and not info.covered:
            text.append(t("disconnected"), self.get_component_rich_style("seat--away"))
        elif info.covered:
            text.append(t("away, computer plays"), self.get_component_rich_style("seat--away"))
        elif info.computer:
            text.append(t("computer"), self.get_component_rich_style("seat--status"))
        else:
            text.append(t("connected"), self.get_component_rich_style("seat--status"))
        if self.timer is not None:
            timer = t("{seconds}s left", seconds=max(self.timer, 0))
            text.append("  " + timer, self.get_component_rich_style("seat--timer"))
        return text

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return 3

    def _rows(self) -> list[Text]:
        info = self.info
        if info is None:
            return [Text(end="")] * 3
        width = max(self.content_size.width, 1)
        if info.revealed is not None:
            lines = self._after_round(info, info.revealed, width)
        else:
            lines = [self._name_line(info), self._count_line(info), self._status_line(info)]
        for line in lines:
            # "…" is not ASCII: ASCII mode crops instead.
            line.truncate(width, overflow="crop" if self.ascii else "ellipsis")
        return lines

    def render(self) -> Text:
        self._painted = self._rows()
        return Text("\n", end="").join(self._painted)
