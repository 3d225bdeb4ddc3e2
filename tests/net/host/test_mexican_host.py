"""Mexican Train at the host: 8 seats, computers, people, refusals, the wire, as docs/PROTOCOL.md says.

A real host on 127.0.0.1 with real clients (net/client.py) and raw sockets; and the
host's state machine with a clock the test moves, for the timers at 8 seats.
"""

from __future__ import annotations

import asyncio
import json
import re
import secrets
import struct
from pathlib import Path
from typing import Any

import msgpack
import msgspec
from capicu.core import MexicanView, Rules, parse_action
from capicu.core.actions import Play, Run
from capicu.core.ai.mexican_players import make_mexican_player
from capicu.net.client import Client, Closed, Update
from capicu.net.host.effects import Effect, Peer, Think
from capicu.net.host.machine import HostMachine, Limits
from capicu.net.host.table import Table, TableConfig
from capicu.net.protocol import Error, NextRound, TrainSnapshot

from ..conftest import LOOPBACK, WAIT, decode_frames, watching
from .test_machine import framed, hello, told

MEXICAN = Rules.preset_named("mexican-train")
#: A tile as the wire writes one.
TILE = re.compile(r"^\d{1,2}-\d{1,2}$")


def short(rounds: int = 1, **changes: Any) -> Rules:
    return msgspec.structs.replace(MEXICAN, rounds=rounds, **changes)


# -- what a frame may show ------------------------------------------------------------------


def _tiles_in(value: Any, out: set[str]) -> None:
    """Every tile written anywhere in ``value`` (plain data), but in round results (hands shown then)."""
    if isinstance(value, str) and TILE.match(value):
        out.add(value)
    elif isinstance(value, dict):
        for key, item in value.items():
            if key not in ("result", "results"):
                _tiles_in(item, out)
    elif isinstance(value, list | tuple):
        for item in value:
            _tiles_in(item, out)


def assert_no_other_hand(frames: list[dict[str, Any]], seat: int | None) -> int:
    """No frame to ``seat`` (None: a spectator) writes a tile that is neither its own nor public.

    Public: the engines and the tiles laid (their events); the round results show every
    hand once the round is over, and are left out. Returns how many views were read.
    """
    laid: set[str] = set()
    views = 0
    for frame in frames:
        if frame["type"] not in ("snapshot", "update"):
            continue
        view = frame["view"]
        assert view["game"] == "mexican-train"
        views += 1
        events = frame.get("events", []) + view.get("events", [])
        for event in events:
            if event["type"] == "train_tile_played":
                laid.add(event["tile"])
            if event["type"] == "train_round_started":
                laid.add(event["engine"])
        if "engine" in view:
            laid.add(view["engine"])
        mine = set(view["hand"])
        if seat is None:
            assert not mine, "a spectator is shown a hand"
        shown: set[str] = set()
        _tiles_in(frame, shown)
        assert shown <= mine | laid, f"seat {seat} is shown {sorted(shown - mine - laid)}"
    return views


# -- a whole match of computers at 8 seats ------------------------------------------------


async def test_a_real_host_plays_a_whole_match_of_mexican_train_between_eight_computers(start_host):
    host, port = await start_host(rules=MEXICAN, players=8, computers=8, seed=5, next_round_delay=0.0)
    del host
    # The spectator gets one snapshot, then follows every update to the end.
    watcher, wire = await watching(port)
    async with asyncio.timeout(WAIT * 6):
        while True:
            message = await watcher.receive()
            assert not isinstance(message, Closed), message
            view = watcher.view
            if isinstance(view, MexicanView) and view.match_over:
                break
    assert isinstance(view, MexicanView) and view.seat is None and not view.hand
    assert view.players == 8 and len(view.results) == 13  # one round per double, 12-12 to 0-0
    assert [r.engine.high for r in view.results] == list(range(12, -1, -1))
    for seat in range(8):
        assert view.totals[seat] == sum(r.counts[seat] for r in view.results)
    assert view.winners == tuple(s for s, total in enumerate(view.totals) if total == min(view.totals))
    await watcher.close()
    frames = decode_frames(bytes(wire))
    kinds = [f["type"] for f in frames]
    assert kinds[:2] == ["welcome", "seats"] and kinds.count("snapshot") == 1
    assert frames[1]["seats"][7]["kind"] == "computer" and len(frames[1]["seats"]) == 8
    assert assert_no_other_hand(frames, None) > 100


