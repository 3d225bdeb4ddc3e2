"""Computer players. Each decides from a seat's `View` only, exactly as a person would.

A player is anything with ``choose(view) -> Action``; `make_player` builds one
by name from a seed, so that the same seed gives the same decisions.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Protocol

from ..actions import Action, End, Play
from ..draw.view import View
from .heuristic import EasyPlayer, NormalPlayer


class ComputerPlayer(Protocol):
    name: str

    def choose(self, view: View) -> Action:
        """The action to take; ``view`` must be this player's view on its turn."""
        ...


def _require_turn(view: View) -> None:
    if not view.legal:
        raise ValueError("a computer player was asked to move when it has nothing to do")


class RandomPlayer:
    """Any legal action, uniformly."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self._rng = random.Random(seed)

    def choose(self, view: View) -> Action:
        _require_turn(view)
        return self._rng.choice(view.legal)


class GreedyPlayer:
    """Plays its heaviest legal tile, a double on ties; draws or passes only when it must."""

    name = "greedy"

    def __init__(self, seed: int = 0) -> None:
        self._rng = random.Random(seed)

    def choose(self, view: View) -> Action:
        _require_turn(view)
        plays = [a for a in view.legal if isinstance(a, Play)]
        if not plays:
            return view.legal[0]
        return max(plays, key=lambda a: (a.tile.pips, a.tile.is_double, a.end is End.LEFT))


def _hard_player(seed: int) -> ComputerPlayer:
    # The search and its card counting load when a hard player is first made: they
    # are some 15 ms of the interface's start, and many games never have one.
    from .search import HardPlayer

    return HardPlayer(seed)


#: The levels a person picks from, weakest first.
LEVELS = ("easy", "normal", "hard")

PLAYERS: dict[str, Callable[[int], ComputerPlayer]] = {
    "random": RandomPlayer,
    "greedy": GreedyPlayer,
    "easy": EasyPlayer,
    "normal": NormalPlayer,
    "hard": _hard_player,
}


def make_player(level: str, seed: int = 0) -> ComputerPlayer:
    """A computer player of the named level (``easy``, ``normal``, ``hard``; ``random``, ``greedy``)."""
    try:
        factory = PLAYERS[level]
    except KeyError:
        raise ValueError(
            f"there is no computer player {level!r}; choose one of {', '.join(PLAYERS)}"
        ) from None
    return factory(seed)
