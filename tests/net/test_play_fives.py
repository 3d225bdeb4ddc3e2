"""A whole match of Fives and Threes over real sockets: the generic wire carries the game's view."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from capicu.core import Rules
from capicu.core.fives import FivesMatch, FivesView
from capicu.core.games import FIVES
from capicu.net import Client, Closed, Error, NextRound, Update

from .conftest import LOOPBACK, WAIT, decode_frames


async def _play(port: int, name: str, seed: int) -> tuple[Client, list[FivesView], bytearray]:
    wire = bytearray()
    client = await asyncio.wait_for(Client.connect(LOOPBACK, port, name=name, wire_tap=wire.extend), WAIT)
    player = FIVES.make_player("normal", seed)
    seen: list[FivesView] = []
    pending: int | None = None
    while True:
        view = client.view
        if view is not None:
            seen.append(view)
            if view.match_over:
                break
            if view.is_my_turn and pending is None:
                pending = await client.send_action(player.choose(view))
        message = await client.receive(timeout=WAIT)
        if isinstance(message, Closed):
            break
        if isinstance(message, Error):
            pytest.fail(f"the host refused a legal play: {message}")
        if isinstance(message, Update) and message.ref is not None and message.ref == pending:
            pending = None
        if isinstance(message, NextRound) and client.seat in message.waiting:
            await client.ready()
    return client, seen, wire


async def test_a_whole_match_of_fives_and_threes_between_networked_computers(start_host: Any) -> None:
    rules = Rules.preset_named("fives-and-threes")
    host, port = await start_host(rules=rules, players=2, seed=5)
    (first, seen0, wire0), (second, seen1, _) = await asyncio.wait_for(
        asyncio.gather(_play(port, "ana", 1), _play(port, "luis", 2)), WAIT * 3)
    match = host.tables["main"].match
    assert isinstance(match, FivesMatch) and match.is_over
    for client, seen in ((first, seen0), (second, seen1)):
        final = client.view
        assert isinstance(final, FivesView) and final.match_over and final.scores == tuple(match.scores)
        assert any(view.total for view in seen)  # the ends' total travels with the view
        await client.close()
    assert FivesMatch.from_log(match.log()).scores == match.scores
    assert decode_frames(bytes(wire0))  # real frames went over the socket
