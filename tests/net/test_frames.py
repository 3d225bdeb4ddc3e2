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
from itertools import chain
from typing import get_args

import msgspec
from capicu.core import DRAW, PRESET_NAMES, Event, Match, Rules, parse_action
from capicu.core.actions import Draw, EndRun, Pass, Play, Run
from capicu.core.fives.match import FivesMatch
from capicu.core.mexican.events import MexicanEvent
from capicu.core.mexican.match import MexicanMatch
from capicu.net.codec import Codec
from capicu.net.protocol import (
    PROTOCOL_VERSION,
    Act,
    ActedBy,
    Bye,
    Chat,
    ClientMessage,
    ClubClose,
    ClubDrawn,
    ClubEntrant,
    ClubPhase,
    ClubRoster,
    ClubStandings,
    ClubStart,
    ClubTable,
    Error,
    ErrorCode,
    GameSnapshot,
    GameUpdate,
    Hello,
    HostBye,
    HostMessage,
    MatchRecorded,
    NextRound,
    Ping,
    Pong,
    Ready,
    Say,
    Seat,
    SeatKind,
    Seats,
    Snapshot,
    StandingRow,
    StateUpdate,
    TableState,
    TrainSnapshot,
    TrainUpdate,
    TurnTimer,
    Waiting,
    Welcome,
    to_wire,
    train_view_state,
    view_state,
    wire_of,
)
from capicu.net.store.record import MatchRecord, RecordSeat, record_of

#: Recorded on 402ae01 with the same generator (its `ViewState.of` for `view_state`).
RECORDED_COUNT = 5245
RECORDED_SHA256 = "23aab0740832e05a3c3f01d5ae64cf5cc70e31834d37b185a5a5cf3b97a2ec40"
#: The same frames saying protocol version 3 (the 3 hellos and 2 welcomes differ, by their version byte).
VERSION_3_SHA256 = "39706455ffb0fa533de37ed2bb453bc47925bf58fb1051078fe1f9ce080b807b"
#: And saying version 4 (the match record came: every other frame is the same).
VERSION_4_SHA256 = "d0357d5922527191aab0a4548d68468b2bf22c12d455d680489654c9e8fe1f8d"
#: And saying version 5 (Mexican Train as seed 004 plays it: a Draw-family frame is the same).
VERSION_5_SHA256 = "782423e969f77037f80a03bbb5d03db116621fb2b2434bd546944fde729ed451"
#: And saying version 6 (Fives and Threes came, a game of its own views: a Draw-family frame is the same).
VERSION_6_SHA256 = "dd62b72b26f449115a9c2fd59e444d7845f22a0291c05c47ae73fa83118d6979"
#: And saying version 7 (the club night: messages of its own; a table's frames are the same).
VERSION_7_SHA256 = "cb4f442ea21b34ab0a500d632e33ca81c21ebb726ce4f4a360ac1c4cbdfc9beb"


def _others(version: int) -> list[object]:
    return [
        Hello(version=version, name="Ana", code="K7PX2M"),
        Hello(version=version, name="Bea", token="t" * 32, spectate=True, table="t1"),
        Hello(version=version, name="Cai", seat_key="K7PX-2MQR-HT4W-9C"),
        Act(parse_action("play 3-5 right"), ref=7),
        Act(DRAW), Say("¡capicú!"), Ping(3), Pong(3), Bye(), Ready(),
        Welcome(version=version, table="main", name="Ana", seat=0, token="secret",
                seat_key="K7PX-2MQR-HT4W-9C", players=2, heartbeat=15.0, match="m1"),
        Welcome(version=version, table="main", name="Eve", seat=None, token=None, seat_key=None, players=2,
                heartbeat=15.0, match="m1"),
        Seats((Seat(0, SeatKind.PERSON, "Ana", True, False), Seat(1, SeatKind.COMPUTER, "Bo", True, False)),
              2, True),
        Chat("Ana", 0, "hola"), Chat("Eve", None, "¿quién gana?"), TurnTimer(1, 30.0),
        NextRound(12.5, (1,), (0, 2)), NextRound(None, (), (0,)), Waiting("approval", 1, 60.0),
        Error(ErrorCode.ILLEGAL, "it is not your turn", ref=2), Error(ErrorCode.TIMEOUT, "bye", fatal=True),
    ]


