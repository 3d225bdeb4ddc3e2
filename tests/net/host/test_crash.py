"""The host process is killed (SIGKILL) mid-match and resumed from its journal."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import sys
from pathlib import Path

from capicu.core import Event, Match, make_player, parse_action
from capicu.net import Client, Closed, NextRound, Snapshot, Update
from capicu.net.store.journal import read_journal

from ..conftest import LOOPBACK, WAIT, play_bot


async def start_host_process(config: Path, *options: str) -> tuple[asyncio.subprocess.Process, int]:
    """``capicu host --headless`` on 127.0.0.1, any free port, its settings in ``config``: the process
    and its port."""
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "capicu.tui", "host", "--headless", "--bind", LOOPBACK,
        "--port", "0", "--no-code", "--rate", "100000", *options,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        # In English whatever this machine's settings say: an empty config folder of its own.
        env={**os.environ, "PYTHONUNBUFFERED": "1", "CAPICU_CONFIG_DIR": str(config), "LC_ALL": "C.UTF-8"},
    )
    assert process.stdout is not None
    async with asyncio.timeout(WAIT):
        while True:
            line = (await process.stdout.readline()).decode()
            if not line:
                error = await process.stderr.read() if process.stderr else b""
                raise AssertionError(f"the host did not start: {error.decode()}")
            found = re.search(r"listening on \S+ port (\d+)", line)
            if found:
                return process, int(found.group(1))


class Player:
    """A networked computer player that keeps every public event it was told, in order."""

    def __init__(self, client: Client, seed: int) -> None:
        self.client = client
        self.events: list[Event] = []
        self.player = make_player("greedy", seed)

    async def play(self, kill_at: int, kill: asyncio.Event) -> None:
        client, pending = self.client, None
        while True:
            view = client.view
            if view is not None and view.is_my_turn and pending is None and not kill.is_set():
                pending = await client.send_action(self.player.choose(view))
            message = await client.receive(timeout=WAIT)
            if isinstance(message, Closed):
                return
            if isinstance(message, Snapshot) and not self.events:
                self.events = list(message.view.events)
            if isinstance(message, NextRound) and not kill.is_set():
                await client.ready()
            if isinstance(message, Update):
                self.events.extend(message.events)
                if message.ref == pending:
                    pending = None
                if message.seq >= kill_at:
                    kill.set()


def replayed_events(path: Path) -> tuple[Match, list[Event]]:
    """Every public event of the match the journal records, replayed from scratch."""
    log = read_journal(path).match_log()
    deals = [(e["deal"], e["seat"]) for e in log["entries"] if isinstance(e, dict)]
    match = Match(log["rules"], log["players"], log["seed"], deals=deals)
    events = list(match.opening_events)
    for entry in log["entries"]:
        if isinstance(entry, str):
            events.extend(match.apply(parse_action(entry)))
    return match, events


async def test_a_killed_host_resumes_from_its_journal_keeping_every_acknowledged_action(tmp_path):
    journal = tmp_path / "match.journal"
    process, port = await start_host_process(
        tmp_path / "config",
        "--players", "2", "--seed", "17", "--target", "150", "--journal", str(journal),
    )
    try:
        clients = [
            await Client.connect(LOOPBACK, port, name=name, reconnect=False) for name in ("ana", "bea")
        ]
        players = [Player(c, i) for i, c in enumerate(clients)]
        tokens = [c.token for c in clients]
        kill = asyncio.Event()
        games = asyncio.gather(*(p.play(kill_at=40, kill=kill) for p in players))
        await asyncio.wait_for(kill.wait(), WAIT)
        process.kill()  # SIGKILL: no chance to flush anything
        await asyncio.wait_for(process.wait(), WAIT)
        await asyncio.wait_for(games, WAIT)
    finally:
        if process.returncode is None:
            process.kill()
    told = [list(p.events) for p in players]
    assert max(len(t) for t in told) >= 40

    # Everything anybody was told is in the journal.
    _, events = replayed_events(journal)
    for seen in told:
        assert events[: len(seen)] == seen

    process, port = await start_host_process(tmp_path / "config", "--resume", str(journal), "--grace", "60")
    try:
        resumed = [
            await Client.connect(LOOPBACK, port, name="anyone", token=t, reconnect=False) for t in tokens
        ]
        assert [c.seat for c in resumed] == [c.seat for c in clients]
        results = await asyncio.wait_for(
            asyncio.gather(*(play_bot(port, "x", client=c, seed=i) for i, c in enumerate(resumed))),
            WAIT * 2,
        )
        assert all(r.final.match_over for r in results)
        match, events = replayed_events(journal)
        assert match.is_over
        for seen in told:
            assert events[: len(seen)] == seen
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            await asyncio.wait_for(process.wait(), WAIT)
        finally:
            if process.returncode is None:
                process.kill()
