"""The break between rounds: the finished table stays in view until the people are ready."""

from __future__ import annotations

import asyncio

from capicu.core import RoundEnded, RoundStarted
from capicu.net import Client, Closed, NextRound, Seats, Snapshot, Update
from capicu.net.store.journal import read_journal

from ..conftest import LOOPBACK, WAIT, Proxy, decode_frames, next_of, play_bot, play_until_break


def is_deal(message: object) -> bool:
    return isinstance(message, Update) and any(isinstance(e, RoundStarted) for e in message.events)


async def test_the_break_waits_for_every_person_and_deals_when_all_are_ready(start_host):
    host, port = await start_host(players=3, computers=1, seed=3)
    ana = await Client.connect(LOOPBACK, port, name="ana")
    bea = await Client.connect(LOOPBACK, port, name="bea")
    eve = await Client.connect(LOOPBACK, port, name="eve", spectate=True)
    breaks = await play_until_break(ana, bea, eve)
    assert len(set(breaks)) == 1
    first = breaks[0]
    assert first.ready == () and first.waiting == (0, 1)
    assert first.seconds is not None and 19 < first.seconds <= 20
    for client in (ana, bea, eve):
        view = client.view
        assert view is not None and view.between_rounds and view.legal == ()
        assert isinstance(view.events[-1], RoundEnded) and view.round_number == 1
    # Saying ready outside one's seat changes nothing: a spectator's is ignored.
    await eve.ready()
    await ana.ready()
    await ana.ready()  # twice is once
    after_ana = await next_of(bea, NextRound)
    assert (after_ana.ready, after_ana.waiting) == ((0,), (1,))
    assert after_ana.seconds is not None and after_ana.seconds <= first.seconds
    await bea.ready()
    for client in (ana, bea, eve):
        deal = await next_of(client, Update)
        assert is_deal(deal) and deal.actor is None and deal.by == "person"
        assert [type(e) for e in deal.events] == [RoundStarted]
        assert client.view is not None and client.view.round_number == 2
        assert not client.view.between_rounds
    table = host.tables["main"]
    assert table.next_deadline() is None or table.match.turn is not None
    for client in (ana, bea, eve):
        await client.close()


async def test_the_countdown_deals_when_it_runs_out(start_host):
    host, port = await start_host(players=2, computers=1, seed=4, next_round_delay=30)
    ana = await Client.connect(LOOPBACK, port, name="ana")
    (first,) = await play_until_break(ana)
    table = host.tables["main"]
    deadline = table.next_deadline()
    assert deadline is not None and first.seconds is not None
    # The host decides given the time it is told: a second early does nothing...
    host.wake(deadline - 1.0)
    assert table.match.awaiting_deal
    # ...and the deadline deals, with nobody ready.
    host.wake(deadline)
    deal = await next_of(ana, Update)
    assert is_deal(deal) and deal.by == "timer" and deal.actor is None
    assert not table.match.awaiting_deal
    await ana.close()


async def test_without_a_countdown_the_table_waits_for_the_people(start_host):
    host, port = await start_host(players=2, computers=1, seed=4, next_round_delay=None)
    ana = await Client.connect(LOOPBACK, port, name="ana")
    (first,) = await play_until_break(ana)
    assert first.seconds is None and first.waiting == (0,)
    assert host.tables["main"].next_deadline() is None
    await ana.ready()
    assert (await next_of(ana, Update)).by == "person"
    await ana.close()


async def test_a_delay_of_zero_deals_in_the_update_that_ends_the_round(start_host):
    host, port = await start_host(players=2, computers=1, seed=4, next_round_delay=0)
    result = await asyncio.wait_for(play_bot(port, "ana"), WAIT)
    assert result.final.match_over
    assert not [f for f in result.frames if f["type"] == "next_round"]
    ends = [f for f in result.frames if f["type"] == "update"
            and any(e["type"] == "round_ended" for e in f["events"])]
    assert len(ends) > 1
    for frame in ends[:-1]:
        assert [e["type"] for e in frame["events"]][-2:] == ["round_ended", "round_started"]
    assert "pause_between_rounds" not in host.tables["main"].match.log()


