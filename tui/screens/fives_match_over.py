"""Fives and Threes' final score: who reached the target, each hand's points per side, the totals.

A row a hand: how it ended (the go to a side, blocked, the target reached in
the middle of it) and each side's points made in it, the go included; the
totals last, the winner's bold. The rows take what the terminal has and scroll,
which the line under them says in words (scrollbars are hidden in ASCII mode).
"""

from __future__ import annotations

from capicu.core.fives.events import FivesRoundResult
from capicu.core.fives.state import FivesOutcome
from capicu.core.fives.view import FivesView
from capicu.tui.screens.match_over import MatchOverScreen
from capicu.tui.words.describe import seat_name
from capicu.tui.words.describe_fives import describe_fives_winner, fives_side
from capicu.tui.words.messages import t, tn
from rich.text import Text
from textual.widgets import DataTable


class FivesMatchOverScreen(MatchOverScreen[FivesView]):
    """The last word on a match of Fives and Threes."""

    CSS = """
    #over-dialog {
        width: 100%;
        height: auto;
        max-height: 100%;
        padding: 0 1;
    }
    #over-winner {
        padding: 0 0 1 0;
    }
    #over-table {
        height: auto;
        scrollbar-size: 0 0;
    }
    #over-position {
        color: $text-muted;
    }
    """

    def _winner(self, names: list[str]) -> str:
        view = self.view
        if view.winner is None:
            return ""
        return describe_fives_winner(view.winner, view.scores, names, view.seat, rules=view.rules,
                                     players=view.players)

    def on_mount(self) -> None:
        self._fit_table()

    def on_resize(self) -> None:
        self._fit_table()

    def _fit_table(self) -> None:
        """The hands' table takes the rows the rest of the box and the footer leave, and scrolls."""
        self.query_one("#over-table", DataTable).styles.max_height = max(3, self.app.size.height - 7)

    def _how(self, result: FivesRoundResult, names: list[str]) -> str:
        """How a hand ended, in a few words for its row."""
        view = self.view
        if result.reason is FivesOutcome.BLOCKED:
            return t("blocked")
        if result.reason is FivesOutcome.TARGET_REACHED:
            return t("{target} reached", target=view.target)
        if result.go_side is None:
            return ""
        last = seat_name(names, result.last_player) if result.last_player >= 0 else "?"
        return t("{name} out", name=last)

    def _rounds_table(self, names: list[str]) -> DataTable[Text]:
        """Every hand: how it ended and each side's points in it; the totals last, the winner's bold."""
        view = self.view
        table: DataTable[Text] = DataTable(id="over-table", cursor_type="row", show_cursor=False)
        table.add_column(Text(t("Hand")), key="hand")
        table.add_column(Text(t("How it ended")), key="how")
        sides = len(view.scores)
        width = max(6, (self.app.size.width - 30) // max(1, sides) - 2)
        for side in range(sides):
            label = Text(fives_side(side, view.rules, view.players, names, view.seat), justify="right")
            label.truncate(width, overflow="crop")
            table.add_column(label, key=f"side-{side}", width=width)
        for result in view.results:
            cells = [Text(f"{result.round_number:>2}"), Text(self._how(result, names))]
            for side in range(sides):
                points = result.points[side] if side < len(result.points) else 0
                go = "+" if result.go and result.go_side == side else ""
                cells.append(Text(f"{points}{go}", justify="right"))
            table.add_row(*cells)
        totals = [Text(t("Total"), style="bold"), Text("")]
        totals += [Text(str(score), style="bold" if side == view.winner else "", justify="right")
                   for side, score in enumerate(view.scores)]
        table.add_row(*totals, key="totals")
        return table

    def _position(self) -> str:
        return tn("{count} hand (+: the go): the arrows and PgUp/PgDn scroll.",
                  "{count} hands (+: the go): the arrows and PgUp/PgDn scroll.", len(self.view.results))
