"""The `hard` computer player: determinized sampling with playouts.

For each decision it draws many deals of the hidden tiles that agree with
everything the seat has seen (`inference`: forced draws and passes, a forced
lead, counts), and among those favours the deals in which the other players'
plays look sensible (a soft model of heavy tiles, doubles and followable
ends), walking among them with a Markov chain (`DealChain`). A player whose
plays do not fit that model is not forced into it: each seat is read as the
model's sensible player or as one whose choices look like chance, which of
the two coming out of its plays (`Budget.sensible`; issue 34: strong players,
the `dominoes` package's and hard itself, choose in ways the model cannot tell
from chance, and read as sure of the model the reading placed their tiles worse
than the hard facts alone). Against that package's player (bench/vs_dominoes.py, 300
deals of the partners' game, both seatings) this reading and greedier own play-outs
(`Budget.greed` 0.8) won 0.643 of the deals [0.588, 0.695], where the same search
before them won 0.533 [0.477, 0.589]: +0.108 [0.035, 0.182] deal by deal. On each deal it
tries every legal action and finishes the round with a fast playout
(`playout`, on the engine's own `RoundState`): the other seats play as the
sensible player the reading assumes, the seat itself more loosely. Every action is tried on the
same deals (common random numbers), so the comparison between actions is
much less noisy than the values themselves. A playout is worth the points
the round brings the seat's side, as the preset scores it (capicú and round
bonuses included), plus a bonus for winning the round at all.

Near the end of a round of two sides (two players, or partners), once nothing
can be drawn, a play-out's guess at how the round goes on gives way to the
exact answer: on each deal every action is valued by a full alpha-beta search
to the round's end (`endgame.EndgameSolver`, `Budget.endgame`), as long as the
decision's node budget lasts. It is off by default: measured on 300 deals of
the partners' game (issue 34), with endgame=16 and 12,000 nodes, it was even
with the play-outs it replaces at the same CPU (against the old hard 0.503 of
the deals [0.447, 0.560], +1.8 points a deal) and no better against the
`dominoes` package's player (bench/vs_dominoes.py): 0.507 [0.450, 0.563], where
the play-outs alone won 0.533 [0.477, 0.589] of the same 300 deals.

Why flat sampling and not a tree: in pure Python an information-set MCTS
iteration costs several playouts, and the arena showed the flat search
saturating (3500 playouts did no better than 2000), so the budget goes to
breadth and to reading the other players well (how the figures moved is in
the issue notes).

The budget counts playouts, so the same seed and budget give the same move;
a wall-clock cap (with the clock passed in) stops a slow machine from
stalling a table, at the price of that guarantee when it triggers.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterable, Sequence

import msgspec

from ..actions import REDEAL, Action, Draw, End, Pass, Place, Play
from ..codes import Outcome
from ..draw.events import TilePlayed
from ..draw.scoring import score_round
from ..draw.state import RoundState
from ..draw.view import View
from ..rules import Rules
from ..tiles import Tile, TileSet, tile_set
from .endgame import EndgameSolver, NodeLimit
from .heuristic import decision_rng
from .inference import DealChain, DealSampler, Knowledge, infer
from .playout import play_out

#: Playouts per decision: tuned so `hard` answers in about 100 ms on one core.
DEFAULT_ITERATIONS = 2000
#: Tiles still to move (in hands or drawable) at the start of a standard round
#: (puerto-rican-drawing: 7 + 7 + 12 with two players, 3 x 7 + 5 with three);
#: `Budget.iterations` is for rounds of that length or shorter.
STANDARD_TILES_TO_MOVE = 26
#: The safety net: stop searching after this many seconds whatever the budget.
DEFAULT_CAP_SECONDS = 0.25
#: How often the seat itself lays its heaviest tile in playouts rather than a random one
#: (0.5 before issue 34: 0.8 did better against the `dominoes` package's player).
DEFAULT_GREED = 0.8
#: See `Budget.win_bonus`.
DEFAULT_WIN_BONUS = 30.0
#: See `Budget.read`.
DEFAULT_READ = 3.0
#: See `Budget.sensible`: 0.3 reads the `dominoes` package's player and hard better than
#: the hard facts alone, and `normal` (who plays the model exactly) nearly as well as 1.0.
DEFAULT_SENSIBLE = 0.3
#: See `Budget.follow`.
DEFAULT_FOLLOW = 0
#: See `Budget.chain_steps`.
DEFAULT_CHAIN_STEPS = 4
#: See `Budget.opponents`: `normal`'s own rule (pips, +3 for a double, +2 for
#: each tile kept that can follow), the same merit the reading assumes.
DEFAULT_OPPONENTS = (1.0, 2)
#: See `Budget.candidates`.
DEFAULT_CANDIDATES = 4
#: See `Budget.endgame`.
#: Off: on the partners' game it showed no gain (see the module docstring); 16 is the size tried.
DEFAULT_ENDGAME = 0
#: See `Budget.endgame_many`.
DEFAULT_ENDGAME_MANY = 0
#: See `Budget.endgame_nodes`.
DEFAULT_ENDGAME_NODES = 12000

#: A learned (or any) evaluation of a position: given a round state in which every
#: hand is known (a sampled deal, the round not over) and a seat, the points the
#: rest of the round is expected to bring that seat's side: positive when the side
#: is expected to score them, negative when another side is (the search's units,
#: `ActionValue.mean`, without the win bonus). It must not change the state.
Evaluation = Callable[[RoundState, int], float]


class Budget(msgspec.Struct, frozen=True):
    """How much work one decision may do."""

    #: Playouts in all (spread over the legal actions), for a round with at
    #: most `STANDARD_TILES_TO_MOVE` tiles to move; proportionally fewer beyond.
    iterations: int = DEFAULT_ITERATIONS
    #: Wall-clock seconds after which the search stops early (None: never).
    cap_seconds: float | None = DEFAULT_CAP_SECONDS
    #: How often the seat lays its heaviest tile in playouts rather than a random
    #: one: its own later moves stay loose, so an action is valued by the
    #: spread of ways it can go on, not by one fixed plan.
    greed: float = DEFAULT_GREED
    #: Points added to a playout's value when the seat's side wins the round
    #: (taken off, shared, when another side wins): how much winning matters
    #: beyond the points it brings.
    win_bonus: float = DEFAULT_WIN_BONUS
    #: How sharply the other players' plays are read: the sharpness of the
    #: softmax model of `DealSampler.likelihood` (0: every consistent deal
    #: counts the same).
    read: float = DEFAULT_READ
    #: How sure the reading is that each other player plays as its model's sensible
    #: player: below 1, a seat's plays may also be read as a player's whose choices the
    #: model cannot tell from chance (`DealSampler.likelihood`), and which of the two a
    #: seat is comes out of its plays.
    sensible: float = DEFAULT_SENSIBLE
    #: In playouts, what a tile left in hand that fits the new ends is worth
    #: against pips (0: playouts lay the heaviest tile).
    follow: int = DEFAULT_FOLLOW
    #: When reading, Metropolis steps between the deals played out (0: draw
    #: independent deals and weigh or resample them instead).
    chain_steps: int = DEFAULT_CHAIN_STEPS
    #: Deals drawn for each one played out when reading (1: weight instead).
    candidates: int = DEFAULT_CANDIDATES
    #: How the other seats play in playouts, as (greed, follow); None: as the
    #: seat itself. The default is the sensible player the reading assumes.
    opponents: tuple[float, int] | None = DEFAULT_OPPONENTS
    #: With nothing left to draw and at most this many tiles in all hands, a game of two
    #: sides (two players, or partnerships) is played exactly on each deal instead of by
    #: play-outs (`endgame.EndgameSolver`); 0: never.
    endgame: int = DEFAULT_ENDGAME
    #: The same for three or more sides, each for themselves (a search without pruning: fewer tiles).
    endgame_many: int = DEFAULT_ENDGAME_MANY
    #: The search nodes those exact plays may visit in one decision, over all deals: they
    #: stop at the first deal that would pass it (a count, so the move stays a function
    #: of the seed); when not even one deal fits, the play-outs decide.
    endgame_nodes: int = DEFAULT_ENDGAME_NODES
    #: An evaluation of positions (`Evaluation`) that ends each play-out early: after
    #: `evaluate_after` moves of the play-out (draws and passes count), a round not yet
    #: over is worth what it says (won when positive). None: play-outs run to the end.
    evaluate: Evaluation | None = None
    #: The play-out moves before `evaluate` is asked (0: straight after the action).
    evaluate_after: int = 0


class ActionValue(msgspec.Struct, frozen=True):
    """What the search thinks of one action."""

    action: Action
    #: Mean points to the seat's side per round (negative: points lost).
    mean: float
    #: Fraction of playouts in which the seat's side won the round.
    win_rate: float
    samples: int


class SearchResult(msgspec.Struct, frozen=True):
    values: tuple[ActionValue, ...]
    knowledge: Knowledge
    #: True when the wall-clock cap stopped the search before its budget.
    capped: bool

    @property
    def best(self) -> ActionValue:
        return max(self.values, key=lambda v: v.mean)


def _template(view: View, tiles: TileSet) -> RoundState:
    """A round state at the view's position, hands and boneyard still to be filled in."""
    rules = view.rules
    assert view.turn is not None
    forced = -1 if view.forced_lead is None else tiles.index[view.forced_lead]
    st = RoundState(
        tiles,
        [0] * view.players,
        [],
        turn=view.turn,
        reserve=0,
        drawing=rules.drawing,
        forced_lead=forced,
        voluntary_draw=rules.voluntary_draw,
        max_draws=rules.max_draws_per_turn or 0,
        wild_blanks=bool(rules.wild_blanks),
        draws_at_once=rules.draws_at_once,
    )
    st.drawable = view.drawable
    if view.ends is not None:
        st.left, st.right = view.ends
    st.draws_this_turn = view.draws_this_turn
    for event in reversed(view.events):
        if isinstance(event, TilePlayed):
            st.last_player = event.seat
            st.last_tile = tiles.index[event.tile]
            break
    return st