# -- people: Mexican actions, refusals, and what the wire shows them -----------------------


async def _turn_of(clients: list[Client], seat: int) -> Client:
    return next(c for c in clients if c.seat == seat)


async def _until_my_turn(client: Client) -> MexicanView:
    async with asyncio.timeout(WAIT):
        while True:
            view = client.view
            if isinstance(view, MexicanView) and view.is_my_turn and view.legal:
                return view
            message = await client.receive()
            assert not isinstance(message, Closed), message


async def _answer(client: Client, ref: int) -> Update | Error:
    async with asyncio.timeout(WAIT):
        while True:
            message = await client.receive()
            assert not isinstance(message, Closed), message
            if isinstance(message, Update | Error) and message.ref == ref:
                return message


async def test_people_send_mexican_actions_and_the_host_refuses_with_codes(start_host):
    # Three people, no computer: whoever plays first is a person.
    _, port = await start_host(rules=short(), players=3, seed=8, next_round_delay=0.0)
    wires = [bytearray() for _ in range(3)]
    clients = [await asyncio.wait_for(Client.connect(LOOPBACK, port, name=f"p{i}", wire_tap=wires[i].extend),
                                      WAIT) for i in range(3)]
    watcher, watcher_wire = await watching(port)
    first = clients[0]
    snapshot = None
    async with asyncio.timeout(WAIT):
        while snapshot is None:
            message = await first.receive()
            if isinstance(message, TrainSnapshot):
                snapshot = message
    view = snapshot.view
    assert isinstance(view, MexicanView) and view.seat == 0 and len(view.hand) == 15
    on_turn = await _turn_of(clients, view.turn)  # type: ignore[arg-type]
    view = await _until_my_turn(on_turn)
    assert view.may_run and view.first_turn
    others = [c for c in clients if c is not on_turn]

    # Not this seat's turn: refused (not fatal), and nothing changes.
    ref = await others[0].send_action(str(view.legal[0]))
    refused = await _answer(others[0], ref)
    assert isinstance(refused, Error) and refused.code == "illegal" and not refused.fatal
    assert "not your turn" in refused.message
    # A Draw-family action is no action of this game.
    ref = await on_turn.send_action("play 3-5 left")
    refused = await _answer(on_turn, ref)
    assert isinstance(refused, Error) and refused.code == "illegal"
    assert refused.message.endswith("is not an action of Mexican Train")
    # A tile not held, on one's own train.
    held = set(view.hand)
    stranger = next(t for t in (parse_action(f"play {a}-{b} train {view.seat}").tile
                                for a in range(13) for b in range(a, 13)) if t not in held)
    ref = await on_turn.send_action(f"play {stranger} train {view.seat}")
    refused = await _answer(on_turn, ref)
    assert isinstance(refused, Error) and f"you do not hold {stranger}" in refused.message
    # Drawing while a tile fits.
    ref = await on_turn.send_action("draw")
    refused = await _answer(on_turn, ref)
    assert isinstance(refused, Error) and "you must play" in refused.message
    # A spectator cannot play.
    ref = await watcher.send_action("pass")
    refused = await _answer(watcher, ref)
    assert isinstance(refused, Error) and refused.code == "not_seated"

    # The opening run, whole, as one action: the first tile that goes on one's own train.
    start = next(a for a in view.legal if isinstance(a, Play) and not a.tile.is_double)
    ref = await on_turn.send_action(Run((start.tile,)))
    taken = await _answer(on_turn, ref)
    assert isinstance(taken, Update) and taken.actor == view.seat
    assert [type(e).__name__ for e in taken.events][:2] == ["MexicanTilePlayed", "RunEnded"]
    assert isinstance(taken.view, MexicanView) and start.tile not in taken.view.hand
    assert taken.view.trains[view.seat].tiles[0][0] == 12  # from the engine's number

    # Then everyone plays on to the end of the match (one round), the first legal action each turn;
    # the host makes the draws (a view never offers draw alone).
    async def play_out(client: Client, wire: bytearray) -> MexicanView:
        pending = None
        async with asyncio.timeout(WAIT * 2):
            while True:
                current = client.view
                if isinstance(current, MexicanView) and current.match_over:
                    return current
                mine = isinstance(current, MexicanView) and current.is_my_turn and bool(current.legal)
                if mine and pending is None:
                    assert isinstance(current, MexicanView)
                    assert tuple(map(str, current.legal)) != ("draw",)
                    pending = await client.send_action(current.legal[0])
                message = await client.receive()
                assert not isinstance(message, Closed), message
                if isinstance(message, Error):
                    raise AssertionError(message)
                if isinstance(message, Update) and message.ref == pending:
                    pending = None
                if isinstance(message, NextRound):
                    await client.ready()

    finals = await asyncio.gather(*(play_out(c, w) for c, w in zip(clients, wires, strict=True)))
    assert len({f.winners for f in finals}) == 1 and all(f.round_number == 1 for f in finals)
    for client in [*clients, watcher]:
        await client.close()
    for client, wire in zip(clients, wires, strict=True):
        frames = decode_frames(bytes(wire))
        assert assert_no_other_hand(frames, client.seat) > 10
    assert assert_no_other_hand(decode_frames(bytes(watcher_wire)), None) > 10


