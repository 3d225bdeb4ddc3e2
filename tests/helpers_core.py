"""Small builders for engine tests: a match with a deal chosen by hand."""

from __future__ import annotations

from capicu.core import Match, Rules, Tile, tile_set


def crafted_match(rules: Rules, hands: list[str], stock: str = "", *, seat: int = 0) -> Match:
    """A match whose first deal gives each seat the tiles written (``"6-6 1-2 ..."``).

    The boneyard is ``stock`` in draw order, followed by every tile not named.
    """
    tiles = tile_set(rules.max_pip)
    named = [[Tile.parse(t) for t in hand.split()] for hand in hands]
    first = [Tile.parse(t) for t in stock.split()]
    used = {t for hand in named for t in hand} | set(first)
    rest = [t for t in tiles.tiles if t not in used]
    order = [tiles.index[t] for hand in named for t in hand] + [tiles.index[t] for t in first + rest]
    return Match(rules, len(hands), seed=0, deals=[(order, seat)])
