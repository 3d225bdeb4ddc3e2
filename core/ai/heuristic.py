"""The `easy` and `normal` computer players: rules of thumb, no look-ahead.

`normal` plays the way a sound club player does without counting tiles:
get rid of weight (the heaviest tile), lay doubles while they still fit (a
double only ever fits one number), and leave open ends it can follow (keep
the suits it holds many of). `easy` plays a legal tile at random most of the
time, but never anything absurd: it never draws by choice while it can play.
"""

from __future__ import annotations

import random

from ..actions import Action, End, Play
from ..draw.layout import line_of
from ..draw.view import View


def decision_rng(seed: int, view: View, salt: str = "") -> random.Random:
    """A generator for one decision, from the player's seed and the position.

    Deriving it from the view rather than keeping one per player makes a
    decision depend only on (seed, view): players hold no mutable state, so
    they are safe to call from several threads, and a hint repeats itself.
    """
    hand = " ".join(str(t) for t in view.hand)
    key = (
        f"capicu-ai/{salt}/{seed}/{view.round_number}/{len(view.events)}/"
        f"{view.draws_this_turn}/{hand}/{view.scores}"
    )
    return random.Random(key)


def plays_of(view: View) -> list[Play]:
    return [a for a in view.legal if isinstance(a, Play)]


def ends_after(view: View, play: Play) -> tuple[int, int]:
    """The open ends once ``play`` is laid (the line layout's answer)."""
    return line_of(view.rules.max_pip, bool(view.rules.wild_blanks)).tile_after(
        play.tile, play.end, view.ends, play.blank)


def follow_count(view: View, play: Play) -> int:
    """How many of the tiles left in hand would fit an open end after ``play``."""
    line = line_of(view.rules.max_pip, bool(view.rules.wild_blanks))
    ends = ends_after(view, play)
    return sum(1 for t in view.hand if t != play.tile and line.tile_places(t, ends))


def normal_score(view: View, play: Play) -> float:
    """How much `normal` likes ``play``: weight shed, doubles early, ends it can follow."""
    tile = play.tile
    score = float(tile.pips)
    if tile.is_double:
        score += 3.0
    score += 2.0 * follow_count(view, play)
    return score


class NormalPlayer:
    """Heaviest tile first, doubles early, keeps ends it can follow; draws only when it must."""

    name = "normal"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def choose(self, view: View) -> Action:
        if not view.legal:
            raise ValueError("a computer player was asked to move when it has nothing to do")
        plays = plays_of(view)
        if not plays:
            return view.legal[0]
        rng = decision_rng(self.seed, view, "normal")
        best = max(normal_score(view, p) for p in plays)
        top = [p for p in plays if normal_score(view, p) == best]
        return top[int(rng.random() * len(top))]


class EasyPlayer:
    """A random legal tile most of the time, the heaviest one now and then; never draws by choice."""

    name = "easy"

    def __init__(self, seed: int = 0, care: float = 0.3) -> None:
        self.seed = seed
        #: How often it plays its heaviest tile instead of a random one.
        self.care = care

    def choose(self, view: View) -> Action:
        if not view.legal:
            raise ValueError("a computer player was asked to move when it has nothing to do")
        plays = plays_of(view)
        if not plays:
            return view.legal[0]
        rng = decision_rng(self.seed, view, "easy")
        if rng.random() < self.care:
            return max(plays, key=lambda p: (p.tile.pips, p.tile.is_double, p.end is End.LEFT))
        return plays[int(rng.random() * len(plays))]
