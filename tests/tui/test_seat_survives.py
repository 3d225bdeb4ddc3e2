"""A seat survives a crash: real processes, real pseudo-terminals, SIGKILL.

A headless host runs as its own process with one computer seat; ``capicu join``
runs in an 80x24 pseudo-terminal (read through a terminal emulator), is killed
mid-round with SIGKILL and started again with the same command line: it is back
in its seat with its hand. The same from another machine (a second config
folder) with ``--seat-key``. A headless host refuses to give the seat to a mere
name. And when the host itself dies, the client says so and, when it gives up,
exits with one line and a non-zero code.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest
from helpers_terminal import HeadlessHost, Terminal, capicu_env

CODE = "MESA42"
_TILE = re.compile(r"\[(\d)\|(\d)\]")

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals")


def _join(port: int, config: Path, *options: str) -> Terminal:
    argv = [sys.executable, "-m", "capicu.tui", "join", f"127.0.0.1:{port}", "--name", "Pepe", *options]
    return Terminal(argv, capicu_env(config))


def _hand(text: str) -> list[str]:
    """The tiles of my hand: the row of my seat panel, right of the panel."""
    for row in text.splitlines():
        if "(you)" in row:
            return [f"{a}-{b}" for a, b in _TILE.findall(row[24:])]
    return []


def _seated(text: str) -> bool:
    return "(you)" in text and len(_hand(text)) >= 5


@pytest.fixture
def host(tmp_path: Path) -> HeadlessHost:
    host = HeadlessHost("--players", "2", "--computers", "1", "--code", CODE, "--grace", "600",
                        "--level", "easy", "--seed", "5", env=capicu_env(tmp_path / "host"))
    yield host
    host.stop()


def test_a_killed_client_comes_back_to_its_seat_and_hand(host: HeadlessHost, tmp_path: Path) -> None:
    first = _join(host.port, tmp_path / "a", "--code", CODE)
    try:
        hand = _hand(first.wait_for(_seated, "the table with my hand"))
    finally:
        first.kill()
    saved = json.loads((tmp_path / "a" / "seats.json").read_text())["seats"]
    assert [seat["seat"] for seat in saved] == [0]

    again = _join(host.port, tmp_path / "a", "--code", CODE)
    try:
        text = again.wait_for(lambda s: _seated(s) and "back in your seat" in s, "my seat again")
        assert _hand(text) == hand
        assert "watching" not in text
    finally:
        again.kill()

    # From another machine: a fresh config folder, the seat key the table showed.
    key = saved[0]["seat_key"]
    elsewhere = _join(host.port, tmp_path / "b", "--seat-key", key)
    try:
        text = elsewhere.wait_for(lambda s: _seated(s) and "back in your seat" in s, "my seat by its key")
        assert _hand(text) == hand
    finally:
        elsewhere.kill()


def test_another_name_from_the_same_data_folder_gets_a_seat_of_its_own(tmp_path: Path) -> None:
    """Two terminals, one data folder: Bob (--name Bob) sits down himself, Pepe keeps his seat."""
    host = HeadlessHost("--players", "3", "--computers", "1", "--code", CODE, "--grace", "600",
                        "--level", "easy", "--seed", "5", env=capicu_env(tmp_path / "host"))
    seats_file = tmp_path / "a" / "seats.json"
    pepe = bob = None
    try:
        pepe = _join(host.port, tmp_path / "a", "--code", CODE)
        pepe.wait_for(lambda _: seats_file.exists(), "Pepe's seat saved")
        argv = [sys.executable, "-m", "capicu.tui", "join", f"127.0.0.1:{host.port}", "--name", "Bob",
                "--code", CODE]
        bob = Terminal(argv, capicu_env(tmp_path / "a"))
        bob_sees = bob.wait_for(_seated, "Bob at the table with his hand")
        assert "back in your seat" not in bob_sees
        assert any("Bob" in row for row in bob_sees.splitlines() if "(you)" in row)
        pepe_sees = pepe.wait_for(_seated, "Pepe at the table with his hand")
        assert "another connection" not in pepe_sees
        saved = json.loads(seats_file.read_text())["seats"]
        assert sorted(seat["name"] for seat in saved) == ["Bob", "Pepe"]
        assert len({seat["seat"] for seat in saved}) == 2
    finally:
        for terminal in (pepe, bob):
            if terminal is not None:
                terminal.kill()
        host.stop()


def test_a_headless_host_does_not_give_a_seat_to_a_name(host: HeadlessHost, tmp_path: Path) -> None:
    first = _join(host.port, tmp_path / "a", "--code", CODE)
    try:
        first.wait_for(_seated, "the table")
    finally:
        first.kill()
    stranger = _join(host.port, tmp_path / "other", "--code", CODE)
    try:
        code = stranger.wait_exit()
        assert code == 2
        assert "seat key" in stranger.text()
    finally:
        stranger.close()


def test_when_the_host_dies_the_client_says_so_and_gives_up_with_a_message(
    host: HeadlessHost, tmp_path: Path
) -> None:
    client = _join(host.port, tmp_path / "a", "--code", CODE, "--give-up-after", "3")
    try:
        client.wait_for(_seated, "the table")
        host.kill()
        client.wait_for(lambda s: "The host is gone" in s, "the host-gone notice", timeout=10)
        assert client.wait_exit(timeout=30) == 1
        assert "capicu: The table is gone" in client.text()
    finally:
        client.close()


@pytest.mark.parametrize(("language", "lost"), [
    ("en", "capicu: The host restarted without this match: it is lost."),
    ("es", "capicu: El anfitrión volvió a empezar sin esta partida: se perdió."),
])
def test_a_host_restarted_without_the_match_is_told_as_lost_and_the_saved_seat_dropped(
    host: HeadlessHost, tmp_path: Path, language: str, lost: str
) -> None:
    client = _join(host.port, tmp_path / "a", "--code", CODE, "--lang", language)
    try:
        client.wait_for(lambda s: "(tú)" in s or "(you)" in s, "the table")
        assert json.loads((tmp_path / "a" / "seats.json").read_text())["seats"]
        host.kill()
        # Started again on the same port with another match: the old one is set aside.
        again = HeadlessHost("--players", "2", "--computers", "1", "--code", CODE, "--port", str(host.port),
                             "--new", env=capicu_env(tmp_path / "host"))
        try:
            assert client.wait_exit(timeout=30) == 1
            text = client.text()
        finally:
            again.stop()
        [said] = [row.strip() for row in text.splitlines() if "capicu:" in row]
        assert lost in said and "join" not in said  # nothing of coming back with the same command
        assert json.loads((tmp_path / "a" / "seats.json").read_text())["seats"] == []
    finally:
        client.close()
