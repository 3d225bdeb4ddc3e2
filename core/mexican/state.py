"""A round of Mexican Train as the engine runs it: a `MexicanRound` on bitmasks.

docs/RULES.md, ``mexican-train``. The layout is one train per seat and the
Mexican train, every one starting from the round's *engine* (a double set in
the middle): `Trains` (core/mexican/layout.py).

`MexicanRound` is the rules code itself: `MexicanMatch` (core/mexican/match.py) drives
one and turns what it does into events and views, and the play-outs of
core/ai/mexican_playout.py copy one and play it out fast. Its methods trust that
they are called with legal moves; the match checks first.

A turn, as the round keeps it:

- a double is open (``open_double`` is its train): the player on turn may only
  cover it; who cannot draws one tile (once), then covers or passes;
- a seat's first turn of the round (``first_turn``): it may only start its own
  train, laying a run of tiles one by one (``running``) and ending it with
  `end_run` on a tile that is not a double; who cannot start draws one tile and
  lays it on their own train or the Mexican train, else passes;
- otherwise one tile on one's own train, the Mexican train or a train whose
  marker is up; who cannot draws one tile and plays it if it fits, else passes
  with their marker up.

A double laid (not as one's last tile) keeps the turn: it must be covered
(at most one double is open, since no double covers another) or, with the
``cover_doubles`` option off, it earns another play anywhere.
"""

from __future__ import annotations

from ..codes import Outcome
from ..tiles import TileSet
from .layout import Trains


