"""Chat: the lines said at the table and an input to say one.

The host strips control and escape sequences from what others type; the lines
are cleaned again here on display, because a terminal is not the place to trust
that every path on the host did so.
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import Input, RichLog

from ..describe import NAME_LIMIT, display_text
from ..messages import t

#: Longest chat line one may type (the host has its own limit).
MAX_CHAT = 200


class ChatPanel(Vertical):
    """Lines said at the table above an input; Enter posts `ChatPanel.Send`."""

    DEFAULT_CSS = """
    ChatPanel {
        height: 1fr;
        min-height: 4;
    }
    ChatPanel > RichLog {
        height: 1fr;
        background: $surface;
        scrollbar-size-vertical: 1;
    }
    ChatPanel > Input {
        height: 3;
    }
    ChatPanel > Input.-compact {
        height: 1;
        border: none;
    }
    """

    class Send(Message):
        """The player wants to say ``text`` (already stripped, never empty)."""

        def __init__(self, panel: ChatPanel, text: str) -> None:
            super().__init__()
            self.panel = panel
            self.text = text

        @property
        def control(self) -> ChatPanel:
            return self.panel

    def __init__(
        self,
        *,
        compact: bool = False,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self._compact = compact

    def compose(self) -> ComposeResult:
        log = RichLog(max_lines=300, wrap=True, markup=False, highlight=False, auto_scroll=True, min_width=1)
        log.can_focus = False
        yield log
        yield Input(placeholder=t("chat.placeholder"), max_length=MAX_CHAT,
                    classes="-compact" if self._compact else "")

    @property
    def lines(self) -> RichLog:
        return self.query_one(RichLog)

    @property
    def input(self) -> Input:
        return self.query_one(Input)

    def add_chat(self, name: str, text: str) -> None:
        """Show one chat line from ``name`` (both cleaned again before display)."""
        line = Text(end="")
        line.append(display_text(name, NAME_LIMIT) or "?", style="bold")
        line.append(": " + display_text(text, MAX_CHAT * 2))
        self.lines.write(line)

    def add_notice(self, text: str) -> None:
        """Show a line from the table itself (someone joined, left, ...)."""
        self.lines.write(Text(display_text(text, 1000), style="italic"))

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        text = display_text(event.value, MAX_CHAT)
        event.input.clear()
        if text:
            self.post_message(self.Send(self, text))
