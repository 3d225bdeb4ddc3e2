"""Fives and Threes' public events: what everyone at the table may learn from an action.

Frozen msgspec Structs told apart on the wire by their ``type``, as the Draw
family's (core/draw/events.py). An event never names a hidden tile: a draw says who
drew, never which; hands are shown only in `FivesRoundEnded`. Every play says
the ends' total it made and what that scored, so a table tells "15 for 8"
where the eye is, and a reader can add the scores up again from the events.
"""

from __future__ import annotations

from typing import Annotated

from msgspec import Meta, Struct

from ..actions import End
from ..draw.events import PerSeat
from ..tiles import Tile
from .state import FivesOutcome

#: A double-six set's tiles: the most a hand can hold.
MAX_TILES = 28


class _FivesEvent(Struct, frozen=True, gc=False, tag_field="type"):
    """What every event of this game is: frozen, told apart on the wire by its ``type``."""


class FivesRoundStarted(_FivesEvent, frozen=True, gc=False, tag="fives_round_started"):
    round_number: int
    #: The seat that leads (any tile).
    leader: int
    hand_counts: PerSeat
    #: The tiles not dealt (set aside, or the boneyard with the drawing option).
    set_aside: int
    #: How many of them can be drawn (0 unless drawing).
    drawable: int


class FivesTilePlayed(_FivesEvent, frozen=True, gc=False, tag="fives_tile_played"):
    seat: int
    tile: Tile
    end: End
    #: The open ends after the play.
    left: int
    right: int
    #: The ends' total after the play (a double at an end counts both halves).
    total: int
    #: What that total is worth (docs/RULES.md's table: 15 scores 8).
    points: int
    #: What counted: `points`, or 0 when the exact finish refuses a score past the target.
    scored: int
    #: The seat laid its last tile (with partners, the hand may go on without it).
    chipped_out: bool = False


class FivesTileDrawn(_FivesEvent, frozen=True, gc=False, tag="fives_tile_drawn"):
    seat: int
    #: The open ends the player could not match.
    left: int
    right: int


class Knocked(_FivesEvent, frozen=True, gc=False, tag="knocked"):
    """A player could not play (nor draw): they knock, and the next one plays."""

    seat: int
    left: int
    right: int


class FivesRoundResult(Struct, frozen=True, gc=False):
    """How a hand ended, every hand shown (they count nothing), the go, and each side's points."""

    round_number: int
    reason: FivesOutcome
    #: The seat that laid the last tile.
    last_player: int
    last_tile: Tile | None
    hands: Annotated[tuple[Annotated[tuple[Tile, ...], Meta(max_length=MAX_TILES)], ...], Meta(max_length=4)]
    #: The side that made the go, or None (a blocked hand, a match won in the middle of the hand).
    go_side: int | None
    #: What the go counted: 1, or 0 when the exact finish refused it.
    go: int
    #: Each side's points made in this hand (the go included), as counted.
    points: PerSeat
    #: The scores after the hand.
    scores: PerSeat


class FivesRoundEnded(_FivesEvent, frozen=True, gc=False, tag="fives_round_ended"):
    result: FivesRoundResult


class FivesMatchEnded(_FivesEvent, frozen=True, gc=False, tag="fives_match_ended"):
    winner: int
    scores: PerSeat


FivesEvent = (
    FivesRoundStarted | FivesTilePlayed | FivesTileDrawn | Knocked | FivesRoundEnded | FivesMatchEnded
)
