"""``capicu join`` at the door, as a person runs it: real processes in a pseudo-terminal (issue 20).

An address nobody answers at fails before the full-screen interface opens; a table
with a join code, joined without one, says to add it; a headless host tells its
operator who sat down, dropped and came back.
"""

from __future__ import annotations

import asyncio
import socket
import sys
from pathlib import Path

import pytest
from capicu.net.client import Client
from helpers_terminal import HeadlessHost, Terminal, capicu_env

CODE = "MESA42"
#: The escape sequence that switches a terminal to the alternate screen: Textual's full-screen start.
ALTERNATE_SCREEN = b"\x1b[?1049h"

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals")


def _join(address: str, config: Path, *options: str) -> Terminal:
    argv = [sys.executable, "-m", "capicu.tui", "join", address, "--name", "Ana", *options]
    return Terminal(argv, capicu_env(config))


def _closed_port() -> int:
    """A port on 127.0.0.1 nothing listens on (bound, then let go)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_an_unreachable_address_fails_before_the_screen_opens(tmp_path: Path) -> None:
    port = _closed_port()
    term = _join(f"127.0.0.1:{port}", tmp_path / "config")
    try:
        assert term.wait_exit() == 2
        assert f"Could not reach the table: cannot reach 127.0.0.1:{port}" in term.text(), term.text()
        assert ALTERNATE_SCREEN not in term.seen, "the full-screen interface flashed before the one line"
    finally:
        term.close()


def test_joining_a_table_with_a_code_without_one_says_to_add_it(tmp_path: Path) -> None:
    env = capicu_env(tmp_path / "config")
    host = HeadlessHost("--players", "2", "--computers", "1", "--code", CODE, env=env)
    try:
        term = _join(f"127.0.0.1:{host.port}", tmp_path / "config")
        try:
            assert term.wait_exit() == 2
            text = " ".join(term.text().split())
            assert "This table needs a join code: add --code CODE." in text, text
            assert "not this table's join code" not in text
        finally:
            term.close()
    finally:
        host.stop()


def test_a_headless_host_tells_its_operator_who_sat_down_dropped_and_came_back(tmp_path: Path) -> None:
    env = capicu_env(tmp_path / "config")
    host = HeadlessHost("--players", "3", "--computers", "1", "--code", CODE, env=env)

    async def visit() -> None:
        ana = await Client.connect("127.0.0.1", host.port, name="Ana", code=CODE)
        token = ana.token
        await ana.drop()
        back = await Client.connect("127.0.0.1", host.port, name="-", token=token)
        await back.close()

    try:
        asyncio.run(visit())
        assert host.output.matching(r"capicu host: Table main: Ana took seat 1\.")
        assert host.output.matching(r"capicu host: Table main: Ana \(seat 1\) lost the connection; "
                                    r"the seat is held\.")
        assert host.output.matching(r"capicu host: Table main: Ana is back in seat 1\.")
        assert host.output.matching(r"capicu host: Table main: Ana \(seat 1\) left the table\.")
    finally:
        host.stop()
