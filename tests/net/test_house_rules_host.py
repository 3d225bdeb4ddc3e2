"""The house rules through the real host, on 127.0.0.1: whole matches with every one on (no
leaks, the log replays), and a new deal asked for out of turn, journalled and resumed."""

from __future__ import annotations

import asyncio

import msgspec
import pytest
from capicu.core import REDEAL, Match, RoundStarted, Rules
from capicu.net.client import Client, Update
from capicu.net.journal import read_journal

from .conftest import LOOPBACK, WAIT, check_no_leaks, check_numbering, play_bot, watching


def every_option(preset: str) -> Rules:
    return msgspec.structs.replace(Rules.preset_named(preset), wild_blanks=True, draw_several=2,
                                   redeal_on_doubles=True, target=60)


@pytest.mark.parametrize("preset", ["puerto-rican-drawing", "drawing-game", "draw"])
async def test_a_whole_match_with_every_house_rule_on(start_host, preset):
    host, port = await start_host(rules=every_option(preset), players=2, seed=11)
    spectator, wire = await watching(port)
    watcher = asyncio.create_task(play_bot(port, "watcher", client=spectator, wire=wire))
    results = await asyncio.wait_for(
        asyncio.gather(play_bot(port, "ana", level="random", seed=1), play_bot(port, "bo", seed=2)), WAIT * 3)
    watched = await asyncio.wait_for(watcher, WAIT)
    match = host.tables["main"].match
    assert match is not None and match.is_over
    for result in results:
        assert not [e for e in result.errors if e.code != "rate_limited"], result.errors
        assert check_no_leaks(result.frames, result.seat) > 0
        check_numbering(result.frames)
        assert result.final.blanks is not msgspec.UNSET  # the views carry the given blanks
    assert check_no_leaks(watched.frames, None) > 0
    assert Match.from_log(match.log()).scores == match.scores


#: The default game with the new deal: seed 1594 deals seat 1 five doubles, seat 0 leading.
REDEAL_RULES = msgspec.structs.replace(Rules.preset_named("puerto-rican-drawing"), redeal_on_doubles=True)


async def test_a_new_deal_asked_for_out_of_turn_is_dealt_journalled_and_resumed(start_host, tmp_path):
    journal = tmp_path / "match.journal"
    host, port = await start_host(rules=REDEAL_RULES, players=2, seed=1594, journal=journal)
    ana = await asyncio.wait_for(Client.connect(LOOPBACK, port, name="ana"), WAIT)
    bo = await asyncio.wait_for(Client.connect(LOOPBACK, port, name="bo"), WAIT)

    async def viewed(client: Client) -> None:
        while client.view is None:
            await client.receive(timeout=WAIT)

    await asyncio.gather(viewed(ana), viewed(bo))
    asker, other = (bo, ana) if bo.seat == 1 else (ana, bo)
    assert asker.view is not None and asker.view.legal == (REDEAL,) and not asker.view.is_my_turn
    ref = await asker.send_action(REDEAL)
    async with asyncio.timeout(WAIT):
        while True:
            message = await asker.receive()
            if isinstance(message, Update) and message.ref == ref:
                break
    started = [e for e in message.events if isinstance(e, RoundStarted)]
    assert [(e.round_number, e.asked_by, e.doubles) for e in started] == [(1, 1, 5)]
    async with asyncio.timeout(WAIT):
        while other.view is None or not any(isinstance(e, RoundStarted) and e.asked_by == 1
                                            for e in other.view.events):
            await other.receive()
    entries = host.tables["main"].match.log()["entries"]
    assert {"redeal": 1} in entries
    await ana.close()
    await bo.close()
    await host.stop()
    recorded = read_journal(journal)
    assert recorded.damage is None and {"redeal": 1} in recorded.entries
    resumed, _ = await start_host(resume=journal, grace=30)
    match = resumed.tables["main"].match
    assert match is not None and match.log()["entries"][: len(entries)] == entries
