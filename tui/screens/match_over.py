"""The match is over: the winner in one sentence, every round's points and the totals, and play again.

Written once for every game: the dialog, its keys (play again, leave), the
seats' names. Each game gives its words: the winner's sentence, the table of
its rounds (`MatchOverScreen` subclasses: tui/screens/draw_match_over.py,
tui/screens/mexican_match_over.py), and the line under it that says which
rounds show: scrollbars are hidden in ASCII mode and hard to see in 16
colours, words are not.
"""

from __future__ import annotations

from typing import ClassVar, Generic, TypeVar

from capicu.net.protocol import GameView
from capicu.tui.game import JoinGame
from capicu.tui.screens.base import CapicuModalScreen
from capicu.tui.words.messages import N_, t
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import DataTable, Footer, Static

#: The view of the finished match.
ViewT = TypeVar("ViewT", bound=GameView)


class MatchOverScreen(CapicuModalScreen[None], Generic[ViewT]):
    """The last word on a match."""

    AUTO_FOCUS = "#over-table"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("a", "again", N_("Play again")),
        # Not Ctrl+B: inside tmux it is the prefix and never reaches the app.
        Binding("escape,q", "leave", N_("Leave"), key_display="esc/q"),
    ]

    def __init__(self, view: ViewT) -> None:
        super().__init__()
        self.view = view

    def _names(self) -> list[str]:
        game = self.capicu.game
        return [game.seat_name(s) if game else t("seat {number}", number=s + 1)
                for s in range(self.view.players)]

    def compose(self) -> ComposeResult:
        names = self._names()
        with Vertical(id="over-dialog", classes="dialog"):
            yield Static(t("The match is over"), id="over-title", classes="screen-title")
            yield Static(self._winner(names), id="over-winner", markup=False)
            yield self._rounds_table(names)
            yield Static(self._position(), id="over-position", markup=False)
        yield Footer()

    def _winner(self, names: list[str]) -> str:
        """Who won the match, in the game's words."""
        return ""

    def _rounds_table(self, names: list[str]) -> DataTable[Text]:
        """Every round and the totals, as the game counts them (its id: ``over-table``)."""
        return DataTable(id="over-table")

    def _position(self) -> str:
        """The line under the rounds: which of them show (the game may follow the scrolling)."""
        return ""

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "again":
            game = self.capicu.game
            return game is not None and not isinstance(game.request, JoinGame)
        return True

    async def action_again(self) -> None:
        await self.capicu.play_again()

    async def action_leave(self) -> None:
        await self.capicu.leave_game()
