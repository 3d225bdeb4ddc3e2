"""Records and journals written by an earlier capicu still replay.

The files under data/ were written by capicu at protocol version 5 (before Fives and
Threes came on the wire, version 6), one of each game: a finished match's record, and
the journal of a match cut off in its first hand. A record must read back and replay
to the totals it states; a journal must resume at a real host and its match go on to
its end.
"""

from __future__ import annotations

import asyncio
import shutil
from pathlib import Path

import pytest
from capicu.core.games import game_of_log, match_from_log
from capicu.core.replay import replay
from capicu.net import Client
from capicu.net.store.journal import read_journal
from capicu.net.store.record import read_record

from ..conftest import LOOPBACK, WAIT, play_bot

DATA = Path(__file__).parent / "data"
#: The games the files are of, by the name in theirs.
GAMES = {"draw": "line", "mexican-train": "mexican-train", "fives-and-threes": "fives-and-threes"}


@pytest.mark.parametrize("name", GAMES)
def test_a_record_of_protocol_version_5_still_replays(name: str) -> None:
    record = read_record(DATA / f"v5-{name}.capicu-record")  # (checks it replays to its totals)
    log = record.match_log()
    assert game_of_log(log).name == GAMES[name]
    match = match_from_log(log)
    assert match.is_over
    positions = replay(log).positions
    assert len(positions) > len(log["entries"]) // 2 and positions[-1].views[0] == match.view(0)


@pytest.mark.parametrize("name", GAMES)
async def test_a_journal_of_protocol_version_5_resumes_at_a_host_and_its_match_goes_on(
        name: str, start_host, tmp_path: Path) -> None:
    journal = tmp_path / "match.journal"
    shutil.copy(DATA / f"v5-{name}.journal", journal)
    recovered = read_journal(journal)
    before = match_from_log(recovered.match_log())
    assert game_of_log(recovered.match_log()).name == GAMES[name] and not before.is_over
    host, port = await start_host(resume=journal, grace=30, next_round_delay=0)
    match = host.tables["main"].match
    assert match is not None and match.log()["entries"][: len(recovered.entries)] == recovered.entries
    # Ana comes back with her seat's token, and the match goes on to its end.
    ana = await asyncio.wait_for(
        Client.connect(LOOPBACK, port, name="ana", token=f"j5-{name}." + "s" * 32), WAIT)
    assert ana.seat == 0
    final = await asyncio.wait_for(play_bot(port, "ana", client=ana), WAIT * 3)
    assert final.final.match_over
    again = match_from_log(read_journal(journal).match_log())
    assert again.is_over and again.log()["entries"][: len(recovered.entries)] == recovered.entries
