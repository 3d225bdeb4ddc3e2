"""The status line's rows follow its sentence: a wrapping line never keeps rows its sentence lost."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from capicu.tui.widgets.status_line import StatusLine
from textual.app import App, ComposeResult
from textual.widgets import Static

LONG = "a long sentence that needs two rows on a screen this narrow"


class _Wrapping(App[None]):
    CSS = "StatusLine { height: auto; max-height: 2; }"

    def compose(self) -> ComposeResult:
        yield StatusLine(wraps=True)
        yield Static("below")


async def test_a_line_that_loses_its_second_row_before_its_layout_is_done_shows_one_row() -> None:
    app = _Wrapping()
    async with app.run_test(size=(40, 10)) as pilot:
        line = app.query_one(StatusLine)
        line.prompt = "short"
        await pilot.pause()
        line.prompt = LONG
        # Another widget's layout reaches the screen before the line's own (as when the coach's
        # analysis arrives): the screen is laid out with the long sentence in two rows...
        screen: Any = app.screen
        screen._clear_arrangement_cache()
        screen._refresh_layout()
        assert line.size.height == 2
        line.prompt = "short again"  # ...and the sentence is short again before the line's layout
        for _ in range(3):
            await pilot.pause()
        assert line.size.height == 1


async def test_a_wrapping_line_takes_the_rows_its_sentence_needs() -> None:
    app = _Wrapping()
    async with app.run_test(size=(40, 10)) as pilot:
        line = app.query_one(StatusLine)
        line.prompt = "short"
        await pilot.pause()
        assert line.size.height == 1
        line.say(LONG)
        await pilot.pause()
        assert line.size.height == 2
        line.clear_notice()
        await pilot.pause()
        assert line.size.height == 1
        await pilot.resize_terminal(80, 10)
        line.prompt = LONG
        await pilot.pause()
        assert line.size.height == 1  # one row is enough at 80 columns
        await pilot.resize_terminal(30, 10)
        await pilot.pause()
        assert line.size.height == 2


class FakeTimers:
    """Timers that only the test moves (``advance``), as the host's tests move its clock."""

    def __init__(self) -> None:
        self.now = 0.0
        self._armed: list[_FakeTimer] = []

    def __call__(self, seconds: float, callback: Callable[[], None]) -> _FakeTimer:
        timer = _FakeTimer(self.now + seconds, callback)
        self._armed.append(timer)
        return timer

    def advance(self, seconds: float) -> None:
        """Move the time on by ``seconds``: every timer due by then fires (once), the earliest first."""
        self.now += seconds
        for timer in sorted(self._armed, key=lambda armed: armed.due):
            if timer.due <= self.now and not timer.stopped:
                timer.stopped = True
                timer.callback()


class _FakeTimer:
    def __init__(self, due: float, callback: Callable[[], None]) -> None:
        self.due, self.callback, self.stopped = due, callback, False

    def stop(self) -> None:
        self.stopped = True


class _Timed(App[None]):
    def __init__(self, timers: FakeTimers) -> None:
        super().__init__()
        self.timers = timers

    def compose(self) -> ComposeResult:
        yield StatusLine(timers=self.timers)


async def test_a_notice_cleared_by_hand_does_not_cut_the_next_notice_short() -> None:
    timers = FakeTimers()
    app = _Timed(timers)
    async with app.run_test(size=(40, 10)):
        line = app.query_one(StatusLine)
        line.prompt = "the prompt"
        line.say("the first notice", seconds=0.1)
        line.clear_notice()  # as a table does when the round's end speaks
        line.say("the second notice", seconds=60)
        timers.advance(0.4)  # the first notice's time is over: its timer must not clear the second
        assert line.notice == "the second notice"
        timers.advance(60)  # the second notice's own time: the prompt comes back
        assert line.notice == ""
