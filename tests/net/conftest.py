"""Helpers for the network tests: a real host on 127.0.0.1, bots, raw peers, leak checks.

Every wait is bounded; nothing sleeps to synchronise.
"""

from __future__ import annotations

import asyncio
import re
import struct
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import msgpack
import pytest
from capicu.core.games import GAMES, GameSpec, game_of_view
from capicu.net import (
    Client,
    Closed,
    Error,
    Host,
    HostConfig,
    Limits,
    NextRound,
    Reconnected,
    TableConfig,
    Update,
)
from capicu.net.codec import CLOSED, NEED_DATA, Codec, Signal
from capicu.net.protocol import wire_of_game

LOOPBACK = "127.0.0.1"
WAIT = 20.0  # the longest any single wait in these tests may take


class FakeClock:
    """A host's clock that only the test moves: ``start_host(clock=clock)``.

    Such a host arms no timer: the test moves ``now`` and calls ``host.wake()``,
    so that a timer's length is checked exactly and no test waits for one.
    """

    def __init__(self, now: float = 1000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


_TABLE_FIELDS = set(TableConfig.__struct_fields__)


@pytest.fixture
async def start_host() -> AsyncIterator[Callable[..., Awaitable[tuple[Host, int]]]]:
    """Start hosts on 127.0.0.1 (any free port); all are stopped after the test.

    ``clock``: a `FakeClock` the host reads instead of the event loop's time.
    """
    hosts: list[Host] = []
    reports: list[str] = []

    async def start(**options: Any) -> tuple[Host, int]:
        options.setdefault("bind", LOOPBACK)
        options.setdefault("port", 0)
        # Computer clients play far faster than people: the rate limit has its own test.
        options.setdefault("limits", Limits(messages_per_second=10_000, message_burst=10_000))
        # ``host_options``: the Host's own arguments (``ask``, ``cancelled``).
        host_options = options.pop("host_options", {})
        if "clock" in options:
            host_options["clock"] = options.pop("clock")
        # The first table's settings (players, seed, ...) go to its `TableConfig`, the rest to the host's.
        table = {name: options.pop(name) for name in _TABLE_FIELDS & set(options)}
        host = Host(HostConfig(TableConfig(**table), **options), report=reports.append, **host_options)
        hosts.append(host)
        _, port = await host.start()
        return host, port

    start.reports = reports  # type: ignore[attr-defined]
    yield start
    for host in hosts:
        await host.stop()


@dataclass
class BotResult:
    seat: int | None
    moves: int
    frames: list[Any] = field(default_factory=list)
    errors: list[Error] = field(default_factory=list)
    final: Any = None


def decode_frames(data: bytes) -> list[Any]:
    """Every frame in ``data`` as raw decoded msgpack (the leak checks read the bytes)."""
    codec = Codec("client")
    codec.receive_data(data)
    codec.receive_data(b"")
    frames = []
    while True:
        frame = codec.next_frame()
        if frame is CLOSED:
            return frames
        frames.append(frame)


async def watching(port: int, name: str = "watcher") -> tuple[Client, bytearray]:
    """A spectator already seated (so it sees the match from the first deal), and its bytes."""
    wire = bytearray()
    client = await asyncio.wait_for(
        Client.connect(LOOPBACK, port, name=name, spectate=True, wire_tap=wire.extend), WAIT
    )
    return client, wire


#: The level a bot plays each game at unless told: the quickest that plays sensibly.
QUICK_LEVELS = {"line": "greedy"}


def bot_player(view: Any, level: str | None = None, seed: int = 0) -> Any:
    """A computer player of ``view``'s game (core's registry): ``level``, or the game's quick one."""
    game = game_of_view(view)
    return game.make_player(level or QUICK_LEVELS.get(game.name, "normal"), seed)


async def play_bot(
    port: int, name: str, *, level: str | None = None, seed: int = 0, spectate: bool = False,
    table: str = "main", code: str | None = None, client: Client | None = None,
    stop_after: int | None = None, wire: bytearray | None = None,
) -> BotResult:
    """Join and play (or watch) until the match is over, in any game; every received byte is kept.

    The player is the game's (core's registry, from the first view): ``level``, or
    the game's quick one (`QUICK_LEVELS`). Between rounds it says it is ready at
    once. A ``client`` already connected brings its own ``wire`` (the bytes its
    wire tap kept).
    """
    wire = bytearray() if wire is None else wire
    if client is None:
        client = await asyncio.wait_for(
            Client.connect(LOOPBACK, port, name=name, spectate=spectate, table=table, code=code,
                           wire_tap=wire.extend),
            WAIT,
        )
    player: Any = None
    result = BotResult(client.seat, 0)
    pending: int | None = None
    while True:
        view = client.view
        if view is not None and view.match_over:
            break
        if view is not None and view.is_my_turn and pending is None:
            if stop_after is not None and result.moves >= stop_after:
                break
            player = player or bot_player(view, level, seed)
            pending = await client.send_action(player.choose(view))
            result.moves += 1
        message = await client.receive(timeout=WAIT)
        if isinstance(message, Closed):
            break
        if isinstance(message, Error):
            result.errors.append(message)
            pending = None
        if isinstance(message, Update) and message.ref is not None and message.ref == pending:
            pending = None
        if isinstance(message, Reconnected):
            pending = None  # the answer to an intent in flight is lost with the connection
        if isinstance(message, NextRound) and client.seat in message.waiting:
            await client.ready()
    result.final = client.view
    await client.close()
    result.frames = decode_frames(bytes(wire))
    return result


async def play_until_break(*clients: Client) -> list[NextRound]:
    """Each client plays its own turns until the round ends; the `NextRound` each was sent.

    Nobody says ready: what happens next is the caller's to decide.
    """

    async def until_break(client: Client, seed: int) -> NextRound:
        player: Any = None
        pending: int | None = None
        while True:
            view = client.view
            if view is not None and view.is_my_turn and pending is None:
                player = player or bot_player(view, seed=seed)
                pending = await client.send_action(player.choose(view))
            message = await client.receive(timeout=WAIT)
            if isinstance(message, NextRound):
                return message
            assert not isinstance(message, Closed), message
            assert not (view is not None and view.match_over), "the match ended without a break"
            if isinstance(message, Error) or (isinstance(message, Update) and message.ref == pending):
                pending = None

    return list(await asyncio.gather(*(until_break(c, i) for i, c in enumerate(clients))))


async def next_of(client: Client, kind: type[Any]) -> Any:
    """The next message of type ``kind`` from ``client`` (bounded); the others are dropped."""
    async with asyncio.timeout(WAIT):
        while True:
            message = await client.receive()
            if isinstance(message, kind):
                return message
            assert not isinstance(message, Closed), f"closed while waiting for a {kind.__name__}: {message}"


async def first_that(client: Client, test: Callable[[Any], bool]) -> Any:
    """The first message from ``client`` that passes ``test`` (bounded)."""
    async with asyncio.timeout(WAIT):
        while True:
            message = await client.receive()
            if test(message):
                return message
            assert not isinstance(message, Closed), f"closed while waiting: {message}"


# -- raw peers -----------------------------------------------------------------


class RawPeer:
    """A bare TCP connection that speaks frames by hand (for malformed input)."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer
        self.codec = Codec("client")

    @classmethod
    async def open(cls, port: int) -> RawPeer:
        reader, writer = await asyncio.wait_for(asyncio.open_connection(LOOPBACK, port), WAIT)
        return cls(reader, writer)

    def send_bytes(self, data: bytes) -> None:
        self.writer.write(data)

    def send_obj(self, obj: Any) -> None:
        body = msgpack.packb(obj, use_bin_type=True)
        self.writer.write(struct.pack(">I", len(body)) + body)

    async def next(self) -> Any | Signal:
        """The next frame from the host as raw data, or CLOSED."""
        async with asyncio.timeout(WAIT):
            while True:
                frame = self.codec.next_frame()
                if frame is not NEED_DATA:
                    return frame
                try:
                    data = await self.reader.read(65536)
                except ConnectionError:
                    data = b""
                self.codec.receive_data(data)

    async def until(self, kind: str) -> dict[str, Any]:
        """Skip frames until one of type ``kind``; fails if the connection ends first."""
        while True:
            frame = await self.next()
            assert frame is not CLOSED, f"the host hung up before sending a {kind}"
            if frame["type"] == kind:
                return frame  # type: ignore[no-any-return]

    async def closed(self) -> list[Any]:
        """Every frame until the host hangs up."""
        frames = []
        while True:
            frame = await self.next()
            if frame is CLOSED:
                return frames
            frames.append(frame)

    def close(self) -> None:
        self.writer.close()


# -- leak checks -----------------------------------------------------------------

_TILE = re.compile(r"\b(\d{1,2})-(\d{1,2})\b")


def _tile(text: str) -> tuple[int, int]:
    a, b = (int(x) for x in text.split("-"))
    return (min(a, b), max(a, b))


@dataclass(frozen=True)
class _Kinds:
    """The event types that number a round and end it, in one game's maps (core's registry)."""

    started: str
    ended: str


def _kinds(spec: GameSpec) -> _Kinds:
    wire = wire_of_game(spec)
    return _Kinds(wire.round_started.__struct_config__.tag, wire.round_ended.__struct_config__.tag)


#: Each game's kinds, by the ``game`` its view maps say (None: the Draw family's, which say none).
_KINDS = {spec.view_tag: _kinds(spec) for spec in GAMES}


def _mentioned(value: Any, out: set[tuple[int, int]], ended: str) -> None:
    """Every tile named anywhere in ``value``, except inside round results (the reveal)."""
    if isinstance(value, dict):
        if value.get("type") in (ended, *(kinds.ended for kinds in _KINDS.values())):
            return
        for key, item in value.items():
            if key == "results":
                continue
            _mentioned(item, out, ended)
    elif isinstance(value, list):
        for item in value:
            _mentioned(item, out, ended)
    elif isinstance(value, str):
        for a, b in _TILE.findall(value):
            out.add((min(int(a), int(b)), max(int(a), int(b))))


def _lays(event: dict[str, Any]) -> bool:
    """``event`` lays a tile somewhere (on an end of a line, on a train): its tile is public."""
    return "tile" in event and ("end" in event or "train" in event)


def _public(view: dict[str, Any], events: list[Any]) -> set[tuple[int, int]]:
    """The tiles everyone may know in a frame of any game: laid (on a line or a train), the round's
    engine, a forced lead, and the tile of every event that lays one."""
    laid = [*view.get("line", ()), *(tile for train in view.get("trains", ()) for tile in train["tiles"])]
    public = {(min(a, b), max(a, b)) for a, b in laid}
    shown = [view.get("forced_lead"), view.get("engine"), *(event.get("engine") for event in events),
             *(event["tile"] for event in events if _lays(event))]
    public.update(_tile(tile) for tile in shown if isinstance(tile, str))
    return public


def check_no_leaks(frames: list[Any], seat: int | None) -> int:
    """Fail if ``seat`` (None: a spectator) was ever sent a tile it may not know, in any game.

    In every frame, each tile named outside a round's results must be in the
    seat's own hand, laid, or publicly played or forced; the match's
    record (every hand) may come only once a view said the match is over. And every tile
    ever shown as the seat's hand in a round must be one it ended that round
    with or played itself, checked against the reveal. Returns frames checked.
    """
    held: dict[int, set[tuple[int, int]]] = {}
    played: dict[int, set[tuple[int, int]]] = {}
    revealed: dict[int, list[set[tuple[int, int]]]] = {}
    checked = 0

    def track_events(events: list[Any], round_number: int, kinds: _Kinds) -> int:
        for event in events:
            kind = event["type"]
            if kind == kinds.started:
                round_number = event["round_number"]
            elif kind == kinds.ended:
                result = event["result"]
                revealed[result["round_number"]] = [{_tile(t) for t in h} for h in result["hands"]]
            elif _lays(event) and event.get("seat") == seat:
                played.setdefault(round_number, set()).add(_tile(event["tile"]))
        return round_number

    over = False
    for frame in frames:
        if frame.get("type") == "record":
            # The match's record shows every hand: public once the match is over, never before.
            assert over, "the match's record was sent before the match was over"
            continue
        if frame.get("type") not in ("snapshot", "update"):
            mentioned: set[tuple[int, int]] = set()
            _mentioned(frame, mentioned, "")
            assert not mentioned, f"a {frame.get('type')} frame names tiles: {mentioned}"
            continue
        view = frame["view"]
        kinds = _KINDS[view.get("game")]
        over = over or view.get("winner") is not None or view.get("winners") is not None
        events = list(view.get("events", [])) + list(frame.get("events", []))
        public = _public(view, events)
        hand = {_tile(t) for t in view["hand"]}
        if seat is None:
            assert not hand, "a spectator was sent a hand"
        else:
            assert len(hand) == view["hand_counts"][seat], "the hand does not match its count"
        mentioned = set()
        _mentioned(frame, mentioned, kinds.ended)
        leaked = mentioned - hand - public
        assert not leaked, f"seat {seat} was sent tiles it may not know: {sorted(leaked)}"
        round_number = view["round_number"]
        if frame["type"] == "update":
            first_round = round_number - sum(1 for e in frame["events"] if e["type"] == kinds.started)
            track_events(frame["events"], first_round, kinds)
        else:
            track_events(view.get("events", []), round_number, kinds)
        held.setdefault(round_number, set()).update(hand)
        checked += 1
    if seat is not None:
        for round_number, tiles in held.items():
            if round_number in revealed:
                mine = revealed[round_number][seat] | played.get(round_number, set())
                assert tiles <= mine, f"round {round_number}: seat {seat} saw {sorted(tiles - mine)}"
    return checked


def check_numbering(frames: list[Any]) -> None:
    """Fail unless every update follows the last event number seen, without a gap."""
    seq = None
    for frame in frames:
        if frame.get("type") == "snapshot":
            seq = frame["seq"]
        elif frame.get("type") == "update":
            assert seq is not None, "an update came before any snapshot"
            assert frame["seq"] == seq + len(frame["events"]), f"a gap before event {frame['seq']}"
            seq = frame["seq"]


class Proxy:
    """A TCP relay on 127.0.0.1 between clients and a host; `cut` drops every connection for real."""

    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self.port = 0
        self._server: asyncio.Server | None = None
        self._writers: list[asyncio.StreamWriter] = []
        self._flowing: list[asyncio.Event] = []
        self.connections = 0

    async def start(self) -> int:
        self._server = await asyncio.start_server(self._relay, LOOPBACK, 0)
        self.port = self._server.sockets[0].getsockname()[1]
        return self.port

    async def _relay(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        up_reader, up_writer = await asyncio.open_connection(LOOPBACK, self.target_port)
        self._writers += [writer, up_writer]
        flowing = asyncio.Event()
        flowing.set()
        self._flowing.append(flowing)

        async def pipe(src: asyncio.StreamReader, dst: asyncio.StreamWriter) -> None:
            try:
                while data := await src.read(65536):
                    await flowing.wait()
                    dst.write(data)
                    await dst.drain()
            except (ConnectionError, OSError):
                pass
            finally:
                dst.transport.abort()

        await asyncio.gather(pipe(reader, up_writer), pipe(up_reader, writer))

    def freeze(self) -> None:
        """Stop relaying on the current connections without closing them (a dead network)."""
        for flowing in self._flowing:
            flowing.clear()

    def cut(self) -> None:
        """Abort every relayed connection at once (both sides see a reset)."""
        for writer in self._writers:
            writer.transport.abort()
        self._writers.clear()

    async def stop(self) -> None:
        self.cut()
        if self._server is not None:
            self._server.close()
