"""The public events of the table, in words, newest at the bottom."""

from __future__ import annotations

from collections.abc import Sequence

from capicu.core import Event, RoundStarted, View
from rich.text import Text
from textual.widgets import RichLog

from ..describe import describe_event, display_text


class EventLog(RichLog):
    """A scrolling log of sentences; `sync` writes only the events not shown yet."""

    DEFAULT_CSS = """
    EventLog {
        height: 1fr;
        min-height: 3;
        background: $surface;
        /* No scrollbar: it would be redrawn with every line (bytes over SSH),
           and the log always shows its newest lines anyway. */
        scrollbar-size-vertical: 0;
    }
    """

    def __init__(
        self,
        *,
        max_lines: int = 500,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(max_lines=max_lines, wrap=True, markup=False, highlight=False, min_width=1,
                         auto_scroll=True, name=name, id=id, classes=classes)
        self.can_focus = False
        self._shown: tuple[Event, ...] = ()
        self._round = -1
        self._previous: Event | None = None

    def add_text(self, text: str, style: str = "") -> None:
        """Write one line (cleaned of control sequences)."""
        self.write(Text(display_text(text, 2000), style=style))

    def add_event(self, event: Event, names: Sequence[str], my_seat: int | None) -> None:
        """Write one event in words (the tile after `RoundStarted` is told as the lead)."""
        lead = isinstance(self._previous, RoundStarted)
        self._previous = event
        text = describe_event(event, names, my_seat, lead=lead)
        if text:
            self.write(Text(text))

    def sync(self, view: View, names: Sequence[str]) -> None:
        """Write the view's events that are not in the log yet (a new round starts afresh)."""
        events = view.events
        if view.round_number != self._round or events[: len(self._shown)] != self._shown:
            new = events
        else:
            new = events[len(self._shown):]
        for event in new:
            self.add_event(event, names, view.seat)
        self._shown = events
        self._round = view.round_number
