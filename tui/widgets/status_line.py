"""The table's status line: what to do now, and for a moment what just happened.

Notices (the tiles you drew, a hint, why a key did nothing) never cover the
hand, the line or the ends: they are written here, in the one row between the
table and the hand, and stay for a few seconds before the prompt ("Your turn:
...") comes back. The table writes them to the log as well, so a notice
missed is never lost.

How long a notice stays is timed by what the line is given to arm a timer
(``timers``: Textual's own by default); a test gives one it moves by hand, as
the host is given its clock, so that no test waits for a notice's seconds.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from capicu.tui.words.describe import display_text
from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

#: Seconds a notice stays before the prompt comes back.
NOTICE_SECONDS = 6.0


class ArmedTimer(Protocol):
    """A timer once armed: it may be stopped before it fires (Textual's `Timer` is one)."""

    def stop(self) -> None: ...


#: Arms a timer: after ``seconds``, call the callback (Textual's `Widget.set_timer` is one).
ArmTimer = Callable[[float, Callable[[], None]], ArmedTimer]


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

    def __init__(self, *, wraps: bool = False, timers: ArmTimer | None = None, id: str | None = None,
                 classes: str | None = None) -> None:
        """``wraps``: a sentence longer than the row goes on in a second row (the screen's
        stylesheet gives the line ``height: auto`` and a ``max-height``), else it is cropped at the edge.
        ``timers``: what times a notice (None: Textual's timers)."""
        super().__init__(id=id, classes=classes)
        self._arm: ArmTimer = timers or self._textual_timer
        self._timer: ArmedTimer | None = None
        self.wraps = wraps
        self._rows = 1

    def say(self, text: str, seconds: float | None = None) -> None:
        """Show ``text`` for ``seconds`` (default `NOTICE_SECONDS`), then the prompt again."""
        self.notice = display_text(text, 400)
        if self._timer is not None:
            self._timer.stop()
        self._timer = self._arm(NOTICE_SECONDS if seconds is None else seconds, self.clear_notice)

    def _textual_timer(self, seconds: float, callback: Callable[[], None]) -> ArmedTimer:
        return self.set_timer(seconds, callback)

    def clear_notice(self) -> None:
        """Put the prompt back now; the notice's timer stops too, or it would end the next notice early."""
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        self.notice = ""

    def watch_notice(self, notice: str) -> None:
        self.set_class(bool(notice), "-notice")
        self._fit()

    def watch_prompt(self) -> None:
        self._fit()

    def on_resize(self) -> None:
        self._fit()  # another width may wrap the sentence into more rows, or fewer

    def _fit(self) -> None:
        """A wrapping line that now needs more rows, or fewer, gets them as its height (else it is only
        repainted; the stylesheet's ``max-height`` still caps them).

        The rows are set as a style rather than left to ``height: auto`` and ``refresh(layout=True)``:
        Textual keeps a widget's laid-out size until its layout count moves, and a second change of
        rows before the first one's layout is done does not move it, so the line could keep a notice's
        two rows under a one-row prompt (the replay's coach, whose notice the next key cleared). A new
        style always lays the line out again."""
        if not self.wraps or self.content_size.width <= 0:
            return
        rows = len(self.render().wrap(self.app.console, self.content_size.width))
        if rows != self._rows:
            self._rows = rows
            self.styles.height = rows

    def render(self) -> Text:
        # Cropped, not ellipsised: "…" is not ASCII, and ASCII mode must stay ASCII.
        if self.wraps:
            return Text(self.notice or self.prompt, overflow="fold", end="")
        return Text(self.notice or self.prompt, no_wrap=True, overflow="crop", end="")
