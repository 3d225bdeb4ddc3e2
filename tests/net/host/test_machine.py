"""The host's state machine with a clock the test moves: no sockets, no sleeps, exact times.

Each test feeds `HostMachine` the bytes a client would send (through the real
codec) and the time, and reads the effects it returns, as the asyncio host does.
"""

from __future__ import annotations

import secrets
import struct
from typing import Any

import msgpack
import pytest
from capicu.core import parse_action
from capicu.net.codec import encode_frame
from capicu.net.host.effects import Close, Effect, Peer, Record, Send, Tell, Think
from capicu.net.host.machine import HostMachine, Limits
from capicu.net.host.table import Table, TableConfig
from capicu.net.protocol import to_wire
from capicu.net.store.journal import Journal

from ..conftest import decode_frames


def framed(obj: object) -> bytes:
    body = msgpack.packb(obj, use_bin_type=True)
    return struct.pack(">I", len(body)) + body


def hello(name: str, **fields: object) -> bytes:
    return framed({"type": "hello", "version": 7, "name": name, **fields})


def told(effects: list[Effect], peer: Peer) -> list[dict[str, Any]]:
    """What ``peer`` is sent by ``effects``, in order; a hang-up is ``{"type": "closed", ...}``."""
    frames: list[dict[str, Any]] = []
    for effect in effects:
        if isinstance(effect, Send) and effect.peer is peer:
            frames.extend(decode_frames(effect.frame))
        elif isinstance(effect, Tell) and peer in effect.peers:
            frames.extend(decode_frames(encode_frame(to_wire(effect.message))))
        elif isinstance(effect, Close) and effect.peer is peer:
            if effect.error is not None:
                frames.append(to_wire(effect.error))
            frames.append({"type": "closed"})
    return frames


def kinds(frames: list[dict[str, Any]]) -> list[str]:
    return [f["type"] for f in frames]


def host(players: int = 2, code: str | None = None, **limits: Any) -> HostMachine:
    config = TableConfig(players=players, seed=3, **limits.pop("table", {}))
    machine = HostMachine(Limits(**limits), code=code)
    machine.add_table(Table(config, entropy=secrets.token_bytes))
    return machine


def joined(machine: HostMachine, name: str, now: float = 0.0, address: str = "10.0.0.1",
           **fields: object) -> tuple[Peer, list[dict[str, Any]]]:
    peer, effects = machine.connect(address, now)
    assert not effects
    return peer, told(machine.receive(peer, hello(name, **fields), now), peer)


# -- liveness ------------------------------------------------------------------------


def test_a_frozen_client_is_pinged_after_the_handshake_and_closed_at_its_idle_limit():
    machine = host(heartbeat=0.1, idle_timeout=0.3)
    eve, frames = joined(machine, "eve", spectate=True)
    assert kinds(frames)[0] == "welcome"
    # The next deadline is the heartbeat, not the handshake's 10 s (the old bug).
    assert machine.next_deadline() == pytest.approx(0.1)
    assert kinds(told(machine.wake(0.1), eve)) == ["ping"]
    assert kinds(told(machine.wake(0.2), eve)) == ["ping"]
    assert machine.next_deadline() == pytest.approx(0.3)
    closing = told(machine.wake(0.3), eve)
    assert kinds(closing) == ["error", "closed"] and closing[0]["code"] == "timeout"
    assert machine.next_deadline() is None


def test_whole_messages_keep_a_connection_alive():
    machine = host(heartbeat=0.1, idle_timeout=0.3)
    eve, _ = joined(machine, "eve", spectate=True)
    for step in range(1, 30):
        now = step * 0.25
        machine.receive(eve, framed({"type": "pong", "n": 0}), now)
        assert not [e for e in machine.wake(now) if isinstance(e, Close)]
    assert not eve.closed


def test_a_connection_that_never_says_hello_is_closed_at_the_handshake_limit():
    machine = host()
    peer, _ = machine.connect("10.0.0.1", 0.0)
    machine.receive(peer, b"\x00\x00", 1.0)  # half a header buys nothing
    assert machine.next_deadline() == pytest.approx(10.0)
    frames = told(machine.wake(10.0), peer)
    assert frames[0]["code"] == "timeout" and "say hello" in frames[0]["message"]


@pytest.mark.parametrize("first", [{"type": "ping", "n": 1}, {"type": "pong", "n": 1}, {"type": "bye"},
                                   {"type": "chat", "text": "hi"}, {"type": "action", "action": "draw"}])
def test_anything_but_hello_first_is_refused_with_not_ready(first):
    machine = host()
    peer, _ = machine.connect("10.0.0.1", 0.0)
    frames = told(machine.receive(peer, framed(first), 0.0), peer)
    assert [(f["type"], f.get("code"), f.get("fatal")) for f in frames] == [
        ("error", "not_ready", True), ("closed", None, None)]
    # The message's type is quoted, never put after "a" ("not a action").
    assert frames[0]["message"] == f"the first message must be a hello, not {first['type']!r}"


