"""Play-outs: a round finished fast by simple policies, on the engine's own `RoundState`.

The `hard` player's search plays each sampled deal to the end thousands of
times per decision. The rules are `RoundState`'s (play, draw, pass, the
tranque) and where a tile fits is its `Line` layout's (``fit`` and ``far``);
only the choice of move is made here: at random, greedily (the heaviest
tile), or by a sensible player's measure (weight, doubles, ends it can
follow).
"""

from __future__ import annotations

import random
from functools import cache

from ..draw.state import RoundState
from ..tiles import TileSet


def play_out(
    state: RoundState,
    rng: random.Random,
    greed: float = 0.0,
    follow: int = 0,
    *,
    searcher: int = -1,
    others: tuple[float, int] | None = None,
    moves: int = -1,
) -> None:
    """Finish ``state``'s round with every seat choosing uniformly among its legal moves.

    With ``greed`` above 0, each move is instead, with that probability, the
    heaviest playable tile (a double on ties, never a draw by choice): the
    computer players' searches use it as a cheap model of sensible play.
    With ``follow`` above 0 that move weighs, instead, pips + 3 for a double
    + ``follow`` for each tile left in hand that fits the ends it leaves.
    With ``searcher`` and ``others`` given, the other seats play by ``others``
    (their greed and follow) instead: a searching seat models its opponents
    apart from its own later moves. With ``moves`` at 0 or above, it stops after
    that many moves (draws and passes count), the round perhaps not over.
    """
    fit = state.fit
    far = state.far
    hands = state.hands
    weight = _weights(state.tiles)
    policies: list[tuple[float, int]] | None = None
    if others is not None:
        policies = [others] * state.players
        policies[searcher] = (greed, follow)
    while state.outcome is None:
        if not moves:
            return
        moves -= 1
        seat = state.turn
        if policies is not None:
            greed, follow = policies[seat]
        if state.left < 0 and state.forced_lead >= 0:
            playable = 1 << state.forced_lead
        else:
            playable = hands[seat] & fit[state.left][state.right]
        if not playable:
            if state.may_draw():
                state.draw()
            else:
                state.pass_turn()
            continue
        if follow and greed and rng.random() < greed:
            tile, on_right = _sensible_move(state, seat, playable, follow)
            state.play(tile, on_right)
            continue
        if greed and rng.random() < greed:
            best = -1
            tile = -1
            while playable:
                low = playable & -playable
                index = low.bit_length() - 1
                if weight[index] > best:
                    best, tile = weight[index], index
                playable ^= low
        else:
            if (
                state.voluntary_draw
                and state.may_draw()
                and rng.random() < 1.0 / (playable.bit_count() + 1)
            ):
                state.draw()
                continue
            pick = int(rng.random() * playable.bit_count())
            while pick:
                playable &= playable - 1
                pick -= 1
            tile = (playable & -playable).bit_length() - 1
        if state.left < 0:
            state.play(tile, False)
            continue
        # Where the tile fits, by the line's rule: on both ends, one is picked at random.
        on_right = far[tile][state.right] >= 0
        if on_right and far[tile][state.left] >= 0:
            on_right = rng.random() < 0.5
        state.play(tile, on_right)


def _sensible_move(state: RoundState, seat: int, playable: int, follow: int) -> tuple[int, bool]:
    """The (tile, on_right) that weighs most by `play_out`'s ``follow`` measure."""
    fit = state.fit
    far = state.far
    ends_of = state.ends_of
    hand = state.hands[seat]
    left, right = state.left, state.right
    best = -1
    choice = (-1, False)
    while playable:
        low = playable & -playable
        playable ^= low
        tile = low.bit_length() - 1
        a, b = ends_of[tile]
        rest = hand ^ low
        merit = a + b + (3 if a == b else 0)
        if left < 0:
            score = merit + follow * (rest & fit[a][b]).bit_count()
            if score > best:
                best, choice = score, (tile, False)
            continue
        new_left = far[tile][left]
        if new_left >= 0:
            score = merit + follow * (rest & fit[new_left][right]).bit_count()
            if score > best:
                best, choice = score, (tile, False)
        new_right = far[tile][right]
        if new_right >= 0:
            score = merit + follow * (rest & fit[left][new_right]).bit_count()
            if score > best:
                best, choice = score, (tile, True)
    return choice


@cache
def _weights(tiles: TileSet) -> tuple[int, ...]:
    """Each tile's rank for the greedy playout move: pips, then doubles first."""
    return tuple(2 * (a + b) + (a == b) for a, b in tiles.ends)
