"""What one seat (or a spectator) may know: docs/RULES.md section 5, as a value.

A `View` is the only thing built from a match's state that leaves the engine:
the host serialises nothing else. It holds the seat's own hand, never another
seat's tiles or the boneyard's.

A view is a frozen msgspec Struct, declared once: a host makes one per seat
after every action (built in C), and the wire derives its plain form from this
declaration. The views of one position share their tuples.

Its fields come in the order the wire writes them: the rules first, then the
fields that change move by move (`STATE_FIELDS`: an update carries only
these), then the round's events and the match's results.
"""

from __future__ import annotations

from typing import Annotated

from msgspec import UNSET, Meta, Struct, UnsetType

from ..actions import Action
from ..rules import Rules
from ..tiles import Tile
from .events import MAX_TILES, Event, PerSeat, RoundResult

#: The most events or results a view may hold (as many as a host's frame may list).
MAX_HISTORY = 4096
#: The most actions a seat may have: two ends per tile, and with wild blanks every
#: number a blank left open may be given (13 blanks of double-12, at two ends).
MAX_LEGAL = 2 * MAX_TILES + 2 * 13 * 13 + 2


class View(Struct, frozen=True, gc=False):
    rules: Rules
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
    hand_counts: PerSeat
    boneyard: int
    #: How many of the boneyard's tiles can still be drawn.
    drawable: int
    #: Whose turn it is (None once the match is over).
    turn: int | None
    leader: int
    #: The tile the lead must be, when it is forced and not yet laid.
    forced_lead: Tile | None
    draws_this_turn: int
    scores: PerSeat
    target: int
    #: What this seat may do now (empty when it is not this seat's turn).
    legal: Annotated[tuple[Action, ...], Meta(max_length=MAX_LEGAL)]
    winner: int | None
    #: With wild blanks, for each tile of `line`, which of its halves are blanks shown
    #: with the number they were given: 0 none, 1 the left, 2 the right, 3 both (the
    #: double blank). UNSET without wild blanks, and then not written (the bytes of before).
    blanks: Annotated[tuple[int, ...], Meta(max_length=MAX_TILES)] | UnsetType = UNSET
    #: This round's public events so far.
    events: Annotated[tuple[Event, ...], Meta(max_length=MAX_HISTORY)] = ()
    #: The results of the rounds played so far.
    results: Annotated[tuple[RoundResult, ...], Meta(max_length=MAX_HISTORY)] = ()

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


#: Where the fields of a `View` that change move by move lie among its fields: all but
#: its rules (first), events and results (last). The rules are fixed for the match; the
#: events and results follow from the events.
STATE = slice(1, -2)
STATE_FIELDS = View.__struct_fields__[STATE]