def test_a_seat_held_for_an_away_person_is_named_as_its_person_spells_it():
    machine = host()
    bo, _ = joined(machine, "Bo")
    joined(machine, "Ana", address="10.0.0.2")
    machine.disconnected(bo, 1.0)
    _, frames = joined(machine, "bo", 2.0, address="10.0.0.3")
    assert frames[0]["code"] == "seat_held"
    assert "seat 1 is held for 'Bo'" in frames[0]["message"]


def test_pings_count_toward_the_rate_limit():
    machine = host(messages_per_second=50, message_burst=100, max_strikes=20)
    eve, _ = joined(machine, "eve", spectate=True)
    frames = told(machine.receive(eve, framed({"type": "ping", "n": 7}) * 3000, 0.0), eve)
    assert kinds(frames).count("pong") < 100
    errors = [f for f in frames if f["type"] == "error"]
    assert errors[0]["code"] == "rate_limited" and "50 messages a second" in errors[0]["message"]
    assert errors[-1]["code"] == "too_many_errors" and kinds(frames)[-1] == "closed"


def test_a_frame_must_arrive_whole_in_time_however_slowly_it_trickles():
    machine = host()
    eve, _ = joined(machine, "eve", spectate=True)
    machine.receive(eve, struct.pack(">I", 1000) + b"\x81", 1.0)
    closed_at = None
    for step in range(1, 13):
        now = 1.0 + 5 * step
        effects = machine.wake(now)
        if told(effects, eve):
            closed_at = now
            frames = told(effects, eve)
            break
        machine.receive(eve, b"\xa1", now)
    assert closed_at == 11.0  # the frame began at 1 s; 10 s to arrive whole
    assert frames[0]["code"] == "timeout" and "10 seconds to arrive whole" in frames[0]["message"]


# -- guesses -------------------------------------------------------------------------


def test_wrong_join_codes_are_limited_per_address_and_the_error_says_how_long_to_wait():
    machine = host(code="GOOD")
    for n in range(5):
        _, frames = joined(machine, f"m{n}", now=float(n), code="WRONG")
        assert (frames[0]["code"], frames[0]["message"]) == ("bad_code", "that is not this table's join code")
    # The sixth is refused before it is compared, even the right code, saying the wait.
    _, frames = joined(machine, "m5", now=10.0, code="GOOD")
    assert frames[0]["code"] == "rate_limited" and frames[0]["fatal"]
    assert "too many wrong join codes" in frames[0]["message"]
    assert "try again in 50 seconds" in frames[0]["message"]
    # Another address is not held up, and no code at all is not a guess (it says so).
    _, frames = joined(machine, "other", now=10.0, address="10.0.0.2")
    assert frames[0]["code"] == "bad_code" and "has none" in frames[0]["message"]
    _, frames = joined(machine, "ana", now=10.0, address="10.0.0.2", code="good")
    assert frames[0]["type"] == "welcome"
    # Once the window allows, the first address is heard again.
    _, frames = joined(machine, "bea", now=60.0, code="GOOD")
    assert frames[0]["type"] == "welcome"


def test_wrong_seat_keys_and_tokens_are_limited_per_address():
    machine = host(players=3)
    _, frames = joined(machine, "ana", address="10.0.0.9")
    key = frames[0]["seat_key"]
    for n in range(5):
        field = {"seat_key": "AAAA-BBBB-CCCC-DD"} if n % 2 else {"token": f"made-up-{n}"}
        _, frames = joined(machine, "-", now=float(n), **field)
        assert frames[0]["code"] == "bad_token"
    _, frames = joined(machine, "-", now=5.0, seat_key=key)
    assert frames[0]["code"] == "rate_limited" and "seat tokens and seat keys" in frames[0]["message"]
    _, frames = joined(machine, "-", now=61.0, seat_key=key)
    assert frames[0]["type"] == "welcome" and frames[0]["seat"] == 0


# -- names and chat ------------------------------------------------------------------


@pytest.mark.parametrize("lookalike", ["Hon\u200best", "HONEST", "\uff28onest", "Hon\u00adest\ufeff",
                                       "\u2060Honest\u200d"])
def test_a_name_that_looks_like_a_seated_one_is_taken(lookalike):
    machine = host(players=3)
    joined(machine, "Honest")
    _, frames = joined(machine, lookalike)
    assert frames[0]["code"] == "name_taken"


@pytest.mark.parametrize("empty", ["\u3164\u115f", "\u200b\u200d", "\u1160 \uffa0", "\u00ad"])
def test_a_name_with_nothing_visible_is_refused(empty):
    _, frames = joined(host(), empty)
    assert frames[0]["code"] == "bad_name"


def test_chat_keeps_its_text_and_loses_the_invisible_characters():
    machine = host(players=3)
    ana, _ = joined(machine, "ana")
    eve, _ = joined(machine, "eve", spectate=True)
    effects = machine.receive(ana, framed({"type": "chat", "text": "ho\u200bla\u3164 ｍｕｎｄｏ\u2060"}), 1.0)
    (chat,) = [f for f in told(effects, eve) if f["type"] == "chat"]
    assert chat["text"] == "hola ｍｕｎｄｏ"


