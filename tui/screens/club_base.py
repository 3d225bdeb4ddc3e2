"""`ClubScreen`: what the club night's screens share: the night's model, its keys, leaving it.

The club's screens (the lobby while people gather, then the standings) read the
club's model (`CapicuApp.club`: the roster, the round's draw and the standings as
the host last said them) and redraw at each of its changes (`club_changed`). The
organiser's keys (start a round, close a late table) are offered to the terminal
that runs the night only, when the night's phase allows them.
"""

from __future__ import annotations

from typing import ClassVar

from capicu.net.model import Change
from capicu.net.protocol import ClubPhase, ClubRoster
from capicu.tui.club import ClubSession
from capicu.tui.screens.base import SCREENS_CSS, CapicuScreen
from capicu.tui.screens.table import LeaveScreen
from capicu.tui.words.describe_club import format_name, phase_line
from capicu.tui.words.describe_rules import game_title
from capicu.tui.words.messages import N_, t
from textual.binding import Binding, BindingType


class ClubScreen(CapicuScreen[None]):
    """A screen of the club night (the lobby, the standings)."""

    CSS_PATH = SCREENS_CSS

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("s", "start_round", N_("Start round")),
        Binding("escape,q", "leave", N_("Leave"), key_display="esc/q"),
    ]

    @property
    def session(self) -> ClubSession | None:
        """The club night, while this terminal takes part in it."""
        return self.capicu.club

    @property
    def roster(self) -> ClubRoster | None:
        session = self.session
        return session.model.club if session is not None else None

    def on_mount(self) -> None:
        super().on_mount()
        self.show_club()

    def club_changed(self, change: Change) -> None:
        if self.is_mounted:
            self.show_club()
            self.refresh_bindings()

    def language_changed(self) -> None:
        self.show_club()

    def show_club(self) -> None:
        """Show the night as the club's model holds it (each screen its part)."""

    def night_title(self) -> str:
        """The night's name, its game and its format, in one line."""
        roster = self.roster
        if roster is None:
            return t("Club night")
        game = game_title(roster.rules.preset)
        # TRANSLATORS: a club night's title: its name, its game, its format ("Friday club: Draw, Swiss").
        title = t("{game}, {format}", game=game, format=format_name(roster.format))
        return f"{roster.name}: {title}" if roster.name else title

    def phase_line(self, roster: ClubRoster) -> str:
        """Where the night stands, as it is true for this terminal (the organiser's, or a player's)."""
        session = self.session
        if session is None or not session.organiser:
            return phase_line(roster)
        return phase_line(roster, organiser=True, round_delay=session.round_delay)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        session = self.session
        if action == "start_round":
            return (session is not None and session.organiser
                    and session.phase in (ClubPhase.GATHERING, ClubPhase.BETWEEN))
        return True

    async def action_start_round(self) -> None:
        session = self.session
        if session is None or not session.organiser:
            return
        roster = session.model.club
        if session.phase == ClubPhase.GATHERING and roster is not None and \
                sum(1 for entrant in roster.entrants if entrant.active) < 2:
            self.notify(t("A round needs at least two players in the club."), severity="warning")
            return
        await self.capicu.start_round()

    def action_leave(self) -> None:
        session = self.session
        organiser = session is not None and session.organiser
        over = session is not None and session.phase == ClubPhase.OVER

        async def answered(leave: bool | None) -> None:
            if leave:
                await self.capicu.leave_club()

        if over:
            self.run_worker(self.capicu.leave_club(), group="leave")
            return
        self.app.push_screen(LeaveScreen(False, organiser=organiser), answered)
