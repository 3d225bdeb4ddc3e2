"""The pure parts of the host: text cleaning, timers given ``now``, the journal file."""

from __future__ import annotations

import asyncio
import json
import re
import unicodedata
import zlib

import msgspec
import pytest
from capicu.core import Match, Rules
from capicu.net import wire
from capicu.net.host.sanitize import MARKS_PER_LETTER, clean_text, names_look_alike
from capicu.net.host.timing import Deadlines, Liveness, TokenBucket, Wake
from capicu.net.protocol import ErrorCode, ProtocolError, SeatKind, clean_name
from capicu.net.store.journal import (
    Header,
    Journal,
    JournalError,
    JournalSeat,
    SeatsRecord,
    encode_record,
    entry_records,
    read_journal,
)


@pytest.mark.parametrize(
    ("raw", "clean"),
    [
        ("Ana", "Ana"),
        ("\x1b[31mred\x1b[0m", "red"),
        ("title\x1b]0;pwned\x07!", "title!"),
        ("osc\x1b]8;;http://x\x1b\\link", "osclink"),
        ("c1\x9b2Jcsi", "c1csi"),
        ("bell\x07null\x00del\x7f", "bellnulldel"),
        ("two\nlines\r\nand\ttabs", "two lines and tabs"),
        ("bidi \u202eevil\u202c \u2066iso\u2069", "bidi evil iso"),
        ("ñandú café ¡capicú!", "ñandú café ¡capicú!"),
        ("   spaced   out   ", "spaced out"),
        ("\x1b", ""),
    ],
)
def test_clean_text_removes_control_and_escape_sequences(raw, clean):
    assert clean_text(raw, limit=100) == clean


def test_clean_text_limits_length_and_names_need_a_visible_character():
    assert clean_text("x" * 500, limit=10) == "x" * 10
    with pytest.raises(ProtocolError) as caught:
        clean_name("\x1b[2J\u202e  ")
    assert caught.value.code is ErrorCode.BAD_NAME


def test_marks_piled_on_one_letter_are_cut_to_what_a_writing_system_needs():
    zalgo = "a" + "\u0301\u0316\u0317\u0318\u0319\u031a\u031b\u031c" * 3  # one letter, 24 marks
    cleaned = clean_name(zalgo)
    assert len(cleaned) <= 1 + MARKS_PER_LETTER and cleaned[0] in "a\u00e1"  # NFKC may compose a mark in
    assert sum(unicodedata.category(c) == "Mn" for c in cleaned) == MARKS_PER_LETTER
    assert len(clean_text("Z" + "\u0336" * 23 + "oe", limit=100)) == 1 + MARKS_PER_LETTER + 2
    # Names that need marks keep them: Vietnamese stacks two on a letter, Thai a vowel and a tone.
    for name in ("Nguye\u0302\u0303n", "\u0e01\u0e34\u0e48\u0e07", "Ti\u1ebfn", "Jos\u00e9"):
        assert clean_name(name) == unicodedata.normalize("NFKC", name)


@pytest.mark.parametrize(
    ("first", "second", "alike"),
    [
        ("Observer", "\u041ebserver", True),  # a Cyrillic capital O
        ("observer", "\u041ebserver", True),
        ("Ana", "\u0391n\u0430", True),  # a Greek capital alpha and a Cyrillic a
        ("pepe", "\u0440\u0435\u0440\u0435", True),  # all Cyrillic
        ("Ana", "ANA", True),
        ("\uff21na", "ana", True),  # full-width A
        ("Jose", "Jos\u00e9", False),
        ("Ana", "Ano", False),
        ("Ana", "\u0391n\u0430s", False),
        ("Al", "AI", False),  # plain ASCII: a terminal's font tells l from I
    ],
)
def test_names_that_look_alike_on_a_screen_are_one_name(first, second, alike):
    assert names_look_alike(first, second) is alike
    assert names_look_alike(second, first) is alike


def test_token_bucket():
    bucket = TokenBucket(rate=2, burst=3, now=0.0)
    assert [bucket.take(0.0) for _ in range(4)] == [True, True, True, False]
    assert bucket.take(0.5)
    assert not bucket.take(0.5)
    assert bucket.take(100.0)


def test_liveness_handshake_heartbeat_and_idle():
    live = Liveness(0.0, handshake=5, heartbeat=10, idle=30)
    assert live.deadline() == 5
    live.heard(4.0)  # before the hello, nothing buys more time
    assert live.deadline() == 5
    assert live.wake(4.9) is Wake.NOTHING
    assert live.wake(5.0) is Wake.CLOSE
    live.handshake_done(1.0)
    assert live.deadline() == 11
    assert live.wake(11.0) is Wake.PING
    assert live.deadline() == 21
    live.heard(15.0)
    assert live.deadline() == 25
    assert live.wake(25.0) is Wake.PING
    assert live.wake(35.0) is Wake.PING
    assert live.wake(45.0) is Wake.CLOSE


