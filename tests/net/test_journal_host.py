"""The journal as the host uses it: resuming a damaged one, and a journal that cannot be written."""

from __future__ import annotations

import asyncio

import pytest
from capicu.core import Match
from capicu.net import Client, Host, HostConfig, JoinError
from capicu.net.journal import read_journal

from .conftest import LOOPBACK, WAIT, play_bot


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
    resumed, port = await start_host(resume=journal, grace=30)
    assert resumed.resume_note is not None and "cut short" in resumed.resume_note
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


async def test_a_journal_that_cannot_be_written_stops_the_table_with_a_clear_error(tmp_path):
    host = Host(HostConfig(bind=LOOPBACK, port=0, players=2, computers=1,
                           journal=tmp_path / "no such folder" / "match.journal"),
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
