"""What a Mexican Train seat can work out about the tiles it cannot see, from its `MexicanView`.

As core/ai/inference.py does for the Draw family, and in its terms (a
`Knowledge` of *slots*, one per hidden tile a seat holds, each with the tiles
it cannot be): a seat that drew held no tile for any train it could lay on
at that moment (the oldest open double's number, or its own train's, the
Mexican train's and those marked up); a seat that passed without drawing did
not either, and one that passed after drawing did not draw a tile that fits
(only the drawn tile may be laid). A marker up is that pass, read.

The round is replayed from the view's public events on the engine's own
`MexicanRound` (with placeholder hands: only the layout, the turn, the markers,
the open double and the drawing are read), so that where a tile could go at
each moment is the rules' answer and never a second copy of them. The replay
is also the template the search fills in with sampled hands
(`MexicanReading.state_with`).
"""

from __future__ import annotations

import msgspec

from ..mexican.events import (
    MexicanPassed,
    MexicanRoundStarted,
    MexicanTileDrawn,
    MexicanTilePlayed,
    RunEnded,
)
from ..mexican.state import MexicanRound
from ..mexican.view import MexicanView
from ..tiles import TileSet, tile_set
from .inference import Deal, Knowledge


class MexicanReading(msgspec.Struct, frozen=True):
    """A seat's reading of a round: what it knows of the hidden tiles, and the round as a template."""

    knowledge: Knowledge
    #: The round at the view's position; its hands and boneyard are placeholders.
    template: MexicanRound

    def state_with(self, deal: Deal) -> MexicanRound:
        """The round at the view's position with ``deal``'s hands and boneyard."""
        state = self.template.copy()
        state.hands = list(deal.hands)
        state.stock = deal.stock
        state.stock_pos = 0
        return state

    def lacks(self, seat: int) -> frozenset[int]:
        """The numbers ``seat`` is known to hold none of now."""
        return self.knowledge.lacks(seat)


def _ruled_out(state: MexicanRound) -> int:
    """The tiles the seat on turn cannot hold when it draws or passes now: all that would fit.

    While a double is open, only what covers the oldest: who laid doubles this turn
    may draw while holding another double, and a double never covers one.
    """
    suit = state.suit
    if state.open_doubles and not state.running:
        return suit[state.heads[state.open_doubles[0]]]
    mask = 0
    for train in state.places():
        mask |= suit[state.heads[train]]
    return mask


def _rule_out(slots: list[int], mask: int) -> None:
    for i in range(len(slots)):
        slots[i] |= mask


def _remove_slot(slots: list[int], bit: int) -> None:
    # Oldest first is most constrained first (core/ai/inference.py says why).
    for i, forbidden in enumerate(slots):
        if not forbidden & bit:
            del slots[i]
            return
    if slots:  # cannot happen with honest events; stay usable anyway
        slots.pop()


def read_mexican(view: MexicanView) -> MexicanReading:
    """``view``'s seat's reading of the round in progress (the view must be a seat's, mid-round)."""
    if view.seat is None:
        raise ValueError("a spectator has no hand to reason from")
    me = view.seat
    rules = view.rules
    tiles: TileSet = tile_set(rules.max_pip)
    players = view.players
    hand = tiles.mask_of(view.hand)
    full = tiles.full_mask
    state: MexicanRound | None = None
    slots: list[list[int]] = [[] for _ in range(players)]
    laid = 0
    mexican = players
    for event in view.events:
        if isinstance(event, MexicanRoundStarted):
            number = event.engine.high
            state = MexicanRound(
                tiles, number, [full] * players, [0] * event.boneyard, turn=event.first,
                opening_run=rules.opening_run, cover_doubles=rules.cover_doubles,
                one_double=rules.one_double_a_turn, mexican_needs_own=rules.mexican_needs_own_train,
            )
            slots = [[] if seat == me else [0] * count for seat, count in enumerate(event.hand_counts)]
            laid = 0
        elif state is None:
            continue
        elif isinstance(event, MexicanTilePlayed):
            index = tiles.index[event.tile]
            bit = 1 << index
            laid |= bit
            if event.seat != me:
                _remove_slot(slots[event.seat], bit)
            train = mexican if event.train.owner < 0 else event.train.owner
            state.hands[state.turn] |= bit  # the placeholder hand holds what it lays
            state.play(index, train)
        elif isinstance(event, MexicanTileDrawn):
            if event.seat != me:
                _rule_out(slots[event.seat], _ruled_out(state))
                slots[event.seat].append(0)
            state.draw()
        elif isinstance(event, MexicanPassed):
            if event.seat != me:
                if state.drew and slots[event.seat]:
                    # Only the drawn tile could have been laid: it is the one that did not fit.
                    slots[event.seat][-1] |= _ruled_out(state)
                else:
                    _rule_out(slots[event.seat], _ruled_out(state))
            state.pass_turn()
        elif isinstance(event, RunEnded):
            state.end_run()
    if state is None or view.turn is None:
        raise ValueError("a reading needs a round in progress")
    engine = 1 << tiles.double_of[state.engine]
    pool = full & ~hand & ~laid & ~engine
    counts_agree = all(
        seat == me or len(slots[seat]) == view.hand_counts[seat] for seat in range(players)
    ) and sum(len(s) for s in slots) + view.boneyard == pool.bit_count()
    if not counts_agree:
        # The events do not add up (a view built by hand, say): know only the counts.
        slots = [[] if seat == me else [0] * n for seat, n in enumerate(view.hand_counts)]
    knowledge = Knowledge(
        seat=me,
        tiles=tiles,
        hand=hand,
        pool=pool,
        slots=tuple(tuple(s) for s in slots),
        boneyard=view.boneyard,
        drawable=view.boneyard,
    )
    _check_template(state, view)
    return MexicanReading(knowledge, state)


def _check_template(state: MexicanRound, view: MexicanView) -> None:
    """The replay must be where the view is; a view that disagrees with its own events is refused."""
    heads = [line.head for line in view.trains]
    if state.heads != heads or state.turn != view.turn or state.boneyard != view.boneyard:
        raise ValueError("the view's events do not lead to its trains")


__all__ = ["MexicanReading", "read_mexican"]
