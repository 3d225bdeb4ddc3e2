"""Simple computer players for Mexican Train, so that matches can be played and simulated end to end.

Each decides from a seat's `MexicanView` only. `easy` plays a legal action at
random; `normal` is greedy: it lays its opening run as long as it can, covers
what must be covered, brings its marker down, and otherwise sheds its
heaviest tile (doubles first at equal weight, since a double only ever fits
one number). `hard` (core/ai/mexican_hard.py) plans its own train as the
longest chain its hand makes, reads the others' voids and searches close
choices on sampled deals; the host's computer seats make any of them with
`make_mexican_player(level, seed)`.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Protocol

from ..actions import END_RUN, Action, Play, Train
from ..mexican.view import MexicanView
from ..tiles import tile_set


class MexicanPlayer(Protocol):
    name: str

    def choose(self, view: MexicanView) -> Action:
        """The action to take; ``view`` must be this player's view on its turn."""
        ...


def _decision_rng(seed: int, view: MexicanView, salt: str) -> random.Random:
    """A generator for one decision from (seed, position), so a player keeps no state."""
    hand = " ".join(str(t) for t in view.hand)
    return random.Random(f"capicu-train-ai/{salt}/{seed}/{view.round_number}/{len(view.events)}/{hand}")


def _require_turn(view: MexicanView) -> None:
    if not view.legal:
        raise ValueError("a computer player was asked to move when it has nothing to do")


class MexicanEasyPlayer:
    """Any legal action, uniformly."""

    name = "easy"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def choose(self, view: MexicanView) -> Action:
        _require_turn(view)
        rng = _decision_rng(self.seed, view, "easy")
        return view.legal[int(rng.random() * len(view.legal))]


def normal_merit(view: MexicanView, play: Play) -> float:
    """How much `normal` likes ``play``: weight shed, doubles, its own train while its marker is up."""
    tile = play.tile
    merit = float(tile.pips) + (4.0 if tile.is_double else 0.0)
    assert isinstance(play.place, Train) and view.seat is not None
    if play.place.owner == view.seat and view.trains[view.seat].marker:
        merit += 10.0  # take the marker down: one's own train stays one's own
    return merit


class MexicanNormalPlayer:
    """Greedy: the longest opening run it finds step by step, then its heaviest tile; draws when it must."""

    name = "normal"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def choose(self, view: MexicanView) -> Action:
        _require_turn(view)
        plays = [a for a in view.legal if isinstance(a, Play)]
        if not plays:
            return view.legal[0]  # end the run, draw or pass: the only choice left
        if (view.may_run or view.running) and view.rules.opening_run:
            run = _longest_run(view)
            if run is None:
                return END_RUN
            return run
        best = max(normal_merit(view, p) for p in plays)
        top = [p for p in plays if normal_merit(view, p) == best]
        return top[int(_decision_rng(self.seed, view, "normal").random() * len(top))]


def _hard_train_player(seed: int) -> MexicanPlayer:
    # The plan, the reading and the search load when a hard player is first made.
    from .mexican_hard import MexicanHardPlayer

    return MexicanHardPlayer(seed)


def _longest_run(view: MexicanView) -> Action | None:
    """The first tile of the longest opening run the hand can make from here (None: end the run)."""
    from .mexican_chain import longest_chain

    assert view.seat is not None
    tiles = tile_set(view.rules.max_pip)
    run = longest_chain(tiles, tiles.mask_of(view.hand), view.trains[view.seat].head, run=True)
    if not run:
        return None
    return Play(tiles.tiles[run[0]], Train(view.seat))


MEXICAN_PLAYERS: dict[str, Callable[[int], MexicanPlayer]] = {
    "easy": MexicanEasyPlayer,
    "normal": MexicanNormalPlayer,
    "hard": _hard_train_player,
}


def make_mexican_player(level: str, seed: int = 0) -> MexicanPlayer:
    """A Mexican Train computer player of the named level (``easy``, ``normal``, ``hard``: the `LEVELS`)."""
    try:
        factory = MEXICAN_PLAYERS[level]
    except KeyError:
        raise ValueError(
            f"there is no Mexican Train computer player {level!r}; choose one of {', '.join(MEXICAN_PLAYERS)}"
        ) from None
    return factory(seed)
