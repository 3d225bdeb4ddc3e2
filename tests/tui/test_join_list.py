"""The Join screen's list of the tables on the LAN: shown as heard, look-alikes with their address.

The network side (python-zeroconf) is tests/net/test_lan.py's; here the screen is told what
was heard, as its `TableWatch` tells it, and the suite's CAPICU_NO_LAN keeps it off the network.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from capicu.core import Rules
from capicu.core.club import ClubConfig, ClubFormat
from capicu.net.club import ClubHost, ClubHostConfig
from capicu.net.club.announce import club_ad
from capicu.net.discovery import Ad, ClubAd, Found, ad_from_txt, ad_to_txt
from capicu.net.host.server import Announce
from capicu.net.protocol import ClubPhase
from capicu.tui.app import CapicuApp
from capicu.tui.game import DisplayOptions
from capicu.tui.screens.club_lobby import ClubLobbyScreen
from capicu.tui.screens.join_form import JoinFormScreen
from capicu.tui.screens.menu import MainMenuScreen
from helpers_app import screen_text, wait_for
from textual.pilot import Pilot
from textual.widgets import Button, Input, OptionList

SIZE = (80, 24)


def table(name: str, address: str, taken: int = 1, code: bool = False) -> Found:
    return Found(Ad(name, "line-of-play", "puerto-rican-drawing", 4, taken, code), address, 7254,
                 f"{name}@{address}")


async def open_join_form(pilot: Pilot[Any]) -> JoinFormScreen:
    """The Join screen, opened from the main menu (j)."""
    app = pilot.app
    await pilot.press("j")
    await wait_for(pilot, lambda: isinstance(app.screen, JoinFormScreen), what="the join form")
    screen = app.screen
    assert isinstance(screen, JoinFormScreen)
    return screen


def club_night(name: str, address: str) -> Found:
    night = ClubAd(ClubFormat.SWISS.value, ClubPhase.GATHERING.value, 0, 3, 2)
    return Found(Ad(name, "line-of-play", "puerto-rican-drawing", 2, 2, False, club=night), address, 7300,
                 f"{name}@{address}")


async def test_the_tables_heard_are_listed_and_one_chosen_fills_in_its_address() -> None:
    app = CapicuApp(DisplayOptions(mouse=False, language="en"))
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_join_form(pilot)
        assert "Not looking for tables: type the host's address." in screen_text(app)
        screen.tables_heard([table("Beto's table", "10.1.0.3", code=True), table("Ana's table", "10.1.0.2"),
                             table("Аna's table", "10.1.0.9"), table("Full", "10.1.0.4", taken=4)])
        await pilot.pause()
        listed = screen.query_one("#tables", OptionList)
        rows = [str(listed.get_option_at_index(i).prompt) for i in range(listed.option_count)]
        # By name, each with its address beside it (a look-alike pair told apart by it, not said
        # twice); the seats free; a full table said so.
        assert rows == [
            "Ana's table · 10.1.0.2:7254\n  Puerto Rican Drawing Game · 3 of 4 seats free",
            "Beto's table · 10.1.0.3:7254\n  Puerto Rican Drawing Game · 3 of 4 seats free",
            "Full · 10.1.0.4:7254\n  Puerto Rican Drawing Game · full",
            "Аna's table · 10.1.0.9:7254\n  Puerto Rican Drawing Game · 3 of 4 seats free",
        ]
        # At 80x24 the list takes the room above the form: the Join button is still on the screen.
        text = screen_text(app)
        assert "Ana's table · 10.1.0.2:7254" in text and "Join" in text.splitlines()[-3], text
        assert listed.option_count == 4 and listed.get_option_at_index(2).disabled
        listed.focus()
        listed.highlighted = 1  # Beto's table, which needs a code
        await pilot.press("enter")
        await pilot.pause()
        assert screen.query_one("#address", Input).value == "10.1.0.3:7254"
        assert app.focused is screen.query_one("#code", Input)
        listed.focus()
        listed.highlighted = 0
        await pilot.press("enter")
        await pilot.pause()
        assert screen.query_one("#address", Input).value == "10.1.0.2:7254"
        assert app.focused is screen.query_one("#connect", Button)
        screen.tables_heard([])  # every table gone
        await pilot.pause()
        assert listed.option_count == 1 and listed.get_option_at_index(0).disabled


def club_night_at(name: str, address: str, format: ClubFormat, phase: ClubPhase, round: int, rounds: int,
                  people: int, preset: str = "puerto-rican-drawing") -> Found:
    night = ClubAd(format.value, phase.value, round, rounds, people)
    return Found(Ad(name, "line-of-play", preset, 2, 2, True, club=night), address, 47300,
                 f"{name}@{address}")


@pytest.mark.parametrize(("language", "whole"), [
    ("en", ["Friday league (club night) · 192.168.100.105:47300",
            "  Puerto Rican Drawing Game · Swiss, round 2 of 3 over, 12 players"]),
    ("es", ["Liga del viernes (noche de club) · 192.168.100.105:47300",
            "  Robado boricua · suizo, ronda 2 de 3 terminada, 12 jugadores"]),
])
async def test_each_row_of_the_list_takes_two_lines_at_80x24(language: str, whole: list[str]) -> None:
    """A club night's row once wrapped to a third line at 80 columns: the address now goes beside the
    name, and a line longer than the list (a 40-letter name, 15 rounds, 128 players) is cut, never
    wrapped."""
    app = CapicuApp(DisplayOptions(mouse=False, language=language))
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_join_form(pilot)
        name = "Friday league" if language == "en" else "Liga del viernes"
        screen.tables_heard([
            club_night_at(name, "192.168.100.105", ClubFormat.SWISS, ClubPhase.BETWEEN, 2, 3, 12),
            club_night_at("Zed, a night named with all forty letters", "192.168.100.106", ClubFormat.ROTATING,
                          ClubPhase.BETWEEN, 12, 15, 128, preset="puerto-rican-partners"),
            Found(Ad("Tito's table", "line-of-play", "puerto-rican-drawing", 4, 1, True), "192.168.100.101",
                  7254, "Tito"),
        ])
        await pilot.pause()
        listed = screen.query_one("#tables", OptionList)
        assert listed.option_count == 3
        # Two lines a row, the long one too: the rows' lines are all the list's content.
        assert listed.virtual_size.height == 2 * listed.option_count

        def shown() -> list[str]:
            """The list's rows on the screen, without its borders and scroll bar."""
            text = screen_text(app).splitlines()
            top = next(i for i, row in enumerate(text) if "on the local network" in row
                       or "en la red local" in row)
            return [row.strip().strip("▊▎").rstrip("▁▂▃▄▅▆▇█ ").strip() for row in text[top + 1:top + 5]]

        assert shown()[:2] == [line.strip() for line in whole], shown()
        listed.scroll_end(animate=False)
        await pilot.pause()
        # The long row is cut where the list ends, with an ellipsis, on its own two lines.
        assert shown()[2].startswith("Zed, a night named with all forty letters"), shown()
        assert shown()[3].endswith("…") and shown()[3].startswith("Parejas boricuas" if language == "es"
                                                                  else "Puerto Rican partners"), shown()


