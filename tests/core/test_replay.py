"""core/replay.py: every position of a finished match, from its log."""

from __future__ import annotations

import random

import pytest
from capicu.core import Rules
from capicu.core.games import new_match
from capicu.core.mexican.match import MexicanMatch
from capicu.core.replay import replay
from capicu.core.rules import ALL_PRESET_NAMES
from hypothesis import given, settings
from hypothesis import strategies as st


def _played(name: str, players: int, seed: int, *, pause: bool = True) -> object:
    match = new_match(Rules.preset_named(name), players, seed, pause_between_rounds=pause)
    rng = random.Random(seed)
    while not match.is_over:
        if match.awaiting_deal:
            match.deal_next_round()
        else:
            match.apply(rng.choice(match.legal_actions()))
    return match


@pytest.mark.parametrize("name", ALL_PRESET_NAMES)
def test_the_last_position_is_the_match_as_it_ended(name: str) -> None:
    rules = Rules.preset_named(name)
    players = rules.max_players
    match = _played(name, players, seed=4)
    positions = replay(match.log()).positions
    # One position per entry of the log, in order.
    assert [p.number for p in positions] == list(range(1, match.entry_count + 1))
    final = positions[-1].board
    assert final.match_over
    assert final == match.view(0)
    assert [p.views[1] for p in positions[-1:]] == [match.view(1)]


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10_000), pause=st.booleans())
def test_each_actor_saw_its_own_hand_and_was_on_turn(seed: int, pause: bool) -> None:
    match = _played("drawing-game", 4, seed, pause=pause)
    found = replay(match.log())
    for position in found.positions:
        if position.action is None:
            assert position.seat is None and position.before is None
            continue
        before = position.before
        assert before is not None and before.seat == position.seat
        # The seat's own view before it acted offered what it then did.
        assert position.action in before.legal
        # Every view after the entry is its seat's own.
        assert [v.seat for v in position.views] == list(range(4))


def test_rounds_start_at_their_deals_and_decisions_are_the_seats_own() -> None:
    match = _played("drawing-game", 3, seed=9)
    found = replay(match.log())
    starts = found.round_starts()
    assert len(starts) == len(match.results)
    assert all(found.positions[i].action is None for i in starts)
    assert [found.positions[i].round_number for i in starts] == list(range(1, len(starts) + 1))
    for seat in range(3):
        assert all(found.positions[i].seat == seat for i in found.decisions_of(seat))


def test_a_mexican_train_replay_shows_every_hand() -> None:
    match = _played("mexican-train", 4, seed=2)
    assert isinstance(match, MexicanMatch)
    found = replay(match.log())
    first = found.positions[0]
    assert first.action is None and first.round_number == 1
    size = match.rules.hand_size(4)
    holder = first.views[0].engine_holder  # who was dealt the engine has laid it
    assert [len(v.hand) for v in first.views] == [size - (seat == holder) for seat in range(4)]


def test_a_damaged_log_is_refused() -> None:
    log = _played("draw", 2, seed=1).log()
    log["entries"] = [*log["entries"][:3], "play 9-9 left", *log["entries"][3:]]
    with pytest.raises(ValueError, match="entry 4"):
        replay(log)
