"""Mexican Train's trains, one lane a row, with the seat that owns each (docs/RULES.md, mexican-train).

Every train starts from the round's engine, shown once above the lanes'
first column. A lane says, left to right: the key that chooses it, whose turn
it is, its owner with their hand's count and total (the seats of up to eight
players live here, so that eight lanes, the hand and the status line fit at
80x24), whether its marker is up (open to everyone), how many tiles it holds,
its newest tiles (the earlier ones folded into a count, "+9") and the number
the next tile must match. A larger window shows more tiles of each lane. The
lanes the player may lay on now are lit. A double that must be covered marks
its lane: "cover!" when it is the only one; when several are open, each says
its place in the order they are covered ("cover 1st", "2nd", ...), and the
oldest, the one to cover now, is loud. Beside the engine, who laid it (or that
it came from the boneyard).

The widget draws plain data (`Lane`, made by the screen from the view with
`lanes_from_view`), and repaints only the cells that changed (bytes over SSH).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

import msgspec
from capicu.core import MexicanView, Tile
from capicu.core.actions import MEXICAN, Train
from capicu.net.protocol import Seat, SeatKind
from capicu.tui.words.describe import display_text, seat_name, you_title
from capicu.tui.words.messages import N_, t, tc
from rich.style import Style
from rich.text import Text
from textual.geometry import Size
from textual.reactive import reactive
from textual.widget import Widget

from .repaint import repaint_changes

#: The key that chooses the Mexican train's lane (seats' lanes are 1 to 8).
MEXICAN_KEY = "m"
#: Cells of a lane before its tiles: key, turn, owner, hand, total, marker, length.
NAME_WIDTH = 14


class Lane(msgspec.Struct, frozen=True):
    """One train as its lane shows it; plain data, so that an unchanged lane is not redrawn."""

    train: Train
    #: The key that chooses this lane ("1" for one's own, "m" for the Mexican train).
    key: str
    #: Its owner's name (the Mexican train's name for it).
    owner: str
    #: Its tiles from the engine out, each as (inner, outer) numbers.
    tiles: tuple[tuple[int, int], ...]
    #: The number the next tile must match.
    head: int
    marker: bool
    #: Its double waits to be covered: its place in the order they are covered (1: the oldest,
    #: the one to cover now); 0: no double waits on it.
    cover: int = 0
    #: How many doubles wait to be covered at the table (its mark says "cover!" when one does).
    covers: int = 0
    #: The player may lay on it now (a lit lane).
    playable: bool = False
    #: The owner is on turn.
    turn: bool = False
    me: bool = False
    #: The owner's tiles in hand; None for the Mexican train.
    hand: int | None = None
    total: int | None = None
    #: At the end of a round: the count of the owner's hand (the double blank as the rules count it).
    count: int | None = None
    #: "computer", "away", "left", "disconnected" or "" (a seat's state, worded here).
    state: str = ""


def cover_mark(place: int, covers: int) -> str:
    """A lane's mark for its double waiting to be covered: "cover!" when it is the only one open,
    else its place in the order ("cover 1st", "2nd", ...); "" when none waits on it."""
    if place <= 0:
        return ""
    if covers <= 1:
        # TRANSLATORS: beside a lane whose double must be covered; one or two short words.
        return t("cover!")
    if place == 1:
        # TRANSLATORS: beside the lane of the oldest of several open doubles: it is covered first.
        return t("cover 1st")
    return t(_PLACES[min(place, len(_PLACES)) - 2])


#: The places of open doubles after the first, in the order they are covered.
# TRANSLATORS: beside the lane of an open double covered after others: its place (2nd, 3rd, ... 9th).
_PLACES = (N_("2nd"), N_("3rd"), N_("4th"), N_("5th"), N_("6th"), N_("7th"), N_("8th"), N_("9th"))


def engine_laid_by(holder: int | None, names: Sequence[str], my_seat: int | None, *,
                   set_aside: bool) -> str:
    """Beside the engine: who laid it ("laid by Ana", "laid by you"), or "from the boneyard";
    "" with the engine set aside before the deal (nobody laid it)."""
    if set_aside:
        return ""
    if holder is None:
        # TRANSLATORS: beside the engine when nobody was dealt it (it was taken from the boneyard).
        return t("from the boneyard")
    if holder == my_seat:
        # TRANSLATORS: beside the engine that you were dealt and laid.
        return t("laid by you")
    # TRANSLATORS: beside the engine: the seat that was dealt it and laid it.
    return t("laid by {name}", name=display_text(seat_name(names, holder), 14))


def _seat_state(occupant: Seat | None) -> str:
    if occupant is None:
        return ""
    if occupant.left and occupant.covered:
        return "left"
    if not occupant.connected and not occupant.covered:
        return "disconnected"
    if occupant.covered:
        return "away"
    return "computer" if occupant.kind == SeatKind.COMPUTER else ""


def lane_order(view: MexicanView) -> list[Train]:
    """The trains as the lanes stand: the Mexican train, then one's own, then the others in turn order."""
    me = view.seat or 0
    return [MEXICAN, *(Train((me + step) % view.players) for step in range(view.players))]


