"""Dropped players, held seats, computers covering, tokens, turn timers, chat, slow readers."""

from __future__ import annotations

import asyncio
import socket
import struct

import msgpack
import pytest
from capicu.core import Rules
from capicu.net import (
    Chat,
    Client,
    HostNote,
    JoinError,
    Limits,
    Reconnected,
    Reconnecting,
    Seats,
    Snapshot,
    TurnTimer,
    Update,
)
from capicu.net.client import Incoming, LinkEnd
from capicu.net.codec import Codec

from .conftest import LOOPBACK, WAIT, FakeClock, Proxy, check_numbering, decode_frames, play_bot


async def wait_for_message(client: Client, test, what: str) -> Incoming:
    """The first message from ``client`` that passes ``test`` (bounded)."""
    async with asyncio.timeout(WAIT):
        while True:
            message = await client.receive()
            if test(message):
                return message
    raise AssertionError(what)  # pragma: no cover


async def test_a_dropped_player_reconnects_by_itself_and_keeps_the_seat(start_host):
    _, port = await start_host(players=2, seed=21, grace=30)
    proxy = Proxy(port)
    await proxy.start()
    wire = bytearray()
    ana = await Client.connect(LOOPBACK, proxy.port, name="ana", wire_tap=wire.extend,
                               max_backoff=0.2)
    bea = await Client.connect(LOOPBACK, port, name="bea")
    seat, token = ana.seat, ana.token
    playing_bea = asyncio.create_task(play_bot(port, "bea", client=bea))
    # Drop Ana in the middle of her turn.
    await wait_for_message(ana, lambda m: ana.view is not None and ana.view.is_my_turn, "my turn")
    seq_before = ana.seq
    proxy.cut()
    reconnecting = await wait_for_message(ana, lambda m: isinstance(m, Reconnecting), "reconnecting")
    assert reconnecting.reason in (LinkEnd.BROKEN, LinkEnd.HOST_CLOSED)
    back = await wait_for_message(ana, lambda m: isinstance(m, Reconnected), "reconnected")
    assert back.seat == seat and ana.token == token
    snapshot = await wait_for_message(ana, lambda m: isinstance(m, Snapshot), "snapshot")
    assert snapshot.seq == seq_before and snapshot.view.is_my_turn
    assert proxy.connections == 2
    result = await play_bot(port, "ana", client=ana)
    assert result.final.match_over
    assert (await asyncio.wait_for(playing_bea, WAIT)).final.match_over
    check_numbering(decode_frames(bytes(wire)))
    await proxy.stop()


async def test_after_the_grace_period_a_computer_covers_until_the_token_comes_back(start_host):
    clock = FakeClock()
    host, port = await start_host(players=2, seed=5, grace=60, clock=clock)
    proxy = Proxy(port)
    await proxy.start()
    ana = await Client.connect(LOOPBACK, proxy.port, name="ana", reconnect=False)
    bea = await Client.connect(LOOPBACK, port, name="bea")
    seat, token = ana.seat, ana.token
    assert seat is not None and token
    proxy.cut()  # dropped, not gone on purpose: the seat waits for the grace period
    await wait_for_message(bea, lambda m: isinstance(m, Seats) and not m.seats[seat].connected,
                           "the seat away")
    clock.now += 59.9
    host.wake()
    assert not host.tables["main"].seats[seat].covered
    clock.now += 0.1
    host.wake()

    def covered(message: Incoming) -> bool:
        return isinstance(message, Seats) and message.seats[seat].covered

    await wait_for_message(bea, covered, "the seat covered")
    # Bea plays on; the computer plays Ana's turns.
    result = await play_bot(port, "bea", client=bea, stop_after=3)
    assert result.moves == 3 or result.final.match_over
    # A name alone is not a way into a seat (a headless host says how to come back).
    with pytest.raises(JoinError) as caught:
        await Client.connect(LOOPBACK, port, name="ana", reconnect=False)
    assert caught.value.code == "seat_held" and "seat key" in caught.value.message
    with pytest.raises(JoinError) as caught:
        await Client.connect(LOOPBACK, port, name="x", token=token[:-2] + "xx", reconnect=False)
    assert caught.value.code == "bad_token"
    # The token brings Ana back to her seat, with a snapshot.
    again = await Client.connect(LOOPBACK, port, name="whoever", token=token)
    assert again.seat == seat
    await wait_for_message(again, lambda m: isinstance(m, Snapshot), "snapshot")
    seats = again.model.seats  # sent before the snapshot
    assert not seats[seat].covered and seats[seat].connected and not seats[seat].left
    assert again.view is not None and again.view.seat == seat
    await again.close()
    await proxy.stop()


