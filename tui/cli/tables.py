"""The tables on the local network, for the command line: ``capicu tables``, and ``capicu join`` by name.

net/mdns.py listens (python-zeroconf, loaded only here and only when asked), and
net/discovery.py says what each table announced; this words it. A table is named
by its name, its game, its free seats and its address; a name that looks like
another table's gets no more trust than its address. A club night is announced
beside the tables and listed with them, marked as one, with its format, its round
and its people; ``capicu club --join`` with no address chooses among club nights only.
"""

from __future__ import annotations

import argparse
import asyncio
import ipaddress
import os
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

from capicu.net.host.sanitize import clean_text, name_key
from capicu.net.host.server import NO_LAN
from capicu.net.limits import TABLE_NAME_LIMIT
from capicu.net.protocol import PROTOCOL_VERSION
from capicu.tui.words.describe_rules import preset_title
from capicu.tui.words.messages import t, tc, tn

from .options import CliError, add_display_arguments, parse_address

if TYPE_CHECKING:
    from capicu.net.discovery import Listing

__all__ = ["LOOK_SECONDS", "add_tables_command", "look", "look_for", "plainly_an_address", "table_line"]

#: Seconds ``capicu join`` and ``capicu tables`` listen for tables (the first answers come within a second).
LOOK_SECONDS = 2.0


def look(seconds: float = LOOK_SECONDS) -> list[Listing]:
    """The tables heard on the local network in ``seconds``.

    Always the whole while, even for a table asked for by name: a table whose name
    imitates it may answer a moment later, and must not be missed.
    """
    from capicu.net.discovery import listings
    from capicu.net.mdns import look_for_tables  # python-zeroconf loads with it

    if os.environ.get(NO_LAN):
        return []
    try:
        found = asyncio.run(look_for_tables(seconds))
    except (OSError, RuntimeError) as exc:  # RuntimeError: python-zeroconf found no interface
        problem = (exc.strerror if isinstance(exc, OSError) else None) or str(exc)
        raise CliError(t("cannot listen for tables on the local network ({problem})",
                         problem=problem)) from None
    return listings(found)


def seats_words(listing: Listing) -> str:
    """"2 of 4 seats free", "full", or that it speaks another version of capicu."""
    ad = listing.found.ad
    if ad.protocol != PROTOCOL_VERSION:
        return t("another version of capicu")
    if ad.free == 0:
        return t("full")
    return tn("{free} of {seats} seat free", "{free} of {seats} seats free", ad.seats,
              free=str(ad.free), seats=str(ad.seats))


def club_words(listing: Listing) -> str:
    """Where a club night stands: "Swiss, round 2 of 3, 8 players", or that it speaks another version."""
    from capicu.tui.words.describe_club import format_name  # (a club night's words load with one)

    club = listing.found.ad.club
    assert club is not None
    if listing.found.ad.protocol != PROTOCOL_VERSION:
        return t("another version of capicu")
    phases = {
        "gathering": lambda: tc("a club night listed on the network", "not started"),
        "playing": lambda: tc("a club night listed on the network", "round {round} of {rounds}",
                              round=str(club.round), rounds=str(club.rounds)),
        "between": lambda: tc("a club night listed on the network", "round {round} of {rounds} over",
                              round=str(club.round), rounds=str(club.rounds)),
        "over": lambda: tc("a club night listed on the network", "over"),
    }
    phase = phases[club.phase]() if club.phase in phases else club.phase  # (a newer host's: a plain word)
    people = tn("{count} player", "{count} players", club.people, count=str(club.people))
    return ", ".join((format_name(club.format), phase, people))


def table_name_shown(listing: Listing, *, address_beside: bool = False) -> str:
    """The table's name, with its address when another table's name looks like it; a club night's
    said to be one. ``address_beside``: the address is shown right after the name anyway (the Join
    screen's list), so a look-alike's is not said twice."""
    name = listing.found.ad.name
    if listing.look_alike and not address_beside:
        # TRANSLATORS: a table whose name looks like another's, told apart by its address.
        name = t("{name} (at {address})", name=name, address=listing.found.address)
    if listing.club:
        # TRANSLATORS: a club night in the list of the local network ("Friday league (club night)").
        name = t("{name} (club night)", name=name)
    return name


def table_state(listing: Listing) -> str:
    """Where a table stands ("2 of 4 seats free"), or a club night ("Swiss, round 2 of 3, 8 players")."""
    return club_words(listing) if listing.club else seats_words(listing)


