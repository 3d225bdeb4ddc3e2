"""The night's standings: matches won, then points difference, then the format's tie-breaks.

A pure function of the night's entrants, draws and results, so that anyone can
recompute them from the match records (the host's live standings are this
function of what it recorded). Ties are broken by the format's tie-breaks:
Buchholz (the matches won by everyone one played against) for Swiss and
rotating partners, then head to head (matches won against the others still
level); then by name, so that the order never depends on the order of results.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence

from msgspec import Struct

from .format import ByeRule, ClubConfig, ClubFormat, Entrant, MatchResult, RoundDraw, name_key


class Standing(Struct, frozen=True, kw_only=True):
    """One entrant's night so far."""

    entrant: int
    #: Matches played at a table (byes are counted apart).
    played: int = 0
    #: Matches won, byes that score a win included (`ByeRule.WIN`).
    won: int = 0
    #: The entrant's side's totals, summed over their matches.
    points_for: int = 0
    #: The best other side's totals, summed over their matches (the only other side in a two-sided game).
    points_against: int = 0
    #: Rounds sat out.
    byes: int = 0
    #: Matches where a computer filled a seat at their table.
    computer_seats: int = 0
    #: The matches won by every opponent they met (once per match met): Swiss's tie-break.
    buchholz: int = 0
    #: Matches won against entrants level with them on everything before head to head.
    head_to_head: int = 0
    #: Everyone they played against, in the order met (once per match).
    opponents: tuple[int, ...] = ()
    #: Everyone they partnered, in the order partnered.
    partners: tuple[int, ...] = ()
    #: Points difference, summed match by match: their total less the best other side's, turned
    #: round where the lower total wins (Mexican Train), so that a winner's difference is positive.
    difference: int = 0


class _Tally:
    """One entrant's figures while the results are read."""

    def __init__(self) -> None:
        self.played = self.won = self.points_for = self.points_against = 0
        self.byes = self.computer_seats = self.difference = 0
        self.opponents: list[int] = []
        self.partners: list[int] = []


def _margin(own: int, others: Sequence[int], low_wins: bool) -> tuple[int, int]:
    """The best other total and the margin over it (positive when ahead)."""
    if not others:
        return 0, 0
    best = min(others) if low_wins else max(others)
    return best, (best - own) if low_wins else (own - best)


def standings(
    config: ClubConfig,
    entrants: Sequence[Entrant],
    results: Iterable[MatchResult],
    draws: Iterable[RoundDraw],
) -> tuple[Standing, ...]:
    """Every entrant's standing, best first (those who left too: their matches still count)."""
    tallies = {entrant.id: _Tally() for entrant in entrants}
    results = tuple(results)
    for draw in draws:
        for bye in draw.byes:
            if bye in tallies:
                tallies[bye].byes += 1
                tallies[bye].won += config.bye is ByeRule.WIN
    for result in results:
        computer = any(seat is None for seat in result.seats)
        for index, side in enumerate(result.sides):
            members = [result.seats[seat] for seat in side]
            others = [result.points[other] for other in range(len(result.sides)) if other != index]
            best, margin = _margin(result.points[index], others, config.low_wins)
            opponents = [result.seats[seat] for other, seats in enumerate(result.sides) if other != index
                         for seat in seats]
            for member in members:
                if member is None or member not in tallies:
                    continue
                tally = tallies[member]
                tally.played += 1
                tally.won += index in result.winners
                tally.points_for += result.points[index]
                tally.points_against += best
                tally.difference += margin
                tally.computer_seats += computer
                tally.partners.extend(m for m in members if m is not None and m != member)
                tally.opponents.extend(o for o in opponents if o is not None)
    won = {entrant: tally.won for entrant, tally in tallies.items()}
    buchholz = {entrant: sum(won.get(o, 0) for o in tally.opponents) for entrant, tally in tallies.items()}
    swiss_like = config.format is not ClubFormat.ROUND_ROBIN

    def level(entrant: int) -> tuple[int, ...]:
        tally = tallies[entrant]
        return (tally.won, tally.difference, buchholz[entrant] if swiss_like else 0)

    groups: dict[tuple[int, ...], set[int]] = defaultdict(set)
    for entrant in tallies:
        groups[level(entrant)].add(entrant)
    head = dict.fromkeys(tallies, 0)
    for result in results:
        for index in result.winners:
            for seat in result.sides[index]:
                member = result.seats[seat]
                if member is None or member not in tallies:
                    continue
                group = groups[level(member)]
                beaten = {result.seats[s] for other, seats in enumerate(result.sides)
                          if other not in result.winners for s in seats}
                head[member] += bool(beaten & (group - {member}))
    names = {entrant.id: name_key(entrant.name) for entrant in entrants}
    table = [
        Standing(
            entrant=entrant, played=tally.played, won=tally.won, points_for=tally.points_for,
            points_against=tally.points_against, byes=tally.byes, computer_seats=tally.computer_seats,
            buchholz=buchholz[entrant], head_to_head=head[entrant], opponents=tuple(tally.opponents),
            partners=tuple(tally.partners), difference=tally.difference,
        )
        for entrant, tally in tallies.items()
    ]
    table.sort(key=lambda s: (-s.won, -s.difference, -(s.buchholz if swiss_like else 0), -s.head_to_head,
                              names[s.entrant], s.entrant))
    return tuple(table)


class PlayerMatch(Struct, frozen=True, kw_only=True):
    """One round of one entrant's night: a match at a table, or a bye."""

    round: int
    #: The table, or None for a bye.
    table: int | None = None
    partners: tuple[int, ...] = ()
    opponents: tuple[int, ...] = ()
    #: Seats a computer filled at the table.
    computers: int = 0
    #: Their side's total, and the best other side's.
    points_for: int = 0
    points_against: int = 0
    won: bool = False
    #: Ended level: no side won.
    level: bool = False
    #: The organiser closed the table: the score as it stood.
    closed: bool = False
    #: The match record's file name ("" when none was kept).
    record: str = ""

    @property
    def bye(self) -> bool:
        return self.table is None


def matches_of(config: ClubConfig, entrant: int, results: Iterable[MatchResult],
               draws: Iterable[RoundDraw]) -> tuple[PlayerMatch, ...]:
    """``entrant``'s matches (those with a result) and byes, in round order."""
    found = [PlayerMatch(round=draw.round, won=config.bye is ByeRule.WIN)
             for draw in draws if entrant in draw.byes]
    for result in results:
        for index, side in enumerate(result.sides):
            members = [result.seats[seat] for seat in side]
            if entrant not in members:
                continue
            others = [result.points[other] for other in range(len(result.sides)) if other != index]
            best, _ = _margin(result.points[index], others, config.low_wins)
            found.append(PlayerMatch(
                round=result.round, table=result.table,
                partners=tuple(m for m in members if m is not None and m != entrant),
                opponents=tuple(a for other, seats in enumerate(result.sides) if other != index
                                for a in (result.seats[s] for s in seats) if a is not None),
                computers=result.seats.count(None), points_for=result.points[index], points_against=best,
                won=index in result.winners, level=not result.winners, closed=result.closed,
                record=result.record))
    return tuple(sorted(found, key=lambda match: match.round))


__all__ = ["PlayerMatch", "Standing", "matches_of", "standings"]
