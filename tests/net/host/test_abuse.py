"""A live host fed bad input: each gets its clear error, the host stays up, other tables play on."""

from __future__ import annotations

import asyncio
import struct

import msgpack
import pytest
from capicu.net import Client, JoinError, Limits, TableConfig

from ..conftest import WAIT, FakeClock, RawPeer, play_bot


def framed(obj: object) -> bytes:
    body = msgpack.packb(obj, use_bin_type=True)
    return struct.pack(">I", len(body)) + body


def hello(name: str = "mallory", **fields: object) -> dict[str, object]:
    return {"type": "hello", "version": 7, "name": name, **fields}


BAD_INPUT = {
    "garbage": (b"GET / HTTP/1.1\r\nHost: x\r\n\r\n", "bad_frame"),
    "2 GiB length": (struct.pack(">I", 2**31), "bad_frame"),
    "4 GiB - 1 length": (b"\xff\xff\xff\xff", "bad_frame"),
    "deep nesting": (struct.pack(">I", 2001) + b"\x91" * 2000 + b"\x00", "bad_frame"),
    "invalid utf-8": (struct.pack(">I", 4) + b"\xa3\xc3\x28\x00", "bad_frame"),
    "unknown type": (framed({"type": "admin", "cmd": "shutdown"}), "unknown_type"),
    "wrong types": (framed(hello(name=["a", "b"])), "bad_message"),
    "not a hello first": (framed({"type": "action", "action": "draw"}), "not_ready"),
    "a ping first": (framed({"type": "ping", "n": 1}), "not_ready"),
    "a bye first": (framed({"type": "bye"}), "not_ready"),
    "no code": (framed(hello()), "bad_code"),
    "old version": (framed(hello(version=1)), "version"),
    "no such table": (framed(hello(table="nope")), "no_table"),
    "empty name": (framed(hello(name="\x1b[2J", code="GOOD")), "bad_name"),
    "wrong code": (framed(hello(code="WRONG")), "bad_code"),
    "made-up token": (framed(hello(token="x" * 32)), "bad_token"),
}


@pytest.fixture
async def busy_host(start_host):
    """A host with a code, the abuse target table, and a second table that plays meanwhile."""
    host, port = await start_host(
        players=2, code="GOOD", seed=2,
        limits=Limits(messages_per_second=1000, message_burst=1000, max_strikes=5),
    )
    host.open_table(TableConfig(name="calm", players=3, computers=1, seed=8))
    calm = asyncio.gather(*(play_bot(port, f"calm {i}", table="calm", code="GOOD") for i in range(2)))
    yield host, port
    results = await asyncio.wait_for(calm, WAIT * 3)
    # The other table played a whole match, untouched by everything above.
    assert all(r.final.match_over and not r.errors for r in results)


@pytest.mark.parametrize("case", list(BAD_INPUT))
async def test_bad_input_gets_its_error_and_the_host_stays_up(busy_host, case):
    _, port = busy_host
    data, code = BAD_INPUT[case]
    peer = await RawPeer.open(port)
    peer.send_bytes(data)
    frames = await peer.closed()
    errors = [f for f in frames if f["type"] == "error"]
    assert [(e["code"], e["fatal"]) for e in errors] == [(code, True)], frames
    assert errors[0]["message"]
    # The host is still up: a proper client gets in.
    client = await Client.connect("127.0.0.1", port, name=f"after {case}", code="good")
    assert client.seat is not None or client.welcome is not None
    await client.close()


async def test_silence_after_connecting_times_out(start_host):
    clock = FakeClock()
    host, port = await start_host(players=2, clock=clock)
    peer = await RawPeer.open(port)
    # Connections are taken in the order they come: once a later one is welcomed,
    # the host has this one too.
    later = await Client.connect("127.0.0.1", port, name="later", spectate=True)
    (silent,) = [p for p in host.machine.peers.values() if not p.liveness.ready]
    clock.now += 9.9
    host.wake()
    assert not silent.closed
    clock.now += 0.1
    host.wake()
    frames = await peer.closed()
    assert [(f["code"], f["fatal"]) for f in frames] == [("timeout", True)]
    assert "say hello" in frames[0]["message"]
    await later.close()


