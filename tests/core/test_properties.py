"""Properties over thousands of seeded matches of every preset and player count."""

from __future__ import annotations

import contextlib
import functools
import itertools
import random
from collections import deque
from collections.abc import Sequence
from typing import Any

import msgspec
from capicu.core import (
    DRAW,
    PASS,
    End,
    Event,
    IllegalAction,
    Match,
    Outcome,
    Play,
    RoundEnded,
    RoundStarted,
    Rules,
    Scoring,
    Tile,
    TilePlayed,
    View,
    tile_set,
)
from capicu.net.protocol import Snapshot, message_from_host, to_wire
from hypothesis import given, settings
from hypothesis import strategies as st

GAMES = [
    (name, players)
    for name in ("puerto-rican-drawing", "drawing-game", "puerto-rican-partners", "quinientos", "draw")
    for players in range(Rules.preset_named(name).min_players, Rules.preset_named(name).max_players + 1)
]
SETS = (6, 9, 12)


@functools.cache
def _tile_named(text: str) -> Tile | None:
    """The tile a string of the wire names, if it names one (read once: the same few strings come
    back at every step)."""
    with contextlib.suppress(ValueError, IndexError):
        return Tile.parse(text.split()[1] if text.startswith("play ") else text)
    return None


def named_tiles(data: Any) -> set[Tile]:
    """Every tile written anywhere in plain data (the wire form of a view)."""
    found: set[Tile] = set()
    if isinstance(data, str):
        tile = _tile_named(data)
        if tile is not None:
            found.add(tile)
    elif isinstance(data, dict):
        for value in data.values():
            found |= named_tiles(value)
    elif isinstance(data, list):
        for value in data:
            found |= named_tiles(value)
    return found


def check_view_holds_no_secret(match: Match, seat: int | None) -> View:
    view = match.view(seat)
    wire = to_wire(Snapshot(0, view))
    assert message_from_host(wire) == Snapshot(0, view)
    data = wire["view"]
    state = match.state
    own = set(view.hand)
    laid = {Tile(a, b) for a, b in view.line}
    earlier = named_tiles(data.pop("results"))
    assert len(view.results) == len(match.results)
    secret = set()
    for other, hand in enumerate(state.hands):
        if other != seat:
            secret |= set(match.tiles.tiles_in(hand))
    secret |= {match.tiles.tiles[t] for t in state.stock[state.stock_pos :]}
    visible = named_tiles(data)
    # The forced lead is public by the rules: the holder of the highest double
    # must lead it, so the table knows who holds it.
    if view.forced_lead is not None:
        secret.discard(view.forced_lead)
        laid.add(view.forced_lead)
    assert not (visible & secret), f"seat {seat} sees {visible & secret}"
    assert visible <= own | laid | earlier
    if seat is not None:
        assert own == set(match.tiles.tiles_in(state.hands[seat]))
    else:
        assert not own
    return view


@functools.cache
def _bits(max_pip: int) -> dict[tuple[int, int], int]:
    """Each tile's bit in a hand (the engine's masks), by its two numbers in either order."""
    tiles = tile_set(max_pip)
    bits = {}
    for tile in tiles.tiles:
        bits[tile.low, tile.high] = bits[tile.high, tile.low] = 1 << tiles.index[tile]
    return bits


def check_state(match: Match) -> None:
    state = match.state
    tiles = match.tiles
    line = match.view(None).line
    stock = state.stock[state.stock_pos :]
    # Tiles are conserved: every tile of the set is in exactly one place (as many places as
    # tiles, and every tile somewhere). Counted in bits, each tile one bit of the engine's hand
    # masks: building and hashing every tile at every step was most of this test's time.
    bits = _bits(tiles.max_pip)
    places = len(line) + sum(hand.bit_count() for hand in state.hands) + len(stock)
    somewhere = 0
    for pair in line:
        somewhere |= bits[pair]
    for hand in state.hands:
        somewhere |= hand
    for index in stock:
        somewhere |= 1 << index
    assert places == len(tiles.tiles) and somewhere == (1 << len(tiles.tiles)) - 1
    # Nobody draws into the reserve.
    if match.rules.drawing:
        assert len(stock) >= min(match.rules.reserve, len(state.stock))
    # The line's ends are the tiles laid, matched pip to pip.
    if line:
        assert (line[0][0], line[-1][1]) == (state.left, state.right)
        for (_, right), (left, _) in itertools.pairwise(line):
            assert right == left


