"""What a host says about its table on the local network, and what a player makes of what it hears.

A host announces its table with DNS-SD over multicast DNS (RFC 6762, 6763): a
service of type `SERVICE_TYPE` whose TXT record says the table's name, the game
and its preset, the seats taken and free, whether a join code is needed (never the
code itself, nor any token or seat key), the protocol version and, where it runs,
the SSH gateway's port. A club night's host (net/club/) announces itself the same
way, under the same type, its record saying besides that it is a club night, its
format, where the night stands and how many people are in it (`ClubAd`). This module
is that record's content and nothing else:
`Ad` made into TXT bytes (`ad_to_txt`) and TXT bytes read back (`ad_from_txt`,
which refuses anything else with `AdError`: the bytes come from anybody on the
network), and the list a player reads (`listings`): each table's name cleaned like
every name from outside, and a name that imitates another shown with its address.
No sockets here; net/mdns.py carries the records (python-zeroconf).
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable, Mapping, Sequence

import msgspec
from capicu.net.host.sanitize import clean_text, name_key, names_look_alike

from .limits import TABLE_NAME_LIMIT
from .protocol import PROTOCOL_VERSION, ClubPhase

__all__ = [
    "AD_VERSION", "SERVICE_TYPE", "TABLE_NAME_LIMIT", "Ad", "AdError", "ClubAd", "Found", "Listing",
    "ad_from_txt", "ad_to_txt", "choose_address", "instance_label", "listings", "tables_named",
]

#: The DNS-SD service type capicu tables are announced under.
SERVICE_TYPE = "_capicu._tcp.local."
#: The version of the TXT record's layout (its key ``v``); a record of another version is refused.
AD_VERSION = 1
#: The most seats a record may claim (no game seats more; a bigger number is a lie).
SEATS_LIMIT = 16
#: The longest TXT record read (the host's own is under 200 bytes; DNS-SD advises under 1300).
TXT_LIMIT = 1300
#: A DNS label's limit in bytes (RFC 1035): the service instance's name must fit.
LABEL_LIMIT = 63
#: The most rounds a club night's record may claim, and the most people (far above any night's).
ROUNDS_LIMIT = 1000
PEOPLE_LIMIT = 100_000


class AdError(ValueError):
    """A TXT record that is not a capicu table's announcement; ``str()`` says why (for a log)."""


class ClubAd(msgspec.Struct, frozen=True):
    """What a club night's announcement says besides a table's: the night as it stands."""

    #: The night's format (`ClubFormat`'s value, such as "swiss").
    format: str
    #: Where the night stands (`ClubPhase`'s value: "gathering", "playing", "between", "over").
    phase: str
    #: The round being played or last played (0: none drawn yet), of ``rounds``.
    round: int
    rounds: int
    #: The people in the night (those who joined and have not left it for good).
    people: int


class Ad(msgspec.Struct, frozen=True):
    """A table's announcement (or a club night's): what a player needs to choose it, and nothing secret.

    A club night's (``club`` set) says ``seats`` = ``taken`` = its tables' size: a client that
    knows nothing of club nights lists it as a full table, and never tries to sit at it.
    """

    name: str
    #: The game (`Rules.game`'s value, such as "line-of-play") and the preset's name.
    game: str
    preset: str
    seats: int
    taken: int
    code_needed: bool
    protocol: int = PROTOCOL_VERSION
    #: The SSH gateway's port (None: no gateway).
    ssh_port: int | None = None
    #: A club night's announcement (None: a table's).
    club: ClubAd | None = None

    @property
    def free(self) -> int:
        return self.seats - self.taken


