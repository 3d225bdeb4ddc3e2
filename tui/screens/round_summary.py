"""The end of a round: every hand revealed, the counts, who scored what and why."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from capicu.core import RoundResult, View
from capicu.tui.describe import describe_result
from capicu.tui.messages import add_messages, t
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Footer, Static

if TYPE_CHECKING:
    from capicu.tui.app import CapicuApp

add_messages({
    "summary.title": "Round {round} is over",
    "summary.next": "Press Enter for the next round.",
    "summary.last": "Press Enter to see the final score.",
    "key.next_round": "Continue",
})


class RoundSummaryScreen(ModalScreen[None]):
    """Shown over the table when a round ends; the next deal waits beneath it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter,space", "close", t("key.next_round"), key_display="enter"),
        Binding("escape,ctrl+b", "close", t("key.back"), key_display="esc/^b", show=False),
    ]

    def __init__(self, result: RoundResult, view: View) -> None:
        super().__init__()
        self.result = result
        self.view = view
        #: False for the first moments, so an Enter meant for the round's last
        #: tile does not skip the summary unread.
        self.ready = False

    @property
    def capicu(self) -> CapicuApp:
        return self.app  # type: ignore[return-value]

    def compose(self) -> ComposeResult:
        game = self.capicu.game
        players = self.view.players
        names = [game.seat_name(s) if game else t("word.seat", number=s + 1) for s in range(players)]
        if game is not None and game.seat is not None:
            names[game.seat] = t("word.you_title")
        lines = describe_result(self.result, names, self.view.rules, players)
        with VerticalScroll(id="summary-box", classes="dialog"):
            yield Static(t("summary.title", round=self.result.round_number), classes="screen-title")
            yield Static("\n".join(lines), id="summary-lines", markup=False)
            last = self.view.match_over
            yield Static(t("summary.last") if last else t("summary.next"), classes="hint")
        yield Footer()

    def on_mount(self) -> None:
        self.set_timer(0.6, self._become_ready)

    def _become_ready(self) -> None:
        self.ready = True

    def action_close(self) -> None:
        if self.ready:
            self.dismiss()
