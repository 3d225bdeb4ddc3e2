"""The club night's standings, live between and during rounds, and the round's tables.

Everybody in the club sees them: matches won, then the points difference, then the
format's tie-breaks, with who met whom (the host orders them; `StandingsTable` shows
them). Under them, the round's tables and how each stands; the organiser draws the
next round from here (``s``) and closes a late table (``c`` on the table chosen).
At the night's end they are the final standings, and stay until the player leaves.
"""

from __future__ import annotations

from typing import ClassVar

from capicu.net.model import Change
from capicu.net.protocol import ClubPhase, ClubTable, TableState
from capicu.tui.screens.base import SCREENS_CSS, CapicuModalScreen
from capicu.tui.screens.club_base import ClubScreen
from capicu.tui.screens.table import YesNoScreen
from capicu.tui.widgets.standings_table import StandingsTable
from capicu.tui.words.describe_club import (
    entrant_names,
    standings_heading,
    standings_legend,
    table_line,
    table_players,
    table_state_name,
)
from capicu.tui.words.messages import N_, t
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import DataTable, Footer, Static


class ClubStandingsScreen(ClubScreen):
    """The standings and the round's tables; the organiser's keys for the next round and late tables."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("t", "my_table", N_("Back to my table")),
        Binding("c", "close_table", N_("Close table")),
        Binding("w", "watch_table", N_("Watch table")),
        Binding("tab", "app.focus_next", N_("Next list"), show=False),
    ]

    def compose(self) -> ComposeResult:
        with Vertical(id="club-standings-box"):
            yield Static("", id="club-title", classes="screen-title", markup=False)
            yield Static("", id="club-phase", markup=False)
            yield StandingsTable(id="club-standings")
            yield Static("", id="club-legend", markup=False)
            tables: DataTable[str] = DataTable(id="club-tables", cursor_type="row", zebra_stripes=True)
            yield tables
        yield Footer()

    def show_club(self) -> None:
        session = self.session
        roster = self.roster
        standings = session.model.standings if session is not None else None
        if roster is None:
            return
        final = standings.final if standings is not None else roster.phase == ClubPhase.OVER
        heading = standings_heading(standings.round if standings is not None else 0, roster.rounds, final)
        self.query_one("#club-title", Static).update(f"{heading}  ·  {self.night_title()}")
        phase = self.phase_line(roster)
        if session is not None and session.organiser and roster.phase == ClubPhase.PLAYING:
            phase += " " + t("A late table: choose it below and press c to close it as it stands.")
        back_to = self.capicu.table_to_go_back_to()
        mine = next((table for table in roster.tables if table.name == back_to), None)
        if mine is not None:
            phase += " " + t("The computer plays your seat at table {number}: press t to take it back.",
                             number=mine.number)
        self.query_one("#club-phase", Static).update(phase)
        board = self.query_one(StandingsTable)
        board.show(standings.rows if standings is not None else (), roster.format, roster.you)
        self.query_one("#club-legend", Static).update(standings_legend(board.keys))
        self._show_tables(roster.tables)

    def _show_tables(self, round_tables: tuple[ClubTable, ...]) -> None:
        roster = self.roster
        name = entrant_names(roster)
        tables = self.query_one("#club-tables", DataTable)
        cursor = tables.cursor_row
        tables.clear(columns=True)
        # Widths set, not measured: the list is remade at every change and must not jump about.
        for heading, width in ((t("Table"), 5), (t("Players"), 42), (t("State"), 9), (t("Points"), 11)):
            tables.add_column(heading, width=max(width, len(heading)))
        for table in round_tables:
            points = "-".join(str(points) for points in table.points)
            tables.add_row(str(table.number), table_players(table, name), table_state_name(table.state),
                           points, key=table.name)
        if round_tables:
            tables.move_cursor(row=min(max(cursor, 0), len(round_tables) - 1))

    def _chosen_table(self) -> ClubTable | None:
        roster = self.roster
        if roster is None or not roster.tables:
            return None
        row = self.query_one("#club-tables", DataTable).cursor_row
        return roster.tables[row] if 0 <= row < len(roster.tables) else None

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "my_table":
            return self.capicu.table_to_go_back_to() is not None
        if action == "watch_table":
            # Not our own seat's table, which we go back to (t), rather than watch.
            chosen = self._chosen_table()
            return (self.capicu.can_watch() and chosen is not None
                    and chosen.name != self.capicu.table_to_go_back_to())
        if action == "close_table":
            session = self.session
            return session is not None and session.organiser and session.phase == ClubPhase.PLAYING
        return super().check_action(action, parameters)

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        """The keys offered follow the table chosen (ours is gone back to, not watched)."""
        self.refresh_bindings()

    def action_my_table(self) -> None:
        """Back to the seat of this round that we left (the computer played it meanwhile)."""
        self.capicu.go_back_to_table()

    async def action_watch_table(self) -> None:
        """Watch the table chosen in the round's list, as a spectator."""
        table = self._chosen_table()
        if table is None or table.name == self.capicu.table_to_go_back_to():
            return
        if table.state != TableState.PLAYING:
            self.notify(t("Table {number} is not playing: there is nothing to watch.", number=table.number))
            return
        await self.capicu.watch_table(table.name)

    def action_close_table(self) -> None:
        table = self._chosen_table()
        if table is None:
            return
        if table.state != TableState.PLAYING:
            self.notify(t("Table {number} is not playing: there is nothing to close.", number=table.number))
            return
        line = table_line(table, entrant_names(self.roster))

        async def answered(close: bool | None) -> None:
            if close and table is not None:
                await self.capicu.close_table(table.name)

        self.app.push_screen(CloseTableScreen(line), answered)


