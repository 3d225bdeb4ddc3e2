"""A table's announcement on the LAN (net/discovery.py): made, read back, and refused when hostile."""

from __future__ import annotations

import pytest
from capicu.net.discovery import (
    LABEL_LIMIT,
    TABLE_NAME_LIMIT,
    Ad,
    AdError,
    ClubAd,
    Found,
    ad_from_txt,
    ad_to_txt,
    choose_address,
    instance_label,
    listings,
    tables_named,
)
from capicu.net.protocol import PROTOCOL_VERSION
from hypothesis import given
from hypothesis import strategies as st

ANA = Ad(name="Ana's table", game="line-of-play", preset="puerto-rican-drawing", seats=4, taken=1,
         code_needed=True)


def txt(**fields: str | bytes) -> bytes:
    """A TXT record of these ``key=value`` strings (bytes values as they are)."""
    out = b""
    for key, value in fields.items():
        entry = key.encode() + b"=" + (value if isinstance(value, bytes) else value.encode())
        out += bytes([len(entry)]) + entry
    return out


GOOD = {"v": "1", "proto": str(PROTOCOL_VERSION), "name": "Ana's table", "game": "line-of-play",
        "preset": "draw", "seats": "4", "taken": "1", "code": "0"}


def test_an_announcement_reads_back_as_it_was_made() -> None:
    assert ad_from_txt(ad_to_txt(ANA)) == ANA
    with_ssh = Ad("Beto", "mexican-train", "mexican-train", 8, 8, False, ssh_port=2222)
    assert ad_from_txt(ad_to_txt(with_ssh)) == with_ssh
    assert with_ssh.free == 0


def keys_of(record: bytes) -> set[str]:
    keys = set()
    at = 0
    while at < len(record):
        entry = record[at + 1 : at + 1 + record[at]]
        keys.add(entry.split(b"=")[0].decode())
        at += 1 + record[at]
    return keys


def test_the_record_carries_no_secret() -> None:
    """Whether a code is needed is said; the code itself, tokens and seat keys have no key to go in."""
    assert keys_of(ad_to_txt(ANA)) == {"v", "proto", "name", "game", "preset", "seats", "taken", "code"}


@given(name=st.text(min_size=1, max_size=TABLE_NAME_LIMIT), seats=st.integers(1, 16), data=st.data())
def test_any_table_reads_back(name: str, seats: int, data: st.DataObject) -> None:
    ad = Ad(name=name, game="line-of-play", preset="draw", seats=seats,
            taken=data.draw(st.integers(0, seats)), code_needed=data.draw(st.booleans()),
            ssh_port=data.draw(st.none() | st.integers(1, 65535)))
    try:
        back = ad_from_txt(ad_to_txt(ad))
    except AdError as exc:
        assert "empty" in str(exc)  # a name of nothing but invisible characters
        return
    assert back.name == back.name.strip() and back.seats == seats and back.taken == ad.taken


@pytest.mark.parametrize(
    ("fields", "reason"),
    [
        ({**GOOD, "v": "2"}, "version 2"),
        ({k: v for k, v in GOOD.items() if k != "name"}, "no name"),
        ({**GOOD, "name": "\x1b[2J\u200b\u202e"}, "empty once cleaned"),
        ({**GOOD, "name": b"\xff\xfe"}, "not UTF-8"),
        ({**GOOD, "seats": "٣"}, "not a number"),
        ({**GOOD, "seats": "+3"}, "not a number"),
        ({**GOOD, "seats": "0"}, "not from 1 to 16"),
        ({**GOOD, "taken": "5"}, "not from 0 to 4"),
        ({**GOOD, "code": "yes"}, "not 0 or 1"),
        ({**GOOD, "ssh": "70000"}, "not from 1 to 65535"),
        ({**GOOD, "game": "line of\x1bplay"}, "not a name"),
    ],
)
def test_a_bad_record_is_refused_with_its_reason(fields: dict[str, str | bytes], reason: str) -> None:
    with pytest.raises(AdError, match=reason):
        ad_from_txt(txt(**fields))


