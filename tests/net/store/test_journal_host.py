"""The journal as the host uses it: resuming a damaged one, and a journal that cannot be written."""

from __future__ import annotations

import asyncio
import os
import sys
import tempfile
import threading

import pytest
from capicu.core import Match
from capicu.net import Client, Host, HostConfig, HostError, HostNote, JoinError, TableConfig
from capicu.net.protocol import SeatKind
from capicu.net.store.journal import Journal, read_journal

from ..conftest import LOOPBACK, WAIT, play_bot


async def test_a_cut_journal_resumes_from_its_last_whole_record(start_host, tmp_path):
    journal = tmp_path / "match.journal"
    host, port = await start_host(players=2, computers=1, seed=2, journal=journal)
    result = await asyncio.wait_for(play_bot(port, "ana", stop_after=10), WAIT)
    seat_token = host.tables["main"].seats[result.seat].token
    await host.stop()
    whole = read_journal(journal)
    assert whole.damage is None
    # The host died in the middle of writing its last record.
    journal.write_bytes(journal.read_bytes()[:-7])
    lines = journal.read_bytes().splitlines(keepends=True)
    going_on_in = Match.from_log(read_journal(journal).match_log()).round_number
    resumed, port = await start_host(resume=journal, grace=30)
    # The operator is told what was dropped, as a code and its params (an interface words it).
    assert resumed.resume_note == HostNote.JOURNAL_CUT_SHORT(
        path=str(journal), entries=len(whole.entries) - 1, line=len(lines), dropped=len(lines[-1]), lost=1,
        round=going_on_in, copy=f"{journal}.torn-1")
    # (Besides what became of the seats: ana sat down, and went.)
    seat_notes = {HostNote.SEATED, HostNote.DROPPED, HostNote.LEFT, HostNote.CAME_BACK}
    assert [note for note in start_host.reports if note.code not in seat_notes] == [resumed.resume_note]
    assert [note.code for note in start_host.reports if note.code in seat_notes][:1] == [HostNote.SEATED]
    match = resumed.tables["main"].match
    assert match is not None
    # Everything before the cut record is there (the computer may have moved on since).
    assert match.log()["entries"][: len(whole.entries) - 1] == whole.entries[:-1]
    ana = await Client.connect(LOOPBACK, port, name="ana", token=seat_token)
    assert ana.seat == result.seat
    final = await asyncio.wait_for(play_bot(port, "ana", client=ana), WAIT)
    assert final.final.match_over
    # The journal now holds the whole match, its cut record replaced.
    assert Match.from_log(read_journal(journal).match_log()).is_over


async def test_a_journal_whose_last_line_is_damaged_resumes_and_says_which_line_it_dropped(
        start_host, tmp_path):
    journal = tmp_path / "match.journal"
    host, port = await start_host(players=2, computers=1, seed=2, journal=journal)
    await asyncio.wait_for(play_bot(port, "ana", stop_after=4), WAIT)
    await host.stop()
    lines = journal.read_bytes().splitlines(keepends=True)
    lines[-1] = lines[-1].replace(b'"', b"'", 1)  # whole, but its checksum no longer holds
    journal.write_bytes(b"".join(lines))
    recovered = read_journal(journal)  # (the resumed host writes on, as its computer plays)
    resumed, _ = await start_host(resume=journal, grace=30)
    assert resumed.resume_note == HostNote.JOURNAL_LINE_DAMAGED(
        path=str(journal), entries=len(recovered.entries), line=len(lines), dropped=len(lines[-1]), lost=1,
        round=Match.from_log(recovered.match_log()).round_number, copy=f"{journal}.torn-1")

