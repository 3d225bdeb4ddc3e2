"""Each round's tables: a pure function of the night so far and a seed.

`draw_round` seats the players (or pairs) still in the night for one round:

- **Swiss**: by standings, the best together (1 meets 2, 3 meets 4, as the
  Monrad system does), avoiding opponents already met where possible: a search
  for the draw with the fewest repeated opponents (exact for any field small
  enough to check by brute force; past `SEARCH_STEPS` it keeps the best it
  found). In a partners' game the units are fixed pairs: entrants 0+1, 2+3, ...
  in joining order; one whose partner left (or who has none yet) plays with a
  computer partner, whatever the `ByeRule`.
- **Rotating partners**: each round new partners: first the partnerships, the
  fewest repeated partners (and among those, the circle method's for the
  round, so that an even field nobody leaves has every partner once in n - 1
  rounds), then the tables: as few computers at one as can be, then the fewest
  repeated opponents.
- **Round robin**: the circle method over the field as its first round found it
  (in joining order): everyone meets everyone once.

When the field does not divide into tables, `ByeRule` says what happens to the
players left over: a computer fills the empty seats, or they sit the round out
(a bye); either goes to whoever has had it least, the lowest in the standings
first. The seed breaks ties in the standings (round 1 is all ties: a random
draw) and orders the seats at each table; the same night and seed give the
same draw.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import combinations
from typing import Protocol

from .format import (
    MOST_ROUND_ROBIN,
    ByeRule,
    ClubConfig,
    ClubError,
    ClubFormat,
    ClubProblem,
    Entrant,
    MatchResult,
    RoundDraw,
    TableDraw,
)
from .standings import standings

#: A player, or a fixed pair of partners (one of them when the other left): entrant ids.
Unit = tuple[int, ...]

#: The steps one draw's search for the fewest repeats may take (a step: one table tried); past
#: them it keeps the best draw found. A field small enough to check by brute force never nears it.
SEARCH_STEPS = 50_000
#: The most of them the exact search may take (the local search has the rest): far more than
#: any field small enough to search whole needs.
EXACT_STEPS = 10_000


class _History:
    """Who met whom, who partnered whom, and who sat out or played a computer, so far."""

    def __init__(self, results: Iterable[MatchResult], draws: Iterable[RoundDraw]) -> None:
        self.met: Counter[tuple[int, int]] = Counter()
        self.partnered: Counter[tuple[int, int]] = Counter()
        self.computer: Counter[int] = Counter()
        self.byes: Counter[int] = Counter()
        for draw in draws:
            self.byes.update(draw.byes)
        for result in results:
            humans = [seat for seat in result.seats if seat is not None]
            for index, side in enumerate(result.sides):
                members = [a for a in (result.seats[s] for s in side) if a is not None]
                for a, b in combinations(members, 2):
                    self.partnered[_pair(a, b)] += 1
                for other in result.sides[index + 1:]:
                    them = [b for b in (result.seats[s] for s in other) if b is not None]
                    self.met.update(_pair(a, b) for a in members for b in them)
            if len(humans) < len(result.seats):
                self.computer.update(humans)

    def opponents_cost(self, group: Sequence[Unit]) -> int:
        """Repeated opponents among the units of one table (each pair met before, once per meeting)."""
        return sum(self.met[_pair(a, b)] for u, v in combinations(group, 2) for a in u for b in v)

    def partners_cost(self, group: Sequence[Unit]) -> int:
        """Repeated partners within one partnership."""
        members = [a for unit in group for a in unit]
        return sum(self.partnered[_pair(a, b)] for a, b in combinations(members, 2))


def _pair(a: int, b: int) -> tuple[int, int]:
    return (a, b) if a < b else (b, a)


class DrawRound(Protocol):
    """What draws a round (`draw_round`; a test may give one of its own to a host)."""

    def __call__(self, config: ClubConfig, entrants: Sequence[Entrant], results: Iterable[MatchResult],
                 round: int, seed: int, *, draws: Iterable[RoundDraw] = ()) -> RoundDraw: ...


def draw_round(
    config: ClubConfig,
    entrants: Sequence[Entrant],
    results: Iterable[MatchResult],
    round: int,
    seed: int,
    *,
    draws: Iterable[RoundDraw] = (),
) -> RoundDraw:
    """Round ``round``'s tables for the entrants still in the night (`Entrant.active`).

    ``results`` and ``draws`` are the night's so far (the draws say who had byes). Raises
    `ClubError` when too few are left to fill a table with people.
    """
    results, draws = tuple(results), tuple(draws)
    rng = random.Random(seed)
    history = _History(results, draws)
    if config.format is ClubFormat.ROUND_ROBIN:
        return _round_robin(config, entrants, draws, round, rng)
    order = _ranked(config, entrants, results, draws, rng)
    if config.format is ClubFormat.ROTATING:
        return _rotating(config, order, history, round, rng)
    units = _units(config, [e for e in entrants if e.active], order)
    return _swiss(config, units, history, round, rng)


def _ranked(config: ClubConfig, entrants: Sequence[Entrant], results: tuple[MatchResult, ...],
            draws: tuple[RoundDraw, ...], rng: random.Random) -> dict[int, int]:
    """Each active entrant's place (0 the best), ties in the standings broken by the seed."""
    table = standings(config, entrants, results, draws)
    active = {e.id for e in entrants if e.active}
    luck = {e.id: rng.random() for e in entrants}
    ranked = sorted((s for s in table if s.entrant in active),
                    key=lambda s: (-s.won, -s.difference, -s.buchholz, luck[s.entrant]))
    return {s.entrant: place for place, s in enumerate(ranked)}


