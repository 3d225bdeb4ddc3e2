"""The club night this terminal takes part in: the club's connection and model, and the seat it draws.

A club night is one connection to the club (its roster, its draws, its standings:
the club's own `TableModel`, kept in `ClubSession`) and, while a round is played, a
second connection to the player's table, opened from the round's draw (`ClubDrawn`: the
table's name and the seat's token). Both are net/club/client.py's `ClubClient`'s (the club's
link runs it): it follows the draws and says when one gives us a seat we do not hold; the App
decides to take it (at once, or after asking when the computer plays it meanwhile) and the
`ClubClient` opens it. That second connection is the App's game like any other
(`CapicuApp.game`, `CapicuApp.link`), so the table screens need nothing of the club; when its
match ends the player goes back to the club's standings, and the next draw takes them to their
next seat. Plain values, no Textual.
"""

from __future__ import annotations

import os
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

import msgspec
from capicu.net.host.sanitize import clean_text
from capicu.net.host.server import NO_LAN, Announce
from capicu.net.limits import TABLE_NAME_LIMIT
from capicu.net.model import TableModel
from capicu.net.protocol import ClubDrawn, ClubPhase
from capicu.tui.prefs.settings import data_dir, records_dir

from .game import HostClub, JoinGame, StartRequest

if TYPE_CHECKING:
    from capicu.net.club.host import ClubHostConfig

    from .link import Connection, GameLink


class ClubSession(msgspec.Struct):
    """The club night: how it was reached, its model, its link, and the organiser's key if ours."""

    #: How this terminal reached the club: a `JoinGame` (a player), or the organiser's own request.
    request: StartRequest
    #: The club connection's model: `club` (the roster), `club_draw`, `standings`, as last said.
    model: TableModel
    link: GameLink
    #: The organiser's key (None: a player, who cannot start rounds or close tables).
    organiser_key: str | None = None
    #: The round whose seat this terminal was taken to (a draw said again takes nobody twice).
    seated_round: int = 0
    #: The club's connection is lost and being got back (said once, until it is back).
    reconnecting: bool = False
    #: The round being played when this terminal came to the club (0: none was): its seat there,
    #: if the computer plays it meanwhile, is taken back only if the player says so.
    arrived_during: int | None = None

    @property
    def organiser(self) -> bool:
        return self.organiser_key is not None

    @property
    def round_delay(self) -> float | None:
        """The seconds from a round's end to the night's next draw, when this terminal runs the night
        (None: the organiser draws each round, or the night is another's, whose settings a player is
        not told)."""
        return self.request.round_delay if isinstance(self.request, HostClub) else None

    @property
    def phase(self) -> str:
        """The night's `ClubPhase` value (gathering until the roster says otherwise)."""
        return self.model.club.phase if self.model.club is not None else ClubPhase.GATHERING

    def seat_to_take(self, drawn: ClubDrawn) -> bool:
        """``drawn`` (a draw the club's connection offers: a seat we do not hold) is of a round whose
        seat this terminal has not been taken to yet (a draw said again takes nobody twice)."""
        return drawn.round > self.seated_round

    def drawn_before_arrival(self, drawn: ClubDrawn) -> bool:
        """``drawn`` was drawn before this terminal came to the club: its seat is one the player comes
        back to (a person arriving during a round is in the next round's draw, not this one's)."""
        return self.arrived_during is not None and drawn.round <= self.arrived_during

    def coming_back(self, drawn: ClubDrawn) -> bool:
        """``drawn`` was drawn before this terminal came to the club (it comes back to the round)
        and the computer plays its seat meanwhile: the player is asked before taking it back. A
        seat only held for its person (within the grace period) is simply theirs again."""
        return self.drawn_before_arrival(drawn) and drawn.covered

    def seat_connection(self, drawn: ClubDrawn) -> tuple[JoinGame, Connection]:
        """The join to the seat ``drawn`` gives: the club's address, name and code, its table and token."""
        from .link import Connection

        assert drawn.table is not None
        club = self.link.connection
        host, port = club.host, club.port
        request = JoinGame(host=host, port=port, name=club.name, code=club.code, seat_key=drawn.seat_key,
                           give_up_after=club.give_up_after)
        return request, Connection(host, port, club.name, club.code, table=drawn.table, token=drawn.token,
                                   drawn=True, give_up_after=club.give_up_after)


#: The folder (in the user data folder) that holds the club night run from this machine, and
#: the nights set aside beside it.
CLUBS_FOLDER = "clubs"
#: The night being run: ``capicu club`` run again resumes it, until it is over.
NIGHT_FOLDER = "night"


def clubs_dir() -> Path:
    """The folder of the club nights run from this machine."""
    return data_dir() / CLUBS_FOLDER


def club_host_config(request: HostClub, person: str | None = None) -> ClubHostConfig:
    """The club host ``request`` asks for: the night's folder is the one run from this machine.

    ``person``: the organiser's name, for the night's name on the local network when it has none.

    A night kept there unfinished (its host stopped or killed) is resumed, with its own
    settings; one that is over, or any with ``request.new``, is set aside first (renamed
    beside it with the time), so that a new night starts.
    """
    from capicu.core.club import ClubError, Phase
    from capicu.net.club.host import NIGHT_FILE, ClubHostConfig
    from capicu.net.club.night_log import read_night

    folder = clubs_dir() / NIGHT_FOLDER
    journal = folder / NIGHT_FILE
    if journal.is_file():
        try:
            over = read_night(journal).phase is Phase.OVER
        except (OSError, ClubError):
            over = False  # the host says what is wrong with it as it starts
        if over or request.new:
            stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
            folder.rename(folder.with_name(f"{NIGHT_FOLDER}-{stamp}"))
    # The matches' records and the night itself go where `capicu history` (and --club) reads them.
    return ClubHostConfig(request.club, folder=folder, bind=request.bind, port=request.port,
                          code=request.code, records=records_dir(),
                          round_delay=request.round_delay, announce=club_announce(request, person))


def club_announce(request: HostClub, person: str | None) -> Announce | None:
    """How the night is announced on the local network: by its own name, else as ``person``'s club
    night (None: not announced, as ``request`` or CAPICU_NO_LAN says)."""
    from .cli.options import default_club_name

    if not request.announce or os.environ.get(NO_LAN):
        return None
    name = clean_text(request.club.name, limit=TABLE_NAME_LIMIT) or default_club_name(person)
    return Announce(name, ssh_port=request.ssh_port)
