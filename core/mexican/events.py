"""Mexican Train's public events: what everyone at the table may learn from an action.

Frozen msgspec Structs told apart on the wire by their ``type`` tag, as the
Draw family's are (core/draw/events.py). The tags keep the words they were
first written with ("train_tile_played", ...): they are bytes on the wire and
in journals, not Python names.
"""

from __future__ import annotations

from typing import Annotated

from msgspec import Meta, Struct

from ..actions import Train
from ..codes import Outcome
from ..tiles import Tile

#: Seats' numbers and counts (2 to 8 seats), as the wire holds them.
PerSeat = Annotated[tuple[int, ...], Meta(max_length=8)]
#: The most tiles any set holds (double-15: 136).
MAX_TILES = 136
#: The most events or results a view may hold.
MAX_HISTORY = 4096


class _MexicanEvent(Struct, frozen=True, gc=False, tag_field="type"):
    """What every Mexican Train event is: frozen, told apart on the wire by its ``type``
    (as core/draw/events.py's are)."""


class MexicanRoundStarted(_MexicanEvent, frozen=True, gc=False, tag="train_round_started"):
    round_number: int
    #: The round's double, set in the middle: every train starts from its number.
    engine: Tile
    #: The seat that plays first (after the engine's holder, who laid it as their turn).
    first: int
    hand_counts: PerSeat
    boneyard: int
    #: The seat dealt the engine, who laid it; None: it came from the boneyard (or was set aside).
    engine_holder: int | None = None


class MexicanTilePlayed(_MexicanEvent, frozen=True, gc=False, tag="train_tile_played"):
    seat: int
    tile: Tile
    train: Train
    #: The number the train shows after the tile.
    head: int


class MexicanTileDrawn(_MexicanEvent, frozen=True, gc=False, tag="train_tile_drawn"):
    """``seat`` drew one tile (which, nobody else learns)."""

    seat: int


class RunEnded(_MexicanEvent, frozen=True, gc=False, tag="run_ended"):
    """``seat`` ended its opening run."""

    seat: int


class MexicanPassed(_MexicanEvent, frozen=True, gc=False, tag="train_passed"):
    """``seat`` could not play: its marker is up."""

    seat: int


class MexicanRoundResult(Struct, frozen=True, gc=False):
    """How a round ended, every hand shown, and each count added to the totals."""

    round_number: int
    engine: Tile
    #: DOMINO: ``last_player`` went out; TRANQUE: the round was blocked.
    reason: Outcome
    last_player: int
    hands: Annotated[tuple[Annotated[tuple[Tile, ...], Meta(max_length=MAX_TILES)], ...], Meta(max_length=8)]
    #: Each hand's count (the double blank as the rules say); 0 for who went out.
    counts: PerSeat
    totals: PerSeat


class MexicanRoundEnded(_MexicanEvent, frozen=True, gc=False, tag="train_round_ended"):
    result: MexicanRoundResult


class MexicanMatchEnded(_MexicanEvent, frozen=True, gc=False, tag="train_match_ended"):
    #: The seats with the lowest total (several share the win).
    winners: PerSeat
    totals: PerSeat


MexicanEvent = (
    MexicanRoundStarted | MexicanTilePlayed | MexicanTileDrawn | RunEnded | MexicanPassed | MexicanRoundEnded
    | MexicanMatchEnded
)
