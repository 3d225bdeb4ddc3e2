"""The sans-I/O codec and the schema: round trips, limits, and fuzzing (no network)."""

from __future__ import annotations

import random
import struct

import msgpack
import msgspec
import pytest
from capicu.core import DRAW, PRESET_NAMES, Event, Match, MexicanMatch, Rules, parse_action
from capicu.net import wire
from capicu.net.codec import CLOSED, NEED_DATA, Codec, encode_frame
from capicu.net.protocol import (
    GAME_WIRES,
    KEPT_FIELDS,
    MAX_CLIENT_FRAME,
    PROTOCOL_VERSION,
    Act,
    ActedBy,
    Bye,
    Chat,
    Error,
    ErrorCode,
    GameSnapshot,
    GameUpdate,
    Hello,
    NextRound,
    Ping,
    Pong,
    ProtocolError,
    Ready,
    Say,
    Seat,
    SeatKind,
    Seats,
    Snapshot,
    StateUpdate,
    TrainSnapshot,
    TurnTimer,
    Waiting,
    Welcome,
    advance_view,
    to_wire,
    view_state,
)
from hypothesis import given, settings
from hypothesis import strategies as st


def frame(obj: object) -> bytes:
    body = msgpack.packb(obj, use_bin_type=True)
    return struct.pack(">I", len(body)) + body


def _match() -> Match:
    match = Match(Rules.preset_named("puerto-rican-drawing"), 2, seed=1)
    match.apply(match.legal_actions()[0])
    return match


CLIENT_MESSAGES = [
    Hello(version=PROTOCOL_VERSION, name="Ana", code="K7PX2M"),
    Hello(version=PROTOCOL_VERSION, name="Bea", token="t" * 32, spectate=True, table="t1"),
    Hello(version=PROTOCOL_VERSION, name="Cai", seat_key="k7px 2mqr-ht4w-9cv"),
    Act(parse_action("play 3-5 right"), ref=7),
    Act(DRAW),
    Say("¡capicú!"),
    Ping(3),
    Pong(3),
    Bye(),
    Ready(),
]


def host_messages() -> list[object]:
    match = _match()
    events = match.apply(match.legal_actions()[0])
    return [
        Welcome(table="main", name="Ana", seat=0, token="secret", seat_key="K7PX-2MQR-HT4W-9CV",
                players=2, heartbeat=15.0, match="m1"),
        Welcome(table="main", name="Eve", seat=None, token=None, seat_key=None, players=2,
                heartbeat=15.0, match="m1"),
        Seats((Seat(0, SeatKind.PERSON, "Ana", True, False), Seat(1, SeatKind.OPEN, None, False, False)),
              1, False),
        Seats((Seat(0, SeatKind.PERSON, "Ana", False, True, left=True),), 0, True),
        Snapshot(3, match.view(0)),
        Snapshot(3, match.view(None)),
        StateUpdate(5, events, view_state(match.view(1)), actor=0, by=ActedBy.TIMER, ref=9),
        StateUpdate(6, (), view_state(match.view(None))),
        Chat("Ana", 0, "hola"),
        TurnTimer(1, 30.0),
        NextRound(12.5, (1,), (0, 2)),
        NextRound(None, (), (0,)),
        Waiting("approval", 1, 60.0),
        Error(ErrorCode.ILLEGAL, "it is not your turn", ref=2),
        Ping(1),
        Pong(1),
    ]


@pytest.mark.parametrize("message", CLIENT_MESSAGES, ids=lambda m: type(m).__name__)
def test_client_messages_round_trip_whole_and_byte_by_byte(message):
    data = Codec("client").send(message)
    whole = Codec("host")
    whole.receive_data(data)
    assert whole.next_message() == message
    assert whole.next_message() is NEED_DATA
    trickle = Codec("host")
    for i in range(len(data)):
        assert trickle.next_message() is NEED_DATA
        trickle.receive_data(data[i : i + 1])
    assert trickle.next_message() == message
    trickle.receive_data(b"")
    assert trickle.next_message() is CLOSED