class CloseTableScreen(YesNoScreen):
    """Close a late table? Its match ends with its score as it stands."""

    CSS_PATH = SCREENS_CSS

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "close", N_("Close it")),
        Binding("n,escape,q", "keep", N_("Keep playing"), key_display="n/esc"),
    ]
    YES_ACTION = "close"

    def __init__(self, table: str) -> None:
        super().__init__()
        self.table = table

    def compose(self) -> ComposeResult:
        with Vertical(id="close-table-box", classes="dialog"):
            # TRANSLATORS: {yes} is the key that says yes (y; in Spanish s), shown as the reader types it.
            yield Static(t("Close this table? Press {yes} to close it; n or Esc to let it play on.",
                           yes=self.yes), classes="screen-title")
            yield Static(self.table, markup=False)
            yield Static(t("Its match ends now, with its score as it stands, and counts so in the "
                           "standings."))
        yield Footer()

    def action_close(self) -> None:
        self.dismiss(True)

    def action_keep(self) -> None:
        self.dismiss(False)


class TakeSeatBackScreen(YesNoScreen):
    """Back in the club during a round: the computer plays our seat; take it back, or let it play on."""

    CSS_PATH = SCREENS_CSS

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "answer(True)", N_("Take it back")),
        Binding("n,escape", "answer(False)", N_("Let the computer play"), key_display="n/esc"),
    ]
    YES_ACTION = "answer(True)"

    def __init__(self, number: int) -> None:
        super().__init__()
        #: The table's number in the round.
        self.number = number

    def compose(self) -> ComposeResult:
        with Vertical(id="take-seat-box", classes="dialog"):
            # TRANSLATORS: {yes} is the key that says yes (y; in Spanish s), shown as the reader types it.
            yield Static(t("Your seat at table {number} is being played by the computer. Take it back? "
                           "{yes}/n", number=self.number, yes=self.yes), classes="screen-title", markup=False)
            yield Static(t("n leaves the computer playing it; press t on the standings to take it later."))
        yield Footer()

    def action_answer(self, take: bool) -> None:
        self.dismiss(take)


class StandingsOverlay(CapicuModalScreen[None]):
    """The club's standings over the table being played (F2, or the palette's Club standings): live."""

    CSS_PATH = SCREENS_CSS

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,enter,f2", "close", N_("Back to the table"), key_display="esc"),
    ]

    def compose(self) -> ComposeResult:
        with Vertical(id="standings-overlay", classes="dialog"):
            yield Static("", id="club-title", classes="screen-title", markup=False)
            yield StandingsTable(id="club-standings")
            yield Static("", id="club-legend", markup=False)
        yield Footer()

    def on_mount(self) -> None:
        super().on_mount()
        self.show_club()

    def club_changed(self, change: Change) -> None:
        if self.is_mounted:
            self.show_club()

    def language_changed(self) -> None:
        self.show_club()

    def show_club(self) -> None:
        session = self.capicu.club
        roster = session.model.club if session is not None else None
        standings = session.model.standings if session is not None else None
        if roster is None:
            return
        final = standings.final if standings is not None else roster.phase == ClubPhase.OVER
        self.query_one("#club-title", Static).update(
            standings_heading(standings.round if standings is not None else 0, roster.rounds, final))
        board = self.query_one(StandingsTable)
        board.show(standings.rows if standings is not None else (), roster.format, roster.you)
        self.query_one("#club-legend", Static).update(standings_legend(board.keys))

    def action_close(self) -> None:
        self.dismiss()
