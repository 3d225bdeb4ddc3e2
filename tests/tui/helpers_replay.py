"""Helpers for the replay's tests: finished matches of computer players, kept as records."""

from __future__ import annotations

from pathlib import Path

import msgspec
from capicu.core import Rules
from capicu.core.games import game_of
from capicu.core.rules import Game
from capicu.net.store.record import MatchRecord, RecordSeat, record_of, write_record

NAMES = ("Ana", "Beto", "Carmen", "Dani", "Eva", "Fede", "Gabi", "Hugo")
#: 2026-09-21 14:13:20 UTC: the first record's start.
START = 1_790_000_000


def finished_record(preset: str, players: int, *, seed: int = 1, started: int = START) -> MatchRecord:
    """A whole match of computer players (Ana a person, the others computers), as its record."""
    rules = Rules.preset_named(preset)
    if rules.game is Game.MEXICAN_TRAIN:  # as the records were kept before issue 29 (their snapshots)
        rules = msgspec.structs.replace(rules, engine_set_aside=True, one_double_a_turn=True)
    game = game_of(rules)
    match = game.new_match(rules, players, seed)
    bots = [game.make_player("normal", seed * 10 + seat) for seat in range(players)]
    while not match.is_over:
        seat = match.turn
        assert seat is not None
        match.apply(bots[seat].choose(match.view(seat)), seat)
    seats = [RecordSeat(NAMES[0], "person"),
             *(RecordSeat(NAMES[seat], "computer", "normal") for seat in range(1, players))]
    return record_of(match, seats, match_id=f"{preset}-{seed}", started=started, ended=started + 1200)


def keep(folder: Path, preset: str, players: int, *, seed: int = 1, started: int = START) -> Path:
    """Write the record of such a match into ``folder``; its path."""
    return write_record(folder, finished_record(preset, players, seed=seed, started=started))
