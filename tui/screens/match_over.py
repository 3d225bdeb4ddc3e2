"""The match is won: the winner, the totals round by round, and play again."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from capicu.core import View
from capicu.tui.describe import side_members
from capicu.tui.messages import add_messages, t
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import DataTable, Footer, Static

if TYPE_CHECKING:
    from capicu.tui.app import CapicuApp

add_messages({
    "over.title": "The match is over",
    "over.winner": "{name} wins the match, {score} points to reach {target}.",
    "over.winner_you": "You win the match: {score} points to reach {target}!",
    "over.col.round": "Round",
    "over.tie": "tie",
    "over.again": "Press a to play again, or Esc to leave.",
    "over.again_join": "Press Esc to leave the table.",
    "key.again": "Play again",
})


class MatchOverScreen(ModalScreen[None]):
    """The last word on a match."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("a", "again", t("key.again")),
        Binding("escape,ctrl+b", "leave", t("key.leave"), key_display="esc/^b"),
    ]

    def __init__(self, view: View) -> None:
        super().__init__()
        self.view = view

    @property
    def capicu(self) -> CapicuApp:
        return self.app  # type: ignore[return-value]

    def _side_label(self, side: int) -> str:
        view = self.view
        sides = view.rules.sides(view.players)
        game = self.capicu.game
        seats = side_members(side, sides, view.players)
        names = []
        for seat in seats:
            if game is not None and seat == game.seat:
                names.append(t("word.you_title"))
            else:
                names.append(game.seat_name(seat) if game else t("word.seat", number=seat + 1))
        return " & ".join(names)

    def compose(self) -> ComposeResult:
        view = self.view
        winner = view.winner if view.winner is not None else 0
        game = self.capicu.game
        sides = view.rules.sides(view.players)
        mine = game is not None and game.seat is not None and view.side_of(game.seat) == winner
        score = view.scores[winner] if winner < len(view.scores) else 0
        with Vertical(id="over-box", classes="dialog"):
            yield Static(t("over.title"), classes="screen-title")
            if mine:
                yield Static(t("over.winner_you", score=score, target=view.target), id="over-winner")
            else:
                yield Static(t("over.winner", name=self._side_label(winner), score=score,
                               target=view.target), id="over-winner")
            table: DataTable[str] = DataTable(id="over-rounds", cursor_type="none", zebra_stripes=True)
            table.add_columns(t("over.col.round"), *(self._side_label(s) for s in range(sides)))
            for result in view.results:
                cells = []
                for side in range(sides):
                    total = str(result.scores[side])
                    cells.append(f"+{result.points} = {total}" if result.winner == side else total)
                table.add_row(str(result.round_number), *cells)
            yield table
            can_again = game is not None and type(game.request).__name__ != "JoinGame"
            yield Static(t("over.again") if can_again else t("over.again_join"), classes="hint")
        yield Footer()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "again":
            game = self.capicu.game
            return game is not None and type(game.request).__name__ != "JoinGame"
        return True

    async def action_again(self) -> None:
        await self.capicu.play_again()

    async def action_leave(self) -> None:
        await self.capicu.leave_game()
