"""The table's status line: what to do now, and for a moment what just happened.

Notices (the tiles you drew, a hint, why a key did nothing) never cover the
hand, the line or the ends: they are written here, in the one row between the
table and the hand, and stay for a few seconds before the prompt ("Your turn:
...") comes back. The table writes them to the log as well, so a notice
missed is never lost.
"""

from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive
from textual.timer import Timer
from textual.widget import Widget

from ..describe import display_text

#: Seconds a notice stays before the prompt comes back.
NOTICE_SECONDS = 6.0


class StatusLine(Widget):
    """One row: the standing prompt, or a notice over it for a few seconds."""

    DEFAULT_CSS = """
    StatusLine {
        height: 1;
        padding: 0 1;
    }
    StatusLine.-notice {
        text-style: bold;
    }
    """

    prompt: reactive[str] = reactive("")
    notice: reactive[str] = reactive("")

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self._timer: Timer | None = None

    def say(self, text: str, seconds: float | None = None) -> None:
        """Show ``text`` for ``seconds`` (default `NOTICE_SECONDS`), then the prompt again."""
        self.notice = display_text(text, 400)
        if self._timer is not None:
            self._timer.stop()
        self._timer = self.set_timer(NOTICE_SECONDS if seconds is None else seconds, self.clear_notice)

    def clear_notice(self) -> None:
        self._timer = None
        self.notice = ""

    def watch_notice(self, notice: str) -> None:
        self.set_class(bool(notice), "-notice")

    def render(self) -> Text:
        # Cropped, not ellipsised: "…" is not ASCII, and ASCII mode must stay ASCII.
        return Text(self.notice or self.prompt, no_wrap=True, overflow="crop", end="")