async def test_a_malformed_mexican_action_is_a_bad_message_and_the_host_hangs_up(start_host):
    _, port = await start_host(rules=short(), players=2, computers=1, seed=2)
    reader, writer = await asyncio.open_connection(LOOPBACK, port)

    def send(message: dict[str, Any]) -> None:
        body = msgpack.packb(message, use_bin_type=True)
        writer.write(struct.pack(">I", len(body)) + body)

    async def receive() -> dict[str, Any]:
        (length,) = struct.unpack(">I", await reader.readexactly(4))
        return msgpack.unpackb(await reader.readexactly(length), raw=False)  # type: ignore[no-any-return]

    send({"type": "hello", "version": 7, "name": "Ana", "code": "K7PX2M"})
    async with asyncio.timeout(WAIT):
        while (await receive())["type"] != "snapshot":
            pass
        send({"type": "action", "action": "play 5-5 train", "ref": 1})
        while True:
            frame = await receive()
            if frame["type"] == "error":
                break
    assert frame["code"] == "bad_message" and frame["fatal"] and "action.action" in frame["message"]
    writer.close()


# -- eight seats at the host's state machine: lobby, timer, grace, covering, forced draws ---


def _act_for(think: Think) -> Any:
    assert isinstance(think.view, MexicanView)
    return make_mexican_player("normal", think.seed).choose(think.view)