async def test_the_list_is_worded_in_spanish() -> None:
    app = CapicuApp(DisplayOptions(mouse=False, language="es"))
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_join_form(pilot)
        screen.tables_heard([table("Mesa de Ana", "10.1.0.2")])
        await pilot.pause()
        text = screen_text(app)
        assert "Mesas en la red local" in text and "3 de 4 asientos libres" in text, text
        # A club night heard too: the list's title names them.
        screen.tables_heard([table("Mesa de Ana", "10.1.0.2"), club_night("Liga del viernes", "10.1.0.5")])
        await pilot.pause()
        assert "Mesas y noches de club en la red local" in screen_text(app), screen_text(app)
        screen.tables_heard([])
        await pilot.pause()
        assert "Mesas en la red local" in screen_text(app), screen_text(app)


async def test_the_lists_title_names_the_club_nights_when_one_is_listed() -> None:
    app = CapicuApp(DisplayOptions(mouse=False, language="en"))
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_join_form(pilot)
        listed = screen.query_one("#tables", OptionList)
        assert listed.border_title == "Tables on the local network"
        screen.tables_heard([club_night("Friday league", "10.1.0.5")])
        await pilot.pause()
        assert listed.border_title == "Tables and club nights on the local network"
        assert "Tables and club nights on the local network" in screen_text(app), screen_text(app)