def _units(config: ClubConfig, active: Sequence[Entrant], order: dict[int, int]) -> list[Unit]:
    """The units to seat, best first: players, or fixed pairs (0+1, 2+3, ...) of those still in."""
    if not config.fixed_pairs:
        units: list[Unit] = [(e.id,) for e in active]
    else:
        pairs: dict[int, list[int]] = {}
        for e in active:
            pairs.setdefault(e.id // 2, []).append(e.id)
        units = [tuple(members) for members in pairs.values()]
    return sorted(units, key=lambda unit: min(order[a] for a in unit))


def _too_few(count: int, least: int) -> ClubError:
    return ClubError(f"a round needs {least} players or pairs still in the night; there are {count}",
                     ClubProblem.TOO_FEW, count=count, least=least)


#: What a grouping costs, compared in order: what matters most first. All counts, never negative.
Cost = tuple[int, int]
_FREE: Cost = (0, 0)


def _add(a: Cost, b: Cost) -> Cost:
    return (a[0] + b[0], a[1] + b[1])


class _Budget:
    """The steps a draw's searches may still take (`SEARCH_STEPS`, shared by all of one draw's)."""

    def __init__(self, steps: int) -> None:
        self.left = steps

    def spend(self) -> bool:
        self.left -= 1
        return self.left >= 0


def _best_grouping(units: Sequence[Unit], sizes: Sequence[int], cost: Callable[[Sequence[Unit], int], Cost],
                   budget: _Budget, luck: random.Random) -> tuple[list[list[Unit]], Cost]:
    """The units in groups of ``sizes`` (in any order) with the least total ``cost``; and that cost.

    First a quick grouping (`_greedy`, then `_improve`d by swaps); if it costs anything, a branch
    and bound search, depth first, for a cheaper one (the best ranked unit left takes each size
    left, the largest first, with those ranked nearest it first): exact when it ends within half
    the budget. When it does not (a large field), a local search from the best found spends the
    rest: a unit or two of a costly group swapped with others at random (by ``luck``), then
    improved again, what finds a grouping without repeats where one is easy to miss. The groups
    come best ranked first.
    """
    if sum(sizes) != len(units):
        raise ValueError("the groups' sizes do not add up to the units")
    rank = {unit: place for place, unit in enumerate(units)}
    best = _improve(_greedy(units, sizes, cost, rank), cost, budget)
    best_cost = _total(best, cost)
    # The exact search may spend half the budget left (at most EXACT_STEPS); the local search the rest.
    exact = _Budget(min(budget.left // 2, EXACT_STEPS))

    def search(left: list[Unit], sizes_left: Counter[int], groups: list[list[Unit]], spent: Cost) -> bool:
        """Search on; True once nothing better can be found (a free grouping, or no budget left)."""
        nonlocal best, best_cost
        if not left:
            best, best_cost = list(groups), spent
            return spent == _FREE
        first, rest = left[0], left[1:]
        for size in sorted(sizes_left, reverse=True):
            sizes_left[size] -= 1
            after = +sizes_left
            for others in combinations(rest, size - 1):
                if not exact.spend():
                    return True
                group = [first, *others]
                total = _add(spent, cost(group, size))
                if total >= best_cost:
                    continue
                remaining = [unit for unit in rest if unit not in others]
                if search(remaining, after, [*groups, group], total):
                    return True
            sizes_left[size] += 1
        return False

    if best_cost != _FREE:
        allowed = exact.left
        search(list(units), Counter(sizes), [], _FREE)
        budget.left -= allowed - max(exact.left, 0)
    current, current_cost = best, best_cost
    while best_cost != _FREE and exact.left < 0 and len(best) > 1 and budget.left > 0:
        tried = _improve(_perturbed(current, cost, luck), cost, budget)
        tried_cost = _total(tried, cost)
        if tried_cost <= current_cost:  # level moves too: the search walks across plateaus
            current, current_cost = tried, tried_cost
        if tried_cost < best_cost:
            best, best_cost = tried, tried_cost
    ordered = [sorted(group, key=rank.__getitem__) for group in best]
    return sorted(ordered, key=lambda group: (-len(group), rank[group[0]])), best_cost


def _total(groups: Sequence[Sequence[Unit]], cost: Callable[[Sequence[Unit], int], Cost]) -> Cost:
    spent = _FREE
    for group in groups:
        spent = _add(spent, cost(group, len(group)))
    return spent


def _perturbed(groups: Sequence[Sequence[Unit]], cost: Callable[[Sequence[Unit], int], Cost],
               luck: random.Random) -> list[list[Unit]]:
    """``groups`` with a unit of a costly group (any group when none is) swapped with one of another."""
    changed = [list(group) for group in groups]
    costly = [i for i, group in enumerate(changed) if cost(group, len(group)) != _FREE]
    costly = costly or list(range(len(changed)))
    for _ in range(luck.randint(1, 2)):
        i = luck.choice(costly)
        j = luck.choice([other for other in range(len(changed)) if other != i])
        a, b = luck.randrange(len(changed[i])), luck.randrange(len(changed[j]))
        changed[i][a], changed[j][b] = changed[j][b], changed[i][a]
    return changed


def _greedy(units: Sequence[Unit], sizes: Sequence[int], cost: Callable[[Sequence[Unit], int], Cost],
            rank: dict[Unit, int]) -> list[list[Unit]]:
    """Table by table, the best ranked left and, one by one, whoever adds least cost (the nearest ranked)."""
    left = list(units)
    groups = []
    for size in sorted(sizes, reverse=True):
        group = [left.pop(0)]
        while len(group) < size:
            chosen = min(left, key=lambda unit: (cost([*group, unit], size), rank[unit]))
            left.remove(chosen)
            group.append(chosen)
        groups.append(group)
    return groups


def _improve(groups: list[list[Unit]], cost: Callable[[Sequence[Unit], int], Cost],
             budget: _Budget) -> list[list[Unit]]:
    """``groups`` after swapping two units of two groups while a swap makes them cost less."""
    groups = [list(group) for group in groups]
    better = True
    while better:
        better = False
        for i, j in combinations(range(len(groups)), 2):
            first, second = groups[i], groups[j]
            now = _add(cost(first, len(first)), cost(second, len(second)))
            if now == _FREE:
                continue
            for a, b in ((a, b) for a in range(len(first)) for b in range(len(second))):
                if not budget.spend():
                    return groups
                one = [*first[:a], second[b], *first[a + 1:]]
                two = [*second[:b], first[a], *second[b + 1:]]
                if _add(cost(one, len(one)), cost(two, len(two))) < now:
                    groups[i], groups[j] = first, second = one, two
                    now = _add(cost(first, len(first)), cost(second, len(second)))
                    better = True
    return groups


#: The most ways of choosing who sits out (or plays the computers alone) a draw tries.
MOST_CHOICES = 64


def _choices(units: Sequence[Unit], count: int, had: Callable[[Unit], int]) -> Iterator[list[Unit]]:
    """The ways to choose ``count`` units to sit out, each set among those who had it least.

    Those who had it fewer times than the ``count``-th least always are; the rest come from the
    next tier, the lowest ranked first (``units`` are best first).
    """
    if count == 0:
        yield []
        return
    lowest_first = list(reversed(units))
    threshold = sorted(had(unit) for unit in units)[count - 1]
    must = [unit for unit in lowest_first if had(unit) < threshold]
    tier = [unit for unit in lowest_first if had(unit) == threshold]
    for n, chosen in enumerate(combinations(tier, count - len(must))):
        if n == MOST_CHOICES:
            return
        yield [*must, *chosen]


def _cheapest(units: Sequence[Unit], count: int, had: Callable[[Unit], int], sizes: Sequence[int],
              cost: Callable[[Sequence[Unit], int], Cost], budget: _Budget, luck: random.Random,
              ) -> tuple[list[Unit], list[list[Unit]], Cost]:
    """Who is set apart (``count`` who had it least) and the others' grouping, costing least."""
    best: tuple[list[Unit], list[list[Unit]], Cost] | None = None
    for apart in _choices(units, count, had):
        playing = [unit for unit in units if unit not in apart]
        groups, spent = _best_grouping(playing, sizes, cost, budget, luck)
        if best is None or spent < best[2]:
            best = (apart, groups, spent)
        if spent == _FREE or budget.left <= 0:
            break
    assert best is not None
    return best


def _table_sizes(count: int, per_table: int) -> list[int]:
    """Tables for ``count`` units with computers in the empty seats: as few computers a table as can be."""
    tables = -(-count // per_table)
    sizes = [per_table] * tables
    for i in range(tables * per_table - count):  # the empty seats, one a table from the last up
        sizes[-1 - i % tables] -= 1
    return sizes


def _swiss(config: ClubConfig, units: list[Unit], history: _History, round: int,
           rng: random.Random) -> RoundDraw:
    per_table = 2 if config.fixed_pairs else config.table_size
    computer = config.bye is ByeRule.COMPUTER
    least = 2 if computer or per_table == 2 else per_table
    if len(units) < least:
        raise _too_few(len(units), least)

    def cost(group: Sequence[Unit], size: int) -> Cost:
        # Repeated opponents first; then, at a table a computer fills, who played one before.
        short = size < per_table
        return (history.opponents_cost(group),
                sum(history.computer[a] for unit in group for a in unit) if short else 0)

    budget = _Budget(SEARCH_STEPS)
    luck = random.Random(rng.getrandbits(64))
    if computer:
        sizes = _table_sizes(len(units), per_table)
        alone_count, sizes = sizes.count(1), [size for size in sizes if size > 1]
        alone, groups, _ = _cheapest(units, alone_count, lambda u: sum(history.computer[a] for a in u),
                                     sizes, cost, budget, luck)
        out: list[Unit] = []
        groups += [[unit] for unit in alone]
    else:
        sizes = [per_table] * (len(units) // per_table)
        out, groups, _ = _cheapest(units, len(units) % per_table, lambda u: sum(history.byes[a] for a in u),
                                   sizes, cost, budget, luck)
    tables = tuple(TableDraw(number, _seat(config, group, rng)) for number, group in enumerate(groups, 1))
    return RoundDraw(round, tables, tuple(sorted(a for unit in out for a in unit)))


def _seat(config: ClubConfig, group: Sequence[Unit], rng: random.Random) -> tuple[int | None, ...]:
    """The seats of one table: partners across, the rest in an order drawn by the seed."""
    if config.partners:
        sides = [list(unit) + [None] * (2 - len(unit)) for unit in group]
        sides += [[None, None]] * (2 - len(sides))
        for side in sides:
            rng.shuffle(side)
        rng.shuffle(sides)
        return (sides[0][0], sides[1][0], sides[0][1], sides[1][1])
    seats: list[int | None] = [a for unit in group for a in unit]
    seats += [None] * (config.table_size - len(seats))
    rng.shuffle(seats)
    return tuple(seats)


def _rotating(config: ClubConfig, order: dict[int, int], history: _History, round: int,
              rng: random.Random) -> RoundDraw:
    """New partners: the partnerships with the fewest repeated partners, then their tables.

    Those left over (by `ByeRule`) sit out, or partner a computer: who had it least.
    """
    players: list[Unit] = [(a,) for a in sorted(order, key=order.__getitem__)]
    computer = config.bye is ByeRule.COMPUTER
    if len(players) < (2 if computer else 4):
        raise _too_few(len(players), 2 if computer else 4)
    if computer:
        apart_count = 4 * -(-len(players) // 4) - len(players)

        def had(unit: Unit) -> int:
            return history.computer[unit[0]]
    else:
        apart_count = len(players) % 4

        def had(unit: Unit) -> int:
            return history.byes[unit[0]]

    # Among the partnerships that repeat least, the circle method's for this round (over everyone in
    # joining order): while nobody joins or leaves, n - 1 rounds of it never repeat a partner, where
    # choosing round by round could leave only repeats for the last rounds.
    circle = {_pair(first[0], second[0]) for first, second in _circle_pairs(sorted(players), round)
              if first is not None and second is not None}

    def partners_cost(group: Sequence[Unit], size: int) -> Cost:
        pair = _pair(group[0][0], group[1][0])
        return (history.partners_cost(group), pair not in circle)

    budget = _Budget(SEARCH_STEPS)
    luck = random.Random(rng.getrandbits(64))
    pairing_count = (len(players) - apart_count) // 2
    apart, pairs, _ = _cheapest(players, apart_count, had, [2] * pairing_count, partners_cost, budget, luck)
    alone = apart if computer else []
    out = [] if computer else apart
    partnerships = [tuple(a for unit in pair for a in unit) for pair in pairs]
    sides = sorted([*partnerships, *alone], key=lambda unit: sum(order[a] for a in unit) / len(unit))

    def table_cost(group: Sequence[Unit], size: int) -> Cost:
        # As few computers at one table as can be (a single is a player with a computer partner),
        # then the fewest repeated opponents.
        return (max(0, sum(len(unit) == 1 for unit in group) - 1), history.opponents_cost(group))

    groups, _ = _best_grouping(sides, [2] * (len(sides) // 2), table_cost, _Budget(SEARCH_STEPS), luck)
    tables = tuple(TableDraw(number, _seat(config, group, rng)) for number, group in enumerate(groups, 1))
    return RoundDraw(round, tables, tuple(sorted(a for unit in out for a in unit)))


def round_robin_rounds(units: int) -> int:
    """The rounds of a round robin of ``units`` players or pairs: everyone meets everyone once."""
    return units - 1 if units % 2 == 0 else units


def round_robin_units(config: ClubConfig, entrants: Sequence[Entrant], draws: Sequence[RoundDraw] = (),
                      ) -> list[Unit]:
    """The round robin's field in joining order: players, or fixed pairs 0+1, 2+3, ...

    The field is fixed by round 1: those still in then (everyone round 1 seated or gave a bye);
    before it, those still in now.
    """
    if draws:
        field = {*draws[0].seated, *draws[0].byes}
        chosen = [e for e in entrants if e.id in field]
    else:
        chosen = [e for e in entrants if e.active]
    if not config.fixed_pairs:
        return [(e.id,) for e in chosen]
    pairs: dict[int, list[int]] = {}
    for e in chosen:
        pairs.setdefault(e.id // 2, []).append(e.id)
    return [tuple(members) for members in pairs.values()]


def _circle_pairs(units: Sequence[Unit], round: int) -> list[tuple[Unit | None, Unit | None]]:
    """Round ``round``'s pairs by the circle method (None: the empty place of an odd field).

    The first unit stays put and the others turn round it a place each round: over
    `round_robin_rounds` rounds every two units are paired once.
    """
    circle: list[Unit | None] = [*units, *([None] if len(units) % 2 else [])]
    if len(circle) < 2:
        return []
    turn = (round - 1) % (len(circle) - 1)
    rest = circle[1:]
    line = [circle[0], *rest[len(rest) - turn:], *rest[:len(rest) - turn]]
    return [(line[i], line[-1 - i]) for i in range(len(line) // 2)]


def _round_robin(config: ClubConfig, entrants: Sequence[Entrant], draws: Sequence[RoundDraw], round: int,
                 rng: random.Random) -> RoundDraw:
    units = round_robin_units(config, entrants, draws)
    if len(units) > MOST_ROUND_ROBIN:
        raise ClubError(f"{len(units)} are too many for a round robin (at most {MOST_ROUND_ROBIN})",
                        ClubProblem.ROUND_ROBIN_TOO_MANY, units=len(units), most=MOST_ROUND_ROBIN)
    if len(units) < 2:
        raise _too_few(len(units), 2)
    active = {e.id for e in entrants if e.active}
    tables: list[TableDraw] = []
    byes: list[int] = []
    for pair in _circle_pairs(units, round):
        here = [tuple(a for a in unit if a in active) if unit is not None else () for unit in pair]
        playing = [unit for unit in here if unit]
        if not playing:
            continue
        if len(playing) == 1 and config.bye is not ByeRule.COMPUTER:
            byes.extend(playing[0])
            continue
        tables.append(TableDraw(len(tables) + 1, _seat(config, playing, rng)))
    return RoundDraw(round, tuple(tables), tuple(sorted(byes)))


__all__ = ["SEARCH_STEPS", "draw_round", "round_robin_rounds", "round_robin_units"]
