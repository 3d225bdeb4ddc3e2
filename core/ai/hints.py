"""Hints: the move `hard` would make, and why, in codes an interface words.

    hint = suggest(view)            # view: this seat's View on its turn
    hint.action                     # a legal Action
    hint.reasons                    # (HintReason.KEEPS_SUIT(number=5), HintReason.BLOCKS_NEXT(number=3))

Each reason is a `Statement` of a `HintReason` code with its params (see
`capicu.core.codes`): seats counted from 0, tiles as their text.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import msgspec

from ..actions import Action, Draw, Pass, Play
from ..codes import Code, Statement
from ..draw.view import View
from ..tiles import Tile
from .heuristic import ends_after
from .inference import Knowledge
from .search import Budget, SearchResult, search


class HintReason(Code):
    """Why a hint suggests its action, with the params it is said with."""

    #: Nothing held fits the ends ``left`` or ``right``: draw.
    MUST_DRAW = "must-draw", "left", "right"
    MUST_PASS = "must-pass"
    FORCED_LEAD = "forced-lead", "tile"
    ONLY_TILE = "only-tile", "tile"
    #: The last tile in hand: it goes out.
    DOMINO = "domino"
    #: The next player is known to hold no ``number``, which the play leaves open.
    BLOCKS_NEXT = "blocks-next", "number"
    #: ``seat``, an opponent further on, is known to hold no ``number``.
    BLOCKS_SEAT = "blocks-seat", "seat", "number"
    #: The hand is strongest in ``number``, which the play leaves open.
    KEEPS_SUIT = "keeps-suit", "number"
    DOUBLE = "double", "tile"
    SHEDS_WEIGHT = "sheds-weight", "pips"
    DRAW_BETTER = "draw-better"
    #: Nothing simpler to say: it did best in ``samples`` sampled deals.
    BEST_ODDS = "best-odds", "samples"


#: One part of a hint's reason.
Reason = Statement[HintReason]


class Hint(msgspec.Struct, frozen=True):
    """The suggested action and why (one or two reasons)."""

    action: Action
    reasons: tuple[Reason, ...]


def suggest(
    view: View,
    seed: int = 0,
    budget: Budget | None = None,
    *,
    clock: Callable[[], float] = time.perf_counter,
) -> Hint:
    """The move `hard` would make in ``view`` (with this seed and budget), with a reason.

    ``view`` must be a seat's view on its turn (``view.legal`` not empty).
    """
    if view.seat is None or not view.legal:
        raise ValueError("a hint needs a seat whose turn it is")
    result = search(view, seed=seed, budget=budget, clock=clock)
    action = result.best.action
    return Hint(action, _reasons(view, action, result))


def _reasons(view: View, action: Action, result: SearchResult) -> tuple[Reason, ...]:
    if isinstance(action, Pass):
        return (HintReason.MUST_PASS(),)
    if isinstance(action, Draw):
        if any(isinstance(a, Play) for a in view.legal):
            return (HintReason.DRAW_BETTER(),)
        left, right = view.ends if view.ends is not None else (-1, -1)
        return (HintReason.MUST_DRAW(left=left, right=right),)
    assert isinstance(action, Play)
    tile = action.tile
    plays = [a for a in view.legal if isinstance(a, Play)]
    if view.forced_lead is not None:
        return (HintReason.FORCED_LEAD(tile=str(tile)),)
    if len(view.hand) == 1:
        return (HintReason.DOMINO(),)
    if len({p.tile for p in plays}) == 1:
        return (HintReason.ONLY_TILE(tile=str(tile)),)
    found: list[Reason] = []
    left, right = ends_after(view, action)
    rest = [t for t in view.hand if t != tile]
    block = _block_reason(view, result.knowledge, (left, right))
    suit = _kept_suit(rest, (left, right))
    if suit is not None:
        found.append(HintReason.KEEPS_SUIT(number=suit))
    if block is not None:
        found.append(block)
    if len(found) < 2 and tile.is_double:
        found.append(HintReason.DOUBLE(tile=str(tile)))
    heaviest = max(p.tile.pips for p in plays)
    if len(found) < 2 and tile.pips == heaviest and tile.pips >= 7:
        found.append(HintReason.SHEDS_WEIGHT(pips=tile.pips))
    if not found:
        found.append(HintReason.BEST_ODDS(samples=result.best.samples))
    return tuple(found[:2])


def _block_reason(view: View, knowledge: Knowledge, ends: tuple[int, int]) -> Reason | None:
    """A reason when an end left open is a number an opponent is known to lack."""
    assert view.seat is not None
    me_side = view.side_of(view.seat)
    for step in range(1, view.players):
        seat = (view.seat + step) % view.players
        if view.side_of(seat) == me_side:
            continue
        lacks = knowledge.lacks(seat)
        for number in ends:
            if number in lacks:
                if step == 1:
                    return HintReason.BLOCKS_NEXT(number=number)
                return HintReason.BLOCKS_SEAT(seat=seat, number=number)
    return None


def _kept_suit(rest: list[Tile], ends: tuple[int, int]) -> int | None:
    """The open number the hand is strongest in after the play, if it holds two or more."""
    best, best_count = None, 1
    for number in sorted(set(ends)):
        count = sum(1 for t in rest if t.has(number))
        if count > best_count:
            best, best_count = number, count
    return best