def test_a_record_cut_short_or_too_long_is_refused() -> None:
    with pytest.raises(AdError, match="ends inside a string"):
        ad_from_txt(txt(**GOOD)[:-3])
    with pytest.raises(AdError, match="more than"):
        ad_from_txt(txt(**GOOD) + b"\x00" * 2000)


def test_the_first_of_a_key_counts_and_keys_are_read_in_any_case() -> None:
    record = txt(**GOOD) + txt(name="Impostor")
    assert ad_from_txt(record).name == "Ana's table"
    assert ad_from_txt(txt(**{key.upper(): value for key, value in GOOD.items()})).name == "Ana's table"


def test_escapes_and_invisible_characters_never_reach_the_name() -> None:
    ad = ad_from_txt(txt(**{**GOOD, "name": "Ana\x1b]0;owned\x07's\u200b ta\u202eble\n"}))
    assert ad.name == "Ana's table"


@given(st.binary(max_size=400))
def test_any_bytes_are_a_table_or_a_clear_refusal(record: bytes) -> None:
    try:
        ad = ad_from_txt(record)
    except AdError as exc:
        assert str(exc)
    else:
        assert ad.name and ad.name.isprintable() and 0 <= ad.taken <= ad.seats


@given(st.dictionaries(st.sampled_from([*sorted(GOOD), "ssh", "x"]), st.binary(max_size=60), max_size=12))
def test_any_values_under_the_right_keys_are_a_table_or_a_clear_refusal(fields: dict[str, bytes]) -> None:
    try:
        ad = ad_from_txt(txt(**{**GOOD, **fields}))
    except AdError as exc:
        assert str(exc)
    else:
        assert ad.name.isprintable() and 0 <= ad.taken <= ad.seats <= 16


def found(name: str, address: str = "10.231.0.1", seats: int = 4, taken: int = 1) -> Found:
    ad = Ad(name, "line-of-play", "draw", seats, taken, False)
    return Found(ad, address, 7254, f"{name}@{address}._capicu._tcp.local.")


def test_a_name_that_imitates_another_is_marked_and_both_are_meant_by_it() -> None:
    real, fake, other = found("Ana's table"), found("Аna's table", "10.231.0.9"), found("Beto", "10.231.0.3")
    shown = listings([other, fake, real])
    assert [(each.found.ad.name, each.look_alike) for each in shown] == [
        ("Ana's table", True), ("Beto", False), ("Аna's table", True)]
    assert {each.found.address for each in tables_named("ana's table", shown)} == {"10.231.0.1", "10.231.0.9"}
    assert [each.found.address for each in tables_named("Beto", shown)] == ["10.231.0.3"]


def test_a_full_table_or_another_protocol_is_not_joinable() -> None:
    full = listings([found("Full", taken=4)])[0]
    assert not full.joinable
    older = Found(Ad("Old", "line-of-play", "draw", 4, 0, False, protocol=PROTOCOL_VERSION - 1), "10.0.0.1",
                  7254, "Old")
    assert not listings([older])[0].joinable
    assert listings([found("Open")])[0].joinable


def test_the_address_on_our_own_network_is_chosen() -> None:
    announced = ["192.168.5.4", "127.0.0.1", "10.231.0.7", "fe80::1", "::1"]
    assert choose_address(announced, ["10.231.0.2/24"]) == "10.231.0.7"
    assert choose_address(announced, []) == "192.168.5.4"  # the first announced, never loopback
    assert choose_address(["127.0.0.1", "fe80::1%eth0", "garbage"], ["10.0.0.1/8"]) is None
    assert found("x", "fd00::5").where == "[fd00::5]:7254"


@given(st.text(max_size=200))
def test_an_instance_label_fits_a_dns_label(name: str) -> None:
    label = instance_label(name)
    assert 1 <= len(label.encode()) <= LABEL_LIMIT and "." not in label


def test_python_zeroconf_is_not_loaded_to_play() -> None:
    """A game against the computer never pays for the LAN's library: it loads only to announce or look."""
    import subprocess
    import sys

    loaded = subprocess.run(
        [sys.executable, "-c",
         "import sys, capicu.tui.cli.main, capicu.tui.app, capicu.tui.screens.join_form; "
         "print(sorted(m for m in ('zeroconf', 'ifaddr', 'capicu.net.mdns') if m in sys.modules))"],
        capture_output=True, text=True, timeout=60, check=True,
    )
    assert loaded.stdout.strip() == "[]", loaded


