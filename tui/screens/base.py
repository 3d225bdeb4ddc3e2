"""`CapicuScreen`: the base of the app's screens, and what the App tells them.

The App holds the table's one model (`CapicuApp.table`, the client's `TableModel`).
Each time the client applies a host message to it, the App hands the `Change` to
every screen in its stack (`model_changed`); a screen reads the model and shows
what it shows. What the App itself holds a screen follows through Textual's
reactives: every capicu screen watches the App's tile style, ASCII mode and
language (`display_changed`, `language_changed`), the lobby where we host
(`CapicuApp.hosted_at`).

Key descriptions are written in ``BINDINGS`` as English messages (marked with
`N_`): Textual reads bindings when a class is defined, before any language is
chosen. A capicu screen words them when Textual asks which keys are active
(`active_bindings`, what the Footer and the keys panel show), so they follow a
change of language like every other text.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar, cast

from capicu.net.model import Change
from capicu.tui.words.messages import t
from textual.binding import ActiveBinding
from textual.screen import ModalScreen, Screen
from textual.widgets import Input, Select

if TYPE_CHECKING:
    from capicu.tui.app import CapicuApp

ResultType = TypeVar("ResultType")

#: The stylesheet of the screens opened on the way (forms, history, replays, the coach, a club
#: night), each of which names it as its ``CSS_PATH``: Textual parses it when the first of them
#: opens, so that a game's start parses only the app's own (tui/capicu.tcss).
SCREENS_CSS = Path(__file__).with_name("screens.tcss")


class CapicuScreen(Screen[ResultType]):
    """A screen of the capicu app: typed access to it, and its hooks (no-ops here)."""

    @property
    def capicu(self) -> CapicuApp:
        """The app, with its game state and intents (`send_action`, `leave_game`, ...)."""
        return cast("CapicuApp", self.app)

    def on_mount(self) -> None:
        # The App's settings, followed (a subclass's own on_mount runs as well, before this one).
        app = self.capicu
        self.watch(app, "tile_style", self.display_changed, init=False)
        self.watch(app, "ascii_mode", self.display_changed, init=False)
        self.watch(app, "speaking", self.language_changed, init=False)

    def model_changed(self, change: Change) -> None:
        """The table's model took ``change``: show what changed (the model is `CapicuApp.table`)."""

    def club_changed(self, change: Change) -> None:
        """The club night's model took ``change`` (the model is `CapicuApp.club`'s)."""

    def display_changed(self) -> None:
        """The App's tile style or ASCII mode changed (`CapicuApp.tile_style`, `CapicuApp.ascii_mode`)."""

    def language_changed(self) -> None:
        """The app speaks another language: word every text again (here: build the screen again)."""
        self.call_later(self.rebuild)

    async def rebuild(self) -> None:
        """Compose this screen again, keeping what its form fields hold and which one has the focus."""
        from textual.widgets import Checkbox  # (a form's: no table has one)

        fields = [widget for widget in self.query("Input, Select, Checkbox")
                  if isinstance(widget, Input | Select | Checkbox)]
        kept: dict[str | None, object] = {widget.id: widget.value for widget in fields if widget.id}
        focused = self.focused.id if self.focused is not None else None
        await self.recompose()
        # Put back quietly: the values are the ones already chosen, nothing changed.
        with self.prevent(Input.Changed, Select.Changed, Checkbox.Changed):
            for widget in self.query("Input, Select, Checkbox"):
                if widget.id in kept and isinstance(widget, Input | Select | Checkbox):
                    widget.value = kept[widget.id]
        if focused is not None:
            for widget in self.query(f"#{focused}"):
                widget.focus()

    @property
    def active_bindings(self) -> dict[str, ActiveBinding]:
        """Textual's active keys, their descriptions worded in the app's language."""
        return {
            key: active._replace(binding=replace(active.binding, description=t(active.binding.description)))
            if active.binding.description else active
            for key, active in super().active_bindings.items()
        }


class CapicuModalScreen(ModalScreen[ResultType], CapicuScreen[ResultType]):
    """A capicu screen over another one (a question, an overlay).

    `ModalScreen` comes first: Textual takes a screen's stylesheet from its first bases only.
    """
