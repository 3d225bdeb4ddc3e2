"""The Draw family's final score: each side's points round by round, and how each round ended.

The rounds are a table that scrolls when the terminal is too short for them
(a 16-round match at 80x24), and a line under it says which rounds show and
whether there is more above or below.
"""

from __future__ import annotations

from capicu.core import DOMINO, Bonus, MatchEnded, RoundResult, View
from capicu.tui.screens.match_over import MatchOverScreen
from capicu.tui.words.describe import describe_event, side_name
from capicu.tui.words.messages import t, tc, tn
from rich.text import Text
from textual.widgets import DataTable, Footer, Static

#: Columns of the table before the sides' (round number and how it ended), and their width.
_LEAD_COLUMNS_WIDTH = 17
#: What a side's column needs at least: "+314 = 514".
_SIDE_MIN_WIDTH = 10


def round_ending(result: RoundResult) -> str:
    """How a round ended, in one word: domino, capicú, chuchazo, tranque or tie."""
    if result.winner is None:
        return tc("how a round ended", "tie")
    if result.reason != DOMINO:
        return tc("how a round ended", "tranque")
    bonuses = {bonus for bonus, _ in result.bonuses}
    if Bonus.CAPICU in bonuses:
        return tc("how a round ended", "capicú")
    if Bonus.CHUCHAZO in bonuses:
        return tc("how a round ended", "chuchazo")
    return tc("how a round ended", "domino")


class DrawMatchOverScreen(MatchOverScreen[View]):
    """The last word on a match of the Draw family."""

    # Screen CSS (not DEFAULT_CSS) so that it wins over the app's `.dialog` rules it refines.
    CSS = """
    #over-dialog {
        width: 78;
        max-height: 100%;
        padding: 0 2;
    }
    #over-dialog #over-title {
        padding: 0;
    }
    #over-winner {
        padding: 0 0 1 0;
    }
    #over-table {
        height: auto;
    }
    #over-position {
        color: $text-muted;
    }
    """

    def _winner(self, names: list[str]) -> str:
        view = self.view
        winner_side = view.winner if view.winner is not None else 0
        return describe_event(MatchEnded(winner_side, view.scores), names, view.seat)

    def _rounds_table(self, names: list[str]) -> DataTable[Text]:
        """Every round: its number, how it ended, each side's points and running total; the totals last."""
        view = self.view
        sides = view.rules.sides(view.players)
        width = max(_SIDE_MIN_WIDTH, (72 - _LEAD_COLUMNS_WIDTH) // max(1, sides) - 2)
        table: DataTable[Text] = DataTable(id="over-table", cursor_type="none", show_cursor=False)
        table.add_column(Text(t("Round")), key="round")
        table.add_column(Text(t("Ended")), key="ended")
        for side in range(sides):
            label = Text(side_name(side, names, sides, view.players, view.seat), justify="right")
            label.truncate(width, overflow="ellipsis")
            table.add_column(label, key=f"side-{side}")
        for result in view.results:
            cells = [Text(str(result.round_number), justify="right"), Text(round_ending(result))]
            for side in range(sides):
                score = result.scores[side] if side < len(result.scores) else 0
                if result.winner == side:
                    # TRANSLATORS: a round's points and the running total: "+14 = 60".
                    scored = t("+{points} = {score}", points=result.points, score=score)
                    cells.append(Text(scored, justify="right"))
                else:
                    cells.append(Text(str(score), justify="right"))
            table.add_row(*cells)
        totals = [Text(t("Total"), style="bold"), Text("")]
        totals += [Text(str(score), style="bold", justify="right") for score in view.scores]
        table.add_row(*totals, key="totals")
        return table

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        self.watch(table, "scroll_y", self._show_position, init=False)

    async def rebuild(self) -> None:
        await super().rebuild()
        self.on_mount()
        self.call_after_refresh(self._fit_rounds)

    def on_resize(self) -> None:
        self.call_after_refresh(self._fit_rounds)

    def _fit_rounds(self) -> None:
        """Give the table the rows the terminal has left, so it scrolls instead of being cut off."""
        if not self.is_attached:
            return
        box = self.query_one("#over-dialog")
        table = self.query_one(DataTable)
        footer = self.query_one(Footer)
        others = sum(child.outer_size.height for child in box.children if child is not table)
        room = self.size.height - footer.outer_size.height - box.styles.gutter.height - others
        table.styles.max_height = max(3, room)
        self.call_after_refresh(self._show_position)

    def _show_position(self) -> None:
        """Which rounds show, and whether more is above or below (once the table is laid out)."""
        if not self.is_attached:
            return
        table = self.query_one(DataTable)
        count = len(self.view.results)
        rows = table.row_count  # the rounds and the totals
        shown = max(1, table.scrollable_content_region.height - table.header_height)
        top = round(table.scroll_y)
        bottom = min(rows, top + shown)  # one past the last row in view
        if top == 0 and bottom >= rows:
            text = tn("{count} round.", "{count} rounds.", count)
        else:
            first, last = top + 1, min(bottom, count)
            if top > 0 and bottom < rows:
                text = t("Rounds {first}-{last} of {count}; more above and below: arrows, PgUp, PgDn.",
                         first=first, last=last, count=count)
            elif top > 0:
                text = t("Rounds {first}-{last} of {count} and the totals; more above: up arrow or PgUp.",
                         first=first, last=last, count=count)
            else:
                text = t("Rounds {first}-{last} of {count}; more below: down arrow or PgDn.",
                         first=first, last=last, count=count)
        self.query_one("#over-position", Static).update(text)
