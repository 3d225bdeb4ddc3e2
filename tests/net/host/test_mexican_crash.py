"""Mexican Train's journal: a headless host killed (SIGKILL) mid-round resumes; a seat comes back
after its client process dies."""

from __future__ import annotations

import asyncio
import signal
import sys
import textwrap
from pathlib import Path

from capicu.core import MexicanView, parse_action
from capicu.core.ai.mexican_players import make_mexican_player
from capicu.core.games import match_from_log
from capicu.core.mexican.events import MexicanEvent
from capicu.core.mexican.match import MexicanMatch
from capicu.net import Client, Closed, NextRound, Update
from capicu.net.protocol import SeatKind, TrainSnapshot
from capicu.net.store.journal import read_journal
from capicu.net.store.journals import summarize

from ..conftest import LOOPBACK, WAIT
from .test_crash import start_host_process


async def _stop(process: asyncio.subprocess.Process) -> None:
    if process.returncode is None:
        process.send_signal(signal.SIGTERM)
        try:
            await asyncio.wait_for(process.wait(), WAIT)
        finally:
            if process.returncode is None:
                process.kill()


async def play(client: Client, seed: int, told: list[MexicanEvent], *, kill_at: int | None = None,
               kill: asyncio.Event | None = None) -> MexicanView | None:
    """Play the seat with a normal computer player, keeping every event told; stop at ``kill_at``."""
    player, pending = make_mexican_player("normal", seed), None
    async with asyncio.timeout(WAIT * 3):
        while True:
            view = client.view
            if isinstance(view, MexicanView) and view.match_over:
                return view
            stopping = kill is not None and kill.is_set()
            if isinstance(view, MexicanView) and view.is_my_turn and view.legal and pending is None \
                    and not stopping:
                pending = await client.send_action(player.choose(view))
            message = await client.receive()
            if isinstance(message, Closed):
                return None
            if isinstance(message, TrainSnapshot) and not told:
                told.extend(message.view.events)
            if isinstance(message, NextRound) and not stopping:
                await client.ready()
            if isinstance(message, Update):
                told.extend(message.events)  # type: ignore[arg-type]
                if message.ref == pending:
                    pending = None
                # Killed mid-round: a turn under way, not a break.
                if kill_at is not None and kill is not None and message.seq >= kill_at \
                        and message.view.turn is not None:
                    kill.set()


def replayed(path: Path) -> tuple[MexicanMatch, list[MexicanEvent]]:
    """The journal's match (read back by core), and every public event it made, replayed from scratch."""
    log = read_journal(path).match_log()
    assert log["format"] == "capicu-mexican-train-log/2"
    match = match_from_log(log)
    assert isinstance(match, MexicanMatch)
    deals = [(e["deal"], e["seat"]) for e in log["entries"] if isinstance(e, dict)]
    again = MexicanMatch(log["rules"], log["players"], log["seed"], deals=deals,
                         pause_between_rounds=log.get("pause_between_rounds", False))
    events: list[MexicanEvent] = list(again.opening_events)
    for entry in log["entries"][1:]:  # the first deal is the opening's
        if isinstance(entry, str):
            events.extend(again.apply(parse_action(entry)))
        elif again.awaiting_deal:
            events.extend(again.deal_next_round())
    return match, events


async def test_a_killed_mexican_train_host_resumes_from_its_journal_mid_round(tmp_path):
    journal = tmp_path / "match.journal"
    process, port = await start_host_process(
        tmp_path / "config", "--preset", "mexican-train", "--players", "4", "--computers", "3",
        "--rounds", "4", "--seed", "23", "--journal", str(journal),
    )
    told: list[MexicanEvent] = []
    try:
        client = await Client.connect(LOOPBACK, port, name="ana", reconnect=False)
        token = client.token
        kill = asyncio.Event()
        game = asyncio.ensure_future(play(client, 1, told, kill_at=60, kill=kill))
        await asyncio.wait_for(kill.wait(), WAIT * 2)
        process.kill()  # SIGKILL: no chance to flush anything
        await asyncio.wait_for(process.wait(), WAIT)
        await asyncio.wait_for(game, WAIT)
    finally:
        if process.returncode is None:
            process.kill()
    assert len(told) >= 60
    # Everything the player was told is in the journal, in order.
    match, events = replayed(journal)
    assert not match.is_over and match.turn is not None  # killed mid-round
    assert events[: len(told)] == told
    # The journal folder offers it as an unfinished match, as any other.
    kept = summarize(journal)
    assert kept is not None and kept.started and kept.rounds == len(match.results)
    assert [name for kind, name in kept.seats if kind is SeatKind.PERSON] == ["ana"]
    assert kept.preset == "mexican-train"

    process, port = await start_host_process(tmp_path / "config", "--resume", str(journal), "--grace", "60")
    try:
        client = await Client.connect(LOOPBACK, port, name="anyone", token=token, reconnect=False)
        assert client.seat == 0
        after: list[MexicanEvent] = []
        final = await play(client, 2, after)
        assert final is not None and final.match_over and len(final.results) == 4
        match, events = replayed(journal)
        assert match.is_over and match.winners == final.winners
        assert events[: len(told)] == told
        await client.close()
    finally:
        await _stop(process)


#: A client in a process of its own: it takes a seat, says its seat key, and waits to be killed.
CLIENT = textwrap.dedent("""
    import asyncio, sys
    from capicu.net import Client

    async def main():
        client = await Client.connect("127.0.0.1", int(sys.argv[1]), name="bea", reconnect=False)
        print(client.seat, client.seat_key, flush=True)
        while True:
            await client.receive()

    asyncio.run(main())
""")


async def test_a_seat_comes_back_after_its_client_process_dies(tmp_path):
    process, port = await start_host_process(
        tmp_path / "config", "--preset", "mexican-train", "--players", "3", "--computers", "2",
        "--rounds", "1", "--seed", "4", "--grace", "60",
    )
    try:
        child = await asyncio.create_subprocess_exec(sys.executable, "-c", CLIENT, str(port),
                                                     stdout=asyncio.subprocess.PIPE)
        assert child.stdout is not None
        line = (await asyncio.wait_for(child.stdout.readline(), WAIT)).decode().split()
        seat, key = int(line[0]), line[1]
        child.kill()  # the client dies: no bye, the connection just ends
        await asyncio.wait_for(child.wait(), WAIT)
        client = await Client.connect(LOOPBACK, port, name="-", seat_key=key.lower(), reconnect=False)
        assert client.seat == seat == 0
        final = await play(client, 3, [])
        assert final is not None and final.match_over and final.seat == 0
        await client.close()
    finally:
        await _stop(process)
