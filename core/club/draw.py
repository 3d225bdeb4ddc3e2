"""Each round's tables: a pure function of the night so far and a seed.

`draw_round` seats the players (or pairs) still in the night for one round:

- **Swiss**: by standings, the best together, avoiding opponents already met
  where possible: a search that finds the draw with the fewest repeated
  opponents (an exact search for any field a club plays; past a bound on its
  steps it keeps the best it found). In a partners' game the units are fixed
  pairs: entrants 0+1, 2+3, ... in joining order.
- **Rotating partners**: each round new partners: first the partnerships, the
  fewest repeated partners (so each player partners as many different players
  as can be), then the tables, the fewest repeated opponents.
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
from collections.abc import Callable, Iterable, Sequence
from itertools import combinations

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

#: The steps the search for the fewest repeats may take for one bound on them before it
#: tries the next bound; a field small enough to check by brute force never comes near it.
SEARCH_STEPS = 20_000


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
        return _round_robin(config, entrants, round, rng)
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


def _fewest(units: Sequence[Unit], count: int, had: Callable[[Unit], int]) -> list[Unit]:
    """The ``count`` units that had a bye (or a computer) least, the lowest ranked first."""
    worst_first = list(reversed(units))
    return sorted(worst_first, key=had)[:count]


def _split(config: ClubConfig, units: list[Unit], per_table: int, history: _History,
           ) -> tuple[list[Unit], list[Unit], list[int]]:
    """Who sits out, who plays the computer alone, and the other tables' sizes (in units)."""
    n = len(units)
    if config.bye is not ByeRule.COMPUTER:
        out = _fewest(units, n % per_table, lambda u: sum(history.byes[a] for a in u))
        return out, [], [per_table] * (n // per_table)
    tables = -(-n // per_table)
    sizes = [per_table] * tables
    for i in range(tables * per_table - n):  # the empty seats, one a table from the last up
        sizes[-1 - i % tables] -= 1
    alone = _fewest(units, sizes.count(1), lambda u: sum(history.computer[a] for a in u))
    return [], alone, [size for size in sizes if size > 1]


def _group(units: Sequence[Unit], sizes: Sequence[int], cost: Callable[[Sequence[Unit]], int],
           ) -> list[list[Unit]]:
    """The units in tables of ``sizes`` with the least total ``cost``, the best ranked together.

    Iterative deepening over the cost allowed: the first grouping found within a bound is
    the one nearest the ranking (each table takes the best left and those ranked nearest it).
    """
    if sum(sizes) != len(units):
        raise ValueError("the tables' sizes do not add up to the units")
    bound = 0
    most = sum(cost(group) for group in _chunks(units, sizes))
    while bound < most:
        steps = [SEARCH_STEPS]
        found = _search(list(units), list(sizes), cost, bound, steps)
        if found is not None:
            return found
        bound += 1
    return [list(group) for group in _chunks(units, sizes)]


def _chunks(units: Sequence[Unit], sizes: Sequence[int]) -> list[Sequence[Unit]]:
    chunks, start = [], 0
    for size in sizes:
        chunks.append(units[start:start + size])
        start += size
    return chunks


def _search(left: list[Unit], sizes: list[int], cost: Callable[[Sequence[Unit]], int], bound: int,
            steps: list[int]) -> list[list[Unit]] | None:
    if not sizes:
        return []
    first, rest = left[0], left[1:]
    for others in combinations(rest, sizes[0] - 1):
        steps[0] -= 1
        if steps[0] < 0:
            return None
        group = [first, *others]
        spent = cost(group)
        if spent > bound:
            continue
        remaining = [unit for unit in rest if unit not in others]
        found = _search(remaining, sizes[1:], cost, bound - spent, steps)
        if found is not None:
            return [group, *found]
        if steps[0] < 0:
            return None
    return None


def _swiss(config: ClubConfig, units: list[Unit], history: _History, round: int,
           rng: random.Random) -> RoundDraw:
    per_table = 2 if config.fixed_pairs else config.table_size
    least = 2 if config.bye is ByeRule.COMPUTER or per_table == 2 else per_table
    if len(units) < least:
        raise _too_few(len(units), least)
    out, alone, sizes = _split(config, units, per_table, history)
    playing = [u for u in units if u not in out and u not in alone]
    groups = [*_group(playing, sizes, history.opponents_cost), *([u] for u in alone)]
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
    players: list[Unit] = [(a,) for a in sorted(order, key=order.__getitem__)]
    if len(players) < 2:
        raise _too_few(len(players), 2)
    if config.bye is ByeRule.COMPUTER:
        count = -(-len(players) // 4)
        out: list[Unit] = []
        alone = _fewest(players, 4 * count - len(players), lambda u: history.computer[u[0]])
    else:
        if len(players) < 4:
            raise _too_few(len(players), 4)
        out = _fewest(players, len(players) % 4, lambda u: history.byes[u[0]])
        alone = []
    pairing = [u for u in players if u not in out and u not in alone]
    partnerships = [tuple(a for unit in group for a in unit)
                    for group in _group(pairing, [2] * (len(pairing) // 2), history.partners_cost)]
    sides = sorted([*partnerships, *alone], key=lambda unit: sum(order[a] for a in unit) / len(unit))
    groups = _group(sides, [2] * (len(sides) // 2), history.opponents_cost)
    tables = tuple(TableDraw(number, _seat(config, group, rng)) for number, group in enumerate(groups, 1))
    return RoundDraw(round, tables, tuple(sorted(a for unit in out for a in unit)))


def round_robin_rounds(units: int) -> int:
    """The rounds of a round robin of ``units`` players or pairs: everyone meets everyone once."""
    return units - 1 if units % 2 == 0 else units


def round_robin_units(config: ClubConfig, entrants: Sequence[Entrant]) -> list[Unit]:
    """The round robin's field in joining order: every entrant, or the fixed pairs 0+1, 2+3, ..."""
    if not config.fixed_pairs:
        return [(e.id,) for e in entrants]
    pairs: dict[int, list[int]] = {}
    for e in entrants:
        pairs.setdefault(e.id // 2, []).append(e.id)
    return [tuple(members) for members in pairs.values()]


def _round_robin(config: ClubConfig, entrants: Sequence[Entrant], round: int,
                 rng: random.Random) -> RoundDraw:
    units = round_robin_units(config, entrants)
    if len(units) > MOST_ROUND_ROBIN:
        raise ClubError(f"{len(units)} are too many for a round robin (at most {MOST_ROUND_ROBIN})",
                        ClubProblem.ROUND_ROBIN_TOO_MANY, units=len(units), most=MOST_ROUND_ROBIN)
    if len(units) < 2:
        raise _too_few(len(units), 2)
    active = {e.id for e in entrants if e.active}
    circle: list[Unit | None] = [*units, *([None] if len(units) % 2 else [])]
    turn = (round - 1) % (len(circle) - 1)
    rest = circle[1:]
    line = [circle[0], *rest[len(rest) - turn:], *rest[:len(rest) - turn]]
    tables: list[TableDraw] = []
    byes: list[int] = []
    for i in range(len(line) // 2):
        pair = [line[i], line[-1 - i]]
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