def ad_to_txt(ad: Ad) -> bytes:
    """The TXT record's bytes (RFC 6763 section 6: each ``key=value`` string after its length byte)."""
    fields = {
        "v": str(AD_VERSION), "proto": str(ad.protocol), "name": ad.name, "game": ad.game,
        "preset": ad.preset, "seats": str(ad.seats), "taken": str(ad.taken),
        "code": "1" if ad.code_needed else "0",
    }
    if ad.ssh_port is not None:
        fields["ssh"] = str(ad.ssh_port)
    if ad.club is not None:
        club = ad.club
        fields |= {"club": club.format, "phase": club.phase, "round": str(club.round),
                   "rounds": str(club.rounds), "people": str(club.people)}
    out = bytearray()
    for key, value in fields.items():
        entry = f"{key}={value}".encode()
        if len(entry) > 255:
            raise ValueError(f"the announcement's {key} is too long ({len(entry)} bytes)")
        out += bytes([len(entry)]) + entry
    return bytes(out)


def ad_from_txt(txt: bytes) -> Ad:
    """The announcement a TXT record's bytes hold; `AdError` naming the problem for anything else.

    The name is cleaned like any name from outside (`clean_text`): no control, escape or
    invisible characters reach a screen.
    """
    fields = _txt_fields(txt)
    version = _number(fields, "v", 0, 1000)
    if version != AD_VERSION:
        raise AdError(f"a record of version {version}, not {AD_VERSION}")
    raw_name = _text(fields, "name")
    name = clean_text(raw_name, limit=TABLE_NAME_LIMIT)
    if not name:
        raise AdError("the table's name is empty once cleaned")
    seats = _number(fields, "seats", 1, SEATS_LIMIT)
    taken = _number(fields, "taken", 0, seats)
    code = _text(fields, "code")
    if code not in ("0", "1"):
        raise AdError(f"code is {code[:8]!r}, not 0 or 1")
    ssh_port = _number(fields, "ssh", 1, 65535) if "ssh" in fields else None
    return Ad(
        name=name, game=_word(fields, "game"), preset=_word(fields, "preset"), seats=seats, taken=taken,
        code_needed=code == "1", protocol=_number(fields, "proto", 0, 1_000_000), ssh_port=ssh_port,
        club=_club(fields) if "club" in fields else None,
    )


def _club(fields: Mapping[str, bytes]) -> ClubAd:
    """A club night's fields (its ``club`` key names its format)."""
    rounds = _number(fields, "rounds", 1, ROUNDS_LIMIT)
    return ClubAd(format=_word(fields, "club"), phase=_word(fields, "phase"),
                  round=_number(fields, "round", 0, rounds), rounds=rounds,
                  people=_number(fields, "people", 0, PEOPLE_LIMIT))


def _txt_fields(txt: bytes) -> dict[str, bytes]:
    """The record's ``key=value`` pairs; the first of a key counts (RFC 6763 section 6.4)."""
    if len(txt) > TXT_LIMIT:
        raise AdError(f"the record is {len(txt)} bytes, more than {TXT_LIMIT}")
    fields: dict[str, bytes] = {}
    at = 0
    while at < len(txt):
        length = txt[at]
        entry = txt[at + 1 : at + 1 + length]
        if len(entry) < length:
            raise AdError("the record ends inside a string")
        at += 1 + length
        key, equals, value = entry.partition(b"=")
        if not key or not equals:
            continue  # an empty string, or a key with no value: nothing capicu reads
        if not all(0x20 <= byte <= 0x7E for byte in key):
            raise AdError("a key is not printable ASCII")
        fields.setdefault(key.decode("ascii").lower(), value)
    return fields


def _text(fields: Mapping[str, bytes], key: str) -> str:
    if key not in fields:
        raise AdError(f"the record has no {key}")
    try:
        return fields[key].decode("utf-8")
    except UnicodeDecodeError:
        raise AdError(f"{key} is not UTF-8") from None


def _number(fields: Mapping[str, bytes], key: str, low: int, high: int) -> int:
    text = _text(fields, key)
    # Only ASCII digits: int() would also take "٣", "+3", " 3" and "3_0".
    if not (text.isascii() and text.isdigit()) or len(text) > 7:
        raise AdError(f"{key} is {text[:12]!r}, not a number")
    number = int(text)
    if not low <= number <= high:
        raise AdError(f"{key} is {number}, not from {low} to {high}")
    return number


