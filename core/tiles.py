"""Tiles (fichas) and the sets they come in.

A tile prints as ``3-5`` and parses from it. Inside the engine a tile is also
an index into its set, so that a hand is a bitmask; `TileSet` holds the tables
that translate between the two and that the fast path reads.
"""

from __future__ import annotations

from functools import cache, total_ordering
from typing import Any

#: The sets there are: double-6, double-9 and double-12 for every game, double-15 for Mexican Train.
MAX_PIPS = (6, 9, 12, 15)


def is_small_number(text: str) -> bool:
    """Whether ``text`` is a number of one or two ASCII digits, as tiles, seats and blanks are written.

    Only ``0``-``9``: ``str.isdigit`` also takes other scripts' digits ("٣", "１２") and
    superscripts, which no action is written with.
    """
    return 1 <= len(text) <= 2 and text.isascii() and text.isdigit()


@total_ordering
class Tile:
    """A domino: two numbers, kept with the smaller first (``Tile(5, 3)`` is ``3-5``).

    A plain immutable class rather than a dataclass: msgspec writes a dataclass
    as a map by itself, and a tile travels as its text (``"3-5"``, net/wire.py).
    """

    __slots__ = ("_text", "high", "low")
    low: int
    high: int
    #: Written once: a host writes every hand's tiles after every move.
    _text: str

    def __init__(self, a: int, b: int) -> None:
        if not (isinstance(a, int) and isinstance(b, int)) or a < 0 or b < 0:
            raise ValueError(f"a tile's numbers must be whole numbers from 0 up, not {a!r} and {b!r}")
        low, high = min(a, b), max(a, b)
        object.__setattr__(self, "low", low)
        object.__setattr__(self, "high", high)
        object.__setattr__(self, "_text", f"{low}-{high}")

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"a tile cannot be changed ({name})")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"a tile cannot be changed ({name})")

    def __reduce__(self) -> tuple[type[Tile], tuple[int, int]]:
        return Tile, (self.low, self.high)

    def __eq__(self, other: object) -> bool:
        if type(other) is not Tile:
            return NotImplemented
        return self.low == other.low and self.high == other.high

    def __lt__(self, other: object) -> bool:
        if type(other) is not Tile:
            return NotImplemented
        return (self.low, self.high) < (other.low, other.high)

    def __hash__(self) -> int:
        return hash((self.low, self.high))

    @classmethod
    def parse(cls, text: str) -> Tile:
        """The tile written as ``a-b`` (``3-5``, ``5-3`` and ``3|5`` are the same tile)."""
        cleaned = text.strip().replace("|", "-")
        parts = cleaned.split("-")
        if len(parts) != 2 or not all(is_small_number(p) for p in parts):
            raise ValueError(f"{text!r} is not a tile: write it as two numbers, like 3-5")
        return cls(int(parts[0]), int(parts[1]))

    @property
    def pips(self) -> int:
        return self.low + self.high

    @property
    def is_double(self) -> bool:
        return self.low == self.high

    def has(self, number: int) -> bool:
        return number in (self.low, self.high)

    def other(self, number: int) -> int:
        """The number at the far end when this tile is laid against ``number``."""
        if number == self.low:
            return self.high
        if number == self.high:
            return self.low
        raise ValueError(f"{self} has no {number}")

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"Tile({self.low}, {self.high})"


