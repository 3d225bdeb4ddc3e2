"""The simple Mexican Train players and the play-out: legal moves only, matches to the end."""

from __future__ import annotations

import random

import msgspec
import pytest
from capicu.core import Play, Rules, Train, tile_set
from capicu.core.actions import END_RUN
from capicu.core.ai.mexican_players import MexicanEasyPlayer, MexicanNormalPlayer, make_mexican_player
from capicu.core.ai.mexican_playout import moves, play_out_mexican
from capicu.core.mexican.match import MexicanMatch
from capicu.core.mexican.refusals import why_not_mexican

MEXICAN_TRAIN = Rules.preset_named("mexican-train")


def play_match(rules: Rules, levels: list[str], seed: int) -> MexicanMatch:
    match = MexicanMatch(rules, len(levels), seed=seed)
    players = [make_mexican_player(level, seed + seat) for seat, level in enumerate(levels)]
    while not match.is_over:
        seat = match.turn
        assert seat is not None
        view = match.view(seat)
        action = players[seat].choose(view)
        assert why_not_mexican(view, action) is None
        match.apply(action, seat)
    return match


@pytest.mark.parametrize("players", [2, 5, 8])
def test_easy_and_normal_play_whole_matches_with_legal_moves(players: int) -> None:
    levels = ["easy", "normal"] * 4
    match = play_match(MEXICAN_TRAIN, levels[:players], seed=players)
    assert len(match.results) == 13 and match.winners


def test_normal_scores_lower_than_easy() -> None:
    rules = msgspec.structs.replace(MEXICAN_TRAIN, rounds=4)
    normal = easy = 0
    for seed in range(16):
        levels = ["normal", "easy"] if seed % 2 else ["easy", "normal"]
        match = play_match(rules, levels, seed)
        normal += match.totals[levels.index("normal")]
        easy += match.totals[levels.index("easy")]
    assert normal < easy


def test_a_player_with_nothing_to_do_says_so() -> None:
    match = MexicanMatch(MEXICAN_TRAIN, 2, seed=1)
    other = 1 - (match.turn or 0)
    for player in (MexicanEasyPlayer(), MexicanNormalPlayer()):
        with pytest.raises(ValueError):
            player.choose(match.view(other))
    with pytest.raises(ValueError):
        make_mexican_player("expert")


def test_the_play_out_sees_the_same_plays_as_the_engine() -> None:
    for seed in range(12):
        rules = msgspec.structs.replace(MEXICAN_TRAIN, cover_doubles=seed % 2 == 0)
        match = MexicanMatch(rules, 4, seed=seed)
        rng = random.Random(seed)
        while not match.is_over:
            options, count = moves(match.state)
            seen = {(train, i) for train, mask in options for i in range(91) if mask >> i & 1}
            tiles = tile_set(12)
            listed = set()
            for action in match.legal_actions():
                if isinstance(action, Play):
                    assert isinstance(action.place, Train)
                    train = 4 if action.place.owner < 0 else action.place.owner
                    listed.add((train, tiles.index[action.tile]))
            assert seen == listed and count == len(listed)
            assert match.state.playable() == sum(1 << i for i in {i for _, i in seen})
            if END_RUN in match.legal_actions():
                assert match.state.running
            match.apply(rng.choice(match.legal_actions()))


def test_play_outs_finish_rounds_and_keep_every_tile() -> None:
    rng = random.Random(7)
    for seed in range(30):
        match = MexicanMatch(MEXICAN_TRAIN, 2 + seed % 7, seed=seed)
        state = match.state.copy()
        before = sorted(bin(h).count("1") for h in state.hands)
        play_out_mexican(state, rng)
        assert state.outcome is not None
        laid = sum(state.lengths)
        held = sum(h.bit_count() for h in state.hands)
        assert laid + held + len(state.stock) - state.stock_pos == 90
        # The copy was played out, not the match's own round.
        assert sorted(bin(h).count("1") for h in match.state.hands) == before
