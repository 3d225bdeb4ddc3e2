"""The `hard` computer player for Mexican Train: a planned train, read voids, and sampled play-outs.

docs/RULES.md, ``mexican-train``. What a strong player does, and this one:

- *plans its own train* as the longest chain its hand can make from the
  train's open number (`ChainTable`, an exact search) and lays the longest
  opening run there is on its first turn;
- *keeps that chain intact*: a tile of the plan goes on its own train, in
  order, and is not spent elsewhere while the plan can still use it;
- *unloads* the tiles off the plan (heaviest first, doubles early) on the
  Mexican train and the trains whose marker is up, while those still take
  them;
- lays a double when it can still end the turn with a cover (two tiles
  down in one turn); with several doubles a turn (the seed's rule) it lays
  every further double it can while a cover of the oldest open one stays in
  hand (each one more tile down), its own train's double first (it covers
  that one itself, so nobody else lays on its plan), and leaves the others
  open for the next players, best on numbers they are known to lack;
- leaves open, on the trains everyone may use, numbers the next players are
  known to lack (*reads* their draws, passes and markers as voids, as the
  Draw family's hard player does: core/ai/mexican_inference.py), so a double
  it leaves or a cover it lays makes them draw;
- brings its marker down when it is up (others would lay on its plan);
- where the choice is close (`MexicanBudget.margin`), the few best moves of
  that plan are tried on deals of the hidden tiles sampled consistent with
  everything the seat saw, each finished by a fast play-out, and the move
  with the best expected count (against the others', plus a bonus for the
  round's win) is taken: the determinised search of core/ai/search.py.

It decides from the seat's `MexicanView` alone; with the same seed and view
it makes the same move (a wall-clock cap aside).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

import msgspec

from ..actions import END_RUN, Action, Draw, EndRun, Pass, Play, Train
from ..mexican.state import MexicanRound
from ..mexican.view import MexicanView
from ..tiles import TileSet, far_ends, tile_set
from .inference import DealSampler
from .mexican_chain import ChainTable
from .mexican_inference import MexicanReading, read_mexican
from .mexican_playout import moves

#: See `MexicanBudget`.
DEFAULT_PLAYOUTS = 120
DEFAULT_CANDIDATES = 3
DEFAULT_CAP_SECONDS = 0.25
DEFAULT_GREED = 0.75
DEFAULT_WIN_BONUS = 20.0
DEFAULT_MARGIN = 6.0


class MexicanBudget(msgspec.Struct, frozen=True):
    """How much one decision may search, and how."""

    #: Play-outs in all for one decision (shared among the candidates); 0: the plan alone decides.
    playouts: int = DEFAULT_PLAYOUTS
    #: How many of the plan's best moves the search compares.
    candidates: int = DEFAULT_CANDIDATES
    #: Stop searching after this many seconds (None: never); the moves searched so far decide.
    cap_seconds: float | None = DEFAULT_CAP_SECONDS
    #: In play-outs, how often a seat lays its heaviest tile rather than any legal one.
    greed: float = DEFAULT_GREED
    #: Added to a play-out's value when the seat has the lowest count (shared on a tie).
    win_bonus: float = DEFAULT_WIN_BONUS
    #: Search only when the second-best move's merit is within this of the best's.
    margin: float = DEFAULT_MARGIN
    #: In play-outs the seat itself unloads on the others' trains first (`play_out_greedy`).
    plan_playouts: bool = True


# -- the plan: merits of each move --------------------------------------------------------

#: What a tile of the plan spent elsewhere costs (per tile the plan loses).
CHAIN_LOSS = 9.0
#: Laying a tile off the plan where others may lay too: it might not fit later.
UNLOAD = 4.0
#: A double that will be covered at once: a second tile down this turn.
COVERED_DOUBLE = 6.0
#: A double left open on oneself (nothing to cover it): a draw, likely a pass, the marker up.
UNCOVERED_DOUBLE = -7.0
#: Several doubles a turn: one more double laid before the cover still in hand (a tile shed free).
ANOTHER_DOUBLE = 12.0
#: Several doubles a turn: a double of one's own train that another player will cover, on the plan.
OWN_DOUBLE_LEFT = -6.0
#: One's own train while its marker is up: down again, so nobody lays on the plan.
MARKER_DOWN = 7.0
#: Another player's own train: its plan is broken, and its open number changes.
OTHERS_TRAIN = 2.0
#: A number left open that the next player is known to lack (less for seats further on).
BLOCKS = 3.0
#: A number left open on a shared train that the hand can follow there next turn.
FOLLOWS = 1.0


class Merit(msgspec.Struct, frozen=True):
    """Why the plan likes a move: the sum, and the parts a hint words."""

    action: Action
    total: float
    #: Tiles the plan loses by it (0: the chain stays intact).
    chain_loss: int = 0
    #: The tile is off the plan and goes on a train others may use.
    unloads: bool = False
    #: A double that the hand covers at once.
    covered_double: bool = False
    #: The open double it covers.
    covers: bool = False
    marker_down: bool = False
    #: A seat known to lack the number the move leaves open (the nearest one), or -1.
    blocks: int = -1
    blocked_number: int = -1
    #: The tile breaks another player's train (its marker is up).
    others_train: bool = False


class _Seat:
    """What a decision needs of the view, on bitmasks: hand, trains, voids."""

    __slots__ = ("doubling", "far", "hand", "heads", "lacks", "markers", "me", "open_double",
                 "open_doubles", "pips", "players", "suit", "table", "tiles")

    def __init__(self, view: MexicanView, reading: MexicanReading | None) -> None:
        assert view.seat is not None
        self.tiles: TileSet = tile_set(view.rules.max_pip)
        self.far = far_ends(self.tiles)
        self.suit = self.tiles.suit_mask
        self.pips = self.tiles.pips
        self.me = view.seat
        self.players = view.players
        self.hand = self.tiles.mask_of(view.hand)
        self.heads = [line.head for line in view.trains]
        self.markers = [line.marker for line in view.trains]
        self.open_double = -1 if view.open_double is None else _train_index(view.open_double, view.players)
        self.open_doubles = [_train_index(train, view.players) for train in view.open_doubles]
        #: The seat laid a double this turn: it may lay more before its cover.
        self.doubling = view.doubling
        self.table = ChainTable(self.tiles, self.hand)
        self.lacks: list[frozenset[int]] = [
            frozenset() if reading is None or seat == self.me else reading.lacks(seat)
            for seat in range(view.players)
        ]

    @property
    def plan_length(self) -> int:
        return self.table.length(self.hand, self.heads[self.me])


def _train_index(train: Train, players: int) -> int:
    return players if train.owner < 0 else train.owner


def merit_of(seat: _Seat, play: Play, *, cover_doubles: bool, several: bool = False) -> Merit:
    """How much the plan likes ``play`` (a legal play of the seat's view).

    ``several``: the rules let a turn lay several doubles before its cover (the seed's).
    """
    tiles = seat.tiles
    tile = tiles.index[play.tile]
    assert isinstance(play.place, Train)
    train = _train_index(play.place, seat.players)
    me = seat.me
    rest = seat.hand ^ 1 << tile
    if not rest:
        return Merit(play, 1000.0)  # going out: nothing is better
    head = seat.heads[train]
    after = seat.far[tile][head]
    own_head = seat.heads[me]
    plan = seat.plan_length
    # Tiles the plan still lays after this move (this one among them if it goes on one's own train).
    kept = 1 + seat.table.length(rest, after) if train == me else seat.table.length(rest, own_head)
    loss = max(0, plan - kept)
    total = float(tiles.pips[tile]) - CHAIN_LOSS * loss
    unloads = train != me and loss == 0
    if unloads:
        total += UNLOAD
    a, b = tiles.ends[tile]
    covers = seat.open_double == train and a != b
    covered_double = False
    if a == b and several and cover_doubles:
        # The turn ends with a cover of the oldest open double: is one still in hand after this?
        oldest = seat.open_doubles[0] if seat.open_doubles else train
        need = a if oldest == train else seat.heads[oldest]
        if rest & seat.suit[need]:
            covered_double = True
            total += COVERED_DOUBLE + (ANOTHER_DOUBLE if seat.open_doubles else 0.0)
        elif train == me:
            total += UNCOVERED_DOUBLE  # left open on one's plan, and likely a pass
        if train == me and oldest != train:
            total += OWN_DOUBLE_LEFT  # another player will cover it, on one's own train
    elif a == b:
        if rest & seat.suit[a]:
            covered_double = True
            total += COVERED_DOUBLE
        elif cover_doubles:
            total += UNCOVERED_DOUBLE
    marker_down = train == me and seat.markers[me]
    if marker_down:
        total += MARKER_DOWN + min(plan, 5)
    others_train = train != me and train != seat.players
    if others_train:
        total += OTHERS_TRAIN
    blocks, blocked = -1, -1
    if train != me or a == b:
        # The number left where others may lay: a double leaves its own number to cover.
        for step in range(1, seat.players):
            other = (me + step) % seat.players
            if after in seat.lacks[other]:
                total += BLOCKS / step
                if blocks < 0:
                    blocks, blocked = other, after
        if train != me and a != b and rest & seat.suit[after]:
            total += FOLLOWS
    return Merit(play, total, loss, unloads, covered_double, covers, marker_down, blocks, blocked,
                 others_train)


# -- the search: sampled deals, fast play-outs --------------------------------------------


def _apply(state: MexicanRound, action: Action, tiles: TileSet, players: int) -> None:
    if isinstance(action, Play):
        assert isinstance(action.place, Train)
        state.play(tiles.index[action.tile], _train_index(action.place, players))
    elif isinstance(action, EndRun):
        state.end_run()
    elif isinstance(action, Draw):
        state.draw()
    elif isinstance(action, Pass):
        state.pass_turn()


def play_out_greedy(state: MexicanRound, rng: random.Random, greed: float, searcher: int = -1) -> None:
    """Finish the round: every seat lays its heaviest tile ``greed`` of the time, else any legal one.

    The ``searcher`` seat, when it lays its best tile, first lays one that
    does not show its own train's number on a train of the others (the plan's
    rule of thumb: unload there, keep one's own train for later). An opening
    run goes on while a tile fits. The rules are `MexicanRound`'s.
    """
    rand = rng.random
    pips = state.tiles.pips
    suit = state.suit
    while state.outcome is None:
        options, count = moves(state)
        if not count:
            if state.running and state.open_double < 0:
                state.end_run()
            elif state.may_draw():
                state.draw()
            else:
                state.pass_turn()
            continue
        if count == 1 or rand() < greed:
            best, best_tile, best_train = -1, -1, -1
            seat = state.turn
            for train, mask in options:
                if seat == searcher and train != seat:
                    spare = mask & ~suit[state.heads[seat]]
                    if spare:
                        mask = spare
                        bonus = 100
                    else:
                        bonus = 0
                    while mask:
                        low = mask & -mask
                        mask ^= low
                        tile = low.bit_length() - 1
                        if pips[tile] + bonus > best:
                            best, best_tile, best_train = pips[tile] + bonus, tile, train
                    continue
                while mask:
                    low = mask & -mask
                    mask ^= low
                    tile = low.bit_length() - 1
                    if pips[tile] > best:
                        best, best_tile, best_train = pips[tile], tile, train
            state.play(best_tile, best_train)
            continue
        pick = int(rand() * count)
        for train, mask in options:
            size = mask.bit_count()
            if pick < size:
                while pick:
                    mask &= mask - 1
                    pick -= 1
                state.play((mask & -mask).bit_length() - 1, train)
                break
            pick -= size


class MexicanDecision(msgspec.Struct, frozen=True):
    """What `hard` chose and why: the plan's merits, and the search's values when it searched."""

    action: Action
    #: Every play's merit (empty when there was no play to choose).
    merits: tuple[Merit, ...]
    #: (action, mean value, play-outs) of each move searched; empty when the plan decided alone.
    searched: tuple[tuple[Action, float, int], ...] = ()
    #: The opening run the plan lays (tiles in order), when the seat is laying one.
    run: tuple[int, ...] = ()

    @property
    def merit(self) -> Merit | None:
        return next((m for m in self.merits if m.action == self.action), None)


def _decision_rng(seed: int, view: MexicanView) -> random.Random:
    hand = " ".join(str(t) for t in view.hand)
    return random.Random(f"capicu-train-ai/hard/{seed}/{view.round_number}/{len(view.events)}/{hand}")


def decide(
    view: MexicanView,
    seed: int = 0,
    budget: MexicanBudget | None = None,
    *,
    clock: Callable[[], float] = time.perf_counter,
) -> MexicanDecision:
    """`hard`'s move in ``view`` (a seat's view on its turn), with the plan's merits and the search's."""
    if view.seat is None or not view.legal:
        raise ValueError("a computer player was asked to move when it has nothing to do")
    budget = budget or MexicanBudget()
    plays = [a for a in view.legal if isinstance(a, Play)]
    if not plays:
        return MexicanDecision(view.legal[0], ())
    me = view.seat
    rules = view.rules
    if (view.may_run or view.running) and rules.opening_run:
        # The opening run: the longest (then heaviest) there is, a tile at a time.
        seat = _Seat(view, None)
        run = seat.table.run(seat.hand, seat.heads[me])
        own = Train(me)
        if run:
            action: Action = Play(seat.tiles.tiles[run[0]], own)
            if action in view.legal:
                return MexicanDecision(action, (), run=run)
        if END_RUN in view.legal:
            return MexicanDecision(END_RUN, ())
    try:
        reading: MexicanReading | None = read_mexican(view)
    except ValueError:
        reading = None  # a view whose events do not lead to its trains: the plan alone decides
    seat = _Seat(view, reading)
    several = not rules.one_double_a_turn
    merits = sorted((merit_of(seat, p, cover_doubles=rules.cover_doubles, several=several) for p in plays),
                    key=lambda m: -m.total)
    extra = [a for a in view.legal if not isinstance(a, Play)]  # END_RUN while running
    # The plan is kept: only the moves that cost it least are searched.
    least = min(m.chain_loss for m in merits)
    ranked: list[Action] = [m.action for m in merits if m.chain_loss == least]
    if extra and (merits[0].total < 0 or len(merits) == 1):
        ranked = [*ranked[:1], *extra, *ranked[1:]]
    kept = [m for m in merits if m.chain_loss == least]
    close = len(ranked) > 1 and (len(kept) == 1 or kept[0].total - kept[1].total <= budget.margin)
    if reading is None or not budget.playouts or not close or merits[0].total >= 1000.0:
        return MexicanDecision(merits[0].action, tuple(merits))
    candidates = ranked[: max(1, budget.candidates)]
    searched = _search(view, reading, candidates, seed, budget, clock)
    best = max(searched, key=lambda item: item[1])
    return MexicanDecision(best[0], tuple(merits), tuple(searched))


def _search(
    view: MexicanView,
    reading: MexicanReading,
    candidates: list[Action],
    seed: int,
    budget: MexicanBudget,
    clock: Callable[[], float],
) -> list[tuple[Action, float, int]]:
    """Each candidate's mean value over the same sampled deals (common random numbers)."""
    assert view.seat is not None
    me = view.seat
    tiles = reading.knowledge.tiles
    players = view.players
    rng = _decision_rng(seed, view)
    sampler = DealSampler(reading.knowledge)
    double_blank = view.rules.double_blank_points
    totals = [0.0] * len(candidates)
    rounds = max(1, budget.playouts // len(candidates))
    start = clock()
    done = 0
    for _ in range(rounds):
        if budget.cap_seconds is not None and done and clock() - start > budget.cap_seconds:
            break
        base = reading.state_with(sampler.sample(rng))
        for i, action in enumerate(candidates):
            state = base.copy()
            _apply(state, action, tiles, players)
            play_out_greedy(state, rng, budget.greed, me if budget.plan_playouts else -1)
            counts = state.pip_counts(double_blank)
            mine = counts[me]
            others = (sum(counts) - mine) / (players - 1)
            value = others - mine
            low = min(counts)
            if mine == low:
                value += budget.win_bonus / counts.count(low)
            totals[i] += value
        done += 1
    return [(a, totals[i] / max(1, done), done) for i, a in enumerate(candidates)]


class MexicanHardPlayer:
    """Plans its train, reads the others' voids and searches close choices; see the module docstring."""

    name = "hard"

    def __init__(
        self,
        seed: int = 0,
        budget: MexicanBudget | None = None,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        self.seed = seed
        self.budget = budget or MexicanBudget()
        self.clock = clock

    def choose(self, view: MexicanView) -> Action:
        if not view.legal:
            raise ValueError("a computer player was asked to move when it has nothing to do")
        if len(view.legal) == 1:
            return view.legal[0]
        return decide(view, self.seed, self.budget, clock=self.clock).action


__all__ = ["Merit", "MexicanBudget", "MexicanDecision", "MexicanHardPlayer", "decide",
           "merit_of", "play_out_greedy"]
