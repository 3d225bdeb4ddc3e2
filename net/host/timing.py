"""Time-based decisions as pure code given ``now`` (after aioquic).

Nothing here reads a clock or sleeps: the host passes the time in and asks
when it next needs to be woken, so heartbeats, idle and handshake timeouts,
rate limits, grace periods and turn timers are all tested without waiting.
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Hashable
from enum import Enum
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)


class TokenBucket:
    """A rate limit: ``rate`` messages a second on average, bursts of ``burst``."""

    __slots__ = ("_level", "_stamp", "burst", "rate")

    def __init__(self, rate: float, burst: float, now: float) -> None:
        self.rate = rate
        self.burst = burst
        self._level = burst
        self._stamp = now

    def take(self, now: float) -> bool:
        """Spend one token; False when there is none (the message is over the limit)."""
        self._level = min(self.burst, self._level + (now - self._stamp) * self.rate)
        self._stamp = now
        if self._level >= 1.0:
            self._level -= 1.0
            return True
        return False


class Wake(Enum):
    """What a connection's timer asks for when it fires."""

    NOTHING = "nothing"
    PING = "ping"
    CLOSE = "close"


class Liveness:
    """When to ping a quiet peer and when to give up on it.

    Before the handshake completes the peer has ``handshake`` seconds from
    connecting to say hello (nothing it sends meanwhile buys more). After it,
    the host pings when it has heard nothing for ``heartbeat`` seconds and
    closes once it has heard nothing for ``idle``. Only whole messages count as
    hearing from the peer.
    """

    __slots__ = ("_heard", "_opened", "_pinged", "handshake", "heartbeat", "idle", "ready")

    def __init__(self, now: float, *, handshake: float, heartbeat: float, idle: float) -> None:
        self.handshake = handshake
        self.heartbeat = heartbeat
        self.idle = idle
        self.ready = False
        self._opened = now
        self._heard = now
        self._pinged = now

    def heard(self, now: float) -> None:
        """A whole message arrived from the peer."""
        self._heard = now

    def handshake_done(self, now: float) -> None:
        self.ready = True
        self._heard = now

    def deadline(self) -> float:
        """The time at which `wake` next has something to decide."""
        if not self.ready:
            return self._opened + self.handshake
        return min(self._heard + self.idle, max(self._heard, self._pinged) + self.heartbeat)

    def wake(self, now: float) -> Wake:
        if not self.ready:
            return Wake.CLOSE if now >= self._opened + self.handshake else Wake.NOTHING
        if now >= self._heard + self.idle:
            return Wake.CLOSE
        if now >= max(self._heard, self._pinged) + self.heartbeat:
            self._pinged = now
            return Wake.PING
        return Wake.NOTHING


class Deadlines(Generic[K]):
    """Named deadlines (a seat's turn timer, a connection's next check, ...).

    A heap keeps the earliest at hand however many there are. Moving a
    deadline later (what every message does to its connection's) touches only
    the dict: the heap's older, earlier entry stands for it, and is put back
    at the new time when it comes up. Moving one earlier adds an entry.
    """

    __slots__ = ("_at", "_heap", "_order")

    def __init__(self) -> None:
        self._at: dict[K, float] = {}
        #: For every key, at least one entry at or before its deadline; others are stale.
        self._heap: list[tuple[float, int, K]] = []
        self._order = itertools.count()

    def __len__(self) -> int:
        return len(self._at)

    def set(self, key: K, when: float) -> None:
        before = self._at.get(key)
        self._at[key] = when
        if before is None or when < before:
            self._push(key, when)

    def _push(self, key: K, when: float) -> None:
        heapq.heappush(self._heap, (when, next(self._order), key))
        if len(self._heap) > 2 * len(self._at) + 64:
            # Mostly stale entries: one per key, at its deadline, is all it needs.
            self._heap = [(at, next(self._order), k) for k, at in self._at.items()]
            heapq.heapify(self._heap)

    def cancel(self, key: K) -> None:
        self._at.pop(key, None)

    def get(self, key: K) -> float | None:
        return self._at.get(key)

    def next(self) -> float | None:
        """The earliest deadline, or None when none is set."""
        heap, at = self._heap, self._at
        while heap:
            when, _, key = heap[0]
            current = at.get(key)
            if current == when:
                return when
            heapq.heappop(heap)
            if current is not None and current > when:
                heapq.heappush(heap, (current, next(self._order), key))
        return None

    def pop_due(self, now: float) -> list[K]:
        """The keys whose deadline has come, earliest first; they are removed."""
        due = []
        heap, at = self._heap, self._at
        while heap and heap[0][0] <= now:
            when, _, key = heapq.heappop(heap)
            current = at.get(key)
            if current == when:
                del at[key]
                due.append(key)
            elif current is not None and current > when:
                heapq.heappush(heap, (current, next(self._order), key))
        return due
