"""The moves the computer made for an absent person are journaled as such: a host killed (SIGKILL)
and resumed from its journal still marks them in that person's snapshot (``snapshot.covered``), so
a returning player does not read the computer's "You play 5-6" as their own move."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from capicu.core import Passed, TilePlayed
from capicu.net import Client, Snapshot, Update
from capicu.net.protocol import ActedBy
from capicu.net.store.journal import EntryRecord, encode_record, read_journal

from ..conftest import LOOPBACK, WAIT, bot_player, next_of
from .test_crash import start_host_process


def _numbered(snapshot: Snapshot) -> dict[int, Any]:
    """The snapshot's view's events by their numbers (the last is ``seq``)."""
    events = snapshot.view.events
    first = snapshot.seq - len(events) + 1
    return {first + place: event for place, event in enumerate(events)}


async def _play_until_covered(bea: Client) -> Update:
    """Bea plays her turns until the computer has moved for seat 0 (Ana, gone): that update."""
    player: Any = None
    pending: int | None = None
    async with asyncio.timeout(WAIT):
        while True:
            view = bea.view
            if view is not None and view.is_my_turn and pending is None:
                player = player or bot_player(view)
                pending = await bea.send_action(player.choose(view))
            message = await bea.receive()
            if isinstance(message, Update):
                if message.ref is not None and message.ref == pending:
                    pending = None
                if message.actor == 0 and message.by is ActedBy.COMPUTER:
                    return message


async def test_a_resumed_host_marks_the_computers_moves_for_a_returning_player(tmp_path: Path) -> None:
    journal = tmp_path / "match.journal"
    options = ("--players", "3", "--computers", "1", "--seed", "4", "--grace", "300")
    process, port = await start_host_process(tmp_path / "config", *options, "--journal", str(journal))
    try:
        ana = await Client.connect(LOOPBACK, port, name="ana", reconnect=False)
        bea = await Client.connect(LOOPBACK, port, name="bea", reconnect=False)
        await next_of(ana, Snapshot)
        token = ana.token
        await ana.close()  # on purpose: the computer covers her seat at once
        covering = await _play_until_covered(bea)
        process.kill()  # SIGKILL: what the journal holds is all there is
        await asyncio.wait_for(process.wait(), WAIT)
        await bea.close()
    finally:
        if process.returncode is None:
            process.kill()
    # The journal says which entries were the computer's for her (a line's "covered").
    assert read_journal(journal).covering

    process, port = await start_host_process(tmp_path / "config", *options, "--resume", str(journal))
    try:
        back = await Client.connect(LOOPBACK, port, name="-", token=token, reconnect=False)
        snapshot = await next_of(back, Snapshot)
        numbered = _numbered(snapshot)
        hers = {number for number, event in numbered.items()
                if isinstance(event, (TilePlayed, Passed)) and event.seat == 0}
        # The move seen before the kill, and every play or pass of hers (she made none), are marked;
        # nothing of anybody else's.
        assert covering.seq in numbered and covering.seq - len(covering.events) + 1 in hers
        assert hers and hers <= set(snapshot.covered) <= set(numbered), (hers, snapshot.covered)
        assert all(getattr(numbered[number], "seat", 0) == 0 for number in snapshot.covered)
        await back.close()
    finally:
        process.kill()
        await asyncio.wait_for(process.wait(), WAIT)


def test_a_journal_line_of_a_persons_own_move_is_the_bytes_it_always_was() -> None:
    assert encode_record(EntryRecord("pass", 7)).endswith(b' {"entry":"pass","seq":7}\n')
    assert b'"covered":1' in encode_record(EntryRecord("pass", 7, 1))