def check_result(match: Match, result: Any) -> None:
    rules = match.rules
    counts = result.pip_counts
    assert counts == tuple(sum(t.pips for t in hand) for hand in result.hands)
    sides = result.side_counts
    if result.reason is Outcome.DOMINO:
        assert counts[result.last_player] == 0
    base = result.points - sum(p for _, p in result.bonuses)
    if result.winner is None:
        assert result.points == 0
    elif rules.scoring is Scoring.ALL_PIPS:
        assert base == sum(counts)
    elif rules.scoring is Scoring.DOMINO_TAKES_ALL and result.reason is Outcome.DOMINO:
        assert base == sum(sides) - sides[result.winner]
    else:
        assert sides[result.winner] == min(sides)
        assert sides.count(min(sides)) == 1
        assert base == sum(sides) - 2 * sides[result.winner]


def check_round_not_blocked(match: Match) -> None:
    """Fails when nobody can play and nothing can be drawn, yet the round goes on.

    The engine declares that tranque at once; one that missed it (on the last draw, say)
    would have every seat pass for ever, and the test loop would hang instead of failing.
    """
    state = match.state
    assert state.drawable or any(state.playable(seat) for seat in range(match.players)), (
        f"round {match.round_number} is blocked and goes on"
    )


def _position(match: Match) -> tuple[object, ...]:
    """Everything an action could change, cheaply (the whole log, rebuilt at every step, was
    most of this file's time): the entries so far, the hands, the ends, the boneyard, the turn."""
    state = match.state
    return (match.entry_count, match.turn, tuple(state.hands), state.left, state.right, state.stock_pos,
            state.draws_this_turn, tuple(match.scores))


def play_match(rules: Rules, players: int, seed: int, *, views: bool) -> Match:
    rng = random.Random(seed)
    match = Match(rules, players, seed)
    scores = [0] * rules.sides(players)
    while not match.is_over:
        seat = match.turn
        assert seat is not None
        legal = match.legal_actions()
        state = match.state
        playable = state.playable(seat)
        if DRAW in legal and playable:
            assert rules.voluntary_draw
        if PASS in legal:
            assert legal == (PASS,) and not playable and not state.may_draw()
            check_round_not_blocked(match)
        if views:
            for who in [*range(players), None]:
                view = check_view_holds_no_secret(match, who)
                assert view.legal == (legal if who == seat else ())
        # An illegal action from anyone is refused and changes nothing.
        stranger = (seat + 1) % players
        before = _position(match)
        for wrong in (legal[0], PASS, DRAW):
            try:
                match.apply(wrong, stranger)
            except IllegalAction:
                pass
            else:  # pragma: no cover - the check below names it
                raise AssertionError(f"{wrong} was accepted out of turn")
        assert _position(match) == before
        action = rng.choice(legal)
        events = match.apply(action, seat)
        round_over = any(isinstance(e, RoundEnded) for e in events)
        if isinstance(action, Play) and not round_over:
            assert action.tile not in match.view(seat).hand
        for event in events:
            if isinstance(event, RoundEnded):
                check_result(match, event.result)
                if event.result.winner is not None:
                    scores[event.result.winner] += event.result.points
                assert tuple(scores) == event.result.scores
        check_state(match)
    assert max(match.scores) >= match.target
    assert match.winner == match.scores.index(max(match.scores))
    assert sorted(match.scores)[-2] < match.target
    return match


@settings(max_examples=1500)
@given(game=st.sampled_from(GAMES), seed=st.integers(0, 2**32))
def test_random_matches_keep_every_rule(game: tuple[str, int], seed: int) -> None:
    name, players = game
    match = play_match(Rules.preset_named(name), players, seed, views=False)
    assert Match.from_log(match.log()).log() == match.log()