def test_deadlines():
    deadlines: Deadlines[str] = Deadlines()
    assert deadlines.next() is None
    deadlines.set("grace", 5.0)
    deadlines.set("turn", 3.0)
    assert deadlines.next() == 3.0
    assert deadlines.pop_due(2.0) == []
    assert deadlines.pop_due(6.0) == ["turn", "grace"]
    deadlines.set("x", 1.0)
    deadlines.cancel("x")
    assert deadlines.next() is None
    # A deadline moved, later or earlier, is where it was last set, and comes once.
    deadlines.set("peer", 1.0)
    deadlines.set("peer", 4.0)
    assert deadlines.next() == 4.0 and deadlines.pop_due(3.0) == []
    deadlines.set("peer", 2.0)
    deadlines.set("peer", 2.0)
    assert deadlines.pop_due(5.0) == ["peer"] and deadlines.next() is None and len(deadlines) == 0
    for n in range(1000):  # moved often, its heap stays small
        deadlines.set("busy", float(n))
    assert len(deadlines._heap) < 200


def _header(match: Match) -> Header:
    log = match.log()
    return Header(log_format=log["format"], rules=log["rules"], players=2, seed=match.seed, seq=1,
                  table="main", match="m1", computer_level="normal",
                  seats=(JournalSeat(SeatKind.PERSON, "Ana", "t", "K"), JournalSeat(SeatKind.COMPUTER, "Bo")))


async def _write_journal(path, actions: int) -> Match:
    match = Match(Rules.preset_named("puerto-rican-drawing"), 2, seed=11)
    journal = Journal(path)
    # The table's own path: the header, then the entries as they are made (net/host/table.py).
    await journal.write([_header(match), *entry_records(match.log()["entries"], 1)])
    done = len(match.log()["entries"])
    futures = []
    for _ in range(actions):
        match.apply(match.legal_actions()[0])
        entries = match.log()["entries"]
        futures.append(journal.write(entry_records(entries[done:], done)))
        done = len(entries)
    await asyncio.wait_for(asyncio.gather(*futures), 10)
    await journal.close()
    return match


async def test_a_journal_replays_to_the_same_match(tmp_path):
    path = tmp_path / "match.journal"
    match = await _write_journal(path, 12)
    recovered = read_journal(path)
    assert recovered.damage is None
    assert Match.from_log(recovered.match_log()).log() == match.log()
    assert oct(path.stat().st_mode & 0o777) == "0o600"


async def test_a_cut_journal_is_recovered_up_to_its_last_whole_record(tmp_path):
    path = tmp_path / "match.journal"
    match = await _write_journal(path, 12)
    data = path.read_bytes()
    path.write_bytes(data[:-5])
    recovered = read_journal(path)
    assert "cut short" in (recovered.damage or "")
    whole = Match.from_log(recovered.match_log())
    # Every action but the last one cut short (an action is an entry in its text form).
    actions = [entry for entry in match.log()["entries"] if isinstance(entry, str)]
    assert [entry for entry in whole.log()["entries"] if isinstance(entry, str)] == actions[:11]
    journal = Journal.reopen(path, recovered)
    await journal.close()
    assert read_journal(path).damage is None


def _damage(line: bytes) -> bytes:
    return line[:12] + (b"#" if line[12:13] != b"#" else b"@") + line[13:]


async def test_a_damaged_last_record_ends_the_recovery_there(tmp_path):
    path = tmp_path / "match.journal"
    await _write_journal(path, 12)
    lines = path.read_bytes().split(b"\n")
    last = len(lines) - 2  # the file ends with a newline: the last item is empty
    lines[last] = _damage(lines[last])
    path.write_bytes(b"\n".join(lines))
    recovered = read_journal(path)
    assert f"line {last + 1} is damaged" in (recovered.damage or "")
    assert len(recovered.entries) == last - 1


async def test_a_damaged_record_followed_by_good_ones_is_refused_and_left_alone(tmp_path):
    # A crash cuts only the last line: 12 good lines after a bad one were not lost
    # by a crash, and resuming at the bad line would overwrite what clients were told.
    path = tmp_path / "match.journal"
    await _write_journal(path, 22)
    lines = path.read_bytes().split(b"\n")
    assert len(lines) - 1 == 25
    lines[12] = _damage(lines[12])
    path.write_bytes(b"\n".join(lines))
    before = path.read_bytes()
    with pytest.raises(JournalError, match="line 13 is damaged and good lines follow it"):
        read_journal(path)
    assert path.read_bytes() == before


def test_not_a_journal(tmp_path):
    path = tmp_path / "nothing"
    path.write_bytes(b"hello\n")
    with pytest.raises(JournalError, match="no readable journal header"):
        read_journal(path)
    with pytest.raises(JournalError, match="cannot read"):
        read_journal(tmp_path / "missing")


