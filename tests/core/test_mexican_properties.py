"""Properties of Mexican Train over many seeded matches, every player count, set and option."""

from __future__ import annotations

import random
from typing import Any

import msgspec
from capicu.core import Play, Rules, Run, Tile, tile_set
from capicu.core.actions import END_RUN
from capicu.core.mexican.events import MexicanRoundEnded
from capicu.core.mexican.match import MexicanMatch
from capicu.core.mexican.refusals import run_problem, run_steps, why_not_mexican
from capicu.core.mexican.view import MexicanView
from capicu.net import wire
from hypothesis import given, settings
from hypothesis import strategies as st

MEXICAN_TRAIN = Rules.preset_named("mexican-train")


@st.composite
def games(draw: Any) -> tuple[Rules, int, int]:
    rules = msgspec.structs.replace(
        MEXICAN_TRAIN,
        max_pip=draw(st.sampled_from((9, 12, 15))),
        opening_run=draw(st.booleans()),
        mexican_needs_own_train=draw(st.booleans()),
        cover_doubles=draw(st.booleans()),
        one_double_a_turn=draw(st.booleans()),
        engine_set_aside=draw(st.booleans()),
        double_blank_points=draw(st.sampled_from((50, 0))),
        rounds=draw(st.sampled_from((1, 1, 1, 4))),
    )
    return rules, draw(st.integers(2, 8)), draw(st.integers(0, 10**6))


def tiles_of_view(view: MexicanView) -> list[Tile]:
    """Every tile the view shows in this round: the hand, the trains, the engine."""
    laid = [Tile(a, b) for line in view.trains for a, b in line.tiles]
    return [*view.hand, *laid, view.engine]


def check_position(match: MexicanMatch, *, scan: bool = True) -> None:
    st_ = match.state
    tiles = tile_set(match.rules.max_pip)
    views = [match.view(seat) for seat in range(match.players)]
    spectator = match.view(None)
    # Every tile accounted for: hands + trains + boneyard + engine = the set, each once.
    hands = [tiles.tiles_in(hand) for hand in st_.hands]
    laid = [Tile(a, b) for line in spectator.trains for a, b in line.tiles]
    boneyard = [tiles.tiles[t] for t in st_.stock[st_.stock_pos :]]
    everything = [t for hand in hands for t in hand] + laid + boneyard + [spectator.engine]
    assert sorted(everything) == sorted(tiles.tiles)
    assert spectator.boneyard == len(boneyard)
    # Every train a valid chain from the engine.
    engine = spectator.engine.low
    for line in spectator.trains:
        head = engine
        for inner, outer in line.tiles:
            assert inner == head
            head = outer
        assert line.head == head
    # No view shows another hand: its own tiles, the laid ones and the engine, nothing else.
    for seat, view in enumerate(views):
        assert view.hand == hands[seat]
        others = {t for s, hand in enumerate(hands) if s != seat for t in hand} | set(boneyard)
        assert not others & set(tiles_of_view(view))
        if scan:
            # Hands are revealed when a round ends (in its result): before that, never.
            hidden = tuple(e for e in view.events if not isinstance(e, MexicanRoundEnded))
            shown = repr(msgspec.structs.replace(view, results=(), events=hidden))
            assert not any(repr(t) in shown for t in others)
    assert spectator.hand == () and spectator.legal == ()
    # What the engine offers, the refusals accept; what a view lists is only the seat on turn's.
    if match.turn is not None:
        for action in match.legal_actions():
            assert why_not_mexican(views[match.turn], action) is None
        assert all(view.legal == () for seat, view in enumerate(views) if seat != match.turn)


@settings(max_examples=20, deadline=None)
@given(games())
def test_every_tile_is_accounted_for_trains_chain_and_views_keep_hands_hidden(
    game: tuple[Rules, int, int],
) -> None:
    rules, players, seed = game
    match = MexicanMatch(rules, players, seed=seed)
    rng = random.Random(seed)
    check_position(match)
    step = 0
    while not match.is_over:
        match.apply(rng.choice(match.legal_actions()))
        step += 1
        # (Every view's text is searched for hidden tiles now and then: it is the slow check.)
        check_position(match, scan=step % 8 == 0)
    assert len(match.results) == rules.round_count


@settings(max_examples=30, deadline=None)
@given(games(), st.integers(0, 400))
def test_replaying_the_log_gives_the_same_match(game: tuple[Rules, int, int], cut: int) -> None:
    rules, players, seed = game
    match = MexicanMatch(rules, players, seed=seed)
    rng = random.Random(seed)
    for _ in range(cut):
        if match.is_over:
            break
        match.apply(rng.choice(match.legal_actions()))
    again = MexicanMatch.from_log(match.log())
    assert again.log() == match.log()
    for seat in [None, *range(players)]:
        view = match.view(seat)
        assert again.view(seat) == view
        # A view is declared once: the wire writes it as plain data and reads it back whole.
        assert wire.read(wire.plain(view), MexicanView) == view


@settings(max_examples=20, deadline=None)
@given(games())
def test_random_runs_sent_whole_play_as_their_steps(game: tuple[Rules, int, int]) -> None:
    """A client's `Run` lays exactly what its tiles laid one by one, then `end run`, would."""
    rules, players, seed = game
    stepped = MexicanMatch(rules, players, seed=seed)
    whole = MexicanMatch(rules, players, seed=seed)
    rng = random.Random(seed)
    while not stepped.is_over:
        if stepped.view(stepped.turn).may_run and any(isinstance(a, Play) for a in stepped.legal_actions()):
            tiles: list[Tile] = []
            seat = stepped.turn
            start = stepped.view(seat)
            while True:
                # What a client building the run on its screen is offered is what the engine offers.
                offered = {a.tile for a in stepped.legal_actions() if isinstance(a, Play)}
                assert set(run_steps(start, tuple(tiles))) == offered
                assert (run_problem(start, Run(tuple(tiles))) is None) == (END_RUN in stepped.legal_actions())
                action = rng.choice(stepped.legal_actions())
                ended = any(isinstance(e, MexicanRoundEnded) for e in stepped.apply(action))
                if isinstance(action, Play):
                    tiles.append(action.tile)
                if action == END_RUN or ended or stepped.turn != seat:
                    break
            whole.apply(Run(tuple(tiles)))
        else:
            action = rng.choice(stepped.legal_actions())
            stepped.apply(action)
            whole.apply(action)
        assert whole.view(None) == stepped.view(None)
