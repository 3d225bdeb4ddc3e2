"""The match record (net/store/record.py): made only of a finished match, the same bytes every time,
refused with one sentence when damaged, and replayed to the scores it states, for every preset."""

from __future__ import annotations

import contextlib
import os
import threading
from datetime import UTC, datetime
from pathlib import Path

import msgpack
import msgspec
import pytest
from capicu.core import Rules, make_player, new_match
from capicu.core.games import game_of, match_from_log
from capicu.core.replay import replay
from capicu.core.rules import ALL_PRESET_NAMES
from capicu.net.store.record import (
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
    chooser = [game_of(rules).make_player("normal", seed * 10 + seat) for seat in range(players)]
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


# -- damaged and hostile records ----------------------------------------------------------


def _plain(record: MatchRecord) -> dict:
    return msgpack.unpackb(encode_record(record))


def _packed(value: object) -> bytes:
    return msgpack.packb(value, use_bin_type=True)


def _refused(data: bytes) -> str:
    with pytest.raises(RecordError) as refused:
        decode_record(data)
    sentence = str(refused.value)
    # One sentence: no line break, no trace of the libraries underneath.
    assert sentence and "\n" not in sentence and "msgspec" not in sentence and "Traceback" not in sentence
    return sentence


def test_a_record_cut_short_anywhere_is_refused_saying_so(record):
    data = encode_record(record)
    for cut in (1, 2, 10, len(data) // 3, len(data) // 2, len(data) - 1):
        assert "cut short" in _refused(data[:cut]), cut
    assert "empty" in _refused(b"")


def test_flipped_bytes_never_pass_as_another_record(record):
    data = encode_record(record)
    flips = 0
    for at in range(0, len(data), max(1, len(data) // 200)):
        damaged = bytearray(data)
        damaged[at] ^= 0x55
        try:
            again = decode_record(bytes(damaged))
        except RecordError:
            flips += 1
            continue
        # A flip that still reads is harmless: a name's letter, a time's digit, a rules key
        # read as its default; never the match.
        assert again.log.entries == record.log.entries and again.rules() == record.rules()
        assert again.totals == record.totals and again.winners == record.winners
    assert flips > 100


def test_what_is_not_a_record_is_refused_as_not_a_record(record):
    assert "not a capicu match record" in _refused(b"\xc1 not msgpack at all")
    assert "not a capicu match record" in _refused(_packed([1, 2, 3]))
    assert "not a capicu match record" in _refused(_packed({"format": "capicu-journal/1", "version": 1}))
    assert "not a capicu match record" in _refused(b"PK\x03\x04" + b"\x00" * 40)  # a zip file
    plain = _plain(record)
    assert "does not say its version" in _refused(_packed({**plain, "version": "1"}))


def test_a_record_of_a_newer_version_is_refused_naming_both_versions(record):
    sentence = _refused(_packed({**_plain(record), "version": 2}))
    assert "newer capicu" in sentence and "version 2" in sentence and "version 1" in sentence


def test_a_record_whose_log_does_not_replay_is_refused(record):
    plain = _plain(record)
    entries = plain["log"]["entries"]
    action = next(i for i, e in enumerate(entries) if isinstance(e, str) and e.startswith("play"))
    bad = {**plain, "log": {**plain["log"], "entries": [*entries[:action], "pass", *entries[action + 1:]]}}
    assert "log does not replay" in _refused(_packed(bad))
    cut = {**plain, "log": {**plain["log"], "entries": entries[: len(entries) // 2]}}
    assert "stops before the match is over" in _refused(_packed(cut))
    nonsense = {**plain, "log": {**plain["log"], "entries": [*entries[:3], "fly 9-9 up", *entries[4:]]}}
    assert "log does not replay" in _refused(_packed(nonsense))


def test_a_record_that_states_other_totals_or_winners_than_its_log_is_refused(record):
    plain = _plain(record)
    swapped = [plain["totals"][1], plain["totals"][0]]
    assert "totals or winners" in _refused(_packed({**plain, "totals": swapped}))
    loser = 1 - plain["winners"][0]
    assert "totals or winners" in _refused(_packed({**plain, "winners": [loser]}))
    assert "preset" in _refused(_packed({**plain, "preset": "draw"}))


def test_a_record_that_breaks_its_declaration_names_the_field(record):
    plain = _plain(record)
    assert "record.seats[0].kind" in _refused(_packed({**plain, "seats": [
        {"name": "Ana", "kind": "robot", "level": None}, plain["seats"][1]]}))
    assert "record.started" in _refused(_packed({**plain, "started": "yesterday"}))
    assert "record.match_id" in _refused(_packed({**plain, "match_id": "../../etc/passwd"}))
    assert "rules cannot be played" in _refused(_packed({**plain, "log": {
        **plain["log"], "rules": {**plain["log"]["rules"], "max_pip": 99}}}))
    assert "seats" in _refused(_packed({**plain, "seats": plain["seats"][:1] * 3}))


@pytest.mark.parametrize("field", ["started", "ended"])
@pytest.mark.parametrize("moment", ["9999-99-99T99:99:99Z", "2026-02-30T10:00:00Z", "2026-12-01T24:00:00Z"])
def test_a_record_whose_times_are_no_real_time_is_refused(record, field, moment):
    refused = _refused(_packed({**_plain(record), field: moment}))
    assert f"record.{field}" in refused and "not a real time" in refused, refused


def test_hostile_shapes_are_refused_within_the_limits():
    too_deep: object = []
    for _ in range(40):
        too_deep = [too_deep]
    assert "nests deeper" in _refused(_packed({"format": "capicu-record", "version": 1, "x": too_deep}))
    assert "binary data" in _refused(_packed({"format": "capicu-record", "version": 1, "x": b"\x00" * 8}))
    assert "extension" in _refused(_packed({"format": "capicu-record", "x": msgpack.ExtType(1, b"x")}))
    huge_list = b"\xdd" + (2**31).to_bytes(4, "big")  # a list that says it holds 2**31 items
    assert "16384" in _refused(b"\x81\xa1x" + huge_list)
    assert "too large" in _refused(b"\x00" * (4 * 1024 * 1024 + 1))
    assert "bytes follow its end" in _refused(encode_record(record_for(Rules(), 2)) + b"\x00")


@given(st.binary(max_size=300))
def test_decoding_any_bytes_raises_nothing_but_a_record_error(data):
    with contextlib.suppress(RecordError):
        decode_record(data)


@given(st.data())
def test_decoding_a_damaged_record_raises_nothing_but_a_record_error(data):
    good = _GOOD_BYTES
    damaged = bytearray(good)
    for _ in range(data.draw(st.integers(1, 8))):
        at = data.draw(st.integers(0, len(damaged) - 1))
        damaged[at] = data.draw(st.integers(0, 255))
    cut = data.draw(st.integers(0, len(damaged)))
    tail = data.draw(st.binary(max_size=8))
    with contextlib.suppress(RecordError):
        decode_record(bytes(damaged[:cut]) + tail)


_GOOD_BYTES = encode_record(record_for(Rules.preset_named("draw"), 2, seed=5))


# -- replay of every preset ---------------------------------------------------------------


@pytest.mark.parametrize("preset", ALL_PRESET_NAMES)
def test_every_preset_replays_from_its_record_to_the_recorded_final_scores(preset):
    rules = Rules.preset_named(preset)
    if rules.is_mexican_train:
        rules = msgspec.structs.replace(rules, rounds=4)  # four rounds of double-twelve: enough here
    players = rules.max_players
    record = decode_record(encode_record(record_for(rules, players, seed=11)))
    assert record.preset == preset and len(record.seats) == players
    positions = replay(record.match_log())
    last = positions.positions[-1].board
    assert positions.match.is_over and last.match_over
    if rules.is_mexican_train:
        assert tuple(last.totals) == record.totals and tuple(last.winners) == record.winners
    else:
        assert tuple(last.scores) == record.totals
        assert record.winners == tuple(s for s in range(players) if rules.side_of(s, players) == last.winner)
    # Each round's end is a position of its own, and then its deal.
    assert len(positions.round_starts()) == len(positions.match.results)


def test_a_house_rules_match_replays_from_its_record():
    from capicu.core import REDEAL
    from helpers_core import crafted_match

    rules = msgspec.structs.replace(HOUSE_RULES, hand_sizes=(7, 7, 7))
    hands = ["6-6 5-6 4-6 3-6 2-6 1-6 0-6", "0-0 1-1 2-2 3-3 4-4 0-1 0-2", "0-3 0-4 0-5 1-2 1-3 1-4 1-5"]
    match = crafted_match(rules, hands)
    match.apply(REDEAL, 1)  # five doubles: seat 1 asks for a new deal
    chooser = [make_player("normal", seat) for seat in range(3)]
    while not match.is_over:
        seat = match.turn
        match.apply(chooser[seat].choose(match.view(seat)), seat)
    log = match.log()
    assert {"redeal": 1} in log["entries"]
    record = decode_record(encode_record(
        record_of(match, seats_for(3), match_id="house", started=STARTED, ended=ENDED)))
    assert record.log.rules["wild_blanks"] is True and record.log.rules["draw_several"] == 2
    assert record.log.rules["redeal_on_doubles"] is True
    final = replay(record.match_log()).positions[-1].board
    assert tuple(final.scores) == record.totals == tuple(match.scores)


# -- files -----------------------------------------------------------------------------------


def test_writing_a_record_twice_keeps_one_file_named_by_its_start_and_id(record, tmp_path):
    folder = tmp_path / "records"
    first = write_record(folder, record)
    assert first.name == "20261201T170200Z-m4tch-Id_1.capicu-record"
    assert write_record(folder, record) == first
    assert [p.name for p in folder.iterdir()] == [first.name]  # no temporary file left either
    assert read_record(first) == record and first.read_bytes() == encode_record(record)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs")
def test_a_fifo_among_the_records_is_no_record_and_is_not_waited_on(record, tmp_path):
    """A FIFO named like a record (nobody writing to it) is listed as no record, at once: opening it used
    to wait for a writer for ever, and the replays' list with it."""
    write_record(tmp_path, record)
    fifo = tmp_path / "x.capicu-record"
    os.mkfifo(fifo)
    problems: list[tuple[str, str]] = []
    found: list[object] = []
    listed = threading.Event()

    def listing() -> None:
        found.extend(list_records(tmp_path, on_problem=lambda path, exc: problems.append((path.name,
                                                                                           str(exc)))))
        listed.set()

    threading.Thread(target=listing, daemon=True).start()
    try:
        assert listed.wait(30), "listing the records waited on the FIFO"
    finally:
        if not listed.is_set():  # a writer lets the stuck reader go
            with contextlib.suppress(OSError):
                os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
    assert len(found) == 1
    assert problems == [("x.capicu-record", f"{fifo} is not a record: it is not a file but a device, a pipe "
                                            "or a folder")]


def test_the_list_of_records_is_newest_first_and_tells_of_the_damaged_ones(record, tmp_path):
    older = msgspec.structs.replace(record, match_id="older", started="2025-01-02T03:04:05Z",
                                    ended="2025-01-02T04:00:00Z")
    write_record(tmp_path, older)
    newest = write_record(tmp_path, record)
    (tmp_path / "broken.capicu-record").write_bytes(encode_record(record)[:100])
    (tmp_path / "notes.txt").write_text("not a record")
    problems: list[tuple[Path, RecordError]] = []
    listed = list_records(tmp_path, on_problem=lambda path, error: problems.append((path, error)))
    assert [r.match_id for _, r in listed] == ["m4tch-Id_1", "older"]
    assert listed[0][0] == newest
    assert [(p.name, "cut short" in str(e)) for p, e in problems] == [("broken.capicu-record", True)]
    assert str(tmp_path / "broken.capicu-record") in str(problems[0][1])  # the file is named
    assert list_records(tmp_path / "nowhere") == []


def test_a_record_that_cannot_be_written_or_read_says_so(record, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(RecordError, match="cannot write the record"):
        write_record(blocker / "records", record)
    with pytest.raises(RecordError, match="cannot read the record"):
        read_record(tmp_path / "missing.capicu-record")


def test_a_quick_read_skips_only_the_replay(record, tmp_path):
    plain = _plain(record)
    lying = _packed({**plain, "totals": [plain["totals"][1], plain["totals"][0]]})
    assert decode_record(lying, replay=False).totals == tuple(reversed(record.totals))
    assert "totals or winners" in _refused(lying)  # read to be opened, it is refused
    (tmp_path / "x.capicu-record").write_bytes(encode_record(record)[:-3])
    assert list_records(tmp_path, replay=False) == []  # what is cut short is still left out


def test_a_mexican_train_record_of_log_version_1_still_replays_or_is_refused_naming_it():
    """Before issue 29 a Mexican Train log said format /1, its rules without the engine's and the
    doubles' options: it replays with the engine set aside and one double a turn; a log those rules
    no longer allow is refused in one sentence naming version 1."""
    rules = msgspec.structs.replace(Rules.preset_named("mexican-train"), rounds=1, engine_set_aside=True,
                                    one_double_a_turn=True)
    plain = _plain(record_for(rules, 3))
    plain["log"]["format"] = "capicu-mexican-train-log/1"
    del plain["log"]["rules"]["engine_set_aside"], plain["log"]["rules"]["one_double_a_turn"]
    old = decode_record(_packed(plain))
    assert old.log.format == "capicu-mexican-train-log/1"
    again = match_from_log(old.match_log())
    assert again.rules.engine_set_aside and again.rules.one_double_a_turn  # type: ignore[attr-defined]
    # Its last action changed to one no version plays: refused, naming the log's version.
    plain["log"]["entries"][-1] = "pass"
    assert "log version 1" in _refused(_packed(plain))
