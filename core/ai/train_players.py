"""Simple computer players for Mexican Train, so that matches can be played and simulated end to end.

Each decides from a seat's `TrainView` only. `easy` plays a legal action at
random; `normal` is greedy: it lays its opening run as long as it can, covers
what must be covered, brings its marker down, and otherwise sheds its
heaviest tile (doubles first at equal weight, since a double only ever fits
one number). The stronger players of issue 21 (a planned chain for one's own
train, search) are still to come.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Protocol

from ..actions import Action, Play
from ..layout import Train
from ..mexican import TrainView


class TrainPlayer(Protocol):
    name: str

    def choose(self, view: TrainView) -> Action:
        """The action to take; ``view`` must be this player's view on its turn."""
        ...


def _decision_rng(seed: int, view: TrainView, salt: str) -> random.Random:
    """A generator for one decision from (seed, position), so a player keeps no state."""
    hand = " ".join(str(t) for t in view.hand)
    return random.Random(f"capicu-train-ai/{salt}/{seed}/{view.round_number}/{len(view.events)}/{hand}")


def _require_turn(view: TrainView) -> None:
    if not view.legal:
        raise ValueError("a computer player was asked to move when it has nothing to do")


class TrainEasyPlayer:
    """Any legal action, uniformly."""

    name = "easy"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def choose(self, view: TrainView) -> Action:
        _require_turn(view)
        rng = _decision_rng(self.seed, view, "easy")
        return view.legal[int(rng.random() * len(view.legal))]


def normal_merit(view: TrainView, play: Play) -> float:
    """How much `normal` likes ``play``: weight shed, doubles, its own train while its marker is up."""
    tile = play.tile
    merit = float(tile.pips) + (4.0 if tile.is_double else 0.0)
    assert isinstance(play.place, Train) and view.seat is not None
    if play.place.owner == view.seat and view.trains[view.seat].marker:
        merit += 10.0  # take the marker down: one's own train stays one's own
    return merit


class TrainNormalPlayer:
    """Greedy: the longest opening run it finds step by step, then its heaviest tile; draws when it must."""

    name = "normal"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def choose(self, view: TrainView) -> Action:
        _require_turn(view)
        plays = [a for a in view.legal if isinstance(a, Play)]
        if not plays:
            return view.legal[0]  # end the run, draw or pass: the only choice left
        best = max(normal_merit(view, p) for p in plays)
        top = [p for p in plays if normal_merit(view, p) == best]
        return top[int(_decision_rng(self.seed, view, "normal").random() * len(top))]


TRAIN_PLAYERS: dict[str, Callable[[int], TrainPlayer]] = {
    "easy": TrainEasyPlayer,
    "normal": TrainNormalPlayer,
}


def make_train_player(level: str, seed: int = 0) -> TrainPlayer:
    """A Mexican Train computer player of the named level (``easy`` or ``normal`` so far)."""
    try:
        factory = TRAIN_PLAYERS[level]
    except KeyError:
        raise ValueError(
            f"there is no Mexican Train computer player {level!r}; choose one of {', '.join(TRAIN_PLAYERS)}"
        ) from None
    return factory(seed)
