"""docs/PROTOCOL.md's worked example (section 8) played against a real host, and its examples checked.

A raw client (sockets, struct, msgpack, nothing of capicu's) does what the page
says Ana does; what the host answers must be what the page shows.
"""

from __future__ import annotations

import asyncio
import re
import secrets
import struct
from pathlib import Path
from typing import Any

import msgpack

from .conftest import LOOPBACK, WAIT

ROOT = Path(__file__).resolve().parents[2]
PAGE = (ROOT / "docs" / "PROTOCOL.md").read_text(encoding="utf-8")

#: A seat key as the docs write one: groups of letters and digits joined by dashes.
SEAT_KEY_EXAMPLE = re.compile(r"\b[0-9A-Z]{4}(?:-[0-9A-Z]{1,4}){2,}\b")


async def _receive(reader: asyncio.StreamReader) -> dict[str, Any]:
    (length,) = struct.unpack(">I", await reader.readexactly(4))
    message = msgpack.unpackb(await reader.readexactly(length), raw=False)
    assert isinstance(message, dict)
    return message


def _round_one_ref_on_the_page() -> int:
    """The ``ref`` the page gives the update that ends round 1."""
    section = PAGE.split("## 8. A worked example", 1)[1].split("## 9.", 1)[0]
    found = re.search(r'"round_ended".*?"ref": (\d+)\}', section, re.S)
    assert found, "the worked example shows no update that ends round 1"
    return int(found.group(1))


async def test_the_update_that_ends_round_one_carries_the_ref_the_page_shows(start_host):
    # As the page: `capicu host --headless --players 2 --computers 1 --seed 7 --code K7PX2M`.
    _, port = await start_host(players=2, computers=1, seed=7, code="K7PX2M")
    reader, writer = await asyncio.open_connection(LOOPBACK, port)

    def send(message: dict[str, Any]) -> None:
        body = msgpack.packb(message, use_bin_type=True)
        writer.write(struct.pack(">I", len(body)) + body)

    async def play_round_one() -> dict[str, Any]:
        send({"type": "hello", "version": 7, "name": "Ana", "code": "K7PX2M", "token": None,
              "spectate": False, "table": "main", "seat_key": None})
        ref, tried_to_draw = 0, False
        while True:
            message = await _receive(reader)
            if message["type"] == "ping":
                send({"type": "pong", "n": message["n"]})
            if message["type"] not in ("snapshot", "update"):
                continue
            if any(event["type"] == "round_ended" for event in message.get("events", ())):
                return message
            view = message["view"]
            if view["turn"] == 0 and view["legal"]:
                ref += 1
                if not tried_to_draw:  # "Ana tries to draw, which the rules refuse"
                    tried_to_draw = True
                    send({"type": "action", "action": "draw", "ref": ref})
                    refused = await _receive(reader)
                    assert refused["type"] == "error" and refused["code"] == "illegal", refused
                    ref += 1
                send({"type": "action", "action": view["legal"][0], "ref": ref})

    try:
        ended = await asyncio.wait_for(play_round_one(), WAIT)
    finally:
        writer.close()
    assert ended["seq"] == 18 and ended["actor"] == 0  # "Ana goes out with 2-3 at event 18"
    assert ended["ref"] == _round_one_ref_on_the_page()


def test_every_seat_key_in_the_docs_has_as_many_symbols_as_the_host_makes():
    from capicu.net.codes import SEAT_KEY_SYMBOLS, new_seat_key

    assert len(new_seat_key(secrets.token_bytes).replace("-", "")) == SEAT_KEY_SYMBOLS
    texts = {"docs/PROTOCOL.md": PAGE, "README.md": (ROOT / "README.md").read_text(encoding="utf-8")}
    found = 0
    for where, text in texts.items():
        for key in SEAT_KEY_EXAMPLE.findall(text):
            found += 1
            assert len(key.replace("-", "")) == SEAT_KEY_SYMBOLS, f"{where}: {key}"
    assert found >= 3



def test_every_version_number_the_page_gives_is_the_hosts():
    from capicu.net.protocol import PROTOCOL_VERSION

    said = re.findall(r'"version": (\d+)', PAGE)
    said += re.findall(r"protocol version: \*\*(\d+)\*\*", PAGE)
    said += re.findall(r"`hello\.version` is not (\d+)", PAGE)
    said += re.findall(r"^# The capicu wire protocol, version (\d+)", PAGE, re.M)
    said += re.findall(r"^This is version (\d+)\.", PAGE, re.M)
    said += re.findall(r"the protocol version the host speaks \(this page's: `(\d+)`\)", PAGE)
    assert len(said) >= 7
    assert set(said) == {str(PROTOCOL_VERSION)}, said


def test_every_token_in_the_examples_begins_with_its_match_id():
    section = PAGE.split("## 8. A worked example", 1)[1].split("## 9.", 1)[0]
    (match_id,) = set(re.findall(r'"match": "([A-Za-z0-9_-]+)"', section))
    tokens = re.findall(r'"token": "([^"]+)"', section)
    assert len(tokens) >= 2
    assert all(token.startswith(f"{match_id}.") for token in tokens), tokens