async def test_the_host_says_what_name_its_table_is_listed_by() -> None:
    from capicu.tui.game import Hosting
    from capicu.tui.screens.how_to_join import how_to_join_lines

    app = CapicuApp(DisplayOptions(mouse=False, language="en"))
    async with app.run_test(size=SIZE):
        app.hosted_at = Hosting("10.1.0.2", 7254, "K7PX2M", "Ana's table")
        assert how_to_join_lines(app)[-1] == "On the local network the table is listed as Ana's table."
        app.hosted_at = Hosting("10.1.0.2", 7254, "K7PX2M")
        assert not any("local network" in line for line in how_to_join_lines(app))
        app.hosted_at = Hosting("10.1.0.2", 7254, "K7PX2M", "Friday league", club=True)
        assert how_to_join_lines(app)[1] == "  capicu club --join 10.1.0.2:7254 --code K7PX2M"
        assert how_to_join_lines(app)[-1] == "On the local network the club night is listed as Friday league."


async def test_a_club_night_heard_is_listed_as_one_and_choosing_it_leads_into_the_clubs_lobby(
        tmp_path: Path) -> None:
    """What a real club host announces, heard from the list: chosen, the app joins the club (not a table)."""
    club = ClubConfig(rules=Rules(), format=ClubFormat.SWISS, rounds=3, table_size=2, name="Friday league")
    host = ClubHost(ClubHostConfig(club, tmp_path / "night", bind="127.0.0.1", port=0, code="K7PX2M"))
    await host.start()
    try:
        port = host.port
        assert port is not None
        # The record the host would announce (a club on 127.0.0.1 announces nothing), as heard.
        heard = ad_from_txt(ad_to_txt(club_ad(Announce("Friday league"), host.night, code_needed=True)))
        app = CapicuApp(DisplayOptions(mouse=False, language="en"))
        async with app.run_test(size=SIZE) as pilot:
            screen = await open_join_form(pilot)
            screen.tables_heard([table("Ana's table", "10.1.0.2"), Found(heard, "127.0.0.1", port, "club")])
            await pilot.pause()
            listed = screen.query_one("#tables", OptionList)
            rows = [str(listed.get_option_at_index(i).prompt) for i in range(listed.option_count)]
            assert rows == [
                "Ana's table · 10.1.0.2:7254\n  Puerto Rican Drawing Game · 3 of 4 seats free",
                f"Friday league (club night) · 127.0.0.1:{port}\n"
                "  Puerto Rican Drawing Game · Swiss, not started, 0 players",
            ]
            listed.focus()
            listed.highlighted = 1
            await pilot.press("enter")
            await pilot.pause()
            assert app.focused is screen.query_one("#code", Input)  # the night needs its code
            screen.query_one("#code", Input).value = "K7PX2M"
            screen.query_one("#name", Input).value = "Beto"
            await pilot.press("ctrl+s")
            await wait_for(pilot, lambda: isinstance(app.screen, ClubLobbyScreen), what="the club's lobby")
            await wait_for(pilot, lambda: "Beto (you)" in screen_text(app), what="Beto in the club")
            assert [entrant.name for entrant in host.night.entrants] == ["Beto"]
            await app.leave_club()
    finally:
        await host.stop()


async def test_a_club_nights_address_typed_in_the_form_leads_into_the_clubs_lobby(tmp_path: Path) -> None:
    """Not chosen from the list (no announcement heard): the address typed is a club night's, whose host
    has no table but its club; the app joins the club, and leaving it goes back to the menu."""
    club = ClubConfig(rules=Rules(), format=ClubFormat.SWISS, rounds=3, table_size=2, name="Friday league")
    host = ClubHost(ClubHostConfig(club, tmp_path / "night", bind="127.0.0.1", port=0, code="K7PX2M"))
    await host.start()
    try:
        port = host.port
        assert port is not None
        app = CapicuApp(DisplayOptions(mouse=False, language="en"))
        async with app.run_test(size=SIZE) as pilot:
            screen = await open_join_form(pilot)
            screen.query_one("#address", Input).value = f"127.0.0.1:{port}"
            screen.query_one("#name", Input).value = "Beto"
            screen.query_one("#code", Input).value = "K7PX2M"
            await pilot.press("ctrl+s")
            await wait_for(pilot, lambda: isinstance(app.screen, ClubLobbyScreen), what="the club's lobby")
            await wait_for(pilot, lambda: "Beto (you)" in screen_text(app), what="Beto in the club")
            assert [entrant.name for entrant in host.night.entrants] == ["Beto"]
            await app.leave_club()
            await wait_for(pilot, lambda: isinstance(app.screen, MainMenuScreen), what="the menu")
    finally:
        await host.stop()
