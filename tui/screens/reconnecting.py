"""Shown while the link is down; the client resumes the seat by itself and this goes away."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from capicu.tui.messages import add_messages, t
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Footer, Static

if TYPE_CHECKING:
    from capicu.tui.app import CapicuApp

add_messages({
    "reconnect.title": "Connection lost",
    "reconnect.body": "Getting your seat back... Your seat is held for you; "
                      "if this takes long, the computer plays for you until you return.",
    "reconnect.reason": "({reason})",
})


class ReconnectingScreen(ModalScreen[None]):
    """An overlay over the table; the App dismisses it when the link resumes."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,ctrl+b", "leave", t("key.leave"), key_display="esc/^b"),
    ]

    def __init__(self, reason: str = "") -> None:
        super().__init__()
        self.reason = reason

    @property
    def capicu(self) -> CapicuApp:
        return self.app  # type: ignore[return-value]

    def compose(self) -> ComposeResult:
        with Vertical(id="reconnect-box", classes="dialog"):
            yield Static(t("reconnect.title"), classes="screen-title")
            yield Static(t("reconnect.body"), id="reconnect-body")
            if self.reason:
                yield Static(t("reconnect.reason", reason=self.reason), classes="hint", markup=False)
        yield Footer()

    async def action_leave(self) -> None:
        self.dismiss()
        await self.capicu.leave_game()
