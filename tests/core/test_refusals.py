"""Refusals: one code per reason, decided from a seat's view, and the engine raises the same."""

from __future__ import annotations

import random

import msgspec
import pytest
from capicu.core import (
    DRAW,
    PASS,
    Action,
    End,
    IllegalAction,
    Match,
    Play,
    Refusal,
    Rules,
    Tile,
    parse_action,
    tile_set,
    why_not,
)
from capicu.core.draw.refusals import CODES, ENGLISH, PARAMS, DrawRefusal
from helpers_core import crafted_match
from hypothesis import given, settings
from hypothesis import strategies as st

PR = Rules.preset_named("puerto-rican-drawing")


def _refused_alike(match: Match, action: object, seat: int | None) -> IllegalAction:
    """The engine's refusal of ``action`` by ``seat``; checks that `why_not` on that seat's view agrees."""
    who = match.turn if seat is None else seat
    expected = why_not(match.view(who if who is not None and 0 <= who < match.players else None), action)
    assert expected is not None, f"{action} is legal"
    before = match.log()
    with pytest.raises(IllegalAction) as info:
        match.apply(action, seat)  # type: ignore[arg-type]
    assert match.log() == before
    refused = info.value
    assert (refused.reason, dict(refused.params)) == (expected.reason, dict(expected.params))
    assert refused.action is action
    return refused


def _after_lead() -> Match:
    match = crafted_match(PR, ["6-6 0-1 0-2 0-3 0-4 0-6 0-0", "6-1 1-2 1-3 1-4 1-5 2-2 2-3"])
    match.apply(parse_action("play 6-6"))
    return match


def test_every_reason_has_an_english_sentence_that_names_its_params() -> None:
    assert set(ENGLISH) == set(CODES)
    assert PARAMS[DrawRefusal.FITS_NEITHER_END] == {"tile", "left", "right"}
    assert PARAMS[Refusal.NOT_YOUR_TURN] == {"seat"}
    assert PARAMS[Refusal.MATCH_OVER] == frozenset()


def test_a_refusal_carries_its_code_params_and_an_english_sentence() -> None:
    match = _after_lead()
    refused = _refused_alike(match, DRAW, None)
    assert refused.reason is Refusal.MUST_PLAY and refused.reason == "must-play"
    assert dict(refused.params) == {"tile": "1-6"}
    assert str(refused) == "draw: you must play a tile you hold (1-6 fits)"
    with pytest.raises(TypeError):
        refused.params["tile"] = "0-0"  # type: ignore[index]


@pytest.mark.parametrize(
    ("action", "seat", "reason", "params"),
    [
        ("play 1-6 left", 0, Refusal.NOT_YOUR_TURN, {"seat": 1}),
        ("play 0-1 left", None, Refusal.NOT_HELD, {"tile": "0-1"}),
        ("play 2-3 left", None, DrawRefusal.FITS_NEITHER_END, {"tile": "2-3", "left": 6, "right": 6}),
        ("play 9-9 left", None, Refusal.NO_SUCH_TILE, {"tile": "9-9", "max_pip": 6}),
        ("draw", None, Refusal.MUST_PLAY, {"tile": "1-6"}),
        ("pass", None, Refusal.PASS_WHILE_FITS, {"tile": "1-6"}),
        ("draw", 9, Refusal.SPECTATOR, {}),
    ],
)
def test_reasons_after_the_lead(
    action: str, seat: int | None, reason: Refusal, params: dict[str, object]
) -> None:
    refused = _refused_alike(_after_lead(), parse_action(action), seat)
    assert (refused.reason, dict(refused.params)) == (reason, params)


def test_the_wrong_end_names_the_number_there() -> None:
    match = _after_lead()
    match.apply(parse_action("play 1-6 right"))
    refused = _refused_alike(match, parse_action("play 0-6 right"), None)
    assert (refused.reason, dict(refused.params)) == (
        DrawRefusal.WRONG_END, {"tile": "0-6", "end": "right", "number": 1})
    assert str(refused) == "play 0-6 right: 0-6 does not match the right end (1)"


def test_the_lead_is_forced_and_goes_on_the_left() -> None:
    match = crafted_match(PR, ["0-1 0-2 0-3 0-4 0-5 0-6 1-1", "6-6 1-2 1-3 1-4 1-5 1-6 2-2"])
    assert _refused_alike(match, parse_action("play 2-2"), None).params == {"tile": "6-6"}
    refused = _refused_alike(match, Play(Tile(6, 6), End.RIGHT), None)
    assert (refused.reason, dict(refused.params)) == (DrawRefusal.LEAD_ON_LEFT, {"tile": "6-6"})


