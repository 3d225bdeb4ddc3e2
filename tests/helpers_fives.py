"""Builders for Fives and Threes tests: a match with its first deal chosen by hand."""

from __future__ import annotations

from capicu.core import Tile, tile_set
from capicu.core.fives import FivesMatch, FivesRules


def crafted_fives(rules: FivesRules, hands: list[str], stock: str = "", *, leader: int = 0,
                  pause: bool = False) -> FivesMatch:
    """A match whose first deal gives each seat the tiles written (``"6-6 1-2 ..."``), ``leader`` to lead.

    Each hand holds the rules' deal size; the tiles set aside are ``stock`` (in draw order),
    then every tile not named.
    """
    tiles = tile_set(rules.max_pip)
    named = [[Tile.parse(t) for t in hand.split()] for hand in hands]
    size = rules.hand_size(len(hands))
    assert all(len(hand) == size for hand in named), f"each hand holds {size} tiles"
    first = [Tile.parse(t) for t in stock.split()]
    used = {t for hand in named for t in hand} | set(first)
    assert len(used) == sum(map(len, named)) + len(first), "a tile is named twice"
    rest = [t for t in tiles.tiles if t not in used]
    order = [tiles.index[t] for hand in named for t in hand] + [tiles.index[t] for t in first + rest]
    return FivesMatch(rules, len(hands), seed=0, deals=[(order, leader)], pause_between_rounds=pause)
