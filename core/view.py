"""What one seat (or a spectator) may know: RULES.md section 3, as a value.

A `View` is the only thing built from a match's state that leaves the engine:
the host serialises nothing else. It holds the seat's own hand, never another
seat's tiles or the boneyard's.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .actions import Action, parse_action
from .events import Event, RoundResult, _result_from, event_from_dict, event_to_dict
from .events import _plain as _plain_value
from .rules import Rules
from .tiles import Tile


@dataclass(frozen=True, slots=True)
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

    def side_of(self, seat: int) -> int:
        return self.rules.side_of(seat, self.players)

    def to_dict(self) -> dict[str, Any]:
        """The view as plain data for the wire (str keys; ints, strs, lists, None)."""
        return {
            "rules": self.rules.to_dict(),
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
            "events": [event_to_dict(e) for e in self.events],
            "results": [_plain_value(r) for r in self.results],
            "winner": self.winner,
        }

    @classmethod
    def from_dict(cls, data: Any) -> View:
        """The view that `to_dict` wrote; anything malformed raises ValueError."""
        try:
            ends = data["ends"]
            return cls(
                rules=Rules.from_dict(data["rules"]),
                players=int(data["players"]),
                seat=None if data["seat"] is None else int(data["seat"]),
                round_number=int(data["round_number"]),
                hand=tuple(Tile.parse(t) for t in data["hand"]),
                line=tuple((int(a), int(b)) for a, b in data["line"]),
                ends=None if ends is None else (int(ends[0]), int(ends[1])),
                hand_counts=tuple(int(v) for v in data["hand_counts"]),
                boneyard=int(data["boneyard"]),
                drawable=int(data["drawable"]),
                turn=None if data["turn"] is None else int(data["turn"]),
                leader=int(data["leader"]),
                forced_lead=None if data["forced_lead"] is None else Tile.parse(data["forced_lead"]),
                draws_this_turn=int(data["draws_this_turn"]),
                scores=tuple(int(v) for v in data["scores"]),
                target=int(data["target"]),
                legal=tuple(parse_action(a) for a in data["legal"]),
                events=tuple(event_from_dict(e) for e in data["events"]),
                results=tuple(_result_from(r) for r in data["results"]),
                winner=None if data["winner"] is None else int(data["winner"]),
            )
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            raise ValueError(f"not a view: {exc}") from None