async def test_the_computer_covered_moves_are_marked(start_host):
    # The host's own timer, on the event loop's clock: a grace period of 0 comes at once.
    _, port = await start_host(players=2, seed=6, grace=0.0)
    proxy = Proxy(port)
    await proxy.start()
    ana = await Client.connect(LOOPBACK, proxy.port, name="ana", reconnect=False)
    wire = bytearray()
    bea = await Client.connect(LOOPBACK, port, name="bea", wire_tap=wire.extend)
    seat = ana.seat
    proxy.cut()  # dropped: covered when the grace period's timer fires
    result = await asyncio.wait_for(play_bot(port, "bea", client=bea), WAIT)
    assert result.final.match_over
    frames = decode_frames(bytes(wire))
    covered = [f for f in frames if f.get("type") == "update" and f["actor"] == seat]
    assert covered and all(f["by"] == "computer" for f in covered)
    seats = [f for f in frames if f.get("type") == "seats"]
    assert seats[-1]["seats"][seat]["covered"] and not seats[-1]["seats"][seat]["left"]
    await proxy.stop()


async def test_a_turn_timer_lets_the_computer_act_and_everyone_sees_it(start_host):
    clock = FakeClock()
    host, port = await start_host(players=2, seed=9, turn_timer=30, clock=clock)
    ana = await Client.connect(LOOPBACK, port, name="ana")  # never acts
    bea = await Client.connect(LOOPBACK, port, name="bea")
    task = asyncio.create_task(play_bot(port, "bea", client=bea))
    timer = await wait_for_message(ana, lambda m: isinstance(m, TurnTimer) and m.seat == ana.seat,
                                   "ana's turn timer")
    assert timer.seconds == 30
    table = host.tables["main"]
    assert table.next_deadline() == pytest.approx(clock.now + 30)
    clock.now += 29.9
    host.wake()
    assert table.match.turn == ana.seat
    clock.now += 0.1
    host.wake()

    def timed(message: Incoming) -> bool:
        return isinstance(message, Update) and message.by == "timer" and message.actor == ana.seat

    update = await wait_for_message(ana, timed, "a move made by the timer")
    assert update.events
    await ana.close()
    task.cancel()


async def test_chat_is_cleaned_before_anyone_sees_it(start_host):
    _, port = await start_host(players=2)
    ana = await Client.connect(LOOPBACK, port, name="ana")
    eve = await Client.connect(LOOPBACK, port, name="eve", spectate=True)
    await ana.chat("\x1b]0;owned\x07hola \x1b[31mmundo\u202e\n" + "x" * 500)
    chat = await wait_for_message(eve, lambda m: isinstance(m, Chat), "chat")
    assert chat.name == "ana" and chat.seat == ana.seat
    assert chat.text.startswith("hola mundo x") and len(chat.text) == 200
    assert not any(ord(c) < 32 or c == "\u202e" for c in chat.text)
    await ana.close()
    await eve.close()