# -- the table's timers --------------------------------------------------------------


def _started(**table: Any) -> tuple[HostMachine, Peer, Peer]:
    machine = host(table=table, heartbeat=1000, idle_timeout=2000)
    ana, _ = joined(machine, "ana")
    bea, _ = joined(machine, "bea")
    return machine, ana, bea


def test_the_turn_timer_lets_the_computer_act_at_its_deadline():
    machine, ana, bea = _started(turn_timer=20.0)
    turn = machine.tables["main"].match.turn
    assert machine.next_deadline() == pytest.approx(20.0)
    assert not machine.wake(19.9)
    (think,) = [e for e in machine.wake(20.0) if isinstance(e, Think)]
    assert think.seat == turn and think.by == "timer"
    effects = machine.chosen(think, parse_action(str(think.view.legal[0])), None, 21.0)
    updates = [f for f in told(effects, (ana, bea)[turn]) if f["type"] == "update"]
    assert updates and updates[0]["by"] == "timer" and updates[0]["actor"] == turn


def test_a_dropped_seat_is_covered_once_its_grace_period_is_over():
    machine, ana, bea = _started(grace=60.0)
    machine.disconnected(ana, 5.0)
    assert machine.next_deadline() == pytest.approx(65.0)
    assert not told(machine.wake(64.0), bea)
    seats = [f for f in told(machine.wake(65.0), bea) if f["type"] == "seats"]
    assert seats and seats[0]["seats"][0]["covered"]


# -- journals ------------------------------------------------------------------------


def test_a_tables_journal_write_holds_back_that_table_alone(tmp_path):
    machine = HostMachine(Limits())
    journal = Journal(tmp_path / "slow.journal")  # the machine never touches the file
    slow = Table(TableConfig(name="slow", players=2, seed=1, journal=tmp_path / "slow.journal"),
                 entropy=secrets.token_bytes)
    slow.journal = journal
    machine.add_table(slow)
    machine.add_table(Table(TableConfig(name="fast", players=2, seed=2), entropy=secrets.token_bytes))
    # Ana's seat is journaled before she hears of it: her welcome waits for the write.
    ana, effects = machine.connect("10.0.0.1", 0.0)
    effects = machine.receive(ana, hello("ana", table="slow"), 0.0)
    (record,) = [e for e in effects if isinstance(e, Record)]
    assert record.journal is journal and not told(effects, ana)
    # What the connection is told apart from the table is not held: a pong.
    assert kinds(told(machine.receive(ana, framed({"type": "ping", "n": 1}), 0.1), ana)) == ["pong"]
    # Another table's people join and play meanwhile, heard at once.
    bea, welcome = joined(machine, "bea", table="fast")
    cid, _ = joined(machine, "cid", table="fast")
    assert kinds(welcome) == ["welcome", "seats"]
    fast = machine.tables["fast"]
    mover = (bea, cid)[fast.match.turn]
    action = str(fast.match.legal_actions()[0])
    effects = machine.receive(mover, framed({"type": "action", "action": action, "ref": 1}), 1.0)
    assert "update" in kinds(told(effects, bea)) and "update" in kinds(told(effects, cid))
    # A second seat at the slow table: its record too, and nothing for anybody there yet.
    dan, effects = machine.connect("10.0.0.2", 2.0)
    effects = machine.receive(dan, hello("dan", table="slow"), 2.0)
    # Dan's seat, then the match's start (the seats again, the deal).
    assert sum(isinstance(e, Record) for e in effects) == 3
    assert not told(effects, ana) + told(effects, dan)
    # The first write is on disk: what waited for it comes out, and stops at the next.
    released = machine.recorded(journal)
    assert kinds(told(released, ana)) == ["welcome", "seats"] and not told(released, dan)
    assert kinds(told(machine.recorded(journal), dan)) == ["welcome", "seats"]
    assert not machine.recorded(journal)  # the start's seats: nothing waited between
    released = machine.recorded(journal)
    assert kinds(told(released, ana)) == kinds(told(released, dan)) == ["seats", "snapshot"]
    assert not machine.recorded(journal)


def test_a_journal_that_fails_stops_its_table_and_drops_what_waited(tmp_path):
    machine = HostMachine(Limits())
    slow = Table(TableConfig(name="main", players=2, seed=1, journal=tmp_path / "j"),
                 entropy=secrets.token_bytes)
    machine.add_table(slow)
    ana, _ = joined(machine, "ana")
    assert slow.journal is not None
    failed = told(machine.journal_failed(slow.journal, "disk full"), ana)
    assert [(f["type"], f.get("code")) for f in failed] == [("error", "shutting_down"), ("closed", None)]
    assert "disk full" in failed[0]["message"]
    assert not machine.recorded(slow.journal)  # the welcome that waited is gone