def _apply(st: RoundState, action: Action, tiles: TileSet) -> None:
    if isinstance(action, Play):
        blank = -1 if action.blank is None else action.blank
        st.play(tiles.index[action.tile], action.place is End.RIGHT, blank)
    elif isinstance(action, Draw):
        st.draw()
    elif isinstance(action, Pass):
        st.pass_turn()


class _Scorer:
    """Turns a finished playout into points for one side, as the preset scores it."""

    __slots__ = ("bonus", "players", "round_number", "rules", "side", "sides", "tiles")

    def __init__(
        self, rules: Rules, players: int, seat: int, round_number: int, tiles: TileSet, bonus: float
    ) -> None:
        self.bonus = bonus
        self.rules = rules
        self.players = players
        self.side = rules.side_of(seat, players)
        self.sides = rules.sides(players)
        self.round_number = round_number
        self.tiles = tiles

    def __call__(self, st: RoundState) -> tuple[float, bool]:
        """What a finished play-out is worth to the side, and whether the side won it."""
        won = self.winner(st.outcome or Outcome.TRANQUE, st.hands, st.last_player, st.last_tile, st.capicu)
        if won is None:
            return 0.0, False
        winner, points = won
        if winner == self.side:
            return points, True
        return -points / (self.sides - 1), False

    def evaluated(self, points: float) -> tuple[float, bool]:
        """An `Evaluation`'s expected points as a play-out's value (the win bonus to the side
        expected to win), and whether the side is expected to win."""
        if points > 0:
            return points + self.bonus, True
        if points < 0:
            return points - self.bonus / (self.sides - 1), False
        return 0.0, False

    def leaf(
        self, outcome: Outcome, hands: list[int], last_player: int, last_tile: int, capicu: bool
    ) -> list[float]:
        """What a finished round is worth to each side (as `__call__` values it for its own):
        the exact endgame search's leaves."""
        won = self.winner(outcome, hands, last_player, last_tile, capicu)
        if won is None:
            return [0.0] * self.sides
        winner, points = won
        out = [-points / (self.sides - 1)] * self.sides
        out[winner] = points
        return out

    def winner(
        self, outcome: Outcome, hands: list[int], last_player: int, last_tile: int, capicu: bool
    ) -> tuple[int, float] | None:
        """The side that won the round and its points with the win bonus; None: nobody won."""
        tiles = self.tiles
        counts = [tiles.pips_in(hand) for hand in hands]
        score = score_round(
            self.rules,
            counts,
            reason=outcome,
            last_player=last_player,
            last_tile=tiles.tiles[last_tile],
            capicu=capicu,
            round_number=self.round_number,
        )
        if score.winner is None:
            return None
        return score.winner, score.points + self.bonus


