"""A client written from docs/PROTOCOL.md alone (sockets, struct, msgpack): it plays a match.

Protocol version 2: it also reads the seat key and match id of its welcome,
says `ready` in the break between rounds, and comes back with its seat key.
Protocol version 3: it says version 3, and plays Mexican Train too: a view map
whose `game` is `mexican-train` is a train view map, whose match is over once
its `winners` is not null (section 5); its actions are in `legal` as ever.
Protocol version 4: once the match is over (never before) it gets the match's
`record` (section 4), read as docs/RECORD.md says. It says version 6, the host's.
"""

from __future__ import annotations

import asyncio
import struct
from typing import Any

import msgpack
import msgspec
from capicu.core import Rules

from .conftest import LOOPBACK, WAIT


class SpecClient:
    """No capicu code: frames by hand, exactly as docs/PROTOCOL.md section 1 describes them."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer

    def send(self, message: dict[str, Any]) -> None:
        body = msgpack.packb(message, use_bin_type=True)
        self.writer.write(struct.pack(">I", len(body)) + body)

    async def receive(self) -> dict[str, Any]:
        (length,) = struct.unpack(">I", await self.reader.readexactly(4))
        assert 1 <= length <= 4_194_304
        message = msgpack.unpackb(await self.reader.readexactly(length), raw=False)
        assert isinstance(message, dict) and isinstance(message["type"], str)
        return message


async def play_from_the_spec(
    port: int, name: str, *, leave_after: int | None = None
) -> tuple[dict[str, Any], int, dict[str, Any]]:
    """Play until the match is over: the last view, the breaks between rounds seen, and the record.

    With ``leave_after``, leave in that break and come back as from another
    machine, with the seat key (a new connection, no token).
    """
    reader, writer = await asyncio.open_connection(LOOPBACK, port)
    client = SpecClient(reader, writer)
    client.send({"type": "hello", "version": 7, "name": name, "code": "K7PX2M", "token": None,
                 "spectate": False, "table": "main"})
    welcome = await client.receive()
    assert welcome["type"] == "welcome" and welcome["seat"] is not None and welcome["token"]
    assert welcome["version"] == 7 and welcome["match"]
    key = welcome["seat_key"]
    assert len(key.replace("-", "")) == 14 and key.count("-") == 3
    seat, seq, ref, waiting, breaks = welcome["seat"], 0, 0, False, 0
    while True:
        message = await client.receive()
        kind = message["type"]
        assert kind != "record", "a record came before the match was over"
        if kind == "ping":
            client.send({"type": "pong", "n": message["n"]})
            continue
        if kind == "error":
            assert not message["fatal"], message
            waiting = False
        if kind == "next_round":
            if seat in message["waiting"]:
                breaks += 1
                if breaks == leave_after:
                    client.send({"type": "bye"})
                    writer.close()
                    reader, writer = await asyncio.open_connection(LOOPBACK, port)
                    client = SpecClient(reader, writer)
                    client.send({"type": "hello", "version": 7, "name": "-",
                                 "seat_key": key.lower().replace("-", " ")})
                    again = await client.receive()
                    assert again["type"] == "welcome" and again["seat"] == seat, again
                    assert again["match"] == welcome["match"] and again["seat_key"] == key
                    continue
                client.send({"type": "ready"})
            continue
        if kind == "snapshot":
            seq = message["seq"]
        if kind == "update":
            assert message["seq"] == seq + len(message["events"])
            seq = message["seq"]
            if message["ref"] == ref:
                waiting = False
        if kind in ("snapshot", "update"):
            view = message["view"]
            trains = view.get("game") == "mexican-train"
            if (view["winners"] if trains else view["winner"]) is not None:
                while (message := await client.receive())["type"] != "record":
                    if message["type"] == "ping":
                        client.send({"type": "pong", "n": message["n"]})
                record = message["record"]
                assert record["format"] == "capicu-record" and record["version"] == 1
                assert record["match_id"] == welcome["match"]
                client.send({"type": "bye"})
                writer.close()
                return view, breaks, record
            if view["turn"] == seat and view["legal"] and not waiting:
                ref += 1
                client.send({"type": "action", "action": view["legal"][-1], "ref": ref})
                waiting = True


async def test_a_client_written_from_the_protocol_page_plays_a_whole_match_of_mexican_train(start_host):
    # Three spec clients and five computers: eight seats, four rounds, one client leaving and
    # coming back with its seat key in a break.
    rules = msgspec.structs.replace(Rules.preset_named("mexican-train"), rounds=4)
    _, port = await start_host(rules=rules, players=8, computers=5, seed=21, code="k7px-2m")
    views = await asyncio.wait_for(
        asyncio.gather(*(play_from_the_spec(port, f"spec {i}", leave_after=2 if i == 1 else None)
                         for i in range(3))),
        WAIT * 4,
    )
    assert all(v["game"] == "mexican-train" for v, _, _ in views)
    assert len({tuple(v["winners"]) for v, _, _ in views}) == 1
    assert all(v["totals"] == views[0][0]["totals"] and len(v["totals"]) == 8 for v, _, _ in views)
    assert all(breaks >= 3 for _, breaks, _ in views)  # 4 rounds: 3 breaks between them
    assert all(v["round_number"] == 4 and v["turn"] is None for v, _, _ in views)
    # Every seat got the same record, which states the totals and winners they saw.
    records = [record for _, _, record in views]
    assert all(record == records[0] for record in records)
    assert records[0]["totals"] == views[0][0]["totals"] and records[0]["winners"] == views[0][0]["winners"]
    assert records[0]["log"]["format"] == "capicu-mexican-train-log/2"
    assert [seat["kind"] for seat in records[0]["seats"]] == ["person"] * 3 + ["computer"] * 5


async def test_a_client_written_from_the_protocol_page_plays_a_whole_match(start_host):
    _, port = await start_host(rules=Rules.preset_named("drawing-game"), players=4, computers=1,
                               seed=12, code="k7px-2m")
    views = await asyncio.wait_for(
        asyncio.gather(*(play_from_the_spec(port, f"spec {i}", leave_after=i or None)
                         for i in range(3))),
        WAIT * 2,
    )
    assert len({v["winner"] for v, _, _ in views}) == 1
    assert all(v["scores"] == views[0][0]["scores"] for v, _, _ in views)
    assert all(breaks >= 2 for _, breaks, _ in views)
    record = views[0][2]
    assert all(other == record for _, _, other in views)
    # Partners: the winning side's two seats won, and the totals are the sides' scores.
    winner = views[0][0]["winner"]
    assert record["totals"] == views[0][0]["scores"] and record["sides"] == [0, 1, 0, 1]
    assert record["winners"] == [seat for seat in range(4) if seat % 2 == winner]