def lane_keys(view: MexicanView) -> dict[Train, str]:
    """The key that chooses each train's lane."""
    return {train: MEXICAN_KEY if train.is_mexican else str(index)
            for index, train in enumerate(lane_order(view))}


def lanes_from_view(
    view: MexicanView,
    names: Sequence[str],
    *,
    occupants: Sequence[Seat] = (),
    playable: frozenset[Train] = frozenset(),
    counts: Sequence[int] | None = None,
) -> tuple[Lane, ...]:
    """The lanes of ``view``: ``playable`` the trains lit, ``counts`` each hand's count after a round."""
    keys = lane_keys(view)
    lanes = []
    for train in lane_order(view):
        line = view.train_of(train)
        owner = train.owner
        seated = not train.is_mexican
        occupant = next((s for s in occupants if s.seat == owner), None) if seated else None
        lanes.append(Lane(
            train=train,
            key=keys[train],
            owner=seat_name(names, owner) if seated else tc("a lane's owner", "Mexican"),
            tiles=line.tiles,
            head=line.head,
            marker=line.marker,
            cover=view.open_doubles.index(train) + 1 if train in view.open_doubles else 0,
            covers=len(view.open_doubles),
            playable=train in playable,
            turn=seated and view.turn == owner,
            me=seated and view.seat == owner,
            hand=view.hand_counts[owner] if seated else None,
            total=view.totals[owner] if seated else None,
            count=counts[owner] if seated and counts is not None and owner < len(counts) else None,
            state=_seat_state(occupant),
        ))
    return tuple(lanes)