def test_host_messages_round_trip():
    messages = host_messages()
    data = b"".join(Codec("host").send(m) for m in messages)  # type: ignore[arg-type]
    codec = Codec("client")
    codec.receive_data(data)
    for message in messages:
        assert codec.next_message() == message
    assert codec.next_message() is NEED_DATA


@pytest.mark.parametrize("index", range(len(host_messages())))
def test_host_messages_round_trip_byte_by_byte(index):
    message = host_messages()[index]
    data = Codec("host").send(message)  # type: ignore[arg-type]
    trickle = Codec("client")
    for i in range(len(data)):
        assert trickle.next_message() is NEED_DATA
        trickle.receive_data(data[i : i + 1])
    assert trickle.next_message() == message


def test_the_hello_of_the_worked_example_is_byte_for_byte_the_protocol_pages():
    # docs/PROTOCOL.md, section 8: the declarations keep the wire's field order.
    page = bytes.fromhex(
        "00000050 88a4747970 65a568656c6c6fa776657273696f6e07a46e616d65a3416e61a4636f6465a64b3750"
        "58324da5746f6b656ec0a873706563746174 65c2a57461626c65a46d61696ea8736561745f6b6579c0"
        .replace(" ", "")
    )
    assert Codec("client").send(Hello(version=7, name="Ana", code="K7PX2M")) == page


def test_a_view_state_has_every_field_of_a_view_but_its_rules_events_and_results():
    match = _match()
    before = match.view(0)
    events = match.apply(match.legal_actions()[0])
    view = match.view(0)
    state = view_state(view)
    assert advance_view(before, StateUpdate(3, events, state)) == view
    assert list(to_wire(Snapshot(1, view))["view"]) == [
        "rules", *to_wire(StateUpdate(1, (), state))["view"], "events", "results",
    ]


@pytest.mark.parametrize("game", GAME_WIRES, ids=lambda game: game.spec.name)
def test_every_game_of_the_registry_has_its_snapshot_update_and_view_state(game):
    fields = msgspec.structs.fields(game.view)
    assert game.state.__struct_fields__ == tuple(f.name for f in fields if f.name not in KEPT_FIELDS)
    assert game.state.__struct_config__.tag == game.tag == game.spec.view_tag
    assert issubclass(game.snapshot, GameSnapshot) and issubclass(game.update, GameUpdate)
    # Each game's messages are told apart by their class; they say the same type on the wire.
    others = [other for other in GAME_WIRES if other is not game]
    assert all(not issubclass(game.update, other.update) for other in others)
    assert game.snapshot.__struct_config__.tag == "snapshot" and game.update.__struct_config__.tag == "update"


def test_a_view_that_names_a_game_this_side_does_not_know_is_refused_naming_it():
    wire = to_wire(Snapshot(3, _match().view(0)))
    wire["view"] = {"game": "muggins", **wire["view"]}
    error = _error(encode_frame(wire), "client")
    assert error.code is ErrorCode.BAD_MESSAGE and "snapshot.view.game" in error.message
    assert "'muggins'" in error.message


def test_an_update_of_another_game_than_the_view_is_refused():
    train = TrainSnapshot(1, MexicanMatch(Rules.preset_named("mexican-train"), 2, seed=1).view(0))
    with pytest.raises(ValueError, match="cannot follow a view of"):
        advance_view(train.view, StateUpdate(2, (), view_state(_match().view(0))))


@pytest.mark.parametrize(("preset", "players"), [("puerto-rican-drawing", 3), ("quinientos", 4)])
def test_views_rebuilt_from_updates_equal_the_engines_views(preset, players):
    rules = Rules.preset_named(preset)
    match = Match(rules, players, seed=5)
    rng = random.Random(5)
    views = [match.view(seat) for seat in range(players)] + [match.view(None)]
    seq = 1
    while not match.is_over:
        events = match.apply(rng.choice(match.legal_actions()))
        seq += len(events)
        for i, seat in enumerate([*range(players), None]):
            codec = Codec("client")
            codec.receive_data(Codec("host").send(StateUpdate(seq, events, view_state(match.view(seat)))))
            decoded = codec.next_message()
            assert isinstance(decoded, StateUpdate)
            views[i] = advance_view(views[i], decoded)
            assert views[i] == match.view(seat)