def played_messages(version: int = PROTOCOL_VERSION) -> Iterator[tuple[str, object]]:
    """(the side that reads it, a message): the messages above, then one played match per preset.

    ``version``: the protocol version the hellos and welcomes say.
    """
    for message in _others(version):
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


def train_messages() -> Iterator[tuple[str, object]]:
    """A played match of Mexican Train at 8 seats (4 rounds, a double blank worth 0): every seat's
    and a spectator's snapshot and update, the actions it took, and a whole opening run."""
    rules = msgspec.structs.replace(Rules.preset_named("mexican-train"), rounds=4, double_blank_points=0)
    match = MexicanMatch(rules, 8, seed=4)
    yield "host", Act(parse_action("run 12-5 5-3 3-3 3-9"), ref=1)
    rng = random.Random(4)
    seats = [*range(8), None]
    seq = len(match.opening_events)
    for seat in seats:
        yield "client", TrainSnapshot(seq, match.view(seat))
    while not match.is_over:
        actor = match.turn
        action = rng.choice(match.legal_actions())
        yield "host", Act(action, ref=seq)
        events = match.apply(action)
        seq += len(events)
        for seat in seats:
            yield "client", TrainUpdate(seq, events, train_view_state(match.view(seat)), actor,
                                        ActedBy.PERSON, seq if seat == actor else None)


def _frame(side: str, message: object) -> bytes:
    """The frame the other side sends ``message`` in."""
    return Codec("client" if side == "host" else "host").send(message)  # type: ignore[arg-type]


def _digest(version: int) -> tuple[int, str]:
    frames = [_frame(side, message) for side, message in played_messages(version)]
    return len(frames), hashlib.sha256(b"".join(frames)).hexdigest()


def test_the_frames_of_played_matches_are_the_bytes_of_before():
    # Saying version 2, a Draw-family match is the bytes of version 2, frame for frame: version 3
    # (Mexican Train, 8 seats) changed the number in the hellos and welcomes and nothing else, and
    # so did version 4 (the match record, a message of its own) and version 5 (Mexican Train's
    # views, events and rules changed: the line of play's did not), version 6 (Fives and
    # Threes, views of a game of their own) and version 7 (the club night's messages, of their own).
    assert _digest(2) == (RECORDED_COUNT, RECORDED_SHA256)
    assert _digest(3) == (RECORDED_COUNT, VERSION_3_SHA256)
    assert _digest(4) == (RECORDED_COUNT, VERSION_4_SHA256)
    assert _digest(5) == (RECORDED_COUNT, VERSION_5_SHA256)
    assert _digest(6) == (RECORDED_COUNT, VERSION_6_SHA256)
    assert PROTOCOL_VERSION == 7
    assert _digest(PROTOCOL_VERSION) == (RECORDED_COUNT, VERSION_7_SHA256)


def test_every_frame_of_played_matches_reads_back_to_its_message_and_its_bytes():
    for side, message in chain(played_messages(), train_messages()):
        frame = _frame(side, message)
        codec = Codec(side)  # type: ignore[arg-type]
        codec.receive_data(frame)
        read = codec.next_message()
        assert read == message
        assert _frame(side, read) == frame


def test_a_train_view_map_says_its_game_and_a_line_of_play_view_map_none():
    train = next(message for _, message in train_messages() if isinstance(message, TrainSnapshot))
    line = next(message for _, message in played_messages() if isinstance(message, Snapshot))
    train_view = to_wire(train)["view"]  # type: ignore[arg-type]
    assert next(iter(train_view.items())) == ("game", "mexican-train")
    # Mexican Train's rules map holds its options (the view says the game, not the rules).
    assert train_view["rules"]["rounds"] == 4 and train_view["rules"]["double_blank_points"] == 0
    assert train_view["rules"]["opening_run"] is True and "game" not in train_view["rules"]
    line_view = to_wire(line)["view"]  # type: ignore[arg-type]
    assert "game" not in line_view and "game" not in line_view["rules"]
    assert "opening_run" not in line_view["rules"]


def added_since() -> list[object]:
    """Messages, and fields, added after the bytes were recorded (each read back below): inside
    version 2, and version 4's match records (of both games)."""
    rules = Rules.preset_named(PRESET_NAMES[0])
    view = Match(rules, 2, seed=1).view(0)
    return [HostBye("closed", "Ana", True), HostBye("closed"),
            Snapshot(1, view, (Chat("Ana", 0, "hola"), Chat("Eve", None, "¿quién gana?"))),
            MatchRecorded(_record(Match(rules, 2, seed=5))),
            MatchRecorded(_record(MexicanMatch(
                msgspec.structs.replace(Rules.preset_named("mexican-train"), rounds=1), 3, seed=5))),
            *_fives_messages(), *club_messages()]


