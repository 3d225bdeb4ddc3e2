"""One table of a host, driven with a clock and an entropy source the test holds (no sockets).

Its phases and the moves between them (`Phase`, `MOVES`), and its randomness
coming in from outside as its time does: the same entropy, the same table.
"""

from __future__ import annotations

import itertools
import random
import secrets
import struct
from typing import Any

import msgpack
import pytest
from capicu.core import Rules
from capicu.net.codes import CODE_ALPHABET, new_seat_key
from capicu.net.host.effects import Peer
from capicu.net.host.machine import HostMachine, Limits
from capicu.net.host.table import MOVES, Phase, PhaseError, Table, TableConfig


def _framed(obj: object) -> bytes:
    body = msgpack.packb(obj, use_bin_type=True)
    return struct.pack(">I", len(body)) + body


def _seated(table: Table, *names: str) -> list[Peer]:
    """A machine around ``table``, and a person joined in a seat for each of ``names``."""
    machine = HostMachine(Limits())
    machine.add_table(table)
    peers = []
    for number, name in enumerate(names):
        peer, _ = machine.connect(f"10.0.0.{number + 1}", 0.0)
        machine.receive(peer, _framed({"type": "hello", "version": 7, "name": name}), 0.0)
        assert peer.seat == number
        peers.append(peer)
    return peers


def _seeded(seed: int) -> Any:
    return random.Random(seed).randbytes


# -- phases ------------------------------------------------------------------------------


def test_every_phase_has_its_moves_and_each_is_reached_from_the_lobby():
    assert set(MOVES) == set(Phase)
    reached, todo = {Phase.LOBBY}, [Phase.LOBBY]
    while todo:
        for after in MOVES[todo.pop()]:
            if after not in reached:
                reached.add(after)
                todo.append(after)
    assert reached == set(Phase)
    assert MOVES[Phase.OVER] == frozenset()


@pytest.mark.parametrize("preset", ["draw", "mexican-train"])
def test_a_match_goes_through_the_phases_by_the_moves_of_the_table(preset):
    rules = Rules.preset_named(preset)
    table = Table(TableConfig(rules=rules, players=2, seed=4, next_round_delay=30.0), entropy=_seeded(1))
    assert table.phase is Phase.LOBBY
    ana, bo = _seated(table, "Ana", "Bo")
    assert table.phase is Phase.PLAYING
    phases = [Phase.LOBBY, Phase.PLAYING]
    peers = {0: ana, 1: bo}
    now = 0.0
    while table.phase is not Phase.OVER:
        match = table.match
        assert match is not None
        now += 1.0
        if table.phase is Phase.BREAK:
            table.ready(ana, now)
            table.ready(bo, now)
        else:
            assert match.turn is not None
            table.act(peers[match.turn], match.legal_actions()[0], None, now)
        if table.phase is not phases[-1]:
            phases.append(table.phase)
    assert Phase.BREAK in phases
    for before, after in itertools.pairwise(phases):
        assert after in MOVES[before], (before, after)
    # Over, the table stays over: nothing it is asked moves it.
    table.ready(ana, now + 1.0)
    table.wake(now + 100.0)
    assert table.phase is Phase.OVER


def test_a_move_the_table_does_not_allow_is_a_clear_error():
    table = Table(TableConfig(players=2, seed=4), entropy=_seeded(1))
    _seated(table, "Ana", "Bo")
    with pytest.raises(PhaseError, match="cannot go from playing to lobby") as refused:
        table._move_to(Phase.LOBBY)
    assert (refused.value.before, refused.value.after) == (Phase.PLAYING, Phase.LOBBY)
    assert table.phase is Phase.PLAYING


def test_the_seat_map_says_started_once_the_table_left_the_lobby():
    table = Table(TableConfig(players=2, seed=4), entropy=_seeded(1))
    _seated(table, "Ana")
    assert table.phase is Phase.LOBBY and table._seats_message().started is False
    table.fill_with_computers(1.0)
    assert table.phase is Phase.PLAYING and table._seats_message().started is True


