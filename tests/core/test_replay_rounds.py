"""core/replay.py: each round's end is a position of its own, whether the match paused between rounds
or dealt the next round at once (a match of computer players), and the next deal is the entry after it."""

from __future__ import annotations

import pytest
from capicu.core import RoundEnded, Rules, make_player
from capicu.core.ai.mexican_players import make_mexican_player
from capicu.core.games import new_match
from capicu.core.mexican.events import MexicanRoundEnded
from capicu.core.mexican.view import MexicanView
from capicu.core.replay import replay


def _log(preset: str, players: int, *, pause: bool) -> dict[str, object]:
    match = new_match(Rules.preset_named(preset), players, 4, pause_between_rounds=pause)
    train = isinstance(match.view(0), MexicanView)
    bots = [(make_mexican_player if train else make_player)("easy", seat) for seat in range(players)]
    while not match.is_over:
        if match.awaiting_deal:
            match.deal_next_round()
            continue
        seat = match.turn
        assert seat is not None
        match.apply(bots[seat].choose(match.view(seat)), seat)
    return match.log()


@pytest.mark.parametrize("pause", [False, True])
@pytest.mark.parametrize(("preset", "players"), [("puerto-rican-drawing", 3), ("mexican-train", 3)])
def test_every_round_ends_on_a_position_of_its_own(preset: str, players: int, pause: bool) -> None:
    log = _log(preset, players, pause=pause)
    positions = replay(log).positions
    assert len(positions) == len(log["entries"])  # type: ignore[arg-type]
    starts = replay(log).round_starts()
    assert len(starts) >= 2
    ended = RoundEnded | MexicanRoundEnded
    for number, start in enumerate(starts, 1):
        deal = positions[start]
        assert deal.action is None and deal.round_number == number
        last = positions[start - 1] if start else None
        if last is not None:
            # The finished table: nobody on turn, the round's end in its events, its hands left.
            assert last.round_number == number - 1
            assert last.board.turn is None
            assert any(isinstance(event, ended) for event in last.board.events)
    assert positions[-1].board.match_over
