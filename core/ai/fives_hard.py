"""The `hard` Fives and Threes player: what a play scores now against what it leaves, then a search.

Each play is first weighed as a pub player weighs it: the points it scores
now, less what the next player can be expected to score on the ends it leaves
(the best reply among the tiles that seat may hold, read from the tiles laid
and from its knocks: a seat that knocked on a 5 holds no 5), plus a little for
what the seat itself can score next on those ends. Near the target a play that
wins scores above everything, and with the exact finish a play that would pass
the target is worth nothing.

Where that reading leaves the choice close (the best plays within `Budget.margin`
of each other), the search decides: deals of the hidden tiles consistent with
the knocks and the counts, the same deals for every close play (so their
comparison is not noise), each played out to the end of the hand by players
who lay the tile that scores most now. A play is worth the points it brings
its side less those the others make, with a bonus for reaching the target.
The budget counts play-outs, so the same seed gives the same move; a
wall-clock cap (the clock passed in) keeps a slow machine from stalling a table.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from functools import cache

import msgspec

from ..actions import Action, End, Play
from ..fives.rules import GO_POINTS
from ..fives.scoring import POINTS
from ..fives.state import FivesOutcome, FivesRound
from ..fives.view import FivesView
from ..tiles import tile_set
from .fives_players import decision_rng
from .fives_reading import (
    UNLIKELY,
    after,
    allowed_for,
    expected_reply,
    next_seat,
    passed_over,
    position,
    reply_points,
    unseen_mask,
    voids,
)

#: What reaching the target is worth against points (it ends the match).
WIN_VALUE = 100.0


class Budget(msgspec.Struct, frozen=True):
    """How much work one decision may do, and how the reading weighs."""

    #: Play-outs for the search in all (spread over the close plays by successive halving).
    playouts: int = 1000
    #: Plays whose reading is within this many points of the best are searched.
    margin: float = 6.0
    #: The most plays searched (the best by the reading).
    candidates: int = 8
    #: What the seat's own best next score on the ends it leaves is worth against points now.
    follow: float = 0.3
    #: Rounds of the table each play-out goes (0: to the end of the hand).
    horizon: int = 0
    #: Wall-clock seconds after which the search stops early (None: never).
    cap_seconds: float | None = 0.045


def _counted(view: FivesView, side: int, points: int, gained: int = 0) -> int:
    """What ``points`` would count for ``side`` (0 where the exact finish refuses a score past the target)."""
    if points and view.rules.exact_finish and view.scores[side] + gained + points > view.target:
        return 0
    return points


def reading(view: FivesView, play: Play) -> float:
    """What ``play`` is worth by the reading: points now, less the next player's expected best reply."""
    assert view.seat is not None
    me = view.seat
    st = position(view)
    side = st.side_of(me)
    following, points = after(st, play)
    points = _counted(view, side, points)
    if points and view.scores[side] + points >= view.target:
        return WIN_VALUE + points
    value = float(points)
    if following.outcome is FivesOutcome.CHIPPED_OUT:
        return value + _counted(view, side, GO_POINTS, points)
    unseen = unseen_mask(view)
    lacking = voids(view)
    nxt = next_seat(following, me)
    if nxt != me:
        allowed = allowed_for(view, nxt, unseen, lacking[nxt])
        count = view.hand_counts[nxt]
        chance = min(1.0, count / max(1, allowed.bit_count()))
        expected = expected_reply(following, allowed, chance, passed_over(view)[nxt])
        other = st.side_of(nxt)
        if other != side and view.scores[other] + expected >= view.target:
            expected *= 3  # leaving the other side its winning score
        value += expected if other == side else -expected
    rest = following.hands[me]
    mine = reply_points(following, rest)
    if mine:
        value += Budget().follow * mine[0]
    return value


