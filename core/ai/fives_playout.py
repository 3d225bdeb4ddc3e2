"""Play-outs of a Fives and Threes hand: finished fast on the engine's own `FivesRound`.

The rules are `FivesRound`'s (play, draw, knock, the go, a blocked hand) and where a
tile fits its `Line` layout's (``fit`` and ``far``); only the choice is made here.
`play_out_at_random` lays a legal tile at random (bench/engine.py measures it beside the
Draw family's `play_out`); the `hard` player's search plays out by scores
(core/ai/fives_hard.py).
"""

from __future__ import annotations

import random

from ..fives.state import FivesRound


def play_out_at_random(state: FivesRound, rng: random.Random) -> list[int]:
    """Finish ``state``'s hand, every seat laying a legal tile at random; the points each side made."""
    far = state.far
    fit = state.fit
    hands = state.hands
    partnerships = state.partnerships
    gained = [0] * (2 if partnerships else state.players)
    while state.outcome is None:
        seat = state.turn
        playable = hands[seat] & fit[state.left][state.right]
        if not playable:
            if state.drawable:
                state.draw()
            else:
                state.knock()
            continue
        pick = int(rng.random() * playable.bit_count())
        while pick:
            playable &= playable - 1
            pick -= 1
        tile = (playable & -playable).bit_length() - 1
        if state.left < 0:
            on_right = False
        else:
            on_right = far[tile][state.right] >= 0
            if on_right and far[tile][state.left] >= 0:
                on_right = rng.random() < 0.5
        gained[seat & 1 if partnerships else seat] += state.play(tile, on_right)
    if state.go_side >= 0:
        gained[state.go_side] += 1
    return gained