def table_details(listing: Listing, *, game: Callable[[str], str] = preset_title) -> str:
    """What a list says under a table's name: "draw  ·  2 of 4 seats free  ·  10.0.0.5:7254" (a club
    night: "draw  ·  Swiss, round 2 of 3, 8 players  ·  10.0.0.5:7254").

    ``game`` names the table's game from its preset: the command line writes it as ``--preset``
    does; the app passes `game_title` ("Draw Game"), the game's title in words.
    """
    return f"{game(listing.found.ad.preset)}  ·  {table_state(listing)}  ·  {listing.found.where}"


def table_line(listing: Listing) -> str:
    """One table on one line: its address first (for scripts), its name, its game, its seats (a club
    night: its format, round and players)."""
    ad = listing.found.ad
    details = [preset_title(ad.preset), club_words(listing) if listing.club else seats_words(listing)]
    if ad.code_needed:
        details.append(t("join code needed"))
    return f"{listing.found.where}  {table_name_shown(listing)}  ({', '.join(details)})"


def table_json(listing: Listing) -> dict[str, object]:
    """A table (or a club night: its ``club`` map) as ``capicu tables --json`` prints it."""
    ad = listing.found.ad
    club = None if ad.club is None else {
        "format": ad.club.format, "phase": ad.club.phase, "round": ad.club.round, "rounds": ad.club.rounds,
        "people": ad.club.people,
    }
    return {
        "name": ad.name, "game": ad.game, "preset": ad.preset, "seats": ad.seats, "taken": ad.taken,
        "free": ad.free, "code_needed": ad.code_needed, "protocol": ad.protocol, "ssh_port": ad.ssh_port,
        "address": listing.found.address, "port": listing.found.port,
        "looks_like_another": listing.look_alike, "club": club,
    }


#: The command line's parser class (the sub-commands are made of it).
Parser = TypeVar("Parser", bound=argparse.ArgumentParser)


def add_tables_command(subparsers: argparse._SubParsersAction[Parser]) -> None:
    """Add ``capicu tables`` (its options when it is the command run or its help is shown)."""
    subparsers.add_parser(
        "tables", help=t("list the tables on the local network"),
        description=t("List the tables and club nights announced on the local network, one a line: "
                      "address, name, game and free seats (a club night: its format, round and players; "
                      "multicast DNS reaches this network segment only)."),
        options=_tables_options,
    ).set_defaults(handler=run_tables)


def _tables_options(tables: argparse.ArgumentParser) -> None:
    tables.add_argument("--json", action="store_true", help=t("print the list as JSON"))
    tables.add_argument("--wait", type=float, default=LOOK_SECONDS, metavar=t("SECONDS"),
                        help=t("how long to listen (default: %(default)g)"))
    add_display_arguments(tables)  # accepted after the command as before it (only --lang changes anything)


def run_tables(args: argparse.Namespace) -> int:
    """``capicu tables``: every table heard, one a line (or JSON)."""
    if not 0.1 <= args.wait <= 60:
        raise CliError(t("--wait is a number of seconds from 0.1 to 60"))
    found = look(args.wait)
    if args.json:
        import json  # (only for --json)

        print(json.dumps([table_json(each) for each in found], ensure_ascii=False, indent=1))
        return 0
    for listing in found:
        print(table_line(listing))
    if not found:
        print(t("No table or club night found on the local network."), file=sys.stderr)
    return 0


def joinable(listing: Listing, spectate: bool) -> bool:
    """It speaks our protocol, and a seat is free (a club night: it is not over), or we only watch."""
    return listing.found.ad.protocol == PROTOCOL_VERSION and (spectate or listing.joinable)


def plainly_an_address(text: str) -> bool:
    """Whether ``text`` can only be an address: an IP address (with or without a port), or ``HOST:PORT``."""
    try:
        host, _ = parse_address(text)
    except CliError:
        return False
    if host == "localhost" or ":" in text:
        return True
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