class FivesHardPlayer:
    """The reading, and a search of sampled deals where it leaves the choice close."""

    name = "hard"

    def __init__(self, seed: int = 0, budget: Budget | None = None,
                 clock: Callable[[], float] = time.perf_counter) -> None:
        self.seed = seed
        self.budget = budget or Budget()
        self.clock = clock

    def choose(self, view: FivesView) -> Action:
        if not view.legal:
            raise ValueError("a computer player was asked to move when it has nothing to do")
        plays = [a for a in view.legal if isinstance(a, Play)]
        if len(plays) <= 1:
            return plays[0] if plays else view.legal[0]
        values = {play: reading(view, play) for play in plays}
        ranked = sorted(plays, key=lambda p: (-values[p], -p.tile.pips, str(p)))
        best = values[ranked[0]]
        close = [p for p in ranked if best - values[p] <= self.budget.margin][: self.budget.candidates]
        if len(close) <= 1 or best >= WIN_VALUE or self.budget.playouts <= 0:
            return ranked[0]
        searched = search(view, close, self.budget, decision_rng(self.seed, view, "hard"), self.clock)
        return max(close, key=lambda p: (searched[p], values[p]))


def search(view: FivesView, plays: list[Play], budget: Budget, rng: random.Random,
           clock: Callable[[], float] = time.perf_counter) -> dict[Play, float]:
    """Each of ``plays`` valued over sampled deals, played out to the hand's end (mean points difference).

    Successive halving: the budget of play-outs is spent in rounds, each round on
    the same deals for every play still in, and the worse half of them is let go
    after each round, so the close plays get most of the deals.
    """
    assert view.seat is not None
    me = view.seat
    base = position(view)
    tiles = base.tiles
    unseen = unseen_mask(view)
    lacking = voids(view)
    allowed = [allowed_for(view, seat, unseen, lacking[seat]) for seat in range(view.players)]
    unlikely = passed_over(view)
    moves = [(tiles.index[play.tile], play.place is End.RIGHT) for play in plays]
    totals = [0.0] * len(plays)
    counts = [0] * len(plays)
    alive = list(range(len(plays)))
    rounds = max(1, math.ceil(math.log2(len(plays))))
    horizon = budget.horizon * view.players or 1000
    start = clock()
    for _ in range(rounds):
        deals = max(1, budget.playouts // (rounds * len(alive)))
        for _ in range(deals):
            if budget.cap_seconds is not None and counts[alive[0]] and clock() - start > budget.cap_seconds:
                break
            deal = _deal(view, unseen, allowed, unlikely, rng)
            if deal is None:
                continue
            hands, stock = deal
            for i in alive:
                st = base.copy()
                st.hands = list(hands)
                st.stock = stock
                points = st.play(*moves[i])
                totals[i] += _play_out(view, st, me, points, rng, horizon)
                counts[i] += 1
        if len(alive) > 2:
            alive.sort(key=lambda i: -totals[i] / max(1, counts[i]))
            alive = alive[: max(2, (len(alive) + 1) // 2)]
    # A play let go ranks below every play still in, whatever its mean.
    return {play: totals[i] / max(1, counts[i]) - (0.0 if i in alive else 1e6)
            for i, play in enumerate(plays)}


def _deal(view: FivesView, unseen: int, allowed: list[int], unlikely: list[int], rng: random.Random,
          tries: int = 20) -> tuple[list[int], list[int]] | None:
    """Hands for the other seats from the unseen tiles, each within what it may hold; the rest set aside."""
    me = view.seat
    assert me is not None
    tiles = tile_set(view.rules.max_pip)
    others = sorted((s for s in range(view.players) if s != me and view.hand_counts[s]),
                    key=lambda s: allowed[s].bit_count())
    pool_all = [i for i in range(len(tiles)) if unseen >> i & 1]
    random_ = rng.random
    mine = tiles.mask_of(view.hand)
    for attempt in range(tries):
        loose = attempt == tries - 1  # the last try forgets the knocks rather than fail
        pool = set(pool_all)
        hands = [0] * view.players
        hands[me] = mine
        ok = True
        for seat in others:
            choices = [t for t in sorted(pool) if loose or allowed[seat] >> t & 1]
            count = view.hand_counts[seat]
            if len(choices) < count:
                ok = False
                break
            # The tiles the seat's plays say it passed over come last but by chance.
            weigh = unlikely[seat]
            keyed = sorted([(random_() * (UNLIKELY if weigh >> t & 1 else 1.0), t) for t in choices],
                           reverse=True)
            for _, tile in keyed[:count]:
                hands[seat] |= 1 << tile
                pool.discard(tile)
        if ok:
            stock = sorted(pool)
            rng.shuffle(stock)
            return hands, stock
    return None


def _play_out(
    view: FivesView, st: FivesRound, me: int, first: int, rng: random.Random, horizon: int,
    win_value: float = WIN_VALUE,
) -> float:
    """Finish the hand with every seat laying its best-scoring tile; the seat's side's margin in points
    (with ``win_value`` more, or less, when a side reaches the target and the match ends there).

    The score of each candidate is worked out inline from the ends (as `FivesRound.points_of`
    does): this loop is most of the search's time.
    """
    sides = view.rules.sides(view.players)
    side = st.side_of(me)
    gained = [0] * sides
    target = view.target
    scores = view.scores
    exact = view.rules.exact_finish

    def add(to: int, points: int) -> bool:
        if exact and scores[to] + gained[to] + points > target:
            return False
        gained[to] += points
        return scores[to] + gained[to] >= target

    if first and add(side, first):
        return win_value + first
    far = st.far
    fit = st.fit
    hands = st.hands
    double = _doubles(st.tiles.max_pip)
    random_bit = rng.getrandbits
    while st.outcome is None:
        horizon -= 1
        if horizon < 0:
            return _margin(gained, side)
        seat = st.turn
        left, right = st.left, st.right
        playable = hands[seat] & fit[left][right]
        if not playable:
            if st.drawable:
                st.draw()
            else:
                st.knock()
            continue
        if left < 0:  # a lead: any tile, its pips
            tile, on_right = _best_lead(st, playable), False
        else:
            left_value = left << st.left_double
            right_value = right << st.right_double
            best = -1
            tile, on_right = -1, False
            while playable:
                low = playable & -playable
                playable ^= low
                index = low.bit_length() - 1
                row = far[index]
                shift = double[index]
                number = row[left]
                if number >= 0:
                    points = POINTS[(number << shift) + right_value]
                    if points > best or (points == best and random_bit(1)):
                        best, tile, on_right = points, index, False
                number = row[right]
                if number >= 0:
                    points = POINTS[left_value + (number << shift)]
                    if points > best or (points == best and random_bit(1)):
                        best, tile, on_right = points, index, True
        points = st.play(tile, on_right)
        mover = st.side_of(seat)
        if points and add(mover, points):
            return _margin(gained, side) + (win_value if mover == side else -win_value)
    if st.outcome is FivesOutcome.CHIPPED_OUT and add(st.go_side, GO_POINTS):
        return _margin(gained, side) + (win_value if st.go_side == side else -win_value)
    return _margin(gained, side)


def _best_lead(st: FivesRound, playable: int) -> int:
    """The tile that scores most led (the heaviest of those)."""
    ends = st.ends_of
    return max((i for i in range(len(ends)) if playable >> i & 1),
               key=lambda i: (POINTS[ends[i][0] + ends[i][1]], ends[i][0] + ends[i][1]))


@cache
def _doubles(max_pip: int) -> tuple[int, ...]:
    """1 for each double of the set (a double at an end counts twice: its number shifted by one), else 0."""
    return tuple(int(a == b) for a, b in tile_set(max_pip).ends)


def _margin(gained: list[int], side: int) -> float:
    """The side's points less the others' (their mean, with more than one other side)."""
    others = len(gained) - 1
    return gained[side] - (sum(gained) - gained[side]) / others
