"""Shown while the link is down; the client takes the seat back by itself and this goes away.

Two cases read differently: our connection dropped (the host is still there
and holds the seat), or the host itself is gone (it stopped or crashed). In the
second case nothing at the table is happening, so the screen says so plainly
instead of promising the seat back; it keeps trying, since a host restarted
with ``--resume`` honours the same seats, and the player may leave at any time.
"""

from __future__ import annotations

from typing import ClassVar

from capicu.net.client import Reconnecting
from capicu.net.model import Change
from capicu.tui.screens.base import CapicuModalScreen
from capicu.tui.words.describe import describe_link_end
from capicu.tui.words.messages import N_, t
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import Footer, Static


class ReconnectingScreen(CapicuModalScreen[None]):
    """An overlay over the table; it follows the client's attempts, and the App dismisses it when back."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q", "leave", N_("Leave"), key_display="esc/q"),
    ]

    def __init__(self, lost: Reconnecting) -> None:
        super().__init__()
        #: The client's last word on the attempts: which one, why the last failed, whether the host is gone.
        self.lost = lost

    @property
    def host_down(self) -> bool:
        return self.lost.host_down

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

    def model_changed(self, change: Change) -> None:
        """A new attempt: say how it went (the host may turn out to be gone, or back)."""
        if isinstance(change.message, Reconnecting):
            self.lost = change.message
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
        reason = describe_link_end(self.lost.reason, self.lost.params)
        self.query_one("#reconnect-reason", Static).update(
            t("Attempt {attempt}. {reason}", attempt=self.lost.attempt, reason=reason))

    async def action_leave(self) -> None:
        self.dismiss()
        await self.capicu.leave_game()
