"""What one seat of Mexican Train (or a spectator) may know: docs/RULES.md's list, as a value."""

from __future__ import annotations

from typing import Annotated

from msgspec import Meta, Struct

from ..actions import Action, Train
from ..rules import MexicanRules
from ..tiles import Tile
from .events import MAX_HISTORY, MAX_TILES, MexicanEvent, MexicanRoundResult, PerSeat


class TrainLine(Struct, frozen=True, gc=False):
    """One train as everyone sees it."""

    #: The train (its owner's seat, or `MEXICAN`).
    train: Train
    #: Its tiles from the engine outwards, each as (inner number, outer number).
    tiles: Annotated[tuple[tuple[int, int], ...], Meta(max_length=MAX_TILES)]
    #: The number open at its end (the engine's while it is empty).
    head: int
    #: Up: open to everyone (always, for the Mexican train).
    marker: bool


class MexicanView(Struct, frozen=True, gc=False, tag_field="game", tag="mexican-train"):
    """What one seat (or a spectator) may know: docs/RULES.md's list for Mexican Train, and no more.

    A frozen msgspec Struct, as `View` is: the wire derives its plain form from
    this declaration. Its plain form starts with ``game: "mexican-train"``, so that
    a reader tells it from a `View` (docs/PROTOCOL.md, section 5).
    """

    rules: MexicanRules
    players: int
    #: The seat this view is for; None for a spectator.
    seat: int | None
    round_number: int
    #: How many rounds the match has.
    rounds: int
    engine: Tile
    #: This seat's tiles (empty for a spectator).
    hand: Annotated[tuple[Tile, ...], Meta(max_length=MAX_TILES)]
    #: Every seat's train (in seat order), then the Mexican train.
    trains: Annotated[tuple[TrainLine, ...], Meta(max_length=9)]
    #: The trains whose doubles wait to be covered, oldest first (the next cover goes on the first).
    open_doubles: Annotated[tuple[Train, ...], Meta(max_length=9)]
    hand_counts: PerSeat
    boneyard: int
    #: Whose turn it is (None between rounds and once the match is over).
    turn: int | None
    #: The seat that played first this round.
    first: int
    #: The seat on turn has not ended its first turn of the round.
    first_turn: bool
    #: The seat on turn may lay an opening run now (a client may build a `Run`).
    may_run: bool
    #: The seat on turn is laying its opening run tile by tile.
    running: bool
    #: The seat on turn laid a double this turn: it lays another double or covers the oldest.
    doubling: bool
    #: The seat dealt this round's engine, who laid it; None: it came from the boneyard.
    engine_holder: int | None
    #: The tile this seat drew this turn, the only one it may lay now (None for the others).
    drawn: Tile | None
    totals: PerSeat
    #: What this seat may do now (empty when it is not this seat's turn).
    legal: Annotated[tuple[Action, ...], Meta(max_length=9 * MAX_TILES + 2)]
    #: This round's public events so far.
    events: Annotated[tuple[MexicanEvent, ...], Meta(max_length=MAX_HISTORY)]
    results: Annotated[tuple[MexicanRoundResult, ...], Meta(max_length=MAX_HISTORY)]
    #: The seats that won, once the match is over.
    winners: PerSeat | None

    @property
    def is_my_turn(self) -> bool:
        return self.seat is not None and self.turn == self.seat

    @property
    def match_over(self) -> bool:
        return self.winners is not None

    @property
    def between_rounds(self) -> bool:
        """A round is over (its end is in `events`) and the next is not dealt yet."""
        return self.turn is None and self.winners is None

    @property
    def open_double(self) -> Train | None:
        """The oldest open double's train (the one to cover next), or None."""
        return self.open_doubles[0] if self.open_doubles else None

    def train_of(self, train: Train) -> TrainLine:
        return self.trains[self.players if train.owner < 0 else train.owner]
