"""Every position of a match, for looking back at it once it is over.

A match is its log (core/draw/match.py); replaying the log entry by entry gives,
after each one, what every seat saw then. Shown together, those views are the
table with every hand face up: the replay screen steps through them and the
coach asks the views of the player it advises, which hold only what that
player knew (docs/ARCHITECTURE.md, "Replay and coach").
"""

from __future__ import annotations

from typing import Any

from msgspec import Struct

from .actions import Action
from .draw.match import Match
from .draw.view import View
from .games import match_from_log
from .mexican.match import MexicanMatch
from .mexican.view import MexicanView

AnyView = View | MexicanView


class Position(Struct, frozen=True, gc=False):
    """The table after one entry of the log: a deal or a seat's action."""

    #: Which entry this is, from 1 (the first deal).
    number: int
    round_number: int
    #: None for a deal.
    action: Action | None
    #: The seat that took ``action`` (None for a deal).
    seat: int | None
    #: The public events the entry caused, in order.
    events: tuple[Any, ...]
    #: Every seat's own view after the entry, by seat number.
    views: tuple[AnyView, ...]
    #: The view before the entry of the seat that took it: what it knew when it chose.
    before: AnyView | None

    @property
    def board(self) -> AnyView:
        """What everyone sees (the first seat's view; only hands differ between seats)."""
        return self.views[0]


class Replay(Struct, frozen=True, gc=False):
    """A match's positions in order, and the match as it ended."""

    positions: tuple[Position, ...]
    match: Match | MexicanMatch

    def round_starts(self) -> tuple[int, ...]:
        """The index of each round's first position (its deal), in order."""
        starts: list[int] = []
        last = 0
        for index, position in enumerate(self.positions):
            if position.round_number != last:
                starts.append(index)
                last = position.round_number
        return tuple(starts)

    def decisions_of(self, seat: int) -> tuple[int, ...]:
        """The indexes of the positions where ``seat`` acted."""
        return tuple(i for i, p in enumerate(self.positions) if p.seat == seat)


def replay(log: Any) -> Replay:
    """Every position of the match ``log`` describes; a damaged log raises ValueError."""
    positions: list[Position] = []

    def keep(match: Any, action: Action | None, seat: int | None, events: tuple[Any, ...]) -> None:
        views = tuple(match.view(s) for s in range(match.players))
        before = positions[-1].views[seat] if seat is not None and positions else None
        positions.append(Position(
            number=len(positions) + 1,
            round_number=match.round_number,
            action=action,
            seat=seat,
            events=tuple(events),
            views=views,
            before=before,
        ))

    # Replayed with a pause between rounds whatever the match had: each round's last move then
    # leaves its finished table (the line, the hands left, the result) as a position of its own,
    # and the next deal is the following entry, as it is in the log.
    paused = {**log, "pause_between_rounds": True} if isinstance(log, dict) else log
    match = match_from_log(paused, keep)
    return Replay(tuple(positions), match)


__all__ = ["AnyView", "Position", "Replay", "replay"]
