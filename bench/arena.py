"""Arena: seeded games between the computer levels, printed as ONE JSON line.

    python bench/arena.py                      # the default run (about 6 minutes on 2 cores)
    python bench/arena.py --matches 20 --rounds 40 --easy 0     # a quick look
    python bench/arena.py --only 3p --rounds 300 --set read=0   # a tuning run (see --help)
    python bench/arena.py --only 3p --rounds 300 --sees-all-hands   # what knowing the hands is worth
    python bench/arena.py --preset mexican-train --matches 16 --rounds 4 --easy 16   # Mexican Train
    python bench/arena.py --preset fives-and-threes --matches 200 --rounds 200 --easy 200 --easy4 200

What it plays (preset puerto-rican-drawing unless --preset):
- two-player matches, hard against normal; each seed is played twice with the
  seats swapped, so the deal's luck cancels out;
- three-player rounds, hard against two normal players; each deal is played
  three times with hard in each seat;
- two-player matches, normal against easy (--easy seeds, each played twice);
- with --whole N, three-player matches played whole, hard in each seat in
  turn, every round counted (later rounds are led by the last winner, so a
  player who wins more leads more: this figure runs above the first-round one),
  and the share of those matches hard wins (an even share is 1/3).

With --preset fives-and-threes: whole matches to 61, each seed played twice with
the seats swapped (at four players, the partnerships swapped), hard against
normal and normal against easy, at two players (--matches, --easy seeds) and
four (--rounds, --easy4); ``--set key=value`` changes hard's fives `Budget`.
Decision times are given as this thread's CPU time too (``*_cpu_*``), in the Draw family too.

With --preset mexican-train (a different game, so other parts): whole matches
of 13 rounds, every round counted, each seed played with the seats swapped
(two players) or turned round the table (four players, one level against
three of the other), so both see the same deals: hard against normal, and
normal against easy (--easy seeds), at two players (--matches seeds) and four
(--rounds seeds). A round is won by the lowest count (a tie shares it);
the four-player figure is each level's mean count per round. Hard's
decisions are timed as played, and at every position where it holds 15 tiles
or more and has a choice it is also timed searching whatever the margin
(``train_hard_search15_*``): the figure the 100 ms goal is about.
``--set key=value`` changes hard's `MexicanBudget` here.

Reports win rates with 95% Wilson intervals, mean round points, and the
median and p99 milliseconds per decision of each level, both over every
decision (forced draws and passes answer at once) and over decisions with a
real choice (``*_choice_*`` keys). Timings are taken inside the worker
processes: with --workers 2 on a 2-core machine that anything else is using,
they run high; use --workers 1 for cleaner ones.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from capicu.core import Match, Rules, make_player
from capicu.core.ai.inference import Deal, DealSampler, Knowledge
from capicu.core.ai.search import Budget, HardPlayer


@dataclass
class Tally:
    wins: int = 0
    games: int = 0
    points: float = 0.0
    times: dict[str, list[float]] = field(default_factory=dict)
    choice_times: dict[str, list[float]] = field(default_factory=dict)
    #: This thread's CPU milliseconds of each decision with a choice (the load of a shared machine aside).
    choice_cpu: dict[str, list[float]] = field(default_factory=dict)
    #: Whole matches played (--whole) and won.
    matches: int = 0
    match_wins: int = 0

    def add(self, other: Tally) -> None:
        self.wins += other.wins
        self.games += other.games
        self.matches += other.matches
        self.match_wins += other.match_wins
        self.points += other.points
        for source, target in ((other.times, self.times), (other.choice_times, self.choice_times),
                               (other.choice_cpu, self.choice_cpu)):
            for level, values in source.items():
                target.setdefault(level, []).extend(values)


#: Overrides of hard's Budget (from --set key=value), the same in every worker.
BUDGET_CHANGES: dict[str, float | str] = {}
#: --sees-all-hands: hard searches the real hands instead of guesses (a bound, not a player).
SEES_ALL_HANDS: list[bool] = [False]


def _configure(changes: dict[str, float | str], sees_all_hands: bool) -> None:
    BUDGET_CHANGES.update(changes)
    SEES_ALL_HANDS[0] = sees_all_hands


class TrueHands(DealSampler):
    """Every "guess" is the real hands, the boneyard in a random order: what seeing them is worth."""

    def __init__(self, knowledge: Knowledge, match: Match) -> None:
        super().__init__(knowledge)
        tiles = knowledge.tiles
        self.hands = [tiles.mask_of(match.view(seat).hand) for seat in range(len(knowledge.slots))]
        boneyard = knowledge.pool
        for hand in self.hands:
            boneyard &= ~hand
        self.boneyard = [i for i in range(len(tiles.tiles)) if boneyard >> i & 1]

    def sample(self, rng: random.Random, tries: int = 30) -> Deal:
        stock = list(self.boneyard)
        rng.shuffle(stock)
        return Deal(list(self.hands), stock)


def _players(levels: list[str], seed: int, iterations: int | None, match: Match) -> list[object]:
    out: list[object] = []
    changes: dict[str, float | str] = dict(BUDGET_CHANGES)
    if iterations is not None:
        changes["iterations"] = iterations
    for seat, level in enumerate(levels):
        if level != "hard":
            out.append(make_player(level, seed * 10 + seat))
            continue
        whole = ("iterations", "candidates", "follow", "chain_steps", "endgame", "endgame_nodes",
                 "endgame_many")
        typed: dict[str, object] = {k: int(v) if k in whole else v for k, v in changes.items()}
        if "opponents" in typed:  # --set opponents=1.0:2 (greed:follow) or opponents=none
            text = str(typed["opponents"])
            greed, _, follow = text.partition(":")
            typed["opponents"] = None if text == "none" else (float(greed), int(follow))
        if SEES_ALL_HANDS[0]:
            # read=0: every deal comes from sample(), none from the reading's chain.
            typed["read"] = 0.0
            out.append(HardPlayer(seed * 10 + seat, Budget(**typed),  # type: ignore[arg-type]
                                  deals=lambda knowledge: TrueHands(knowledge, match)))
        else:
            # The safety cap counted in this thread's CPU time: on a machine others are using, a
            # wall-clock cap would cut the search short and measure the load, not hard.
            out.append(HardPlayer(seed * 10 + seat, Budget(**typed),  # type: ignore[arg-type]
                                  clock=time.thread_time))
    return out


def _play(match: Match, levels: list[str], players: list[object], tally: Tally,
          *, one_round: bool) -> None:
    rounds_before = len(match.results)
    while not match.is_over and (not one_round or len(match.results) == rounds_before):
        seat = match.turn
        assert seat is not None
        view = match.view(seat)
        start, cpu = time.perf_counter(), time.thread_time()
        action = players[seat].choose(view)  # type: ignore[attr-defined]
        ms = (time.perf_counter() - start) * 1000
        tally.times.setdefault(levels[seat], []).append(ms)
        if len(view.legal) > 1:
            tally.choice_times.setdefault(levels[seat], []).append(ms)
            tally.choice_cpu.setdefault(levels[seat], []).append((time.thread_time() - cpu) * 1000)
        match.apply(action, seat)


def two_player_match(args: tuple[str, str, str, int, int, int | None]) -> Tally:
    """One seed, played twice with the seats swapped; wins counted for ``first``."""
    preset, first, second, seed, _, iterations = args
    rules = Rules.preset_named(preset)
    tally = Tally()
    for swap in (False, True):
        levels = [second, first] if swap else [first, second]
        me = 1 if swap else 0
        match = Match(rules, 2, seed)
        _play(match, levels, _players(levels, seed, iterations, match), tally, one_round=False)
        tally.games += 1
        tally.wins += match.winner == me
        tally.points += sum(
            (r.points if r.winner == me else -r.points) for r in match.results if r.winner is not None
        ) / max(1, len(match.results))
    return tally


def _each_seat(args: tuple[str, str, str, int, int, int | None], tally: Tally,
               *, one_round: bool) -> list[tuple[int, Match]]:
    """One deal played three times, ``first`` in each seat in turn against two ``second``."""
    preset, first, second, seed, _, iterations = args
    rules = Rules.preset_named(preset)
    played = []
    for me in range(3):
        levels = [second] * 3
        levels[me] = first
        match = Match(rules, 3, seed)
        _play(match, levels, _players(levels, seed, iterations, match), tally, one_round=one_round)
        played.append((me, match))
    return played


def three_player_round(args: tuple[str, str, str, int, int, int | None]) -> Tally:
    """One deal, played three times with ``first`` in each seat; round wins counted."""
    tally = Tally()
    for me, match in _each_seat(args, tally, one_round=True):
        result = match.results[0]
        tally.games += 1
        tally.wins += result.winner == me
        if result.winner == me:
            tally.points += result.points
        elif result.winner is not None:
            tally.points -= result.points / 2
    return tally


def three_player_match(args: tuple[str, str, str, int, int, int | None]) -> Tally:
    """One seed, a whole match played three times with ``first`` in each seat; every round counted.

    Unlike `three_player_round`, later rounds are led by the last winner, as
    in a real game, so a player who wins more also leads more.
    """
    tally = Tally()
    for me, match in _each_seat(args, tally, one_round=False):
        tally.games += len(match.results)
        tally.wins += sum(result.winner == me for result in match.results)
        tally.matches += 1
        tally.match_wins += match.winner == me
    return tally


# -- Mexican Train ------------------------------------------------------------------------


@dataclass
class TrainTally:
    """Rounds of Mexican Train from one level's side: wins (ties shared), counts, times."""

    rounds: int = 0
    wins: float = 0.0
    #: The level's counts, and the other level's (their mean per round at 4 players).
    mine: float = 0.0
    theirs: float = 0.0
    times: dict[str, list[float]] = field(default_factory=dict)
    search15: list[float] = field(default_factory=list)

    def add(self, other: TrainTally) -> None:
        self.rounds += other.rounds
        self.wins += other.wins
        self.mine += other.mine
        self.theirs += other.theirs
        for level, values in other.times.items():
            self.times.setdefault(level, []).extend(values)
        self.search15.extend(other.search15)


