"""The club night's lobby: who has joined as they arrive, how others join, and the organiser's start."""

from __future__ import annotations

from capicu.net.model import Change
from capicu.net.protocol import NAME_LIMIT, ClubEntrant, ClubRoster
from capicu.tui.screens.club_base import ClubScreen
from capicu.tui.widgets.event_log import EventLog
from capicu.tui.widgets.fitted_table import fill_fitted
from capicu.tui.words.describe import display_text
from capicu.tui.words.describe_club import draw_lines
from capicu.tui.words.messages import later, t, tc
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import DataTable, Footer, Static


class ClubLobbyScreen(ClubScreen):
    """Shown from joining the club until its first round is drawn."""

    def __init__(self) -> None:
        super().__init__()
        #: The entrants of the last roster taken, by id (to tell who just arrived or left); None: none yet.
        self.entrants_shown: dict[int, ClubEntrant] | None = None

    def compose(self) -> ComposeResult:
        with Vertical(id="club-lobby-box"):
            yield Static(self.night_title(), id="club-title", classes="screen-title", markup=False)
            yield Static("", id="club-join", markup=False)
            yield Static("", id="club-phase", markup=False)
            roster: DataTable[str] = DataTable(id="club-roster", cursor_type="none", zebra_stripes=True)
            yield roster
            yield Static("", id="club-draw", markup=False)
            yield EventLog(id="club-news", max_lines=100)
        yield Footer()

    def on_mount(self) -> None:
        self.watch(self.app, "hosted_at", self._show_join)
        self.watch(self.app, "ssh_join", self._show_join)
        super().on_mount()

    def _show_join(self, _: object = None) -> None:
        from capicu.tui.screens.how_to_join import how_to_join_lines

        lines = how_to_join_lines(self.capicu)
        self.query_one("#club-join", Static).update("\n".join(lines))
        self.refresh_bindings()

    def club_changed(self, change: Change) -> None:
        taken = change.message
        if isinstance(taken, ClubRoster) and self.is_mounted and self.entrants_shown is not None:
            news = self.query_one(EventLog)
            for entrant in taken.entrants:
                was = self.entrants_shown.get(entrant.id)
                name = display_text(entrant.name, NAME_LIMIT)
                if was is None:
                    news.add_notice(later("{name} joined the club.", name=name))
                elif was.active and not entrant.active:
                    news.add_notice(later("{name} left the club.", name=name))
        if isinstance(taken, ClubRoster):
            # From the messages as they are taken: the model may already hold later ones.
            self.entrants_shown = {entrant.id: entrant for entrant in taken.entrants}
        super().club_changed(change)

    def language_changed(self) -> None:
        self.query_one(EventLog).reword()
        self._show_join()
        super().language_changed()

    def show_club(self) -> None:
        roster = self.roster
        self.query_one("#club-title", Static).update(self.night_title())
        if roster is None:
            self.query_one("#club-phase", Static).update(t("Connecting..."))
            return
        if self.entrants_shown is None:
            self.entrants_shown = {entrant.id: entrant for entrant in roster.entrants}
        self.query_one("#club-phase", Static).update(self.phase_line(roster))
        rows = []
        for entrant in roster.entrants:
            name = display_text(entrant.name, NAME_LIMIT)
            if entrant.id == roster.you:
                name = t("{name} (you)", name=name)
            link = (tc("a club's entrant who left for good", "left") if not entrant.active else
                    t("connected") if entrant.connected else tc("not connected", "away"))
            rows.append((str(entrant.id + 1), name, link))
        fill_fitted(self.query_one("#club-roster", DataTable), (t("#"), t("Name"), t("Link")), rows)
        session = self.session
        drawn = session.model.club_draw if session is not None else None
        self.query_one("#club-draw", Static).update("\n".join(draw_lines(drawn, roster)) if drawn else "")
