"""The coach's speed: a whole match analysed for one player, and how steady its advice is.

Prints one JSON line. Matches of `normal` computer players are played first
(not timed): a 16-round Puerto Rican match for two (preset
``puerto-rican-drawing``, seed 4), a 13-round Mexican Train match for four
(seed 1), a 16-round Puerto Rican match with every house rule on (wild
blanks, draw several, a new deal on five doubles; seed 0) and a Fives and
Threes match to 61 for four in partnerships (seed 1). Each is then
analysed for seat 0 with the coach's default budget (core/ai/coach.py,
`CoachBudget`): ``*_seconds`` is the wall time (the goal is
at most 60 s on a 2-core machine), ``*_cpu_seconds`` the process's CPU time,
``*_decisions`` the seat's decisions and ``*_searched`` those with a choice.

With ``--steadiness`` each match is analysed again with another coach seed:
``*_same_best`` is the share of searched decisions whose best choice is the
same both times, ``*_cost_gap`` the mean difference of a decision's cost
between the two (points), ``*_flag_changes`` the decisions flagged one time
and not the other: the accuracy the budget buys. ``--samples``,
``--train-samples`` and ``--fives-samples`` try other budgets. ``load`` is the 1-minute load average
before the run. Run by hand: ``python bench/coach.py [--steadiness]``.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from typing import Any

import msgspec
from capicu.core import Rules, new_match
from capicu.core.ai.coach import (
    DEFAULT_FIVES_SAMPLES,
    DEFAULT_SAMPLES,
    DEFAULT_TRAIN_SAMPLES,
    Analysis,
    CoachBudget,
    analyse,
)
from capicu.core.games import game_of
from capicu.core.replay import Replay, replay

#: (name, preset, players, seed, house rules): matches whose seeds give 16, 13 and 16 rounds
#: with `normal` players; ``house`` has every house rule on (a wild blank's numbers are many choices).
MATCHES = (
    ("draw", "puerto-rican-drawing", 2, 4, False),
    ("mexican", "mexican-train", 4, 1, False),
    ("house", "puerto-rican-drawing", 2, 0, True),
    ("fives", "fives-and-threes", 4, 1, False),
)


def played(preset: str, players: int, seed: int, house: bool = False) -> Replay:
    """A whole match of `normal` computer players, as the replay the coach reads."""
    rules = Rules.preset_named(preset)
    if house:
        rules = msgspec.structs.replace(rules, wild_blanks=True, draw_several=2, redeal_on_doubles=True)
    match = new_match(rules, players, seed)
    bots: list[Any] = [game_of(rules).make_player("normal", seed * 10 + seat) for seat in range(players)]
    while not match.is_over:
        seat = match.turn
        assert seat is not None
        match.apply(bots[seat].choose(match.view(seat)), seat)
    return replay(match.log())


def steadiness(first: Analysis, second: Analysis) -> dict[str, float]:
    pairs = [(a, b) for a, b in zip(first.decisions, second.decisions, strict=True) if a.had_choice]
    count = max(1, len(pairs))
    return {
        "same_best": round(sum(a.best.action == b.best.action for a, b in pairs) / count, 3),
        "cost_gap": round(sum(abs(a.cost - b.cost) for a, b in pairs) / count, 2),
        "flag_changes": sum(a.flagged != b.flagged for a, b in pairs),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--samples", type=int, default=DEFAULT_SAMPLES)
    parser.add_argument("--train-samples", type=int, default=DEFAULT_TRAIN_SAMPLES)
    parser.add_argument("--fives-samples", type=int, default=DEFAULT_FIVES_SAMPLES)
    parser.add_argument("--steadiness", action="store_true", help="analyse again with another seed")
    parser.add_argument("--only", nargs="*", choices=[m[0] for m in MATCHES], help="these matches only")
    args = parser.parse_args()
    budget = CoachBudget(samples=args.samples, train_samples=args.train_samples,
                         fives_samples=args.fives_samples)
    figures: dict[str, object] = {"load": os.getloadavg()[0], "samples": args.samples,
                                  "train_samples": args.train_samples, "fives_samples": args.fives_samples}
    for name, preset, players, seed, house in MATCHES:
        if args.only and name not in args.only:
            continue
        match = played(preset, players, seed, house)
        wall, cpu = time.perf_counter(), time.process_time()
        analysis = analyse(match, 0, budget=budget)
        figures[f"{name}_seconds"] = round(time.perf_counter() - wall, 1)
        figures[f"{name}_cpu_seconds"] = round(time.process_time() - cpu, 1)
        figures[f"{name}_rounds"] = match.match.round_number
        figures[f"{name}_decisions"] = len(analysis.decisions)
        figures[f"{name}_searched"] = sum(d.had_choice for d in analysis.decisions)
        figures[f"{name}_flagged"] = len(analysis.flagged)
        if args.steadiness:
            again = analyse(match, 0, budget=budget, seed=1)
            figures.update({f"{name}_{key}": value for key, value in steadiness(analysis, again).items()})
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
