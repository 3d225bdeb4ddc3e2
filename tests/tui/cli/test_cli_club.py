"""``capicu club``: its options become the night's `HostClub`; bad ones give one line and exit code 2."""

from __future__ import annotations

import argparse

import msgspec
import pytest
from capicu.core import Rules
from capicu.core.club import ByeRule, ClubFormat
from capicu.net.protocol import DEFAULT_PORT
from capicu.tui.cli.club import host_club_from_args, join_club_from_args
from capicu.tui.cli.main import build_parser, main


@pytest.fixture(autouse=True)
def _own_config(tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The command line reads the settings (their language): never the user's."""
    monkeypatch.setenv("CAPICU_CONFIG_DIR", str(tmp_path / "config"))


def parse(*argv: str) -> argparse.Namespace:
    return build_parser().parse_args(["club", *argv])


def test_the_defaults_are_a_swiss_night_of_three_rounds_with_a_random_code() -> None:
    request = host_club_from_args(parse())
    club = request.club
    assert club.rules == Rules.preset_named("puerto-rican-drawing")
    assert (club.format, club.rounds, club.table_size, club.bye, club.name) == (
        ClubFormat.SWISS, 3, 2, ByeRule.COMPUTER, "")
    assert (request.bind, request.port, request.round_delay) == (None, DEFAULT_PORT, 60.0)
    assert request.code and len(request.code) == 6
    assert host_club_from_args(parse()).code != request.code


def test_the_game_its_rule_options_and_the_night_reach_the_request() -> None:
    request = host_club_from_args(parse(
        "--preset", "puerto-rican-partners", "--target", "150", "--capicu-bonus", "25",
        "--format", "rotating-partners", "--club-rounds", "5", "--bye", "win",
        "--night-name", " Friday   club ",
        "--no-code", "--bind", "127.0.0.1", "--port", "0", "--round-delay", "none", "--name", "Ana"))
    club = request.club
    assert club.rules == msgspec.structs.replace(Rules.preset_named("puerto-rican-partners"), target=150,
                                                 capicu_bonus=25)
    assert (club.format, club.rounds, club.table_size, club.bye, club.name) == (
        ClubFormat.ROTATING, 5, 4, ByeRule.WIN, "Friday club")
    assert (request.code, request.bind, request.port, request.round_delay, request.name) == (
        None, "127.0.0.1", 0, None, "Ana")


def test_mexican_train_takes_its_table_size_and_its_own_rounds() -> None:
    club = host_club_from_args(parse("--preset", "mexican-train", "--table-size", "6", "--rounds", "4")).club
    assert club.table_size == 6 and club.rules.rounds == 4  # type: ignore[attr-defined]


def test_a_round_robin_plays_as_many_rounds_as_its_field_needs_unless_told() -> None:
    assert host_club_from_args(parse("--format", "round-robin")).club.rounds >= 20
    assert host_club_from_args(parse("--format", "round-robin", "--club-rounds", "2")).club.rounds == 2


def test_join_goes_to_the_club_of_that_host() -> None:
    request = join_club_from_args(parse("--join", "10.0.0.5", "--code", "K7PX2M", "--name", "Beto"))
    assert (request.host, request.port, request.code, request.name, request.club) == (
        "10.0.0.5", DEFAULT_PORT, "K7PX2M", "Beto", True)


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (("--format", "rotating-partners"), "--format rotating-partners is for a partners' game"),
        (("--format", "round-robin", "--table-size", "3"), "--format round-robin pairs two sides"),
        (("--table-size", "4"), "--table-size 4: puerto-rican-drawing is played by 2 to 3 at a table"),
        (("--preset", "puerto-rican-partners", "--table-size", "2"), "--table-size 2"),
        (("--night-name", "x" * 61), "--night-name is one line of at most 60 characters"),
        (("--night-name", "  "), "--night-name cannot be empty"),
        (("--code", "no way"), "--code must be 1 to 32 letters or digits"),
        (("--ssh", "7254"), "--ssh 7254 is the game's own port"),
        (("--ssh-keys", "keys"), "--ssh-keys goes with --ssh"),
        (("--rounds", "4"), "--rounds is not an option of puerto-rican-drawing"),
        (("--name", " "), "a name cannot be empty"),
        (("--spectate",), "--spectate goes with --join"),
        (("--join", "club.lan:0"), "is not a port"),
    ],
)
def test_bad_options_say_what_is_wrong_in_one_line(
    argv: tuple[str, ...], words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["club", *argv]) == 2
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1 and "Traceback" not in err


@pytest.mark.parametrize("argv", [("--format", "ladder"), ("--bye", "maybe"), ("--club-rounds", "0"),
                                  ("--club-rounds", "31"), ("--table-size", "9"), ("--port", "70000"),
                                  ("--round-delay", "soon"), ("--players", "4")])
def test_bad_values_are_refused_by_the_parser(
    argv: tuple[str, ...], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_:
        parse(*argv)
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("capicu: ") and err.count("\n") == 1
