"""A hand of Fives and Threes as the engine runs it: tiles as indices, hands as bitmasks.

The rules code itself, as the Draw family's `RoundState` is: `FivesMatch` drives
one and turns what it does into events and views, and the computer players copy
one and play it out many times a decision. Where a tile may go is the Draw
family's `Line` layout's answer (``fit[left][right]``, ``far[tile][n]``); what
is new here is the score of each play, the go, and a hand that goes on after a
partner has chipped out. Every method trusts that it is called with a legal
action; `FivesMatch` checks legality first.
"""

from __future__ import annotations

from enum import StrEnum

from ..draw.layout import Line, line_of
from ..tiles import TileSet
from .scoring import POINTS


class FivesOutcome(StrEnum):
    """How a hand ended (the values travel on the wire)."""

    #: A player (with partners: the second of one side) laid their last tile: the go.
    CHIPPED_OUT = "chipped-out"
    #: Nobody can play (nor draw): no go.
    BLOCKED = "blocked"
    #: A side reached the target in the middle of the hand: the match is won at once.
    TARGET_REACHED = "target-reached"


def deal_hands(order: list[int], players: int, hand_size: int) -> list[int]:
    """The hands (as masks) that a shuffled order gives, dealt in blocks from the top."""
    hands = []
    for seat in range(players):
        mask = 0
        for tile in order[seat * hand_size : (seat + 1) * hand_size]:
            mask |= 1 << tile
        hands.append(mask)
    return hands


