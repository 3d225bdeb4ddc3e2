"""The round as the engine runs it: tiles as indices, hands as bitmasks.

This is the rules code itself, not a second copy of it: the public `Match`
drives a `RoundState` and turns what it does into events and views, and the
computer players copy one and play it out thousands of times per move
(`capicu.core.ai.playout`). Every method here trusts that it is called with a
legal action; `Match` checks legality before it calls in.
"""

from __future__ import annotations

from ..actions import End
from ..codes import Outcome
from ..tiles import TileSet
from .layout import Line, line_of

_LEFT, _RIGHT = End.LEFT, End.RIGHT


def deal_hands(order: list[int], players: int, hand_size: int) -> list[int]:
    """The hands (as masks) that a shuffled order gives, dealt in blocks from the top."""
    hands = []
    for seat in range(players):
        mask = 0
        for tile in order[seat * hand_size : (seat + 1) * hand_size]:
            mask |= 1 << tile
        hands.append(mask)
    return hands


def highest_double(tiles: TileSet, hands: list[int]) -> tuple[int, int] | None:
    """The seat holding the highest double and that double, or None when nobody holds one."""
    for number in range(tiles.max_pip, -1, -1):
        bit = 1 << tiles.double_of[number]
        for seat, hand in enumerate(hands):
            if hand & bit:
                return seat, tiles.double_of[number]
    return None


class RoundState:
    """A round in progress: hands, boneyard, the two open ends, whose turn.

    Where a tile may go is the `Line` layout's answer: ``fit[left][right]`` is
    every tile that fits, ``far[tile][n]`` the end a tile leaves laid against n.
    """

    __slots__ = (
        "capicu",
        "drawable",
        "draws_at_once",
        "draws_this_turn",
        "ends_of",
        "far",
        "fit",
        "forced_lead",
        "hands",
        "last_player",
        "last_tile",
        "layout",
        "left",
        "max_draws",
        "outcome",
        "players",
        "right",
        "stock",
        "stock_pos",
        "suit",
        "tiles",
        "turn",
        "voluntary_draw",
    )

    def __init__(
        self,
        tiles: TileSet,
        hands: list[int],
        stock: list[int],
        *,
        turn: int,
        reserve: int,
        drawing: bool = True,
        forced_lead: int = -1,
        voluntary_draw: bool = False,
        max_draws: int = 0,
        wild_blanks: bool = False,
        draws_at_once: int = 1,
    ) -> None:
        self.tiles = tiles
        self.suit = tiles.suit_mask
        self.ends_of = tiles.ends
        self.layout: Line = line_of(tiles.max_pip, wild_blanks)
        self.fit = self.layout.fit
        self.far = self.layout.far
        self.players = len(hands)
        self.hands = hands
        #: The undealt tiles in the order they will be drawn.
        self.stock = stock
        self.stock_pos = 0
        #: How many more tiles can be drawn (0 when drawing is off).
        self.drawable = max(0, len(stock) - reserve) if drawing else 0
        self.turn = turn
        #: -1 while the line is empty.
        self.left = -1
        self.right = -1
        #: The tile the lead must be (-1: any tile).
        self.forced_lead = forced_lead
        self.voluntary_draw = voluntary_draw
        #: Most draws in one turn (0: no limit).
        self.max_draws = max_draws
        #: Tiles one draw takes (docs/RULES.md's "draw several": 2 or 3, once a turn; else 1).
        self.draws_at_once = draws_at_once
        #: Tiles drawn this turn.
        self.draws_this_turn = 0
        self.last_player = -1
        self.last_tile = -1
        #: None while the round is played, then how it ended.
        self.outcome: Outcome | None = None
        #: Whether the round ended in a capicú (set with a DOMINO outcome).
        self.capicu = False

    def copy(self) -> RoundState:
        clone = RoundState.__new__(RoundState)
        for name in RoundState.__slots__:
            setattr(clone, name, getattr(self, name))
        clone.hands = list(self.hands)
        return clone  # the stock list is never changed in place, so it is shared

    # -- what may be done -----------------------------------------------------

    def playable(self, seat: int) -> int:
        """The tiles of ``seat``'s hand that may be laid now, as a mask."""
        if self.left < 0 and self.forced_lead >= 0:  # a forced lead: that tile only
            return self.hands[seat] & 1 << self.forced_lead
        return self.hands[seat] & self.fit[self.left][self.right]

    def may_draw(self) -> bool:
        """Whether the player on turn may draw a tile now, if they have to or want to."""
        if self.draws_at_once > 1:  # several at once, once a turn
            return self.drawable > 0 and self.draws_this_turn == 0
        return self.drawable > 0 and (self.max_draws == 0 or self.draws_this_turn < self.max_draws)

    # -- doing it ----------------------------------------------------------

    def play(self, tile: int, on_right: bool, blank: int = -1) -> None:
        """Lay ``tile`` from the hand of the player on turn on one end.

        ``blank``: the number its player gives a wild blank left open (-1: none;
        a blank lead without one is given 0).
        """
        seat = self.turn
        hand = self.hands[seat] ^ 1 << tile
        self.hands[seat] = hand
        left = self.left
        far = self.far[tile]
        if not hand and left >= 0:
            # Capicú (docs/RULES.md): the last tile could have gone on either open end, and
            # it is not a double. (The lead has no open end to choose from.)
            a, b = self.ends_of[tile]
            self.capicu = a != b and far[left] >= 0 and far[self.right] >= 0
        if left < 0:
            self.left, self.right = self.layout.after(tile, _LEFT, left, left, blank)
            self.forced_lead = -1
        elif blank >= 0:  # a wild blank left open: that end is the number its player gave it
            if on_right:
                self.right = blank
            else:
                self.left = blank
        elif on_right:
            self.right = far[self.right]
        else:
            self.left = far[left]
        self.last_player = seat
        self.last_tile = tile
        if not hand:
            self.outcome = Outcome.DOMINO
            return
        self.turn = seat + 1 if seat + 1 < self.players else 0
        self.draws_this_turn = 0
        if not self.drawable:
            self._check_tranque()

    def draw(self) -> int:
        """Give the player on turn the next tile of the boneyard (or `draws_at_once` of them).

        Returns how many were drawn: as many as asked, or as can still be drawn.
        """
        if self.draws_at_once == 1:  # the usual draw, kept short: play-outs draw often
            count = 1
            self.hands[self.turn] |= 1 << self.stock[self.stock_pos]
            self.stock_pos += 1
        else:
            count = min(self.draws_at_once, self.drawable)
            for tile in self.stock[self.stock_pos : self.stock_pos + count]:
                self.hands[self.turn] |= 1 << tile
            self.stock_pos += count
        self.drawable -= count
        self.draws_this_turn += count
        if not self.drawable:
            self._check_tranque()
        return count

    def pass_turn(self) -> None:
        self.turn = self.turn + 1 if self.turn + 1 < self.players else 0
        self.draws_this_turn = 0

    def _check_tranque(self) -> None:
        # The host knows every hand, so a blocked round ends at once instead of
        # waiting for each forced pass.
        if self.left < 0:
            return
        open_mask = self.fit[self.left][self.right]
        for hand in self.hands:
            if hand & open_mask:
                return
        self.outcome = Outcome.TRANQUE

    def pip_counts(self) -> list[int]:
        return [self.tiles.pips_in(hand) for hand in self.hands]

