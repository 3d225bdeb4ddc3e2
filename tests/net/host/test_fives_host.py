"""Fives and Threes at the host, as docs/PROTOCOL.md says: the page's worked example of a play that
scores, against a real host on 127.0.0.1 and a raw client (sockets, struct, msgpack); four networked
computer players and a spectator, no tile ever shown to whom may not know it."""

from __future__ import annotations

import asyncio
import copy
import json
import re
import struct
from pathlib import Path
from typing import Any

import msgpack
import msgspec
import pytest
from capicu.core import Rules
from capicu.core.fives import FivesMatch, FivesView

from ..conftest import LOOPBACK, WAIT, check_no_leaks, check_numbering, play_bot, watching

PAGE = (Path(__file__).resolve().parents[3] / "docs" / "PROTOCOL.md").read_text(encoding="utf-8")


def _squeezed(text: str) -> str:
    return re.sub(r"\s+", "", text)


async def test_the_protocol_pages_fives_and_threes_example_is_what_a_host_sends(start_host):
    section = _squeezed(PAGE.split("### Fives and Threes, worked", 1)[1].split("## 9.", 1)[0])

    def on_page(value: Any) -> bool:
        return _squeezed(json.dumps(value, ensure_ascii=False)) in section

    def pairs_on_page(view: dict[str, Any], keys: Any) -> bool:
        """Each of ``keys`` written on the page with its value, as ``"key": value``."""
        return all(_squeezed(f"{json.dumps(key)}: {json.dumps(view[key])}") in section for key in keys)

    # As the page: capicu host --headless --preset fives-and-threes --players 2 --computers 1
    # --seed 4 --code K7PX2M
    _, port = await start_host(rules=Rules.preset_named("fives-and-threes"), players=2, computers=1,
                               seed=4, code="K7PX2M")
    reader, writer = await asyncio.open_connection(LOOPBACK, port)

    def send(message: dict[str, Any]) -> None:
        body = msgpack.packb(message, use_bin_type=True)
        writer.write(struct.pack(">I", len(body)) + body)

    async def receive() -> dict[str, Any]:
        while True:
            (length,) = struct.unpack(">I", await reader.readexactly(4))
            message: dict[str, Any] = msgpack.unpackb(await reader.readexactly(length), raw=False)
            if message["type"] == "ping":
                send({"type": "pong", "n": message["n"]})
            elif message["type"] in ("snapshot", "update"):
                return message

    send({"type": "hello", "version": 7, "name": "Ana", "code": "K7PX2M"})
    try:
        async with asyncio.timeout(WAIT):
            snapshot = await receive()
            view = snapshot["view"]
            assert snapshot["seq"] == 1 and view["game"] == "fives-and-threes" and view["turn"] == 1
            assert pairs_on_page(view, (key for key in view if key != "rules"))
            assert view["rules"]["league_deal"] is False and view["rules"]["exact_finish"] is False
            # The computer's lead scores 3: the whole update is the page's.
            led = await receive()
            assert led["seq"] == 2 and on_page(led)
            # Ana's 6-6 across the 6: 15 for 8, the whole update the page's.
            send({"type": "action", "action": "play 6-6 right", "ref": 1})
            assert _squeezed('{"type": "action", "action": "play 6-6 right", "ref": 1}') in section
            scored = await receive()
            assert scored["seq"] == 3 and on_page(scored)
            assert scored["events"][0]["total"] == 15 and scored["events"][0]["points"] == 8
            assert scored["view"]["scores"] == [8, 3]
            # Then her first legal intent each time, until she knocks and the hand is blocked.
            ref, message, knocked = 1, scored, None
            while not any(e["type"] == "fives_round_ended" for e in message["events"]):
                if message["view"]["turn"] == 0:
                    ref += 1
                    send({"type": "action", "action": message["view"]["legal"][0], "ref": ref})
                message = await receive()
                if any(e["type"] == "knocked" for e in message["events"]):
                    knocked = message
    finally:
        writer.close()
    assert knocked is not None and knocked["seq"] == 9 and knocked["ref"] == 4 and on_page(knocked["events"])
    assert _squeezed('{"type": "action", "action": "pass", "ref": 4}') in section
    shown = ("ends", "total", "hand_counts", "scores", "turn", "legal")
    assert pairs_on_page(knocked["view"], shown)
    assert message["seq"] == 11 and on_page(message["events"])
    assert pairs_on_page(message["view"], (*shown, "winner"))


async def test_four_networked_players_and_a_spectator_are_never_shown_a_hidden_tile(start_host):
    # Partnerships, and the drawing option (the host draws for who cannot play: who drew, never what).
    rules = msgspec.structs.replace(Rules.preset_named("fives-and-threes"), drawing=True, target=121)
    host, port = await start_host(rules=rules, players=4, seed=11, next_round_delay=0)
    watcher, wire = await watching(port)
    spectator = asyncio.ensure_future(play_bot(port, "eve", client=watcher, wire=wire))
    results = await asyncio.wait_for(asyncio.gather(
        *(play_bot(port, f"bot {seat}", level=("easy", "normal", "hard", "normal")[seat], seed=seat)
          for seat in range(4))), WAIT * 3)
    watched = await asyncio.wait_for(spectator, WAIT)
    match = host.tables["main"].match
    assert isinstance(match, FivesMatch) and match.is_over and len(match.results) >= 2
    kinds = set()
    for result in results:
        assert not result.errors and isinstance(result.final, FivesView) and result.final.match_over
        assert check_no_leaks(result.frames, result.seat) > 0
        check_numbering(result.frames)
        kinds |= {event["type"] for frame in result.frames if frame["type"] == "update"
                  for event in frame["events"]}
    assert check_no_leaks(watched.frames, None) > 0
    # A tile slipped into an event that lays none (a draw says who drew, never which) is a leak.
    drawn = next(i for i, frame in enumerate(watched.frames) if frame["type"] == "update"
                 and any(event["type"] == "fives_tile_drawn" for event in frame["events"]))
    # (a tile still in a hand when that hand ended: never laid in it)
    hidden = str(next(tile for hand in match.results[watched.frames[drawn]["view"]["round_number"] - 1].hands
                      for tile in hand))
    leaking = copy.deepcopy(watched.frames)
    for event in leaking[drawn]["events"]:
        if event["type"] == "fives_tile_drawn":
            event["tile"] = hidden
    with pytest.raises(AssertionError, match="may not know"):
        check_no_leaks(leaking, None)
    # The hands went on past a player who chipped out, someone drew, and the leak check saw it all.
    assert {"fives_tile_played", "fives_tile_drawn", "fives_round_ended", "fives_match_ended"} <= kinds
