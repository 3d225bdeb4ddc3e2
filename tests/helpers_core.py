"""Small builders for engine tests: a match with a deal chosen by hand."""

from __future__ import annotations

from capicu.core import Match, Rules, Tile, tile_set
from capicu.core.mexican.match import MexicanMatch
from capicu.core.rules import MexicanRules


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


def crafted_mexican(rules: Rules, hands: list[str], stock: str = "", *, first: int = 0) -> MexicanMatch:
    """A Mexican Train match whose first deal gives each seat the tiles written, ``first`` to play.

    Each hand must hold the rules' deal size; the boneyard is ``stock`` in draw
    order, followed by every tile not named but the round's engine. The engine is
    set aside (the option) or dealt last, to the boneyard, whence it is laid: either
    way nobody holds it and ``first`` plays first.
    """
    tiles = tile_set(rules.max_pip)
    engine = Tile(rules.max_pip, rules.max_pip)
    named = [[Tile.parse(t) for t in hand.split()] for hand in hands]
    size = rules.hand_size(len(hands))
    assert all(len(hand) == size for hand in named), f"each hand holds {size} tiles"
    first_drawn = [Tile.parse(t) for t in stock.split()]
    used = {t for hand in named for t in hand} | set(first_drawn) | {engine}
    rest = [t for t in tiles.tiles if t not in used]
    order = [tiles.index[t] for hand in named for t in hand] + [tiles.index[t] for t in first_drawn + rest]
    if isinstance(rules, MexicanRules) and not rules.engine_set_aside:
        order.append(tiles.index[engine])
    return MexicanMatch(rules, len(hands), seed=0, deals=[(order, first)])