def _train_budget() -> object:
    from capicu.core.ai.mexican_hard import MexicanBudget

    whole = ("playouts", "candidates")
    typed = {k: int(v) if k in whole else float(v) for k, v in BUDGET_CHANGES.items()}
    return MexicanBudget(**typed)  # type: ignore[arg-type]


def _train_players(levels: list[str], seed: int) -> list[object]:
    from capicu.core.ai.mexican_hard import MexicanHardPlayer
    from capicu.core.ai.mexican_players import make_mexican_player

    out: list[object] = []
    for seat, level in enumerate(levels):
        if level == "hard" and BUDGET_CHANGES:
            out.append(MexicanHardPlayer(seed * 10 + seat, _train_budget()))  # type: ignore[arg-type]
        else:
            out.append(make_mexican_player(level, seed * 10 + seat))
    return out


def _train_match(rules: Rules, levels: list[str], seed: int, tally: TrainTally) -> list[tuple[int, ...]]:
    """One whole match; every round's counts. Times each decision with a choice."""
    import msgspec
    from capicu.core.ai.mexican_hard import decide
    from capicu.core.mexican.match import MexicanMatch

    match = MexicanMatch(rules, len(levels), seed)
    players = _train_players(levels, seed)
    forced = msgspec.structs.replace(_train_budget(), margin=float("inf"))  # type: ignore[type-var]
    while not match.is_over:
        seat = match.turn
        assert seat is not None
        view = match.view(seat)
        start = time.perf_counter()
        action = players[seat].choose(view)  # type: ignore[attr-defined]
        ms = (time.perf_counter() - start) * 1000
        if len(view.legal) > 1:
            tally.times.setdefault(levels[seat], []).append(ms)
            if levels[seat] == "hard" and len(view.hand) >= 15 and not (view.may_run or view.running):
                start = time.perf_counter()
                decide(view, seat, forced)  # type: ignore[arg-type]
                tally.search15.append((time.perf_counter() - start) * 1000)
        match.apply(action, seat)
    return [r.counts for r in match.results]