# -- entropy -------------------------------------------------------------------------------


def _secrets_of(table: Table) -> tuple[object, ...]:
    return (table.match_id, table.seed, *[(seat.token, seat.seat_key) for seat in table.seats])


def test_the_same_entropy_makes_the_same_table():
    tables = [Table(TableConfig(players=2), entropy=_seeded(7)) for _ in range(2)]
    for table in tables:
        _seated(table, "Ana", "Bo")
    first, second = (_secrets_of(table) for table in tables)
    assert first == second
    other = Table(TableConfig(players=2), entropy=_seeded(8))
    _seated(other, "Ana", "Bo")
    assert _secrets_of(other) != first
    # The match too: its seed came from the entropy.
    assert tables[0].match is not None and tables[1].match is not None
    assert tables[0].match.log() == tables[1].match.log()


def test_the_table_asks_nothing_of_secrets(monkeypatch):
    def refuse(*args: object, **kwargs: object) -> Any:
        raise AssertionError("the table called secrets")

    for name in ("token_bytes", "token_urlsafe", "token_hex", "randbits", "choice", "randbelow"):
        monkeypatch.setattr(secrets, name, refuse)
    drawn: list[int] = []

    def entropy(size: int) -> bytes:
        drawn.append(size)
        return bytes(range(size))

    table = Table(TableConfig(players=2), entropy=entropy)
    _seated(table, "Ana", "Bo")
    assert table.phase is Phase.PLAYING and drawn
    assert table.seats[0].token is not None and table.seats[0].token.startswith(table.match_id + ".")


def test_a_seat_key_takes_each_symbol_evenly_from_the_bytes():
    # Bytes of 248 and up would favour the first symbols: they are drawn again.
    given = iter([bytes([255] * 14), bytes(range(14))])
    key = new_seat_key(lambda size: next(given))
    assert key.replace("-", "") == CODE_ALPHABET[:14]


# -- a drawn table (a club night's round) ----------------------------------------------------


def test_a_drawn_table_holds_its_peoples_seats_and_starts_at_once():
    table = Table(TableConfig(players=4, rules=Rules.preset_named("drawing-game"), grace=30.0),
                  entropy=_seeded(3))
    table.seat_drawn(["Ana", None, "Bea", None], now=100.0)
    assert table.phase is Phase.PLAYING
    assert [seat.kind.value for seat in table.seats] == ["person", "computer", "person", "computer"]
    ana, bea = table.seats[0], table.seats[2]
    assert ana.token and bea.token and ana.token != bea.token and ana.seat_key and ana.peer is None
    assert ana.token.startswith(f"{table.match_id}.")
    # Nobody came: at the end of the grace period the computer covers both seats, as after a drop.
    assert table.next_deadline() is not None and table.next_deadline() <= 130.0
    table.wake(130.0)
    assert ana.covered and bea.covered and not ana.left
    with pytest.raises(ValueError):
        table.seat_drawn(["Ana", None, "Bea", None], now=131.0)  # seated once


def test_a_drawn_seat_taken_back_with_its_token_then_left_for_good():
    table = Table(TableConfig(players=2, grace=30.0), entropy=_seeded(4))
    table.seat_drawn(["Ana", "Bea"], now=0.0)
    machine = HostMachine(Limits())
    machine.add_table(table)
    peer, _ = machine.connect("10.0.0.1", 0.0)
    hello = {"type": "hello", "version": 7, "name": "-", "token": table.seats[1].token}
    machine.receive(peer, _framed(hello), 1.0)
    assert peer.seat == 1 and table.seats[1].peer is peer and table.seats[1].name == "Bea"
    table.cover_seat(1, now=2.0)
    assert table.seats[1].covered and table.seats[1].left and table.seats[1].peer is None
    assert peer.table is None