# -- a club night's announcement ---------------------------------------------------------

CLUB = {**GOOD, "seats": "2", "taken": "2", "club": "swiss", "phase": "playing", "round": "2", "rounds": "3",
        "people": "8"}


def test_a_club_nights_announcement_reads_back_and_says_where_the_night_stands() -> None:
    from capicu.core import Rules
    from capicu.core.club import ClubConfig, ClubFormat, ClubNight
    from capicu.net.club.announce import club_ad
    from capicu.net.host.server import Announce

    night = ClubNight.open(ClubConfig(rules=Rules(), format=ClubFormat.SWISS, rounds=3, table_size=2))
    for name in ("Ana", "Beto", "Cleo"):
        night = night.join(name)
    night = night.leave(2)
    ad = club_ad(Announce("Friday \x1b[31mclub\u200b"), night, code_needed=True)
    back = ad_from_txt(ad_to_txt(ad))
    assert back == ad and back.name == "Friday club"
    assert back.club == ClubAd(format="swiss", phase="gathering", round=0, rounds=3, people=2)
    assert (back.game, back.preset, back.code_needed) == ("line", "puerto-rican-drawing", True)
    # A client that knows nothing of club nights reads a full table (it never tries to sit at it).
    assert back.seats == back.taken == 2 and back.free == 0
    # Nothing secret (the join code, the organiser's key, a club token) has a key to go in.
    assert keys_of(ad_to_txt(ad)) == {"v", "proto", "name", "game", "preset", "seats", "taken", "code",
                                      "club", "phase", "round", "rounds", "people"}
    night = night.start_round(7)
    assert ad_from_txt(ad_to_txt(club_ad(Announce("Friday"), night, code_needed=False))).club == ClubAd(
        "swiss", "playing", 1, 3, 2)


def test_a_club_night_is_joinable_until_it_is_over_and_only_in_our_protocol() -> None:
    def listing(phase: str, protocol: int = PROTOCOL_VERSION) -> bool:
        ad = ad_from_txt(txt(**{**CLUB, "phase": phase, "proto": str(protocol)}))
        [shown] = listings([Found(ad, "10.0.0.5", 7254, "club")])
        assert shown.club
        return shown.joinable

    assert listing("gathering") and listing("playing") and listing("between")
    assert not listing("over")
    assert not listing("playing", PROTOCOL_VERSION + 1)
    assert not listings([found("A table")])[0].club


@pytest.mark.parametrize(
    ("fields", "reason"),
    [
        ({**CLUB, "round": "4"}, "round is 4, not from 0 to 3"),
        ({**CLUB, "rounds": "0"}, "rounds is 0, not from 1 to 1000"),
        ({k: v for k, v in CLUB.items() if k != "phase"}, "no phase"),
        ({**CLUB, "people": "-1"}, "not a number"),
        ({**CLUB, "people": "9" * 8}, "not a number"),
        ({**CLUB, "club": "swiss\x1b[2J"}, "not a name"),
        ({**CLUB, "phase": "play ing"}, "not a name"),
        ({**CLUB, "club": b"\xff"}, "not UTF-8"),
    ],
)
def test_a_bad_club_record_is_refused_with_its_reason(fields: dict[str, str | bytes], reason: str) -> None:
    with pytest.raises(AdError, match=reason):
        ad_from_txt(txt(**fields))


@given(st.dictionaries(st.sampled_from(["club", "phase", "round", "rounds", "people", "name", "seats"]),
                       st.binary(max_size=40), max_size=7))
def test_any_values_under_a_club_nights_keys_are_a_club_or_a_clear_refusal(fields: dict[str, bytes]) -> None:
    try:
        ad = ad_from_txt(txt(**{**CLUB, **fields}))
    except AdError as exc:
        assert str(exc)
    else:
        club = ad.club
        assert club is not None and ad.name.isprintable()
        assert 0 <= club.round <= club.rounds and club.people >= 0
        assert all(c.isascii() and (c.isalnum() or c == "-") for c in club.format + club.phase)
