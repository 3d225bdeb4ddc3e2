"""Fives and Threes' journal: a headless host process killed (SIGKILL) mid-hand is started again with
``--resume`` and the match goes on, no move lost (as tests/net/host/test_mexican_crash.py for Mexican
Train and test_crash.py for the Draw family)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from capicu.core.fives import FivesMatch, FivesView
from capicu.core.games import FIVES, match_from_log
from capicu.net import Client, Closed, NextRound, Update
from capicu.net.protocol import GameSnapshot, SeatKind
from capicu.net.store.journal import read_journal
from capicu.net.store.journals import summarize

from ..conftest import LOOPBACK, WAIT, next_of
from .test_crash import start_host_process
from .test_mexican_crash import _stop


async def play(client: Client, seed: int, told: list[Any], *, kill_at: int | None = None,
               kill: asyncio.Event | None = None) -> FivesView | None:
    """Play the seat with a normal computer player, keeping every event told; stop at ``kill_at``."""
    player, pending = FIVES.make_player("normal", seed), None
    async with asyncio.timeout(WAIT * 3):
        while True:
            view = client.view
            if isinstance(view, FivesView) and view.match_over:
                return view
            stopping = kill is not None and kill.is_set()
            if isinstance(view, FivesView) and view.is_my_turn and view.legal and pending is None \
                    and not stopping:
                pending = await client.send_action(player.choose(view))
            message = await client.receive()
            if isinstance(message, Closed):
                return None
            if isinstance(message, GameSnapshot) and not told:
                told.extend(message.view.events)
            if isinstance(message, NextRound) and not stopping:
                await client.ready()
            if isinstance(message, Update):
                told.extend(message.events)
                if message.ref == pending:
                    pending = None
                # Killed mid-hand: a turn under way, not a break.
                if kill_at is not None and kill is not None and message.seq >= kill_at \
                        and message.view.turn is not None:
                    kill.set()


def replayed(path: Path) -> tuple[FivesMatch, list[Any]]:
    """The journal's match (read back by core), and every public event it made, replayed from scratch."""
    log = read_journal(path).match_log()
    assert log["format"] == "capicu-fives-log/1"
    events: list[Any] = []
    match = match_from_log(log, lambda _match, _action, _seat, made: events.extend(made))
    assert isinstance(match, FivesMatch)
    return match, events


async def test_a_killed_fives_and_threes_host_resumes_from_its_journal_mid_hand(tmp_path: Path) -> None:
    journal = tmp_path / "match.journal"
    process, port = await start_host_process(
        tmp_path / "config", "--preset", "fives-and-threes", "--players", "4", "--computers", "3",
        "--seed", "23", "--journal", str(journal),
    )
    told: list[Any] = []
    try:
        client = await Client.connect(LOOPBACK, port, name="ana", reconnect=False)
        token = client.token
        kill = asyncio.Event()
        game = asyncio.ensure_future(play(client, 1, told, kill_at=40, kill=kill))
        await asyncio.wait_for(kill.wait(), WAIT * 2)
        process.kill()  # SIGKILL: no chance to flush anything
        await asyncio.wait_for(process.wait(), WAIT)
        await asyncio.wait_for(game, WAIT)
    finally:
        if process.returncode is None:
            process.kill()
    assert len(told) >= 40
    # Everything the player was told is in the journal, in order, and the points with it.
    match, events = replayed(journal)
    assert not match.is_over and match.turn is not None  # killed mid-hand
    assert events[: len(told)] == told
    scored = [e.scored for e in told if type(e).__name__ == "FivesTilePlayed"]
    assert sum(scored) > 0 and sum(match.scores) >= sum(scored)
    # The journal folder offers it as an unfinished match, as any other.
    kept = summarize(journal)
    assert kept is not None and kept.started and kept.rounds == len(match.results)
    assert [name for kind, name in kept.seats if kind is SeatKind.PERSON] == ["ana"]
    assert kept.preset == "fives-and-threes"

    process, port = await start_host_process(tmp_path / "config", "--resume", str(journal), "--grace", "60")
    try:
        client = await Client.connect(LOOPBACK, port, name="anyone", token=token, reconnect=False)
        assert client.seat == 0
        # Its snapshot has every point made before the kill (the computers may have played on since).
        snapshot = await next_of(client, GameSnapshot)
        assert all(now >= then for now, then in zip(snapshot.view.scores, match.scores, strict=True))
        final = await play(client, 2, [])
        assert final is not None and final.match_over and max(final.scores) >= final.target
        match, events = replayed(journal)
        assert match.is_over and match.winner == final.winner and tuple(match.scores) == final.scores
        assert events[: len(told)] == told
        await client.close()
    finally:
        await _stop(process)
