"""What one seat (or a spectator) may know: RULES.md section 3, as a value.

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
from typing import Any

from .actions import Action, parse_action
from .events import Event, RoundResult, _result_from, event_from_dict, event_to_dict
from .events import _plain as _plain_value
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

    def state_dict(self) -> dict[str, Any]:
        """The fields that change move by move, as plain data (all but rules, events, results).

        A host that has sent a seat the whole view once can send this and the new
        events after each move; `with_state` rebuilds the view on the other side.
        """
        return {
            "players": self.players,
            "seat": self.seat,
            "round_number": self.round_number,
            "hand": [str(t) for t in self.hand],
            "line": [list(p) for p in self.line],
            "ends": None if self.ends is None else list(self.ends),
            "hand_counts": list(self.hand_counts),
            "boneyard": self.boneyard,
            "drawable": self.drawable,
            "turn": self.turn,
            "leader": self.leader,
            "forced_lead": None if self.forced_lead is None else str(self.forced_lead),
            "draws_this_turn": self.draws_this_turn,
            "scores": list(self.scores),
            "target": self.target,
            "legal": [str(a) for a in self.legal],
            "winner": self.winner,
        }

    def to_dict(self) -> dict[str, Any]:
        """The view as plain data for the wire (str keys; ints, strs, lists, None)."""
        return {
            "rules": self.rules.to_dict(),
            **self.state_dict(),
            "events": [event_to_dict(e) for e in self.events],
            "results": [_plain_value(r) for r in self.results],
        }

    @classmethod
    def from_dict(cls, data: Any) -> View:
        """The view that `to_dict` wrote; anything malformed raises ValueError."""
        try:
            return cls.with_state(
                data,
                rules=Rules.from_dict(data["rules"]),
                events=tuple(event_from_dict(e) for e in data["events"]),
                results=tuple(_result_from(r) for r in data["results"]),
            )
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            raise ValueError(f"not a view: {exc}") from None

    @classmethod
    def with_state(
        cls,
        state: Any,
        *,
        rules: Rules,
        events: tuple[Event, ...],
        results: tuple[RoundResult, ...],
    ) -> View:
        """The view whose changing fields are `state_dict`'s ``state``; malformed: ValueError."""
        try:
            ends, turn = state["ends"], state["turn"]
            lead, winner, seat = state["forced_lead"], state["winner"], state["seat"]
            return cls(
                rules=rules,
                players=int(state["players"]),
                seat=None if seat is None else int(seat),
                round_number=int(state["round_number"]),
                hand=tuple(Tile.parse(t) for t in state["hand"]),
                line=tuple((int(a), int(b)) for a, b in state["line"]),
                ends=None if ends is None else (int(ends[0]), int(ends[1])),
                hand_counts=tuple(int(v) for v in state["hand_counts"]),
                boneyard=int(state["boneyard"]),
                drawable=int(state["drawable"]),
                turn=None if turn is None else int(turn),
                leader=int(state["leader"]),
                forced_lead=None if lead is None else Tile.parse(lead),
                draws_this_turn=int(state["draws_this_turn"]),
                scores=tuple(int(v) for v in state["scores"]),
                target=int(state["target"]),
                legal=tuple(parse_action(a) for a in state["legal"]),
                events=events,
                results=results,
                winner=None if winner is None else int(winner),
            )
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
            raise ValueError(f"not a view: {exc}") from None
