"""A round of Mexican Train as the engine runs it: a `MexicanRound` on bitmasks.

docs/RULES.md, ``mexican-train``. The layout is one train per seat and the
Mexican train, every one starting from the round's *engine* (a double set in
the middle): `Trains` (core/mexican/layout.py).

`MexicanRound` is the rules code itself: `MexicanMatch` (core/mexican/match.py) drives
one and turns what it does into events and views, and the play-outs of
core/ai/mexican_playout.py copy one and play it out fast. Its methods trust that
they are called with legal moves; the match checks first.

A turn, as the round keeps it:

- doubles are open (``open_doubles``, oldest first): the player on turn may
  only cover the oldest, one tile; who cannot draws one tile (once), then
  covers with it or passes;
- the player on turn laid a double this turn (``doubling``): it may lay
  another double anywhere it may play, or end the turn with a tile that is
  not a double on the oldest open double; who cannot end it so draws one tile,
  lays it if it covers the oldest, else passes (the doubles stay open);
- a seat's first turn of the round (``first_turn``): it may only start its own
  train, laying a run of tiles one by one (``running``) and ending it with
  `end_run` on a tile that is not a double; who cannot start draws one tile and
  lays it on their own train or the Mexican train, else passes;
- otherwise one tile on one's own train, the Mexican train or a train whose
  marker is up; who cannot draws one tile and plays it if it fits, else passes
  with their marker up.

A double laid (not as one's last tile) keeps the turn. By default several
doubles may be laid before the turn's cover; with ``one_double`` (the option
one double a turn) the next tile must cover it, so at most one is open; with
``cover_doubles`` off it earns another play anywhere. After a draw only the
drawn tile may be laid. The round is blocked when the boneyard is empty and no
player can lay a tile where they may (`blocked`), not merely after a round of
passes: a pass that puts a marker up may give a later player a play.
"""

from __future__ import annotations

from ..codes import Outcome
from ..tiles import TileSet
from .layout import Trains


