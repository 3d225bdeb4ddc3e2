"""Fives and Threes' properties over many seeded matches: every option, every player count.

At every step: the points scored are a recomputation from the line (docs/RULES.md's
table of the ends' total), every tile is in one place, no view names a tile its seat
may not see, and the log replays to the same match.
"""

from __future__ import annotations

import contextlib
import itertools
import random
from typing import Any

import msgspec
from capicu.core import Action, Tile, parse_action, tile_set
from capicu.core.fives import (
    FIVES_AND_THREES,
    FivesMatch,
    FivesMatchEnded,
    FivesOutcome,
    FivesRoundEnded,
    FivesRules,
    FivesTilePlayed,
    FivesView,
    line_total,
    points_for,
)
from hypothesis import given, settings
from hypothesis import strategies as st
from msgspec.structs import replace

WHOLE_SET = frozenset(tile_set(6).tiles)


def rules_of(drawing: bool, partnerships: bool, league: bool, exact: bool, target: int) -> FivesRules:
    return replace(FIVES_AND_THREES, drawing=drawing, partnerships=partnerships, league_deal=league,
                   exact_finish=exact, target=target)


def plain(view: FivesView) -> Any:
    """The view as plain data, tiles and actions as their text (as a wire would write them)."""
    encoded = msgspec.json.encode(view, enc_hook=lambda value: str(value) if isinstance(value, Tile | Action)
                                  else repr(value))
    return msgspec.json.decode(encoded)


def named_tiles(data: Any) -> set[Tile]:
    """Every tile written anywhere in plain data."""
    found: set[Tile] = set()
    if isinstance(data, str):
        with contextlib.suppress(ValueError, IndexError):
            found.add(Tile.parse(data.split()[1] if data.startswith("play ") else data))
    elif isinstance(data, dict):
        for value in data.values():
            found |= named_tiles(value)
    elif isinstance(data, list):
        for value in data:
            found |= named_tiles(value)
    return found


def check_views(match: FivesMatch) -> None:
    """No view names a tile in another hand or set aside; a seat's hand is its own."""
    state = match.state
    tiles = match.tiles
    for seat in [None, *range(match.players)]:
        view = match.view(seat)
        data = plain(view)
        data.pop("results")
        # Once a hand is over its end shows every hand: only a hand in play hides anything.
        if any(isinstance(e, FivesRoundEnded) for e in view.events):
            continue
        laid = {Tile(a, b) for a, b in view.line}
        own = set(view.hand)
        secret = {tiles.tiles[t] for t in state.stock[state.stock_pos:]}
        for other, hand in enumerate(state.hands):
            if other != seat:
                secret |= set(tiles.tiles_in(hand))
        visible = named_tiles(data)
        assert not visible & secret, f"seat {seat} sees {visible & secret}"
        assert visible <= own | laid
        assert own == (set() if seat is None else set(tiles.tiles_in(state.hands[seat])))


def check_tiles(match: FivesMatch) -> None:
    """Every tile of the set is in exactly one place: a hand, the line, or set aside."""
    state = match.state
    tiles = match.tiles
    view = match.view(None)
    laid = [Tile(a, b) for a, b in view.line]
    held = [t for hand in state.hands for t in tiles.tiles_in(hand)]
    aside = [tiles.tiles[t] for t in state.stock[state.stock_pos:]]
    everywhere = laid + held + aside
    assert len(everywhere) == 28 and set(everywhere) == WHOLE_SET
    assert list(view.hand_counts) == [hand.bit_count() for hand in state.hands]
    assert view.set_aside == len(aside)
    if view.line:
        assert (view.line[0][0], view.line[-1][1]) == view.ends
        for (_, right), (left, _) in itertools.pairwise(view.line):
            assert right == left


def check_points(match: FivesMatch, events: tuple[Any, ...], counted: list[int]) -> None:
    """Each play's total and points, recomputed from the line; the scores, from the points counted."""
    rules = match.rules
    for event in events:
        if isinstance(event, FivesTilePlayed):
            line = match.view(None).line if match.turn is not None or match.is_over else None
            if line is not None and not any(isinstance(e, FivesRoundEnded) for e in events):
                assert event.total == line_total(line) == match.view(None).total
            assert event.points == points_for(event.total)
            side = rules.side_of(event.seat, match.players)
            if event.scored:
                assert event.scored == event.points
                counted[side] += event.scored
            else:
                passes = counted[side] + event.points > match.target
                assert not event.points or (rules.exact_finish and passes)
        elif isinstance(event, FivesRoundEnded):
            result = event.result
            if result.go_side is not None:
                counted[result.go_side] += result.go
                assert result.reason is FivesOutcome.CHIPPED_OUT and not result.hands[result.last_player]
            else:
                assert result.go == 0
            assert list(result.scores) == counted
        elif isinstance(event, FivesMatchEnded):
            assert max(event.scores) >= match.target
            assert event.scores[event.winner] == max(event.scores)
            if rules.exact_finish:
                assert event.scores[event.winner] == match.target
    assert match.scores == counted
    if match.rules.exact_finish:
        assert max(match.scores) <= match.target


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 4), drawing=st.booleans(),
       partnerships=st.booleans(), league=st.booleans(), exact=st.booleans(),
       target=st.sampled_from([61, 31, 121]), pause=st.booleans())
def test_points_tiles_views_and_the_log_at_every_step(
    seed: int, players: int, drawing: bool, partnerships: bool, league: bool, exact: bool, target: int,
    pause: bool,
) -> None:
    rules = rules_of(drawing, partnerships, league, exact, target)
    match = FivesMatch(rules, players, seed, pause_between_rounds=pause)
    rng = random.Random(seed)
    counted = [0] * rules.sides(players)
    check_tiles(match)
    check_views(match)
    steps = 0
    while not match.is_over:
        if match.awaiting_deal:
            events = match.deal_next_round()
        else:
            legal = match.legal_actions()
            assert legal
            events = match.apply(rng.choice(legal), match.turn)
        steps += 1
        check_points(match, events, counted)
        check_tiles(match)
        if steps % 7 == 0 or match.is_over:
            check_views(match)
        if steps % 50 == 0:
            replayed = FivesMatch.from_log(match.log())
            assert replayed.view(0) == match.view(0) and replayed.scores == match.scores
    assert steps < 5000
    replayed = FivesMatch.from_log(msgspec.msgpack.decode(msgspec.msgpack.encode(
        match.log(), enc_hook=msgspec.to_builtins)) | {"rules": rules})
    for seat in range(players):
        assert replayed.view(seat) == match.view(seat)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 4), cut=st.integers(0, 400))
def test_a_log_cut_anywhere_replays_and_goes_on_with_the_seed(seed: int, players: int, cut: int) -> None:
    match = FivesMatch(FIVES_AND_THREES, players, seed)
    rng = random.Random(seed)
    while not match.is_over:
        match.apply(rng.choice(match.legal_actions()))
    log = match.log()
    log["entries"] = log["entries"][:cut]
    replayed = FivesMatch.from_log(log)
    assert replayed.entries_since(0) == match.entries_since(0)[:replayed.entry_count]
    # Going on with the same actions from there gives the same match.
    for entry in match.entries_since(replayed.entry_count):
        if isinstance(entry, dict):
            continue
        replayed.apply(parse_action(entry))
    assert replayed.scores == match.scores and replayed.winner == match.winner
