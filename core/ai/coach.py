"""The coach: what each of a player's decisions in a finished match cost, from what they knew.

For every position where the chosen seat acted (`Replay.decisions_of`), each
legal choice is valued by the hard player's own search over deals of the
hidden tiles consistent with the seat's view *before* it chose
(`Position.before`: exactly what it knew), never by the hands the replay
shows face up. A choice's value is the expected points of the round for the
seat, higher better:

- Draw family: the points the round brings the seat's side minus the points
  it brings the others (shared among them, as core/ai/search.py scores a
  playout), with no bonus for winning as such;
- Mexican Train: the others' mean count at the round's end minus the seat's
  own (counts are penalties: fewer is better);
- Fives and Threes: the points the play and the rest of the hand bring the
  seat's side (what the play scores now, what the others score after it, the
  go) minus the points they bring the others (their mean, with more than one
  other side), nothing extra for reaching the target: the hand's play-out
  stops there, as the match does.

A choice's cost is the best choice's value less its own; a decision costs
what its chosen choice does, and one with a single legal choice costs
nothing (it is not searched). The random numbers of each decision come from
the coach's seed and the position's number alone, so the same record gives
the same analysis, and hidden tiles the seat could not see do not change it.
Decisions costing more than the threshold are flagged with the reason the
better choice was better, where the seat's inference gives one (a `CoachReason`
code: tui/ words it). docs/ARCHITECTURE.md, "Replay and coach".

A new deal asked for (redeal on five doubles) is valued at 0: before its
tiles are seen a fresh deal is worth as much to every side (the lead's small
edge left out), so asking for one is worth it exactly when the hand kept is
expected to lose.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable

import msgspec

from ..actions import REDEAL, Action, Draw, End, EndRun, Pass, Play, Run, Train
from ..codes import Code, Param
from ..draw.layout import line_of
from ..draw.view import View
from ..fives.view import FivesView
from ..games import game_of_view
from ..mexican.view import MexicanView
from ..replay import Position, Replay
from .fives_hard import _counted, _deal, _play_out
from .fives_reading import (
    after,
    allowed_for,
    expected_reply,
    next_seat,
    passed_over,
    position,
    unseen_mask,
    voids,
)
from .inference import Knowledge
from .mexican_hard import MexicanBudget, _search, _Seat, merit_of
from .mexican_inference import MexicanReading, read_mexican
from .search import Budget, search

#: Bump when the coach's values change: a kept analysis of another version is computed again.
COACH_VERSION = 2
#: Points a decision may cost before it is flagged.
DEFAULT_THRESHOLD = 6.0
#: Sampled deals per legal choice (Draw family, for a round of standard length; fewer in longer ones).
DEFAULT_SAMPLES = 2000
#: Sampled deals per legal choice in Mexican Train (a play-out there is several times longer).
DEFAULT_TRAIN_SAMPLES = 300
#: Play-outs one decision may take in all: a wild blank's many numbers share them (Draw family).
DEFAULT_DECISION_PLAYOUTS = 12000
#: Sampled deals in Fives and Threes, each played out once after every legal play (the same deals
#: for every play, so their comparison is not noise).
DEFAULT_FIVES_SAMPLES = 600


class Cancelled(Exception):
    """The analysis was stopped (`analyse`'s ``stop`` said so) before it finished."""


class CoachReason(Code):
    """Why the better choice was better, with the params it is said with (seats from 0, tiles as text)."""

    #: ``seat`` had shown they held no ``number`` (a pass, a forced draw), which the better choice left open.
    LACKED = "lacked", "seat", "number"
    #: The better choice laid the last tile: the round was there to be won.
    WENT_OUT = "went-out", "tile"
    #: The choice kept the double ``tile`` (it fits one number only); the better one laid it.
    KEPT_DOUBLE = "kept-double", "tile"
    #: The better choice shed ``pips`` more pips of weight.
    HEAVIER = "heavier", "pips"
    #: A draw by choice while a tile fitted.
    NEEDLESS_DRAW = "needless-draw"
    #: The better choice drew rather than play (a draw by choice that was worth it).
    DRAW_BETTER = "draw-better"
    #: The hand was worse than a new deal on average: asking for one was better.
    REDEAL_BETTER = "redeal-better"
    #: The hand was worth keeping: a new deal was worse on average.
    KEEP_BETTER = "keep-better"
    #: Mexican Train: the choice broke ``tiles`` tiles of the train the hand could build.
    BROKE_CHAIN = "broke-chain", "tiles"
    #: Mexican Train: the better choice brought the seat's marker down.
    MARKER_DOWN = "marker-down"
    #: Mexican Train: the better choice laid a double that the hand covered at once.
    COVERED_DOUBLE = "covered-double", "tile"
    #: Fives and Threes: the better choice scored ``points`` at once with ``tile`` (the chosen, fewer).
    SCORED_MORE = "scored-more", "tile", "points"
    #: Fives and Threes: the choice left ``seat``, an opponent playing next, about ``points`` to score
    #: on the ends it left (read from the tiles unseen and the knocks); the better one, less.
    LEFT_A_SCORE = "left-a-score", "seat", "points"
    #: Fives and Threes: ``tile`` reached the target (the chosen did not): laid, it won the match.
    REACHED_TARGET = "reached-target", "tile"
    #: The search found it better on the sampled deals; nothing simpler to say.
    BEST_ODDS = "best-odds", "samples"


class CoachBudget(msgspec.Struct, frozen=True):
    """How much work the coach does per decision (the bench tunes it: bench/coach.py)."""

    #: Sampled deals per legal choice, Draw family.
    samples: int = DEFAULT_SAMPLES
    #: Sampled deals per legal choice, Mexican Train.
    train_samples: int = DEFAULT_TRAIN_SAMPLES
    #: Sampled deals, Fives and Threes (each played out after every legal play).
    fives_samples: int = DEFAULT_FIVES_SAMPLES
    #: At most this many play-outs a decision, Draw family (fewer deals a choice when there are
    #: many choices: a wild blank may be given any number, on either end).
    decision_playouts: int = DEFAULT_DECISION_PLAYOUTS

    def per_choice(self, choices: int) -> int:
        """Sampled deals for each of ``choices`` legal choices of the Draw family."""
        return max(1, min(self.samples, self.decision_playouts // max(1, choices)))


class ChoiceValue(msgspec.Struct, frozen=True):
    """One legal choice of a decision: its expected points of the round, and its cost against the best."""

    action: Action
    expected: float
    #: The best choice's expected points less this one's (0 for the best).
    cost: float


class Decision(msgspec.Struct, frozen=True):
    """One decision of the seat, judged from its view before it chose."""

    #: Its index in `Replay.positions`.
    position: int
    round_number: int
    seat: int
    #: The action taken: one of `choices` (a Mexican Train opening run laid whole as one
    #: `Run` is judged as its first tile on the seat's own train, the step that starts it).
    chosen: Action
    #: Every legal choice, best first (one alone when there was no choice).
    choices: tuple[ChoiceValue, ...]
    #: What the chosen choice cost against the best (0: it was the best, or the only one).
    cost: float
    #: It cost more than the threshold.
    flagged: bool
    #: Why the best choice was better, when the coach can say (flagged decisions only).
    reason: CoachReason | None = None
    reason_params: tuple[tuple[str, Param], ...] = ()
    #: The choices lead a round (the line is empty: no end is chosen), so the words say "leading with".
    leads: bool = False

    @property
    def best(self) -> ChoiceValue:
        return self.choices[0]

    @property
    def had_choice(self) -> bool:
        return len(self.choices) > 1


class Analysis(msgspec.Struct, frozen=True):
    """The coach's look at one seat's match: every decision, and the summary."""

    seat: int
    decisions: tuple[Decision, ...]
    #: Points given away (the decisions' costs summed) in each round, round 1 first.
    given_away_by_round: tuple[float, ...]
    #: The (up to) three decisions that cost most, costliest first; only decisions that cost something.
    costliest: tuple[Decision, ...]
    threshold: float

    @property
    def flagged(self) -> tuple[Decision, ...]:
        return tuple(d for d in self.decisions if d.flagged)

    def at(self, position: int) -> Decision | None:
        """The decision taken at ``position`` (an index into `Replay.positions`), if the seat's."""
        return next((d for d in self.decisions if d.position == position), None)


def analyse(
    replay: Replay,
    seat: int,
    *,
    threshold: float = DEFAULT_THRESHOLD,
    seed: int = 0,
    budget: CoachBudget | None = None,
    progress: Callable[[int, int], None] | None = None,
    stop: Callable[[], bool] | None = None,
) -> Analysis:
    """Every decision ``seat`` took in the match, valued and judged (see the module docstring).

    ``progress(done, total)`` is called before the first decision and after each;
    ``stop()`` is asked before each decision, and when it answers True the
    analysis raises `Cancelled` (a decision takes well under a second).
    """
    if not 0 <= seat < replay.match.players:
        raise ValueError(f"there is no seat {seat} in this match")
    budget = budget or CoachBudget()
    indexes = replay.decisions_of(seat)
    total = len(indexes)
    if progress is not None:
        progress(0, total)
    decisions: list[Decision] = []
    for done, index in enumerate(indexes, start=1):
        if stop is not None and stop():
            raise Cancelled(f"stopped after {done - 1} of {total} decisions")
        decision = analyse_position(replay.positions[index], index, threshold=threshold, seed=seed,
                                    budget=budget)
        if decision is not None:
            decisions.append(decision)
        if progress is not None:
            progress(done, total)
    return summarise(seat, tuple(decisions), threshold, rounds=replay.match.round_number)


def summarise(seat: int, decisions: tuple[Decision, ...], threshold: float, *, rounds: int) -> Analysis:
    """The analysis of ``decisions``: points given away per round and the three costliest."""
    given = [0.0] * max(rounds, max((d.round_number for d in decisions), default=0))
    for decision in decisions:
        given[decision.round_number - 1] += decision.cost
    costly = sorted((d for d in decisions if d.cost > 0), key=lambda d: (-d.cost, d.position))
    return Analysis(seat, decisions, tuple(given), tuple(costly[:3]), threshold)


def _no_clock() -> float:
    """The coach's searches have no wall-clock cap (their budget is counted): no clock is read."""
    return 0.0


def position_seed(seed: int, position: Position) -> int:
    """The seed of one decision's search: the coach's seed and the position's number, nothing hidden."""
    digest = hashlib.blake2b(f"capicu-coach/{seed}/{position.number}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")


def analyse_position(
    position: Position,
    index: int,
    *,
    threshold: float = DEFAULT_THRESHOLD,
    seed: int = 0,
    budget: CoachBudget | None = None,
) -> Decision | None:
    """The decision taken at ``position`` judged from the actor's view before it (None: not a decision)."""
    view = position.before
    action = position.action
    if view is None or action is None or position.seat is None:
        return None
    budget = budget or CoachBudget()
    decide = _DECISIONS[game_of_view(view).name]
    return decide(position, index, view, action, threshold, seed, budget)


def _judged(
    position: Position,
    index: int,
    chosen: Action,
    values: list[tuple[Action, float]],
    threshold: float,
    *,
    leads: bool = False,
) -> Decision:
    """A decision from each choice's value: ordered best first, costed, flagged (the reason comes after)."""
    assert position.seat is not None
    values.sort(key=lambda item: -item[1])
    best = values[0][1]
    choices = tuple(ChoiceValue(a, v, best - v) for a, v in values)
    cost = next((c.cost for c in choices if c.action == chosen), 0.0)
    return Decision(position=index, round_number=position.round_number, seat=position.seat,
                    chosen=chosen, choices=choices, cost=cost, flagged=cost > threshold, leads=leads)


def _only(position: Position, index: int, chosen: Action) -> Decision:
    assert position.seat is not None
    return Decision(position=index, round_number=position.round_number, seat=position.seat,
                    chosen=chosen, choices=(ChoiceValue(chosen, 0.0, 0.0),), cost=0.0, flagged=False)


# -- the Draw family ----------------------------------------------------------------------


def _draw_decision(
    position: Position, index: int, view: View, chosen: Action, threshold: float, seed: int,
    budget: CoachBudget,
) -> Decision:
    legal = view.legal
    if len(legal) <= 1 or chosen not in legal:
        return _only(position, index, chosen)
    searched = [a for a in legal if a is not REDEAL]
    values: list[tuple[Action, float]] = []
    knowledge: Knowledge | None = None
    samples = 0
    if searched and view.turn == view.seat:
        # One action besides the new deal is listed twice: the search values a lone action at
        # nothing, and here it is weighed against the deal's 0.
        result = search(
            view,
            seed=position_seed(seed, position),
            # endgame=0, greed=0.5 and sensible=1: the play-outs and the reading as COACH_VERSION 2
            # judged (each would change a kept analysis's decisions: a version bump of its own).
            budget=Budget(iterations=budget.per_choice(len(searched)) * max(2, len(searched)),
                          cap_seconds=None, win_bonus=0.0, endgame=0, greed=0.5, sensible=1.0),
            clock=_no_clock,
            actions=searched if len(searched) > 1 else [*searched, *searched],
        )
        knowledge = result.knowledge
        seen: set[Action] = set()
        for value in result.values:
            if value.action not in seen:
                seen.add(value.action)
                values.append((value.action, value.mean))
                samples = value.samples
    if REDEAL in legal:
        values.append((REDEAL, 0.0))
    if len(values) <= 1:
        return _only(position, index, chosen)
    decision = _judged(position, index, chosen, values, threshold, leads=view.ends is None)
    if not decision.flagged:
        return decision
    reason = _draw_reason(view, knowledge, chosen, decision.best.action, samples)
    return _with_reason(decision, reason)


def _with_reason(decision: Decision, reason: tuple[CoachReason, dict[str, Param]] | None) -> Decision:
    if reason is None:
        return decision
    code, params = reason
    statement = code(**params)  # checks the params against the code's declaration
    return msgspec.structs.replace(decision, reason=code, reason_params=statement.params)


def _ends_after(view: View, play: Play) -> tuple[int, int]:
    line = line_of(view.rules.max_pip, bool(view.rules.wild_blanks))
    return line.tile_after(play.tile, play.end, view.ends, play.blank)


def _lacked_left_open(
    view: View, knowledge: Knowledge | None, chosen: Action, better: Play
) -> tuple[int, int] | None:
    """(seat, number): an opponent known to lack a number the better play leaves open, the chosen not."""
    if knowledge is None or view.seat is None:
        return None
    me = view.seat
    rules = view.rules
    open_better = set(_ends_after(view, better))
    open_chosen = set(_ends_after(view, chosen)) if isinstance(chosen, Play) else set(view.ends or ())
    for step in range(1, view.players):
        other = (me + step) % view.players
        if rules.side_of(other, view.players) == rules.side_of(me, view.players):
            continue  # a partner's voids are no weapon
        for number in sorted(knowledge.lacks(other) & (open_better - open_chosen), reverse=True):
            return other, number
    return None


def _draw_reason(
    view: View, knowledge: Knowledge | None, chosen: Action, better: Action, samples: int
) -> tuple[CoachReason, dict[str, Param]] | None:
    """Why ``better`` beat ``chosen``, from the seat's own knowledge."""
    if better is REDEAL:
        return CoachReason.REDEAL_BETTER, {}
    if chosen is REDEAL:
        return CoachReason.KEEP_BETTER, {}
    if isinstance(better, Play):
        if len(view.hand) == 1:
            return CoachReason.WENT_OUT, {"tile": str(better.tile)}
        lacked = _lacked_left_open(view, knowledge, chosen, better)
        if lacked is not None:
            return CoachReason.LACKED, {"seat": lacked[0], "number": lacked[1]}
        if isinstance(chosen, Draw):
            return CoachReason.NEEDLESS_DRAW, {}
        if isinstance(chosen, Play):
            if better.tile.is_double and not chosen.tile.is_double:
                return CoachReason.KEPT_DOUBLE, {"tile": str(better.tile)}
            heavier = better.tile.pips - chosen.tile.pips
            if heavier >= 3:
                return CoachReason.HEAVIER, {"pips": heavier}
    elif isinstance(better, Draw) and isinstance(chosen, Play):
        return CoachReason.DRAW_BETTER, {}
    return CoachReason.BEST_ODDS, {"samples": samples}


# -- Mexican Train ------------------------------------------------------------------------


def _train_decision(
    position: Position, index: int, view: MexicanView, chosen: Action, threshold: float, seed: int,
    budget: CoachBudget,
) -> Decision:
    if isinstance(chosen, Run):
        # An opening run laid whole: judged by its first tile, the choice that starts it.
        assert view.seat is not None
        chosen = Play(chosen.tiles[0], Train(view.seat)) if chosen.tiles else chosen
    legal = [a for a in view.legal if isinstance(a, Play | EndRun | Draw | Pass)]
    if len(legal) <= 1 or chosen not in legal:
        return _only(position, index, chosen)
    try:
        reading: MexicanReading | None = read_mexican(view)
    except ValueError:
        reading = None
    if reading is None:
        return _only(position, index, chosen)
    searched = _search(
        view, reading, list(legal), position_seed(seed, position),
        MexicanBudget(playouts=budget.train_samples * len(legal), cap_seconds=None, win_bonus=0.0),
        _no_clock,
    )
    values = [(a, mean) for a, mean, _ in searched]
    samples = searched[0][2] if searched else 0
    decision = _judged(position, index, chosen, values, threshold)
    if not decision.flagged:
        return decision
    return _with_reason(decision, _train_reason(view, reading, chosen, decision.best.action, samples))


def _train_reason(
    view: MexicanView, reading: MexicanReading, chosen: Action, better: Action, samples: int
) -> tuple[CoachReason, dict[str, Param]] | None:
    """Why ``better`` beat ``chosen``, by the hard player's plan of the hand and its reading of voids."""
    if isinstance(better, Play):
        if len(view.hand) == 1:
            return CoachReason.WENT_OUT, {"tile": str(better.tile)}
        seat = _Seat(view, reading)
        cover, several = view.rules.cover_doubles, not view.rules.one_double_a_turn
        good = merit_of(seat, better, cover_doubles=cover, several=several)
        chosen_play = chosen if isinstance(chosen, Play) else None
        bad = (None if chosen_play is None
               else merit_of(seat, chosen_play, cover_doubles=cover, several=several))
        if good.blocks >= 0 and (bad is None or bad.blocks < 0):
            return CoachReason.LACKED, {"seat": good.blocks, "number": good.blocked_number}
        if bad is not None and bad.chain_loss > good.chain_loss:
            return CoachReason.BROKE_CHAIN, {"tiles": bad.chain_loss - good.chain_loss}
        if good.marker_down and (bad is None or not bad.marker_down):
            return CoachReason.MARKER_DOWN, {}
        if good.covered_double and (bad is None or not bad.covered_double):
            return CoachReason.COVERED_DOUBLE, {"tile": str(better.tile)}
        if chosen_play is not None:
            heavier = better.tile.pips - chosen_play.tile.pips
            if heavier >= 3:
                return CoachReason.HEAVIER, {"pips": heavier}
    return CoachReason.BEST_ODDS, {"samples": samples}


# -- Fives and Threes -----------------------------------------------------------------------


def _fives_decision(
    position: Position, index: int, view: FivesView, chosen: Action, threshold: float, seed: int,
    budget: CoachBudget,
) -> Decision:
    plays = [a for a in view.legal if isinstance(a, Play)]
    if len(plays) <= 1 or chosen not in plays:
        return _only(position, index, chosen)  # a knock, a draw, or a single play: no choice
    values = fives_values(view, plays, budget.fives_samples, random.Random(position_seed(seed, position)))
    decision = _judged(position, index, chosen, list(zip(plays, values, strict=True)), threshold,
                       leads=view.ends is None)
    if not decision.flagged:
        return decision
    assert isinstance(chosen, Play) and isinstance(decision.best.action, Play)
    return _with_reason(decision, _fives_reason(view, chosen, decision.best.action, budget.fives_samples))


def fives_values(view: FivesView, plays: list[Play], samples: int, rng: random.Random) -> list[float]:
    """Each of ``plays`` valued as the module docstring says: its side's points less the others', from
    the play to the end of the hand, over ``samples`` deals of the unseen tiles consistent with the view
    (the knocks and the counts), every play on the same deals, played out by players who lay the tile
    that scores most now (the hard player's play-out, core/ai/fives_hard.py, with no bonus for winning).
    """
    assert view.seat is not None
    me = view.seat
    base = position(view)
    moves = [(base.tiles.index[play.tile], play.place is End.RIGHT) for play in plays]
    unseen = unseen_mask(view)
    lacking = voids(view)
    allowed = [allowed_for(view, seat, unseen, lacking[seat]) for seat in range(view.players)]
    unlikely = passed_over(view)
    totals = [0.0] * len(plays)
    dealt = 0
    for _ in range(samples):
        deal = _deal(view, unseen, allowed, unlikely, rng)
        if deal is None:
            continue
        hands, stock = deal
        dealt += 1
        for i, move in enumerate(moves):
            st = base.copy()
            st.hands = list(hands)
            st.stock = stock
            points = st.play(*move)
            totals[i] += _play_out(view, st, me, points, rng, horizon=1000, win_value=0.0)
    return [total / max(1, dealt) for total in totals]


def _left_to_the_next(view: FivesView, play: Play) -> tuple[int, float] | None:
    """(seat, points): the opponent who plays after ``play`` and what they may be expected to score on
    the ends it leaves (the hard player's reading); None when a partner or nobody plays next."""
    assert view.seat is not None
    me = view.seat
    st = position(view)
    following, _ = after(st, play)
    nxt = next_seat(following, me)
    if nxt == me or st.side_of(nxt) == st.side_of(me):
        return None
    unseen = unseen_mask(view)
    allowed = allowed_for(view, nxt, unseen, voids(view)[nxt])
    chance = min(1.0, view.hand_counts[nxt] / max(1, allowed.bit_count()))
    return nxt, expected_reply(following, allowed, chance, passed_over(view)[nxt])


def _fives_reason(
    view: FivesView, chosen: Play, better: Play, samples: int
) -> tuple[CoachReason, dict[str, Param]] | None:
    """Why ``better`` beat ``chosen``: it won the match, scored more now, or left less to the next."""
    assert view.seat is not None
    st = position(view)
    side = st.side_of(view.seat)
    better_points = _counted(view, side, after(st, better)[1])
    chosen_points = _counted(view, side, after(st, chosen)[1])
    if view.scores[side] + chosen_points < view.target <= view.scores[side] + better_points:
        return CoachReason.REACHED_TARGET, {"tile": str(better.tile)}
    if better_points > chosen_points:
        return CoachReason.SCORED_MORE, {"tile": str(better.tile), "points": better_points}
    left_by_chosen = _left_to_the_next(view, chosen)
    left_by_better = _left_to_the_next(view, better)
    if left_by_chosen is not None and left_by_chosen[1] >= (left_by_better[1] if left_by_better else 0) + 1:
        return CoachReason.LEFT_A_SCORE, {"seat": left_by_chosen[0], "points": round(left_by_chosen[1])}
    return CoachReason.BEST_ODDS, {"samples": samples}


#: How a decision is judged, by the name of the game it was taken in (core/games.py).
_DECISIONS: dict[str, Callable[..., Decision]] = {
    "line": _draw_decision, "mexican-train": _train_decision, "fives-and-threes": _fives_decision,
}


__all__ = [
    "COACH_VERSION", "DEFAULT_THRESHOLD", "Analysis", "Cancelled", "ChoiceValue", "CoachBudget",
    "CoachReason", "Decision", "analyse", "analyse_position", "position_seed", "summarise",
]
