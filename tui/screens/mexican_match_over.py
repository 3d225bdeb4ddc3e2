"""Mexican Train's final score: the winner (lowest total, ties shared), every round's counts, totals.

The rounds are a table that takes the rows the terminal has and scrolls (13
rounds and eight players at 80x24); the line under it says so in words, since
scrollbars are hidden in ASCII mode.
"""

from __future__ import annotations

from capicu.core import MexicanView
from capicu.core.actions import Train
from capicu.tui.screens.match_over import MatchOverScreen
from capicu.tui.widgets.train_lanes import lane_keys, lane_order
from capicu.tui.words.describe import seat_name, you_title
from capicu.tui.words.describe_trains import describe_train_winners
from capicu.tui.words.messages import t, tn
from rich.text import Text
from textual.widgets import DataTable


class MexicanMatchOverScreen(MatchOverScreen[MexicanView]):
    """The last word on a match of Mexican Train."""

    CSS = """
    #over-dialog {
        width: 100%;
        /* As tall as the rounds need, up to the screen (then the table scrolls): not a box mostly empty. */
        height: auto;
        max-height: 100%;
        padding: 0 1;
    }
    #over-winner {
        padding: 0 0 1 0;
    }
    #over-table {
        height: auto;
        /* Said in words under the table: a scrollbar is hidden in ASCII mode and faint in 16 colours. */
        scrollbar-size: 0 0;
    }
    #over-position {
        color: $text-muted;
    }
    """

    def _winner(self, names: list[str]) -> str:
        view = self.view
        return describe_train_winners(view.winners or (), view.totals, names, view.seat)

    def on_mount(self) -> None:
        self._fit_table()

    def on_resize(self) -> None:
        self._fit_table()

    def _fit_table(self) -> None:
        """The rounds' table takes the rows the rest of the box and the footer leave, and scrolls."""
        # The box's border (2), title (1), winner and its gap (2), the line under the table (1), footer (1).
        self.query_one("#over-table", DataTable).styles.max_height = max(3, self.app.size.height - 7)

    def _rounds_table(self, names: list[str]) -> DataTable[Text]:
        """Every round: its engine and each player's count; the totals last, the winners' bold."""
        view = self.view
        table: DataTable[Text] = DataTable(id="over-table", cursor_type="row", show_cursor=False)
        table.add_column(Text(t("Round")), key="round")
        # Each column headed by its seat's number (as the table's lanes are) and as much of the name as fits.
        # In the lanes' order, with their keys: you first, then the others in turn order.
        width = max(4, (self.app.size.width - 16) // max(1, view.players) - 2)
        keys = lane_keys(view)
        seats = [train.owner for train in lane_order(view) if not train.is_mexican]
        for seat in seats:
            name = you_title() if seat == view.seat else seat_name(names, seat)
            label = Text(f"{keys[Train(seat)]} {name}", justify="right")
            label.truncate(width, overflow="crop")
            table.add_column(label, key=f"seat-{seat}", width=width)
        for result in view.results:
            cells = [Text(f"{result.round_number:>2} {result.engine}")]
            cells += [Text(str(result.counts[seat]), justify="right") for seat in seats]
            table.add_row(*cells)
        winners = set(view.winners or ())
        totals = [Text(t("Total"), style="bold")]
        totals += [Text(str(view.totals[seat]), style="bold" if seat in winners else "", justify="right")
                   for seat in seats]
        table.add_row(*totals, key="totals")
        return table

    def _position(self) -> str:
        return tn("{count} round: the arrows and PgUp/PgDn scroll.",
                  "{count} rounds: the arrows and PgUp/PgDn scroll.", len(self.view.results))
