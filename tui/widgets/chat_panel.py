"""Chat: the one-row box where a player types a line for the table.

What is said is shown in the table's log (`EventLog.add_chat`), in the same
time order as the moves; this widget only takes the words and posts
`ChatPanel.Send`. The host strips control and escape sequences from what
others type, and the log cleans them again on display.
"""

from __future__ import annotations

from dataclasses import dataclass

from capicu.net.protocol import CHAT_LIMIT
from capicu.tui.words.describe import display_text
from capicu.tui.words.messages import t
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import Input


class ChatPanel(Vertical):
    """An input; Enter posts `ChatPanel.Send` with the cleaned words."""

    DEFAULT_CSS = """
    ChatPanel {
        height: auto;
    }
    /* Textual's Input:focus draws a border, which on one row hides the text being typed. */
    ChatPanel > Input, ChatPanel > Input:focus {
        height: 1;
        border: none;
        padding: 0 1;
    }
    ChatPanel > Input > .input--placeholder {
        /* Textual's $text-disabled is too faint to read: the prompt says how to chat. */
        color: $text-muted;
    }
    """

    @dataclass
    class Send(Message):
        """The player wants to say ``text`` (already stripped, never empty)."""

        panel: ChatPanel
        text: str

        @property
        def control(self) -> ChatPanel:
            return self.panel

    def compose(self) -> ComposeResult:
        yield Input(placeholder=self._prompt(), max_length=CHAT_LIMIT)

    @staticmethod
    def _prompt() -> str:
        # TRANSLATORS: short enough for the table's side panel at 80 columns (22 letters).
        return t("c to chat, Enter sends")

    def reword(self) -> None:
        """Say how to chat in the current language."""
        self.input.placeholder = self._prompt()

    @property
    def input(self) -> Input:
        return self.query_one(Input)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        text = display_text(event.value, CHAT_LIMIT)
        event.input.clear()
        if text:
            self.post_message(self.Send(self, text))
