"""Play-outs of Mexican Train: a round finished fast at random, on the engine's own `MexicanRound`.

As core/ai/playout.py does for the Draw family: the rules are `MexicanRound`'s
(where a tile may go, draws, passes, markers, doubles, the blocked round); only
the choice is made here, uniformly among the moves `MexicanMatch.legal_actions`
would list (each tile on each train it may go on, and ending the opening run
when it may end). The computer players' searches for Mexican Train will run
these; bench/engine.py measures them.
"""

from __future__ import annotations

import random

from ..mexican.state import MexicanRound


def moves(state: MexicanRound) -> tuple[list[tuple[int, int]], int]:
    """The plays open to the seat on turn, as (train, tiles mask) pairs, and how many tiles in all.

    The same moves `MexicanMatch.legal_actions` lists as plays (tests/core/ai/test_mexican_players.py checks).
    """
    options: list[tuple[int, int]] = []
    count = 0
    places = state.places()
    if len(places) == 1 and not (state.running or state.first_turn[state.turn]):
        # One place and no opening run to mind: the fit is the hand against its number.
        train = places[0]
        mask = state.hands[state.turn] & state.suit[state.heads[train]]
        if mask:
            options.append((train, mask))
            count = mask.bit_count()
        return options, count
    for train in places:
        mask = state.fitting(train)
        if mask:
            options.append((train, mask))
            count += mask.bit_count()
    return options, count


def play_out_mexican(state: MexicanRound, rng: random.Random) -> None:
    """Finish ``state``'s round with every seat choosing uniformly among its legal moves."""
    rand = rng.random
    while state.outcome is None:
        options, count = moves(state)
        end = state.running and state.open_double < 0
        if not count:
            if end:
                state.end_run()
            elif state.may_draw():
                state.draw()
            else:
                state.pass_turn()
            continue
        pick = int(rand() * (count + end))
        if pick == count:
            state.end_run()
            continue
        for train, mask in options:
            size = mask.bit_count()
            if pick < size:
                while pick:
                    mask &= mask - 1
                    pick -= 1
                state.play((mask & -mask).bit_length() - 1, train)
                break
            pick -= size
