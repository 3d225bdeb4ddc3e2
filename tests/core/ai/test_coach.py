"""The coach: it names a choice that loses by a known margin, judges from the player's view alone,
stops when asked, reports its progress, keeps its analyses beside the record, and reads
Mexican Train, Fives and Threes and the house rules too."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec
import pytest
from capicu.core import REDEAL, Match, Play, Rules, Run, Train, make_player, new_match, parse_action, tile_set
from capicu.core.ai.coach import (
    Analysis,
    Cancelled,
    CoachBudget,
    CoachReason,
    analyse,
    analyse_position,
)
from capicu.core.ai.mexican_hard import decide
from capicu.core.ai.mexican_players import make_mexican_player
from capicu.core.fives import FivesMatch
from capicu.core.games import FIVES
from capicu.core.replay import Replay, replay
from capicu.net.store.coach_store import cache_path, load_analysis, save_analysis
from capicu.tui.words.describe_coach import describe_decision, describe_summary
from capicu.tui.words.messages import command_line_language
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from tests.helpers_core import crafted_match
from tests.helpers_fives import crafted_fives

#: Small budgets keep the suite quick; nothing here depends on timing.
TINY = CoachBudget(samples=12, train_samples=4)
PR = Rules.preset_named("puerto-rican-drawing")
#: Every tile dealt, no drawing: a seat knows the other's hand exactly (all it cannot see).
OPEN = msgspec.structs.replace(PR, hand_sizes=(14, 9, 7), reserve=0, drawing=False)
#: A match of OPEN (seed 49) up to seat 0's decision with 2-4 and 5-6 in hand, ends 4 and 6,
#: and the other seat's last tile 2-5: either play lets 2-5 go out, and every move after is forced.
OPEN_MOVES = (
    "play 6-6 left", "play 2-6 left", "play 0-6 right", "play 2-2 left", "play 0-5 right", "play 0-2 left",
    "play 0-0 left", "play 3-5 right", "play 1-3 right", "play 1-4 right", "play 4-4 right",
    "play 0-4 right", "pass", "play 0-3 left", "play 3-6 left", "play 0-1 right", "play 1-6 left",
    "play 1-2 left", "play 1-1 right", "play 2-3 left", "play 3-3 left", "play 1-5 right",
    "play 5-5 right", "play 4-5 right", "play 4-6 right", "play 3-4 left",
)


def played(match: Match, moves: tuple[str, ...] | list[str]) -> Match:
    for move in moves:
        match.apply(parse_action(move), match.turn)
    return match


def bots_match(rules: Rules, players: int, seed: int, actions: int) -> Replay:
    """``actions`` moves of a match of `normal` computer players, as a replay."""
    match = new_match(rules, players, seed)
    make = make_mexican_player if rules.is_mexican_train else make_player
    bots: list[Any] = [make("normal", seed * 10 + seat) for seat in range(players)]  # either game's players
    for _ in range(actions):
        if match.is_over:
            break
        seat = match.turn
        assert seat is not None
        match.apply(bots[seat].choose(match.view(seat)), seat)
    return replay(match.log())


def round_points_after(moves: list[str], action: str) -> int:
    """Seat 0's points of the round when ``action`` follows ``moves`` and every move after is forced."""
    match = played(Match(OPEN, 2, 49), [*moves, action])
    while not match.results:
        legal = match.legal_actions()
        assert len(legal) == 1, "the position was chosen so that nothing is left to choose"
        match.apply(legal[0], match.turn)
    result = match.results[-1]
    return result.points if result.winner == 0 else -result.points


def test_the_coach_names_a_choice_that_loses_by_a_known_margin() -> None:
    moves = list(OPEN_MOVES)
    # Laying 2-4 lets 2-5 go out against the 5-6 kept (11 points); laying 5-6 keeps 2-4 (6 points).
    assert round_points_after(moves, "play 2-4 left") == -11
    assert round_points_after(moves, "play 5-6 right") == -6
    match = played(Match(OPEN, 2, 49), [*moves, "play 2-4 left"])
    record = replay(match.log())
    index = len(record.positions) - 1
    decision = analyse_position(record.positions[index], index, threshold=2.0, budget=TINY)
    assert decision is not None
    assert str(decision.chosen) == "play 2-4 left"
    assert str(decision.best.action) == "play 5-6 right"
    assert [round(c.expected, 6) for c in decision.choices] == [-6, -11]
    assert decision.cost == pytest.approx(5)
    assert decision.flagged
    assert decision.reason is CoachReason.HEAVIER
    assert dict(decision.reason_params) == {"pips": 5}
    with command_line_language("en"):
        assert describe_decision(decision, ["Ana", "Beto"], 0) == (
            "5-6 on the right was better by about 5 points: it got rid of 5 more pips.")
    with command_line_language("es"):
        assert describe_decision(decision, ["Ana", "Beto"], 0) == (
            "El 5-6 a la derecha era mejor por cerca de 5 puntos: se quitaba 5 puntos más de encima.")


