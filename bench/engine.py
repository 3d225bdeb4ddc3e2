"""Engine speed: complete random-vs-random Puerto Rican rounds per second, one core.

Times are this process's CPU time, so a busy machine disturbs them less.

Prints one JSON line. ``api_*`` drive the public `Match` (legal actions, checks,
events and all); ``api_with_views_*`` also build every seat's view after every
action, as the host does to send each seat its table; ``playout_*`` use the fast
path that computer players run (`play_out` on the engine's `RoundState`, the same
rules code). Run by hand: ``python bench/engine.py [--seconds S]``.
"""

from __future__ import annotations

import argparse
import json
import random
import time

from capicu.core import Match, RoundEnded, Rules
from capicu.core.ai.playout import play_out
from capicu.core.state import RoundState, deal_hands, highest_double
from capicu.core.tiles import tile_set


def api_rounds_per_second(players: int, seconds: float, *, views: bool = False) -> float:
    """Rounds per second through `Match`; with ``views``, every seat's view after each action."""
    rules = Rules().replace(target=10**9)
    rng = random.Random(1)
    rounds = 0
    match = Match(rules, players, seed=1)
    start = time.process_time()
    deadline = start + seconds
    while True:
        for _ in range(200):
            action = rng.choice(match.legal_actions())
            for event in match.apply(action):
                if type(event) is RoundEnded:
                    rounds += 1
            if views:
                for seat in range(players):
                    match.view(seat)
        if time.process_time() > deadline:
            break
    return rounds / (time.process_time() - start)


def playout_rounds_per_second(players: int, seconds: float) -> float:
    rules = Rules()
    tiles = tile_set(rules.max_pip)
    hand_size = rules.hand_size(players)
    rng = random.Random(1)
    order = list(range(len(tiles)))
    rounds = 0
    start = time.process_time()
    deadline = start + seconds
    while True:
        for _ in range(1000):
            rng.shuffle(order)
            hands = deal_hands(order, players, hand_size)
            lead = highest_double(tiles, hands)
            if lead is None:
                continue  # dealt again, as the rules say
            state = RoundState(
                tiles, hands, order[players * hand_size :],
                turn=lead[0], reserve=rules.reserve, forced_lead=lead[1],
            )
            play_out(state, rng)
            rounds += 1
        if time.process_time() > deadline:
            break
    return rounds / (time.process_time() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=3.0, help="time for each figure")
    args = parser.parse_args()
    figures = {
        "api_rounds_per_s_3p": round(api_rounds_per_second(3, args.seconds)),
        "api_rounds_per_s_2p": round(api_rounds_per_second(2, args.seconds)),
        "api_with_views_rounds_per_s_3p": round(api_rounds_per_second(3, args.seconds, views=True)),
        "playout_rounds_per_s_3p": round(playout_rounds_per_second(3, args.seconds)),
        "playout_rounds_per_s_2p": round(playout_rounds_per_second(2, args.seconds)),
    }
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
