"""The client's model of the table, pure: each message applied once, at the time it is given.

The messages are the real host's (a `Table` in a `HostMachine`, read back
through the real codec), so the model is tested on what a client receives.
"""

from __future__ import annotations

from typing import Any

import pytest
from capicu.net.model import Change, Closed, LinkEnd, LinkState, Reconnected, Reconnecting, TableModel, Update
from capicu.net.protocol import (
    WATCHERS_LIMIT,
    Chat,
    Error,
    NextRound,
    ProtocolError,
    Seat,
    SeatKind,
    Seats,
    Snapshot,
    StateUpdate,
    TurnTimer,
    Welcome,
    message_from_host,
    to_wire,
)

from .host.test_machine import framed, hello, host, joined, told


def _messages(frames: list[dict[str, Any]]) -> list[Any]:
    return [message_from_host(f) for f in frames if f["type"] not in ("ping", "closed")]


def _a_started_table() -> tuple[list[Any], list[Any]]:
    """What Ana is told of a two-seat table until Bo's join deals, then after her first move."""
    machine = host(players=2, table={"turn_timer": 30.0})
    ana, first = joined(machine, "ana")
    bo, _ = machine.connect("10.0.0.2", 0.0)
    start = first + told(machine.receive(bo, hello("bo"), 0.0), ana)
    match = machine.tables["main"].match
    assert match is not None and match.turn is not None
    mover = ana if match.turn == 0 else bo
    moved = told(machine.receive(mover, framed({"type": "action", "action": str(match.legal_actions()[0]),
                                                "ref": 1}), 1.0), ana)
    return _messages(start), _messages(moved)


def test_each_message_is_applied_once_to_one_model() -> None:
    start, moved = _a_started_table()
    model = TableModel("ana")
    changes = [model.apply(message, 100.0) for message in start]
    assert all(isinstance(c, Change) for c in changes)
    welcome = next(m for m in start if isinstance(m, Welcome))
    assert (model.seat, model.token, model.seat_key, model.match_id) == (
        welcome.seat, welcome.token, welcome.seat_key, welcome.match)
    assert model.started and model.players == 2 and len(model.seats) == 2
    snapshot = next(m for m in start if isinstance(m, Snapshot))
    assert model.view == snapshot.view and model.seq == snapshot.seq
    timer = next(m for m in start if isinstance(m, TurnTimer))
    assert model.timer is not None and model.timer.deadline == 100.0 + timer.seconds

    before = model.view
    updates = [m for m in moved if isinstance(m, StateUpdate)]
    change = model.apply(updates[0], 101.0)
    assert change is not None and isinstance(change.message, Update)
    # The whole view is made once, from the one before; the change says what it replaced.
    assert change.view_before is before and change.message.view is model.view
    assert model.seq == updates[0].seq and model.view.events[-len(updates[0].events):] == updates[0].events
    # The same update again (one a reconnect's snapshot already holds) changes nothing.
    assert model.apply(updates[0], 102.0) is None and model.view is change.message.view


def test_an_update_before_any_snapshot_is_not_applied() -> None:
    _, moved = _a_started_table()
    model = TableModel("ana")
    update = next(m for m in moved if isinstance(m, StateUpdate))
    assert model.apply(update, 0.0) is None and model.view is None and model.seq == 0


def test_seats_chat_and_the_next_round_and_what_they_replaced() -> None:
    start, _ = _a_started_table()
    model = TableModel("ana")
    seat_maps = [m for m in start if isinstance(m, Seats)]
    first = model.apply(seat_maps[0], 0.0)
    assert first is not None and first.seats_before == ()
    second = model.apply(seat_maps[-1], 0.0)
    assert second is not None and second.seats_before == seat_maps[0].seats
    model.apply(Chat("bo", 1, "¡buena!"), 0.0)
    assert [(line.name, line.seat, line.text) for line in model.chat] == [("bo", 1, "¡buena!")]
    model.apply(NextRound(20.0, (1,), (0,)), 50.0)
    assert model.next_round is not None and model.next_round.deadline == 70.0
    assert (model.next_round.ready, model.next_round.waiting) == ((1,), (0,))
    model.apply(NextRound(None, (), (0,)), 51.0)
    assert model.next_round is not None and model.next_round.deadline is None
    # A refusal answers an intent: nothing of the table changes.
    change = model.apply(Error("illegal", "no", ref=3), 52.0)
    assert change is not None and change.message.code == "illegal" and model.chat and model.next_round


def test_the_link_drops_comes_back_and_ends() -> None:
    model = TableModel("ana")
    assert model.link is LinkState.UP and not model.lost
    model.apply(Reconnecting(1, 0.1, LinkEnd.HOST_CLOSED), 0.0)
    model.apply(Reconnecting(2, 0.2, LinkEnd.UNREACHABLE, {"problem": ""}, host_down=True), 0.0)
    assert model.lost and model.drops == 1  # one drop, two attempts
    assert isinstance(model.link_end, Reconnecting) and model.link_end.attempt == 2
    model.apply(Reconnected(0), 0.0)
    assert not model.lost and model.link is LinkState.UP
    model.apply(Reconnecting(1, 0.1, LinkEnd.HOST_SILENT), 0.0)
    assert model.drops == 2
    gave_up = {"seconds": 300, "last": "unreachable", "problem": "", "code": ""}
    model.apply(Closed(LinkEnd.GAVE_UP, gave_up), 0.0)
    assert model.link is LinkState.CLOSED and model.closed_while_reconnecting


