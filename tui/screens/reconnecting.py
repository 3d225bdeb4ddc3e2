"""Shown while the link is down; the client takes the seat back by itself and this goes away.

Two cases read differently: our connection dropped (the host is still there
and holds the seat), or the host itself is gone (it stopped or crashed). In the
second case nothing at the table is happening, so the screen says so plainly
instead of promising the seat back; it keeps trying, since a host restarted
with ``--resume`` honours the same seats, and the player may leave at any time.
"""

from __future__ import annotations

from typing import ClassVar

from capicu.tui.messages import N_, Wording, t
from capicu.tui.screens.base import CapicuModalScreen
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import Footer, Static


class ReconnectingScreen(CapicuModalScreen[None]):
    """An overlay over the table; the App dismisses it when the link resumes."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q", "leave", N_("Leave"), key_display="esc/q"),
    ]

    def __init__(self, reason: Wording | None = None, attempt: int = 1, host_down: bool = False) -> None:
        super().__init__()
        self.reason = reason
        self.attempt = attempt
        self.host_down = host_down

    def compose(self) -> ComposeResult:
        with Vertical(id="reconnect-box", classes="dialog"):
            yield Static("", id="reconnect-title", classes="screen-title")
            yield Static("", id="reconnect-body")
            yield Static("", id="reconnect-reason", classes="hint", markup=False)
            yield Static(t("Esc or q leaves; your seat stays saved, and the same join command takes it back "
                           "later."), classes="hint")
        yield Footer()

    def on_mount(self) -> None:
        self._show()

    async def rebuild(self) -> None:
        await super().rebuild()
        self._show()

    def update_attempt(self, reason: Wording | None, attempt: int, host_down: bool) -> None:
        """A new attempt: say how it went (the host may turn out to be gone, or back)."""
        self.reason, self.attempt, self.host_down = reason, attempt, host_down
        if self.is_mounted:
            self._show()

    def _show(self) -> None:
        down = self.host_down
        self.query_one("#reconnect-title", Static).update(
            t("The host is gone") if down else t("Connection lost"))
        if down:
            body = t("The game's host stopped answering: it may have been closed or crashed. Nobody can play "
                     "until it is back. Trying to reach it again...")
        else:
            body = t("Getting your seat back... Your seat is held for you; if this takes long, the computer "
                     "plays for you until you return.")
        self.query_one("#reconnect-body", Static).update(body)
        # Why the last try failed, worded now (in the language of the moment) from the client's code.
        if self.reason is not None:
            reason = self.reason()
        else:
            reason = t("The host cannot be reached.") if down else t("The connection dropped.")
        self.query_one("#reconnect-reason", Static).update(
            t("Attempt {attempt}. {reason}", attempt=self.attempt, reason=reason))

    async def action_leave(self) -> None:
        self.dismiss()
        await self.capicu.leave_game()
