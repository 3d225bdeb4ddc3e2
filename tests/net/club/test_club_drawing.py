"""A round's draw runs off the club host's event loop (issue 33): the host answers everybody while a
big draw is being made, and the round's start is one step (a second start draws nothing more).

The host is given a draw function that holds until the test lets it go (a `threading.Event`), so
the draw takes as long as the test wants, whatever the machine's speed.
"""

from __future__ import annotations

import asyncio
import threading
from typing import Any

from capicu.core.club import ClubFormat, RoundDraw, draw_round
from capicu.net import Limits
from capicu.net.club import ClubClient, ClubHost, ClubHostConfig

from ..conftest import LOOPBACK, WAIT
from .test_club_night import CODE, club_config
from .test_club_page import Raw


class HeldDraw:
    """`draw_round`, once the test lets it go; it counts its calls and says when one began."""

    def __init__(self) -> None:
        self.began = threading.Event()
        self.release = threading.Event()
        self.calls: list[int] = []

    def __call__(self, *args: Any, **kwargs: Any) -> RoundDraw:
        self.calls.append(len(args[1]))  # how many entrants it drew for
        self.began.set()
        if not self.release.wait(WAIT):
            raise TimeoutError("the test never let the draw go")
        return draw_round(*args, **kwargs)


async def test_the_host_answers_while_a_round_is_drawn_and_a_second_start_draws_nothing_more(tmp_path):
    held = HeldDraw()
    club = club_config("puerto-rican-drawing", format=ClubFormat.SWISS, rounds=2, table_size=2, target=20)
    host = ClubHost(ClubHostConfig(
        club, tmp_path / "night", bind=LOOPBACK, port=0, code=CODE, computer_level="greedy",
        next_round_delay=0, round_delay=None,
        limits=Limits(messages_per_second=10_000, message_burst=10_000, connections_per_address=64)),
        draw=held)
    await host.start()
    clubs: list[ClubClient] = []
    organiser = None
    try:
        for name in ("Ana", "Bea"):
            clubs.append(await ClubClient.connect(LOOPBACK, host.port or 0, name=name, code=CODE,
                                                  follow=False))
        starting = asyncio.create_task(host.start_round())
        assert await asyncio.to_thread(held.began.wait, WAIT)
        assert host.drawing and host.night.round == 0

        # While the draw holds: the organiser asks again (nothing more is drawn, nothing refused) ...
        organiser = await Raw.open(host.port or 0)
        organiser.send({"type": "hello", "version": 7, "name": "Olga", "code": CODE, "spectate": True,
                        "table": "club"})
        assert (await organiser.receive())["type"] == "welcome"
        organiser.send({"type": "club_start", "key": host.organiser_key})
        # (Its answer, after the start's, which would come first: a table the round does not have.)
        organiser.send({"type": "club_close", "key": host.organiser_key, "table": "r9-t9"})
        async with asyncio.timeout(WAIT):
            while (told := await organiser.receive())["type"] != "error":
                assert told["type"] in ("club", "standings"), told
        assert "r9-t9" in told["message"], told
        again = asyncio.create_task(host.start_round())
        # ... and somebody new joins the club, welcomed at once.
        async with asyncio.timeout(WAIT):
            clubs.append(await ClubClient.connect(LOOPBACK, host.port or 0, name="Cruz", code=CODE,
                                                  follow=False))
        assert host.drawing and host.night.round == 0 and len(host.night.entrants) == 3

        held.release.set()
        async with asyncio.timeout(WAIT):
            await starting
            await again
        # Drawn once more after Cruz joined meanwhile: the round is hers too.
        assert held.calls[0] == 2 and held.calls[-1] == 3
        assert host.night.round == 1 and len(host.night.draws) == 1
        (draw,) = host.night.draws
        assert sorted([*draw.seated, *draw.byes]) == [0, 1, 2]
        # The organiser is told the one draw.
        async with asyncio.timeout(WAIT):
            while (told := await organiser.receive())["type"] not in ("club_draw", "error"):
                pass
        assert told["type"] == "club_draw" and told["round"] == 1
    finally:
        held.release.set()
        if organiser is not None:
            organiser.writer.close()
        for one in clubs:
            await one.drop()
        await host.stop()