def test_a_lone_choice_costs_nothing_and_is_not_searched() -> None:
    record = replay(played(Match(OPEN, 2, 49), list(OPEN_MOVES[:13])).log())  # the 13th is seat 0's pass
    index = len(record.positions) - 1
    decision = analyse_position(record.positions[index], index, budget=TINY)
    assert decision is not None
    assert str(decision.chosen) == "pass"
    assert not decision.had_choice and decision.cost == 0 and not decision.flagged


def hidden_swaps(log: dict[str, object], seat: int, index: int, first: int, second: int) -> dict[str, object]:
    """The log with two tiles of the first deal traded: one of the other seat's hand, one of the boneyard."""
    entries = list(log["entries"])  # type: ignore[call-overload]
    deal = dict(entries[0])
    order = list(deal["deal"])
    size = PR.hand_size(2)
    other = 1 - seat
    a, b = other * size + first % size, 2 * size + second % (len(order) - 2 * size)
    order[a], order[b] = order[b], order[a]
    deal["deal"] = order
    return {**log, "entries": [deal, *entries[1:index]]}


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 40), pick=st.integers(0, 100), first=st.integers(0, 20), second=st.integers(0, 50))
def test_hidden_tiles_the_player_could_not_see_do_not_change_the_advice(
    seed: int, pick: int, first: int, second: int
) -> None:
    """Tiles traded between the other hand and the boneyard, consistently with everything seat 0
    saw up to its decision (the same view before it), give the same values, choice by choice."""
    record = bots_match(PR, 2, seed, 18)
    choices = [i for i in record.decisions_of(0) if len(record.positions[i].before.legal) > 1]  # type: ignore[union-attr]
    assume(choices)
    index = choices[pick % len(choices)]
    log = record.match.log()
    cut = index + 1  # entries up to and including the decision (positions and entries are one to one)
    try:
        changed = replay(hidden_swaps(log, 0, cut, first, second))
    except ValueError:
        assume(False)  # the trade made an earlier move illegal: not consistent with what was seen
        raise
    assume(len(changed.positions) == cut)
    mine = record.positions[index]
    theirs = changed.positions[index]
    assume(theirs.before == mine.before)  # seat 0 saw exactly the same
    hidden_before = [p.views[1].hand for p in record.positions[: index + 1]]
    assume(hidden_before != [p.views[1].hand for p in changed.positions[: index + 1]])  # hands did differ
    one = analyse_position(mine, index, budget=TINY)
    two = analyse_position(theirs, index, budget=TINY)
    assert one is not None and one.had_choice
    assert one == two


def test_the_replay_of_the_other_player_does_not_enter_the_values() -> None:
    """The same decision judged twice gives the same figures (a fixed generator per position)."""
    record = bots_match(PR, 2, 3, 30)
    index = next(i for i in record.decisions_of(0) if len(record.positions[i].before.legal) > 1)  # type: ignore[union-attr]
    assert analyse_position(record.positions[index], index, budget=TINY) == analyse_position(
        record.positions[index], index, budget=TINY)


def test_progress_is_reported_up_to_the_total() -> None:
    record = bots_match(PR, 2, 5, 40)
    reports: list[tuple[int, int]] = []
    analysis = analyse(record, 0, budget=TINY, progress=lambda done, total: reports.append((done, total)))
    total = len(record.decisions_of(0))
    assert reports == [(done, total) for done in range(total + 1)]
    assert len(analysis.decisions) == total
    assert [d.position for d in analysis.decisions] == list(record.decisions_of(0))
    assert sum(analysis.given_away_by_round) == pytest.approx(sum(d.cost for d in analysis.decisions))
    costs = [d.cost for d in analysis.costliest]
    assert costs == sorted(costs, reverse=True) and len(costs) <= 3
    assert all(d.cost >= 0 and d.chosen in {c.action for c in d.choices} for d in analysis.decisions)


def test_cancel_stops_before_the_next_decision() -> None:
    record = bots_match(PR, 2, 5, 40)
    reports: list[int] = []
    with pytest.raises(Cancelled):
        analyse(record, 0, budget=TINY, progress=lambda done, total: reports.append(done),
                stop=lambda: len(reports) > 3)
    assert reports == [0, 1, 2, 3]  # asked before each decision: none analysed after the answer


