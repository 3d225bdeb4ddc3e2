"""A match of Mexican Train is over: the winner (lowest total, ties shared), every round's counts, totals.

The rounds are a table that takes the rows the terminal has and scrolls (13
rounds and eight players at 80x24); the line under it says so in words, since
scrollbars are hidden in ASCII mode.
"""

from __future__ import annotations

from typing import ClassVar

from capicu.core import MexicanView
from capicu.core.actions import Train
from capicu.tui.game import JoinGame
from capicu.tui.screens.base import CapicuModalScreen
from capicu.tui.widgets.train_lanes import lane_keys, lane_order
from capicu.tui.words.describe import seat_name, you_title
from capicu.tui.words.describe_trains import describe_train_winners
from capicu.tui.words.messages import N_, t, tn
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import DataTable, Footer, Static


class TrainMatchOverScreen(CapicuModalScreen[None]):
    """The last word on a match of Mexican Train."""

    CSS = """
    #train-over-dialog {
        width: 100%;
        /* As tall as the rounds need, up to the screen (then the table scrolls): not a box mostly empty. */
        height: auto;
        max-height: 100%;
        padding: 0 1;
    }
    #train-over-winner {
        padding: 0 0 1 0;
    }
    #train-over-table {
        height: auto;
        /* Said in words under the table: a scrollbar is hidden in ASCII mode and faint in 16 colours. */
        scrollbar-size: 0 0;
    }
    #train-over-position {
        color: $text-muted;
    }
    """

    AUTO_FOCUS = "#train-over-table"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("a", "again", N_("Play again")),
        Binding("escape,q", "leave", N_("Leave"), key_display="esc/q"),
    ]

    def __init__(self, view: MexicanView) -> None:
        super().__init__()
        self.view = view

    def _names(self) -> list[str]:
        game = self.capicu.game
        return [game.seat_name(s) if game else t("seat {number}", number=s + 1)
                for s in range(self.view.players)]

    def compose(self) -> ComposeResult:
        view = self.view
        names = self._names()
        winners = view.winners or ()
        with Vertical(id="train-over-dialog", classes="dialog"):
            yield Static(t("The match is over"), id="train-over-title", classes="screen-title")
            winner = describe_train_winners(winners, view.totals, names, view.seat)
            yield Static(winner, id="train-over-winner", markup=False)
            yield self._rounds_table(names)
            yield Static(tn("{count} round: the arrows and PgUp/PgDn scroll.",
                            "{count} rounds: the arrows and PgUp/PgDn scroll.", len(view.results)),
                         id="train-over-position", markup=False)
        yield Footer()

    def on_mount(self) -> None:
        self._fit_table()

    def on_resize(self) -> None:
        self._fit_table()

    def _fit_table(self) -> None:
        """The rounds' table takes the rows the rest of the box and the footer leave, and scrolls."""
        # The box's border (2), title (1), winner and its gap (2), the line under the table (1), footer (1).
        self.query_one("#train-over-table", DataTable).styles.max_height = max(3, self.app.size.height - 7)

    def _rounds_table(self, names: list[str]) -> DataTable[Text]:
        """Every round: its engine and each player's count; the totals last, the winners' bold."""
        view = self.view
        table: DataTable[Text] = DataTable(id="train-over-table", cursor_type="row", show_cursor=False)
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

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "again":
            game = self.capicu.game
            return game is not None and not isinstance(game.request, JoinGame)
        return True

    async def action_again(self) -> None:
        await self.capicu.play_again()

    async def action_leave(self) -> None:
        await self.capicu.leave_game()
