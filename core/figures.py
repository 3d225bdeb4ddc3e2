"""What a game counts in a player's history: its own figures, declared by the game.

The history (net/store/history.py) keeps every finished match; what it counts
beyond the matches played and won is each game's own: the Draw family counts
rounds, points and bonuses, Mexican Train the counts a player took, Fives and
Threes the points per hand and the highest single play. Each game declares them
once, in its package (``core/<game>/figures.py``), and the registry names the
declaration (`GameSpec.figures`, core/games.py): the history stores and sums
what a game declares without knowing the game, so adding a game adds no line
to the history's code.

A declaration (`GameFigures`) says:

- its figures (`Figure`): a name and how a player's values add up over matches
  (`Combine.SUM`, or `Combine.MAX` for a best);
- ``seat_figures(match, seat)``: the values of one seat of a finished match, in
  the figures' order (a side's points go to each of its seats);
- ``round_facts(result)``: how one of its rounds ended, as the history's round
  rows keep it (`RoundFacts`).

Pure: a finished match in, numbers out.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from enum import StrEnum
from typing import Any

import msgspec

#: A figure's name: lower-case words joined by underscores (it is written into the history's SQL).
FIGURE_NAME = re.compile(r"^[a-z][a-z_]{0,31}$")


class Combine(StrEnum):
    """How one figure of many matches is made from each match's value."""

    #: Added up (rounds played, points made, bonuses).
    SUM = "sum"
    #: The highest (a best single play).
    MAX = "max"


class Figure(msgspec.Struct, frozen=True):
    """One figure a game counts for each seat of a finished match."""

    name: str
    combine: Combine = Combine.SUM

    def __post_init__(self) -> None:
        if not FIGURE_NAME.match(self.name):
            raise ValueError(f"a figure's name is lower-case words joined by '_', not {self.name!r}")


class RoundFacts(msgspec.Struct, frozen=True):
    """One round's end: how, who laid the last tile, who scored what, each seat's count."""

    number: int
    #: The engine's value for how the round ended ("domino", "tranque", "chipped-out", ...).
    reason: str
    last_player: int
    #: The side that scored (None: tied, or Mexican Train, where every seat adds its count).
    winner_side: int | None
    points: int
    #: Each seat's count (Draw family, Mexican Train) or each side's points (Fives and Threes).
    counts: tuple[int, ...]
    #: (bonus, points) of each bonus paid, core's `Bonus` values ("capicú", "chuchazo", "round").
    bonuses: tuple[tuple[str, int], ...] = ()


class GameFigures(msgspec.Struct, frozen=True):
    """A game's declaration of what its history counts (see the module docstring)."""

    figures: tuple[Figure, ...]
    #: A finished match and a seat: that seat's value of each figure, in `figures`' order.
    seat_figures: Callable[[Any, int], tuple[int, ...]]
    #: One of its rounds' results: what the history keeps of that round.
    round_facts: Callable[[Any], RoundFacts]

    def __post_init__(self) -> None:
        names = [figure.name for figure in self.figures]
        if len(set(names)) != len(names):
            raise ValueError(f"a game declares each figure once: {', '.join(names)}")

    def of_seat(self, match: Any, seat: int) -> tuple[tuple[str, int], ...]:
        """(figure, value) of each figure for ``seat`` of the finished ``match``."""
        values = self.seat_figures(match, seat)
        if len(values) != len(self.figures):
            raise ValueError(f"{len(self.figures)} figures are declared, {len(values)} values given")
        return tuple((figure.name, int(value)) for figure, value in zip(self.figures, values, strict=True))


__all__ = ["FIGURE_NAME", "Combine", "Figure", "GameFigures", "RoundFacts"]