@pytest.mark.parametrize("where", ["middle", "end"])
async def test_a_journal_cut_inside_a_line_is_kept_as_it_was_and_says_what_is_lost(start_host, tmp_path,
                                                                                    where):
    """A file that ends inside a line looks like a crash's torn tail, wherever it was cut (here inside
    the middle line of a whole match, or inside its last): before the tail is dropped the file is kept
    beside it as it was, and the operator is told how much is lost and which round the match goes on in."""
    journal = tmp_path / "match.journal"
    host, port = await start_host(players=2, computers=1, seed=2, journal=journal)
    await asyncio.wait_for(play_bot(port, "ana"), WAIT)
    await host.stop()
    lines = journal.read_bytes().splitlines(keepends=True)
    assert len(lines) > 20
    cut_line = len(lines) // 2 if where == "middle" else len(lines) - 1  # (counted from 0)
    cut = sum(map(len, lines[:cut_line])) + len(lines[cut_line]) // 2
    journal.write_bytes(b"".join(lines)[:cut])
    as_found = journal.read_bytes()
    kept = read_journal(journal)
    round_number = Match.from_log(kept.match_log()).round_number
    resumed, _ = await start_host(resume=journal, grace=30)
    copy = tmp_path / "match.journal.torn-1"
    assert resumed.resume_note == HostNote.JOURNAL_CUT_SHORT(
        path=str(journal), entries=len(kept.entries), line=cut_line + 1,
        dropped=len(as_found) - kept.good_size, lost=1, round=round_number, copy=str(copy))
    assert copy.read_bytes() == as_found
    assert os.stat(copy).st_mode & 0o077 == 0  # it holds the seats' secrets, as the journal does
    # The journal itself goes on from its last whole line.
    assert journal.read_bytes()[: kept.good_size] == as_found[: kept.good_size]


async def test_a_journal_with_bytes_cut_out_of_a_middle_line_is_refused_and_left_alone(start_host, tmp_path):
    journal = tmp_path / "match.journal"
    host, port = await start_host(players=2, computers=1, seed=2, journal=journal)
    await asyncio.wait_for(play_bot(port, "ana"), WAIT)
    await host.stop()
    lines = journal.read_bytes().splitlines(keepends=True)
    middle = len(lines) // 2
    lines[middle] = lines[middle][:20] + lines[middle][30:]
    journal.write_bytes(b"".join(lines))
    before = journal.read_bytes()
    with pytest.raises(HostError, match=f"line {middle + 1} is damaged and good lines follow it"):
        await start_host(resume=journal)
    assert journal.read_bytes() == before
    assert sorted(path.name for path in tmp_path.iterdir()) == ["match.journal"]


async def test_a_journal_that_cannot_be_written_stops_the_table_with_a_clear_error(tmp_path):
    table = TableConfig(players=2, computers=1, journal=tmp_path / "no such folder" / "match.journal")
    host = Host(HostConfig(table, bind=LOOPBACK, port=0),
                report=lambda text: None)
    _, port = await host.start()
    try:
        # The journal begins with the first seat handed out: the seat's secrets are
        # not on disk, so nobody is told of the seat.
        with pytest.raises(JoinError) as caught:
            await Client.connect(LOOPBACK, port, name="ana", reconnect=False)
        assert caught.value.code == "shutting_down"
        assert "cannot write the journal" in caught.value.message
        with pytest.raises(JoinError) as caught:
            await Client.connect(LOOPBACK, port, name="bea", reconnect=False)
        assert caught.value.code == "shutting_down"
    finally:
        await host.stop()


async def test_a_host_stopped_in_the_lobby_keeps_the_seats_it_handed_out(start_host, tmp_path):
    journal = tmp_path / "match.journal"
    host, port = await start_host(players=3, computers=1, seed=4, journal=journal)
    ana = await Client.connect(LOOPBACK, port, name="ana", reconnect=False)
    token, key = ana.token, ana.seat_key
    # The welcome waited for the journal: the seat's secrets are on disk already.
    recovered = read_journal(journal)
    assert recovered.entries == [] and recovered.header.seats[0].token == token
    await host.stop()
    resumed, port = await start_host(resume=journal, grace=30)
    assert resumed.tables["main"].match is None
    back = await Client.connect(LOOPBACK, port, name="-", seat_key=key)
    assert (back.seat, back.token) == (0, token)
    bea = await Client.connect(LOOPBACK, port, name="bea")
    assert bea.seat == 1
    results = await asyncio.wait_for(
        asyncio.gather(play_bot(port, "-", client=back), play_bot(port, "-", client=bea, seed=1)), WAIT * 2)
    assert all(r.final.match_over for r in results)
    assert Match.from_log(read_journal(journal).match_log()).is_over


