"""(The host's terminal.) Someone asks by name for an away seat: give it back or not.

A name alone proves nothing, so the host's operator decides: it is usually the
friend whose terminal crashed, calling across the room. The answer goes to the
host (`GameLink.answer_rejoin`); if the person comes back by other means first,
the App dismisses this question unanswered.
"""

from __future__ import annotations

from typing import ClassVar

from capicu.net.protocol import NAME_LIMIT
from capicu.tui.screens.base import CapicuModalScreen
from capicu.tui.words.describe import display_text
from capicu.tui.words.messages import N_, t
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import Footer, Static


class RejoinRequestScreen(CapicuModalScreen[bool]):
    """Asks the host's operator; dismissed with True (allow) or False."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "answer(True)", N_("Allow")),
        Binding("n,escape", "answer(False)", N_("Refuse"), key_display="n/esc"),
    ]

    def __init__(self, request_id: int, seat: int, name: str) -> None:
        super().__init__()
        self.request_id = request_id
        self.seat = seat
        self.name_asked = display_text(name, NAME_LIMIT)

    def compose(self) -> ComposeResult:
        with Vertical(id="rejoin-box", classes="dialog"):
            question = t("{name} asks for seat {seat} back: allow?", name=self.name_asked, seat=self.seat + 1)
            yield Static(question, classes="screen-title", markup=False)
            yield Static(t("Allow only if you know it is them (a name alone proves nothing). "
                           "y gives the seat back, n refuses."))
        yield Footer()

    def action_answer(self, allow: bool) -> None:
        self.dismiss(allow)
