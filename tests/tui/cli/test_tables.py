"""The LAN on the command line: what ``capicu host`` announces, how ``capicu tables`` and ``join`` word it.

The network itself is tests/net/test_lan.py's; these are the options and the words.
"""

from __future__ import annotations

import argparse
import socket

import pytest
from capicu.net.discovery import Ad, ClubAd, Found, listings
from capicu.tui.cli.main import build_parser, main
from capicu.tui.cli.options import host_config_from_args
from capicu.tui.cli.tables import plainly_an_address, table_details, table_json, table_line, table_name_shown
from capicu.tui.words.messages import command_line_language


@pytest.fixture(autouse=True)
def _lan_allowed(tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The suite forbids the LAN (CAPICU_NO_LAN); these tests announce nothing, they only read options."""
    monkeypatch.delenv("CAPICU_NO_LAN", raising=False)
    monkeypatch.setenv("CAPICU_CONFIG_DIR", str(tmp_path / "config"))


def parse(*argv: str) -> argparse.Namespace:
    return build_parser().parse_args(["--lang", "en", "host", *argv])


def test_a_host_announces_its_name_or_the_one_given_and_its_ssh_port() -> None:
    headless = host_config_from_args(parse("--headless", "--ssh", "2200")).announce
    assert headless is not None and headless.ssh_port == 2200
    assert headless.name == f"{socket.gethostname()[:24]}'s table"
    playing = host_config_from_args(parse("--name", "Ana")).announce
    assert playing is not None and playing.name == "Ana's table" and playing.ssh_port is None
    given = parse("--headless", "--table-name", "La \x1b[31mmesa\u200b\n de Beto")
    named = host_config_from_args(given).announce
    assert named is not None and named.name == "La mesa de Beto"
    assert host_config_from_args(parse("--headless", "--no-announce")).announce is None


def test_a_table_name_of_nothing_visible_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--lang", "en", "host", "--headless", "--table-name", " \x1b[2J\u200b "]) == 2
    assert capsys.readouterr().err == "capicu: --table-name cannot be empty\n"


def test_no_lan_turns_announcing_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CAPICU_NO_LAN", "1")
    assert host_config_from_args(parse("--headless")).announce is None


@pytest.mark.parametrize(("text", "address"), [
    ("10.0.0.5", True), ("10.0.0.5:7254", True), ("[fd00::1]:7254", True), ("fd00::1", True),
    ("localhost", True), ("ana-laptop:7254", True),
    ("ana-laptop", False), ("Ana's table", False), ("Mesa de Ana", False),
])
def test_what_is_plainly_an_address_and_what_may_be_a_tables_name(text: str, address: bool) -> None:
    assert plainly_an_address(text) is address


def test_a_table_is_one_line_for_scripts_address_first() -> None:
    ana = Found(Ad("Ana's table", "line-of-play", "puerto-rican-drawing", 4, 1, True), "10.0.0.5", 7254, "a")
    fake = Found(Ad("Аna's table", "line-of-play", "draw", 4, 4, False), "10.0.0.9", 7254, "b")
    real, look_alike = listings([ana, fake])
    assert table_line(real) == ("10.0.0.5:7254  Ana's table (at 10.0.0.5)  "
                                "(puerto-rican-drawing, 3 of 4 seats free, join code needed)")
    assert table_line(look_alike) == "10.0.0.9:7254  Аna's table (at 10.0.0.9)  (draw, full)"
    assert table_details(real) == "puerto-rican-drawing  ·  3 of 4 seats free  ·  10.0.0.5:7254"
    assert table_json(real) == {
        "name": "Ana's table", "game": "line-of-play", "preset": "puerto-rican-drawing", "seats": 4,
        "taken": 1, "free": 3, "code_needed": True, "protocol": ana.ad.protocol, "ssh_port": None,
        "address": "10.0.0.5", "port": 7254, "looks_like_another": True, "club": None,
    }


def club(phase: str = "playing", round: int = 2, people: int = 8, address: str = "10.0.0.7") -> Found:
    ad = Ad("Friday league", "line", "puerto-rican-drawing", 2, 2, True,
            club=ClubAd("swiss", phase, round, 3, people))
    return Found(ad, address, 7300, "Friday league._capicu._tcp.local.")


def test_a_club_night_is_listed_as_one_with_its_format_round_and_players() -> None:
    [night] = listings([club()])
    assert table_line(night) == ("10.0.0.7:7300  Friday league (club night)  "
                                 "(puerto-rican-drawing, Swiss, round 2 of 3, 8 players, join code needed)")
    assert table_details(night) == "puerto-rican-drawing  ·  Swiss, round 2 of 3, 8 players  ·  10.0.0.7:7300"
    assert table_json(night)["club"] == {"format": "swiss", "phase": "playing", "round": 2, "rounds": 3,
                                         "people": 8}
    phases = {"gathering": "not started", "between": "round 2 of 3 over", "over": "over",
              "recess": "recess"}  # (a newer host's phase: its plain word)
    for phase, words in phases.items():
        assert f"Swiss, {words}, 1 player" in table_details(listings([club(phase, people=1)])[0])
    assert table_json(listings([
        Found(Ad("T", "line", "draw", 4, 1, False), "10.0.0.5", 7254, "t")])[0])["club"] is None


def test_a_club_night_is_worded_in_spanish() -> None:
    with command_line_language("es"):
        [night] = listings([club()])
        assert table_name_shown(night) == "Friday league (noche de club)"
        assert table_details(night) == ("robado boricua  ·  suizo, ronda 2 de 3, 8 jugadores  ·  "
                                        "10.0.0.7:7300")
        assert "sin empezar" in table_details(listings([club("gathering")])[0])


def test_a_club_night_is_announced_by_its_name_or_its_organisers_unless_told_not_to(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from capicu.tui.cli.club import host_club_from_args
    from capicu.tui.club import club_announce

    def announced(*argv: str, person: str | None = "Ana") -> tuple[str, int | None] | None:
        request = host_club_from_args(build_parser().parse_args(["--lang", "en", "club", *argv]))
        announce = club_announce(request, person)
        return None if announce is None else (announce.name, announce.ssh_port)

    assert announced() == ("Ana's club", None)
    assert announced("--night-name", "Friday league", "--ssh", "2200") == ("Friday league", 2200)
    assert announced(person=None) == (f"{socket.gethostname()[:24]}'s club", None)
    assert announced("--no-announce") is None
    monkeypatch.setenv("CAPICU_NO_LAN", "1")
    assert announced() is None


def test_club_join_with_no_address_and_no_club_night_heard_says_what_to_do(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("CAPICU_NO_LAN", "1")  # nothing is heard
    assert main(["--lang", "en", "club", "--join", "--name", "Ana"]) == 2
    assert capsys.readouterr().err == (
        "capicu: no club night found on the local network (a network may not pass multicast): join by "
        "address, capicu club --join HOST[:PORT]\n")
    assert main(["--lang", "en", "club", "--join", "Friday league"]) == 2
    assert capsys.readouterr().err == (
        "capicu: no club night called 'Friday league' was found on the local network\n")