@settings(max_examples=80)
@given(game=st.sampled_from(GAMES), max_pip=st.sampled_from(SETS), seed=st.integers(0, 2**32))
def test_no_view_ever_holds_a_secret_tile(game: tuple[str, int], max_pip: int, seed: int) -> None:
    name, players = game
    rules = msgspec.structs.replace(Rules.preset_named(name), max_pip=max_pip, target=40)
    play_match(rules, players, seed, views=True)


@settings(max_examples=300)
@given(
    game=st.sampled_from(GAMES),
    seed=st.integers(0, 2**32),
    reserve=st.integers(0, 4),
    voluntary=st.booleans(),
    max_draws=st.sampled_from([None, 1, 3]),
    tranque_leads=st.booleans(),
)
def test_rule_options_keep_every_rule(
    game: tuple[str, int], seed: int, reserve: int, voluntary: bool, max_draws: int | None,
    tranque_leads: bool,
) -> None:
    name, players = game
    rules = msgspec.structs.replace(Rules.preset_named(name),
        reserve=reserve, voluntary_draw=voluntary, max_draws_per_turn=max_draws,
        tranque_last_player_leads=tranque_leads, target=80,
    )
    match = play_match(rules, players, seed, views=False)
    assert Match.from_log(match.log()).log() == match.log()


def line_from_events(events: Sequence[Event]) -> tuple[tuple[int, int], ...]:
    """The line of play rebuilt from a round's public events alone (what the engine keeps as it goes)."""
    line: deque[tuple[int, int]] = deque()
    for event in events:
        if isinstance(event, TilePlayed):
            if not line:
                line.append((event.left, event.right))
            elif event.end is End.LEFT:
                line.appendleft((event.left, event.tile.other(event.left)))
            else:
                line.append((event.tile.other(event.right), event.right))
    return tuple(line)


def view_from_the_state(match: Match, seat: int | None, events: Sequence[Event]) -> View:
    """The view ``seat`` should get, field by field, from the engine's state and the round's events."""
    state = match.state
    return View(
        rules=match.rules,
        players=match.players,
        seat=seat,
        round_number=match.round_number,
        hand=() if seat is None else match.tiles.tiles_in(state.hands[seat]),
        line=line_from_events(events),
        ends=None if state.left < 0 else (state.left, state.right),
        hand_counts=tuple(hand.bit_count() for hand in state.hands),
        boneyard=len(state.stock) - state.stock_pos,
        drawable=state.drawable,
        turn=match.turn,
        leader=match.leader,
        forced_lead=None if state.forced_lead < 0 else match.tiles.tiles[state.forced_lead],
        draws_this_turn=state.draws_this_turn,
        scores=tuple(match.scores),
        target=match.target,
        legal=match.legal_actions() if seat is not None and seat == match.turn else (),
        events=tuple(events),
        results=tuple(match.results),
        winner=match.winner,
    )


@settings(max_examples=60)
@given(game=st.sampled_from(GAMES), seed=st.integers(0, 2**32), pause=st.booleans())
def test_views_kept_move_by_move_are_what_the_state_and_the_events_say(
    game: tuple[str, int], seed: int, pause: bool
) -> None:
    name, players = game
    rng = random.Random(seed)
    match = Match(Rules.preset_named(name), players, seed, pause_between_rounds=pause)
    events: list[Event] = list(match.opening_events)
    while len(match.results) < 2 and not match.is_over:
        if match.awaiting_deal:
            happened = match.deal_next_round()
        else:
            legal = match.legal_actions()
            if legal == (PASS,):
                check_round_not_blocked(match)
            happened = match.apply(rng.choice(legal))
        for event in happened:
            events = [event] if isinstance(event, RoundStarted) else [*events, event]
        # Some seats look at every position, one now and then: a hand it missed is made again.
        for seat in [None, 0, *(range(1, players) if rng.random() < 0.3 else ())]:
            assert match.view(seat) == view_from_the_state(match, seat, events)
