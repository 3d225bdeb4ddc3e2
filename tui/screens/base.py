"""`CapicuScreen`: the base of the app's screens, and what the App tells them.

The App keeps the table's state (`CapicuApp.game`) and calls these hooks on every
screen in its stack when something changes; a screen overrides the ones it shows.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeVar, cast

from textual.screen import ModalScreen, Screen

if TYPE_CHECKING:
    from capicu.tui.app import CapicuApp

ResultType = TypeVar("ResultType")


class CapicuScreen(Screen[ResultType]):
    """A screen of the capicu app: typed access to it, and its hooks (no-ops here)."""

    @property
    def capicu(self) -> CapicuApp:
        """The app, with its game state and intents (`send_action`, `leave_game`, ...)."""
        return cast("CapicuApp", self.app)

    def game_changed(self) -> None:
        """Seats, names, timers, the host's address or who is ready changed: redraw what shows them."""

    def notice(self, text: str) -> None:
        """Someone sat down, dropped, left or came back (a sentence for the log)."""

    def display_changed(self) -> None:
        """The tile style or ASCII mode changed (`CapicuApp.tile_style`, `CapicuApp.ascii_mode`)."""


class CapicuModalScreen(ModalScreen[ResultType], CapicuScreen[ResultType]):
    """A capicu screen over another one (a question, an overlay).

    `ModalScreen` comes first: Textual takes a screen's stylesheet from its first bases only.
    """
