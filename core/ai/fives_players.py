"""Computer players for Fives and Threes: each decides from a seat's `FivesView` only.

- `easy` lays a legal tile at random.
- `normal` lays the tile that scores most now; between equal scores, the one
  that leaves the least for a reply (the best any unseen tile would score on
  the ends it leaves), then the heavier tile.
- `hard` (core/ai/fives_hard.py) weighs what a play scores now against what it
  leaves the next player, read from what has been knocked and played, and
  searches sampled deals when the choice is close.

The host's computer seats make any of them with `make_fives_player(level, seed)`.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Protocol

from ..actions import Action, Play
from ..fives.view import FivesView
from .fives_reading import after, position, reply_points, unseen_mask


class FivesPlayer(Protocol):
    name: str

    def choose(self, view: FivesView) -> Action:
        """The action to take; ``view`` must be this player's view on its turn."""
        ...


def decision_rng(seed: int, view: FivesView, salt: str) -> random.Random:
    """A generator for one decision from (seed, position), so a player keeps no state."""
    hand = " ".join(str(t) for t in view.hand)
    return random.Random(f"capicu-fives-ai/{salt}/{seed}/{view.round_number}/{len(view.events)}/{hand}/"
                         f"{view.scores}")


def _require_turn(view: FivesView) -> None:
    if not view.legal:
        raise ValueError("a computer player was asked to move when it has nothing to do")


class FivesEasyPlayer:
    """Any legal action, uniformly."""

    name = "easy"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def choose(self, view: FivesView) -> Action:
        _require_turn(view)
        rng = decision_rng(self.seed, view, "easy")
        return view.legal[int(rng.random() * len(view.legal))]


def normal_merit(view: FivesView, play: Play) -> tuple[int, int, int]:
    """How `normal` ranks ``play``: points now, then least left for a reply, then pips shed."""
    st = position(view)
    following, points = after(st, play)
    replies = reply_points(following, unseen_mask(view))
    return points, -(replies[0] if replies else 0), play.tile.pips


class FivesNormalPlayer:
    """The tile that scores most now; ties by what it leaves; knocks or draws when it must."""

    name = "normal"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def choose(self, view: FivesView) -> Action:
        _require_turn(view)
        plays = [a for a in view.legal if isinstance(a, Play)]
        if not plays:
            return view.legal[0]
        merits = {play: normal_merit(view, play) for play in plays}
        best = max(merits.values())
        top = [play for play in plays if merits[play] == best]
        return top[int(decision_rng(self.seed, view, "normal").random() * len(top))]


def _hard(seed: int) -> FivesPlayer:
    # The reading and the search load when a hard player is first made.
    from .fives_hard import FivesHardPlayer

    return FivesHardPlayer(seed)


FIVES_PLAYERS: dict[str, Callable[[int], FivesPlayer]] = {
    "easy": FivesEasyPlayer,
    "normal": FivesNormalPlayer,
    "hard": _hard,
}


def make_fives_player(level: str, seed: int = 0) -> FivesPlayer:
    """A Fives and Threes computer player of the named level (``easy``, ``normal``, ``hard``)."""
    try:
        factory = FIVES_PLAYERS[level]
    except KeyError:
        raise ValueError(
            f"there is no Fives and Threes computer player {level!r}; "
            f"choose one of {', '.join(FIVES_PLAYERS)}"
        ) from None
    return factory(seed)
