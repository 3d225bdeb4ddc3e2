"""Where a tile may go: the board's layouts, and the one definition of the fit rule.

Every game lays tiles on *places*: the Draw family on the two ends of one line
of play (`End`), Mexican Train on trains (`Train`). A tile fits a place when it
shows the number open there, and laid there it leaves its other number open:
`far_ends` is that rule, as a table, and everything else asks a layout built
on it (the engines, the refusals, the computer players, their play-outs and
their reading of the other players):

- `Line`, the Draw family's line of play: two open ends kept as two numbers
  (-1 before the lead), so the fast path stays on bitmasks and table lookups;
- `Trains` (core/trains.py), Mexican Train's trains from the engine.

A layout answers "which tiles of this hand can go somewhere now" (a mask),
"where can this tile go" (its places) and "what is open after it goes there".
"""

from __future__ import annotations

from enum import Enum
from functools import cache

from msgspec import Struct

from .tiles import Tile, TileSet, tile_set


class End(Enum):
    """One of the two open ends of the line of play."""

    LEFT = "left"
    RIGHT = "right"

    def __str__(self) -> str:
        return self.value


class Train(Struct, frozen=True, order=True, gc=False):
    """A train of Mexican Train: a seat's own (``owner``, counted from 0) or the Mexican train.

    Prints as it is written in an action: ``train 2``, ``mexican``.
    """

    #: The seat whose train it is; -1 for the Mexican train, which is everyone's.
    owner: int

    @property
    def is_mexican(self) -> bool:
        return self.owner < 0

    def __str__(self) -> str:
        return "mexican" if self.owner < 0 else f"train {self.owner}"


#: The one shared train, open to all.
MEXICAN = Train(-1)

#: Where a tile is laid: an end of the line, or a train.
Place = End | Train


@cache
def far_ends(tiles: TileSet) -> tuple[tuple[int, ...], ...]:
    """The fit rule: ``far[tile][n]`` is the number ``tile`` leaves open laid against ``n``, or -1.

    A tile fits an open ``n`` exactly when it shows ``n``; a double laid
    against its number leaves that number open.
    """
    numbers = range(tiles.max_pip + 1)
    return tuple(tuple(b if n == a else a if n == b else -1 for n in numbers) for a, b in tiles.ends)


def tile_leaves(tile: Tile, number: int, max_pip: int) -> int:
    """The number ``tile`` leaves open laid against an open ``number`` (-1: it does not fit there).

    The fit rule for callers holding tiles rather than tile numbers (refusals, views).
    """
    tiles = tile_set(max_pip)
    index = tiles.index.get(tile)
    return -1 if index is None else far_ends(tiles)[index][number]


class Line:
    """The Draw family's layout: one line of play, its two open ends ``(left, right)``.

    The line's state is two numbers, -1 and -1 before the lead (a round keeps
    them itself, so that copying a round for a play-out copies two ints); this
    object holds the tables that answer for any pair of ends.
    """

    __slots__ = ("far", "fit", "tiles")

    def __init__(self, tiles: TileSet) -> None:
        self.tiles = tiles
        self.far = far_ends(tiles)
        size = tiles.max_pip + 1
        far = self.far
        rows = [
            (
                *(sum(1 << t for t in range(len(tiles)) if far[t][left] >= 0 or far[t][right] >= 0)
                  for right in range(size)),
                0,
            )
            for left in range(size)
        ]
        #: fit[left][right]: the tiles that fit either end. The lead (ends -1, -1)
        #: reads the row and column one past the last number, by Python's index -1:
        #: fit[-1][-1] is every tile.
        self.fit: tuple[tuple[int, ...], ...] = (*rows, (0,) * size + (tiles.full_mask,))

    def fitting(self, left: int, right: int) -> int:
        """The tiles that may be laid on a line with these ends (every tile before the lead)."""
        return self.fit[left][right]

    def places(self, tile: int, left: int, right: int) -> tuple[End, ...]:
        """Where tile number ``tile`` may go: the lead goes on the left; else each end it fits."""
        if left < 0:
            return (End.LEFT,)
        far = self.far[tile]
        if far[left] >= 0:
            return (End.LEFT, End.RIGHT) if far[right] >= 0 else (End.LEFT,)
        return (End.RIGHT,) if far[right] >= 0 else ()

    def after(self, tile: int, end: End, left: int, right: int) -> tuple[int, int]:
        """The open ends once tile number ``tile`` is laid on ``end`` (where it fits)."""
        if left < 0:
            return self.tiles.ends[tile]
        if end is End.RIGHT:
            return left, self.far[tile][right]
        return self.far[tile][left], right

    # -- the same answers for tiles and a view's ends (None before the lead) --------

    def tile_places(self, tile: Tile, ends: tuple[int, int] | None) -> tuple[End, ...]:
        """Where ``tile`` may go on a line with ``ends``; () for a tile not of this set."""
        index = self.tiles.index.get(tile)
        if index is None:
            return ()
        left, right = ends if ends is not None else (-1, -1)
        return self.places(index, left, right)

    def tile_after(self, tile: Tile, end: End, ends: tuple[int, int] | None) -> tuple[int, int]:
        """The open ends once ``tile`` is laid on ``end`` of a line with ``ends``."""
        left, right = ends if ends is not None else (-1, -1)
        return self.after(self.tiles.index[tile], end, left, right)


@cache
def line_of(max_pip: int) -> Line:
    """The shared line layout of the double-``max_pip`` set."""
    return Line(tile_set(max_pip))