def look_for(address: str | None, spectate: bool, *, clubs_only: bool = False) -> Listing | None:
    """What ``capicu join [HOST[:PORT]|NAME]`` (``clubs_only``: ``capicu club --join``) means on the
    local network: with no address, the table (or club night) the player chooses of those heard; with
    a name that is not plainly an address, the one of that name; None for an address (or a name
    nobody announces that may be a host's)."""
    if address is None:
        return choose_from_list(spectate, clubs_only=clubs_only)
    if plainly_an_address(address):
        return None
    chosen = choose_by_name(address, spectate, clubs_only=clubs_only)
    if chosen is None:
        try:
            parse_address(address)
        except CliError:
            if address.rpartition(":")[2].isdigit():
                raise  # HOST:PORT with a wrong port: that is what to say
            name = repr(address[:60])
            raise CliError(t("no club night called {name} was found on the local network", name=name)
                           if clubs_only else
                           t("no table called {name} was found on the local network", name=name)) from None
    return chosen


def choose_by_name(name: str, spectate: bool, *, clubs_only: bool = False) -> Listing | None:
    """The table (``clubs_only``: club night) called ``name`` on the local network; None when none is heard.

    CliError when several read as that name (one may imitate another): they are listed with
    their addresses, to join by address.
    """
    from capicu.net.discovery import tables_named

    named = [each for each in tables_named(name, look(LOOK_SECONDS)) if each.club or not clubs_only]
    if not named:
        return None
    lines = "\n".join("  " + table_line(each) for each in named)
    if len(named) > 1:
        raise CliError(t("several tables are called {name}: join one by its address:\n{tables}",
                         name=repr(name), tables=lines))
    chosen = named[0]
    if name_key(chosen.found.ad.name) != name_key(clean_text(name, limit=TABLE_NAME_LIMIT)):
        # Only a look-alike answered (the same letters of another script): never taken for the name.
        raise CliError(t("no table is called {name}, but this one's name looks like it: join it by its "
                         "address if it is the one:\n{tables}", name=repr(name), tables=lines))
    if not joinable(chosen, spectate):
        raise CliError(t("{table} cannot be joined: {why}", table=table_name_shown(chosen),
                         why=club_words(chosen) if chosen.club else seats_words(chosen)))
    return chosen


def choose_from_list(spectate: bool, *, clubs_only: bool = False) -> Listing:
    """The table (``clubs_only``: club night) the player picks of those heard (offered directly when it
    is the only one to join)."""
    if clubs_only:
        print(t("Looking for club nights on the local network..."), flush=True)
    else:
        print(t("Looking for tables on the local network..."), flush=True)
    found = [each for each in look(LOOK_SECONDS) if each.club or not clubs_only]
    open_tables = [each for each in found if joinable(each, spectate)]
    if not found:
        raise CliError(t("no club night found on the local network (a network may not pass multicast): "
                         "join by address, capicu club --join HOST[:PORT]") if clubs_only else
                       t("no table found on the local network (a network may not pass multicast): "
                         "join by address, capicu join HOST[:PORT]"))
    for number, listing in enumerate(found, 1):
        print(f"{number:>3}. {table_name_shown(listing)}\n     {table_details(listing)}")
    if not open_tables:
        raise CliError(t("no club night found can be joined") if clubs_only else
                       t("no table found has a free seat"))
    interactive = sys.stdin.isatty()
    if len(open_tables) == 1:
        only = open_tables[0]
        if not interactive:
            return only
        answer = _ask(t("Join {table}? [Y/n] ", table=table_name_shown(only)))
        if answer.lower() in ("", "y", "yes", t("y"), t("yes")):
            return only
        raise CliError(t("no table chosen"))
    if not interactive:
        raise CliError(t("several club nights found: name one, capicu club --join NAME, or give its address")
                       if clubs_only else
                       t("several tables found: name one, capicu join NAME, or give its address"))
    answer = _ask(t("Which one? (its number; Enter: none) "))
    if answer.isdigit() and 1 <= int(answer) <= len(found) and found[int(answer) - 1] in open_tables:
        return found[int(answer) - 1]
    raise CliError(t("no table chosen"))


def ask_code(listing: Listing) -> str:
    """The join code a table needs, typed by the player (CliError with no terminal to ask on)."""
    if not sys.stdin.isatty():
        raise CliError(t("{table} needs a join code: --code CODE", table=table_name_shown(listing)))
    code = _ask(t("Join code for {table}: ", table=table_name_shown(listing)))
    if not code:
        raise CliError(t("{table} needs a join code: --code CODE", table=table_name_shown(listing)))
    return code


def _ask(question: str) -> str:
    try:
        return input(question).strip()
    except EOFError:
        return ""
