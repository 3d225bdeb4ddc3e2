"""The match record through a real host on 127.0.0.1: never sent or written while the match is
played; at its end every seat and spectator gets it, and the host and each player keep it."""

from __future__ import annotations

import asyncio
from pathlib import Path

import msgspec
from capicu.core import Match, Rules, make_player
from capicu.net import Client, Closed, Error, NextRound, Update
from capicu.net.codec import encode_frame
from capicu.net.model import TableModel
from capicu.net.protocol import MatchRecorded, Snapshot, Welcome, to_wire
from capicu.net.store.record import RECORD_SUFFIX, RecordSeat, decode_record, read_record, record_of

from ..conftest import LOOPBACK, WAIT, decode_frames


def _to(target: int) -> Rules:
    """The default game, played to ``target`` points (a short match)."""
    return msgspec.structs.replace(Rules(), target=target)


def _files(*folders: Path) -> list[Path]:
    """The record files in ``folders`` (the history of matches lives beside them: net/store/history.py)."""
    return sorted(path for folder in folders if folder.exists() for path in folder.glob("*" + RECORD_SUFFIX))


async def _connect(port: int, name: str, records: Path, wire: bytearray, *, spectate: bool = False) -> Client:
    connecting = Client.connect(LOOPBACK, port, name=name, spectate=spectate, records=records,
                                wire_tap=wire.extend)
    return await asyncio.wait_for(connecting, WAIT)


async def _play_to_the_record(client: Client, *folders: Path) -> MatchRecorded:
    """Play ``client``'s turns to the end of the match; its record. While the match is played no
    record comes and no file appears in ``folders``."""
    player = make_player("greedy", 1)
    pending: int | None = None
    async with asyncio.timeout(WAIT * 2):
        while True:
            view = client.view
            if view is not None and view.is_my_turn and pending is None:
                pending = await client.send_action(player.choose(view))
            message = await client.receive()
            if isinstance(message, MatchRecorded):
                assert client.view is not None and client.view.match_over
                return message
            assert not isinstance(message, Closed), message
            assert client.model.record is None
            if not (client.view is not None and client.view.match_over):
                assert _files(*folders) == [], "a record was written while the match was played"
            if isinstance(message, Error) or (isinstance(message, Update) and message.ref == pending):
                pending = None
            if isinstance(message, NextRound) and client.seat in message.waiting:
                await client.ready()


async def test_a_record_is_sent_and_kept_only_once_the_match_is_over(start_host, tmp_path):
    host_folder, ana_folder, eve_folder = tmp_path / "host", tmp_path / "ana", tmp_path / "eve"
    host, port = await start_host(players=2, computers=1, seed=7, records=host_folder, rules=_to(40))
    eve_wire, ana_wire = bytearray(), bytearray()
    eve = await _connect(port, "Eve", eve_folder, eve_wire, spectate=True)
    ana = await _connect(port, "Ana", ana_folder, ana_wire)
    got = await _play_to_the_record(ana, host_folder, ana_folder, eve_folder)
    async with asyncio.timeout(WAIT):
        while not isinstance(message := await eve.receive(), MatchRecorded):
            assert eve.model.record is None and not isinstance(message, Closed)
    await host.stop()  # waits for the host's own copy to be written
    record = got.record
    assert ana.model.record == eve.model.record == record
    assert record.match_id == ana.match_id and record.names == ("Ana", "Computer 2")
    assert [(seat.kind, seat.level) for seat in record.seats] == [("person", None), ("computer", "normal")]
    assert record.totals == tuple(ana.view.scores) and record.started <= record.ended
    # One file in each folder, the same bytes everywhere, named by the match.
    files = _files(host_folder, ana_folder, eve_folder)
    assert [path.parent.name for path in files] == ["ana", "eve", "host"]
    assert all(path.name.endswith(f"-{record.match_id}{RECORD_SUFFIX}") for path in files)
    assert len({path.read_bytes() for path in files}) == 1
    assert read_record(files[0]) == record and ana.model.record_file == files[0]
    assert any("record_kept" in str(note.code) for note in start_host.reports)
    # On the wire: the record is the last word on the match, after the update that ends it.
    for wire in (ana_wire, eve_wire):
        kinds = [frame["type"] for frame in decode_frames(bytes(wire))]
        ended = max(i for i, frame in enumerate(decode_frames(bytes(wire)))
                    if frame["type"] == "update" and frame["view"]["winner"] is not None)
        assert kinds.index("record") == ended + 1 and kinds.count("record") == 1
    await ana.close()
    await eve.close()


async def test_a_host_and_a_player_sharing_a_data_folder_keep_one_file(start_host, tmp_path):
    folder = tmp_path / "records"
    host, port = await start_host(players=2, computers=1, seed=3, records=folder, rules=_to(30))
    ana = await _connect(port, "Ana", folder, bytearray())
    got = await _play_to_the_record(ana, folder)
    await host.stop()
    assert [path.name for path in _files(folder)] == [ana.model.record_file.name]
    assert decode_record(ana.model.record_file.read_bytes()) == got.record
    await ana.close()


