"""The match record (net/record.py): made only of a finished match, the same bytes every time,
refused with one sentence when damaged, and replayed to the scores it states, for every preset."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import msgpack
import msgspec
import pytest
from capicu.core import Rules, make_player, new_match
from capicu.core.ai.train_players import make_train_player
from capicu.core.mexican import match_from_log
from capicu.core.replay import replay
from capicu.core.rules import ALL_PRESET_NAMES
from capicu.net.record import (
    RECORD_FORMAT,
    RECORD_VERSION,
    MatchRecord,
    RecordError,
    RecordSeat,
    decode_record,
    encode_record,
    list_records,
    read_record,
    record_of,
    write_record,
)
from hypothesis import given
from hypothesis import strategies as st

STARTED = datetime(2026, 12, 1, 17, 2, 0, tzinfo=UTC)
ENDED = datetime(2026, 12, 1, 17, 41, 9, tzinfo=UTC)


def played(rules: Rules, players: int, seed: int = 3, *, stop_after: int | None = None):
    """A match of ``rules`` played by normal computer players (``stop_after`` actions at most)."""
    match = new_match(rules, players, seed, pause_between_rounds=True)
    make = make_train_player if rules.is_mexican_train else make_player
    chooser = [make("normal", seed * 10 + seat) for seat in range(players)]
    actions = 0
    while not match.is_over and (stop_after is None or actions < stop_after):
        if match.awaiting_deal:
            match.deal_next_round()
            continue
        seat = match.turn
        match.apply(chooser[seat].choose(match.view(seat)), seat)
        actions += 1
    return match


def seats_for(players: int) -> list[RecordSeat]:
    return [RecordSeat("Ana", "person")] + [
        RecordSeat(f"Computer {seat + 1}", "computer", "normal") for seat in range(1, players)
    ]


def record_for(rules: Rules, players: int, seed: int = 3, match_id: str = "m4tch-Id_1") -> MatchRecord:
    match = played(rules, players, seed)
    return record_of(match, seats_for(players), match_id=match_id, started=STARTED, ended=ENDED)


@pytest.fixture(scope="module")
def record() -> MatchRecord:
    return record_for(Rules.preset_named("puerto-rican-drawing"), 2)


HOUSE_RULES = msgspec.structs.replace(
    Rules.preset_named("puerto-rican-drawing"), wild_blanks=True, draw_several=2, redeal_on_doubles=True,
    max_players=4,
)


# -- made only of a finished match -----------------------------------------------------


def test_an_unfinished_match_is_never_recorded():
    match = played(Rules.preset_named("puerto-rican-drawing"), 2, stop_after=10)
    assert not match.is_over
    with pytest.raises(ValueError, match="only once it is over"):
        record_of(match, seats_for(2), match_id="x", started=STARTED, ended=ENDED)


def test_a_record_says_who_played_when_and_how_it_ended(record):
    assert record.format == RECORD_FORMAT and record.version == RECORD_VERSION
    assert record.names == ("Ana", "Computer 2")
    assert record.started == "2026-12-01T17:02:00Z" and record.ended == "2026-12-01T17:41:09Z"
    assert record.preset == "puerto-rican-drawing"
    match = match_from_log(record.match_log())
    assert record.totals == tuple(match.scores)
    assert record.winners == (match.winner,)
    assert max(record.totals) >= match.target and record.total_of(record.winners[0]) == max(record.totals)
    assert record.winner_names == (record.names[match.winner],)


# -- bytes -------------------------------------------------------------------------------


def test_a_record_round_trips_and_its_bytes_are_stable(record):
    data = encode_record(record)
    again = decode_record(data)
    assert again == record
    assert encode_record(again) == data
    # The same match recorded again gives the same bytes.
    assert encode_record(record_for(Rules.preset_named("puerto-rican-drawing"), 2)) == data


def test_a_record_is_readable_with_msgpack_alone(record):
    plain = msgpack.unpackb(encode_record(record))
    assert list(plain)[:2] == ["format", "version"]
    assert plain["format"] == "capicu-record" and plain["version"] == 1
    assert plain["log"]["rules"]["preset"] == "puerto-rican-drawing"
    assert plain["log"]["entries"][0]["deal"]  # the first deal: the order of the whole set
    assert all(isinstance(e, str) for e in plain["log"]["entries"] if not isinstance(e, dict))
    assert [seat["name"] for seat in plain["seats"]] == ["Ana", "Computer 2"]