class FivesRound:
    """A hand in progress: the hands, the tiles set aside, the two open ends, whose turn.

    The ends are two numbers (-1 before the lead) and whether a double stands
    across each; ``laid`` counts the tiles of the line (one tile counts its pips).
    """

    __slots__ = (
        "drawable",
        "ends_of",
        "far",
        "fit",
        "go_side",
        "hands",
        "laid",
        "last_player",
        "last_tile",
        "layout",
        "lead_pips",
        "left",
        "left_double",
        "out",
        "outcome",
        "partnerships",
        "players",
        "right",
        "right_double",
        "stock",
        "stock_pos",
        "tiles",
        "turn",
    )

    def __init__(
        self, tiles: TileSet, hands: list[int], stock: list[int], *, turn: int, drawing: bool,
        partnerships: bool,
    ) -> None:
        self.tiles = tiles
        self.ends_of = tiles.ends
        self.layout: Line = line_of(tiles.max_pip)
        self.fit = self.layout.fit
        self.far = self.layout.far
        self.players = len(hands)
        self.hands = hands
        #: The tiles not dealt, in the order they would be drawn.
        self.stock = stock
        self.stock_pos = 0
        #: How many can still be drawn (0 when they are set aside).
        self.drawable = len(stock) if drawing else 0
        #: Two partnerships of four, partners opposite (seats 0 and 2, 1 and 3).
        self.partnerships = partnerships and self.players == 4
        self.turn = turn
        self.left = self.right = -1
        self.left_double = self.right_double = False
        self.laid = 0
        self.lead_pips = 0
        #: The seats that have chipped out, as a mask (they are passed over).
        self.out = 0
        self.last_player = -1
        self.last_tile = -1
        #: None while the hand is played, then how it ended.
        self.outcome: FivesOutcome | None = None
        #: The side that made the go (-1: none yet, or a blocked hand).
        self.go_side = -1

    def copy(self) -> FivesRound:
        """A copy to play on (the computer players' play-outs): the hands are its own."""
        clone = FivesRound.__new__(FivesRound)
        clone.tiles, clone.ends_of, clone.layout = self.tiles, self.ends_of, self.layout
        clone.fit, clone.far, clone.players = self.fit, self.far, self.players
        clone.hands = list(self.hands)
        # The stock list is never changed in place, so it is shared.
        clone.stock, clone.stock_pos, clone.drawable = self.stock, self.stock_pos, self.drawable
        clone.partnerships, clone.turn = self.partnerships, self.turn
        clone.left, clone.right = self.left, self.right
        clone.left_double, clone.right_double = self.left_double, self.right_double
        clone.laid, clone.lead_pips, clone.out = self.laid, self.lead_pips, self.out
        clone.last_player, clone.last_tile = self.last_player, self.last_tile
        clone.outcome, clone.go_side = self.outcome, self.go_side
        return clone

    # -- reading -----------------------------------------------------------------

    def side_of(self, seat: int) -> int:
        return seat & 1 if self.partnerships else seat

    @property
    def total(self) -> int:
        """The ends' total now (0 before the lead; a double at an end counts twice)."""
        if self.laid < 2:
            return self.lead_pips
        return (self.left << self.left_double) + (self.right << self.right_double)

    def playable(self, seat: int) -> int:
        """The tiles of ``seat``'s hand that may be laid now (any tile leads), as a mask."""
        return self.hands[seat] & self.fit[self.left][self.right]

    def may_draw(self) -> bool:
        return self.drawable > 0

    def points_of(self, tile: int, on_right: bool) -> int:
        """What laying ``tile`` on that end would score (it must fit there)."""
        a, b = self.ends_of[tile]
        if self.laid == 0:
            return POINTS[a + b]
        double = a == b
        if on_right:
            number = self.far[tile][self.right]
            return POINTS[(self.left << self.left_double) + (number << double)]
        number = self.far[tile][self.left]
        return POINTS[(number << double) + (self.right << self.right_double)]

    # -- doing it ------------------------------------------------------------------

    def play(self, tile: int, on_right: bool) -> int:
        """Lay ``tile`` from the hand of the player on turn on one end; the points it scores."""
        seat = self.turn
        hands = self.hands
        hand = hands[seat] ^ 1 << tile
        hands[seat] = hand
        a, b = self.ends_of[tile]
        double = a == b
        if self.laid == 0:
            self.left, self.right = a, b
            self.left_double = self.right_double = double
            self.lead_pips = total = a + b
        elif on_right:
            self.right = right = self.far[tile][self.right]
            self.right_double = double
            total = (self.left << self.left_double) + (right << double)
        else:
            self.left = left = self.far[tile][self.left]
            self.left_double = double
            total = (left << double) + (self.right << self.right_double)
        self.laid += 1
        self.last_player = seat
        self.last_tile = tile
        if not hand and self._chip_out(seat):
            return POINTS[total]
        # The next seat, passing over those who are out (with partners, the hand goes on).
        players = self.players
        seat = seat + 1 if seat + 1 < players else 0
        while self.out >> seat & 1:
            seat = seat + 1 if seat + 1 < players else 0
        self.turn = seat
        if not self.drawable:
            # The engine knows every hand, so a blocked hand ends at once rather than
            # after a round of knocks.
            open_mask = self.fit[self.left][self.right]
            for held in hands:
                if held & open_mask:
                    return POINTS[total]
            self.outcome = FivesOutcome.BLOCKED
        return POINTS[total]

    def _chip_out(self, seat: int) -> bool:
        """``seat`` has laid its last tile: whether that ends the hand (with the go to its side)."""
        self.out |= 1 << seat
        if self.partnerships and not self.out >> (seat ^ 2) & 1:
            return False  # the partner still plays: the hand goes on
        self.go_side = self.side_of(seat)
        self.outcome = FivesOutcome.CHIPPED_OUT
        return True

    def draw(self) -> None:
        """Give the player on turn the next tile set aside (the drawing option)."""
        self.hands[self.turn] |= 1 << self.stock[self.stock_pos]
        self.stock_pos += 1
        self.drawable -= 1
        if not self.drawable:
            self._check_blocked()

    def knock(self) -> None:
        """The player on turn cannot play (nor draw): the next one plays."""
        self._next_turn()

    def _next_turn(self) -> None:
        seat = self.turn
        players = self.players
        while True:
            seat = seat + 1 if seat + 1 < players else 0
            if not self.out >> seat & 1:
                break
        self.turn = seat

    def _check_blocked(self) -> None:
        # The engine knows every hand, so a blocked hand ends at once rather than after
        # a round of knocks.
        if self.laid == 0:
            return
        open_mask = self.fit[self.left][self.right]
        for hand in self.hands:
            if hand & open_mask:
                return
        self.outcome = FivesOutcome.BLOCKED