async def test_a_journal_damaged_before_its_end_is_not_resumed_nor_changed(start_host, tmp_path):
    journal = tmp_path / "match.journal"
    host, port = await start_host(players=2, computers=1, seed=2, journal=journal)
    await asyncio.wait_for(play_bot(port, "ana", stop_after=12), WAIT)
    await host.stop()
    lines = journal.read_bytes().split(b"\n")
    assert len(lines) > 8
    lines[4] = lines[4].replace(b'"', b"'", 1)
    journal.write_bytes(b"\n".join(lines))
    before = journal.read_bytes()
    with pytest.raises(HostError, match="line 5 is damaged and good lines follow it"):
        await start_host(resume=journal)
    assert journal.read_bytes() == before


async def _run_cli(*options: str) -> tuple[int | None, str, str]:
    """``capicu host --headless`` on 127.0.0.1: its exit code (None: it started), stdout, stderr.

    In English, with no settings of this machine's (an empty config folder of its own).
    """
    with tempfile.TemporaryDirectory() as config:
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "capicu.tui", "host", "--headless", "--bind", LOOPBACK, "--port", "0",
            "--no-code", *options, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
            env={**os.environ, "CAPICU_CONFIG_DIR": config, "LC_ALL": "C.UTF-8"},
        )
        return await _said(process)


async def _said(process: asyncio.subprocess.Process) -> tuple[int | None, str, str]:
    assert process.stdout is not None
    first = await asyncio.wait_for(process.stdout.readline(), WAIT)
    if process.returncode is None and first:
        process.terminate()
        out, err = await asyncio.wait_for(process.communicate(), WAIT)
        return None, first.decode() + out.decode(), err.decode()
    out, err = await asyncio.wait_for(process.communicate(), WAIT)
    return process.returncode, first.decode() + out.decode(), err.decode()


async def test_the_journal_of_an_unfinished_match_is_not_replaced_without_a_word(start_host, tmp_path):
    journal = tmp_path / "match.journal"
    host, port = await start_host(players=2, computers=1, seed=2, journal=journal)
    await asyncio.wait_for(play_bot(port, "ana", stop_after=3), WAIT)
    await host.stop()
    before = journal.read_bytes()
    code, _, err = await _run_cli("--journal", str(journal))
    assert code == 2 and len(err.strip().splitlines()) == 1
    assert "--resume" in err and "--new-journal" in err and "unfinished match" in err
    assert journal.read_bytes() == before
    code, out, _ = await _run_cli("--journal", str(journal), "--new-journal")
    assert code is None and "listening on" in out



async def test_a_journal_damaged_before_its_end_is_kept_without_promising_a_resume(start_host, tmp_path):
    journal = tmp_path / "match.journal"
    host, port = await start_host(players=2, computers=1, seed=2, journal=journal)
    await asyncio.wait_for(play_bot(port, "ana", stop_after=6), WAIT)
    await host.stop()
    lines = journal.read_bytes().split(b"\n")
    lines[3] = lines[3].replace(b'"', b"'", 1)
    journal.write_bytes(b"\n".join(lines))
    before = journal.read_bytes()
    code, _, err = await _run_cli("--journal", str(journal))
    assert code == 2 and len(err.strip().splitlines()) == 1
    # What it says is true: --resume refuses this journal, so it is not offered.
    assert "damaged" in err and "--new-journal" in err and "goes on with it" not in err
    code, _, err = await _run_cli("--resume", str(journal))
    assert code == 2 and "line 4 is damaged and good lines follow it" in err
    assert journal.read_bytes() == before


class SlowDisk:
    """A real file whose writes wait until the test lets them through (a disk that is slow)."""

    def __init__(self, path) -> None:
        self.file = open(path, "wb", buffering=0)  # noqa: SIM115 (the journal closes it)
        self.through = threading.Event()
        self.begun = asyncio.Event()
        self._loop = asyncio.get_running_loop()

    def write(self, data) -> int:
        self._loop.call_soon_threadsafe(self.begun.set)
        assert self.through.wait(WAIT), "the test never let the write through"
        return self.file.write(data)

    def fileno(self) -> int:
        return self.file.fileno()

    def close(self) -> None:
        self.file.close()