def _one_of_each_type() -> list[tuple[str, object]]:
    """(the side that reads it, a message) for one message of every type."""
    seen: dict[tuple[str, type], object] = {}
    for message in CLIENT_MESSAGES:
        seen.setdefault(("host", type(message)), message)
    for message in host_messages():
        seen.setdefault(("client", type(message)), message)
    return [(side, message) for (side, _), message in seen.items()]


def _read(side: str, wire: dict) -> object:
    codec = Codec(side)  # type: ignore[arg-type]
    codec.receive_data(encode_frame(wire))
    return codec.next_message()


@pytest.mark.parametrize(("side", "message"), _one_of_each_type(), ids=lambda m: getattr(m, "type", m))
def test_a_field_of_the_wrong_type_or_missing_is_refused_naming_it(side, message):
    wire = to_wire(message)  # type: ignore[arg-type]
    for name, value in wire.items():
        if name == "type":
            continue
        wrong = [] if isinstance(value, dict) else {"x": 1}
        with pytest.raises(ProtocolError) as caught:
            _read(side, {**wire, name: wrong})
        assert caught.value.code is ErrorCode.BAD_MESSAGE
        assert f"{wire['type']}.{name}" in caught.value.message
    for field in msgspec.structs.fields(message):  # type: ignore[arg-type]
        if field.required:
            with pytest.raises(ProtocolError) as caught:
                _read(side, {k: v for k, v in wire.items() if k != field.name})
            assert caught.value.code is ErrorCode.BAD_MESSAGE
            assert f"needs the field {field.name!r}" in caught.value.message
        else:
            assert _read(side, {k: v for k, v in wire.items() if k != field.name}) is not None


@pytest.mark.parametrize(("side", "message"), _one_of_each_type(), ids=lambda m: getattr(m, "type", m))
def test_unknown_fields_are_refused_from_a_client_and_ignored_from_a_host(side, message):
    wire = {**to_wire(message), "later": [1, {"x": None}]}  # type: ignore[arg-type]
    if side == "host":
        with pytest.raises(ProtocolError) as caught:
            _read(side, wire)
        assert caught.value.code is ErrorCode.BAD_MESSAGE and "'later'" in caught.value.message
    else:
        assert _read(side, wire) == message


def test_unknown_fields_deep_in_a_host_message_are_ignored_too():
    wire = to_wire(Snapshot(3, _match().view(0)))
    wire["view"]["later"] = 1
    wire["view"]["rules"]["later"] = 1
    wire["view"]["events"][0]["later"] = 1
    assert _read("client", wire) == Snapshot(3, _match().view(0))


def test_an_unknown_type_is_refused_with_its_code():
    for side in ("host", "client"):
        with pytest.raises(ProtocolError) as caught:
            _read(side, {"type": "welcome" if side == "host" else "hello"})
        assert caught.value.code is ErrorCode.UNKNOWN_TYPE


def _error(data: bytes, side: str = "host") -> ProtocolError:
    codec = Codec(side)  # type: ignore[arg-type]
    codec.receive_data(data)
    with pytest.raises(ProtocolError) as caught:
        while codec.next_message() is not NEED_DATA:
            pass
    # After an error, the connection is finished: the same error again.
    with pytest.raises(ProtocolError):
        codec.next_message()
    return caught.value


def test_a_huge_declared_length_is_refused_before_any_body_arrives():
    error = _error(struct.pack(">I", 2**31))
    assert error.code is ErrorCode.BAD_FRAME
    assert "larger than" in error.message


def test_frames_just_over_the_limit_are_refused():
    assert _error(struct.pack(">I", MAX_CLIENT_FRAME + 1)).code is ErrorCode.BAD_FRAME


