"""Getting a seat back: seat keys, leaving on purpose, asking by name, and a host that is gone."""

from __future__ import annotations

import asyncio
import secrets

import pytest
from capicu.net import (
    Client,
    Closed,
    HostConfig,
    JoinError,
    Limits,
    Reconnecting,
    RejoinRequest,
    Seats,
    Snapshot,
    Waiting,
)
from capicu.net.client import LinkEnd
from capicu.net.codes import CODE_ALPHABET, new_seat_key, same_code
from capicu.net.protocol import Error, ErrorCode

from .conftest import LOOPBACK, WAIT, Proxy, RawPeer, first_that, next_of


def test_a_seat_key_is_long_enough_and_easy_to_read():
    keys = {new_seat_key(secrets.token_bytes) for _ in range(200)}
    assert len(keys) == 200
    for key in keys:
        groups = key.split("-")
        assert [len(g) for g in groups] == [4, 4, 4, 2]
        assert set("".join(groups)) <= set(CODE_ALPHABET)
    assert len(CODE_ALPHABET) ** 14 > 2**64
    assert same_code("k7px 2mqr-ht4w 9cv", "K7PX-2MQR-HT4W-9CV")
    assert not same_code("K7PX-2MQR-HT4W-9CW", "K7PX-2MQR-HT4W-9CV")


async def test_a_seat_key_takes_the_seat_back_and_a_wrong_one_is_refused(start_host):
    _, port = await start_host(players=2, computers=1, seed=1, code="GOOD", grace=30)
    ana = await Client.connect(LOOPBACK, port, name="ana", code="GOOD", reconnect=False)
    key, token = ana.seat_key, ana.token
    assert key and token and ana.match_id
    eve = await Client.connect(LOOPBACK, port, name="eve", code="GOOD", spectate=True)
    assert eve.seat_key is None and eve.token is None and eve.match_id == ana.match_id
    wrong = key[:-1] + ("A" if key[-1] != "A" else "B")
    with pytest.raises(JoinError) as caught:
        await Client.connect(LOOPBACK, port, name="-", seat_key=wrong, reconnect=False)
    assert caught.value.code == "bad_token" and "seat key" in caught.value.message
    # From another machine: no token, no join code, the key typed by hand.
    other = await Client.connect(LOOPBACK, port, name="-", seat_key=key.lower().replace("-", ""))
    assert (other.seat, other.token, other.seat_key) == (0, token, key)
    assert (await next_of(other, Snapshot)).view.seat == 0
    # The first machine's connection was replaced.
    assert isinstance(await next_of(ana, Closed), Closed)
    await other.close()
    await eve.close()


async def test_bye_covers_the_seat_at_once_and_the_seat_map_says_left(start_host):
    _, port = await start_host(players=3, computers=1, seed=2, grace=300)
    ana = await Client.connect(LOOPBACK, port, name="ana")
    bea = await Client.connect(LOOPBACK, port, name="bea")
    token = ana.token
    await next_of(bea, Snapshot)
    await ana.close()
    seats = await next_of(bea, Seats)
    mine = seats.seats[0]
    assert (mine.kind, mine.name, mine.connected) == ("person", "ana", False)
    assert mine.covered and mine.left
    # The seat is still Ana's.
    back = await Client.connect(LOOPBACK, port, name="-", token=token)
    assert back.seat == 0
    seats = await next_of(bea, Seats)
    assert seats.seats[0].connected and not seats.seats[0].covered and not seats.seats[0].left
    await back.close()
    await bea.close()


async def test_a_dropped_connection_is_not_a_leave(start_host):
    _, port = await start_host(players=2, seed=2, grace=300)
    proxy = Proxy(port)
    await proxy.start()
    ana = await Client.connect(LOOPBACK, proxy.port, name="ana", reconnect=False)
    bea = await Client.connect(LOOPBACK, port, name="bea")
    await next_of(bea, Snapshot)
    proxy.cut()
    seats = await next_of(bea, Seats)
    assert not seats.seats[ana.seat].connected
    assert not seats.seats[ana.seat].covered and not seats.seats[ana.seat].left
    await bea.close()
    await proxy.stop()


async def test_bye_in_the_lobby_frees_the_seat(start_host):
    _, port = await start_host(players=3, grace=300)
    ana = await Client.connect(LOOPBACK, port, name="ana")
    bea = await Client.connect(LOOPBACK, port, name="bea")
    await ana.close()
    seats = await first_that(bea, lambda m: isinstance(m, Seats) and m.seats[0].name != "ana")
    assert seats.seats[0].kind == "open" and seats.seats[0].name is None
    cai = await Client.connect(LOOPBACK, port, name="ana")  # the name is free again
    assert cai.seat == 0
    await cai.close()
    await bea.close()


# -- asking for a seat back by name -------------------------------------------------


