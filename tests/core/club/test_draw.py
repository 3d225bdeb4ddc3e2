"""The draws: pure functions of the night so far and a seed, checked against brute force for small fields."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Sequence
from itertools import combinations

import pytest
from capicu.core import Rules
from capicu.core.club import (
    ByeRule,
    ClubConfig,
    ClubError,
    ClubFormat,
    ClubNight,
    ClubProblem,
    Phase,
    RoundDraw,
    draw_round,
    round_robin_rounds,
)
from helpers_club import BY_STANDINGS, PARTNERS, nights
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st


def next_draw(night: ClubNight, seed: int) -> RoundDraw:
    return draw_round(night.config, night.entrants, night.results, night.round + 1, seed, draws=night.draws)


# -- brute force --------------------------------------------------------------------------------------


def partitions(units: Sequence[object], sizes: Sequence[int]) -> Iterator[list[tuple[object, ...]]]:
    """Every way to put ``units`` in unordered groups of ``sizes``."""
    if not units:
        yield []
        return
    first, rest = units[0], units[1:]
    for size in set(sizes):
        left = list(sizes)
        left.remove(size)
        for others in combinations(rest, size - 1):
            remaining = [u for u in rest if u not in others]
            for tail in partitions(remaining, left):
                yield [(first, *others), *tail]


def apart_sets(units: Sequence[tuple[int, ...]], count: int,
               had: Counter[int]) -> Iterator[list[tuple[int, ...]]]:
    """Every set of ``count`` units that had it least (a bye, a computer): fair choices."""
    for chosen in combinations(units, count):
        left = [u for u in units if u not in chosen]
        if not left or not chosen or max(sum(had[a] for a in u) for u in chosen) <= min(
                sum(had[a] for a in u) for u in left):
            yield list(chosen)


def met_before(night: ClubNight) -> Counter[tuple[int, int]]:
    met: Counter[tuple[int, int]] = Counter()
    for standing in night.standings():
        for other in standing.opponents:
            met[(standing.entrant, other)] += 1
    return met


def partnered_before(night: ClubNight) -> Counter[tuple[int, int]]:
    partnered: Counter[tuple[int, int]] = Counter()
    for standing in night.standings():
        for other in standing.partners:
            partnered[(standing.entrant, other)] += 1
    return partnered


def repeats(groups: Sequence[Sequence[tuple[int, ...]]], met: Counter[tuple[int, int]]) -> int:
    return sum(met[(a, b)] for group in groups for u, v in combinations(group, 2) for a in u for b in v)


def units_of(night: ClubNight) -> list[tuple[int, ...]]:
    if not night.config.fixed_pairs:
        return [(e.id,) for e in night.active]
    pairs: dict[int, list[int]] = {}
    for e in night.active:
        pairs.setdefault(e.id // 2, []).append(e.id)
    return [tuple(p) for p in pairs.values()]


def had_counts(night: ClubNight, computer: bool) -> Counter[int]:
    return Counter({s.entrant: s.computer_seats if computer else s.byes for s in night.standings()})


# -- the properties -------------------------------------------------------------------------------------

FEW = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FEW
@given(nights(), st.integers(0, 2**32))
def test_a_draw_seats_everyone_still_in_once_and_is_a_function_of_the_night_and_seed(
        night: ClubNight, seed: int) -> None:
    if night.phase is Phase.OVER:
        return
    try:
        drawn = next_draw(night, seed)
    except ClubError as error:
        assert error.code is ClubProblem.TOO_FEW
        return
    assert drawn == next_draw(night, seed)
    seated = [*drawn.seated, *drawn.byes]
    assert sorted(seated) == sorted(e.id for e in night.active)
    computers = [table.seats.count(None) for table in drawn.tables]
    assert all(len(table.seats) == night.config.table_size and table.entrants for table in drawn.tables)
    if night.config.bye is ByeRule.COMPUTER:
        assert drawn.byes == ()
        if not night.config.fixed_pairs:
            assert max(computers) - min(computers) <= 1 or night.config.partners
    elif not night.config.fixed_pairs:
        assert sum(computers) == 0
    assert ClubNight.from_log(night.start_round(seed).log()).draws[-1] == drawn


@FEW
@given(nights(kinds=("singles", "threes", "train-4", "fixed-pairs"), most=8), st.integers(0, 2**32))
def test_swiss_repeats_no_opponent_while_it_can_be_avoided(night: ClubNight, seed: int) -> None:
    if night.phase is Phase.OVER:
        return
    drawn = next_draw(night, seed)
    met = met_before(night)
    computer = night.config.bye is ByeRule.COMPUTER
    of = {a: unit for unit in units_of(night) for a in unit}
    groups = [sorted({of[a] for a in table.entrants}) for table in drawn.tables]
    playing = [g for g in groups if len(g) > 1]
    ours = repeats(playing, met)
    units = units_of(night)
    apart = len(units) - sum(len(g) for g in playing)
    sizes = [len(g) for g in playing]
    had = had_counts(night, computer)
    least = min(
        repeats(grouping, met)  # type: ignore[arg-type]
        for chosen in apart_sets(units, apart, had)
        for grouping in partitions([u for u in units if u not in chosen], sizes)
    )
    assert ours == least


@FEW
@given(nights(kinds=("rotating",), most=9), st.integers(0, 2**32))
def test_rotating_partners_repeats_no_partner_while_it_can_be_avoided(night: ClubNight, seed: int) -> None:
    if night.phase is Phase.OVER:
        return
    drawn = next_draw(night, seed)
    partnered = partnered_before(night)
    ours = 0
    pairs = 0
    for table in drawn.tables:
        for a, b in ((table.seats[0], table.seats[2]), (table.seats[1], table.seats[3])):
            if a is not None and b is not None:
                ours += partnered[(a, b)]
                pairs += 1
    players = units_of(night)
    computer = night.config.bye is ByeRule.COMPUTER
    had = had_counts(night, computer)
    least = min(
        repeats(grouping, partnered)  # type: ignore[arg-type]
        for chosen in apart_sets(players, len(players) - 2 * pairs, had)
        for grouping in partitions([p for p in players if p not in chosen], [2] * pairs)
    )
    assert ours == least


@FEW
@given(nights(kinds=BY_STANDINGS, most=9), st.integers(0, 2**32))
def test_byes_and_computer_seats_go_to_whoever_had_them_least(night: ClubNight, seed: int) -> None:
    if night.phase is Phase.OVER:
        return
    drawn = next_draw(night, seed)
    had = had_counts(night, computer=False)
    if drawn.byes:
        others = [e.id for e in night.active if e.id not in drawn.byes]
        assert max(had[a] for a in drawn.byes) <= min((had[a] for a in others), default=99)
    if night.config.bye is ByeRule.COMPUTER and night.config.table_size == 2:
        had = had_counts(night, computer=True)
        alone = [t.entrants[0] for t in drawn.tables if len(t.entrants) == 1]
        others = [e.id for e in night.active if e.id not in alone]
        if alone:
            assert max(had[a] for a in alone) <= min((had[a] for a in others), default=99)


@pytest.mark.parametrize("fixed_pairs", [False, True])
@pytest.mark.parametrize("units", range(2, 12))
@pytest.mark.parametrize("bye", list(ByeRule))
def test_a_round_robin_meets_everyone_once(units: int, fixed_pairs: bool, bye: ByeRule) -> None:
    rules, size = (PARTNERS, 4) if fixed_pairs else (Rules(), 2)
    night = ClubNight.open(ClubConfig(rules=rules, table_size=size, format=ClubFormat.ROUND_ROBIN, bye=bye,
                                      rounds=30))
    for i in range(units * (2 if fixed_pairs else 1)):
        night = night.join(f"P{i}")
    while night.phase is not Phase.OVER:
        night = night.start_round(seed=night.round)
        for table in night.draws[-1].tables:
            night = night.close_table(night.round, table.number, (1, 0))
    assert night.round == round_robin_rounds(units)
    unit_of = (lambda a: a // 2) if fixed_pairs else (lambda a: a)
    met: Counter[tuple[int, int]] = Counter()
    sat_out: Counter[int] = Counter()
    for drawn in night.draws:
        for table in drawn.tables:
            sides = {unit_of(a) for a in table.entrants}
            if len(sides) == 1:
                sat_out[sides.pop()] += 1
            else:
                met[tuple(sorted(sides))] += 1  # type: ignore[index]
        for a in drawn.byes:
            sat_out[unit_of(a)] += 1 if not fixed_pairs or a % 2 == 0 else 0
    assert met == Counter({pair: 1 for pair in combinations(range(units), 2)})
    assert sat_out == (Counter(range(units)) if units % 2 else Counter())


def test_round_robin_refuses_a_field_too_big_and_joins_after_round_one() -> None:
    night = ClubNight.open(ClubConfig(rules=Rules(), format=ClubFormat.ROUND_ROBIN))
    for i in range(17):
        night = night.join(f"P{i}")
    with pytest.raises(ClubError) as error:
        night.start_round(seed=1)
    assert error.value.code is ClubProblem.ROUND_ROBIN_TOO_MANY
    night = night.leave(16).start_round(seed=1)
    with pytest.raises(ClubError) as error:
        night.join("Late")
    assert error.value.code is ClubProblem.ROUND_ROBIN_CLOSED


def test_swiss_seats_the_best_together() -> None:
    """Round 2 of four players: the two winners meet, the two losers meet."""
    night = ClubNight.open(ClubConfig(rules=Rules(), rounds=2))
    for name in ("Ana", "Bea", "Cruz", "Dani"):
        night = night.join(name)
    night = night.start_round(seed=3)
    winners = []
    for table in night.draws[-1].tables:
        night = night.close_table(1, table.number, (50, 10))
        winners.append(table.seats[0])
    night = night.start_round(seed=4)
    top = night.draws[-1].tables[0]
    assert sorted(top.entrants) == sorted(winners)


def test_a_partners_table_seats_partners_across() -> None:
    night = ClubNight.open(ClubConfig(rules=PARTNERS, table_size=4))
    for i in range(8):
        night = night.join(f"P{i}")
    drawn = night.start_round(seed=9).draws[-1]
    for table in drawn.tables:
        a, b, c, d = table.seats
        assert a is not None and b is not None and c is not None and d is not None
        assert a // 2 == c // 2 and b // 2 == d // 2


@pytest.mark.parametrize(("count", "bye", "tables", "byes"), [
    (5, ByeRule.COMPUTER, 3, 0), (5, ByeRule.WIN, 2, 1), (5, ByeRule.NOTHING, 2, 1), (4, ByeRule.WIN, 2, 0),
])
def test_an_odd_player_is_seated_against_a_computer_or_sits_out_as_chosen(
        count: int, bye: ByeRule, tables: int, byes: int) -> None:
    night = ClubNight.open(ClubConfig(rules=Rules(), bye=bye))
    for i in range(count):
        night = night.join(f"P{i}")
    drawn = night.start_round(seed=1).draws[-1]
    assert (len(drawn.tables), len(drawn.byes)) == (tables, byes)
    for table in drawn.tables[:-1]:
        assert None not in table.seats


@pytest.mark.parametrize("players", [4, 8, 12, 16])
@pytest.mark.parametrize("seed", [3, 4, 5])
def test_rotating_partners_gives_everyone_every_partner_once_over_a_whole_evening(players: int,
                                                                                   seed: int) -> None:
    """An even field nobody leaves: n - 1 rounds, never the same partner twice (the circle's pairs)."""
    night = ClubNight.open(ClubConfig(rules=PARTNERS, table_size=4, format=ClubFormat.ROTATING,
                                      rounds=players - 1))
    for i in range(players):
        night = night.join(f"P{i}")
    luck = random.Random(seed)
    while night.phase is not Phase.OVER:
        night = night.start_round(seed=luck.randrange(1 << 30))
        for table in night.draws[-1].tables:
            night = night.close_table(night.round, table.number, (luck.randrange(200), luck.randrange(200)))
    for standing in night.standings():
        assert sorted(standing.partners) == sorted(set(range(players)) - {standing.entrant})


@FEW
@given(nights(), st.integers(0, 2**32), st.randoms(use_true_random=False))
def test_a_draw_depends_on_the_results_not_on_the_order_they_came_in(night: ClubNight, seed: int,
                                                                     luck: random.Random) -> None:
    if night.phase is Phase.OVER or len(night.results) < 2:
        return
    shuffled = list(night.results)
    luck.shuffle(shuffled)
    try:
        drawn = next_draw(night, seed)
    except ClubError:
        return
    again = draw_round(night.config, night.entrants, shuffled, night.round + 1, seed, draws=night.draws)
    assert again == drawn