@pytest.mark.parametrize(
    ("data", "code", "words"),
    [
        (struct.pack(">I", 0), ErrorCode.BAD_FRAME, "empty"),
        (struct.pack(">I", 3) + b"\xa2\xff\xfe", ErrorCode.BAD_FRAME, "UTF-8"),
        (struct.pack(">I", 1) + b"\xc1", ErrorCode.BAD_FRAME, "msgpack"),
        (frame(b"bytes"), ErrorCode.BAD_FRAME, "binary"),
        (frame({"type": "hello", "name": b"x"}), ErrorCode.BAD_FRAME, "binary"),
        (frame([1, 2]), ErrorCode.BAD_MESSAGE, "map"),
        (frame({1: 2}), ErrorCode.BAD_FRAME, "msgpack"),
        (frame({"type": "teleport"}), ErrorCode.UNKNOWN_TYPE, "teleport"),
        (frame({"name": "x"}), ErrorCode.BAD_MESSAGE, "type"),
        (frame({"type": "hello", "version": 4, "name": 5}), ErrorCode.BAD_MESSAGE, "hello.name"),
        (frame({"type": "hello", "version": "1", "name": "a"}), ErrorCode.BAD_MESSAGE, "version"),
        (frame({"type": "hello", "version": 4, "name": "a", "spectate": 1}), ErrorCode.BAD_MESSAGE,
         "spectate"),
        (frame({"type": "hello", "version": 4, "name": "a", "admin": True}), ErrorCode.BAD_MESSAGE,
         "admin"),
        (frame({"type": "action", "action": "fly 3-5"}), ErrorCode.BAD_MESSAGE, "not an action"),
        (frame({"type": "action", "action": "play 3-5 up"}), ErrorCode.BAD_MESSAGE, "not an end"),
        (frame({"type": "action", "action": ["draw"]}), ErrorCode.BAD_MESSAGE, "action.action"),
        (frame({"type": "chat", "text": "x" * 5000}), ErrorCode.BAD_MESSAGE, "chat.text"),
        (frame({"type": "chat", "text": "hi", "ref": True}), ErrorCode.BAD_MESSAGE, "ref"),
        (frame({"type": "ping", "n": -1}), ErrorCode.BAD_MESSAGE, "ping.n"),
        (frame({"type": "hello", "version": 4, "name": "a", "seat_key": "K" * 41}), ErrorCode.BAD_MESSAGE,
         "hello.seat_key"),
        (frame({"type": "ready", "now": True}), ErrorCode.BAD_MESSAGE, "now"),
    ],
)
def test_bad_input_gets_one_clear_error(data, code, words):
    error = _error(data)
    assert error.code is code
    assert words in error.message


def test_deep_nesting_is_refused():
    deep: object = "x"
    for _ in range(40):
        deep = [deep]
    assert _error(frame({"type": "chat", "text": deep})).code is ErrorCode.BAD_FRAME
    very_deep = b"\x91" * 100_000 + b"\x00"
    assert _error(struct.pack(">I", len(very_deep)) + very_deep, "client").code is ErrorCode.BAD_FRAME


def test_extension_types_are_refused():
    body = msgpack.packb(msgpack.ExtType(1, b"abc"))
    assert _error(struct.pack(">I", len(body)) + body).code is ErrorCode.BAD_FRAME


def test_the_stream_ending_inside_a_frame_is_an_error():
    data = Codec("client").send(Say("hello"))
    codec = Codec("host")
    codec.receive_data(data[:-2])
    assert codec.next_message() is NEED_DATA
    codec.receive_data(b"")
    with pytest.raises(ProtocolError, match="ended inside a frame"):
        codec.next_message()


def test_a_host_message_with_a_broken_view_is_refused():
    wire = to_wire(Snapshot(3, _match().view(0)))
    wire["view"]["hand"] = ["7-9-1"]
    error = _error(encode_frame(wire), "client")
    assert error.code is ErrorCode.BAD_MESSAGE and "snapshot.view.hand[0]" in error.message


# -- fuzzing: only ProtocolError ever comes out -------------------------------------

_plain = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**63), 2**64 - 1) | st.floats() | st.text(max_size=20)
    | st.binary(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20,
)
_types = st.sampled_from(["hello", "action", "chat", "ping", "pong", "bye", "ready", "welcome",
                          "seats", "snapshot", "update", "timer", "next_round", "waiting", "error",
                          "x"])


