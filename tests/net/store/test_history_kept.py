"""Every finished match goes into the history where its record is kept (net/store/archive.py): by the host
and by a player's client, a real host on 127.0.0.1 and a real client; the two sharing one folder (a
game against the computer) keep the match once, knowing which seat was the player's."""

from __future__ import annotations

import asyncio
from pathlib import Path

import msgspec
from capicu.core import Rules, make_player
from capicu.net import Client, Closed, Error, NextRound
from capicu.net.protocol import MatchRecorded
from capicu.net.store.history import open_history

from ..conftest import LOOPBACK, WAIT


async def _play_until_recorded(client: Client) -> None:
    """Play every turn of ours until the host's record of the finished match has come."""
    player = make_player("greedy", 1)
    pending = False
    while True:
        view = client.view
        if view is not None and view.is_my_turn and not view.match_over and not pending:
            await client.send_action(player.choose(view))
            pending = True
        message = await client.receive(timeout=WAIT)
        if isinstance(message, MatchRecorded):
            return
        assert not isinstance(message, Closed | Error), message
        if isinstance(message, NextRound) and client.seat in message.waiting:
            await client.ready()
        pending = pending and not (client.view is not None and not client.view.is_my_turn)


async def test_a_finished_match_is_kept_once_by_its_host_and_its_player(start_host, tmp_path: Path) -> None:
    rules = msgspec.structs.replace(Rules.preset_named("draw"), target=15)
    records = tmp_path / "records"
    host, port = await start_host(rules=rules, players=2, computers=1, seed=4, records=records)
    client = await asyncio.wait_for(Client.connect(LOOPBACK, port, name="Ana", records=records), WAIT)
    try:
        await asyncio.wait_for(_play_until_recorded(client), WAIT * 3)
        seat = client.seat
        assert seat is not None and client.model.history_problem is None
    finally:
        await client.close()
    await host.stop()  # it waits for its own copy to be written
    with open_history(records)[0] as history:
        assert history.match_count() == 1
        figures = history.figures()  # the seat the client sat in
        assert figures.played == 1 and figures == history.figures("Ana")
        # A host keeps its table's: everyone who sat at it.
        assert sorted((s.name, s.kind) for s in history.standings()) == [("Ana", "person"),
                                                                         ("Computer 2", "computer")]
        match = host.tables["main"].match
        assert match is not None and match.is_over
        assert figures.won == (match.winner == seat)
        assert figures.rounds == len(match.results)
        (match_id,) = history.match_ids()
        assert [points for _, _, points, _ in history.round_scores(match_id)] == [
            result.points for result in match.results]


async def test_a_damaged_history_never_stops_the_record_and_is_said(start_host, tmp_path: Path) -> None:
    from capicu.net.store.history import HISTORY_FILE, HistoryProblem

    rules = msgspec.structs.replace(Rules.preset_named("draw"), target=15)
    records = tmp_path / "records"
    records.mkdir()
    (records / HISTORY_FILE).write_bytes(b"not a database" * 100)
    _, port = await start_host(rules=rules, players=2, computers=1, seed=5)  # the host keeps nothing
    client = await asyncio.wait_for(Client.connect(LOOPBACK, port, name="Ana", records=records), WAIT)
    try:
        await asyncio.wait_for(_play_until_recorded(client), WAIT * 3)
        model = client.model
        assert model.record_file is not None and model.record_file.exists()
        assert model.history_problem is not None and model.history_problem.code is HistoryProblem.SET_ASIDE
    finally:
        await client.close()
    assert (records / "history.damaged-1.sqlite3").read_bytes().startswith(b"not a database")
    with open_history(records)[0] as history:
        assert history.match_count() == 1
