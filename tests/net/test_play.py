"""Whole matches over real sockets, every preset and every game, with every byte checked for leaks."""

from __future__ import annotations

import asyncio

import msgspec
import pytest
from capicu.core import PRESET_NAMES, Match, Rules
from capicu.core.games import GAMES, game_of

from .conftest import WAIT, check_no_leaks, check_numbering, play_bot, watching

CASES = [
    (preset, players)
    for preset in PRESET_NAMES
    for players in range(2, 5)
    if Rules.preset_named(preset).min_players <= players <= Rules.preset_named(preset).max_players
]


@pytest.mark.parametrize(("preset", "players"), CASES)
async def test_a_whole_match_between_networked_computers(start_host, preset, players):
    rules = Rules.preset_named(preset)
    host, port = await start_host(rules=rules, players=players, seed=players * 7 + len(preset))

    async def seated(i: int):
        return await play_bot(port, f"bot {i}", level="random" if i % 2 else "greedy", seed=i)

    # The spectator is in before the players, so it sees the whole match.
    spectator, wire = await watching(port)
    watcher = asyncio.create_task(play_bot(port, "watcher", client=spectator, wire=wire))
    results = await asyncio.wait_for(asyncio.gather(*(seated(i) for i in range(players))), WAIT * 3)
    watched = await asyncio.wait_for(watcher, WAIT)
    match = host.tables["main"].match
    assert match is not None and match.is_over
    assert sorted(r.seat for r in results) == list(range(players))
    for result in results:
        assert result.final.match_over
        assert result.final.scores == tuple(match.scores)
        assert not [e for e in result.errors if e.code != "rate_limited"], result.errors
        assert check_no_leaks(result.frames, result.seat) > 0
        check_numbering(result.frames)
    assert watched.seat is None
    assert check_no_leaks(watched.frames, None) > 0
    # The host's match is exactly its log: nothing else happened.
    assert Match.from_log(match.log()).scores == match.scores


#: One short match of each game of the registry (core/games.py).
SHORT = {
    "line": msgspec.structs.replace(Rules.preset_named("draw"), target=40),
    "mexican-train": msgspec.structs.replace(Rules.preset_named("mexican-train"), rounds=1),
    "fives-and-threes": msgspec.structs.replace(Rules.preset_named("fives-and-threes"), target=31),
}


@pytest.mark.parametrize("game", [spec.name for spec in GAMES])
async def test_every_game_of_the_registry_plays_through_the_same_bots_and_leak_checks(start_host, game):
    rules = SHORT[game]
    players = 3
    host, port = await start_host(rules=rules, players=players, seed=31)
    spectator, wire = await watching(port)
    watcher = asyncio.create_task(play_bot(port, "watcher", client=spectator, wire=wire))
    results = await asyncio.wait_for(
        asyncio.gather(*(play_bot(port, f"p{i}", seed=i) for i in range(players))), WAIT * 3)
    match = host.tables["main"].match
    assert match is not None and match.is_over and game_of(match.rules).name == game
    for result in results:
        assert result.final.match_over and not result.errors
        assert check_no_leaks(result.frames, result.seat) > 0
        check_numbering(result.frames)
    assert check_no_leaks((await asyncio.wait_for(watcher, WAIT)).frames, None) > 0


@pytest.mark.parametrize("seed", range(12))
async def test_no_leaks_across_many_deals(start_host, seed):
    preset = PRESET_NAMES[seed % len(PRESET_NAMES)]
    rules = msgspec.structs.replace(Rules.preset_named(preset), target=40)
    players = rules.max_players if seed % 2 else rules.min_players
    _, port = await start_host(rules=rules, players=players, seed=1000 + seed, computers=1)
    spectator, wire = await watching(port)
    watcher = asyncio.create_task(play_bot(port, "watcher", client=spectator, wire=wire))
    results = await asyncio.wait_for(
        asyncio.gather(*(play_bot(port, f"p{i}", seed=seed + i) for i in range(players - 1))),
        WAIT * 3,
    )
    for result in results:
        check_no_leaks(result.frames, result.seat)
    check_no_leaks((await asyncio.wait_for(watcher, WAIT)).frames, None)


async def test_many_tables_in_one_host_play_at_once(start_host):
    from capicu.net import TableConfig

    host, port = await start_host(players=2, seed=1)
    for i in range(6):
        host.open_table(TableConfig(name=f"t{i}", players=3, computers=1, seed=i))
    games = [
        play_bot(port, f"{name}-{i}", table=name, seed=i)
        for name in [f"t{i}" for i in range(6)]
        for i in range(2)
    ]
    results = await asyncio.wait_for(asyncio.gather(*games), WAIT * 3)
    assert all(r.final.match_over for r in results)
    assert all(host.tables[f"t{i}"].match.is_over for i in range(6))


async def test_computers_can_think_in_worker_processes(start_host):
    _, port = await start_host(players=3, computers=2, computer_processes=1, seed=8)
    result = await asyncio.wait_for(play_bot(port, "solo"), WAIT * 2)
    assert result.final.match_over and not result.errors


async def test_the_host_can_fill_open_seats_with_computers_and_start(start_host):
    from capicu.net.client import Client

    from .conftest import LOOPBACK

    host, port = await start_host(rules=Rules(), players=3, seed=5)
    client = await asyncio.wait_for(Client.connect(LOOPBACK, port, name="Ana"), WAIT)
    table = host.tables["main"]
    assert table.match is None and [s.kind for s in table.seats] == ["person", "open", "open"]
    assert host.fill_with_computers() == 2
    assert [s.kind for s in table.seats] == ["person", "computer", "computer"]
    result = await asyncio.wait_for(play_bot(port, "Ana", client=client), WAIT * 3)
    assert result.final is not None and result.final.match_over
    assert host.fill_with_computers() == 0  # once started, nothing changes