def _feed_all(codec: Codec, data: bytes, chunk: int) -> None:
    try:
        for i in range(0, len(data), chunk):
            codec.receive_data(data[i : i + chunk])
            while codec.next_message() is not NEED_DATA:
                pass
        codec.receive_data(b"")
        codec.next_message()
    except ProtocolError:
        pass


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=300), st.integers(1, 7), st.sampled_from(["host", "client"]))
def test_fuzz_random_bytes(data, chunk, side):
    _feed_all(Codec(side), data, chunk)


@settings(max_examples=300, deadline=None)
@given(_types, st.dictionaries(st.text(max_size=10), _plain, max_size=6), st.integers(1, 50),
       st.sampled_from(["host", "client"]))
def test_fuzz_well_framed_messages_of_any_shape(kind, fields, chunk, side):
    _feed_all(Codec(side), frame({"type": kind, **fields}), chunk)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(range(len(CLIENT_MESSAGES))), max_size=6), st.binary(max_size=40),
       st.integers(1, 9))
def test_fuzz_good_messages_then_garbage(picks, garbage, chunk):
    data = b"".join(Codec("client").send(CLIENT_MESSAGES[i]) for i in picks) + garbage
    _feed_all(Codec("host"), data, chunk)


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_fuzz_mutated_host_messages(data):
    messages = host_messages()
    original = Codec("host").send(messages[data.draw(st.integers(0, len(messages) - 1))])  # type: ignore[arg-type]
    position = data.draw(st.integers(4, len(original) - 1))
    flipped = bytes([data.draw(st.integers(0, 255))])
    mutated = original[:position] + flipped + original[position + 1 :]
    _feed_all(Codec("client"), mutated, data.draw(st.integers(1, 64)))


@pytest.mark.parametrize(
    ("wire", "words"),
    [
        ({"type": "next_round", "seconds": 3, "ready": [8], "waiting": []}, "next_round.ready"),
        ({"type": "next_round", "seconds": -1, "ready": [], "waiting": []}, "next_round.seconds"),
        ({"type": "next_round", "seconds": None, "ready": [], "waiting": "0"}, "next_round.waiting"),
        ({"type": "waiting", "reason": "approval", "seat": 0}, "seconds"),
        ({"type": "welcome", "version": 4, "table": "main", "name": "Ana", "seat": 0, "token": "t",
          "seat_key": "K", "players": 2, "heartbeat": 15.0}, "match"),
    ],
)
def test_host_messages_of_version_2_are_checked(wire, words):
    error = _error(encode_frame(wire), "client")
    assert error.code is ErrorCode.BAD_MESSAGE and words in error.message


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_presets_round_trip_through_plain_data(name):
    rules = Rules.preset_named(name)
    assert wire.read(wire.plain(rules), Rules) == rules


@pytest.mark.parametrize(
    ("data", "words"),
    [
        (None, "rules must be a map"),
        ([], "rules must be a map"),
        ({"target": "ten"}, "rules.target must be a whole number or none"),
        ({"hand_sizes": [1] * 10_000}, "rules.hand_sizes must be a list of 3"),
        ({"hand_sizes": [7, 7, 0]}, "hand_sizes must hold whole numbers from 1 up, not 0"),
        ({"preset": 5}, "rules.preset must be a text"),
        ({"scoring": "most"}, "rules.scoring must be one of its values, not 'most'"),
    ],
)
def test_rules_from_plain_data_are_checked(data, words):
    with pytest.raises(msgspec.ValidationError) as caught:
        wire.read(data, Rules)
    assert words in wire.sentence(caught.value, "rules")


def test_an_unknown_field_is_named_in_a_short_sentence_however_long_its_name():
    error = _error(frame({"type": "chat", "text": "hi", "x" * 5000: 1}))
    assert error.code is ErrorCode.BAD_MESSAGE and "chat has no field 'xxx" in error.message
    assert len(error.message) < 100


# -- refusals name the message and the field's path ---------------------------------


