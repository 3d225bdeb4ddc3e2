"""Public events: what everyone at the table may learn from an action.

Events are plain slotted records, not frozen ones: the engine makes one per
action, and a frozen dataclass costs four times as much to build (python-chess
makes the same trade for its ``Move``). Nobody changes one after it is made.

An event never names a hidden tile: a draw says who drew and how many, never
which. Hands are revealed only in `RoundEnded`. Each event turns into plain
data with `to_dict` (with a ``type`` field) and back with `event_from_dict`.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

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

_TYPES: dict[str, type] = {
    "round_started": RoundStarted,
    "tile_played": TilePlayed,
    "tiles_drawn": TilesDrawn,
    "passed": Passed,
    "round_ended": RoundEnded,
    "match_ended": MatchEnded,
}
_NAMES = {cls: name for name, cls in _TYPES.items()}


def _plain(value: Any) -> Any:
    if isinstance(value, Tile):
        return str(value)
    if isinstance(value, End):
        return value.value
    if isinstance(value, RoundResult):
        return {f.name: _plain(getattr(value, f.name)) for f in fields(value)}
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


def event_to_dict(event: Event) -> dict[str, Any]:
    """The event as plain data (str keys; ints, strs, lists, None)."""
    out: dict[str, Any] = {"type": _NAMES[type(event)]}
    for f in fields(event):
        out[f.name] = _plain(getattr(event, f.name))
    return out


def _tiles(value: Any) -> tuple[Tile, ...]:
    return tuple(Tile.parse(v) for v in value)


def _result_from(data: dict[str, Any]) -> RoundResult:
    return RoundResult(
        round_number=int(data["round_number"]),
        reason=Outcome(data["reason"]),
        last_player=int(data["last_player"]),
        last_tile=Tile.parse(data["last_tile"]),
        hands=tuple(_tiles(h) for h in data["hands"]),
        pip_counts=tuple(int(v) for v in data["pip_counts"]),
        side_counts=tuple(int(v) for v in data["side_counts"]),
        winner=None if data["winner"] is None else int(data["winner"]),
        points=int(data["points"]),
        bonuses=tuple((Bonus(n), int(p)) for n, p in data["bonuses"]),
        scores=tuple(int(v) for v in data["scores"]),
    )


def event_from_dict(data: Any) -> Event:
    """The event that `event_to_dict` wrote; a malformed one raises ValueError."""
    try:
        kind = _TYPES[data["type"]]
        if kind is RoundStarted:
            return RoundStarted(
                int(data["round_number"]),
                int(data["leader"]),
                tuple(int(v) for v in data["hand_counts"]),
                int(data["boneyard"]),
                None if data["forced_lead"] is None else Tile.parse(data["forced_lead"]),
                int(data.get("redeals", 0)),
            )
        if kind is TilePlayed:
            return TilePlayed(
                int(data["seat"]), Tile.parse(data["tile"]), End(data["end"]),
                int(data["left"]), int(data["right"]),
            )
        if kind is TilesDrawn:
            return TilesDrawn(int(data["seat"]), int(data["count"]), int(data["left"]), int(data["right"]))
        if kind is Passed:
            return Passed(int(data["seat"]), int(data["left"]), int(data["right"]))
        if kind is RoundEnded:
            return RoundEnded(_result_from(data["result"]))
        return MatchEnded(int(data["winner"]), tuple(int(v) for v in data["scores"]))
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise ValueError(f"not an event: {exc}") from None
