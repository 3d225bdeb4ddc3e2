"""Engine speed: complete random-vs-random rounds per second, one core.

Prints one JSON line. ``api_*`` drive the public `Match` (legal actions, checks,
events and all) on Puerto Rican rounds; ``api_with_views_*`` also build every
seat's view after every action, as the host does to send each seat its table;
``playout_*`` use the fast path that computer players run (`play_out` on the
engine's `RoundState`, the same rules code). ``mexican_*`` are the same two
figures for Mexican Train (4 players, double-twelve, the engines taken in
turn): `MexicanMatch`, and `play_out_mexican` on its `MexicanRound`. ``fives_*``
are Fives and Threes' hands (4 players in partnerships, every play scored):
`FivesMatch`, and `play_out_at_random` on its `FivesRound`, beside the Draw
family's play-out at 4 players (``playout_rounds_per_s_4p``, the ``draw`` preset).
Run by hand: ``python bench/engine.py [--seconds S]``.

Times are this process's CPU time, and the figures are measured a slice at a
time in turn (a few milliseconds each), so that a machine that slows down or
speeds up meanwhile shifts them all alike: figures of one run compare.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Iterator

import msgspec
from capicu.core import Match, RoundEnded, Rules
from capicu.core.ai.fives_playout import play_out_at_random
from capicu.core.ai.mexican_playout import play_out_mexican
from capicu.core.ai.playout import play_out
from capicu.core.draw.state import RoundState, deal_hands, highest_double
from capicu.core.fives.events import FivesRoundEnded
from capicu.core.fives.match import FivesMatch
from capicu.core.fives.state import FivesRound
from capicu.core.mexican.events import MexicanRoundEnded
from capicu.core.mexican.match import MexicanMatch
from capicu.core.mexican.state import MexicanRound
from capicu.core.tiles import tile_set

#: Rounds in each match the ``api_*`` figures play (a long real match has some 40):
#: what grows with a match, such as the results every view carries, stays as in play.
MATCH_ROUNDS = 100


def api_rounds(players: int, *, views: bool = False) -> Iterator[int]:
    """Rounds finished through `Match`, slice by slice; with ``views``, every seat's view
    after each action."""
    rules = msgspec.structs.replace(Rules(), target=10**9)
    rng = random.Random(1)
    match = Match(rules, players, seed=1)
    while True:
        rounds = 0
        for _ in range(200):
            action = rng.choice(match.legal_actions())
            for event in match.apply(action):
                if type(event) is RoundEnded:
                    rounds += 1
            if views:
                for seat in range(players):
                    match.view(seat)
            if len(match.results) == MATCH_ROUNDS:
                match = Match(rules, players, seed=match.seed + 1)
        yield rounds


def playout_rounds(players: int, preset: str = "puerto-rican-drawing") -> Iterator[int]:
    """Rounds played out on a `RoundState`, slice by slice."""
    rules = Rules.preset_named(preset)
    tiles = tile_set(rules.max_pip)
    hand_size = rules.hand_size(players)
    rng = random.Random(1)
    order = list(range(len(tiles)))
    while True:
        rounds = 0
        for _ in range(100):
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
        yield rounds


def fives_playout_hands(players: int) -> Iterator[int]:
    """Fives and Threes hands played out on a `FivesRound` (every play scored), slice by slice."""
    rules = Rules.preset_named("fives-and-threes")
    tiles = tile_set(rules.max_pip)
    hand_size = rules.hand_size(players)
    rng = random.Random(1)
    order = list(range(len(tiles)))
    while True:
        hands_done = 0
        for _ in range(100):
            rng.shuffle(order)
            state = FivesRound(tiles, deal_hands(order, players, hand_size), order[players * hand_size:],
                               turn=rng.randrange(players), drawing=rules.drawing,
                               partnerships=rules.partnerships)
            play_out_at_random(state, rng)
            hands_done += 1
        yield hands_done


def fives_api_hands(players: int) -> Iterator[int]:
    """Fives and Threes hands finished through `FivesMatch`, slice by slice (new matches as they end)."""
    rules = msgspec.structs.replace(Rules.preset_named("fives-and-threes"), target=10**9)
    rng = random.Random(1)
    match = FivesMatch(rules, players, seed=1)
    while True:
        hands_done = 0
        for _ in range(200):
            for event in match.apply(rng.choice(match.legal_actions())):
                if type(event) is FivesRoundEnded:
                    hands_done += 1
            if len(match.results) == MATCH_ROUNDS:
                match = FivesMatch(rules, players, seed=match.seed + 1)
        yield hands_done


def mexican_api_rounds(players: int) -> Iterator[int]:
    """Mexican Train rounds finished through `MexicanMatch`, slice by slice (new matches as they end)."""
    rules = Rules.preset_named("mexican-train")
    rng = random.Random(1)
    match = MexicanMatch(rules, players, seed=1)
    while True:
        rounds = 0
        for _ in range(200):
            if match.is_over:
                match = MexicanMatch(rules, players, seed=match.seed + 1)
            for event in match.apply(rng.choice(match.legal_actions())):
                if type(event) is MexicanRoundEnded:
                    rounds += 1
        yield rounds


def mexican_playout_rounds(players: int) -> Iterator[int]:
    """Mexican Train rounds played out on a `MexicanRound`, slice by slice."""
    rules = Rules.preset_named("mexican-train")
    tiles = tile_set(rules.max_pip)
    size = rules.hand_size(players)
    rng = random.Random(1)
    engine = rules.max_pip
    while True:
        rounds = 0
        for _ in range(20):
            engine = engine - 1 if engine else rules.max_pip
            order = [t for t in range(len(tiles)) if t != tiles.double_of[engine]]
            rng.shuffle(order)
            state = MexicanRound(
                tiles, engine, deal_hands(order, players, size), order[players * size :],
                turn=rng.randrange(players),
            )
            play_out_mexican(state, rng)
            rounds += 1
        yield rounds


def per_second(figures: dict[str, Iterator[int]], seconds: float) -> dict[str, int]:
    """Each figure's rounds per CPU second, its slices taken in turn for ``seconds`` each."""
    rounds = dict.fromkeys(figures, 0)
    spent = dict.fromkeys(figures, 0.0)
    deadline = time.process_time() + seconds * len(figures)
    while time.process_time() < deadline:
        for name, slices in figures.items():
            start = time.process_time()
            rounds[name] += next(slices)
            spent[name] += time.process_time() - start
    return {name: round(rounds[name] / spent[name]) for name in figures}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=3.0, help="time for each figure")
    args = parser.parse_args()
    figures = {
        "api_rounds_per_s_3p": api_rounds(3),
        "api_rounds_per_s_2p": api_rounds(2),
        "api_with_views_rounds_per_s_3p": api_rounds(3, views=True),
        "playout_rounds_per_s_3p": playout_rounds(3),
        "playout_rounds_per_s_2p": playout_rounds(2),
        "playout_rounds_per_s_4p": playout_rounds(4, "draw"),
        "fives_playout_hands_per_s_4p": fives_playout_hands(4),
        "fives_api_hands_per_s_4p": fives_api_hands(4),
        "mexican_api_rounds_per_s_4p": mexican_api_rounds(4),
        "mexican_playout_rounds_per_s_4p": mexican_playout_rounds(4),
    }
    print(json.dumps(per_second(figures, args.seconds)))


if __name__ == "__main__":
    main()
