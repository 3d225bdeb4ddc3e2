"""The Draw family's layout: one line of play with two open ends (`End`).

Every game lays tiles on *places* (core/actions.py: an `End` of the line, a
`Train`); where a tile fits is the one fit rule, `far_ends` (core/tiles.py).
`Line` is the Draw family's layout built on it: two open ends kept as two
numbers (-1 before the lead), so the fast path stays on bitmasks and table
lookups. (Mexican Train's layout is `Trains`, core/mexican/layout.py.)

A layout answers "which tiles of this hand can go somewhere now" (a mask),
"where can this tile go" (its places) and "what is open after it goes there".
"""

from __future__ import annotations

from functools import cache

from ..actions import End, Play
from ..tiles import Tile, TileSet, far_ends, tile_set


class Line:
    """The Draw family's layout: one line of play, its two open ends ``(left, right)``.

    The line's state is two numbers, -1 and -1 before the lead (a round keeps
    them itself, so that copying a round for a play-out copies two ints); this
    object holds the tables that answer for any pair of ends.
    """

    __slots__ = ("far", "fit", "tiles", "wild_blanks")

    def __init__(self, tiles: TileSet, wild_blanks: bool = False) -> None:
        self.tiles = tiles
        #: Blanks are wild (docs/RULES.md, house rules): the fit table says where they go.
        self.wild_blanks = wild_blanks
        self.far = far_ends(tiles, wild_blanks)
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

    def after(self, tile: int, end: End, left: int, right: int, blank: int = -1) -> tuple[int, int]:
        """The open ends once tile number ``tile`` is laid on ``end`` (where it fits).

        ``blank`` is the number its player gives a wild blank left open (-1: none).
        """
        if left < 0:
            a, b = self.tiles.ends[tile]
            if blank >= 0:
                return (blank, blank) if b == 0 else (blank, b)
            return a, b
        if end is End.RIGHT:
            return left, blank if blank >= 0 else self.far[tile][right]
        return blank if blank >= 0 else self.far[tile][left], right

    def may_name_blank(self, tile: int, end: End, left: int, right: int) -> bool:
        """Whether ``tile`` laid on ``end`` may leave a wild blank open, which its player then names.

        The lead of a tile with a blank always does (its player says the number,
        docs/RULES.md); later, ``0-b`` does when it is laid with its ``b``
        against an end showing ``b`` (against any other number its blank touches).
        """
        if not self.wild_blanks:
            return False
        a, b = self.tiles.ends[tile]
        if a != 0:
            return False
        if left < 0:
            return True
        return b != 0 and b == (right if end is End.RIGHT else left)

    def must_name_blank(self, tile: int, left: int) -> bool:
        """Whether laying ``tile`` needs a number for its blank whatever the end (the lead of a blank)."""
        return self.wild_blanks and left < 0 and self.tiles.ends[tile][0] == 0

    def given(self, tile: int, end: End, left: int, right: int, blank: int = -1) -> int:
        """The number the wild blank of ``tile`` shows once laid on ``end`` (-1: it shows no blank)."""
        if not self.wild_blanks or self.tiles.ends[tile][0] != 0:
            return -1
        if blank >= 0:
            return blank
        return right if end is End.RIGHT else left

    # -- the same answers for tiles and a view's ends (None before the lead) --------

    def tile_places(self, tile: Tile, ends: tuple[int, int] | None) -> tuple[End, ...]:
        """Where ``tile`` may go on a line with ``ends``; () for a tile not of this set."""
        index = self.tiles.index.get(tile)
        if index is None:
            return ()
        left, right = ends if ends is not None else (-1, -1)
        return self.places(index, left, right)

    def tile_after(
        self, tile: Tile, end: End, ends: tuple[int, int] | None, blank: int | None = None
    ) -> tuple[int, int]:
        """The ends once ``tile`` is laid on ``end`` of a line with ``ends`` (its blank given ``blank``)."""
        left, right = ends if ends is not None else (-1, -1)
        return self.after(self.tiles.index[tile], end, left, right, -1 if blank is None else blank)


@cache
def line_of(max_pip: int, wild_blanks: bool = False) -> Line:
    """The shared line layout of the double-``max_pip`` set (with blanks wild or not)."""
    return Line(tile_set(max_pip), wild_blanks)


@cache
def line_plays(max_pip: int) -> tuple[tuple[Play, Play], ...]:
    """One shared `Play` per tile and end (left, right), so listing legal actions builds nothing."""
    return tuple((Play(t, End.LEFT), Play(t, End.RIGHT)) for t in tile_set(max_pip).tiles)