def train_seats(args: tuple[str, str, int, int, int]) -> TrainTally:
    """One seed's match, ``first`` in each seat in turn against ``second`` (both ways at two players)."""
    first, second, players, seed, rounds = args
    rules = Rules.preset_named("mexican-train")
    if rounds:
        import msgspec

        rules = msgspec.structs.replace(rules, rounds=rounds)
    tally = TrainTally()
    for me in range(players):
        levels = [second] * players
        levels[me] = first
        for counts in _train_match(rules, levels, seed, tally):
            low = min(counts)
            tally.rounds += 1
            if counts[me] == low:
                tally.wins += 1 / counts.count(low)
            tally.mine += counts[me]
            tally.theirs += (sum(counts) - counts[me]) / (players - 1)
    return tally


def train_main(args: argparse.Namespace) -> int:
    """The Mexican Train arena (see the module docstring)."""
    base = args.seed * 100_000
    jobs: list[tuple[str, tuple[str, str, int, int, int]]] = []
    rounds = args.train_rounds
    if args.only != "3p":
        jobs += [("2p", ("hard", "normal", 2, base + i, rounds)) for i in range(args.matches)]
        jobs += [("easy2p", ("normal", "easy", 2, base + 80_000 + i, rounds)) for i in range(args.easy)]
    if args.only != "2p":
        jobs += [("4p", ("hard", "normal", 4, base + 50_000 + i, rounds)) for i in range(args.rounds)]
        jobs += [("easy4p", ("normal", "easy", 4, base + 90_000 + i, rounds)) for i in range(args.easy4)]
    tallies = {kind: TrainTally() for kind in ("2p", "4p", "easy2p", "easy4p")}
    started = time.perf_counter()
    with ProcessPoolExecutor(
        max_workers=args.workers, initializer=_configure, initargs=(BUDGET_CHANGES, False)
    ) as pool:
        futures = [(kind, pool.submit(train_seats, job)) for kind, job in jobs]
        for kind, future in futures:
            tallies[kind].add(future.result())
    out: dict[str, object] = {"preset": "mexican-train", "seed": args.seed,
                              "budget": str(_train_budget())}
    names = {"2p": "train_hard_vs_normal_2p", "4p": "train_hard_vs_normal_4p",
             "easy2p": "train_normal_vs_easy_2p", "easy4p": "train_normal_vs_easy_4p"}
    for kind, tally in tallies.items():
        if not tally.rounds:
            continue
        name = names[kind]
        wins = round(tally.wins)
        out[f"{name}_round_win_rate"] = round(tally.wins / tally.rounds, 4)
        out[f"{name}_round_win_rate_ci95"] = wilson(wins, tally.rounds)
        out[f"{name}_rounds"] = tally.rounds
        out[f"{name}_mean_count"] = round(tally.mine / tally.rounds, 2)
        out[f"{name}_others_mean_count"] = round(tally.theirs / tally.rounds, 2)
    merged = TrainTally()
    for tally in tallies.values():
        merged.add(tally)
    for level in ("hard", "normal", "easy"):
        times = merged.times.get(level, [])
        if times:
            out[f"train_{level}_choice_median_ms"] = round(statistics.median(times), 2)
            out[f"train_{level}_choice_p99_ms"] = round(percentile(times, 0.99), 2)
            out[f"train_{level}_decisions"] = len(times)
    if merged.search15:
        out["train_hard_search15_median_ms"] = round(statistics.median(merged.search15), 2)
        out["train_hard_search15_p99_ms"] = round(percentile(merged.search15, 0.99), 2)
        out["train_hard_search15_decisions"] = len(merged.search15)
    out["seconds"] = round(time.perf_counter() - started, 1)
    print(json.dumps(out))
    return 0


