"""The seat store: tokens survive the process, stay private, and a bad file costs nothing."""

from __future__ import annotations

import json
import stat
from pathlib import Path

import msgspec
import pytest
from capicu.tui.prefs.saved_seats import MAX_SEATS, SavedSeat, SeatStore
from capicu.tui.prefs.settings import data_dir
from hypothesis import given, settings
from hypothesis import strategies as st
from msgspec.structs import asdict


def _seat(match: str = "m1", host: str = "192.168.1.20", token: str = "tok-1", seat: int = 0,
          name: str = "Pepe") -> SavedSeat:
    return SavedSeat(host=host, port=7254, table="main", match=match, token=token,
                     seat_key="K7PX-2MQR-HT4W-9CV", name=name, seat=seat)


def test_a_saved_seat_is_found_again_by_a_new_store(tmp_path: Path) -> None:
    path = tmp_path / "data" / "seats.json"
    SeatStore(path).save(_seat())
    found = SeatStore(path).seats_at("192.168.1.20", 7254, "main")
    assert found == [_seat()]
    assert SeatStore(path).seats_at("192.168.1.20", 7255, "main") == []
    assert SeatStore(path).seats_at("192.168.1.20", 7254, "other") == []


def test_the_file_is_private(tmp_path: Path) -> None:
    path = tmp_path / "seats.json"
    path.write_text("{}")
    path.chmod(0o644)
    SeatStore(path).save(_seat())
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_the_host_is_matched_ignoring_case_and_the_newest_comes_first(tmp_path: Path) -> None:
    store = SeatStore(tmp_path / "seats.json")
    store.save(_seat(match="old", host="Mesa.local", token="a"))
    store.save(_seat(match="new", host="mesa.local", token="b"))
    assert [s.token for s in store.seats_at("MESA.LOCAL", 7254, "main")] == ["b", "a"]


def test_saving_the_same_match_again_replaces_it(tmp_path: Path) -> None:
    store = SeatStore(tmp_path / "seats.json")
    store.save(_seat(token="a"))
    store.save(_seat(token="b"))
    assert [s.token for s in store.seats_at("192.168.1.20", 7254, "main")] == ["b"]


def test_forgetting_a_match_keeps_the_others(tmp_path: Path) -> None:
    store = SeatStore(tmp_path / "seats.json")
    store.save(_seat(match="one"))
    store.save(_seat(match="two"))
    store.forget("192.168.1.20", 7254, "main", "one")
    assert [s.match for s in store.seats_at("192.168.1.20", 7254, "main")] == ["two"]
    store.forget("192.168.1.20", 7254, "main")
    assert store.seats_at("192.168.1.20", 7254, "main") == []


def test_a_seat_is_found_by_the_name_it_was_saved_for(tmp_path: Path) -> None:
    """Two people sharing a data folder at one table each keep their seat, and find only their own."""
    store = SeatStore(tmp_path / "seats.json")
    store.save(_seat(name="Ana", token="ana", seat=0))
    store.save(_seat(name="Bob", token="bob", seat=1))
    assert [s.token for s in store.seats_at("192.168.1.20", 7254, "main", name="ANA")] == ["ana"]
    assert [s.token for s in store.seats_at("192.168.1.20", 7254, "main", name="Bob")] == ["bob"]
    assert store.seats_at("192.168.1.20", 7254, "main", name="Carla") == []
    store.forget("192.168.1.20", 7254, "main", "m1", "Bob")
    assert [s.token for s in store.seats_at("192.168.1.20", 7254, "main")] == ["ana"]


def test_only_the_newest_seats_are_kept(tmp_path: Path) -> None:
    store = SeatStore(tmp_path / "seats.json")
    for n in range(MAX_SEATS + 5):
        store.save(_seat(match=f"m{n}"))
    kept = store.seats_at("192.168.1.20", 7254, "main")
    assert len(kept) == MAX_SEATS
    assert kept[0].match == f"m{MAX_SEATS + 4}"


@pytest.mark.parametrize("content", [
    "not json", "[]", '{"seats": 3}', '{"seats": [{"host": 1}]}', "\x00\xff", '{"seats": [[[[[]]]]]}',
    json.dumps({"seats": [{**asdict(_seat()), "port": 0}]}),
    json.dumps({"seats": [{**asdict(_seat()), "token": ""}]}),
    json.dumps({"seats": [{**asdict(_seat()), "seat": True}]}),
])
def test_a_damaged_file_is_ignored(tmp_path: Path, content: str) -> None:
    path = tmp_path / "seats.json"
    path.write_text(content, encoding="utf-8", errors="surrogateescape")
    store = SeatStore(path)
    assert store.seats_at("192.168.1.20", 7254, "main") == []
    assert store.save(_seat())  # and it is replaced by a good one
    assert store.seats_at("192.168.1.20", 7254, "main") == [_seat()]


