"""The house rules through the real host, on 127.0.0.1: whole matches with every one on (no
leaks, the log replays), and a new deal asked for out of turn (by a person, by a computer),
journalled and resumed; a computer that keeps its deal is asked once."""

from __future__ import annotations

import asyncio
import secrets

import msgspec
import pytest
from capicu.core import REDEAL, Match, RoundStarted, Rules
from capicu.net import TableConfig
from capicu.net.client import Client, Update
from capicu.net.host.effects import Report, Think
from capicu.net.host.table import Table, choose_with
from capicu.net.protocol import ActedBy, SeatKind
from capicu.net.store.journal import Header, Journal, JournalSeat, Recovered, read_journal
from helpers_core import crafted_match

from ..conftest import LOOPBACK, WAIT, check_no_leaks, check_numbering, play_bot, watching


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


async def test_a_computer_not_on_turn_dealt_five_doubles_asks_for_a_new_deal(start_host, tmp_path):
    """Seed 1594 deals seat 1 (the hard computer) five doubles, ana leading: the host asks it."""
    journal = tmp_path / "match.journal"
    host, port = await start_host(rules=REDEAL_RULES, players=2, computers=1, computer_level="hard",
                                  seed=1594, journal=journal)
    watcher, _ = await watching(port)
    ana = await asyncio.wait_for(Client.connect(LOOPBACK, port, name="ana"), WAIT)
    assert ana.seat == 0

    async def new_deal_told(client: Client) -> Update:
        async with asyncio.timeout(WAIT):
            while True:
                message = await client.receive()
                if isinstance(message, Update) and any(isinstance(e, RoundStarted) for e in message.events):
                    return message

    for told in await asyncio.gather(new_deal_told(ana), new_deal_told(watcher)):
        assert (told.actor, told.by) == (1, ActedBy.COMPUTER)
        started = [e for e in told.events if isinstance(e, RoundStarted)]
        assert [(e.round_number, e.asked_by, e.doubles) for e in started] == [(1, 1, 5)]
    entries = host.tables["main"].match.log()["entries"]
    assert entries.count({"redeal": 1}) == 1
    await ana.close()
    await watcher.close()
    await host.stop()
    recorded = read_journal(journal)
    assert recorded.damage is None and {"redeal": 1} in recorded.entries
    resumed, _ = await start_host(resume=journal, grace=30)
    match = resumed.tables["main"].match
    assert match is not None and match.log()["entries"][: len(entries)] == entries


#: Double-twelve: five light doubles among tiles of up to 24 pips are a lighter hand than most.
TWELVES = msgspec.structs.replace(Rules.preset_named("draw"), max_pip=12, redeal_on_doubles=True)


def test_a_computer_that_keeps_its_five_doubles_is_asked_once_and_the_first_move_waits(tmp_path):
    """The table (sans-I/O) resumed at a deal set by hand: seat 1's hard computer, not on turn, is
    asked; its real answer keeps the deal; then seat 0's computer is asked for the first move."""
    match = crafted_match(TWELVES, ["6-6 5-6 4-6 3-6 2-6 1-6 2-5", "0-0 1-1 2-2 3-3 4-4 0-5 0-6"])
    assert match.turn == 0 and match.view(1).legal == (REDEAL,)
    log = match.log()
    computers = tuple(JournalSeat(SeatKind.COMPUTER, name) for name in ("pepe", "rosa"))
    header = Header(log_format=log["format"], rules=TWELVES, players=2, seed=log["seed"], table="main",
                    computer_level="hard", seats=computers)
    recovered = Recovered(header, log["entries"], good_size=0, seq=0, damage=None)
    config = TableConfig(name="main", rules=TWELVES, players=2)
    table = Table.restore(config, recovered, Journal(tmp_path / "unused.journal"), now=0.0,
                          entropy=secrets.token_bytes)
    [asked] = [e for e in table.take_effects() if isinstance(e, Think)]
    assert asked.seat == 1 and asked.view.legal == (REDEAL,) and asked.player is not None
    with pytest.raises(ValueError, match="keeps its deal"):
        choose_with(asked.player, asked.view)  # the hard player declines
    effects = table.chosen(asked, None, "ValueError('keeps its deal')", now=0.0)
    assert not [e for e in effects if isinstance(e, Report)]  # a computer keeping its deal is no failure
    [first_move] = [e for e in effects if isinstance(e, Think)]
    assert first_move.seat == 0 and first_move.by is ActedBy.COMPUTER
    assert {"redeal": 1} not in table.match.log()["entries"]
    # Seat 0 lays its first tile: seat 1 is not asked again, and may no longer ask.
    action = choose_with(first_move.player, first_move.view)
    after = table.chosen(first_move, action, None, now=0.0)
    [next_move] = [e for e in after if isinstance(e, Think)]
    assert next_move.seat == 1 and REDEAL not in next_move.view.legal