@dataclass
class FivesTally:
    """Matches of Fives and Threes to the target from one level's side: wins, points, times."""

    games: int = 0
    wins: int = 0
    mine: int = 0
    theirs: int = 0
    #: Wall-clock and CPU (this thread's) milliseconds of each decision with a choice, by level.
    times: dict[str, list[float]] = field(default_factory=dict)
    cpu: dict[str, list[float]] = field(default_factory=dict)
    every: dict[str, list[float]] = field(default_factory=dict)

    def add(self, other: FivesTally) -> None:
        self.games += other.games
        self.wins += other.wins
        self.mine += other.mine
        self.theirs += other.theirs
        for source, target in ((other.times, self.times), (other.cpu, self.cpu), (other.every, self.every)):
            for level, values in source.items():
                target.setdefault(level, []).extend(values)


def _fives_players(levels: list[str], seed: int) -> list[object]:
    from capicu.core.ai.fives_hard import Budget as FivesBudget
    from capicu.core.ai.fives_hard import FivesHardPlayer
    from capicu.core.ai.fives_players import make_fives_player

    whole = ("playouts", "candidates", "horizon")
    typed = {k: int(v) if k in whole else float(v) for k, v in BUDGET_CHANGES.items()}
    out: list[object] = []
    for seat, level in enumerate(levels):
        if level == "hard":
            # The budget's safety cap counted in this thread's CPU time: on a machine others are
            # using, a wall-clock cap would cut the search short and measure the load, not hard.
            budget = FivesBudget(**typed)  # type: ignore[arg-type]
            out.append(FivesHardPlayer(seed * 10 + seat, budget, clock=time.thread_time))
        else:
            out.append(make_fives_player(level, seed * 10 + seat))
    return out