def search(
    view: View,
    *,
    seed: int = 0,
    budget: Budget | None = None,
    clock: Callable[[], float] = time.perf_counter,
    deals: Callable[[Knowledge], DealSampler] = DealSampler,
    actions: Sequence[Action] | None = None,
) -> SearchResult:
    """Every legal action of ``view`` valued by sampled deals and playouts.

    ``deals`` makes the guesses at the hidden tiles from what the seat knows;
    the arena passes one that knows the true hands, to measure what seeing
    them would be worth. ``actions``: the legal actions to value (by default
    `searched_actions`); the coach values every one, each number a wild blank
    may be given too.
    """
    if view.seat is None or not view.legal:
        raise ValueError("a search needs a seat whose turn it is")
    budget = budget or Budget()
    knowledge = infer(view)
    actions = searched_actions(view, knowledge) if actions is None else tuple(actions)
    if len(actions) == 1:
        return SearchResult((ActionValue(actions[0], 0.0, 0.0, 0),), knowledge, False)
    tiles = knowledge.tiles
    rng = decision_rng(seed, view, "hard")
    sampler = deals(knowledge)
    template = _template(view, tiles)
    scorer = _Scorer(view.rules, view.players, view.seat, view.round_number, tiles, budget.win_bonus)
    totals = [0.0] * len(actions)
    wins = [0.0] * len(actions)
    # A playout costs about one step per tile still to move: longer rounds (big
    # sets, four hands, a deep boneyard) get fewer playouts, so a decision
    # takes about as long in every preset, and the count stays a function of
    # the view alone (same seed and budget, same move).
    to_move = sum(view.hand_counts) + view.drawable
    scale = min(1.0, STANDARD_TILES_TO_MOVE / max(1, to_move))
    rounds = max(1, math.ceil(budget.iterations * scale / len(actions)))
    start = clock()
    done = 0
    capped = False
    greed = budget.greed
    read = budget.read
    candidates = budget.candidates
    follow = budget.follow
    seat = view.seat
    opponents = budget.opponents
    evaluate = budget.evaluate
    moves = -1 if evaluate is None else budget.evaluate_after
    if knowledge.line is None or not any(knowledge.line.choices):
        read = 0.0  # no play to read: every consistent deal is as likely
    sensible = budget.sensible
    chain = (DealChain(sampler, rng, read, budget.chain_steps * 8, sensible)
             if read and budget.chain_steps else None)
    solver = _endgame_solver(view, budget, template, scorer)
    nodes_left = budget.endgame_nodes
    weight_sum = 0.0
    for _ in range(rounds):
        if budget.cap_seconds is not None and done and clock() - start > budget.cap_seconds:
            capped = True
            break
        weight = 1.0
        if chain is not None:
            chain.step(rng, budget.chain_steps)
            deal = chain.deal(rng)
        elif read and candidates > 1:
            # Sampling-importance-resampling: keep one of a few deals, chosen by
            # likelihood, so every playout goes to a plausible deal.
            pool = [sampler.sample(rng) for _ in range(candidates)]
            likes = [sampler.likelihood(d, read, sensible) for d in pool]
            pick = rng.random() * sum(likes)
            for d, like in zip(pool, likes, strict=True):
                deal = d
                pick -= like
                if pick <= 0:
                    break
        else:
            deal = sampler.sample(rng)
            if read:
                weight = sampler.likelihood(deal, read, sensible)
        base = template.copy()
        base.hands = deal.hands
        base.stock = deal.stock
        if solver is not None:
            exact = _solve_each(solver, base, actions, tiles, nodes_left)
            if exact is None:
                if done:
                    break  # the node budget is spent: the deals solved so far decide
                solver = None  # not even one deal fits: play-outs instead
            else:
                nodes_left -= solver.nodes
                solver.nodes = 0
                weight_sum += weight
                for i, value in enumerate(exact):
                    totals[i] += weight * value
                    if value > 0:
                        wins[i] += weight
                done += 1
                continue
        weight_sum += weight
        for i, action in enumerate(actions):
            st = base.copy()
            _apply(st, action, tiles)
            play_out(st, rng, greed, follow, searcher=seat, others=opponents, moves=moves)
            if st.outcome is None:
                assert evaluate is not None
                value, won = scorer.evaluated(evaluate(st, seat))
            else:
                value, won = scorer(st)
            totals[i] += weight * value
            if won:
                wins[i] += weight
        done += 1
    norm = weight_sum or 1.0
    values = tuple(
        ActionValue(a, totals[i] / norm, wins[i] / norm, done) for i, a in enumerate(actions)
    )
    return SearchResult(values, knowledge, capped)