def test_the_cache_round_trips_and_a_damaged_one_is_ignored(tmp_path: Path) -> None:
    record = bots_match(PR, 2, 5, 60)
    path = tmp_path / "match.capicu"
    path.write_bytes(msgspec.msgpack.encode(record.match.log()))
    assert load_analysis(path, 0) is None
    analysis = analyse(record, 0, budget=TINY, threshold=1.0)
    other = analyse(record, 1, budget=TINY, threshold=1.0)
    save_analysis(path, analysis)
    save_analysis(path, other)
    assert load_analysis(path, 0) == analysis
    assert load_analysis(path, 1) == other
    assert any(d.reason is not None for d in analysis.decisions)  # reasons travel too
    good = cache_path(path).read_bytes()
    other_format = good.replace(b"capicu-coach/1", b"capicu-coach/9")
    for damaged in (b"", b"\xc1garbage", good[: len(good) // 2], other_format):
        cache_path(path).write_bytes(damaged)
        assert load_analysis(path, 0) is None
    cache_path(path).write_bytes(good)
    path.write_bytes(path.read_bytes() + b"\x00")  # the record changed: its analyses are stale
    assert load_analysis(path, 0) is None


def test_a_mexican_train_decision_is_analysed() -> None:
    rules = Rules.preset_named("mexican-train")
    record = bots_match(rules, 3, 2, 40)
    indexes = [i for i in record.decisions_of(0) if len(record.positions[i].before.legal) > 1]  # type: ignore[union-attr]
    assert indexes
    analysis = analyse(record, 0, budget=TINY, threshold=0.0)
    searched = [d for d in analysis.decisions if d.had_choice]
    assert searched
    for decision in searched:
        values = [c.expected for c in decision.choices]
        assert values == sorted(values, reverse=True)
        assert decision.best.cost == 0 and decision.cost >= 0
    flagged = [d for d in searched if d.flagged]
    assert all(d.reason is not None for d in flagged)
    with command_line_language("en"):
        lines = describe_summary(analysis, ["Ana", "Beto", "Cleo"], 0)
    assert lines[0].startswith("Points given away")


def test_the_house_rules_are_analysed_a_new_deal_among_the_choices() -> None:
    rules = msgspec.structs.replace(PR, wild_blanks=True, draw_several=2, redeal_on_doubles=True)
    match = crafted_match(rules, ["0-0 1-1 2-2 3-3 6-6 0-1 0-2", "4-4 5-5 4-6 3-6 2-6 1-6 0-6"], seat=0)
    view = match.view(0)
    assert REDEAL in view.legal and view.turn == 0
    match.apply(REDEAL, 0)
    record = replay(match.log())
    index = next(i for i, p in enumerate(record.positions) if p.action == REDEAL)
    decision = analyse_position(record.positions[index], index, budget=TINY)
    assert decision is not None and decision.chosen == REDEAL
    assert REDEAL in {c.action for c in decision.choices} and len(decision.choices) > 1
    assert next(c.expected for c in decision.choices if c.action is REDEAL) == 0.0
    whole = bots_match(rules, 2, 7, 80)
    analysis: Analysis = analyse(whole, 1, budget=TINY)
    assert analysis.decisions and all(d.cost >= 0 for d in analysis.decisions)


def test_an_opening_run_laid_whole_is_judged_as_its_first_tile() -> None:
    rules = Rules.preset_named("mexican-train")
    match = new_match(rules, 3, 5)
    seat = match.turn
    assert seat is not None
    view = match.view(seat)
    assert view.may_run  # type: ignore[union-attr]
    plan = decide(view, 0)  # type: ignore[arg-type]
    tiles = tile_set(rules.max_pip).tiles
    match.apply(Run(tuple(tiles[i] for i in plan.run)), seat)
    record = replay(match.log())
    index = len(record.positions) - 1
    assert isinstance(record.positions[index].action, Run)
    decision = analyse_position(record.positions[index], index, budget=TINY)
    assert decision is not None
    assert decision.chosen == Play(tiles[plan.run[0]], Train(seat))
    assert decision.chosen in {c.action for c in decision.choices}


# -- Fives and Threes ------------------------------------------------------------------------

#: Every tile dealt (14 each to two players): a seat knows the other's hand exactly.
FIVES_OPEN = msgspec.structs.replace(Rules.preset_named("fives-and-threes"), hand_sizes=(14, 5, 5))
FIVES_TINY = CoachBudget(fives_samples=8)


def fives_bots(rules: Rules, players: int, seed: int, actions: int) -> FivesMatch:
    """``actions`` moves of a Fives and Threes match of `normal` computer players."""
    match = FivesMatch(rules, players, seed)  # type: ignore[arg-type]
    bots = [FIVES.make_player("normal", seat) for seat in range(players)]
    for _ in range(actions):
        if match.is_over:
            break
        seat = match.turn
        assert seat is not None
        match.apply(bots[seat].choose(match.view(seat)), seat)
    return match


def test_a_fives_decision_is_valued_as_the_points_difference_it_gives_the_players_side() -> None:
    # Seed 0 after 27 moves: seat 0 lays its last tile, 0-2, and the hand ends: on the left it scores
    # nothing and the go (1 point more for its side than for the other), on the right 2 and the go (3).
    match = fives_bots(FIVES_OPEN, 2, 0, 27)
    assert match.turn == 0 and set(map(str, match.legal_actions())) == {"play 0-2 left", "play 0-2 right"}
    match.apply(parse_action("play 0-2 left"), 0)
    assert match.results[0].go_side == 0
    record = replay(match.log())
    index = next(i for i, p in enumerate(record.positions) if p.action == parse_action("play 0-2 left"))
    decision = analyse_position(record.positions[index], index, budget=FIVES_TINY, threshold=1.0)
    assert decision is not None and decision.had_choice
    assert decision.best.action == parse_action("play 0-2 right") and decision.best.expected == 3.0
    assert decision.cost == 2.0 and decision.flagged and decision.reason is not None
    with command_line_language("en"):
        said = describe_decision(decision, ["Ana", "Beto"], 0)
    assert said.startswith("0-2 on the right was better by about 2 points: "), said


def test_the_fives_coach_reasons_score_now_and_what_a_play_leaves_the_next_player() -> None:
    rules = Rules.preset_named("fives-and-threes")
    # Ends 3 and 6 (3-6 led): 6-6 across the 6 makes 15 for 8; 2-3 on the 3 makes 8, nothing.
    match = crafted_fives(rules, ["6-6 2-3 0-1 0-2 1-1 1-2 1-3", "3-6 4-4 4-5 5-5 5-6 2-2 2-4"], leader=1)
    match.apply(parse_action("play 3-6"), 1)
    match.apply(parse_action("play 2-3 left"), 0)
    record = replay(match.log())
    index = len(record.positions) - 1
    decision = analyse_position(record.positions[index], index, budget=FIVES_TINY, threshold=1.0)
    assert decision is not None and decision.best.action == parse_action("play 6-6 right")
    assert decision.reason is CoachReason.SCORED_MORE
    assert dict(decision.reason_params) == {"tile": "6-6", "points": 8}
    # Near the target the play that reaches it is named so.
    won = msgspec.structs.replace(rules, target=8)
    match = crafted_fives(won, ["6-6 2-3 0-1 0-2 1-1 1-2 1-3", "3-6 4-4 4-5 5-5 5-6 2-2 2-4"], leader=1)
    match.apply(parse_action("play 3-6"), 1)
    match.apply(parse_action("play 2-3 left"), 0)
    record = replay(match.log())
    decision = analyse_position(record.positions[-1], len(record.positions) - 1, budget=FIVES_TINY)
    assert decision is not None and decision.reason is CoachReason.REACHED_TARGET
    with command_line_language("es"):
        said = describe_decision(decision, ["Ana", "Beto"], 0)
    assert "6-6" in said and "better" not in said
    # Seed 4, the 15th position: 5-5 scores no more now than 3-6, but 3-6 leaves Beto, next, about 4.
    record = replay(fives_bots(rules, 2, 4, 30).log())
    decision = analyse_position(record.positions[14], 14, budget=CoachBudget(fives_samples=100),
                                threshold=1.5)
    assert decision is not None and decision.chosen == parse_action("play 3-6 left")
    assert decision.reason is CoachReason.LEFT_A_SCORE
    assert dict(decision.reason_params) == {"seat": 1, "points": 4}
    with command_line_language("en"):
        said = describe_decision(decision, ["Ana", "Beto"], 0)
    assert said.endswith(": your choice left Beto about 4 to score on the ends."), said


def test_a_whole_fives_match_is_analysed_and_hidden_tiles_do_not_change_the_advice() -> None:
    match = fives_bots(Rules.preset_named("fives-and-threes"), 4, 3, 60)
    record = replay(match.log())
    analysis = analyse(record, 0, budget=FIVES_TINY, threshold=0.0)
    searched = [d for d in analysis.decisions if d.had_choice]
    assert searched and all(d.cost >= 0 and d.best.cost == 0 for d in analysis.decisions)
    assert all(d.reason is not None for d in searched if d.flagged)
    # The same record gives the same analysis: the random numbers are the coach's seed's and the position's.
    assert analyse(record, 0, budget=FIVES_TINY, threshold=0.0) == analysis
    with command_line_language("en"):
        lines = describe_summary(analysis, ["Ana", "Beto", "Cleo", "Dora"], 0)
    assert lines[0].startswith("Points given away")
