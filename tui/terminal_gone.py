"""The program's own terminal going away (its window closed, its SSH client or pseudo-terminal gone).

Textual reads the terminal in a thread that takes an empty read for "nothing yet" and
asks again: once the terminal has hung up every read is empty at once, and the thread
spins (a ``capicu join`` left behind by a closed window used a whole core). The kernel
says SIGHUP to a terminal's foreground programs when it hangs up, but only to programs
it is the controlling terminal of; a program started on a terminal that is not (by
another program, in a session of its own) hears nothing. So the app both listens for
SIGHUP and asks the terminal twice a second whether it has hung up, and ends either way.
"""

from __future__ import annotations

import asyncio
import contextlib
import select
import signal
import sys
from collections.abc import Callable

__all__ = ["CHECK_EVERY", "has_hung_up", "on_hang_up"]

#: Seconds between two questions to the terminal (a hang-up costs at most this much spinning).
CHECK_EVERY = 0.5

_HUNG_UP = select.POLLHUP | select.POLLERR | select.POLLNVAL if sys.platform != "win32" else 0


def has_hung_up(descriptor: int) -> bool:
    """True once the terminal (or pipe) on ``descriptor`` is gone: no more input can ever come."""
    poller = select.poll()
    poller.register(descriptor, select.POLLIN)  # a hang-up and an error are reported whatever is asked
    return any(events & _HUNG_UP for _, events in poller.poll(0))


def on_hang_up(end: Callable[[], None]) -> Callable[[], None]:
    """Call ``end`` on SIGHUP (in the running event loop); the check to run every `CHECK_EVERY` seconds.

    The check calls ``end`` once standard input has hung up. Windows has neither: nothing is watched.
    """
    if sys.platform == "win32" or sys.__stdin__ is None:
        return lambda: None
    descriptor = sys.__stdin__.fileno()
    with contextlib.suppress(ValueError, RuntimeError):  # not the main thread: the check is enough
        asyncio.get_running_loop().add_signal_handler(signal.SIGHUP, end)
    ended = False

    def check() -> None:
        nonlocal ended
        if not ended and has_hung_up(descriptor):
            ended = True
            end()

    return check