def _endgame_solver(
    view: View, budget: Budget, template: RoundState, scorer: _Scorer
) -> EndgameSolver | None:
    """The exact endgame search for this decision, or None when the position is not for it."""
    if (
        not budget.endgame
        or not budget.endgame_nodes
        or view.drawable
        or view.ends is None
        or view.rules.wild_blanks
        or (scorer.sides > 2 and sum(view.hand_counts) > budget.endgame_many)
        or sum(view.hand_counts) > budget.endgame
    ):
        return None
    assert view.seat is not None
    sides = [view.rules.side_of(seat, view.players) for seat in range(view.players)]
    return EndgameSolver(template, sides, scorer.side, scorer.leaf)


def _solve_each(
    solver: EndgameSolver, base: RoundState, actions: Sequence[Action], tiles: TileSet, nodes: int
) -> list[float] | None:
    """Each action's exact value on one deal, or None when that would take more than ``nodes``."""
    out = []
    solver.nodes = 0
    try:
        for action in actions:
            st = base.copy()
            _apply(st, action, tiles)
            out.append(solver.value(st, nodes - solver.nodes))
    except NodeLimit:
        solver.nodes = 0
        return None
    return out


def blank_number(view: View, knowledge: Knowledge, play: Play, numbers: Iterable[int]) -> int:
    """The number `hard` gives a wild blank it leaves open: the one the others lack, by its inference.

    Each other seat known to hold none of a number counts (the next seat double:
    it plays first on that end); ties go to the number the seat itself holds most
    of (it can follow it), then to the higher number (its tiles are the heavier).
    """
    me = view.seat
    assert me is not None
    players = view.players
    rest = [tile for tile in view.hand if tile != play.tile]

    def merit(number: int) -> tuple[int, int, int]:
        lacking = sum((2 if seat == (me + 1) % players else 1)
                      for seat in range(players) if seat != me and number in knowledge.lacks(seat))
        return lacking, sum(number in (tile.low, tile.high) for tile in rest), number
    return max(numbers, key=merit)