async def _away(start_host, **options):
    """A started table whose seat 0 (Ana's) is away; the host, its port and Bea (seat 1)."""
    options.setdefault("players", 2)
    host, port = await start_host(seed=3, grace=300, **options)
    code = options.get("code")
    ana = await Client.connect(LOOPBACK, port, name="Ana", code=code, reconnect=False)
    bea = await Client.connect(LOOPBACK, port, name="Bea", code=code)
    await next_of(bea, Snapshot)
    await ana.close()
    await next_of(bea, Seats)
    return host, port, bea


async def test_a_headless_host_refuses_a_name_and_says_how_to_come_back(start_host):
    _, port, bea = await _away(start_host, code="GOOD")
    with pytest.raises(JoinError) as caught:
        await Client.connect(LOOPBACK, port, name="  ana ", code="GOOD", reconnect=False)
    assert caught.value.code == "seat_held"
    assert "machine that had it" in caught.value.message and "seat key" in caught.value.message
    await bea.close()


async def test_rejoin_by_name_needs_the_code_and_gives_the_seat_back(start_host):
    _, port, bea = await _away(start_host, code="GOOD", rejoin_by_name=True)
    with pytest.raises(JoinError) as caught:
        await Client.connect(LOOPBACK, port, name="ana", code="BAD", reconnect=False)
    assert caught.value.code == "bad_code"
    back = await Client.connect(LOOPBACK, port, name="ANA", code="good")
    assert back.seat == 0 and back.token and back.seat_key
    assert (await next_of(back, Snapshot)).view.seat == 0
    # Bea is connected: her name never takes her seat.
    with pytest.raises(JoinError) as caught:
        await Client.connect(LOOPBACK, port, name="bea", code="GOOD", reconnect=False)
    assert caught.value.code == "name_taken"
    await back.close()
    await bea.close()


class Operator:
    """The host's operator: the questions it was asked and the ones that went away."""

    def __init__(self) -> None:
        self.asked: asyncio.Queue[RejoinRequest] = asyncio.Queue()
        self.cancelled: asyncio.Queue[int] = asyncio.Queue()

    def options(self) -> dict[str, object]:
        return {"ask": self.asked.put_nowait, "cancelled": self.cancelled.put_nowait}


@pytest.fixture
async def operated(start_host):
    """A host with an operator (``ask``): its table's seat 0 is away."""
    operator = Operator()
    # Heartbeats far off: a test moves the host's clock a minute on, and a silent
    # asker would be closed for its silence before its request runs out.
    quiet = Limits(messages_per_second=10_000, message_burst=10_000, heartbeat=500, idle_timeout=1000)
    host, port, bea = await _away(start_host, host_options=operator.options(), limits=quiet)
    yield host, port, bea, operator
    await bea.close()


async def test_the_operator_lets_a_person_back_by_name(operated):
    host, port, _, operator = operated
    told: list[Waiting] = []
    joining = asyncio.create_task(
        Client.connect(LOOPBACK, port, name="ana", on_waiting=told.append, timeout=0.3)
    )
    request = await asyncio.wait_for(operator.asked.get(), WAIT)
    assert (request.table, request.seat, request.name, request.address) == ("main", 0, "Ana", LOOPBACK)
    # The handshake waits beyond its usual timeout (0.3 s here) for the answer.
    done, _ = await asyncio.wait({joining}, timeout=0.6)
    assert not done
    assert told == [Waiting("approval", 0, 60.0)]
    # One request per seat at a time.
    with pytest.raises(JoinError) as caught:
        await Client.connect(LOOPBACK, port, name="ana", reconnect=False)
    assert caught.value.code == "seat_held" and "already asking" in caught.value.message
    assert host.answer_rejoin(request.id, True)
    back = await asyncio.wait_for(joining, WAIT)
    assert back.seat == 0 and back.token and back.seat_key
    assert (await next_of(back, Snapshot)).view.seat == 0
    assert not host.answer_rejoin(request.id, True)  # already answered
    await back.close()


async def test_the_operator_refuses(operated):
    host, port, _, operator = operated
    joining = asyncio.create_task(Client.connect(LOOPBACK, port, name="ana", reconnect=False))
    request = await asyncio.wait_for(operator.asked.get(), WAIT)
    assert host.answer_rejoin(request.id, False)
    with pytest.raises(JoinError) as caught:
        await asyncio.wait_for(joining, WAIT)
    assert caught.value.code == "refused" and "seat 1" in caught.value.message


async def test_a_request_nobody_answers_is_refused_in_time(operated):
    host, port, _, operator = operated
    peer = await RawPeer.open(port)
    peer.send_obj({"type": "hello", "version": 7, "name": "ana"})
    assert (await peer.next())["type"] == "waiting"
    request = await asyncio.wait_for(operator.asked.get(), WAIT)
    # The host's clock is passed in: a second early nothing happens, then the time is up.
    loop = asyncio.get_running_loop()
    host.wake(loop.time() + 58)
    assert operator.cancelled.empty()
    host.wake(loop.time() + 61)
    error = await peer.until("error")
    assert (error["code"], error["fatal"]) == ("refused", True) and "60 seconds" in error["message"]
    assert await asyncio.wait_for(operator.cancelled.get(), WAIT) == request.id
    assert not host.answer_rejoin(request.id, True)


