"""The game this terminal takes part in: what was asked for, and the table's one model.

A start request (`SoloGame`, `JoinGame`, `HostGame`) and `DisplayOptions` are what
the command line or a form asked for; `GameState` holds the request and the
client's `TableModel` (what the host has said since). Plain values, no Textual:
the command line makes them before Textual loads.
"""

from __future__ import annotations

from collections.abc import Collection
from pathlib import Path
from typing import TYPE_CHECKING

import msgspec
from capicu.core import Rules
from capicu.net.host.server import Announce, HostConfig
from capicu.net.host.table import TableConfig
from capicu.net.model import TableModel
from capicu.net.protocol import DEFAULT_PORT, NAME_LIMIT, Seat, SeatKind
from capicu.net.store.journals import JournalFolder, JournalKind, Unfinished
from capicu.tui.prefs.settings import journals_dir, records_dir
from capicu.tui.words.describe import display_text
from capicu.tui.words.messages import Wording, later, t

if TYPE_CHECKING:  # a club night's code loads when one is run (`capicu club`)
    from capicu.core.club import ClubConfig


class DisplayOptions(msgspec.Struct, frozen=True):
    """How this terminal draws the table and takes input (from the command line)."""

    ascii: bool = False
    tile_style: str | None = None
    mouse: bool = True
    theme: str | None = None
    #: ``--lang``: the language to speak this time (None: the one saved, else the locale's).
    language: str | None = None


class SoloGame(msgspec.Struct, frozen=True):
    """Play against computer players: a host on 127.0.0.1 in this process."""

    rules: Rules
    players: int
    level: str = "normal"
    seed: int | None = None
    name: str | None = None
    #: Seconds a computer waits before it plays, so that a person can follow.
    pace: float = 0.7
    #: Journal the game in the user data folder, so that a crash does not lose it (``--no-journal``: no).
    journal: bool = True
    #: Go on with the game this journal holds (offered when one is kept unfinished).
    resume: Path | None = None


class JoinGame(msgspec.Struct, frozen=True):
    """Join someone's table on the network (or watch it)."""

    host: str
    port: int
    name: str | None = None
    code: str | None = None
    spectate: bool = False
    #: A seat key typed by the player: take back that seat (from another machine).
    seat_key: str | None = None
    #: Seconds to keep trying to reach a host that went away, before giving up.
    give_up_after: float = 600.0
    #: How to come back to the seat from another machine when it is not ``capicu join``
    #: (an SSH player's ssh line), worded when shown; None: the ``capicu join`` line.
    return_line: Wording | None = None
    #: The ssh line an SSH player came by (None: not over SSH): with the seat key as the
    #: password, it is the way back after leaving.
    ssh_line: str | None = None
    #: Join the host's club night rather than a table (``capicu club --join``).
    club: bool = False


class HostGame(msgspec.Struct, frozen=True):
    """Host on the LAN with ``config`` and play in this terminal."""

    config: HostConfig
    name: str | None = None


class HostClub(msgspec.Struct, frozen=True):
    """Run a club night from this terminal (the organiser): the night, and where its club listens."""

    club: ClubConfig
    #: The address to listen on (None: every interface, for a LAN) and the port (0: any free one).
    bind: str | None = None
    port: int = DEFAULT_PORT
    #: The join code people give to join the club (None: anybody who reaches it).
    code: str | None = None
    #: Seconds from a round's last table done to the next round's draw (None: the organiser draws each).
    round_delay: float | None = 60.0
    #: The organiser's name as the club lists watchers (None: the one kept in Settings).
    name: str | None = None
    #: Start a new night even though the last one is unfinished (it is set aside).
    new: bool = False
    #: Announce the night on the local network (by its name, else the organiser's): ``--no-announce``
    #: says no, and so does CAPICU_NO_LAN; a club on the loopback address only is never announced.
    announce: bool = True
    #: The SSH gateway's port, for the announcement to say (None: no gateway).
    ssh_port: int | None = None


StartRequest = SoloGame | JoinGame | HostGame | HostClub


class OpenReplays(msgspec.Struct, frozen=True):
    """Look back at finished matches (``capicu replay``): one record's file, or (None) the list of them."""

    path: Path | None = None


def make_host_config(
    *, rules: Rules, players: int, computers: int, level: str, bind: str | None, port: int,
    code: str | None, seed: int | None, pace: float = 0.0, next_round_delay: float | None = 20.0,
    journals: JournalFolder | None = None, resume: Path | None = None, records: Path | None = None,
    announce: Announce | None = None,
) -> HostConfig:
    """The host of a table this terminal runs (seed None: the table draws one); ``records``: the
    folder it keeps its finished matches' records in."""
    table = TableConfig(rules=rules, players=players, computers=computers, computer_level=level, seed=seed,
                        computer_delay=pace, next_round_delay=next_round_delay)
    return HostConfig(table, bind=bind, port=port, code=code, journals=journals, resume=resume,
                      records=records, announce=announce)