def searched_actions(view: View, knowledge: Knowledge) -> tuple[Action, ...]:
    """The actions the search values: the legal ones, a new deal left aside (`wants_redeal`
    decides it), and of the numbers a wild blank left open may be given, the one `blank_number` picks."""
    named: dict[tuple[Tile, Place], list[int]] = {}
    for action in view.legal:
        if isinstance(action, Play) and action.blank is not None:
            named.setdefault((action.tile, action.place), []).append(action.blank)
    best = {key: blank_number(view, knowledge, Play(*key), numbers) for key, numbers in named.items()}
    chosen = [
        action for action in view.legal
        if action is not REDEAL
        and not (isinstance(action, Play) and action.blank is not None
                 and action.blank != best[action.tile, action.place])
    ]
    return tuple(chosen) or view.legal


#: Random hands `wants_redeal` measures a new deal by.
REDEAL_SAMPLES = 200


def hand_burden(view: View, hand: tuple[Tile, ...]) -> float:
    """How hard a hand is to play out, roughly: half its pips, 5 a double (each fits one number
    only), less 2 for each number it shows (more ends it can follow); with wild blanks, less 3 a blank."""
    numbers = {n for tile in hand for n in (tile.low, tile.high)}
    burden = sum(tile.pips for tile in hand) / 2 + 5 * sum(tile.is_double for tile in hand) - 2 * len(numbers)
    if view.rules.wild_blanks:
        burden -= 3 * sum(tile.low == 0 for tile in hand)
    return burden


def wants_redeal(view: View, seed: int = 0) -> bool:
    """Whether `hard` asks for a new deal: its hand is a heavier burden than a new hand on average."""
    if REDEAL not in view.legal:
        return False
    tiles = tile_set(view.rules.max_pip).tiles
    rng = decision_rng(seed, view, "redeal")
    size = len(view.hand)
    new_hands = (tuple(rng.sample(tiles, size)) for _ in range(REDEAL_SAMPLES))
    mean = sum(hand_burden(view, hand) for hand in new_hands) / REDEAL_SAMPLES
    return hand_burden(view, view.hand) > mean


class HardPlayer:
    """Searches sampled deals of the hidden tiles; see the module docstring."""

    name = "hard"

    def __init__(
        self,
        seed: int = 0,
        budget: Budget | None = None,
        clock: Callable[[], float] = time.perf_counter,
        deals: Callable[[Knowledge], DealSampler] = DealSampler,
    ) -> None:
        self.seed = seed
        self.budget = budget or Budget()
        self.clock = clock
        self.deals = deals

    def choose(self, view: View) -> Action:
        if not view.legal:
            raise ValueError("a computer player was asked to move when it has nothing to do")
        if REDEAL in view.legal and wants_redeal(view, self.seed):
            return REDEAL
        if view.legal == (REDEAL,):
            raise ValueError("a computer player not on turn was asked to move, and keeps its deal")
        if len(view.legal) == 1:
            return view.legal[0]
        result = search(view, seed=self.seed, budget=self.budget, clock=self.clock, deals=self.deals)
        return result.best.action
