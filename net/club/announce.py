"""A club night announced on the local network, as a table is (net/discovery.py says what is in it).

The record is a table's (the same service type, so that every client's list hears it) with the
club's fields besides (`ClubAd`): the night's format, its round and phase, and how many people
are in it. The club's host shows the night each time it tells its people something (a join, a
leave, a draw, a result); the announcer sends only what changed, and `ClubAnnouncement.close`
withdraws it (a goodbye) when the host stops. python-zeroconf loads only with a night announced.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from capicu.core.club import ClubConfig, ClubNight
from capicu.net.discovery import Ad, ClubAd
from capicu.net.host.server import Announce, is_loopback

if TYPE_CHECKING:
    from capicu.net.mdns import Announcer

__all__ = ["ClubAnnouncement", "club_ad"]


def club_ad(announce: Announce, night: ClubNight, *, code_needed: bool) -> Ad:
    """What a club night announces as it stands: its name, game, format, round, phase and people.

    Its seats are its tables' size, all taken: a client that knows nothing of club nights lists
    it as a full table (and never tries to sit at it), one that does lists a club night.
    """
    config: ClubConfig = night.config
    rules = config.rules
    club = ClubAd(format=config.format.value, phase=night.phase.value, round=night.round,
                  rounds=night.total_rounds, people=len(night.active))
    return Ad(name=announce.name, game=rules.game.value, preset=rules.preset, seats=config.table_size,
              taken=config.table_size, code_needed=code_needed, ssh_port=announce.ssh_port, club=club)


class ClubAnnouncement:
    """A club night's announcement, kept up to date by its host (`show`) until it is `close`d."""

    def __init__(self, announcer: Announcer, announce: Announce, *, code_needed: bool) -> None:
        self._announcer = announcer
        self.announce = announce
        self._code_needed = code_needed

    @classmethod
    def start(cls, announce: Announce | None, *, port: int, bind: str | None,
              code_needed: bool) -> ClubAnnouncement | None:
        """The announcement of a club listening on ``bind`` (None: every interface) and ``port``.

        None when nothing is to be announced: no ``announce``, or a club on the loopback only
        (nobody else could reach it).
        """
        if announce is None or is_loopback(bind):
            return None
        from capicu.net.mdns import Announcer  # python-zeroconf loads with it

        return cls(Announcer(port, bind), announce, code_needed=code_needed)

    @property
    def name(self) -> str:
        """The name the night is listed by."""
        return self.announce.name

    def show(self, night: ClubNight) -> None:
        """Announce ``night`` as it stands now (nothing is sent when nothing announced changed)."""
        self._announcer.show(club_ad(self.announce, night, code_needed=self._code_needed))

    async def close(self) -> None:
        """Withdraw the announcement (a goodbye to every listener)."""
        await self._announcer.close()