def fives_seats(args: tuple[str, str, int, int]) -> FivesTally:
    """One seed's match to the target, played twice: ``first`` in the even seats, then in the odd ones.

    With four players the even seats are a partnership (seats 1 and 3 across); at two, a seat each.
    """
    from capicu.core.fives import FIVES_AND_THREES, FivesMatch

    first, second, players, seed = args
    tally = FivesTally()
    for mine in (0, 1):
        levels = [first if seat % 2 == mine else second for seat in range(players)]
        match = FivesMatch(FIVES_AND_THREES, players, seed)
        bots = _fives_players(levels, seed)
        while not match.is_over:
            seat = match.turn
            assert seat is not None
            view = match.view(seat)
            wall, cpu = time.perf_counter(), time.thread_time()
            action = bots[seat].choose(view)  # type: ignore[attr-defined]
            cpu_ms = (time.thread_time() - cpu) * 1000
            wall_ms = (time.perf_counter() - wall) * 1000
            tally.every.setdefault(levels[seat], []).append(cpu_ms)
            if len(view.legal) > 1:
                tally.times.setdefault(levels[seat], []).append(wall_ms)
                tally.cpu.setdefault(levels[seat], []).append(cpu_ms)
            match.apply(action, seat)
        side = mine  # seat ``mine`` is first's, and its side is ``mine`` (seat % 2 with partners)
        tally.games += 1
        tally.wins += match.winner == side
        tally.mine += match.scores[side]
        tally.theirs += sum(match.scores) - match.scores[side]
    return tally