class TrainLanes(Widget):
    """The engine, then one row per train (see the module docstring)."""

    DEFAULT_CSS = """
    TrainLanes {
        height: auto;
        background: $felt;
        color: $felt-text;
    }
    TrainLanes > .lanes--tile {
        background: $tile-face;
        color: $tile-pip;
    }
    TrainLanes > .lanes--head {
        background: $open-end;
        color: $open-end-text;
        text-style: bold;
    }
    TrainLanes > .lanes--lit {
        background: $open-end;
        color: $open-end-text;
        text-style: bold;
    }
    TrainLanes > .lanes--turn {
        color: $turn;
        text-style: bold;
    }
    TrainLanes > .lanes--marker-up {
        color: $turn;
        text-style: bold;
    }
    TrainLanes > .lanes--open-double {
        background: $open-end;
        color: $open-end-text;
        text-style: bold;
    }
    TrainLanes > .lanes--me {
        text-style: bold;
    }
    """

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "lanes--tile",
        "lanes--head",
        "lanes--lit",
        "lanes--turn",
        "lanes--marker-up",
        "lanes--open-double",
        "lanes--me",
    }

    lanes: reactive[tuple[Lane, ...]] = reactive((), repaint=False)
    engine: reactive[Tile | None] = reactive(None, repaint=False)
    #: Who laid the engine, as the header says it beside it ("laid by Ana", "from the boneyard"; "": nothing).
    engine_by: reactive[str] = reactive("", repaint=False)
    ascii: reactive[bool] = reactive(False)
    #: The lane whose tile waits for the player's choice of train (the cursor in the lanes), if any.
    chosen: reactive[Train | None] = reactive(None, repaint=False)
    #: The turn timer: the seat on turn and its seconds left (None: no timer runs).
    timer: reactive[tuple[int, int] | None] = reactive(None, repaint=False)

    def __init__(self, *, ascii: bool = False, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.set_reactive(TrainLanes.ascii, ascii)
        self._painted: list[Text] = []

    def update_lanes(self, lanes: tuple[Lane, ...], engine: Tile, engine_by: str = "") -> None:
        """Show these lanes from this engine, laid as ``engine_by`` says (nothing is redrawn when they
        equal what is shown)."""
        self.engine = engine
        self.engine_by = engine_by
        self.lanes = lanes

    def watch_lanes(self, before: tuple[Lane, ...], after: tuple[Lane, ...]) -> None:
        if len(before) != len(after):
            self.refresh(layout=True)
        self._repaint_changes()

    def watch_engine(self) -> None:
        self._repaint_changes()

    def watch_engine_by(self) -> None:
        self._repaint_changes()

    def watch_chosen(self) -> None:
        self._repaint_changes()

    def watch_timer(self) -> None:
        # As the clock ticks only its lane's digits are repainted.
        self._repaint_changes()

    def _repaint_changes(self) -> None:
        self._painted = repaint_changes(self, self._painted, self.rows)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return len(self.lanes) + 1

    # -- drawing ---------------------------------------------------------------------

    def _style(self, name: str) -> Style:
        return self.get_component_rich_style(name)

    def _tile(self, a: int, b: int) -> Text:
        # Each number as it is, in every tile alike (``[12|8][8|7]``): a padded ``[12| 8]`` beside an
        # unpadded ``[8|7]`` read unevenly, and padding every tile fits fewer of them in a lane.
        return Text(f"[{a}|{b}]", style=self._style("lanes--tile"), end="")

    def _lead(self, lane: Lane, width: int) -> Text:
        """The lane's cells before its tiles: key, turn, owner, hand and total, marker, length."""
        text = Text(end="", no_wrap=True)
        lit = lane.playable or self.chosen == lane.train
        text.append(f"{lane.key}", self._style("lanes--lit") if lit else "")
        turn = (">" if self.ascii else "▶") if lane.turn else " "
        text.append(turn, self._style("lanes--turn"))
        owner = you_title() if lane.me else display_text(lane.owner, 40)
        owner = owner[:NAME_WIDTH].ljust(NAME_WIDTH)
        text.append(owner, self._style("lanes--me") if lane.me else "")
        if lane.hand is not None:
            # TRANSLATORS: a hand's count at the end of a round, beside its seat ("=23").
            shown = t("={count}", count=lane.count) if lane.count is not None else str(lane.hand)
            text.append(f"{shown:>5}{lane.total or 0:>6}")
            state = {"computer": tc("a seat's state, one short word", "cpu"),
                     "away": tc("a seat's state, one short word", "away"),
                     "left": tc("a seat's state, one short word", "left"),
                     "disconnected": tc("a seat's state, one short word", "off")}.get(lane.state, "")
            timer = self.timer
            if not state and timer is not None and timer[0] == lane.train.owner:
                # The turn timer in the state's cells: a person on turn has no other state to show.
                # TRANSLATORS: a turn timer's seconds left, beside its seat's lane; at most four cells.
                state = tc("a turn timer's seconds left", "{seconds}s", seconds=timer[1])
            text.append(f" {state[:4]:<4}")
        else:
            text.append(" " * 16)
        up = ("^" if self.ascii else "▲") if lane.marker else ("." if self.ascii else "·")
        text.append(f" {up}", self._style("lanes--marker-up") if lane.marker else "")
        text.append(f"{len(lane.tiles):>3} ")
        return text

    def _lane(self, lane: Lane, width: int, start: int) -> Text:
        row = self._lead(lane, width)
        bar = "|" if self.ascii else "│"
        row.append(bar)
        arrow = "->" if self.ascii else "→"
        tail = Text(f" {arrow}", end="")
        tail.append(f"{lane.head:>2}", self._style("lanes--head"))
        mark = cover_mark(lane.cover, lane.covers)
        if mark:
            loud = lane.cover == 1
            tail.append(" " + mark, self._style("lanes--open-double" if loud else "lanes--marker-up"))
        room = width - start - 1 - tail.cell_len
        faces = [self._tile(a, b) for a, b in lane.tiles]
        shown: list[Text] = []
        used = 0
        for face in reversed(faces):
            folded = len(faces) - len(shown) - 1
            fold_room = len(f"+{folded} ") if folded else 0
            if used + face.cell_len + fold_room > room:
                break
            shown.insert(0, face)
            used += face.cell_len
        folded = len(faces) - len(shown)
        if folded:
            row.append(f"+{folded} ")
        for face in shown:
            row.append_text(face)
        row.append_text(tail)
        if lane.cover == 1:
            row.stylize(self._style("lanes--open-double"), 0, 1 + 1 + NAME_WIDTH)
        row.truncate(width, overflow="crop")
        return row

    def _header(self, width: int, start: int) -> Text:
        text = Text(end="", no_wrap=True)
        # TRANSLATORS: the lanes' column heads: keep each within its width (hand 5, total 6).
        heads = t("  train").ljust(2 + NAME_WIDTH) + t("hand").rjust(5) + t("total").rjust(6)
        label = t("engine") + " "
        pad = max(start + 1 - len(label), 0)
        text.append(heads[:pad].ljust(pad))
        if self.engine is not None:
            text.append(label)
            text.append_text(self._tile(self.engine.low, self.engine.high))
            if self.engine_by:
                text.append(" " + self.engine_by)
        text.truncate(width, overflow="crop")
        return text

    def rows(self, width: int) -> list[Text]:
        """Every row of the lanes at ``width`` cells (the header first)."""
        if not self.lanes:
            return []
        start = 2 + NAME_WIDTH + 11 + 5 + 2 + 4
        return [self._header(width, start), *(self._lane(lane, width, start) for lane in self.lanes)]

    def render(self) -> Text:
        self._painted = self.rows(self.content_size.width)
        return Text("\n", end="").join(self._painted)
