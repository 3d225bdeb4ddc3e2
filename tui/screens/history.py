"""History: how the player did in every finished match kept here, this year or all time.

The figures are net/store/history.py's, worded by tui/words/describe_history.py (the same as
``capicu history``): a summary, a table by opponent or by game (or a host's table
standings), and a chart of the share of matches won over time, drawn by plotext
(textual-plotext, Textualize's widget). The player is the name saved in Settings,
else the seats this machine's player sat in.
"""

from __future__ import annotations

from datetime import UTC, datetime
from enum import StrEnum
from pathlib import Path
from typing import ClassVar

from capicu.net.store.history import MY_SEATS, History, HistoryError, MatchResult, open_history, this_year
from capicu.tui.prefs.settings import records_dir
from capicu.tui.screens.base import SCREENS_CSS, CapicuScreen
from capicu.tui.words.describe_history import (
    FigureTable,
    describe_history_problem,
    history_title,
    opponents_table,
    period_title,
    presets_table,
    standings_table,
    summary_sentence,
)
from capicu.tui.words.messages import N_, t
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.reactive import var
from textual.widgets import DataTable, Footer, Static
from textual_plotext import PlotextPlot


class Breakdown(StrEnum):
    """What the table shows: the player's figures by opponent or by game, or the table's standings."""

    OPPONENT = "opponent"
    GAME = "game"
    STANDINGS = "standings"


class HistoryScreen(CapicuScreen[None]):
    """The player's figures, from the history beside the records (opened while the screen is up)."""

    CSS_PATH = SCREENS_CSS

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "toggle_year", N_("This year / all time")),
        Binding("o", "show('opponent')", N_("By opponent")),
        Binding("g", "show('game')", N_("By game")),
        Binding("s", "show('standings')", N_("Table standings")),
        Binding("escape", "back", N_("Back"), key_display="esc"),
    ]

    #: Only this year's matches (the year of the clock the screen was given).
    this_year_only: var[bool] = var(False)
    breakdown: var[Breakdown] = var(Breakdown.OPPONENT)

    def __init__(self, folder: Path | None = None, *, now: datetime | None = None) -> None:
        super().__init__()
        self._folder = folder if folder is not None else records_dir()
        self._year = this_year(now or datetime.now(UTC))
        self._history: History | None = None
        self._unusable: str | None = None
        #: The history was opened (or found unusable): there is something to show.
        self._opened = False

    def compose(self) -> ComposeResult:
        with Vertical(id="history-box"):
            yield Static(id="history-title", classes="screen-title")
            yield Static(id="history-summary")
            yield DataTable(id="history-table", cursor_type="row", zebra_stripes=True)
            yield PlotextPlot(id="history-chart")
        yield Footer()

    def on_mount(self) -> None:
        try:
            self._history, problem = open_history(self._folder)
        except HistoryError as exc:
            self._unusable = describe_history_problem(exc.problem.code, exc.problem.values)
        else:
            if problem is not None:
                self.notify(describe_history_problem(problem.code, problem.values), severity="warning",
                            timeout=10)
        self._opened = True
        self.show_figures()
        self.query_one(DataTable).focus()

    def on_unmount(self) -> None:
        if self._history is not None:
            self._history.close()
            self._history = None

    # -- following the choices ------------------------------------------------------------

    @property
    def year(self) -> int | None:
        return self._year if self.this_year_only else None

    def watch_this_year_only(self) -> None:
        self.show_figures()

    def watch_breakdown(self) -> None:
        self.show_figures()

    def action_toggle_year(self) -> None:
        self.this_year_only = not self.this_year_only

    def action_show(self, breakdown: str) -> None:
        self.breakdown = Breakdown(breakdown)

    def action_back(self) -> None:
        self.dismiss()

    def display_changed(self) -> None:
        self.show_figures()

    async def rebuild(self) -> None:
        await super().rebuild()
        self.show_figures()

    # -- showing ----------------------------------------------------------------------------

    def show_figures(self) -> None:
        """Show the figures the choices ask for (the title, the summary, the table, the chart)."""
        if not self._opened:
            return
        title = self.query_one("#history-title", Static)
        summary = self.query_one("#history-summary", Static)
        table = self.query_one(DataTable)
        history = self._history
        if history is None:
            title.update(t("History"))
            summary.update(self._unusable or "")
            self._fill(table, FigureTable((), ()))
            self._chart([])
            return
        year = self.year
        if self.breakdown is Breakdown.STANDINGS:
            title.update(t("Standings at this table, {period}", period=period_title(year)))
            standings = history.standings(year=year)
            summary.update("" if standings else t("No match was hosted at this table."))
            self._fill(table, standings_table(standings))
        else:
            title.update(history_title(MY_SEATS, year))
            summary.update(summary_sentence(history.figures(MY_SEATS, year=year)))
            self._fill(table, opponents_table(history.by_opponent(MY_SEATS, year=year))
                       if self.breakdown is Breakdown.OPPONENT
                       else presets_table(history.by_preset(MY_SEATS, year=year)))
        self._chart(history.results(MY_SEATS, year=year))

    def _fill(self, table: DataTable[str | Text], figures: FigureTable) -> None:
        table.clear(columns=True)
        table.add_columns(*(title if column == 0 else Text(title, justify="right")
                            for column, title in enumerate(figures.columns)))
        # Names to the left, figures to the right.
        table.add_rows([[cell if column == 0 else Text(cell, justify="right")
                         for column, cell in enumerate(row)] for row in figures.rows])

    def _chart(self, results: list[MatchResult]) -> None:
        """The share of matches won so far, after each match in the order they ended."""
        chart = self.query_one(PlotextPlot)
        chart.display = len(results) >= 2
        plot = chart.plt
        plot.clear_figure()
        won = 0
        shares: list[float] = []
        for number, result in enumerate(results, 1):
            won += result.won
            shares.append(100 * won / number)
        # Braille dots draw the finest line; ASCII mode keeps to a character every terminal has.
        marker = "*" if self.capicu.ascii_mode else "braille"
        plot.plot(list(range(1, len(shares) + 1)), shares, marker=marker)
        plot.ylim(0, 100)
        plot.yticks([0, 25, 50, 75, 100])
        step = max(1, len(shares) // 6)
        plot.xticks(list(range(1, len(shares) + 1, step)))
        plot.title(t("Matches won so far (%)"))
        plot.xlabel(t("Match"))
        chart.refresh()