def fives_main(args: argparse.Namespace) -> int:
    """The Fives and Threes arena: whole matches to 61, each seed with the seats swapped.

    Hard against normal and normal against easy, at two players (--matches and --easy
    seeds) and four in partnerships (--rounds and --easy4 seeds). Decision times are
    wall-clock and this thread's CPU time (the second is what a decision costs on a
    machine that others are not using).
    """
    base = args.seed * 100_000
    jobs: list[tuple[str, tuple[str, str, int, int]]] = []
    if args.only != "3p":
        jobs += [("2p", ("hard", "normal", 2, base + i)) for i in range(args.matches)]
        jobs += [("easy2p", ("normal", "easy", 2, base + 80_000 + i)) for i in range(args.easy)]
    if args.only != "2p":
        jobs += [("4p", ("hard", "normal", 4, base + 50_000 + i)) for i in range(args.rounds)]
        jobs += [("easy4p", ("normal", "easy", 4, base + 90_000 + i)) for i in range(args.easy4)]
    tallies = {kind: FivesTally() for kind in ("2p", "4p", "easy2p", "easy4p")}
    started = time.perf_counter()
    with ProcessPoolExecutor(
        max_workers=args.workers, initializer=_configure, initargs=(BUDGET_CHANGES, False)
    ) as pool:
        futures = [(kind, pool.submit(fives_seats, job)) for kind, job in jobs]
        for kind, future in futures:
            tallies[kind].add(future.result())
    out: dict[str, object] = {"preset": "fives-and-threes", "seed": args.seed,
                              "budget_changes": BUDGET_CHANGES}
    names = {"2p": "fives_hard_vs_normal_2p", "4p": "fives_hard_vs_normal_4p",
             "easy2p": "fives_normal_vs_easy_2p", "easy4p": "fives_normal_vs_easy_4p"}
    for kind, tally in tallies.items():
        if not tally.games:
            continue
        name = names[kind]
        out[f"{name}_match_win_rate"] = round(tally.wins / tally.games, 4)
        out[f"{name}_match_win_rate_ci95"] = wilson(tally.wins, tally.games)
        out[f"{name}_matches"] = tally.games
        out[f"{name}_mean_final_score"] = round(tally.mine / tally.games, 2)
        out[f"{name}_others_mean_final_score"] = round(tally.theirs / tally.games, 2)
    merged = FivesTally()
    for tally in tallies.values():
        merged.add(tally)
    for level in ("hard", "normal", "easy"):
        if merged.every.get(level):
            out[f"fives_{level}_cpu_median_ms"] = round(statistics.median(merged.every[level]), 2)
            out[f"fives_{level}_cpu_p99_ms"] = round(percentile(merged.every[level], 0.99), 2)
        if merged.cpu.get(level):
            out[f"fives_{level}_choice_cpu_median_ms"] = round(statistics.median(merged.cpu[level]), 2)
            out[f"fives_{level}_choice_cpu_p99_ms"] = round(percentile(merged.cpu[level], 0.99), 2)
            out[f"fives_{level}_choice_wall_median_ms"] = round(statistics.median(merged.times[level]), 2)
            out[f"fives_{level}_choice_wall_p99_ms"] = round(percentile(merged.times[level], 0.99), 2)
            out[f"fives_{level}_choice_decisions"] = len(merged.cpu[level])
    out["seconds"] = round(time.perf_counter() - started, 1)
    print(json.dumps(out))
    return 0


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
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=["2p", "3p"], default=None, help="run one part only")
    parser.add_argument("--matches", type=int, default=60, help="2-player seeds (each played twice)")
    parser.add_argument("--rounds", type=int, default=100, help="3-player deals (each played 3 times)")
    parser.add_argument("--easy", type=int, default=20, help="2-player seeds of normal vs easy")
    parser.add_argument("--whole", type=int, default=0,
                        help="3-player seeds played as whole matches (each 3 times), every round counted")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--preset", default="puerto-rican-drawing")
    parser.add_argument("--iterations", type=int, default=None, help="hard's playouts per move")
    parser.add_argument("--sees-all-hands", action="store_true",
                        help="hard searches the real hands: an upper bound on what reading them could give")
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                        help="change a field of hard's Budget (greed, read, opponents=G:F or none, ...)")
    parser.add_argument("--easy4", type=int, default=0,
                        help="Mexican Train: 4-player seeds of normal vs easy (each played 4 times)")
    parser.add_argument("--train-rounds", type=int, default=0, choices=[0, 1, 4],
                        help="Mexican Train: rounds in each match (0: all 13)")
    args = parser.parse_args(argv)
    for item in args.set:
        key, _, value = item.partition("=")
        BUDGET_CHANGES[key] = value if key == "opponents" else float(value)
    if args.preset == "mexican-train":
        return train_main(args)
    if args.preset == "fives-and-threes":
        return fives_main(args)

    base = args.seed * 100_000
    jobs: list[tuple[str, tuple[str, str, str, int, int, int | None]]] = []
    if args.only == "3p":
        args.matches = 0
    if args.only == "2p":
        args.rounds = args.whole = 0
    jobs += [("2p", (args.preset, "hard", "normal", base + i, 0, args.iterations))
             for i in range(args.matches)]
    jobs += [("3p", (args.preset, "hard", "normal", base + 50_000 + i, 0, args.iterations))
             for i in range(args.rounds)]
    jobs += [("easy", (args.preset, "normal", "easy", base + 80_000 + i, 0, args.iterations))
             for i in range(args.easy)]
    jobs += [("3pm", (args.preset, "hard", "normal", base + 60_000 + i, 0, args.iterations))
             for i in range(args.whole)]
    tallies = {"2p": Tally(), "3p": Tally(), "easy": Tally(), "3pm": Tally()}
    kinds = {"2p": two_player_match, "easy": two_player_match, "3p": three_player_round,
             "3pm": three_player_match}
    started = time.perf_counter()
    with ProcessPoolExecutor(
        max_workers=args.workers, initializer=_configure, initargs=(BUDGET_CHANGES, args.sees_all_hands)
    ) as pool:
        futures = [
            (kind, pool.submit(kinds[kind], job))
            for kind, job in jobs
        ]
        for kind, future in futures:
            tallies[kind].add(future.result())

    out: dict[str, object] = {"preset": args.preset, "seed": args.seed,
                              "iterations": args.iterations or Budget().iterations,
                              "budget_changes": BUDGET_CHANGES}
    if args.sees_all_hands:
        out["hard_sees_all_hands"] = True
    two, three, easy = tallies["2p"], tallies["3p"], tallies["easy"]
    if two.games:
        out["hard_vs_normal_2p_match_win_rate"] = round(two.wins / two.games, 4)
        out["hard_vs_normal_2p_match_win_rate_ci95"] = wilson(two.wins, two.games)
        out["hard_vs_normal_2p_matches"] = two.games
        out["hard_vs_normal_2p_points_per_round"] = round(two.points / two.games, 2)
    if three.games:
        out["hard_vs_normal_3p_round_win_rate"] = round(three.wins / three.games, 4)
        out["hard_vs_normal_3p_round_win_rate_ci95"] = wilson(three.wins, three.games)
        out["hard_vs_normal_3p_rounds"] = three.games
        out["hard_vs_normal_3p_points_per_round"] = round(three.points / three.games, 2)
    whole = tallies["3pm"]
    if whole.games:
        out["hard_vs_normal_3p_match_rounds_win_rate"] = round(whole.wins / whole.games, 4)
        out["hard_vs_normal_3p_match_rounds_win_rate_ci95"] = wilson(whole.wins, whole.games)
        out["hard_vs_normal_3p_match_rounds"] = whole.games
        out["hard_vs_normal_3p_match_win_rate"] = round(whole.match_wins / whole.matches, 4)
        out["hard_vs_normal_3p_match_win_rate_ci95"] = wilson(whole.match_wins, whole.matches)
        out["hard_vs_normal_3p_matches"] = whole.matches
    if easy.games:
        out["normal_vs_easy_2p_match_win_rate"] = round(easy.wins / easy.games, 4)
        out["normal_vs_easy_2p_match_win_rate_ci95"] = wilson(easy.wins, easy.games)
    merged = Tally()
    for tally in tallies.values():
        merged.add(tally)
    for level in ("hard", "normal", "easy"):
        times = merged.times.get(level, [])
        choice = merged.choice_times.get(level, [])
        if times:
            out[f"{level}_median_ms"] = round(statistics.median(times), 2)
            out[f"{level}_p99_ms"] = round(percentile(times, 0.99), 2)
            out[f"{level}_choice_median_ms"] = round(statistics.median(choice), 2) if choice else 0.0
            out[f"{level}_choice_p99_ms"] = round(percentile(choice, 0.99), 2)
            cpu = merged.choice_cpu.get(level, [])
            if cpu:
                out[f"{level}_choice_cpu_median_ms"] = round(statistics.median(cpu), 2)
                out[f"{level}_choice_cpu_p99_ms"] = round(percentile(cpu, 0.99), 2)
            out[f"{level}_decisions"] = len(times)
    out["seconds"] = round(time.perf_counter() - started, 1)
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