def test_a_huge_file_is_not_read(tmp_path: Path) -> None:
    path = tmp_path / "seats.json"
    path.write_text(json.dumps({"seats": [], "padding": "x" * 400_000}))
    assert SeatStore(path).seats_at("192.168.1.20", 7254, "main") == []


_values = st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=80), st.lists(st.integers()))


@settings(max_examples=150, deadline=None)
@given(st.dictionaries(st.sampled_from(
    ["host", "port", "table", "match", "token", "seat_key", "name", "seat", "extra"]), _values))
def test_any_entry_is_a_seat_or_ignored(
    tmp_path_factory: pytest.TempPathFactory, entry: dict[str, object]
) -> None:
    path = tmp_path_factory.mktemp("seats") / "seats.json"
    path.write_text(json.dumps({"seats": [entry]}))
    for seat in SeatStore(path).seats_at(str(entry.get("host", "")), 7254, "main"):
        assert isinstance(seat.token, str) and seat.token


def test_the_data_folder_follows_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CAPICU_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.delenv("CAPICU_DATA_DIR", raising=False)
    assert data_dir() == tmp_path / "config"
    monkeypatch.setenv("CAPICU_DATA_DIR", str(tmp_path / "data"))
    assert data_dir() == tmp_path / "data"


def test_a_file_written_by_the_previous_version_still_loads(tmp_path: Path) -> None:
    path = tmp_path / "seats.json"
    entries = [asdict(_seat()), {**asdict(_seat("m2")), "seat_key": None}]
    path.write_text(json.dumps({"seats": entries}, indent=1))  # as json.dumps wrote it
    assert SeatStore(path).seats_at("192.168.1.20", 7254, "main") == [
        msgspec.structs.replace(_seat("m2"), seat_key=None), _seat()]


def test_the_file_round_trips_through_its_declaration_and_is_stable(tmp_path: Path) -> None:
    path = tmp_path / "seats.json"
    problems: list[str] = []
    store = SeatStore(path, warn=problems.append)
    seats = [_seat("m1"), msgspec.structs.replace(_seat("m2", host="Mesa.local", seat=3), seat_key=None)]
    for seat in seats:
        store.save(seat)
    written = path.read_bytes()
    assert [SavedSeat(**entry) for entry in json.loads(written)["seats"]] == seats
    store.save(seats[-1])  # the same seat again: the same bytes
    assert path.read_bytes() == written and problems == []


@pytest.mark.parametrize(("entry", "problem"), [
    ({"port": 0}, "seats[1]: port must be >= 1"),
    ({"token": ""}, "seats[1]: token is shorter than 1"),
    ({"seat": "2"}, "seats[1]: seat must be a whole number, not text"),
    ({"name": "n" * 97}, "seats[1]: name is longer than 96"),
    ({"extra": 1}, "seats[1]: it has an unknown setting 'extra'"),
    ({"seat_key": 5}, "seats[1]: seat_key must be text, not a whole number"),
])
def test_a_bad_entry_costs_only_itself_and_is_named(tmp_path: Path, entry: dict[str, object],
                                                    problem: str) -> None:
    path = tmp_path / "seats.json"
    path.write_text(json.dumps({"seats": [asdict(_seat("good")), {**asdict(_seat("bad")), **entry}]}))
    problems: list[str] = []
    store = SeatStore(path, warn=problems.append)
    assert [seat.match for seat in store.seats_at("192.168.1.20", 7254, "main")] == ["good"]
    assert len(problems) == 1 and str(path) in problems[0] and problem in problems[0], problems


@pytest.mark.parametrize(("content", "problem"), [
    ("not json", "not valid JSON"), ("[]", "the file must be a table, not a list"),
    ('{"seats": 3}', "seats must be a list"), ('{"other": []}', "it has no seats"),
])
def test_a_bad_file_is_named_in_the_problems(tmp_path: Path, content: str, problem: str) -> None:
    path = tmp_path / "seats.json"
    path.write_text(content)
    problems: list[str] = []
    store = SeatStore(path, warn=problems.append)
    assert store.seats_at("192.168.1.20", 7254, "main") == []
    assert len(problems) == 1 and problem in problems[0], problems