def _word(fields: Mapping[str, bytes], key: str) -> str:
    """A game's or preset's name: lower-case ASCII letters, digits and dashes."""
    text = _text(fields, key)
    if not 1 <= len(text) <= 40 or not all(c.isascii() and (c.isalnum() or c == "-") for c in text):
        raise AdError(f"{key} is {text[:40]!r}, not a name")
    return text.lower()


def instance_label(name: str) -> str:
    """The service instance's name for a table called ``name``: at most `LABEL_LIMIT` bytes of UTF-8.

    DNS-SD names the service with it (the record's ``name`` is what is shown); dots would
    split it, so they become spaces.
    """
    label = clean_text(name.replace(".", " "), limit=TABLE_NAME_LIMIT) or "capicu"
    while len(label.encode()) > LABEL_LIMIT:
        label = label[:-1]
    return label.strip() or "capicu"


class Found(msgspec.Struct, frozen=True):
    """A table heard on the network: its announcement and where it listens."""

    ad: Ad
    address: str
    port: int
    #: The DNS-SD service name (unique on the network; it tells two tables of one name apart).
    service: str

    @property
    def where(self) -> str:
        """``address:port`` as ``capicu join`` takes it."""
        address = f"[{self.address}]" if ":" in self.address else self.address
        return f"{address}:{self.port}"


class Listing(msgspec.Struct, frozen=True):
    """A table as a player's list shows it."""

    found: Found
    #: Another table's name looks like this one's (the same letters of another script, or
    #: the very same name): show the address beside the name, so neither passes for the other.
    look_alike: bool

    @property
    def joinable(self) -> bool:
        """A seat is free (a club night: it is not over) and it speaks this client's protocol."""
        ad = self.found.ad
        if ad.protocol != PROTOCOL_VERSION:
            return False
        return ad.club.phase != ClubPhase.OVER if ad.club is not None else ad.free > 0

    @property
    def club(self) -> bool:
        """It is a club night, not a table."""
        return self.found.ad.club is not None


def listings(found: Iterable[Found]) -> list[Listing]:
    """The tables in the order a list shows them (by name, then address), look-alike names marked."""
    tables = sorted(found, key=lambda each: (name_key(each.ad.name), each.address, each.port))
    return [
        Listing(table, any(other is not table and names_look_alike(table.ad.name, other.ad.name)
                           for other in tables))
        for table in tables
    ]


def tables_named(name: str, tables: Sequence[Listing]) -> list[Listing]:
    """The tables a player who asks for ``name`` may mean: each whose name reads as ``name``."""
    wanted = clean_text(name, limit=TABLE_NAME_LIMIT)
    return [each for each in tables if names_look_alike(each.found.ad.name, wanted)]


def choose_address(addresses: Sequence[str], own: Sequence[str]) -> str | None:
    """The address to reach a host at, of those it announced: one on a network of ours first.

    ``own``: this machine's interfaces as ``address/prefix`` ("10.231.0.2/24"). IPv4 before
    IPv6, and never a loopback or link-local address (another machine's is not ours to reach).
    """
    usable: list[ipaddress.IPv4Address | ipaddress.IPv6Address] = []
    for text in addresses:
        try:
            address = ipaddress.ip_address(text.split("%", 1)[0])
        except ValueError:
            continue
        if not (address.is_loopback or address.is_link_local or address.is_multicast
                or address.is_unspecified):
            usable.append(address)
    networks = []
    for text in own:
        try:
            networks.append(ipaddress.ip_interface(text).network)
        except ValueError:
            continue
    usable.sort(key=lambda address: (not any(address in network for network in networks), address.version))
    return str(usable[0]) if usable else None