async def test_a_request_ends_when_the_asker_goes_or_the_person_comes_back(operated):
    host, port, _, operator = operated
    token = host.tables["main"].seats[0].token
    peer = await RawPeer.open(port)
    peer.send_obj({"type": "hello", "version": 7, "name": "ana"})
    first = await asyncio.wait_for(operator.asked.get(), WAIT)
    peer.close()
    assert await asyncio.wait_for(operator.cancelled.get(), WAIT) == first.id
    assert not host.answer_rejoin(first.id, True)
    # Asked again; meanwhile the person comes back with the token.
    peer = await RawPeer.open(port)
    peer.send_obj({"type": "hello", "version": 7, "name": "ana"})
    second = await asyncio.wait_for(operator.asked.get(), WAIT)
    back = await Client.connect(LOOPBACK, port, name="-", token=token)
    assert await asyncio.wait_for(operator.cancelled.get(), WAIT) == second.id
    error = await peer.until("error")
    assert error["code"] == "name_taken"
    assert not host.answer_rejoin(second.id, True)
    assert host.tables["main"].seats[0].peer is not None
    # Now Ana is connected: her name is taken, and nobody asks the operator.
    with pytest.raises(JoinError) as caught:
        await Client.connect(LOOPBACK, port, name="ana", reconnect=False)
    assert caught.value.code == "name_taken" and operator.asked.empty()
    await back.close()


# -- the host is gone ---------------------------------------------------------------


async def test_a_stopped_host_is_said_down_at_once_and_the_client_gives_up_in_time(start_host):
    host, port = await start_host(players=2, computers=1, seed=4)
    ana = await Client.connect(LOOPBACK, port, name="ana", max_backoff=0.2, give_up_after=1.0)
    await next_of(ana, Snapshot)
    await host.stop()
    # The client alone decides to come back: its reader hears Reconnecting, never the host's
    # fatal "shutting down" (which would read as the end).
    before: list[object] = []
    while not isinstance(first := await ana.receive(timeout=WAIT), Reconnecting):
        before.append(first)
    assert not any(isinstance(m, Error) for m in before), before
    assert ana.model.lost and ana.model.drops == 1
    assert first.attempt == 1 and first.host_down  # it said it was shutting down
    assert (first.reason, first.params) == (LinkEnd.REFUSED, {"code": ErrorCode.SHUTTING_DOWN})
    second = await next_of(ana, Reconnecting)
    assert second.attempt == 2 and second.host_down and second.reason is LinkEnd.UNREACHABLE
    assert second.params["problem"]  # the system's words: "connection refused"
    attempts = [first, second]
    while not isinstance(message := await ana.receive(timeout=WAIT), Closed):
        if isinstance(message, Reconnecting):
            attempts.append(message)
    assert [a.attempt for a in attempts] == list(range(1, len(attempts) + 1))
    assert message.reason is LinkEnd.GAVE_UP and message.params["last"] == LinkEnd.UNREACHABLE
    assert isinstance(message.params["seconds"], int) and message.params["seconds"] >= 1


async def test_a_vanished_host_is_said_down_after_the_first_retry(start_host):
    _, port = await start_host(players=2, computers=1, seed=4)
    proxy = Proxy(port)
    await proxy.start()
    ana = await Client.connect(LOOPBACK, proxy.port, name="ana", max_backoff=0.2, give_up_after=30)
    await next_of(ana, Snapshot)
    await proxy.stop()  # the connection is reset and nothing listens any more
    loop = asyncio.get_running_loop()
    lost_at = loop.time()
    first = await next_of(ana, Reconnecting)
    assert first.attempt == 1 and not first.host_down  # not known yet
    second = await next_of(ana, Reconnecting)
    assert second.attempt == 2 and second.host_down
    assert loop.time() - lost_at < 2.0
    await ana.close()


async def test_an_unknown_seat_key_or_token_is_refused_by_a_raw_client(start_host):
    _, port = await start_host(players=2)
    for field in ("seat_key", "token"):
        peer = await RawPeer.open(port)
        peer.send_obj({"type": "hello", "version": 7, "name": "x", field: "AAAA-BBBB-CCCC-DD"})
        error = await peer.until("error")
        assert (error["code"], error["fatal"]) == ("bad_token", True)
        peer.close()


def test_rejoining_by_name_needs_a_code_and_the_answer_a_time_limit():
    with pytest.raises(ValueError, match="needs a join code"):
        HostConfig(rejoin_by_name=True, code=None)
    with pytest.raises(ValueError, match="rejoin_answer_timeout"):
        Limits(rejoin_answer_timeout=0)