async def test_whoever_comes_in_after_the_end_gets_the_record_after_the_snapshot(start_host, tmp_path):
    _, port = await start_host(players=2, computers=1, seed=5, rules=_to(30))
    ana = await _connect(port, "Ana", tmp_path / "ana", bytearray())
    got = await _play_to_the_record(ana)
    late = await _connect(port, "Late", tmp_path / "late", bytearray(), spectate=True)
    async with asyncio.timeout(WAIT):
        while not isinstance(message := await late.receive(), MatchRecorded):
            assert not isinstance(message, Closed)
    assert late.model.record == got.record and late.model.record_file is not None
    await late.close()
    await ana.close()


# -- a record the client refuses ---------------------------------------------------------------


def _finished(seed: int = 2, target: int = 30) -> Match:
    match = Match(msgspec.structs.replace(Rules(), target=target), 2, seed)
    players = [make_player("greedy", seat) for seat in range(2)]
    while not match.is_over:
        match.apply(players[match.turn].choose(match.view(match.turn)), match.turn)
    return match


SEATS = [RecordSeat("Ana", "person"), RecordSeat("Computer 2", "computer", "greedy")]
WELCOME = Welcome(table="main", name="Ana", seat=0, token="t", seat_key="k", players=2, heartbeat=15.0,
                  match="m1")


def _model_at_the_end(match: Match) -> TableModel:
    model = TableModel("Ana")
    model.apply(WELCOME, 0.0)
    model.apply(Snapshot(1, match.view(0)), 0.0)
    return model


def test_the_model_keeps_a_record_that_checks_and_says_why_it_refuses_one_that_does_not():
    match = _finished()
    good = record_of(match, SEATS, match_id="m1", started=0.0, ended=1.0)
    model = _model_at_the_end(match)
    model.apply(MatchRecorded(good), 0.0)
    assert model.record == good and model.record_problem is None

    other_id = record_of(match, SEATS, match_id="m2", started=0.0, ended=1.0)
    model = _model_at_the_end(match)
    model.apply(MatchRecorded(other_id), 0.0)
    assert model.record is None and "'m2'" in model.record_problem

    other_match = record_of(_finished(seed=9), SEATS, match_id="m1", started=0.0, ended=1.0)
    model = _model_at_the_end(match)
    model.apply(MatchRecorded(other_match), 0.0)
    assert model.record is None and "totals" in model.record_problem

    early = TableModel("Ana")
    early.apply(WELCOME, 0.0)
    early.apply(Snapshot(1, Match(Rules(), 2, 2).view(0)), 0.0)  # the match has just begun
    early.apply(MatchRecorded(good), 0.0)
    assert early.record is None and "before" in early.record_problem

    lying = msgspec.structs.replace(good, totals=tuple(reversed(good.totals)))
    model = _model_at_the_end(match)
    model.apply(MatchRecorded(lying), 0.0)
    assert model.record is None and "totals or winners" in model.record_problem


async def test_a_refused_record_is_not_written(tmp_path):
    """A host that sends this match's end and another match's record: the client writes nothing."""
    match = _finished()
    wrong = record_of(match, SEATS, match_id="someone-else", started=0.0, ended=1.0)

    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.read(65536)  # the hello
        for message in (WELCOME, Snapshot(1, match.view(0)), MatchRecorded(wrong)):
            writer.write(encode_frame(to_wire(message)))
        await writer.drain()
        await reader.read()  # until the client hangs up

    server = await asyncio.start_server(serve, LOOPBACK, 0)
    port = server.sockets[0].getsockname()[1]
    folder = tmp_path / "records"
    client = await asyncio.wait_for(Client.connect(LOOPBACK, port, name="Ana", records=folder,
                                                   reconnect=False), WAIT)
    async with asyncio.timeout(WAIT):
        while not isinstance(await client.receive(), MatchRecorded):
            pass
    assert client.model.record is None and "someone-else" in client.model.record_problem
    assert _files(folder) == []
    await client.close()
    server.close()
    await server.wait_closed()


async def test_a_resumed_match_is_recorded_as_begun_when_it_first_began(start_host, tmp_path):
    from capicu.net.store.journal import read_journal

    from ..conftest import play_bot

    journal = tmp_path / "match.journal"
    host, port = await start_host(players=2, computers=1, seed=4, journal=journal, rules=_to(40))
    played = await asyncio.wait_for(play_bot(port, "Ana", stop_after=6), WAIT)
    token = host.tables["main"].seats[played.seat].token
    await host.stop()
    began = read_journal(journal).header.started
    assert isinstance(began, str) and began.endswith("Z")
    resumed, port = await start_host(resume=journal, grace=30, records=tmp_path / "host")
    ana = await asyncio.wait_for(Client.connect(LOOPBACK, port, name="Ana", token=token), WAIT)
    got = await _play_to_the_record(ana)
    assert got.record.started == began <= got.record.ended
    await resumed.stop()
    assert read_record(_files(tmp_path / "host")[0]) == got.record
    await ana.close()
