"""What one seat (or a spectator) may know: docs/RULES.md section 5, as a value.

A `View` is the only thing built from a match's state that leaves the engine:
the host serialises nothing else. It holds the seat's own hand, never another
seat's tiles or the boneyard's.

Views are slotted records, not frozen ones: a host makes one per seat after
every action, and a frozen dataclass of this size costs eight times as much to
build (the same trade as the events'). Nobody changes one after it is made;
the views of one position share their tuples.
"""

from __future__ import annotations

from dataclasses import dataclass

from .actions import Action
from .events import Event, RoundResult
from .rules import Rules
from .tiles import Tile


@dataclass(slots=True)
class View:
    rules: Rules
    players: int
    #: The seat this view is for; None for a spectator.
    seat: int | None
    round_number: int
    #: This seat's tiles (empty for a spectator).
    hand: tuple[Tile, ...]
    #: The line of play from left to right, each tile as (left number, right number).
    line: tuple[tuple[int, int], ...]
    #: The two open ends, or None before the lead.
    ends: tuple[int, int] | None
    hand_counts: tuple[int, ...]
    boneyard: int
    #: How many of the boneyard's tiles can still be drawn.
    drawable: int
    #: Whose turn it is (None once the match is over).
    turn: int | None
    leader: int
    #: The tile the lead must be, when it is forced and not yet laid.
    forced_lead: Tile | None
    draws_this_turn: int
    scores: tuple[int, ...]
    target: int
    #: What this seat may do now (empty when it is not this seat's turn).
    legal: tuple[Action, ...]
    #: This round's public events so far.
    events: tuple[Event, ...]
    #: The results of the rounds played so far.
    results: tuple[RoundResult, ...]
    winner: int | None

    @property
    def is_my_turn(self) -> bool:
        return self.seat is not None and self.turn == self.seat

    @property
    def match_over(self) -> bool:
        return self.winner is not None

    @property
    def between_rounds(self) -> bool:
        """A round is over (its end is in `events`) and the next is not dealt yet."""
        return self.turn is None and self.winner is None

    def side_of(self, seat: int) -> int:
        return self.rules.side_of(seat, self.players)