def test_eight_people_a_spectator_the_turn_timer_the_grace_and_covering_at_eight_seats():
    config = TableConfig(rules=short(4), players=8, seed=13, turn_timer=30.0, grace=60.0,
                         next_round_delay=0.0)
    machine = HostMachine(Limits(heartbeat=10_000, idle_timeout=20_000, messages_per_second=10_000,
                                 message_burst=10_000))
    machine.add_table(Table(config, entropy=secrets.token_bytes))
    people: list[Peer] = []
    seen: dict[int, list[dict[str, Any]]] = {}
    now = 0.0
    # The lobby fills seat by seat: every seat map names 8 seats; the last person starts the match.
    for index in range(8):
        peer, effects = machine.connect(f"10.0.0.{index + 1}", now)
        frames = told(machine.receive(peer, hello(f"player {index}"), now), peer)
        assert frames[0]["type"] == "welcome" and frames[0]["seat"] == index and frames[0]["players"] == 8
        seats = [f for f in frames if f["type"] == "seats"][-1]
        assert len(seats["seats"]) == 8 and seats["started"] is (index == 7)
        people.append(peer)
        seen[peer.id] = frames
    spectator, _ = machine.connect("10.0.1.1", now)
    watching_frames = told(machine.receive(spectator, hello("eve", spectate=True), now), spectator)
    assert [f["type"] for f in watching_frames] == ["welcome", "seats", "snapshot", "timer"]
    assert watching_frames[1]["spectators"] == 1 and watching_frames[1]["watchers"] == ["eve"]
    table = machine.tables["main"]
    match = table.match
    assert match is not None and match.players == 8

    # The turn timer: nobody acts, the computer acts for the seat on turn at its deadline.
    turn = match.turn
    assert machine.next_deadline() == 30.0
    assert not machine.wake(29.0)
    (think,) = [e for e in machine.wake(30.0) if isinstance(e, Think)]
    assert think.seat == turn and think.by == "timer"
    effects = machine.chosen(think, _act_for(think), None, 30.5)
    updates = [f for f in told(effects, spectator) if f["type"] == "update"]
    assert updates and updates[0]["by"] == "timer" and updates[0]["actor"] == turn
    now = 31.0

    # Seat 7 drops: held for the grace period, then covered by the computer.
    machine.disconnected(people[7], now)
    covered_at = now + 60.0
    drawn = 0
    by_computer = by_timer = 0
    thinking: dict[int, Think] = {}

    def take(effects: list[Effect]) -> None:
        nonlocal drawn
        for effect in effects:
            if isinstance(effect, Think):
                thinking[effect.seat] = effect
        for frame in told(effects, spectator):
            if frame["type"] == "update":
                drawn += sum(e["type"] == "train_tile_drawn" for e in frame["events"])

    for _ in range(20_000):
        if match.winners is not None:
            break
        turn = match.turn
        assert turn is not None  # no break between rounds with next_round_delay 0
        think = thinking.pop(turn, None)
        if think is not None:
            if think.by == "computer":
                assert turn == 7 and table.seats[7].covered
                by_computer += 1
            else:
                by_timer += 1
            take(machine.chosen(think, _act_for(think), None, now))
        elif turn == 7:
            # Seat 7 is away: its turn waits for the turn timer, or the computer once it is covered.
            when = machine.next_deadline()
            assert when is not None
            now = max(now, when)
            take(machine.wake(now))
        else:
            view = match.view(turn)
            # The host made the draws the rules force: a seat is never left with draw alone.
            assert tuple(map(str, view.legal)) != ("draw",)
            take(machine.receive(people[turn], framed({"type": "action", "action": str(view.legal[0]),
                                                       "ref": 1}), now))
        now += 1.0
    assert match.winners is not None and len(match.results) == 4
    assert table.seats[7].covered and now > covered_at
    assert by_computer > 0 and by_timer > 0 and drawn > 0


# -- the protocol page's worked example of Mexican Train, against a real host ---------------


def _squeezed(text: str) -> str:
    return re.sub(r"\s+", "", text)


async def test_the_protocol_pages_mexican_train_example_is_what_a_host_sends(start_host):
    page = (Path(__file__).resolve().parents[3] / "docs" / "PROTOCOL.md").read_text(encoding="utf-8")
    worked = page.split("### Mexican Train, worked", 1)[1]
    section = _squeezed(worked.split("### A turn of two doubles", 1)[0])
    # As the page: capicu host --headless --preset mexican-train --players 3 --computers 2 --rounds 1
    # --seed 20 --code K7PX2M
    _, port = await start_host(rules=short(1), players=3, computers=2, seed=20, code="K7PX2M")
    reader, writer = await asyncio.open_connection(LOOPBACK, port)

    def send(message: dict[str, Any]) -> None:
        body = msgpack.packb(message, use_bin_type=True)
        writer.write(struct.pack(">I", len(body)) + body)

    async def receive() -> dict[str, Any]:
        (length,) = struct.unpack(">I", await reader.readexactly(4))
        return msgpack.unpackb(await reader.readexactly(length), raw=False)  # type: ignore[no-any-return]

    def on_page(value: Any) -> bool:
        return _squeezed(json.dumps(value, ensure_ascii=False)) in section

    send({"type": "hello", "version": 7, "name": "Ana", "code": "K7PX2M"})
    async with asyncio.timeout(WAIT):
        snapshot = await receive()
        while snapshot["type"] != "snapshot":
            snapshot = await receive()
        view = snapshot["view"]
        # Seat 2 was dealt the engine and laid it as its turn: Ana, the next seat, plays first.
        assert snapshot["seq"] == 1 and view["engine_holder"] == 2 and view["turn"] == 0
        assert on_page(view["hand"]) and on_page(view["trains"]) and on_page(view["events"])
        assert on_page(view["hand_counts"]) and on_page(view["legal"])
        send({"type": "action", "action": "pass", "ref": 1})
        refused = await receive()
        assert refused["type"] == "error" and on_page(refused["message"])
        send({"type": "action", "action": "run 2-12 2-4 4-4 4-5", "ref": 2})
        taken = await receive()
    assert taken["seq"] == 6 and taken["ref"] == 2 and on_page(taken["events"])
    assert on_page(taken["view"]["hand"]) and on_page(taken["view"]["trains"][0])
    writer.close()