async def test_a_slow_journal_holds_back_its_own_table_and_no_other(start_host, tmp_path):
    host, port = await start_host(players=2, computers=1, seed=3)
    path = tmp_path / "slow.journal"
    slow = host.open_table(TableConfig(name="slow", players=2, seed=1, journal=path))
    disk = SlowDisk(path)
    slow.journal = Journal(path, disk)
    # Ana's seat goes to the slow journal first: her welcome waits for it.
    joining = asyncio.create_task(Client.connect(LOOPBACK, port, name="ana", table="slow"))
    await asyncio.wait_for(disk.begun.wait(), WAIT)
    assert slow.seats[0].name == "ana"
    # Meanwhile a whole match at the other table, with the journal still stuck.
    result = await asyncio.wait_for(play_bot(port, "bea"), WAIT)
    assert result.final.match_over and not result.errors
    assert not joining.done() and path.read_bytes() == b""
    disk.through.set()
    ana = await asyncio.wait_for(joining, WAIT)
    assert ana.seat == 0 and ana.token
    assert read_journal(path).header.seats[0].token == ana.token
    await ana.close()


@pytest.mark.parametrize("torn", [False, True], ids=["full lobby", "torn first deal"])
async def test_a_lobby_restored_with_every_seat_taken_starts_when_its_people_are_back(
        start_host, tmp_path, torn):
    journal = tmp_path / "match.journal"
    host, port = await start_host(players=2, seed=5, journal=journal)
    ana = await Client.connect(LOOPBACK, port, name="ana", reconnect=False)
    bo = await Client.connect(LOOPBACK, port, name="bo", reconnect=False)
    ana_token, bo_key = ana.token, bo.seat_key
    await host.stop()
    lines = journal.read_bytes().splitlines(keepends=True)
    # The header (Ana's seat), both seats as Bo sat down, both again as the match began, the deal.
    assert len(lines) == 4 and b'"deal"' in lines[3]
    # The host stopped as the last seat was taken: with the seats on disk and the deal
    # not yet (never written, or written only in part).
    journal.write_bytes(b"".join(lines[:3]) + (lines[3][:20] if torn else b""))
    recovered = read_journal(journal)
    assert recovered.entries == [] and [s.kind for s in recovered.header.seats] == [SeatKind.PERSON] * 2
    resumed, port = await start_host(resume=journal, grace=30)
    assert resumed.tables["main"].match is None
    back_ana = await Client.connect(LOOPBACK, port, name="-", token=ana_token)
    assert resumed.tables["main"].match is None  # Bo is not back yet
    back_bo = await Client.connect(LOOPBACK, port, name="-", seat_key=bo_key)
    assert (back_ana.seat, back_bo.seat) == (0, 1)
    results = await asyncio.wait_for(
        asyncio.gather(play_bot(port, "-", client=back_ana), play_bot(port, "-", client=back_bo, seed=1)),
        WAIT * 2)
    assert all(r.final.match_over for r in results)
    assert Match.from_log(read_journal(journal).match_log()).is_over


@pytest.mark.parametrize("change", [-1, 1000])
async def test_a_journal_whose_entry_was_renumbered_by_hand_is_refused_naming_the_line(
        start_host, tmp_path, change):
    """An entry's ``seq`` changed by hand (its checksum made right again) is refused in one sentence
    naming the line: the entries' numbers are those their replay reaches, in order."""
    import json
    import zlib

    journal = tmp_path / "match.journal"
    host, port = await start_host(players=2, computers=1, seed=2, journal=journal)
    await asyncio.wait_for(play_bot(port, "ana", stop_after=8), WAIT)
    await host.stop()
    lines = journal.read_bytes().splitlines(keepends=True)
    middle = len(lines) // 2
    record = json.loads(lines[middle][9:])
    assert record["seq"] > 0
    record["seq"] += change
    body = json.dumps(record, separators=(",", ":")).encode()
    lines[middle] = b"%08x " % zlib.crc32(body) + body + b"\n"
    journal.write_bytes(b"".join(lines))
    before = journal.read_bytes()
    with pytest.raises(HostError, match=f"line {middle + 1} of the journal numbers the match's events up to "
                                        f"{record['seq']}, but its entries reach"):
        await start_host(resume=journal)
    assert journal.read_bytes() == before
