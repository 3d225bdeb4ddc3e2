"""The folder of match journals: naming, the unfinished ones offered, and the bounds on the finished ones."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest
from capicu.core import Match, Rules, make_player
from capicu.net import Host, HostConfig, Limits, TableConfig
from capicu.net.protocol import SeatKind
from capicu.net.store.journal import Header, JournalSeat, encode_record, entry_records, read_journal
from capicu.net.store.journals import JournalFolder, JournalKind, JournalLock, summarize

from ..conftest import LOOPBACK, WAIT, play_bot

RULES = Rules.preset_named("puerto-rican-drawing")


def _journal(path: Path, *, moves: int = 0, finish: bool = False,
             names: tuple[str, ...] = ("Ana", "Beto")) -> Path:
    """A journal as a host writes it: a header, then the match's entries (``finish``: to its end)."""
    match = Match(RULES, 2, 7)
    player = make_player("greedy", 1)
    played = 0
    while not match.is_over and (finish or played < moves):
        match.apply(player.choose(match.view(match.turn)))
        played += 1
    log = match.log()
    seats = tuple(JournalSeat(SeatKind.PERSON, name, f"t{i}") for i, name in enumerate(names))
    header = Header(log_format=log["format"], rules=RULES, players=2, seed=7, table="main", match="m1",
                    seats=seats)
    entries = b"".join(encode_record(record) for record in entry_records(log["entries"], 0))
    data = encode_record(header) + entries
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return path


@pytest.mark.parametrize(("tail", "lines"), [
    (b"", 0),                                  # a whole journal: nothing dropped
    (b"cut sho", 1),                           # its last line cut short
    (b"0badc0de {}\n", 1),                     # its last line damaged
    (b"0badc0de {}\n\nnothing good\nhal", 4),  # damaged, and nothing good after it
])
def test_a_journal_read_counts_the_lines_it_dropped(tmp_path: Path, tail: bytes, lines: int) -> None:
    path = _journal(tmp_path / "m.journal", moves=3)
    whole = read_journal(path)
    path.write_bytes(path.read_bytes() + tail)
    recovered = read_journal(path)
    assert (recovered.dropped_lines, recovered.dropped_bytes) == (lines, len(tail))
    assert (recovered.dropped_line is None) is (not tail) and (recovered.damage is None) is (not tail)
    assert recovered.entries == whole.entries and recovered.good_size == whole.good_size


def test_a_new_journal_is_named_by_its_start_and_kind_and_locked(tmp_path: Path) -> None:
    moment = time.mktime((2026, 12, 1, 17, 2, 33, 0, 0, 0)) - time.timezone
    folder = JournalFolder(tmp_path, JournalKind.PLAY, clock=lambda: moment)
    lock = folder.new_journal()
    try:
        assert lock.path.name.startswith("20261201T170233Z-play-") and lock.path.suffix == ".journal"
        assert lock.path.stat().st_mode & 0o777 == 0o600
        assert JournalLock.take(lock.path) is None  # another host cannot take it
        _journal(lock.path, moves=3)
        assert folder.unfinished() == []  # a match being played is never offered
    finally:
        lock.release()
    [kept] = folder.unfinished()
    assert kept.path == lock.path and kept.started
    assert kept.seats == ((SeatKind.PERSON, "Ana"), (SeatKind.PERSON, "Beto"))
    assert kept.preset == "puerto-rican-drawing"


def test_unfinished_matches_are_offered_newest_first_and_only_of_their_kind(tmp_path: Path) -> None:
    old = _journal(tmp_path / "20261130T100000Z-host-aaaaaa.journal", moves=4)
    new = _journal(tmp_path / "20261201T100000Z-host-bbbbbb.journal", moves=2)
    solo = _journal(tmp_path / "20261201T110000Z-play-cccccc.journal", moves=2)
    hosted = JournalFolder(tmp_path, JournalKind.HOST)
    assert [kept.path for kept in hosted.unfinished()] == [new, old]
    assert [kept.path for kept in JournalFolder(tmp_path, JournalKind.PLAY).unfinished()] == [solo]