def solo_host_config(request: SoloGame, journals: JournalFolder | None = None) -> HostConfig:
    """A solo game's host: loopback, any free port, no code, every other seat a computer.

    ``journals``: the folder its journal goes in (None, or ``request.journal`` False: none).
    """
    return make_host_config(
        rules=request.rules, players=request.players, computers=request.players - 1,
        level=request.level, bind="127.0.0.1", port=0, code=None, seed=request.seed,
        pace=request.pace, next_round_delay=None,  # the one person says when: nobody else waits
        journals=journals if request.journal else None, resume=request.resume,
        # The player's own folder: the host's copy and the player's are one file.
        records=records_dir(),
    )


def journals_of(request: StartRequest) -> JournalFolder | None:
    """The folder of journals ``request``'s match goes in, when it asks for the default one."""
    if isinstance(request, SoloGame):
        return JournalFolder(journals_dir(), JournalKind.PLAY) if request.journal else None
    if isinstance(request, HostGame):
        return request.config.journals
    return None


def resuming(request: SoloGame | HostGame, path: Path) -> SoloGame | HostGame:
    """``request``, going on with the match of the journal at ``path``."""
    if isinstance(request, SoloGame):
        return msgspec.structs.replace(request, resume=path)
    return msgspec.structs.replace(request, config=msgspec.structs.replace(request.config, resume=path))


def resumes(request: StartRequest) -> Path | None:
    """The journal ``request`` resumes (None: a new match, or not ours to host)."""
    if isinstance(request, SoloGame):
        return request.resume
    if isinstance(request, HostGame):
        return request.config.resume
    return None


class Hosting(msgspec.Struct, frozen=True):
    """This terminal hosts: where others join, and with which code."""

    address: str
    port: int
    code: str | None
    #: The name the table is announced by on the local network (None: not announced).
    announced: str | None = None
    #: A club night is hosted (joined with ``capicu club --join``), not a table.
    club: bool = False


class GameState(msgspec.Struct, frozen=True):
    """The game the App runs: what was asked for, and the table's one model."""

    request: StartRequest
    #: The client's model of the table (the link's client applies every host message to it).
    table: TableModel = msgspec.field(default_factory=TableModel)
    #: The match this terminal's host resumed (said once the table shows), else None.
    resumed: Unfinished | None = None

    @property
    def hosting(self) -> bool:
        """This terminal runs the host (a solo game, or host-and-play)."""
        return not isinstance(self.request, JoinGame)

    def seat_key_command(self) -> str:
        """The command that takes this seat back from another machine."""
        request, key = self.request, self.table.seat_key
        if not isinstance(request, JoinGame) or key is None:
            return ""
        if request.return_line is not None:
            return request.return_line()
        host = f"[{request.host}]" if ":" in request.host else request.host
        return f"capicu join {host}:{request.port} --seat-key {key}"

    def seat_name(self, seat: int) -> str:
        """The name shown for ``seat``: its player's, or the computer's in the reader's language."""
        for info in self.table.seats:
            if info.seat == seat and info.kind == SeatKind.COMPUTER:
                return computer_name(seat)
            if info.seat == seat and info.name:
                return info.name
        return t("seat {number}", number=seat + 1)


def computer_name(seat: int) -> str:
    """A computer player's name (the host names them "Computer N" in English: a name nobody typed)."""
    return t("Computer {number}", number=seat + 1)


def seat_notices(
    before: tuple[Seat, ...], after: tuple[Seat, ...], me: int | None, awaited: Collection[int] = ()
) -> list[Wording]:
    """What changed at the table, in sentences for the log ("Beto sat down."), worded when shown.

    ``awaited``: the seats drawn for people who had not come yet (a club night's table): coming
    to one is sitting down, not coming back.
    """
    old = {s.seat: s for s in before}
    notices = []
    for seat in after:
        was = old.get(seat.seat)
        if seat.seat == me or seat.kind != SeatKind.PERSON or not seat.name:
            continue
        name = display_text(seat.name, NAME_LIMIT)
        if was is None:
            if before:  # the first list of seats is the table as it is, not news
                notices.append(later("{name} sat down.", name=name))
        elif was.kind == SeatKind.OPEN or (was.name != seat.name and seat.connected):
            notices.append(later("{name} sat down.", name=name))
        elif seat.left and not was.left:
            notices.append(later("{name} left the table; the computer plays for them.", name=name))
        elif seat.covered and not was.covered:
            notices.append(later("The computer plays for {name} until they come back.", name=name))
        elif was.connected and not seat.connected:
            notices.append(later("{name} lost the connection; the seat is held.", name=name))
        elif seat.connected and not was.connected and seat.seat in awaited:
            notices.append(later("{name} sat down.", name=name))
        elif seat.connected and not was.connected:
            notices.append(later("{name} is back.", name=name))
    return notices