def test_the_protocol_pages_turn_of_two_doubles_is_what_the_engine_says() -> None:
    from capicu.net import wire
    from helpers_core import crafted_mexican

    page = (Path(__file__).resolve().parents[3] / "docs" / "PROTOCOL.md").read_text(encoding="utf-8")
    section = _squeezed(page.split("### A turn of two doubles", 1)[1].split("## 9.", 1)[0])

    def on_page(value: Any) -> bool:
        return _squeezed(json.dumps(value, ensure_ascii=False)) in section

    rules = msgspec.structs.replace(MEXICAN, max_pip=9, rounds=1)
    match = crafted_mexican(rules, ["9-5 5-5 6-9 6-6 2-5 1-6 0-0 0-1 0-2",
                                    "9-3 3-4 4-7 7-7 7-8 5-8 1-8 1-1 2-8"])
    for text in ("run 9-5", "run 9-3", "play 6-9 mexican", "play 3-4 train 1"):
        match.apply(parse_action(text))
    shown = ("open_doubles", "turn", "doubling", "legal")
    view = wire.plain(match.view(0))
    pairs = [_squeezed(f"{json.dumps(key)}: {json.dumps(view[key])}") for key in ("hand", *shown)]
    assert all(pair in section for pair in pairs)
    for text in ("play 5-5 train 0", "play 6-6 mexican", "play 2-5 train 0"):
        events = match.apply(parse_action(text))
        assert _squeezed(f'{{"type": "action", "action": "{text}"') in section
        view = wire.plain(match.view(0))
        assert on_page([wire.plain(e) for e in events])
        assert on_page({key: view[key] for key in shown})
    assert list(wire.plain(match.view(1))["legal"]) == ["draw"]


# -- the client's model takes a MexicanView like a View ---------------------------------------


def test_the_client_model_takes_train_snapshots_and_updates_as_it_takes_views():
    from capicu.core.mexican.match import MexicanMatch
    from capicu.net.model import TableModel
    from capicu.net.protocol import TrainUpdate, message_from_host, to_wire, train_view_state

    match = MexicanMatch(short(1), 4, seed=6, pause_between_rounds=True)
    model = TableModel("Ana")
    seq = len(match.opening_events)
    # Through the wire's plain data and back, as a client reads it.
    change = model.apply(message_from_host(to_wire(TrainSnapshot(seq, match.view(0)))), 0.0)
    assert change is not None and model.view == match.view(0) and model.started
    for _ in range(40):
        if match.turn is None:
            break
        events = match.apply(match.legal_actions()[-1])
        seq += len(events)
        update = message_from_host(to_wire(TrainUpdate(seq, events, train_view_state(match.view(0)))))
        assert isinstance(update, TrainUpdate)
        change = model.apply(update, 1.0)
        assert change is not None and isinstance(change.message, Update)
        # The whole view, rebuilt from the one before: the same as the engine's.
        assert model.view == match.view(0) and change.message.view == model.view
    # An update already held is skipped, as for a View.
    assert model.apply(update, 2.0) is None


async def test_mexican_train_computers_think_in_worker_processes_too(start_host):
    # Each choice made by a fresh player in another process, from the view alone (`choose_in_worker`).
    _, port = await start_host(rules=short(1), players=3, computers=3, seed=9, next_round_delay=0.0,
                               computer_processes=1)
    watcher, _ = await watching(port)
    async with asyncio.timeout(WAIT * 3):
        while not (isinstance(watcher.view, MexicanView) and watcher.view.match_over):
            assert not isinstance(await watcher.receive(), Closed)
    assert watcher.view.winners and len(watcher.view.results) == 1
    await watcher.close()