class TileSet:
    """The tiles of a double-N set, with the lookup tables the engine runs on."""

    __slots__ = (
        "_byte_tiles", "double_of", "ends", "full_mask", "index", "max_pip", "pips", "suit_mask", "tiles",
    )

    def __init__(self, max_pip: int) -> None:
        if max_pip not in MAX_PIPS:
            raise ValueError(f"there is no double-{max_pip} set here; choose one of 6, 9, 12 or 15")
        self.max_pip = max_pip
        self.tiles: tuple[Tile, ...] = tuple(
            Tile(a, b) for a in range(max_pip + 1) for b in range(a, max_pip + 1)
        )
        self.index: dict[Tile, int] = {t: i for i, t in enumerate(self.tiles)}
        self.pips: tuple[int, ...] = tuple(t.pips for t in self.tiles)
        self.ends: tuple[tuple[int, int], ...] = tuple((t.low, t.high) for t in self.tiles)
        #: suit_mask[n] has a bit for every tile that shows the number n.
        self.suit_mask: tuple[int, ...] = tuple(
            sum(1 << i for i, t in enumerate(self.tiles) if t.has(n)) for n in range(max_pip + 1)
        )
        #: double_of[n] is the index of the n-n tile.
        self.double_of: tuple[int, ...] = tuple(self.index[Tile(n, n)] for n in range(max_pip + 1))
        self.full_mask = (1 << len(self.tiles)) - 1
        #: For each 8 bits of a mask, the tiles that each value of that byte holds
        #: (`tiles_in` reads a hand a byte at a time: a view is made of hands).
        self._byte_tiles: tuple[tuple[tuple[Tile, ...], ...], ...] = tuple(
            self._tiles_by_byte(start) for start in range(0, len(self.tiles), 8)
        )

    def _tiles_by_byte(self, start: int) -> tuple[tuple[Tile, ...], ...]:
        """The tiles each byte value holds, for the byte whose lowest bit is tile ``start``."""
        row: list[tuple[Tile, ...]] = [()] * 256
        for value in range(1, 256):
            low = value & -value  # its lowest tile, then the tiles of the rest (made already)
            index = start + low.bit_length() - 1
            lowest = (self.tiles[index],) if index < len(self.tiles) else ()
            row[value] = lowest + row[value ^ low]
        return tuple(row)

    def __len__(self) -> int:
        return len(self.tiles)

    def mask_of(self, tiles: list[Tile] | tuple[Tile, ...]) -> int:
        mask = 0
        for tile in tiles:
            mask |= 1 << self.index[tile]
        return mask

    def tiles_in(self, mask: int) -> tuple[Tile, ...]:
        """The tiles whose bits are set in ``mask``, in set order."""
        out: tuple[Tile, ...] = ()
        for byte in self._byte_tiles:
            if not mask:
                break
            out += byte[mask & 0xFF]
            mask >>= 8
        return out

    def pips_in(self, mask: int) -> int:
        total = 0
        pips = self.pips
        while mask:
            low = mask & -mask
            total += pips[low.bit_length() - 1]
            mask ^= low
        return total

    def contains(self, tile: Tile) -> bool:
        return tile in self.index


@cache
def tile_set(max_pip: int) -> TileSet:
    """The shared, read-only tables for the double-``max_pip`` set."""
    return TileSet(max_pip)


# -- the fit rule: where a tile goes, for every game's layout ------------------------


@cache
def far_ends(tiles: TileSet, wild_blanks: bool = False) -> tuple[tuple[int, ...], ...]:
    """The fit rule: ``far[tile][n]`` is the number ``tile`` leaves open laid against ``n``, or -1.

    A tile fits an open ``n`` exactly when it shows ``n``; a double laid
    against its number leaves that number open. With wild blanks
    (docs/RULES.md, house rules) a blank half fits any ``n`` too, taking that
    number: ``0-5`` laid against 3 leaves 5, and the double blank laid against
    3 is a double 3 and leaves 3. (A blank left open instead is named by its
    player: `Line.may_name_blank`.)
    """
    numbers = range(tiles.max_pip + 1)
    if wild_blanks:
        return tuple(
            tuple(
                n if a == b == 0 else b if a == 0 else (b if n == a else a if n == b else -1) for n in numbers
            )
            for a, b in tiles.ends
        )
    return tuple(tuple(b if n == a else a if n == b else -1 for n in numbers) for a, b in tiles.ends)


def tile_leaves(tile: Tile, number: int, max_pip: int, wild_blanks: bool = False) -> int:
    """The number ``tile`` leaves open laid against an open ``number`` (-1: it does not fit there).

    The fit rule for callers holding tiles rather than tile numbers (refusals, views).
    """
    tiles = tile_set(max_pip)
    index = tiles.index.get(tile)
    return -1 if index is None else far_ends(tiles, wild_blanks)[index][number]