@pytest.mark.parametrize(("reason", "params"),
                         [(LinkEnd.CLOSED_HERE, {}), (LinkEnd.REFUSED, {"code": "table_full"})])
def test_a_link_that_ends_while_up_was_not_lost(reason: LinkEnd, params: dict[str, str]) -> None:
    model = TableModel("ana")
    model.apply(Closed(reason, params), 0.0)
    assert model.link is LinkState.CLOSED and not model.closed_while_reconnecting and model.drops == 0


def test_a_seat_map_names_the_first_64_watchers_and_a_longer_list_is_refused() -> None:
    machine = host(players=2, table={"max_spectators": 70})
    seen: list[Any] = []
    for number in range(WATCHERS_LIMIT + 1):
        _, frames = joined(machine, f"w{number}", address=f"10.0.1.{number}", spectate=True)
        seen = [f for f in frames if f["type"] == "seats"]
    assert seen[-1]["spectators"] == WATCHERS_LIMIT + 1
    assert seen[-1]["watchers"] == [f"w{number}" for number in range(WATCHERS_LIMIT)]
    too_many = {**seen[-1], "watchers": [f"w{number}" for number in range(WATCHERS_LIMIT + 1)]}
    with pytest.raises(ProtocolError) as caught:
        message_from_host(too_many)
    assert "watchers" in caught.value.message


def test_a_seat_map_nobody_watches_is_the_bytes_it_always_was() -> None:
    seats = (Seat(0, SeatKind.PERSON, "Ana", True, False),)
    # The field came inside protocol version 2: left out while empty (tests/net/test_frames.py holds
    # the bytes of whole matches to those of before).
    assert list(to_wire(Seats(seats, 0, False))) == ["type", "seats", "spectators", "started"]
    assert to_wire(Seats(seats, 1, False, ("Carla",)))["watchers"] == ("Carla",)


def test_a_snapshots_recent_chat_is_taken_after_what_the_model_already_has() -> None:
    messages, _ = _a_started_table()
    snapshot = next(m for m in messages if isinstance(m, Snapshot))
    said = [Chat("ana", 0, f"line {n}") for n in range(6)]

    fresh = TableModel("ana")
    fresh.apply(Snapshot(snapshot.seq, snapshot.view, tuple(said[:4])), 1.0)
    assert [line.text for line in fresh.chat] == ["line 0", "line 1", "line 2", "line 3"]

    back = TableModel("ana")  # it read lines 0 and 1, dropped, and lines 2 to 5 were said meanwhile
    for line in said[:2]:
        back.apply(line, 1.0)
    back.apply(Snapshot(snapshot.seq, snapshot.view, tuple(said[1:])), 2.0)
    assert [line.text for line in back.chat] == [f"line {n}" for n in range(6)]

    back.apply(Snapshot(snapshot.seq, snapshot.view, tuple(said[3:])), 3.0)  # nothing new: nothing twice
    assert [line.text for line in back.chat] == [f"line {n}" for n in range(6)]


def test_a_link_end_is_said_with_exactly_its_declared_params() -> None:
    with pytest.raises(ValueError, match="is said with"):
        Closed(LinkEnd.REFUSED)
    with pytest.raises(ValueError, match="is said with"):
        Reconnecting(1, 0.1, LinkEnd.BROKEN, {"problem": "reset", "extra": 1})


@pytest.mark.parametrize("preset", ["draw", "mexican-train"])
def test_the_model_keeps_the_record_of_the_match_it_saw_end_in_either_game(preset):
    """The record came over the wire after the last update: the match it replays to ends in the
    view this model holds (every game's view, compared whole), so the model keeps it."""
    import msgspec
    from capicu.core import Rules
    from capicu.core.games import game_of
    from capicu.net.protocol import MatchRecorded, wire_of
    from capicu.net.store.record import RecordSeat, record_of

    rules = Rules.preset_named(preset)
    if preset == "mexican-train":
        rules = msgspec.structs.replace(rules, rounds=1)
    match = game_of(rules).new_match(rules, 2, seed=3)
    game = wire_of(match.view(0))
    model = TableModel("Ana")
    model.apply(Welcome(table="main", name="Ana", seat=0, token="t", seat_key="k", players=2, heartbeat=15.0,
                        match="m1"), 0.0)
    seq = 1
    model.apply(message_from_host(to_wire(game.snapshot(seq, match.view(0)))), 0.0)
    while not match.is_over:
        events = match.deal_next_round() if match.awaiting_deal else match.apply(match.legal_actions()[0])
        seq += len(events)
        update = game.update(seq, events, game.state_of(match.view(0)))
        model.apply(message_from_host(to_wire(update)), 1.0)
    assert model.view == match.view(0)
    record = record_of(match, [RecordSeat("Ana", "person"), RecordSeat("Bo", "person")], match_id="m1",
                       started=0.0, ended=1.0)
    model.apply(message_from_host(to_wire(MatchRecorded(record))), 2.0)
    assert model.record == record and model.record_problem is None