class MexicanRound(Trains):
    """A round of Mexican Train in progress: the layout, the hands, the boneyard, whose turn."""

    __slots__ = (
        "cover_doubles",
        "drew",
        "ends_of",
        "first_turn",
        "hands",
        "last_player",
        "last_tile",
        "opening_run",
        "outcome",
        "passes",
        "players",
        "running",
        "stock",
        "stock_pos",
        "tiles",
        "turn",
    )

    def __init__(
        self,
        tiles: TileSet,
        engine: int,
        hands: list[int],
        stock: list[int],
        *,
        turn: int,
        opening_run: bool = True,
        cover_doubles: bool = True,
        mexican_needs_own: bool = False,
    ) -> None:
        super().__init__(tiles, len(hands), engine, mexican_needs_own=mexican_needs_own)
        self.tiles = tiles
        self.ends_of = tiles.ends
        self.players = len(hands)
        self.hands = hands
        #: The boneyard in draw order; ``stock_pos`` tiles of it are drawn.
        self.stock = stock
        self.stock_pos = 0
        self.turn = turn
        #: The option: a first turn may lay a run of tiles (False: one tile only).
        self.opening_run = opening_run
        #: The option: a double must be covered (False: it earns another play anywhere).
        self.cover_doubles = cover_doubles
        #: Seats whose first turn of the round has not ended.
        self.first_turn = [True] * len(hands)
        #: The seat on turn is laying its opening run (one tile of it is down).
        self.running = False
        #: The seat on turn has drawn its one tile (for this play or this cover).
        self.drew = False
        #: Passes in a row since the last tile laid.
        self.passes = 0
        self.last_player = -1
        self.last_tile = -1
        self.outcome: Outcome | None = None

    def copy(self) -> MexicanRound:
        clone = MexicanRound.__new__(MexicanRound)
        for name in Trains.__slots__ + MexicanRound.__slots__:
            setattr(clone, name, getattr(self, name))
        clone.hands = list(self.hands)
        clone.heads = list(self.heads)
        clone.lengths = list(self.lengths)
        clone.markers = list(self.markers)
        clone.first_turn = list(self.first_turn)
        return clone  # the stock list is never changed in place, so it is shared

    # -- what may be done ------------------------------------------------------

    def places(self) -> list[int]:
        """The trains the seat on turn may lay a tile on now (before asking which tiles fit)."""
        seat = self.turn
        if self.open_double >= 0:
            return [self.open_double]
        if self.running:
            return [seat]
        if self.first_turn[seat]:
            if not self.drew:
                return [seat]
            # Who could not start their train lays the drawn tile on it or the Mexican train.
            if self.mexican_needs_own:
                return [seat]
            return [seat, self.mexican]
        return self.open_to(seat)

    def fitting(self, train: int) -> int:
        """The tiles of the seat on turn that may go on ``train`` now (``train`` among `places`)."""
        hand = self.hands[self.turn]
        tiles = hand & self.suit[self.heads[train]]
        opening = self.first_turn[self.turn] and not self.drew and self.opening_run
        if opening and tiles and self.open_double < 0:
            # In the opening run a double goes down only if the run can go on past it
            # (a run may not end on a double), or as the last tile in hand (going out).
            tiles = self._run_tiles(hand, tiles, train)
        return tiles

    def _run_tiles(self, hand: int, tiles: int, train: int) -> int:
        head = self.heads[train]
        double = 1 << self.tiles.double_of[head]
        if tiles & double and hand != double and not (hand ^ double) & self.suit[head]:
            tiles ^= double
        return tiles

    def playable(self) -> int:
        """Every tile the seat on turn may lay somewhere now, as a mask."""
        mask = 0
        for train in self.places():
            mask |= self.fitting(train)
        return mask

    def may_end_run(self) -> bool:
        """The seat on turn is in its opening run, and its last tile is not a double."""
        return self.running and self.open_double < 0

    def may_draw(self) -> bool:
        """The seat on turn may draw: nothing fits, it has not drawn yet, and the boneyard has tiles."""
        return not self.running and not self.drew and self.stock_pos < len(self.stock)

    @property
    def boneyard(self) -> int:
        return len(self.stock) - self.stock_pos

    # -- doing it ----------------------------------------------------------------

    def play(self, tile: int, train: int) -> None:
        """Lay ``tile`` from the hand of the seat on turn on ``train``."""
        seat = self.turn
        # What this tile is, decided before it goes down: a step of the opening run,
        # the cover of an open double, or an ordinary play.
        opening = self.running or (
            self.open_double < 0 and self.first_turn[seat] and not self.drew and self.opening_run
        )
        hand = self.hands[seat] ^ 1 << tile
        self.hands[seat] = hand
        self.lay_on(tile, train)
        self.last_player = seat
        self.last_tile = tile
        self.passes = 0
        if train == seat:
            self.markers[seat] = False  # the marker comes down when its owner lays on their train
        if not hand:
            self.outcome = Outcome.DOMINO  # going out ends the round, on a double too
            return
        a, b = self.ends_of[tile]
        if opening:
            # The run goes on until `end_run`; a double in it is covered by its next tile.
            self.running = True
            self.open_double = train if a == b else -1
            return
        if a == b:  # never the cover of a double: no double covers another
            self.drew = False  # the cover (or the extra play) may draw its own tile
            self.first_turn[seat] = False
            if self.cover_doubles:
                self.open_double = train
            return
        self.open_double = -1
        self._end_turn()

    def end_run(self) -> None:
        """End the opening run of the seat on turn (its last tile is not a double)."""
        self._end_turn()

    def draw(self) -> int:
        """Give the seat on turn the next tile of the boneyard; returns it."""
        tile = self.stock[self.stock_pos]
        self.stock_pos += 1
        self.hands[self.turn] |= 1 << tile
        self.drew = True
        return tile

    def pass_turn(self) -> None:
        """The seat on turn cannot play: its marker goes up.

        The round is blocked when the boneyard is empty and every player in turn has passed.
        """
        self.markers[self.turn] = True
        self.passes += 1
        if self.passes >= self.players and self.stock_pos == len(self.stock):
            self.outcome = Outcome.TRANQUE
            return
        self._end_turn()

    def _end_turn(self) -> None:
        seat = self.turn
        self.first_turn[seat] = False
        self.running = False
        self.drew = False
        self.turn = seat + 1 if seat + 1 < self.players else 0

    def pip_counts(self, double_blank: int) -> list[int]:
        """Each hand's count; the double blank (0 pips) counts ``double_blank``."""
        blank = 1 << self.tiles.double_of[0]
        return [self.tiles.pips_in(hand) + (double_blank if hand & blank else 0) for hand in self.hands]