async def test_moves_out_of_turn_and_illegal_moves_are_refused_and_change_nothing(busy_host):
    host, port = busy_host
    a = await RawPeer.open(port)
    a.send_bytes(framed(hello("ana", code="GOOD")))
    b = await RawPeer.open(port)
    b.send_bytes(framed(hello("bea", code="GOOD")))
    welcome_a, welcome_b = await a.until("welcome"), await b.until("welcome")
    snapshot = await a.until("snapshot")
    turn = snapshot["view"]["turn"]
    waiting = (a, b)[1 - turn] if welcome_a["seat"] == 0 else (a, b)[turn]
    assert {welcome_a["seat"], welcome_b["seat"]} == {0, 1}
    match = host.tables["main"].match
    before = match.log()
    waiting.send_bytes(framed({"type": "action", "action": "draw", "ref": 4}))
    error = await waiting.until("error")
    assert (error["code"], error["ref"], error["fatal"]) == ("illegal", 4, False)
    assert "not your turn" in error["message"]
    mover = a if waiting is b else b
    mover.send_bytes(framed({"type": "action", "action": "play 9-9 left", "ref": 5}))
    error = await mover.until("error")
    assert (error["code"], error["ref"]) == ("illegal", 5)
    assert match.log() == before
    # Spectators cannot play.
    eve = await RawPeer.open(port)
    eve.send_bytes(framed(hello("eve", code="GOOD", spectate=True)))
    assert (await eve.until("welcome"))["seat"] is None
    eve.send_bytes(framed({"type": "action", "action": "draw"}))
    assert (await eve.until("error"))["code"] == "not_seated"
    # Refusals in a row get the connection closed.
    for _ in range(6):
        waiting.send_bytes(framed({"type": "action", "action": "draw"}))
    frames = await waiting.closed()
    assert frames[-1]["code"] == "too_many_errors"
    for peer in (a, b, eve):
        peer.close()


async def test_a_flood_is_rate_limited_then_cut_off(busy_host):
    _, port = busy_host
    peer = await RawPeer.open(port)
    peer.send_bytes(framed(hello("flood", code="GOOD", spectate=True)))
    await peer.until("welcome")
    peer.send_bytes(framed({"type": "chat", "text": "spam"}) * 3000)
    frames = await peer.closed()
    codes = [f["code"] for f in frames if f["type"] == "error"]
    assert codes[0] == "rate_limited", [f["type"] for f in frames][-5:]
    assert codes[-1] == "too_many_errors"


async def test_names_are_unique_and_cleaned(busy_host):
    _, port = busy_host
    ana = await Client.connect("127.0.0.1", port, name="\x1b[1mAna\u202e", code="GOOD")
    assert ana.welcome is not None and ana.welcome.name == "Ana"
    with pytest.raises(JoinError) as caught:
        await Client.connect("127.0.0.1", port, name="ana", code="GOOD", reconnect=False)
    assert caught.value.code == "name_taken"
    # Letters of another script that look like Ana's are Ana's name too.
    with pytest.raises(JoinError) as caught:
        await Client.connect("127.0.0.1", port, name="\u0410n\u0430", code="GOOD", reconnect=False)
    assert caught.value.code == "name_taken"
    # One letter under a pile of marks keeps only the few a writing system needs.
    piled = await Client.connect("127.0.0.1", port, name="Z" + "\u0336\u0337" * 12, code="GOOD",
                                 spectate=True)
    assert piled.welcome is not None and piled.welcome.name == "Z\u0336\u0337\u0336"
    await piled.close()
    await ana.close()


async def test_too_many_connections_from_one_address(start_host):
    _, port = await start_host(limits=Limits(connections_per_address=2))
    first, second = await RawPeer.open(port), await RawPeer.open(port)
    third = await RawPeer.open(port)
    frames = await third.closed()
    assert [f["code"] for f in frames] == ["too_many_connections"]
    # A connection that ends makes room for another (once the host has seen it end).
    first.close()
    second.close()
    async with asyncio.timeout(WAIT):
        while True:
            try:
                client = await Client.connect("127.0.0.1", port, name="later", reconnect=False)
                break
            except JoinError as exc:
                assert exc.code == "too_many_connections"
                await asyncio.sleep(0.01)
    assert client.seat == 0
    await client.close()
