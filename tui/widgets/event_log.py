"""The table's log: moves, chat and the table's own notices, in the order they happened.

One log for all three, so that a chat line said after a move sits below it; chat
is styled apart (the speaker's name bold, the words in the chat colour), the
table's notices in italics. A run of single draws by one player is told as one
line once it ends ("Pepe draws 3 tiles from el pozo.").

The log keeps what each line was made from (the event, the notice's message),
not only its words, so that a change of language words every line again.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence
from typing import ClassVar

from capicu.core import Event, RoundStarted, TilesDrawn
from capicu.net.protocol import CHAT_LIMIT, NAME_LIMIT
from capicu.tui.words.describe import describe_covered, describe_event, display_text
from capicu.tui.words.messages import Wording
from rich.cells import cell_len
from rich.text import Text
from textual import events
from textual.widgets import RichLog


class EventLog(RichLog):
    """A scrolling log of sentences, newest at the bottom."""

    DEFAULT_CSS = """
    EventLog {
        height: 1fr;
        min-height: 3;
        background: $surface;
        /* No scrollbar: it would be redrawn with every line (bytes over SSH),
           and the log always shows its newest lines anyway. */
        scrollbar-size-vertical: 0;
    }
    EventLog > .log--chat-name {
        text-style: bold;
        color: $accent;
    }
    EventLog > .log--chat {
        color: $text;
    }
    EventLog > .log--notice {
        color: $text-muted;
        text-style: italic;
    }
    """

    COMPONENT_CLASSES: ClassVar[set[str]] = {"log--chat-name", "log--chat", "log--notice"}

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
        self._previous: Event | None = None
        #: Lines written while the log was hidden (the round's summary shows in its place):
        #: wrapped to no width they would come out one letter a row.
        self._while_hidden: list[Text] = []
        #: A run of single draws not written yet: (seat, tiles, the names and seat to tell it with).
        self._draws: tuple[int, int, Sequence[str], int | None] | None = None
        #: What makes each line, oldest first (as many as the log keeps).
        self._made: deque[Callable[[], Text]] = deque(maxlen=max_lines)

    def _put(self, line: Callable[[], Text]) -> None:
        self._made.append(line)
        self._write(line())

    def reword(self) -> None:
        """Write every line again in the current language (the same lines, in the same order)."""
        self.clear()
        self._while_hidden = []
        for line in self._made:
            self._write(line())

    def _write(self, text: Text) -> None:
        if self._size_known and self.scrollable_content_region.width <= 0:
            self._while_hidden.append(text)
            return
        # The log may be shown again before its resize is handled: what waited comes first.
        self._write_what_waited()
        self._wrapped(text)

    def _wrapped(self, text: Text) -> None:
        """Write ``text`` wrapped at the log's width, also where that is wider than 80 cells."""
        if not self._size_known:
            self.write(text)  # RichLog writes it once the log has its size
            return
        # RichLog measures a line against the app's console, 80 cells wide whatever the terminal:
        # a log wider than that (Mexican Train's, at 200x60) wrapped its lines at 80.
        longest = max((cell_len(line) for line in text.plain.splitlines()), default=0)
        self.write(text, width=max(min(longest, self.scrollable_content_region.width), 1))

    def _write_what_waited(self) -> None:
        lines, self._while_hidden = self._while_hidden, []
        for line in lines:
            self._wrapped(line)

    def on_resize(self, event: events.Resize) -> None:
        super().on_resize(event)
        if self.scrollable_content_region.width > 0:
            self._write_what_waited()

    def add_chat(self, name: str, text: str) -> None:
        """A chat line from ``name`` (both cleaned again before display)."""
        self.end_draws()  # what came before it is written first: one time order
        line = Text(end="")
        line.append(display_text(name, NAME_LIMIT) or "?", self.get_component_rich_style("log--chat-name"))
        line.append(": " + display_text(text, CHAT_LIMIT), self.get_component_rich_style("log--chat"))
        self._put(line.copy)  # what players type is never translated

    def add_notice(self, text: str | Wording) -> None:
        """A line from the table itself (someone sat down, left); a `Wording` follows the language."""
        self.end_draws()

        def line() -> Text:
            words = text() if callable(text) else text
            return Text(display_text(words, 1000), style=self.get_component_rich_style("log--notice"))

        self._put(line)

    def add_line(self, text: Wording) -> None:
        """A move told in a game's own words (a `Wording`: it is worded again when the language changes)."""
        self.end_draws()
        self._put(lambda: Text(display_text(text(), 1000)))

    def add_event(self, event: Event, names: Sequence[str], my_seat: int | None, *,
                  covered: bool = False) -> None:
        """Write one event in words (the tile after `RoundStarted` is told as the lead; ``covered``: the
        computer made it for ``my_seat``, said as "The computer played 5-6 for you.")."""
        lead = isinstance(self._previous, RoundStarted)
        self._previous = event
        if isinstance(event, TilesDrawn):
            if self._draws is not None and self._draws[0] == event.seat:
                seat, count, _, _ = self._draws
                self._draws = (seat, count + event.count, names, my_seat)
            else:
                self.end_draws()
                self._draws = (event.seat, event.count, names, my_seat)
            return
        self.end_draws()
        if covered and describe_covered(event, my_seat) is not None:
            self._put(lambda: Text(describe_covered(event, my_seat) or ""))
            return
        self._put(lambda: Text(describe_event(event, names, my_seat, lead=lead)))

    def drawing(self) -> int | None:
        """The seat whose run of draws is not written yet, if any."""
        return self._draws[0] if self._draws is not None else None

    def end_draws(self, told: Wording | None = None) -> None:
        """Write the pending run of draws: as ``told`` when given (the drawer's own words)."""
        if self._draws is None:
            return
        seat, count, names, my_seat = self._draws
        self._draws = None
        if told is not None:
            self._put(lambda: Text(told()))
        else:
            drawn = TilesDrawn(seat, count, -1, -1)
            self._put(lambda: Text(describe_event(drawn, names, my_seat)))

    def restart(self) -> None:
        """Empty the log (a snapshot tells the round again from its start)."""
        self.clear()
        self._made.clear()
        self._while_hidden = []
        self._previous = None
        self._draws = None
