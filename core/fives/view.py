"""What one seat (or a spectator) of Fives and Threes may know, as a value.

docs/RULES.md, fives-and-threes: "the line and its two ends with their total,
what each tile laid scored, every score, how many tiles each player holds, and
how many tiles are set aside (never which)". A `FivesView` is the only thing
built from a match's state that leaves the engine: it holds the seat's own
hand and nobody else's.
"""

from __future__ import annotations

from typing import Annotated

from msgspec import Meta, Struct

from ..actions import Action
from ..draw.events import PerSeat
from ..draw.view import MAX_HISTORY
from ..tiles import Tile
from .events import MAX_TILES, FivesEvent, FivesRoundResult
from .rules import FivesRules

#: Two ends for each tile a hand may hold, or a draw, or a knock.
MAX_LEGAL = 2 * MAX_TILES + 1


class FivesView(Struct, frozen=True, gc=False, tag_field="game", tag="fives-and-threes"):
    rules: FivesRules
    players: int
    #: The seat this view is for; None for a spectator.
    seat: int | None
    round_number: int
    #: This seat's tiles (empty for a spectator).
    hand: Annotated[tuple[Tile, ...], Meta(max_length=MAX_TILES)]
    #: The line of play from left to right, each tile as (left number, right number).
    line: Annotated[tuple[tuple[int, int], ...], Meta(max_length=MAX_TILES)]
    #: The two open ends, or None before the lead.
    ends: tuple[int, int] | None
    #: The ends' total (a double at an end counts both halves; one tile, its pips).
    total: int
    hand_counts: PerSeat
    #: The seats that have chipped out and are passed over (with partners the hand goes on).
    out: PerSeat
    #: The tiles not dealt and not drawn: set aside (or the boneyard, with the drawing option).
    set_aside: int
    #: How many of them can still be drawn (0 unless drawing).
    drawable: int
    #: Whose turn it is (None between hands and once the match is over).
    turn: int | None
    leader: int
    #: Each side's score (a side is a seat, or a partnership of two seats across).
    scores: PerSeat
    target: int
    #: What this seat may do now (empty when it is not this seat's turn).
    legal: Annotated[tuple[Action, ...], Meta(max_length=MAX_LEGAL)]
    winner: int | None
    #: This hand's public events so far (each play's total and points among them).
    events: Annotated[tuple[FivesEvent, ...], Meta(max_length=MAX_HISTORY)] = ()
    #: The results of the hands played so far.
    results: Annotated[tuple[FivesRoundResult, ...], Meta(max_length=MAX_HISTORY)] = ()

    @property
    def is_my_turn(self) -> bool:
        return self.seat is not None and self.turn == self.seat

    @property
    def match_over(self) -> bool:
        return self.winner is not None

    @property
    def boneyard(self) -> int:
        """The tiles in no hand and not on the line, as every game's view tells it (net's `GameView`)."""
        return self.set_aside

    @property
    def between_rounds(self) -> bool:
        """A hand is over (its end is in `events`) and the next is not dealt yet."""
        return self.turn is None and self.winner is None

    def side_of(self, seat: int) -> int:
        return self.rules.side_of(seat, self.players)
