"""Where ``capicu club`` keeps its night: the same command goes on with an unfinished night (after a
crash or a stop), starts a new one once the last is over, and ``--new`` sets the unfinished one aside."""

from __future__ import annotations

import asyncio
from pathlib import Path

import msgspec
import pytest
from capicu.core import Rules
from capicu.core.club import ClubConfig, ClubFormat, Phase
from capicu.net.club import ClubClient, ClubHost
from capicu.tui.club import NIGHT_FOLDER, club_host_config, clubs_dir
from capicu.tui.game import HostClub

CODE = "K7PX2M"
WAIT = 20.0


@pytest.fixture(autouse=True)
def _data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CAPICU_DATA_DIR", str(tmp_path / "data"))


def _request(*, new: bool = False) -> HostClub:
    rules = msgspec.structs.replace(Rules.preset_named("puerto-rican-drawing"), target=10)
    club = ClubConfig(rules=rules, format=ClubFormat.SWISS, rounds=1, table_size=2, name="Friday")
    return HostClub(club=club, bind="127.0.0.1", port=0, code=CODE, round_delay=None, new=new)


async def _host(request: HostClub) -> ClubHost:
    host = ClubHost(club_host_config(request))
    await host.start()
    return host


async def _join(host: ClubHost, *names: str) -> list[ClubClient]:
    assert host.port is not None
    clubs = [await ClubClient.connect("127.0.0.1", host.port, name=name, code=CODE) for name in names]
    async with asyncio.timeout(WAIT):
        while len(host.night.entrants) < len(names):
            await host.changed.wait()
            host.changed.clear()
    return clubs


async def test_the_same_command_goes_on_with_an_unfinished_night() -> None:
    host = await _host(_request())
    clubs = await _join(host, "Ana", "Beto")
    for club in clubs:
        await club.drop()
    await host.stop()
    again = await _host(_request())
    try:
        assert again.folder == clubs_dir() / NIGHT_FOLDER == host.folder
        assert [entrant.name for entrant in again.night.entrants] == ["Ana", "Beto"]
    finally:
        await again.stop()


async def test_new_sets_the_unfinished_night_aside_and_starts_another() -> None:
    host = await _host(_request())
    for club in await _join(host, "Ana"):
        await club.drop()
    await host.stop()
    again = await _host(_request(new=True))
    try:
        assert again.night.entrants == ()
        aside = [path for path in clubs_dir().iterdir() if path.name.startswith(f"{NIGHT_FOLDER}-")]
        assert len(aside) == 1
    finally:
        await again.stop()


async def test_a_night_that_is_over_is_set_aside_and_the_next_one_starts() -> None:
    host = await _host(_request())
    clubs = await _join(host, "Ana", "Beto")
    await host.start_round()
    await host.close_table("r1-t1")  # the night's only table closed: the night is over
    assert host.night.phase is Phase.OVER
    for club in clubs:
        await club.drop()
    await host.stop()
    again = await _host(_request())
    try:
        assert again.night.entrants == () and again.night.phase is Phase.GATHERING
        assert len(list(clubs_dir().iterdir())) == 2
    finally:
        await again.stop()
