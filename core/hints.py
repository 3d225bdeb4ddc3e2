"""Hints: the move `hard` would make, and a short reason a person understands.

    hint = suggest(view)            # view: this seat's View on its turn
    hint.action                     # a legal Action
    hint.reason                     # "keeps your 5s; the next player could not match 3"

Each part of the reason is a `Reason`: a stable ``code`` plus ``params``
(ints and strs). ``Reason.text`` is the English sentence made from
``REASON_TEXTS[code].format(**params)``; an interface that translates keeps
its own table keyed by the same codes and formats the same params. Seats in
params are 1-based seat numbers (as the table shows them).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from .actions import Action, Draw, Pass, Play
from .heuristic import ends_after
from .inference import Knowledge
from .search import Budget, SearchResult, search
from .tiles import Tile
from .view import View

#: English text of each reason code; params are filled in with str.format.
REASON_TEXTS: dict[str, str] = {
    "must_draw": "nothing you hold fits {left} or {right}: draw",
    "must_pass": "nothing fits and nothing can be drawn: pass",
    "forced_lead": "the round opens with {tile}",
    "only_tile": "{tile} is the only tile that fits",
    "domino": "your last tile: domino",
    "blocks_next": "the next player could not match {number}",
    "blocks_seat": "seat {seat} could not match {number}",
    "keeps_suit": "keeps your {number}s",
    "double": "lays the double {tile} while it still fits",
    "sheds_weight": "gets rid of {pips} pips",
    "draw_better": "drawing does better than any tile here",
    "best_odds": "does best in {samples} sampled deals",
}


@dataclass(frozen=True, slots=True)
class Reason:
    """One part of a hint's reason: a code an interface can translate, and its params."""

    code: str
    params: tuple[tuple[str, int | str], ...] = ()

    @property
    def text(self) -> str:
        return REASON_TEXTS[self.code].format(**dict(self.params))


@dataclass(frozen=True, slots=True)
class Hint:
    """The suggested action and why."""

    action: Action
    reasons: tuple[Reason, ...]
    #: The search's estimate that the seat's side wins the round after it (None: not searched).
    win_chance: float | None = None

    @property
    def reason(self) -> str:
        """The reason as one short English sentence."""
        return "; ".join(r.text for r in self.reasons)


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
    best = result.best
    reasons = _reasons(view, best.action, result)
    win = best.win_rate if best.samples else None
    return Hint(best.action, reasons, win)


def _reasons(view: View, action: Action, result: SearchResult) -> tuple[Reason, ...]:
    if isinstance(action, Pass):
        return (Reason("must_pass"),)
    if isinstance(action, Draw):
        if any(isinstance(a, Play) for a in view.legal):
            return (Reason("draw_better"),)
        left, right = view.ends if view.ends is not None else (-1, -1)
        return (Reason("must_draw", (("left", left), ("right", right))),)
    assert isinstance(action, Play)
    tile = action.tile
    plays = [a for a in view.legal if isinstance(a, Play)]
    if view.forced_lead is not None:
        return (Reason("forced_lead", (("tile", str(tile)),)),)
    if len(view.hand) == 1:
        return (Reason("domino"),)
    if len({p.tile for p in plays}) == 1:
        return (Reason("only_tile", (("tile", str(tile)),)),)
    found: list[Reason] = []
    left, right = ends_after(view, action)
    rest = [t for t in view.hand if t != tile]
    block = _block_reason(view, result.knowledge, (left, right))
    suit = _kept_suit(rest, (left, right))
    if suit is not None:
        found.append(Reason("keeps_suit", (("number", suit),)))
    if block is not None:
        found.append(block)
    if len(found) < 2 and tile.is_double:
        found.append(Reason("double", (("tile", str(tile)),)))
    heaviest = max(p.tile.pips for p in plays)
    if len(found) < 2 and tile.pips == heaviest and tile.pips >= 7:
        found.append(Reason("sheds_weight", (("pips", tile.pips),)))
    if not found:
        found.append(Reason("best_odds", (("samples", result.best.samples),)))
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
                    return Reason("blocks_next", (("number", number),))
                return Reason("blocks_seat", (("seat", seat + 1), ("number", number)))
    return None


def _kept_suit(rest: list[Tile], ends: tuple[int, int]) -> int | None:
    """The open number the hand is strongest in after the play, if it holds two or more."""
    best, best_count = None, 1
    for number in sorted(set(ends)):
        count = sum(1 for t in rest if t.has(number))
        if count > best_count:
            best, best_count = number, count
    return best