async def test_a_client_that_never_reads_is_cut_off_and_slows_nobody(start_host):
    host, port = await start_host(
        rules=Rules.preset_named("quinientos"), players=4, computers=1, seed=4,
        limits=Limits(messages_per_second=10_000, message_burst=10_000, outbox_bytes=8192,
                      socket_send_buffer=8192),
    )
    # A spectator that reads nothing, with a tiny receive buffer: a bare socket,
    # since an asyncio transport would go on reading into its own buffer.
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.setblocking(False)
    loop = asyncio.get_running_loop()
    await loop.sock_connect(sock, (LOOPBACK, port))
    body = msgpack.packb({"type": "hello", "version": 7, "name": "stuck", "spectate": True})
    await loop.sock_sendall(sock, struct.pack(">I", len(body)) + body)
    results = await asyncio.wait_for(
        asyncio.gather(*(play_bot(port, f"p{i}", seed=i) for i in range(3))), WAIT * 2
    )
    assert all(r.final.match_over for r in results)
    # The operator hears of it as a code and its params, for the interface to word.
    cut = [note for note in start_host.reports if note.code is HostNote.CUT_OFF]
    assert cut and cut[0].values["address"] == LOOPBACK and cut[0].values["unsent"] > 0
    assert not host.tables["main"].spectators
    sock.close()


async def test_a_quiet_client_asks_the_host_and_notices_when_it_stops_answering(start_host):
    # The host's own heartbeat and idle limit are on a clock nobody moves (they are
    # tested on the machine, test_machine.py); its welcome gives the client the
    # heartbeat, which the client keeps on the event loop's clock.
    _, port = await start_host(players=2, grace=30, clock=FakeClock(),
                               limits=Limits(heartbeat=0.05, idle_timeout=0.2))
    proxy = Proxy(port)
    await proxy.start()
    seen = Codec("client")
    pongs: list[int] = []
    ten_pongs = asyncio.Event()

    def tap(data: bytes) -> None:
        seen.receive_data(data)
        while isinstance(frame := seen.next_frame(), dict):
            if frame["type"] == "pong":
                pongs.append(frame["n"])
        if len(pongs) >= 10:
            ten_pongs.set()

    ana = await Client.connect(LOOPBACK, proxy.port, name="ana", wire_tap=tap, max_backoff=0.1)
    # Nobody else comes: the client hears nothing, pings, and every ping is answered.
    await asyncio.wait_for(ten_pongs.wait(), WAIT)
    assert proxy.connections == 1 and not ana.closed
    # The network dies without closing anything: the client notices and comes back.
    proxy.freeze()
    lost = await wait_for_message(ana, lambda m: isinstance(m, Reconnecting), "reconnecting")
    assert lost.reason is LinkEnd.HOST_SILENT and lost.params == {}
    back = await wait_for_message(ana, lambda m: isinstance(m, Reconnected), "reconnected")
    assert back.seat == 0 and proxy.connections == 2
    await ana.close()
    await proxy.stop()


async def test_a_frozen_spectator_is_closed_at_its_idle_limit_and_reconnects(start_host):
    clock = FakeClock()
    # The client's own heartbeat (the welcome's 10 s) never comes in this test.
    host, port = await start_host(players=2, clock=clock, limits=Limits(heartbeat=10, idle_timeout=30))
    proxy = Proxy(port)
    await proxy.start()
    eve = await Client.connect(LOOPBACK, proxy.port, name="eve", spectate=True, max_backoff=0.1)
    (watching,) = host.tables["main"].spectators
    # Frozen, not closed: the host pings, hears nothing, and gives up at the idle limit.
    proxy.freeze()
    clock.now += 10
    host.wake()
    clock.now += 19.9
    host.wake()
    assert not watching.closed
    clock.now += 0.1
    host.wake()
    assert watching.closed
    # The network comes back broken: the client notices and comes back as a spectator
    # (its first tries may find the name still taken until the host sees the old end).
    proxy.cut()
    back = await wait_for_message(eve, lambda m: isinstance(m, Reconnected), "reconnected")
    assert back.seat is None and not eve.closed
    await eve.close()
    await proxy.stop()
