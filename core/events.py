"""Public events: what everyone at the table may learn from an action.

Events are plain slotted records, not frozen ones: the engine makes one per
action, and a frozen dataclass costs four times as much to build (python-chess
makes the same trade for its ``Move``). Nobody changes one after it is made.

An event never names a hidden tile: a draw says who drew and how many, never
which. Hands are revealed only in `RoundEnded`. The engine keeps no
serialisation code: net/wire.py derives an event's plain form (a map with a
``type`` field) from these declarations.
"""

from __future__ import annotations

from dataclasses import dataclass

from .actions import End
from .scoring import Bonus
from .state import Outcome
from .tiles import Tile


@dataclass(slots=True)
class RoundStarted:
    round_number: int
    leader: int
    hand_counts: tuple[int, ...]
    boneyard: int
    #: The tile the leader must lead, when the lead is forced.
    forced_lead: Tile | None
    #: How many deals it took (a deal with no double is dealt again).
    redeals: int = 0


@dataclass(slots=True)
class TilePlayed:
    seat: int
    tile: Tile
    end: End
    #: The open ends after the play.
    left: int
    right: int


@dataclass(slots=True)
class TilesDrawn:
    seat: int
    count: int
    #: The open ends the player could not (or chose not to) match.
    left: int
    right: int


@dataclass(slots=True)
class Passed:
    seat: int
    left: int
    right: int


@dataclass(frozen=True, slots=True)
class RoundResult:
    """How a round ended, every hand shown, and who scored what."""

    round_number: int
    reason: Outcome
    #: The seat that laid the last tile (the one who went out, or who blocked it).
    last_player: int
    last_tile: Tile
    hands: tuple[tuple[Tile, ...], ...]
    pip_counts: tuple[int, ...]
    #: Each side's count as the scoring compares them.
    side_counts: tuple[int, ...]
    #: None when the round is tied and nobody scores.
    winner: int | None
    points: int
    #: (bonus, points) of each bonus won, already in `points`.
    bonuses: tuple[tuple[Bonus, int], ...]
    scores: tuple[int, ...]


@dataclass(slots=True)
class RoundEnded:
    result: RoundResult


@dataclass(slots=True)
class MatchEnded:
    winner: int
    scores: tuple[int, ...]


Event = RoundStarted | TilePlayed | TilesDrawn | Passed | RoundEnded | MatchEnded
