"""docs/PROTOCOL.md's worked club night (section 10) played against a real club host.

A raw client (sockets, struct, msgpack, nothing of capicu's client) does what the page says Ana
does, against a `ClubHost` whose secrets come from a seeded source; every frame the host sends
her must be the one the page shows (the rules map aside, which the page abbreviates).
"""

from __future__ import annotations

import asyncio
import json
import random
import re
import struct
from pathlib import Path
from typing import Any

import msgpack
from capicu.core import Rules
from capicu.core.club import ClubConfig, ClubFormat
from capicu.net import Limits
from capicu.net.club import ClubHost, ClubHostConfig

from ..conftest import LOOPBACK, WAIT

ROOT = Path(__file__).resolve().parents[3]
PAGE = (ROOT / "docs" / "PROTOCOL.md").read_text(encoding="utf-8")
#: What the page writes for a rules map (section 5's), which it does not repeat.
RULES = "(the rules map, section 5)"


async def _receive(reader: asyncio.StreamReader) -> dict[str, Any]:
    (length,) = struct.unpack(">I", await reader.readexactly(4))
    message = msgpack.unpackb(await reader.readexactly(length), raw=False)
    assert isinstance(message, dict)
    return message


class Raw:
    """One raw connection: frames out, frames in (pings answered and left out)."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer

    @classmethod
    async def open(cls, port: int) -> Raw:
        return cls(*await asyncio.open_connection(LOOPBACK, port))

    def send(self, message: dict[str, Any]) -> None:
        body = msgpack.packb(message, use_bin_type=True)
        self.writer.write(struct.pack(">I", len(body)) + body)

    async def receive(self) -> dict[str, Any]:
        """The next frame but pings (answered); TimeoutError when none comes within WAIT."""
        async with asyncio.timeout(WAIT):
            while True:
                message = await _receive(self.reader)
                if message["type"] == "ping":
                    self.send({"type": "pong", "n": message["n"]})
                    continue
                if "rules" in message:
                    message["rules"] = RULES
                return message


async def club_example(folder: Path) -> list[tuple[str, dict[str, Any]]]:
    """The page's night, played: every frame Ana sends (">") and receives ("<"), in order."""
    rng = random.Random(33)
    club = ClubConfig(rules=Rules.preset_named("puerto-rican-drawing"), format=ClubFormat.SWISS, rounds=3,
                      table_size=2, name="Friday")
    host = ClubHost(ClubHostConfig(club, folder, bind=LOOPBACK, port=0, code="K7PX2M", round_delay=None,
                                   limits=Limits(messages_per_second=10_000, message_burst=10_000)),
                    entropy=rng.randbytes, report=lambda note: None)
    await host.start()
    said: list[tuple[str, dict[str, Any]]] = []
    try:
        ana = await Raw.open(host.port or 0)

        def send(message: dict[str, Any], connection: Raw = ana) -> None:
            said.append((">", message))
            connection.send(message)

        async def take(count: int, connection: Raw = ana) -> list[dict[str, Any]]:
            taken = [await connection.receive() for _ in range(count)]
            said.extend(("<", message) for message in taken)
            return taken

        send({"type": "hello", "version": 7, "name": "Ana", "code": "K7PX2M", "token": None,
              "spectate": False, "table": "club", "seat_key": None})
        await take(3)  # welcome, club, standings
        bea = await Raw.open(host.port or 0)
        bea.send({"type": "hello", "version": 7, "name": "Bea", "code": "K7PX2M", "table": "club"})
        await take(2)  # club, standings: Bea is listed
        send({"type": "club_start", "key": host.organiser_key})
        draw, _, _ = await take(3)  # club_draw, club, standings
        # Her client opens her table on a second connection, with the seat's token.
        seat = await Raw.open(host.port or 0)
        send({"type": "hello", "version": 7, "name": "Ana", "token": draw["token"], "spectate": False,
              "table": draw["table"], "seat_key": None}, seat)
        await take(2, seat)  # welcome, seats (a snapshot follows)
        for connection in (ana, bea, seat):
            connection.writer.close()
    finally:
        await host.stop()
    return said


def page_frames() -> list[tuple[str, dict[str, Any]]]:
    """The frames section 10's worked example shows, in order: JSON maps, each after "→" or "←"."""
    section = PAGE.split("## 10. A club night", 1)[1].split("\n## ", 1)[0]
    example = section.split("### A club night, worked", 1)[1]
    frames = []
    decoder = json.JSONDecoder()
    for block in re.findall(r"```json\n(.*?)```", example, re.S):
        text = block.strip()
        while text:
            arrow, text = text[0], text[1:].lstrip()
            assert arrow in "→←", f"each frame begins with → (Ana's) or ← (the host's): {text[:40]!r}"
            frame, end = decoder.raw_decode(text)
            frames.append((">" if arrow == "→" else "<", frame))
            text = text[end:].lstrip()
    return frames


async def test_the_club_night_the_page_works_through_is_the_hosts(tmp_path):
    played = await club_example(tmp_path / "night")
    assert page_frames() == played


def test_the_pages_club_messages_are_the_declared_ones():
    from capicu.net.protocol import _CLIENT_TYPES, _HOST_TYPES

    types = {frame["type"] for _, frame in page_frames()}
    assert {"club", "club_draw", "standings", "club_start"} <= types
    assert {"club", "club_draw", "standings"} <= set(_HOST_TYPES)
    assert {"club_start", "club_close"} <= set(_CLIENT_TYPES)
