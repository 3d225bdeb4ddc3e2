"""The coach's dialogs over the replay: which player to coach, and the match's summary.

The analysis itself is core's (core/ai/coach.py) and its words tui/words/describe_coach.py's;
the replay screen runs it and shows it (tui/screens/replay.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from capicu.core.ai.coach import Analysis
from capicu.tui.screens.base import SCREENS_CSS, CapicuModalScreen
from capicu.tui.words.describe_coach import describe_summary
from capicu.tui.words.messages import N_, t
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import Footer, OptionList, Static
from textual.widgets.option_list import Option


class CoachSeatScreen(CapicuModalScreen[int | None]):
    """Which player the coach looks at: their seat; -1 for no coach; None (Esc) to leave it as it is."""

    CSS_PATH = SCREENS_CSS

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q", "cancel", N_("Cancel"), key_display="esc"),
    ]

    def __init__(self, names: Sequence[str], *, analysed: frozenset[int] = frozenset()) -> None:
        super().__init__()
        self.names = list(names)
        #: Seats whose analysis is kept already (shown at once).
        self.analysed = analysed

    def compose(self) -> ComposeResult:
        with Vertical(id="coach-seat-box", classes="dialog"):
            yield Static(t("Coach which player? The coach judges each of their decisions from what "
                           "they knew then."), classes="screen-title")
            yield OptionList(*(Option(t("{name} (analysed)", name=name) if seat in self.analysed else name,
                                      id=str(seat)) for seat, name in enumerate(self.names)),
                             Option(t("No coach"), id="off"), id="coach-seats")
        yield Footer()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if event.option.id is not None:
            self.dismiss(-1 if event.option.id == "off" else int(event.option.id))

    def action_cancel(self) -> None:
        self.dismiss(None)


class CoachSummaryScreen(CapicuModalScreen[int | None]):
    """The summary of a player's match: points given away per round, the three costliest decisions.

    Each costliest decision has a key (1, 2, 3) that goes to it: the answer is its position's index.
    """

    CSS_PATH = SCREENS_CSS

    BINDINGS: ClassVar[list[BindingType]] = [
        *(Binding(str(n), f"go({n})", N_("Go to decision"), show=n == 1, key_display="1-3")
          for n in (1, 2, 3)),
        Binding("escape,q,s", "close", N_("Close"), key_display="esc"),
    ]

    def __init__(self, analysis: Analysis, names: Sequence[str]) -> None:
        super().__init__()
        self.analysis = analysis
        self.names = list(names)

    def compose(self) -> ComposeResult:
        seat = self.analysis.seat
        lines = describe_summary(self.analysis, self.names, seat)
        # The costliest decisions, numbered by the key that goes to each.
        head = len(lines) - len(self.analysis.costliest)
        numbered = [*lines[:head], *(f"{n}. {line}" for n, line in enumerate(lines[head:], start=1))]
        with Vertical(id="coach-summary-box", classes="dialog"):
            yield Static(t("The coach on {name}'s match", name=self.names[seat]), classes="screen-title")
            yield Static("\n".join(numbered), id="coach-summary", markup=False)
        yield Footer()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "go" and parameters:
            number = parameters[0]
            return isinstance(number, int) and number <= len(self.analysis.costliest)
        return True

    def action_go(self, number: int) -> None:
        if 1 <= number <= len(self.analysis.costliest):
            self.dismiss(self.analysis.costliest[number - 1].position)

    def action_close(self) -> None:
        self.dismiss(None)
