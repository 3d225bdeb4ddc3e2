"""Public events: what everyone at the table may learn from an action.

Events are frozen msgspec Structs, declared once: the engine makes one per
action (a Struct is built in C, cheaper than a slotted dataclass), and the wire
and the journal derive an event's plain form from the declaration: a map whose
``type`` (the tag, first) tells the events apart, then the fields in order.

An event never names a hidden tile: a draw says who drew and how many, never
which. Hands are revealed only in `RoundEnded`. The engine keeps no
serialisation code: net/wire.py says how a tile and an action are written.
"""

from __future__ import annotations

from typing import Annotated

from msgspec import UNSET, Meta, Struct, UnsetType

from ..actions import End
from ..codes import Outcome
from ..tiles import Tile
from .scoring import Bonus

#: Seats' numbers and counts (2 to 4 seats) as a sequence on the wire holds them.
PerSeat = Annotated[tuple[int, ...], Meta(max_length=4)]
#: The most tiles any set holds (double-12: 91).
MAX_TILES = 91


class _Event(Struct, frozen=True, gc=False, tag_field="type"):
    """What every event is: frozen, told apart on the wire by its ``type``."""


class RoundStarted(_Event, frozen=True, gc=False, tag="round_started"):
    round_number: int
    leader: int
    hand_counts: PerSeat
    boneyard: int
    #: The tile the leader must lead, when the lead is forced.
    forced_lead: Tile | None
    #: How many deals it took (a deal with no double is dealt again).
    redeals: int = 0
    # The house rules' fields are UNSET unless they happened, and msgspec writes no
    # UNSET field: the events of a game without them are the bytes of before.
    #: The seat that asked for this new deal, dealt `doubles` doubles (redeal on five doubles).
    asked_by: int | UnsetType = UNSET
    doubles: int | UnsetType = UNSET


class TilePlayed(_Event, frozen=True, gc=False, tag="tile_played"):
    seat: int
    tile: Tile
    end: End
    #: The open ends after the play.
    left: int
    right: int
    #: The number the tile's wild blank was given (wild blanks; UNSET: it showed no blank).
    blank: int | UnsetType = UNSET


class TilesDrawn(_Event, frozen=True, gc=False, tag="tiles_drawn"):
    seat: int
    count: int
    #: The open ends the player could not (or chose not to) match.
    left: int
    right: int


class Passed(_Event, frozen=True, gc=False, tag="passed"):
    seat: int
    left: int
    right: int


class RoundResult(Struct, frozen=True, gc=False):
    """How a round ended, every hand shown, and who scored what."""

    round_number: int
    reason: Outcome
    #: The seat that laid the last tile (the one who went out, or who blocked it).
    last_player: int
    last_tile: Tile
    hands: Annotated[tuple[Annotated[tuple[Tile, ...], Meta(max_length=MAX_TILES)], ...], Meta(max_length=4)]
    pip_counts: PerSeat
    #: Each side's count as the scoring compares them.
    side_counts: PerSeat
    #: None when the round is tied and nobody scores.
    winner: int | None
    points: int
    #: (bonus, points) of each bonus won, already in `points`.
    bonuses: Annotated[tuple[tuple[Bonus, int], ...], Meta(max_length=len(Bonus))]
    scores: PerSeat


class RoundEnded(_Event, frozen=True, gc=False, tag="round_ended"):
    result: RoundResult


class MatchEnded(_Event, frozen=True, gc=False, tag="match_ended"):
    winner: int
    scores: PerSeat


Event = RoundStarted | TilePlayed | TilesDrawn | Passed | RoundEnded | MatchEnded
