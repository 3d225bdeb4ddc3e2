"""A hand-made history: matches written as facts, their numbers chosen so that each figure is known.

Shared by the history's own tests (tests/net/store/test_history.py) and the command's and screen's
(tests/tui/test_history_screen.py).
"""

from __future__ import annotations

from pathlib import Path

from capicu.net.store.history import (
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


def line_match(match_id: str, ended: str, seats: tuple[SeatFacts, ...], rounds: tuple[RoundFacts, ...],
               preset: str = "puerto-rican-drawing") -> MatchFacts:
    return MatchFacts(match_id, ended, ended, preset, LINE_GAME, seats, rounds)


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
    MatchFacts("m4", "2026-04-01T20:00:00Z", "2026-04-01T21:00:00Z", "mexican-train", TRAIN_GAME,
               (person("Ana", 0, 40, False), person("Beto", 1, 12, True)),
               (RoundFacts(1, "domino", 1, None, 25, (25, 0)),
                RoundFacts(2, "domino", 1, None, 27, (15, 12)))),
)




def write_hand_made(folder: Path, *, kept_by: KeptBy = KeptBy.PLAYER) -> None:
    """Keep the hand-made matches in the history in ``folder``, with seat 0 as this machine's player."""
    with open_history(folder)[0] as history:
        for facts in HAND_MADE:
            history.add(facts, kept_by=kept_by, me=0 if kept_by is KeptBy.PLAYER else None)
