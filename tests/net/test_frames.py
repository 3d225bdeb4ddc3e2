"""The wire's bytes are the bytes of before, frame for frame, over whole played matches.

`played_frames` makes every frame a host and its clients send in a few whole
matches (every seat's update after every move, a spectator's, snapshots, and
one of each other message) from fixed seeds. Their SHA-256 was recorded on the
commit before msgspec came in (402ae01, cattrs): the declarations changed, the
bytes must not (docs/PROTOCOL.md, "unless you raise the protocol version").
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterator
from typing import get_args

from capicu.core import DRAW, PRESET_NAMES, Event, Match, Rules, parse_action
from capicu.net.codec import Codec
from capicu.net.protocol import (
    Act,
    ActedBy,
    Bye,
    Chat,
    ClientMessage,
    Error,
    ErrorCode,
    Hello,
    HostBye,
    HostMessage,
    NextRound,
    Ping,
    Pong,
    Ready,
    Say,
    Seat,
    SeatKind,
    Seats,
    Snapshot,
    StateUpdate,
    TurnTimer,
    Waiting,
    Welcome,
    view_state,
)

#: Recorded on 402ae01 with the same generator (its `ViewState.of` for `view_state`).
RECORDED_COUNT = 5245
RECORDED_SHA256 = "23aab0740832e05a3c3f01d5ae64cf5cc70e31834d37b185a5a5cf3b97a2ec40"


def _others() -> list[object]:
    return [
        Hello(name="Ana", code="K7PX2M"), Hello(name="Bea", token="t" * 32, spectate=True, table="t1"),
        Hello(name="Cai", seat_key="K7PX-2MQR-HT4W-9C"), Act(parse_action("play 3-5 right"), ref=7),
        Act(DRAW), Say("¡capicú!"), Ping(3), Pong(3), Bye(), Ready(),
        Welcome(table="main", name="Ana", seat=0, token="secret", seat_key="K7PX-2MQR-HT4W-9C",
                players=2, heartbeat=15.0, match="m1"),
        Welcome(table="main", name="Eve", seat=None, token=None, seat_key=None, players=2,
                heartbeat=15.0, match="m1"),
        Seats((Seat(0, SeatKind.PERSON, "Ana", True, False), Seat(1, SeatKind.COMPUTER, "Bo", True, False)),
              2, True),
        Chat("Ana", 0, "hola"), Chat("Eve", None, "¿quién gana?"), TurnTimer(1, 30.0),
        NextRound(12.5, (1,), (0, 2)), NextRound(None, (), (0,)), Waiting("approval", 1, 60.0),
        Error(ErrorCode.ILLEGAL, "it is not your turn", ref=2), Error(ErrorCode.TIMEOUT, "bye", fatal=True),
    ]


def played_messages() -> Iterator[tuple[str, object]]:
    """(the side that reads it, a message): the messages above, then one played match per preset."""
    for message in _others():
        yield ("host" if isinstance(message, (Hello, Act, Say, Bye, Ready)) else "client"), message
    for number, preset in enumerate(PRESET_NAMES):
        rules = Rules.preset_named(preset)
        match = Match(rules, rules.max_players, seed=number, pause_between_rounds=number % 2 == 1)
        rng = random.Random(number)
        seats = [*range(match.players), None]
        seq = 1
        for seat in seats:
            yield "client", Snapshot(seq, match.view(seat))
        moves = 0
        while not match.is_over:
            if match.awaiting_deal:
                events = match.deal_next_round()
                actor, by = None, ActedBy.TIMER
            else:
                actor, by = match.turn, ActedBy.PERSON if moves % 3 else ActedBy.COMPUTER
                events = match.apply(rng.choice(match.legal_actions()))
            moves += 1
            seq += len(events)
            for seat in seats:
                ref = moves if seat is not None and seat == actor else None
                yield "client", StateUpdate(seq, events, view_state(match.view(seat)), actor, by, ref)
            if moves % 25 == 0:
                yield "client", Snapshot(seq, match.view(moves % match.players))


def _frame(side: str, message: object) -> bytes:
    """The frame the other side sends ``message`` in."""
    return Codec("client" if side == "host" else "host").send(message)  # type: ignore[arg-type]


def test_the_frames_of_played_matches_are_the_bytes_of_before():
    frames = [_frame(side, message) for side, message in played_messages()]
    digest = hashlib.sha256(b"".join(frames)).hexdigest()
    assert (len(frames), digest) == (RECORDED_COUNT, RECORDED_SHA256)


def test_every_frame_of_played_matches_reads_back_to_its_message_and_its_bytes():
    for side, message in played_messages():
        frame = _frame(side, message)
        codec = Codec(side)  # type: ignore[arg-type]
        codec.receive_data(frame)
        read = codec.next_message()
        assert read == message
        assert _frame(side, read) == frame


def added_since() -> list[object]:
    """Messages, and fields, added inside version 2 after the bytes were recorded (each read back below)."""
    rules = Rules.preset_named(PRESET_NAMES[0])
    view = Match(rules, 2, seed=1).view(0)
    return [HostBye("closed", "Ana", True), HostBye("closed"),
            Snapshot(1, view, (Chat("Ana", 0, "hola"), Chat("Eve", None, "¿quién gana?")))]


def test_what_came_later_reads_back_to_its_message_and_its_bytes():
    for message in added_since():
        frame = _frame("client", message)
        codec = Codec("client")
        codec.receive_data(frame)
        read = codec.next_message()
        assert read == message
        assert _frame("client", read) == frame


def test_the_played_matches_hold_every_message_and_every_event():
    messages = [message for _, message in played_messages()] + added_since()
    kinds = {type(message) for message in messages}
    assert kinds >= set(get_args(ClientMessage)) | set(get_args(HostMessage))
    updates = [message for message in messages if isinstance(message, StateUpdate)]
    events = {type(event) for update in updates for event in update.events}
    assert events == set(get_args(Event))
