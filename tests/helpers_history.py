"""A hand-made history: matches written as facts, their numbers chosen so that each figure is known.

Shared by the history's own tests (tests/net/store/test_history.py) and the command's and screen's
(tests/tui/test_history_screen.py).
"""

from __future__ import annotations

from pathlib import Path

import msgspec
from capicu.net.store.history import (
    FIVES_GAME,
    LINE_GAME,
    TRAIN_GAME,
    KeptBy,
    MatchFacts,
    RoundFacts,
    SeatFacts,
    open_history,
)


def person(name: str, side: int, score: int, won: bool) -> SeatFacts:
    return SeatFacts(name, "person", None, side, score, won)


def computer(name: str, side: int, score: int, won: bool) -> SeatFacts:
    return SeatFacts(name, "computer", "hard", side, score, won)


def with_figures(facts: MatchFacts) -> MatchFacts:
    """``facts`` with each seat's figures as its game declares them (core/draw/figures.py,
    core/mexican/figures.py), worked out from the hand-written rounds and scores."""
    seats = []
    for seat, kept in enumerate(facts.seats):
        if facts.game == LINE_GAME:
            paid = [bonus for r in facts.rounds if r.last_player == seat for bonus, _ in r.bonuses]
            figures = (("rounds", len(facts.rounds)), ("points", kept.score),
                       ("capicu", paid.count("capicú")), ("chuchazo", paid.count("chuchazo")))
        else:
            figures = (("rounds", len(facts.rounds)), ("count", kept.score))
        seats.append(msgspec.structs.replace(kept, figures=figures))
    return msgspec.structs.replace(facts, seats=tuple(seats))


def line_match(match_id: str, ended: str, seats: tuple[SeatFacts, ...], rounds: tuple[RoundFacts, ...],
               preset: str = "puerto-rican-drawing") -> MatchFacts:
    return with_figures(MatchFacts(match_id, ended, ended, preset, LINE_GAME, seats, rounds))


def a_round(number: int, last: int, side: int | None, points: int, *bonuses: tuple[str, int]) -> RoundFacts:
    return RoundFacts(number, "domino", last, side, points, (0, 5, 9), tuple(bonuses))


#: Ana's matches: she wins m1 (2025, against Beto, with a capicú) and m3 (2026, quinientos with
#: Carla as partner against two computers, with a capicú and a chuchazo); she loses m2 (2026, to
#: Beto and Dora) and m4 (2026, Mexican Train, her count 40 over 2 rounds).
HAND_MADE = (
    line_match("m1", "2025-06-01T20:00:00Z",
               (person("Ana", 0, 100, True), person("Beto", 1, 30, False)),
               (a_round(1, 0, 0, 60, ("capicú", 20)), a_round(2, 1, 1, 30), a_round(3, 0, 0, 40))),
    line_match("m2", "2026-02-01T20:00:00Z",
               (person("Ana", 0, 10, False), person("Beto", 1, 61, True), person("Dora", 2, 0, False)),
               (a_round(1, 1, 1, 61), a_round(2, 0, 0, 10))),
    line_match("m3", "2026-03-01T20:00:00Z",
               (person("Ana", 0, 500, True), computer("Uno", 1, 200, False), person("Carla", 0, 500, True),
                computer("Dos", 1, 200, False)),
               (a_round(1, 0, 0, 300, ("capicú", 100), ("chuchazo", 100)), a_round(2, 3, 1, 200),
                a_round(3, 2, 0, 200, ("capicú", 100))),
               preset="quinientos"),
    with_figures(MatchFacts("m4", "2026-04-01T20:00:00Z", "2026-04-01T21:00:00Z", "mexican-train", TRAIN_GAME,
                            (person("Ana", 0, 40, False), person("Beto", 1, 12, True)),
                            (RoundFacts(1, "domino", 1, None, 25, (25, 0)),
                             RoundFacts(2, "domino", 1, None, 27, (15, 12))))),
)




def fives_seat(name: str, side: int, score: int, won: bool, hands: int, best: int) -> SeatFacts:
    """A seat of a Fives and Threes match with the figures its game declares (core/fives/figures.py)."""
    return SeatFacts(name, "person", None, side, score, won,
                     (("hands", hands), ("points", score), ("best_play", best)))


#: Ana's Fives and Threes: she wins f1 (61 to 40 in 5 hands, her best play 15 for 8) and loses f2
#: (30 to 61 in 4 hands, her best 12 for 4): 91 points in 9 hands, best play 8.
FIVES_MADE = (
    MatchFacts("f1", "2026-05-01T20:00:00Z", "2026-05-01T21:00:00Z", "fives-and-threes", FIVES_GAME,
               (fives_seat("Ana", 0, 61, True, 5, 8), fives_seat("Beto", 1, 40, False, 5, 6)), ()),
    MatchFacts("f2", "2026-06-01T20:00:00Z", "2026-06-01T21:00:00Z", "fives-and-threes", FIVES_GAME,
               (fives_seat("Ana", 0, 30, False, 4, 4), fives_seat("Beto", 1, 61, True, 4, 7)), ()),
)


def write_hand_made(folder: Path, *, kept_by: KeptBy = KeptBy.PLAYER) -> None:
    """Keep the hand-made matches in the history in ``folder``, with seat 0 as this machine's player."""
    with open_history(folder)[0] as history:
        for facts in HAND_MADE:
            history.add(facts, kept_by=kept_by, me=0 if kept_by is KeptBy.PLAYER else None)
