"""Wrong guesses (join codes, seat tokens, SSH passwords) limited per address, with the clock passed in.

A six-character join code from 31 symbols stands for years against guesses at a
few a minute, and for days at thousands a second. `GuessLimit` allows each
address a few wrong guesses in a window and then refuses until the oldest one
is old enough, saying how long to wait. It is pure (no clock, no I/O), so every
timing is tested with a fake clock; the host and the SSH gateway share it.
"""

from __future__ import annotations

from collections import deque

import msgspec

#: Addresses remembered at most; beyond it the ones with the oldest guesses are forgotten.
MAX_ADDRESSES = 4096


class GuessLimit(msgspec.Struct):
    """At most ``guesses`` wrong guesses per address in any ``window`` seconds."""

    guesses: int = 5
    window: float = 60.0
    _wrong: dict[str, deque[float]] = msgspec.field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.guesses < 1 or not self.window > 0:
            raise ValueError("a guess limit needs at least one guess in a positive window")

    def wait(self, address: str, now: float) -> float:
        """Seconds ``address`` must wait before its next guess is heard (0: go ahead)."""
        times = self._wrong.get(address)
        if times is None:
            return 0.0
        while times and times[0] <= now - self.window:
            times.popleft()
        if not times:
            del self._wrong[address]
            return 0.0
        if len(times) < self.guesses:
            return 0.0
        return times[0] + self.window - now

    def wrong(self, address: str, now: float) -> None:
        """``address`` guessed wrong at ``now``."""
        times = self._wrong.get(address)
        if times is None:
            if len(self._wrong) >= MAX_ADDRESSES:
                self._forget_oldest()
            times = self._wrong[address] = deque(maxlen=self.guesses)
        times.append(now)

    def _forget_oldest(self) -> None:
        oldest = min(self._wrong, key=lambda a: self._wrong[a][-1] if self._wrong[a] else float("-inf"))
        del self._wrong[oldest]
