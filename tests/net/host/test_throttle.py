"""Wrong guesses limited per address: a fake clock, no waiting."""

from __future__ import annotations

import pytest
from capicu.net.host.throttle import MAX_ADDRESSES, GuessLimit
from hypothesis import given, settings
from hypothesis import strategies as st


def test_five_wrong_guesses_a_minute_then_a_wait_that_the_limit_states() -> None:
    limit = GuessLimit(guesses=5, window=60.0)
    for n in range(5):
        assert limit.wait("10.0.0.9", 100.0 + n) == 0.0
        limit.wrong("10.0.0.9", 100.0 + n)
    assert limit.wait("10.0.0.9", 110.0) == pytest.approx(50.0)  # until the first is a minute old
    assert limit.wait("10.0.0.8", 110.0) == 0.0  # another address is not affected
    assert limit.wait("10.0.0.9", 160.0) == 0.0
    limit.wrong("10.0.0.9", 160.0)
    assert limit.wait("10.0.0.9", 160.5) == pytest.approx(0.5)  # the second guess ages out at 161


def test_an_address_whose_guesses_aged_out_is_forgotten() -> None:
    limit = GuessLimit(guesses=2, window=10.0)
    limit.wrong("a", 0.0)
    assert limit.wait("a", 20.0) == 0.0
    assert "a" not in limit._wrong


def test_memory_is_bounded_however_many_addresses_guess() -> None:
    limit = GuessLimit(guesses=1, window=1e9)
    for n in range(MAX_ADDRESSES + 50):
        limit.wrong(f"10.{n // 65536}.{n // 256 % 256}.{n % 256}", float(n))
    assert len(limit._wrong) <= MAX_ADDRESSES
    assert limit.wait(f"10.0.{(MAX_ADDRESSES + 49) // 256 % 256}.{(MAX_ADDRESSES + 49) % 256}", 0.0) > 0


def test_a_limit_needs_a_guess_and_a_window() -> None:
    with pytest.raises(ValueError):
        GuessLimit(guesses=0)
    with pytest.raises(ValueError):
        GuessLimit(window=0)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.floats(0, 1000, allow_nan=False), max_size=40), st.integers(1, 6), st.floats(1, 100))
def test_never_more_than_the_limit_in_any_window(times: list[float], guesses: int, window: float) -> None:
    limit = GuessLimit(guesses=guesses, window=window)
    heard: list[float] = []
    for now in sorted(times):
        if limit.wait("x", now) == 0.0:
            heard.append(now)
            limit.wrong("x", now)
    for i, start in enumerate(heard):
        assert sum(1 for t in heard[i:] if t < start + window) <= guesses
