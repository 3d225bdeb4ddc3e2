"""The longest chain a hand can make from a train's open number: exact, on bitmasks.

A hand is a graph: the numbers are its nodes and each tile an edge between its
two numbers (a double, a loop). A chain laid on a train is a trail from the
train's open number, each tile used once, so the longest chain is the longest
trail, which no greedy rule finds. Hands hold at most 15 tiles and a number
has few tiles in one hand, so a depth-first search over the tiles that fit,
remembering the best chain from each (tiles left, open number), is exact and
fast (a few thousand states for a dealt hand of 15).

Two kinds of chain (docs/RULES.md, ``mexican-train``):

- a *plan*: the tiles one's own train will take, one a turn; it may end on a
  double (covering it is a later turn's business);
- an *opening run*: laid at once on the first turn, which may not end on a
  double unless that double is the hand's last tile (going out).

Among chains of the same length the heavier is preferred: what stays in hand
is what counts against the player, and the chain's tiles are the ones sure to
go down.

A hand that has drawn many tiles (25, 30) makes millions of states, so one
search remembers at most `STATE_LIMIT` of them; past that, a state not yet
seen is answered by a greedy walk (a chain, not always the longest). Dealt
hands never come near it (a hand of 15 made of the fifteen tiles between six
numbers, the densest there is, takes some 6,000), so for them the answer is
exact.
"""

from __future__ import annotations

from ..tiles import TileSet, far_ends

#: A chain's value: (tiles, pips), compared as a pair.
Value = tuple[int, int]

#: States one search remembers before it answers new ones greedily (see the module docstring).
STATE_LIMIT = 40_000


class _Search:
    """One search: the hand's tables and the memo of best chains by (tiles left, open number)."""

    __slots__ = ("far", "hand", "memo", "pips", "run", "suit")

    def __init__(self, tiles: TileSet, hand: int, run: bool) -> None:
        self.far = far_ends(tiles)
        self.suit = tiles.suit_mask
        self.pips = tiles.pips
        self.hand = hand
        self.run = run
        #: (tiles left << 4 | open number) -> (length, pips, first tile or -1)
        self.memo: dict[int, tuple[int, int, int]] = {}

    def best(self, left: int, head: int) -> tuple[int, int, int]:
        key = left << 4 | head
        found = self.memo.get(key)
        if found is not None:
            return found
        if len(self.memo) >= STATE_LIMIT:
            return self.greedy(left, head)
        length, pips, first = 0, 0, -1
        size = left.bit_count()
        fits = left & self.suit[head]
        while fits:
            low = fits & -fits
            fits ^= low
            tile = low.bit_length() - 1
            rest = left ^ low
            after = self.far[tile][head]
            sub_length, sub_pips, _ = self.best(rest, after)
            if self.run and after == head and not sub_length and rest:
                continue  # an opening run may end on a double only by going out
            value = (sub_length + 1, sub_pips + self.pips[tile])
            if value > (length, pips):
                length, pips, first = value[0], value[1], tile
                if length == size:
                    break  # every tile left is in it: nothing is longer
        found = (length, pips, first)
        self.memo[key] = found
        return found

    def greedy(self, left: int, head: int) -> tuple[int, int, int]:
        """A chain by always laying the heaviest tile that fits (never a double, in a run)."""
        length, pips, first = 0, 0, -1
        suit, far, weight = self.suit, self.far, self.pips
        while True:
            fits = left & suit[head]
            best = -1
            while fits:
                low = fits & -fits
                fits ^= low
                tile = low.bit_length() - 1
                if self.run and far[tile][head] == head:
                    continue
                if best < 0 or weight[tile] > weight[best]:
                    best = tile
            if best < 0:
                return length, pips, first
            if first < 0:
                first = best
            length += 1
            pips += weight[best]
            left ^= 1 << best
            head = far[best][head]

    def chain(self, head: int) -> tuple[int, ...]:
        out: list[int] = []
        left = self.hand
        while True:
            _, _, tile = self.best(left, head)
            if tile < 0:
                return tuple(out)
            out.append(tile)
            left ^= 1 << tile
            head = self.far[tile][head]


def longest_chain(tiles: TileSet, hand: int, head: int, *, run: bool = False) -> tuple[int, ...]:
    """The longest chain of ``hand``'s tiles from the open number ``head``, as tile indices in order.

    Ties in length go to the heavier chain. With ``run``, the chain is an
    opening run: it does not end on a double unless it uses the whole hand.
    """
    if not hand & tiles.suit_mask[head]:
        return ()
    return _Search(tiles, hand, run).chain(head)


def chain_value(tiles: TileSet, hand: int, head: int, *, run: bool = False) -> Value:
    """(tiles, pips) of `longest_chain`, without building it."""
    if not hand & tiles.suit_mask[head]:
        return (0, 0)
    length, pips, _ = _Search(tiles, hand, run).best(hand, head)
    return (length, pips)


class ChainTable:
    """Longest chains of subsets of one hand, sharing one memo: what a player asks many times a turn."""

    __slots__ = ("_plan", "_run", "tiles")

    def __init__(self, tiles: TileSet, hand: int) -> None:
        self.tiles = tiles
        self._plan = _Search(tiles, hand, False)
        self._run = _Search(tiles, hand, True)

    def length(self, hand: int, head: int) -> int:
        """Tiles in the longest plan of ``hand`` (a subset of the table's hand) from ``head``."""
        return self._plan.best(hand, head)[0]

    def value(self, hand: int, head: int) -> Value:
        length, pips, _ = self._plan.best(hand, head)
        return (length, pips)

    def plan(self, hand: int, head: int) -> tuple[int, ...]:
        """`longest_chain` of ``hand`` from ``head`` (a plan, which may end on a double)."""
        return _chain_from(self._plan, hand, head)

    def run(self, hand: int, head: int) -> tuple[int, ...]:
        """`longest_chain` of ``hand`` from ``head`` as an opening run (``hand`` the whole hand)."""
        return _chain_from(self._run, hand, head)


def _chain_from(search: _Search, hand: int, head: int) -> tuple[int, ...]:
    out: list[int] = []
    left = hand
    while True:
        _, _, tile = search.best(left, head)
        if tile < 0:
            return tuple(out)
        out.append(tile)
        left ^= 1 << tile
        head = search.far[tile][head]