class MexicanRound(Trains):
    """A round of Mexican Train in progress: the layout, the hands, the boneyard, whose turn."""

    __slots__ = (
        "cover_doubles",
        "doubles_mask",
        "doubling",
        "drawn",
        "drew",
        "ends_of",
        "first_turn",
        "hands",
        "last_player",
        "last_tile",
        "one_double",
        "opening_run",
        "outcome",
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
        one_double: bool = False,
        mexican_needs_own: bool = False,
    ) -> None:
        super().__init__(tiles, len(hands), engine, mexican_needs_own=mexican_needs_own)
        self.tiles = tiles
        self.ends_of = tiles.ends
        self.doubles_mask = sum(1 << tiles.double_of[n] for n in range(tiles.max_pip + 1))
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
        #: The option: one double a turn, covered by the same player's next tile.
        self.one_double = one_double
        #: Seats whose first turn of the round has not ended.
        self.first_turn = [True] * len(hands)
        #: The seat on turn is laying its opening run (one tile of it is down).
        self.running = False
        #: The seat on turn laid a double this turn (not in its run): it ends the turn with a cover.
        self.doubling = False
        #: The seat on turn has drawn its one tile (for this play or this cover).
        self.drew = False
        #: The tile it drew (only that one may be laid then), or -1.
        self.drawn = -1
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
        clone.open_doubles = list(self.open_doubles)
        return clone  # the stock list is never changed in place, so it is shared

    # -- what may be done ------------------------------------------------------

    def places(self) -> list[int]:
        """The trains the seat on turn may lay a tile on now (before asking which tiles fit)."""
        seat = self.turn
        if self.running:
            return [seat]
        if self.open_doubles:
            oldest = self.open_doubles[0]
            if self.doubling and not self.drew:
                # Another double anywhere it may play, or the cover of the oldest.
                return [oldest, *(t for t in self.open_to(seat) if t != oldest)]
            return [oldest]
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
        if self.drew:
            hand &= 1 << self.drawn  # after a draw, only the drawn tile may be laid
        tiles = hand & self.suit[self.heads[train]]
        if self.open_doubles and not self.running:
            if train != self.open_doubles[0]:
                tiles &= self.doubles_mask  # while doubling: only another double elsewhere
            return tiles
        opening = self.first_turn[self.turn] and not self.drew and self.opening_run
        if opening and tiles and not self.open_doubles:
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
        return self.running and not self.open_doubles

    def may_stop(self) -> bool:
        """The seat on turn may draw (or, having drawn or on an empty boneyard, pass) now.

        When it has no tile to lay; or while doubling, when nothing it holds covers the
        oldest open double (the doubles it could still lay do not oblige it).
        """
        if self.running:
            return False
        if self.doubling and self.open_doubles and not self.drew:
            return not self.fitting(self.open_doubles[0])
        return not self.playable()

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
        # a double, the cover of an open double, or an ordinary play.
        opening = self.running or (
            not self.open_doubles and self.first_turn[seat] and not self.drew and self.opening_run
        )
        hand = self.hands[seat] ^ 1 << tile
        self.hands[seat] = hand
        self.lay_on(tile, train)
        self.last_player = seat
        self.last_tile = tile
        if train == seat:
            self.markers[seat] = False  # the marker comes down when its owner lays on their train
        if not hand:
            self.outcome = Outcome.DOMINO  # going out ends the round, on a double too
            return
        a, b = self.ends_of[tile]
        if opening:
            # The run goes on until `end_run`; a double in it is covered by its next tile.
            self.running = True
            self.open_doubles = [train] if a == b else []
            return
        if a == b:  # never the cover of a double: no double covers another
            self.drew = False  # the cover (or the extra play) may draw its own tile
            self.drawn = -1
            self.first_turn[seat] = False
            if self.cover_doubles:
                if self.one_double:
                    self.open_doubles = [train]
                else:
                    self.open_doubles = [*self.open_doubles, train]
                    self.doubling = True
            return
        if self.open_doubles and self.open_doubles[0] == train:
            self.open_doubles = self.open_doubles[1:]
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
        self.drawn = tile
        return tile

    def pass_turn(self) -> None:
        """The seat on turn cannot play: its marker goes up (any doubles it left stay open).

        The round is blocked when the boneyard is empty and nobody can lay a tile (`blocked`).
        """
        self.markers[self.turn] = True
        if self.stock_pos == len(self.stock) and self.blocked():
            self.outcome = Outcome.TRANQUE
            return
        self._end_turn()

    def blocked(self) -> bool:
        """No player can ever lay a tile again, whatever the boneyard holds.

        Passes only put markers up (and end first turns), so what may still be laid
        is what fits with every marker up: the oldest open double's cover while one is
        open, else any train's number (the Mexican train's too, unless the option keeps
        a seat with no train of its own off it).
        """
        suit = self.suit
        heads = self.heads
        if self.open_doubles:
            need = suit[heads[self.open_doubles[0]]]
            return not any(hand & need for hand in self.hands)
        trains = 0
        for train in range(self.mexican):
            trains |= suit[heads[train]]
        mexican = suit[heads[self.mexican]]
        needs_own = self.mexican_needs_own
        lengths = self.lengths
        for seat, hand in enumerate(self.hands):
            if hand & trains:
                return False
            if hand & mexican and not (needs_own and not lengths[seat]):
                return False
        return True

    def _end_turn(self) -> None:
        seat = self.turn
        self.first_turn[seat] = False
        self.running = False
        self.doubling = False
        self.drew = False
        self.drawn = -1
        self.turn = seat + 1 if seat + 1 < self.players else 0

    def pip_counts(self, double_blank: int) -> list[int]:
        """Each hand's count; the double blank (0 pips) counts ``double_blank``."""
        blank = 1 << self.tiles.double_of[0]
        return [self.tiles.pips_in(hand) + (double_blank if hand & blank else 0) for hand in self.hands]