def club_messages() -> list[object]:
    """The club night's messages a host sends (version 6)."""
    table = ClubTable(1, "r1-t1", (0, None, 2, 1), TableState.PLAYING, ((0, 2), (1, 3)), (34, 51))
    return [
        ClubRoster(name="Friday", rules=Rules.preset_named("puerto-rican-partners"), format="swiss", rounds=3,
                   round=1, phase=ClubPhase.PLAYING, you=2,
                   entrants=(ClubEntrant(0, "Ana", True, True), ClubEntrant(1, "Bo", False, False)),
                   tables=(table,)),
        ClubDrawn(round=1, tables=(table,), byes=(3,), table="r1-t1", seat=2, token="m1.secret",
                  seat_key="K7PX-2MQR-HT4W-9C"),
        ClubDrawn(round=2, tables=(table,)),
        ClubStandings(1, False, (StandingRow(0, "Ana", 1, 1, 150, 120, 0, 1, 0, (1,), (2,)),)),
    ]


def club_client_messages() -> list[object]:
    """The club night's messages its organiser sends (version 6)."""
    return [ClubStart("K7PX-2MQR"), ClubClose("K7PX-2MQR", "r2-t3")]


def test_the_organisers_messages_read_back_to_their_message_and_their_bytes():
    for message in club_client_messages():
        frame = _frame("host", message)
        codec = Codec("host")
        codec.receive_data(frame)
        read = codec.next_message()
        assert read == message
        assert _frame("host", read) == frame


def _fives_messages() -> list[object]:
    """Fives and Threes (a game added after the bytes were recorded): a seat's snapshot and the
    updates of one hand, through the game's own wire (core's registry)."""
    match = FivesMatch(Rules.preset_named("fives-and-threes"), 2, seed=3)
    wire = wire_of(match.view(0))
    messages: list[object] = [wire.snapshot(1, match.view(0))]
    rng = random.Random(3)
    seq = 1
    while not match.is_over and not match.awaiting_deal:
        actor = match.turn
        events = match.apply(rng.choice(match.legal_actions()))
        seq += len(events)
        messages.append(wire.update(seq, events, wire.state_of(match.view(0)), actor, ActedBy.PERSON, None))
    return messages


def _record(match: Match | MexicanMatch) -> MatchRecord:
    """The record of ``match`` played to its end by random choices."""
    rng = random.Random(5)
    while not match.is_over:
        match.apply(rng.choice(match.legal_actions()))
    seats = [RecordSeat("Ana", "person")] + [RecordSeat(f"C{i}", "computer", "easy")
                                             for i in range(1, match.players)]
    return record_of(match, seats, match_id="m1", started=0.0, ended=60.0)


def test_what_came_later_reads_back_to_its_message_and_its_bytes():
    for message in added_since():
        frame = _frame("client", message)
        codec = Codec("client")
        codec.receive_data(frame)
        read = codec.next_message()
        assert read == message
        assert _frame("client", read) == frame


def test_the_played_matches_hold_every_message_and_every_event():
    messages = [message for _, message in chain(played_messages(), train_messages())] + added_since()
    messages += club_client_messages()
    kinds = {type(message) for message in messages}
    # (a snapshot and an update are each game's own: the Draw family's and Mexican Train's here)
    games = {Snapshot, StateUpdate, TrainSnapshot, TrainUpdate}
    host = set(get_args(HostMessage)) - {GameSnapshot, GameUpdate}
    assert kinds >= set(get_args(ClientMessage)) | host | games
    updates = [message for message in messages if isinstance(message, StateUpdate)]
    events = {type(event) for update in updates for event in update.events}
    assert events == set(get_args(Event))
    train_updates = [message for message in messages if isinstance(message, TrainUpdate)]
    train_events = {type(event) for update in train_updates for event in update.events}
    assert train_events == set(get_args(MexicanEvent))
    actions = {type(message.action) for message in messages if isinstance(message, Act)}
    assert actions == {Play, Draw, Pass, EndRun, Run}