def test_drawing_reasons() -> None:
    partners = Rules.preset_named("puerto-rican-partners")
    hands = ["6-6 0-0 0-1 0-2 0-3 0-4 0-5", "1-1 1-2 1-3 1-4 1-5 2-2 2-3",
             "2-4 2-5 3-3 3-4 3-5 4-4 4-5", "5-5 0-6 1-6 2-6 3-6 4-6 5-6"]
    match = crafted_match(partners, hands)
    match.apply(parse_action("play 6-6"))
    assert _refused_alike(match, DRAW, None).reason is DrawRefusal.NO_DRAWING

    # Seat 1 has no 6: it must draw, and may not pass while it can.
    match = crafted_match(PR, ["6-6 6-5 6-4 6-3 6-2 6-1 0-6", "0-0 0-1 0-2 0-3 0-4 0-5 1-1",
                               "1-2 1-3 1-4 1-5 2-2 2-3 2-4"], stock="2-5 3-3 3-4 3-5 4-4 4-5 5-5")
    match.apply(parse_action("play 6-6"))
    assert _refused_alike(match, PASS, None).reason is Refusal.PASS_WHILE_DRAWABLE
    for _ in range(5):
        match.apply(DRAW)
    refused = _refused_alike(match, DRAW, None)
    assert (refused.reason, dict(refused.params)) == (DrawRefusal.RESERVE_REACHED, {"reserve": 2})

    capped = msgspec.structs.replace(Rules.preset_named("draw"), max_draws_per_turn=2)
    match = crafted_match(capped, ["6-6 0-1 0-2 0-3 0-4 0-5 0-0", "1-1 1-2 1-3 1-4 1-5 2-2 2-3"],
                          stock="2-4 2-5 3-3")
    match.apply(parse_action("play 6-6"))
    match.apply(DRAW)
    match.apply(DRAW)
    refused = _refused_alike(match, DRAW, None)
    assert (refused.reason, dict(refused.params)) == (DrawRefusal.DRAW_LIMIT, {"count": 2})


def test_an_empty_boneyard() -> None:
    # Reserve 0 and two tiles to draw: seat 1 (no 6 anywhere) draws both, then el pozo is empty.
    rules = msgspec.structs.replace(PR, reserve=0, hand_sizes=(13, 7, 7))
    sixes = "6-6 0-6 1-6 2-6 3-6 4-6 5-6 0-0 0-1 0-2 0-3 0-4 0-5"
    others = "1-1 1-2 1-3 1-4 1-5 2-2 2-3 2-4 2-5 3-3 3-4 3-5 4-4"
    match = crafted_match(rules, [sixes, others], stock="4-5 5-5")
    match.apply(parse_action("play 6-6"))
    match.apply(DRAW)
    match.apply(DRAW)
    assert match.legal_actions() == (PASS,)
    assert _refused_alike(match, DRAW, None).reason is Refusal.BONEYARD_EMPTY


def test_the_match_over_the_round_over_and_what_is_not_an_action() -> None:
    match = Match(msgspec.structs.replace(PR, target=1), 2, seed=11)
    while not match.is_over:
        match.apply(match.legal_actions()[0])
    for seat in (None, 0, 1):
        assert _refused_alike(match, DRAW, seat).reason is Refusal.MATCH_OVER
    paused = Match(PR, 2, seed=11, pause_between_rounds=True)
    while not paused.awaiting_deal:
        paused.apply(paused.legal_actions()[0])
    for seat in (None, 0, 1):
        assert _refused_alike(paused, DRAW, seat).reason is Refusal.ROUND_OVER
    refused = _refused_alike(_after_lead(), "draw", None)
    assert refused.reason is Refusal.NOT_AN_ACTION and refused.params == {"action": "'draw'"}


def _candidates(max_pip: int) -> list[Action]:
    plays: list[Action] = [Play(tile, end) for tile in tile_set(max_pip).tiles for end in End]
    return [*plays, Play(Tile(max_pip + 1, 0), End.LEFT), DRAW, PASS]


@settings(max_examples=30)
@given(
    game=st.sampled_from([("puerto-rican-drawing", 2), ("puerto-rican-drawing", 3), ("quinientos", 4),
                          ("drawing-game", 4), ("draw", 3)]),
    seed=st.integers(0, 2**16),
    steps=st.integers(0, 80),
    reserve=st.sampled_from([0, 2]),
    max_draws=st.sampled_from([None, 1, 2]),
    max_pip=st.sampled_from([6, 9]),
    pause=st.booleans(),
)
def test_why_not_is_none_exactly_for_the_legal_actions_and_the_engine_refuses_alike(
    game: tuple[str, int], seed: int, steps: int, reserve: int, max_draws: int | None, max_pip: int,
    pause: bool,
) -> None:
    preset, players = game
    rules = msgspec.structs.replace(
        Rules.preset_named(preset), reserve=reserve, max_draws_per_turn=max_draws, max_pip=max_pip
    )
    match = Match(rules, players, seed=seed, pause_between_rounds=pause)
    rng = random.Random(seed)
    for _ in range(steps):
        if match.is_over or match.awaiting_deal:
            break
        match.apply(rng.choice(match.legal_actions()))
    candidates = _candidates(max_pip)
    for seat in [*range(players), None]:
        view = match.view(seat)
        for action in candidates:
            refused = why_not(view, action)
            assert (refused is None) == (action in view.legal), (seat, action)
            if refused is None:
                continue
            assert refused.reason is not Refusal.NOT_ALLOWED, (seat, action, view)
            assert set(refused.params) == PARAMS[refused.reason]
            if seat is not None:
                _refused_alike(match, action, seat)


def test_every_refusal_is_a_code_declaring_the_params_its_english_sentence_names():
    from string import Formatter

    from capicu.core.codes import Code

    for reason in CODES:
        assert isinstance(reason, Code)
        named = {field for _, field, _, _ in Formatter().parse(ENGLISH[reason]) if field}
        assert reason.params == named, reason
    assert Refusal.NOT_HELD(tile="2-3").values == {"tile": "2-3"}
