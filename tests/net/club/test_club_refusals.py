"""What a club host refuses, and how (issue 33): bad input from outside gets a clear error naming
the problem, and nothing else happens."""

from __future__ import annotations

from capicu.core.club import ClubFormat
from capicu.net.club import ClubClient

from ..conftest import LOOPBACK
from .test_club_night import CODE, club_config, start_club
from .test_club_page import Raw


def hello(**fields: object) -> dict[str, object]:
    return {"type": "hello", "version": 7, "name": "Ana", "table": "club", **fields}


async def test_the_club_asks_for_the_join_code(tmp_path):
    host = await start_club(tmp_path / "night", club_config(
        "puerto-rican-drawing", format=ClubFormat.SWISS, rounds=1, table_size=2, target=20))
    try:
        for fields, code in (({}, "bad_code"), ({"code": "WRONG1"}, "bad_code"),
                             ({"code": CODE, "token": "nobody.secret"}, "match_gone"),
                             ({"code": CODE, "token": f"{host.night_id}.secret"}, "bad_token")):
            peer = await Raw.open(host.port or 0)
            peer.send(hello(**fields))
            answer = await peer.receive()
            assert (answer["type"], answer["code"], answer["fatal"]) == ("error", code, True), answer
            peer.writer.close()
        assert host.night.entrants == ()
    finally:
        await host.stop()


async def test_a_name_in_the_club_is_one_person_and_the_organiser_alone_organises(tmp_path):
    host = await start_club(tmp_path / "night", club_config(
        "puerto-rican-drawing", format=ClubFormat.SWISS, rounds=1, table_size=2, target=20))
    ana = await ClubClient.connect(LOOPBACK, host.port or 0, name="Ana", code=CODE)
    try:
        # The same name (any case) while Ana is connected: taken.
        peer = await Raw.open(host.port or 0)
        peer.send(hello(name="ANA", code=CODE))
        answer = await peer.receive()
        assert (answer["type"], answer["code"]) == ("error", "name_taken")
        peer.writer.close()
        # The organiser's messages: a round that cannot be drawn now, a wrong key: refused, not fatal.
        peer = await Raw.open(host.port or 0)
        peer.send(hello(name="Bea", code=CODE))
        assert (await peer.receive())["type"] == "welcome"
        await host.start_round()
        peer.send({"type": "club_start", "key": host.organiser_key})  # round 1 is being played
        while (answer := await peer.receive())["type"] != "error":
            pass
        assert (answer["code"], answer["fatal"]) == ("not_ready", False)
        peer.send({"type": "club_close", "key": "WRONG", "table": "r1-t1"})
        while (answer := await peer.receive())["type"] != "error":
            pass
        assert (answer["code"], answer["fatal"]) == ("refused", False)
        peer.send({"type": "club_start", "key": host.organiser_key, "round": 2})  # a field it lacks
        while (answer := await peer.receive())["type"] != "error":
            pass
        assert (answer["code"], answer["fatal"]) == ("bad_message", True)
        peer.writer.close()
        assert host.night.round == 1 and [e.name for e in host.night.entrants] == ["Ana", "Bea"]
    finally:
        await ana.drop()
        await host.stop()
