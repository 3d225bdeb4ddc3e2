"""The exact endgame search: alpha-beta gives minimax's values, and `hard` uses it only where it may."""

from __future__ import annotations

import random

import pytest
from capicu.core import Match, Rules, View, make_player
from capicu.core.ai.endgame import EndgameSolver, NodeLimit
from capicu.core.ai.search import Budget, _Scorer, search
from capicu.core.draw.state import RoundState
from capicu.core.tiles import tile_set


def _position(players: int, per_hand: int, seed: int) -> RoundState:
    """A random block position: one tile laid, ``per_hand`` tiles in each hand, nothing to draw."""
    tiles = tile_set(6)
    rng = random.Random(seed)
    order = list(range(len(tiles.tiles)))
    rng.shuffle(order)
    hands = [sum(1 << t for t in order[1 + s * per_hand: 1 + (s + 1) * per_hand]) for s in range(players)]
    st = RoundState(tiles, hands, [], turn=rng.randrange(players), reserve=0, drawing=False)
    st.left, st.right = tiles.ends[order[0]]
    st.last_player, st.last_tile = (st.turn - 1) % players, order[0]
    return st


def _minimax(st: RoundState, scorer: _Scorer, sides: list[int]) -> list[float]:
    """The round's value to each side by plain minimax (two sides) or max^n (more), on the engine's
    own moves: each seat takes the move best for its side, the first of equals heaviest tile first."""
    if st.outcome is not None:
        return scorer.leaf(st.outcome, st.hands, st.last_player, st.last_tile, st.capicu)
    seat = st.turn
    playable = st.playable(seat)
    if not playable:
        nxt = st.copy()
        nxt.pass_turn()
        return _minimax(nxt, scorer, sides)
    best: list[float] = []
    order = sorted(range(len(st.tiles.tiles)), key=lambda t: -st.tiles.pips[t])
    for tile in order:
        if playable >> tile & 1:
            for on_right in (False, True):
                if st.far[tile][st.right if on_right else st.left] < 0 or (on_right and st.left == st.right):
                    continue
                nxt = st.copy()
                nxt.play(tile, on_right)
                values = _minimax(nxt, scorer, sides)
                if not best or values[sides[seat]] > best[sides[seat]]:
                    best = values
    return best


@pytest.mark.parametrize("preset,players,per_hand", [
    ("puerto-rican-partners", 4, 3), ("quinientos", 4, 3), ("puerto-rican-drawing", 2, 5), ("draw", 2, 4),
    ("puerto-rican-drawing", 3, 3), ("draw", 4, 3),
])
def test_the_solver_gives_minimax_values(preset: str, players: int, per_hand: int) -> None:
    rules = Rules.preset_named(preset)
    tiles = tile_set(6)
    sides = [rules.side_of(seat, players) for seat in range(players)]
    for seed in range(25):
        st = _position(players, per_hand, seed)
        if not any(hand & st.fit[st.left][st.right] for hand in st.hands):
            continue
        for seat in range(players):
            scorer = _Scorer(rules, players, seat, 1, tiles, 30.0)
            solver = EndgameSolver(st, sides, scorer.side, scorer.leaf)
            exact = _minimax(st, scorer, sides)[scorer.side]
            assert solver.value(st, 10**6) == exact, (preset, seed, seat)


def test_the_solver_stops_at_its_node_limit() -> None:
    rules = Rules.preset_named("puerto-rican-partners")
    st = _position(4, 4, seed=3)
    scorer = _Scorer(rules, 4, 0, 1, tile_set(6), 30.0)
    solver = EndgameSolver(st, [0, 1, 0, 1], 0, scorer.leaf)
    with pytest.raises(NodeLimit):
        solver.value(st, 5)
    assert solver.value(st, 10**7) == solver.value(st, 10**7)


def _late_positions(preset: str, players: int, tiles_left: int) -> list[View]:
    """Views with a choice and at most ``tiles_left`` tiles in all hands, from normal players' rounds."""
    out = []
    for seed in range(3):
        match = Match(Rules.preset_named(preset), players, seed)
        out += [v for v in _positions_of(match) if sum(v.hand_counts) <= tiles_left and not v.drawable]
    return out


def _positions_of(match: Match) -> list[View]:
    """Every view with a choice in ``match``'s first round, normal players playing."""
    bots = [make_player("normal", s) for s in range(match.players)]
    views = []
    while not match.results:
        seat = match.turn
        assert seat is not None
        view = match.view(seat)
        if len(view.legal) > 1:
            views.append(view)
        match.apply(bots[seat].choose(view), seat)
    return views


def test_hard_solves_late_positions_of_two_sides_and_stays_repeatable() -> None:
    views = _late_positions("puerto-rican-partners", 4, 12)[:6]
    assert views
    exact = Budget(iterations=200, cap_seconds=None, endgame=12, endgame_nodes=5_000)
    loose = Budget(iterations=200, cap_seconds=None, endgame=0)
    for view in views:
        result = search(view, seed=2, budget=exact)
        assert result.best.action in view.legal
        assert result == search(view, seed=2, budget=exact)
        # The same deals valued exactly rather than by play-outs: other values.
        assert result.values != search(view, seed=2, budget=loose).values


def test_three_players_and_early_positions_keep_the_play_outs() -> None:
    exact = Budget(iterations=120, cap_seconds=None, endgame=30, endgame_nodes=10**9)
    for view in _positions_of(Match(Rules.preset_named("puerto-rican-drawing"), 3, 4))[:4]:
        loose = Budget(iterations=120, cap_seconds=None, endgame=0)
        assert search(view, seed=1, budget=exact) == search(view, seed=1, budget=loose)