@pytest.mark.parametrize(
    ("side", "wire_form", "sentence"),
    [
        ("host", {"type": "hello", "version": 4, "name": "x" * 97},
         "hello.name must be a text of at most 96 characters"),
        ("host", {"type": "hello", "version": 4, "name": "A", "table": "t" * 33},
         "hello.table must be a text of at most 32 characters"),
        ("host", {"type": "hello", "version": True, "name": "A"},
         "hello.version must be a whole number"),
        ("host", {"type": "hello", "version": 4}, "hello needs the field 'name'"),
        ("host", {"type": "chat"}, "chat needs the field 'text'"),
        ("host", {"type": "chat", "text": "x" * 801}, "chat.text must be a text of at most 800 characters"),
        ("host", {"type": "ready", "now": True}, "ready has no field 'now'"),
        ("host", {"type": "ping", "n": 1, "extra": 2}, "ping has no field 'extra'"),
        ("host", {"type": "ping", "n": 2**31 + 1}, "ping.n must be a whole number up to 2147483648"),
        ("host", {"type": "action", "action": "play 3-5 up"}, "action.action: 'up' is not an end"),
        ("client", {"type": "next_round", "seconds": 1, "ready": [0, 1, 2, 3, 4, 5, 6, 7, 0], "waiting": []},
         "next_round.ready must be a list of at most 8"),
        ("client", {"type": "timer", "seat": 8, "seconds": 1.0}, "timer.seat must be a whole number up to 7"),
        ("client", {"type": "timer", "seat": 0, "seconds": float("nan")},
         "timer.seconds must be a number from 0.0 up"),
        ("client", {"type": "chat", "name": "n" * 25, "seat": 0, "text": "hi"},
         "chat.name must be a text of at most 24 characters"),
        ("client", {"type": "error", "code": "x", "message": "m" * 1001},
         "error.message must be a text of at most 1000 characters"),
        ("client", {"type": "seats", "seats": [{"seat": 0, "kind": "sofa", "name": None, "connected": True,
                                                "covered": False}], "spectators": 0, "started": False},
         "seats.seats[0].kind must be one of its values, not 'sofa'"),
    ],
)
def test_a_refusal_names_the_message_and_the_fields_path(side, wire_form, sentence):
    error = _error(encode_frame(wire_form), side)
    assert error.code is ErrorCode.BAD_MESSAGE
    assert error.message.startswith(sentence), error.message


@pytest.mark.parametrize(
    ("path", "value", "sentence"),
    [
        (("hand", 0), 35, "snapshot.view.hand[0]: expected a tile, written as two numbers"),
        (("legal", 0), "fly", "snapshot.view.legal[0]: 'fly' is not an action"),
        (("hand_counts",), [7] * 5, "snapshot.view.hand_counts must be a list of at most 4"),
        (("events", 0, "type"), "teleported",
         "snapshot.view.events[0].type must be one of its values, not 'teleported'"),
        (("events", 0, "hand_counts"), "7", "snapshot.view.events[0].hand_counts must be a list"),
        (("rules", "scoring"), "most", "snapshot.view.rules.scoring must be one of its values, not 'most'"),
        # What the declaration cannot say is Rules.__post_init__'s: said of the rules.
        (("rules", "target"), 0, "snapshot.view.rules: the target must be a positive whole number, not 0"),
    ],
)
def test_a_broken_view_is_refused_naming_the_field_deep_inside(path, value, sentence):
    # (as a peer's msgpack gives it: lists, not the tuples of to_wire)
    wire_form = msgpack.unpackb(msgpack.packb(to_wire(Snapshot(3, _match().view(_match().turn)))))
    place = wire_form["view"]
    for step in path[:-1]:
        place = place[step]
    place[path[-1]] = value
    error = _error(encode_frame(wire_form), "client")
    assert error.code is ErrorCode.BAD_MESSAGE
    assert error.message.startswith(sentence), error.message


def test_every_event_round_trips_through_its_declaration_with_its_type_first():
    match = Match(Rules.preset_named("draw"), 4, seed=2)
    rng = random.Random(2)
    seen = set()
    while not match.is_over:
        for event in match.apply(rng.choice(match.legal_actions())):
            plain = wire.plain(event)
            assert next(iter(plain)) == "type" and plain["type"] == type(event).__struct_config__.tag
            assert wire.read(plain, Event) == event
            assert wire.read(msgpack.unpackb(msgpack.packb(plain)), Event) == event
            seen.add(type(event))
    assert len(seen) >= 5