async def test_a_drop_stops_the_wait_for_that_seat_and_a_return_starts_it_again(start_host):
    _, port = await start_host(players=2, seed=8, grace=30)
    proxy = Proxy(port)
    await proxy.start()
    ana = await Client.connect(LOOPBACK, port, name="ana")
    bea = await Client.connect(LOOPBACK, proxy.port, name="bea", reconnect=False)
    token = bea.token
    await play_until_break(ana, bea)
    proxy.cut()
    # Bea is no longer waited for; Ana still is.
    without_bea = await next_of(ana, NextRound)
    assert without_bea.waiting == (0,) and without_bea.ready == ()
    assert not ana.model.seats[1].connected
    # Bea comes back during the break: her snapshot shows the finished round,
    # then the break; everyone waits for her again.
    back = await Client.connect(LOOPBACK, port, name="-", token=token)
    snapshot = await next_of(back, Snapshot)
    assert snapshot.view.between_rounds
    again = await next_of(back, NextRound)
    assert again.waiting == (0, 1)
    assert (await next_of(ana, NextRound)).waiting == (0, 1)
    await back.ready()
    assert (await next_of(ana, NextRound)).waiting == (0,)
    # Ana is the last one waited for: once she is ready, the deal comes.
    await ana.ready()
    deal = await next_of(back, Update)
    assert is_deal(deal) and deal.by == "person"
    await ana.close()
    await back.close()
    await proxy.stop()


async def test_the_last_person_to_drop_or_leave_lets_the_deal_come_at_once(start_host):
    _, port = await start_host(players=2, computers=1, seed=5)
    eve = await Client.connect(LOOPBACK, port, name="eve", spectate=True)
    ana = await Client.connect(LOOPBACK, port, name="ana")
    await play_until_break(ana, eve)
    await ana.close()  # a bye: the computer plays for Ana from now on
    seats = await next_of(eve, Seats)
    assert seats.seats[0].covered and seats.seats[0].left and not seats.seats[0].connected
    deal = await next_of(eve, Update)
    assert is_deal(deal) and deal.by == "computer"
    await eve.close()


async def test_computers_alone_never_pause(start_host):
    host, port = await start_host(players=2, computers=2, seed=6)
    watcher = bytearray()
    eve = await Client.connect(LOOPBACK, port, name="eve", spectate=True, wire_tap=watcher.extend)
    while not (eve.view is not None and eve.view.match_over):
        message = await eve.receive(timeout=WAIT)
        assert not isinstance(message, NextRound | Closed), message
    frames = decode_frames(bytes(watcher))
    deals = [f for f in frames if f["type"] == "update" and f["events"][0]["type"] == "round_started"]
    assert deals and all(f["by"] == "computer" and f["actor"] is None for f in deals)
    assert host.tables["main"].match.is_over
    await eve.close()


async def test_a_host_resumed_during_a_break_starts_the_countdown_again(start_host, tmp_path):
    journal = tmp_path / "match.journal"
    host, port = await start_host(players=2, computers=1, seed=9, journal=journal)
    ana = await Client.connect(LOOPBACK, port, name="ana", reconnect=False)
    token, key, match_id = ana.token, ana.seat_key, ana.match_id
    assert match_id == host.tables["main"].match_id
    await play_until_break(ana)
    await host.stop()
    header = read_journal(journal).header
    assert header.match == match_id and header.seats[0].key == key
    resumed, port = await start_host(resume=journal, grace=30, next_round_delay=15)
    table = resumed.tables["main"]
    assert table.match_id == match_id and table.match.awaiting_deal
    loop = asyncio.get_running_loop()
    deadline = table.next_deadline()
    assert deadline is not None and loop.time() + 14 < deadline <= loop.time() + 15
    # The seat key (typed in any case, spaced) works on the resumed host, and the
    # break is there: the snapshot of the finished round, then the countdown.
    back = await Client.connect(LOOPBACK, port, name="-", seat_key=key.lower().replace("-", " "))
    assert back.seat == 0 and back.token == token and back.match_id == match_id
    assert (await next_of(back, Snapshot)).view.between_rounds
    countdown = await next_of(back, NextRound)
    assert countdown.waiting == (0,) and countdown.seconds is not None and countdown.seconds <= 15
    await back.ready()
    deal = await next_of(back, Update)
    assert is_deal(deal) and deal.by == "person"
    await back.close()