def test_finished_damaged_and_empty_journals_are_tidied_unfinished_ones_never(tmp_path: Path) -> None:
    finished = _journal(tmp_path / "20261201T100000Z-host-aaaaaa.journal", finish=True)
    damaged = tmp_path / "20261201T100001Z-host-bbbbbb.journal"
    damaged.write_bytes(b"not a journal\n")
    empty = tmp_path / "20261201T100002Z-host-cccccc.journal"
    empty.write_bytes(b"")
    unfinished = _journal(tmp_path / "20261201T100003Z-host-dddddd.journal", moves=5)
    folder = JournalFolder(tmp_path, JournalKind.HOST)
    assert [kept.path for kept in folder.unfinished()] == [unfinished]
    assert sorted(p.name for p in folder.finished.iterdir()) == [finished.name, damaged.name]
    assert not empty.exists()
    folder.settle(unfinished)  # its host stopped mid-match: it stays to be offered
    assert unfinished.exists()


def test_finished_journals_keep_the_newest_within_a_count_and_a_size(tmp_path: Path) -> None:
    folder = JournalFolder(tmp_path, JournalKind.HOST, keep=3, max_bytes=2500)
    folder.finished.mkdir(parents=True)
    for day in range(1, 6):
        (folder.finished / f"202612{day:02}T000000Z-host-000000.journal").write_bytes(b"x" * 1000)
    (folder.finished / "notes.txt").write_text("not ours")
    deleted = folder.prune()
    names = sorted(p.name for p in folder.finished.iterdir())
    # 2500 bytes hold two of the newest; the count (3) would have kept one more.
    assert names == ["20261204T000000Z-host-000000.journal", "20261205T000000Z-host-000000.journal",
                     "notes.txt"]
    assert len(deleted) == 3
    folder = JournalFolder(tmp_path, JournalKind.HOST, keep=1)
    folder.prune()
    assert sorted(p.name for p in folder.finished.iterdir()) == ["20261205T000000Z-host-000000.journal",
                                                                  "notes.txt"]


def test_setting_aside_moves_to_finished_and_prunes(tmp_path: Path) -> None:
    folder = JournalFolder(tmp_path, JournalKind.HOST, keep=1)
    first = _journal(tmp_path / "20261201T000000Z-host-aaaaaa.journal", moves=1)
    second = _journal(tmp_path / "20261202T000000Z-host-bbbbbb.journal", moves=1)
    assert folder.set_aside(first) == folder.finished / first.name
    assert folder.set_aside(second) == folder.finished / second.name
    assert [p.name for p in folder.finished.iterdir()] == [second.name]


def test_a_summary_says_who_played_and_how_many_rounds(tmp_path: Path) -> None:
    path = _journal(tmp_path / "a.journal", moves=0, names=("Ana", ""))
    summary = summarize(path)
    assert summary is not None and summary.rounds == 0
    assert summary.seats == ((SeatKind.PERSON, "Ana"), (SeatKind.PERSON, ""))
    assert summarize(_journal(tmp_path / "b.journal", finish=True)) is None


async def test_a_host_journals_in_its_folder_and_moves_the_file_once_the_match_ends(tmp_path: Path) -> None:
    folder = JournalFolder(tmp_path, JournalKind.HOST)
    table = TableConfig(rules=RULES, players=2, computers=1, computer_level="greedy", seed=3,
                        next_round_delay=0)
    fast = Limits(messages_per_second=100000, message_burst=100000)
    host = Host(HostConfig(table, bind=LOOPBACK, port=0, journals=folder, limits=fast))
    _, port = await host.start()
    path = host.journal_path
    assert path is not None and folder.holds(path)
    try:
        result = await asyncio.wait_for(play_bot(port, "Ana"), WAIT * 3)
        assert result.final.match_over
        assert path.exists()  # its host still runs
    finally:
        await host.stop()
    assert not path.exists() and (folder.finished / path.name).exists()
    assert folder.unfinished() == []


async def test_a_host_nobody_sat_at_leaves_no_file(tmp_path: Path) -> None:
    folder = JournalFolder(tmp_path, JournalKind.HOST)
    host = Host(HostConfig(TableConfig(players=2), bind=LOOPBACK, port=0, journals=folder))
    await host.start()
    assert host.journal_path is not None and host.journal_path.exists()
    await host.stop()
    assert list(tmp_path.glob("*.journal")) == []