async def test_records_queued_during_one_fsync_share_the_next(tmp_path):
    class CountingJournal(Journal):
        syncs = 0

        def _write_sync(self, data: bytes) -> None:
            CountingJournal.syncs += 1
            super()._write_sync(data)

    match = Match(Rules.preset_named("puerto-rican-drawing"), 2, seed=3)
    journal = CountingJournal(tmp_path / "j")
    futures = [journal.write([_header(match), *entry_records(match.log()["entries"], 1)])]
    for n in range(40):
        futures.append(journal.write(entry_records([f"note {n}"], n)))
    await asyncio.wait_for(asyncio.gather(*futures), 10)
    await journal.close()
    assert CountingJournal.syncs < 41
    assert [e for e in read_journal(tmp_path / "j").entries if isinstance(e, str)] == [
        f"note {n}" for n in range(40)
    ]


def _line(record: dict) -> bytes:
    """A journal line as the host before msgspec wrote it (json, ASCII only)."""
    text = json.dumps(record, separators=(",", ":"), ensure_ascii=True)
    return f"{zlib.crc32(text.encode()):08x} {text}\n".encode()


def test_the_journals_records_round_trip_through_their_declarations(tmp_path):
    match = Match(Rules.preset_named("quinientos"), 4, seed=5)
    for _ in range(9):
        match.apply(match.legal_actions()[0])
    people = (JournalSeat(SeatKind.PERSON, "Añá", "t", "K"),
              *(JournalSeat(SeatKind.COMPUTER, f"c{i}") for i in range(3)))
    header = msgspec.structs.replace(_header(match), rules=match.rules, players=4, seed=5, seats=people)
    seats = SeatsRecord((JournalSeat(SeatKind.OPEN),) * 4)
    entries = entry_records(match.log()["entries"], 9)
    path = tmp_path / "j"
    path.write_bytes(b"".join(encode_record(r) for r in (header, seats, *entries)))
    recovered = read_journal(path)
    assert recovered.header == msgspec.structs.replace(header, seats=seats.seats)
    assert recovered.entries == match.log()["entries"] and recovered.seq == 9
    assert Match.from_log(recovered.match_log()).log() == match.log()
    for record in (header, seats, *entries):
        line = encode_record(record)
        assert wire.read(msgspec.json.decode(line[9:]), type(record)) == record
        assert encode_record(wire.read(msgspec.json.decode(line[9:]), type(record))) == line


def test_a_journal_written_before_msgspec_reads_the_same(tmp_path):
    match = Match(Rules.preset_named("puerto-rican-drawing"), 2, seed=4)
    match.apply(match.legal_actions()[0])
    log = match.log()
    old_header = {
        "format": "capicu-journal/1", "log_format": log["format"], "rules": wire.plain(log["rules"]),
        "players": 2, "seed": 4, "seq": 0, "table": "main", "match": "m9", "computer_level": "normal",
        "seats": [{"kind": "person", "name": "Ñandú", "token": "t", "key": "K"},
                  {"kind": "computer", "name": "Bo", "token": None, "key": None}],
    }
    path = tmp_path / "old"
    path.write_bytes(_line(old_header) + b"".join(_line({"entry": e, "seq": 2}) for e in log["entries"]))
    recovered = read_journal(path)
    assert recovered.header.seats[0].name == "Ñandú" and not recovered.header.pause_between_rounds
    assert Match.from_log(recovered.match_log()).log() == log
    # An older host's header without the table's name, match id and level reads too.
    older = {k: v for k, v in old_header.items() if k not in ("table", "match", "computer_level")}
    path.write_bytes(_line(older) + b"".join(_line({"entry": e, "seq": 2}) for e in log["entries"]))
    header = read_journal(path).header
    assert (header.table, header.match, header.computer_level) == (None, "", None)


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"players": "two"}, "line 1 is not a journal record: record.players must be a whole number"),
        ({"seats": [{"kind": "sofa"}]}, "record.seats[0].kind must be one of its values, not 'sofa'"),
        ({"rules": {"target": 0}}, "record.rules: the target must be a positive whole number"),
        ({"seed": None}, "record.seed must be a whole number"),
    ],
)
def test_a_journal_header_that_breaks_its_declaration_is_refused_naming_the_field(tmp_path, change, words):
    header = {**wire.plain(_header(Match(Rules(), 2, seed=1))), **change}
    path = tmp_path / "bad"
    path.write_bytes(_line(header))
    with pytest.raises(JournalError, match=re.escape(words)):
        read_journal(path)


def test_a_journal_entry_that_is_no_entry_is_refused_naming_its_line(tmp_path):
    path = tmp_path / "bad"
    path.write_bytes(_line(wire.plain(_header(Match(Rules(), 2, seed=1)))) + _line({"entry": 5, "seq": 1}))
    with pytest.raises(JournalError, match=r"line 2 is not a journal record: "
                       r"record\.entry must be a text or a map"):
        read_journal(path)
