"""Standings on hand-made results: matches won, points difference, then the format's tie-breaks."""

from __future__ import annotations

from capicu.core import Rules
from capicu.core.club import (
    ByeRule,
    ClubConfig,
    ClubFormat,
    Entrant,
    MatchResult,
    RoundDraw,
    TableDraw,
    standings,
)

SINGLES = ((0,), (1,))
PEOPLE = tuple(Entrant(i, name) for i, name in enumerate(("Ana", "Bea", "Cruz", "Dani")))


def match(round: int, table: int, first: int | None, second: int | None, points: tuple[int, int],
          closed: bool = False) -> MatchResult:
    winners = () if points[0] == points[1] else ((0,) if points[0] > points[1] else (1,))
    return MatchResult(round=round, table=table, seats=(first, second), sides=SINGLES, points=points,
                       winners=winners, closed=closed)


def order(config: ClubConfig, results: list[MatchResult], draws: tuple[RoundDraw, ...] = (),
          people: tuple[Entrant, ...] = PEOPLE) -> list[str]:
    return [people[s.entrant].name for s in standings(config, people, results, draws)]


def test_matches_won_then_points_difference() -> None:
    config = ClubConfig(rules=Rules())
    results = [match(1, 1, 0, 1, (100, 50)), match(1, 2, 2, 3, (100, 90)),
               match(2, 1, 0, 2, (100, 80)), match(2, 2, 1, 3, (100, 0))]
    table = standings(config, PEOPLE, results, ())
    assert [s.entrant for s in table] == [0, 1, 2, 3]
    ana, bea, cruz, dani = sorted(table, key=lambda s: s.entrant)
    assert (ana.won, ana.difference, ana.points_for, ana.points_against) == (2, 70, 200, 130)
    assert (bea.won, bea.difference) == (1, 50)
    assert (cruz.won, cruz.difference) == (1, -10)
    assert (dani.played, dani.won, dani.difference) == (2, 0, -110)
    assert ana.opponents == (1, 2) and dani.opponents == (2, 1)


def test_swiss_breaks_a_tie_by_buchholz() -> None:
    """Bea and Cruz each won once by 10; Bea's opponents won more."""
    config = ClubConfig(rules=Rules())
    results = [match(1, 1, 0, 1, (100, 90)), match(1, 2, 2, 3, (100, 90)),
               match(2, 1, 0, 3, (100, 90)), match(2, 2, 1, 2, (100, 90))]
    # Ana 2 wins; Bea: lost to Ana, beat Cruz; Cruz: beat Dani, lost to Bea; Dani 0.
    table = standings(config, PEOPLE, results, ())
    by_id = {s.entrant: s for s in table}
    assert (by_id[1].won, by_id[1].difference) == (by_id[2].won, by_id[2].difference) == (1, 0)
    assert by_id[1].buchholz == 2 + 1 and by_id[2].buchholz == 0 + 1
    assert order(config, results) == ["Ana", "Bea", "Cruz", "Dani"]


def test_round_robin_breaks_a_tie_head_to_head() -> None:
    """Cruz beat Bea, level on everything else: Cruz is above in a round robin."""
    config = ClubConfig(rules=Rules(), format=ClubFormat.ROUND_ROBIN)
    results = [match(1, 1, 2, 1, (100, 90)), match(1, 2, 0, 3, (100, 90)),
               match(2, 1, 1, 3, (100, 80)), match(2, 2, 0, 2, (100, 90)),
               match(3, 1, 0, 1, (100, 90)), match(3, 2, 3, 2, (90, 90))]
    table = {s.entrant: s for s in standings(config, PEOPLE, results, ())}
    assert (table[1].won, table[1].difference) == (table[2].won, table[2].difference) == (1, 0)
    assert table[2].head_to_head == 1 and table[1].head_to_head == 0
    assert order(config, results)[1:3] == ["Cruz", "Bea"]


def test_level_on_everything_the_name_decides() -> None:
    config = ClubConfig(rules=Rules())
    people = (Entrant(0, "zoe"), Entrant(1, "Ángel"), Entrant(2, "bruno"))
    assert order(config, [], (), people) == ["bruno", "zoe", "Ángel"]


def test_byes_score_as_the_organiser_chose() -> None:
    draws = (RoundDraw(1, (TableDraw(1, (0, 1)),), byes=(2,)),)
    results = [match(1, 1, 0, 1, (100, 90))]
    win = {s.entrant: s for s in standings(ClubConfig(rules=Rules(), bye=ByeRule.WIN), PEOPLE[:3], results,
                                           draws)}
    nothing = {s.entrant: s for s in standings(ClubConfig(rules=Rules(), bye=ByeRule.NOTHING), PEOPLE[:3],
                                               results, draws)}
    assert (win[2].won, win[2].byes, win[2].played, win[2].difference) == (1, 1, 0, 0)
    assert (nothing[2].won, nothing[2].byes) == (0, 1)


def test_a_computer_seat_is_counted_and_is_nobody_s_opponent() -> None:
    config = ClubConfig(rules=Rules())
    results = [match(1, 1, 0, None, (100, 30)), match(1, 2, 1, 2, (100, 0))]
    table = {s.entrant: s for s in standings(config, PEOPLE[:3], results, ())}
    assert (table[0].computer_seats, table[0].opponents, table[0].won) == (1, (), 1)
    assert table[1].computer_seats == 0


def test_mexican_train_s_lowest_total_has_the_best_difference() -> None:
    config = ClubConfig(rules=Rules.preset_named("mexican-train"), table_size=3)
    result = MatchResult(round=1, table=1, seats=(0, 1, 2), sides=((0,), (1,), (2,)), points=(40, 25, 90),
                         winners=(1,))
    table = standings(config, PEOPLE[:3], [result], ())
    assert [s.entrant for s in table] == [1, 0, 2]
    assert [s.difference for s in table] == [15, -15, -65]


def test_partners_share_a_result_and_list_each_other() -> None:
    config = ClubConfig(rules=Rules.preset_named("puerto-rican-partners"), table_size=4)
    result = MatchResult(round=1, table=1, seats=(0, 1, 2, 3), sides=((0, 2), (1, 3)), points=(200, 120),
                         winners=(0,))
    table = {s.entrant: s for s in standings(config, PEOPLE, [result], ())}
    assert table[0].partners == (2,) and table[2].partners == (0,)
    assert table[0].opponents == (1, 3) and table[0].won == table[2].won == 1
    assert table[1].difference == table[3].difference == -80
