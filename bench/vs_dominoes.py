"""capicu's hard player against the `dominoes` package's strongest player, printed as ONE JSON line.

    .venv/bin/pip install -e '.[bench]'          # or: .venv/bin/pip install dominoes
    python bench/vs_dominoes.py --deals 150 --workers 1          # 300 deals, both seatings
    python bench/vs_dominoes.py --deals 10 --samples 4           # a quick look
    python bench/vs_dominoes.py --deals 50 --samples 1 --paired read=0 --paired win_bonus=60,read=2

The game is the 4-player partners' block game: the double-six set, 7 tiles each,
all 28 dealt, a player with nothing that fits passes, the holder of 6-6 leads
it, seats 0 and 2 against 1 and 3, turns in seat order. It is played on capicu's
engine (`Match`, preset puerto-rican-partners, its first round) and, in lock
step, on a `dominoes.Game` the other player reads: both engines hold the same
deal, every move is laid on both, and after every move the bench checks that they
agree (whose turn, the open ends, the legal plays) and at the end that they
scored the same side and points. The scoring is capicu's puerto-rican-partners:
the side that goes out, or in a tranque the side of the lightest single hand,
scores every pip left in all four hands (a tie between the sides' lightest hands
scores nothing). The package scores a tranque by the sides' sums instead, so
its player searches a `dominoes.Game` subclass that scores it capicu's way: both
players play, and search, the same rules.

The other player is ``dominoes.players.probabilistic_alphabeta``: for
``--samples`` deals of the hidden tiles that fit the passes seen, it runs a full
alpha-beta search to the end of the round and plays the move most often best.
Its random deals come from the package's use of the global `random`, seeded
here for each decision, so a run repeats itself.

Each deal (``--deals`` seeds) is played twice, hard's side in seats 0 and 2 and
then in 1 and 3, so the deal's luck cancels out. Reports hard's share of the
deals won (a Wilson 95% interval), ties, the points per deal, and each player's
CPU milliseconds per decision with a choice (this process's CPU time: the
machine is shared, so wall-clock time would measure the others' load).

``--paired KEY=VALUE[,KEY=VALUE...]`` (repeatable: one more hard each; ``base`` for no
change) plays every deal and seating again with another hard (hard's Budget with those
changes instead of ``--set``'s) against the same package player, and compares each with
``--set``'s hard deal by deal: the difference in deals won (a win 1, a tie 1/2) and in
points, each with a 95% interval from the paired differences, and the deals only one of
them won. Each deal's luck is then the same for both, so a few hundred deals tell apart
versions that two independent runs would not. The package's decisions are the same on
the same position (its random deals are seeded by the deal, the seating and the move
number), so the games reuse them until they part; ``--cache FILE`` keeps them between
runs (a run of the same deals then pays only for positions not seen before; the package's
CPU figures then count only what was not in the file). ``--minutes N`` starts no deal after N
minutes and reports the first seeds played, in order.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import pickle
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from copy import deepcopy
from dataclasses import dataclass, field
from importlib.metadata import version
from typing import Any

try:
    import dominoes
except ImportError:  # the bench-only extra
    sys.exit("bench/vs_dominoes.py needs the dominoes package: .venv/bin/pip install -e '.[bench]'")

from capicu.core import End, Match, Pass, Play, Rules, make_player
from capicu.core.ai.evaluation import LearnedPlayout, evaluation_for
from capicu.core.ai.search import Budget, HardPlayer
from capicu.core.tiles import Tile

#: capicu's 4-player partners' block game.
PRESET = "puerto-rican-partners"


class PartnersGame(dominoes.Game):  # type: ignore[misc]
    """The package's game with a tranque scored as capicu's puerto-rican-partners scores it.

    The package gives a tranque to the side with the smaller sum of its two hands;
    capicu (docs/RULES.md) to the side holding the lightest single hand. A going-out
    is scored alike (every pip left in all hands). Copies keep the class (the
    package's deepcopy builds ``type(self)``), so the alpha-beta search plays it too.
    """

    def make_move(self, d: Any, left: bool) -> Any:
        result = super().make_move(d, left)
        if result is not None and not result.won:
            counts = [sum(t.first + t.second for t in hand) for hand in self.hands]
            lightest = (min(counts[0], counts[2]), min(counts[1], counts[3]))
            total = sum(counts)
            points = total if lightest[0] < lightest[1] else -total if lightest[1] < lightest[0] else 0
            result = dominoes.Result(result.player, False, points)
            self.result = result
        return result


def _domino(tile: Tile) -> Any:
    return dominoes.Domino(tile.low, tile.high)


def _as_play(move: tuple[Any, bool], legal: tuple[Any, ...]) -> Play:
    """The capicu action for the package's move (a domino and left or not).

    With both ends showing one number the package lists a tile on the left only; capicu
    may list both: the left is taken, and laid on the package's board on the left too.
    """
    d, left = move
    tile = Tile(d.first, d.second)
    plays = [a for a in legal if isinstance(a, Play) and a.tile == tile]
    for play in plays:
        if (play.place is End.LEFT) == left:
            return play
    assert len(plays) == 1, (move, legal)
    return plays[0]


def _as_move(play: Play, game: Any) -> tuple[Any, bool]:
    """The package's move for capicu's play: the same tile on the same end.

    Not looked up in ``game.valid_moves``: with both ends alike the package lists the left
    only, but its board takes the tile on either end, and the two boards must stay alike.
    """
    d = _domino(play.tile)
    assert any(m == d for m, _ in game.valid_moves), (play, game.valid_moves)
    return d, play.place is End.LEFT


def _check_same(match: Match, game: Any) -> None:
    """Both engines at the same position: whose turn, the ends, and the legal plays."""
    seat = match.turn
    assert seat is not None
    view = match.view(seat)
    legal = view.legal
    if legal == (Pass(),):
        return  # the package passes by itself: its turn is already further on
    assert game.turn == seat, (game.turn, seat)
    if view.ends is not None:
        assert (game.board.left_end(), game.board.right_end()) == view.ends, (game.board, view.ends)
    ours = {(a.tile.low, a.tile.high) for a in legal if isinstance(a, Play)}
    theirs = {(min(d), max(d)) for d, _ in game.valid_moves}
    assert ours == theirs, (ours, theirs)


@dataclass
class Tally:
    deals: int = 0
    wins: int = 0
    ties: int = 0
    points: int = 0
    cpu: dict[str, list[float]] = field(default_factory=dict)
    #: Each deal's (score: a win 1, a tie 1/2, a loss 0; points to hard's side), in play order.
    each: list[tuple[float, int]] = field(default_factory=list)

    def add(self, other: Tally) -> None:
        self.deals += other.deals
        self.wins += other.wins
        self.ties += other.ties
        self.points += other.points
        self.each.extend(other.each)
        for name, values in other.cpu.items():
            self.cpu.setdefault(name, []).extend(values)


def _budget(changes: list[str]) -> Budget:
    """hard's `Budget` with ``key=value`` changes (opponents=G:F or none)."""
    typed: dict[str, Any] = {}
    for item in changes:
        key, _, text = item.partition("=")
        default = getattr(Budget(), key)
        if key == "opponents":
            greed, _, follow = text.partition(":")
            typed[key] = None if text == "none" else (float(greed), int(follow))
        elif key == "evaluate":  # evaluate=learned: the shipped learned evaluation (core/ai/evaluation.py)
            typed[key] = None if text == "none" else _learned(text)
        else:
            typed[key] = type(default)(float(text)) if default is not None else float(text)
    return Budget(**typed)


def _learned(name: str) -> Any:
    """The learned evaluation (core/ai/evaluation.py): ``learned`` values a position by its model,
    ``rollout`` by playing the round out with the model choosing every move, ``blind`` the same
    with each seat weighing its own hand only."""
    if name not in ("learned", "rollout", "blind"):
        raise SystemExit(f"evaluate={name}: the evaluation is 'learned', 'rollout', 'blind' or 'none'")
    rules = Rules.preset_named(PRESET)
    evaluation = evaluation_for(rules, 4)
    if evaluation is None:
        raise SystemExit(f"the shipped weights hold no model for {PRESET} with 4 players")
    if name == "learned":
        return evaluation
    return LearnedPlayout(evaluation, rules, sees_hands=name == "rollout")


def _player(level: str, seed: int, changes: list[str]) -> Any:
    """capicu's player; hard's safety cap counted in this process's CPU time, so the load of a
    shared machine does not cut its search short (the figure is its strength, not the load's)."""
    if level == "hard":
        return HardPlayer(seed, _budget(changes), clock=time.process_time)
    return make_player(level, seed)


def play_deal(
    seed: int, hard_side: int, options: Options, changes: list[str] | None = None,
    cache: dict[tuple[Any, ...], tuple[Any, bool]] | None = None,
) -> Tally:
    """One deal, hard's side in the seats ``seat % 2 == hard_side``; the package's player in the others
    (or with ``options.against``, a capicu player). ``changes``: hard's Budget changes (by default
    ``options.changes``); ``cache``: the package's decisions by position, kept between calls."""
    changes = options.changes if changes is None else changes
    cache = {} if cache is None else cache
    rules = Rules.preset_named(PRESET)
    match = Match(rules, 4, seed)
    hands = [match.view(seat).hand for seat in range(4)]
    lead = match.turn
    assert lead is not None
    view = match.view(lead)
    assert view.forced_lead == Tile(6, 6)
    game = PartnersGame(
        dominoes.Board(), [dominoes.Hand([_domino(t) for t in hand]) for hand in hands], [], lead,
        ((dominoes.Domino(6, 6), True),), lead, None,
    )
    ours = {seat: _player(options.level, seed * 10 + seat, changes)
            for seat in range(4) if seat % 2 == hard_side}
    others = {seat: _player(options.against, seed * 10 + seat, options.against_changes)
              for seat in range(4) if seat % 2 != hard_side and options.against}
    theirs = dominoes.players.probabilistic_alphabeta(sample_size=options.samples)
    tally = Tally()
    while not match.results:
        _check_same(match, game)
        seat = match.turn
        assert seat is not None
        view = match.view(seat)
        if view.legal == (Pass(),):
            match.apply(Pass(), seat)
            continue
        start = time.process_time()
        if seat in ours:
            action = ours[seat].choose(view)
            assert isinstance(action, Play), action
            name = "hard"
        elif seat in others:
            action = others[seat].choose(view)
            name = "against"
        else:
            key = tuple(None if m is None else (m[0].first, m[0].second, m[1]) for m in game.moves)
            if key not in cache:
                copy = deepcopy(game)
                random.seed(f"vs-dominoes/{seed}/{hard_side}/{len(game.moves)}")
                theirs(copy)
                cache[key] = copy.valid_moves[0]
            action = _as_play(cache[key], view.legal)
            name = "dominoes"
        if len(view.legal) > 1:
            tally.cpu.setdefault(name, []).append((time.process_time() - start) * 1000)
        game.make_move(*_as_move(action, game))
        match.apply(action, seat)
    result = match.results[0]
    assert game.result is not None
    package = None if game.result.points == 0 else (0 if game.result.points > 0 else 1)
    assert package == result.winner, (game.result, result)
    points = result.points if result.winner is not None else 0
    assert abs(game.result.points) == points, (game.result, result)
    tally.deals = 1
    if result.winner is None:
        tally.ties = 1
    elif result.winner == hard_side:
        tally.wins = 1
        tally.points = result.points
    else:
        tally.points = -result.points
    tally.each.append((1.0 if tally.wins else 0.5 if tally.ties else 0.0, tally.points))
    return tally


@dataclass(frozen=True)
class Options:
    samples: int
    level: str
    #: hard's Budget changes (key=value).
    changes: list[str]
    #: A capicu level in the package's place ("": the package's player), and its Budget changes.
    against: str
    against_changes: list[str]
    #: The paired hards' Budget changes, one list each.
    paired: tuple[tuple[str, ...], ...] = ()


#: The package's decisions on one deal: (seating, moves so far) -> (first, second, left).
Decisions = dict[tuple[Any, ...], tuple[int, int, bool]]


class _SeatingCache(dict[tuple[Any, ...], tuple[Any, bool]]):
    """One seating's view of a deal's `Decisions`, as `play_deal` keys them (moves so far)."""

    def __init__(self, decisions: Decisions, side: int) -> None:
        super().__init__()
        self.decisions = decisions
        self.side = side

    def __contains__(self, key: object) -> bool:
        return (self.side, key) in self.decisions

    def __getitem__(self, key: tuple[Any, ...]) -> tuple[Any, bool]:
        first, second, left = self.decisions[self.side, key]
        return dominoes.Domino(first, second), left

    def __setitem__(self, key: tuple[Any, ...], value: tuple[Any, bool]) -> None:
        d, left = value
        self.decisions[self.side, key] = (d.first, d.second, left)


def both_seatings(args: tuple[int, Options, Decisions]) -> tuple[list[Tally], Decisions]:
    """Both seatings of one deal, by ``--set``'s hard then each paired one; the package's decisions."""
    seed, options, decisions = args
    tallies = [Tally() for _ in range(1 + len(options.paired))]
    for side in (0, 1):
        cache = _SeatingCache(decisions, side)
        for tally, changes in zip(tallies, (options.changes, *options.paired), strict=True):
            tally.add(play_deal(seed, side, options, list(changes), cache))
    return tallies, decisions


def paired_difference(first: list[float], second: list[float]) -> dict[str, float | list[float]]:
    """The mean of ``second - first`` deal by deal, with a normal 95% interval."""
    diffs = [b - a for a, b in zip(first, second, strict=True)]
    mean = statistics.fmean(diffs)
    half = 1.959964 * statistics.stdev(diffs) / math.sqrt(len(diffs)) if len(diffs) > 1 else math.inf
    return {"mean": round(mean, 4), "ci95": [round(mean - half, 4), round(mean + half, 4)]}


def wilson(wins: int, n: int) -> list[float]:
    """The 95% Wilson score interval of a rate."""
    if n == 0:
        return [0.0, 1.0]
    z = 1.959964
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return [round(centre - half, 4), round(centre + half, 4)]


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


def _compared(tally: Tally, other: Tally, changes: tuple[str, ...]) -> dict[str, object]:
    """A paired hard's figures, and its deal-by-deal difference from --set's."""
    pairs = list(zip(tally.each, other.each, strict=True))
    return {
        "set": list(changes),
        "win_rate": round(other.wins / other.deals, 4),
        "win_rate_ci95": wilson(other.wins, other.deals),
        "points_per_deal": round(other.points / other.deals, 2),
        "minus_set_score": paired_difference([a for (a, _), _ in pairs], [b for _, (b, _) in pairs]),
        "minus_set_points": paired_difference([float(a) for (_, a), _ in pairs],
                                              [float(b) for _, (_, b) in pairs]),
        "only_set_won": sum(a > b for (a, _), (b, _) in pairs),
        "only_this_won": sum(b > a for (a, _), (b, _) in pairs),
        "hard_cpu_median_ms": round(statistics.median(other.cpu.get("hard", [0.0])), 1),
        "hard_cpu_p99_ms": round(percentile(other.cpu.get("hard", []), 0.99), 1),
    }


def _save(path: str, known: dict[tuple[int, int, str], Decisions]) -> None:
    if path:
        with open(path + ".new", "wb") as file:
            pickle.dump(known, file)
        os.replace(path + ".new", path)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=150, help="seeds, each dealt twice (both seatings)")
    parser.add_argument("--seed", type=int, default=1, help="the first seed is seed * 100000")
    parser.add_argument("--samples", type=int, default=10,
                        help="deals the package's player searches per decision (its sample_size)")
    parser.add_argument("--level", default="hard", help="capicu's level on the other side")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                        help="change a field of hard's Budget (endgame=0, read=2, opponents=G:F or none, "
                             "evaluate=learned, rollout or blind, with evaluate_after=N)")
    parser.add_argument("--against", default="",
                        help="a capicu level in the package's place (a tuning run: hard against hard)")
    parser.add_argument("--against-set", action="append", default=[], metavar="KEY=VALUE",
                        help="--set for the --against hard")
    parser.add_argument("--paired", action="append", default=[], metavar="KEY=VALUE[,KEY=VALUE]",
                        help="also play every deal with another hard (these Budget changes; 'base': none) "
                             "and compare it with --set's deal by deal")
    parser.add_argument("--cache", default="", metavar="FILE",
                        help="keep the package's decisions in FILE between runs (a pickle)")
    parser.add_argument("--minutes", type=float, default=None,
                        help="start no deal after this many minutes; report the deals played "
                             "(the first seeds, in order)")
    args = parser.parse_args(argv)
    paired = tuple(tuple(c for c in spec.split(",") if c and c != "base") for spec in args.paired)
    options = Options(args.samples, args.level, args.set, args.against, args.against_set, paired)
    known: dict[tuple[int, int, str], Decisions] = {}
    if args.cache and os.path.exists(args.cache):
        with open(args.cache, "rb") as file:
            known = pickle.load(file)
    context = (args.samples, args.against)
    seeds = [args.seed * 100_000 + i for i in range(args.deals)]
    jobs = [(seed, options, dict(known.get((seed, *context), {}))) for seed in seeds]
    tallies = [Tally() for _ in range(1 + len(paired))]
    started = time.perf_counter()
    deadline = None if args.minutes is None else started + 60 * args.minutes
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        futures = [pool.submit(both_seatings, job) for job in jobs]
        for done, future in enumerate(futures, 1):
            if deadline is not None and time.perf_counter() > deadline:
                for rest in futures[done - 1:]:  # out of time: the seeds not started yet are left out
                    rest.cancel()
            if future.cancelled():
                break  # the deals reported stay the first seeds, in order
            parts, decisions = future.result()
            for tally, part in zip(tallies, parts, strict=True):
                tally.add(part)
            known[(seeds[done - 1], *context)] = decisions
            if done % 10 == 0:  # progress on stderr: a full run takes a while on a shared machine
                won = ", ".join(str(t.wins) for t in tallies)
                print(f"{tallies[0].deals} deals, hard won {won}", file=sys.stderr, flush=True)
                _save(args.cache, known)
    _save(args.cache, known)
    tally = tallies[0]
    out: dict[str, object] = {
        "preset": PRESET, "level": args.level, "seed": args.seed, "set": args.set,
        "against": f"capicu {args.against} {args.against_set}" if args.against else
                   f"probabilistic_alphabeta(sample_size={args.samples}) of dominoes {version('dominoes')}",
        "deals": tally.deals,
        "win_rate": round(tally.wins / tally.deals, 4),
        "win_rate_ci95": wilson(tally.wins, tally.deals),
        "ties": tally.ties,
        "points_per_deal": round(tally.points / tally.deals, 2),
    }
    if paired:
        out["paired"] = [_compared(tally, other, changes)
                         for other, changes in zip(tallies[1:], paired, strict=True)]
    for name, values in tally.cpu.items():
        out[f"{name}_cpu_median_ms"] = round(statistics.median(values), 1)
        out[f"{name}_cpu_p99_ms"] = round(percentile(values, 0.99), 1)
        out[f"{name}_decisions"] = len(values)
        out[f"{name}_cpu_seconds"] = round(sum(values) / 1000, 1)
    out["seconds"] = round(time.perf_counter() - started, 1)
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
