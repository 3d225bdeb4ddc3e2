"""A turn of several doubles built on a screen before it is sent (core/mexican/turn.py, `view_after`):
the view it gives is the engine's own after the same plays, and an illegal play is refused as the engine
refuses it."""

from __future__ import annotations

import random

import msgspec
import pytest
from capicu.core import MEXICAN, MexicanView, Play, Rules, Train, parse_action
from capicu.core.actions import IllegalAction
from capicu.core.mexican.match import MexicanMatch
from capicu.core.mexican.refusals import MexicanRefusal
from capicu.core.mexican.turn import view_after
from helpers_core import crafted_mexican
from hypothesis import given, settings
from hypothesis import strategies as st

NINE = msgspec.structs.replace(Rules.preset_named("mexican-train"), max_pip=9)
TWO = [
    "9-5 5-5 6-9 6-6 2-5 1-6 0-0 0-1 0-2",
    "9-3 3-4 4-7 7-7 7-8 5-8 1-8 1-1 2-8",
]


def play(text: str) -> Play:
    action = parse_action(text)
    assert isinstance(action, Play)
    return action


def _but_events(view: MexicanView) -> MexicanView:
    """The view without its events: the screen tells no event before the host sends it."""
    return msgspec.structs.replace(view, events=())


def _before_the_doubles() -> MexicanMatch:
    match = crafted_mexican(NINE, TWO)
    for text in ("run 9-5", "run 9-3", "play 6-9 mexican", "play 3-4 train 1"):
        match.apply(parse_action(text))
    return match


def test_two_doubles_laid_on_the_screen_are_the_engines_view_after_them() -> None:
    match = _before_the_doubles()
    view = match.view(0)
    laid = (play("play 5-5 train 0"), play("play 6-6 mexican"))
    shown = view_after(view, laid)
    for action in laid:
        match.apply(action)
    assert _but_events(shown) == _but_events(match.view(0))
    assert shown.open_doubles == (Train(0), MEXICAN) and shown.doubling
    assert [str(a) for a in shown.legal] == ["play 2-5 train 0"]


def test_the_cover_ends_the_turn_on_the_screen_as_it_does_at_the_host() -> None:
    match = _before_the_doubles()
    laid = (play("play 5-5 train 0"), play("play 6-6 mexican"), play("play 2-5 train 0"))
    shown = view_after(match.view(0), laid)
    assert shown.turn == 1 and shown.legal == () and shown.open_doubles == (MEXICAN,)
    assert not shown.is_my_turn and not shown.doubling


def test_a_play_the_engine_refuses_is_refused_with_its_reason() -> None:
    match = _before_the_doubles()
    laid = (play("play 5-5 train 0"), play("play 1-6 mexican"))
    with pytest.raises(IllegalAction) as refused:
        view_after(match.view(0), laid)
    assert refused.value.reason is MexicanRefusal.COVER_THE_DOUBLE


def test_nothing_laid_is_the_view_itself() -> None:
    view = _before_the_doubles().view(0)
    assert view_after(view, ()) is view


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from([2, 3, 5, 8]), st.booleans())
def test_every_play_of_a_random_match_gives_on_the_screen_the_view_the_host_sends(
        seed: int, players: int, one_double: bool) -> None:
    rules = msgspec.structs.replace(Rules.preset_named("mexican-train"), max_pip=9, rounds=1,
                                    one_double_a_turn=one_double)
    match = MexicanMatch(rules, players, seed=seed)  # type: ignore[arg-type]
    rng = random.Random(seed)
    while match.turn is not None:
        seat = match.turn
        view = match.view(seat)
        action = rng.choice(match.legal_actions())
        match.apply(action)
        if isinstance(action, Play) and not view.running and not view.may_run:
            after = match.view(seat)
            shown = view_after(view, (action,))
            if after.turn == seat:
                assert _but_events(shown) == _but_events(after)
            else:  # the turn moved on: what the next seat may do is the host's to say
                assert (shown.turn, shown.legal) == (after.turn, ())
                assert (shown.trains, shown.open_doubles, shown.hand) == (after.trains, after.open_doubles,
                                                                         after.hand)
