"""Hints for Mexican Train: the move `hard` would make (a tile and a train), and why, in codes.

    hint = suggest_mexican(view)      # view: this seat's MexicanView on its turn
    hint.action                     # a legal Action, or on the first turn the whole opening Run
    hint.tile, hint.place           # the tile to lay and its train (None for draw, pass, end run)
    hint.run                        # the longest opening run the hand can make, when one is due
    hint.reasons                    # (MexicanHintReason.KEEPS_CHAIN(length=5), ...)

As core/ai/hints.py does for the Draw family: each reason is a `Statement` of
a `MexicanHintReason` code with its params (seats counted from 0, tiles as their
text, trains as in an action: ``train 2``, ``mexican``), for an interface to word.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import msgspec

from ..actions import Action, Draw, EndRun, Pass, Play, Run, Train
from ..codes import Code, Statement
from ..mexican.view import MexicanView
from ..tiles import Tile, tile_set
from .mexican_hard import MexicanBudget, MexicanDecision, decide


class MexicanHintReason(Code):
    """Why a Mexican Train hint suggests its move, with the params it is said with."""

    #: The longest run the hand can make from the train's open number: ``length`` tiles.
    OPENING_RUN = "opening-run", "length"
    #: The run can go no further.
    END_RUN = "end-run"
    #: Nothing held fits where the seat may lay: draw.
    MUST_DRAW = "must-draw"
    MUST_PASS = "must-pass"
    #: The last tile in hand: it goes out.
    DOMINO = "domino"
    #: The open double on ``train`` must be covered first (the oldest, when several are open).
    COVERS_DOUBLE = "covers-double", "train"
    #: A double the hand can end the turn after (covering it, or the oldest open double).
    DOUBLE = "double", "tile"
    #: Several doubles a turn: another double laid before the turn's cover, one more tile down.
    ANOTHER_DOUBLE = "another-double", "tile"
    #: The next tile of the plan for one's own train, which stays ``length`` tiles long.
    KEEPS_CHAIN = "keeps-chain", "length"
    #: A tile off the plan laid where others may lay too (``pips`` off the count).
    UNLOADS = "unloads", "pips"
    #: One's own train again: its marker comes down.
    MARKER_DOWN = "marker-down"
    #: ``seat`` is known to hold no ``number``, which the move leaves open.
    BLOCKS_SEAT = "blocks-seat", "seat", "number"
    #: Nothing simpler to say: it did best in ``samples`` sampled deals.
    BEST_ODDS = "best-odds", "samples"


#: One part of a hint's reason.
MexicanReason = Statement[MexicanHintReason]


class MexicanHint(msgspec.Struct, frozen=True):
    """The suggested move and why (one or two reasons)."""

    #: What to do: a legal action of the view, or on the first turn the whole `Run`.
    action: Action
    #: The tile to lay now and where (the run's first, for a run); None for draw, pass, end run.
    tile: Tile | None
    place: Train | None
    #: The longest opening run the hand can make, tile by tile (empty when no run is due).
    run: tuple[Tile, ...]
    reasons: tuple[MexicanReason, ...]


def suggest_mexican(
    view: MexicanView,
    seed: int = 0,
    budget: MexicanBudget | None = None,
    *,
    clock: Callable[[], float] = time.perf_counter,
) -> MexicanHint:
    """The move `hard` would make in ``view`` (with this seed and budget), with a reason.

    ``view`` must be a seat's view on its turn (``view.legal`` not empty).
    """
    if view.seat is None or not view.legal:
        raise ValueError("a hint needs a seat whose turn it is")
    decision = decide(view, seed, budget, clock=clock)
    action = decision.action
    tiles = tile_set(view.rules.max_pip)
    run = tuple(tiles.tiles[t] for t in decision.run)
    if isinstance(action, Play):
        assert isinstance(action.place, Train)
        tile, place = action.tile, action.place
    else:
        tile, place = None, None
    suggested: Action = action
    if run and view.may_run and len(run) > 1:
        suggested = Run(run)  # the whole run at once, as a client sends it
    return MexicanHint(suggested, tile, place, run, _reasons(view, action, decision))


def _reasons(view: MexicanView, action: Action, decision: MexicanDecision) -> tuple[MexicanReason, ...]:
    if isinstance(action, Pass):
        return (MexicanHintReason.MUST_PASS(),)
    if isinstance(action, Draw):
        return (MexicanHintReason.MUST_DRAW(),)
    if isinstance(action, EndRun):
        return (MexicanHintReason.END_RUN(),)
    assert isinstance(action, Play)
    if len(view.hand) == 1:
        return (MexicanHintReason.DOMINO(),)
    if decision.run:
        return (MexicanHintReason.OPENING_RUN(length=len(decision.run)),)
    found: list[MexicanReason] = []
    merit = decision.merit
    if view.open_double is not None and action.place == view.open_double and not action.tile.is_double:
        found.append(MexicanHintReason.COVERS_DOUBLE(train=str(view.open_double)))
    if merit is not None:
        if merit.marker_down:
            found.append(MexicanHintReason.MARKER_DOWN())
        if merit.covered_double and view.doubling:
            found.append(MexicanHintReason.ANOTHER_DOUBLE(tile=str(action.tile)))
        elif merit.covered_double:
            found.append(MexicanHintReason.DOUBLE(tile=str(action.tile)))
        if merit.blocks >= 0:
            found.append(MexicanHintReason.BLOCKS_SEAT(seat=merit.blocks, number=merit.blocked_number))
        if merit.unloads:
            found.append(MexicanHintReason.UNLOADS(pips=action.tile.pips))
        elif isinstance(action.place, Train) and action.place.owner == view.seat and not merit.chain_loss:
            plan = _plan_length(view)
            found.append(MexicanHintReason.KEEPS_CHAIN(length=plan))
    if not found:
        samples = max((n for _, _, n in decision.searched), default=0)
        found.append(MexicanHintReason.BEST_ODDS(samples=samples))
    return tuple(found[:2])


def _plan_length(view: MexicanView) -> int:
    from .mexican_chain import chain_value

    assert view.seat is not None
    tiles = tile_set(view.rules.max_pip)
    return chain_value(tiles, tiles.mask_of(view.hand), view.trains[view.seat].head)[0]
