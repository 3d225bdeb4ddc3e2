"""The round as the engine runs it: tiles as indices, hands as bitmasks.

This is the rules code itself, not a second copy of it: the public `Match`
drives a `RoundState` and turns what it does into events and views, and the
computer players copy one and play it out thousands of times per move. Every
method here trusts that it is called with a legal action; `Match` checks
legality before it calls in.
"""

from __future__ import annotations

import random
from functools import cache

from .tiles import TileSet

DOMINO = "domino"
TRANQUE = "tranque"


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
    """A round in progress: hands, boneyard, the two open ends, whose turn."""

    __slots__ = (
        "drawable",
        "draws_this_turn",
        "ends_of",
        "forced_lead",
        "hands",
        "last_player",
        "last_tile",
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
    ) -> None:
        self.tiles = tiles
        self.suit = tiles.suit_mask
        self.ends_of = tiles.ends
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
        self.draws_this_turn = 0
        self.last_player = -1
        self.last_tile = -1
        #: None while the round is played, then DOMINO or TRANQUE.
        self.outcome: str | None = None

    def copy(self) -> RoundState:
        clone = RoundState.__new__(RoundState)
        for name in RoundState.__slots__:
            setattr(clone, name, getattr(self, name))
        clone.hands = list(self.hands)
        return clone  # the stock list is never changed in place, so it is shared

    # -- what may be done -----------------------------------------------------

    def open_mask(self) -> int:
        """The tiles that fit an open end (every tile while the line is empty)."""
        if self.left < 0:
            return self.tiles.full_mask if self.forced_lead < 0 else 1 << self.forced_lead
        return self.suit[self.left] | self.suit[self.right]

    def playable(self, seat: int) -> int:
        """The tiles of ``seat``'s hand that may be laid now, as a mask."""
        return self.hands[seat] & self.open_mask()

    def may_draw(self) -> bool:
        """Whether the player on turn may draw a tile now, if they have to or want to."""
        return self.drawable > 0 and (self.max_draws == 0 or self.draws_this_turn < self.max_draws)

    def fits(self, tile: int) -> tuple[bool, bool]:
        """Whether ``tile`` fits the left end and the right end."""
        if self.left < 0:
            return True, False
        a, b = self.ends_of[tile]
        return (a == self.left or b == self.left), (a == self.right or b == self.right)

    # -- doing it ----------------------------------------------------------

    def play(self, tile: int, on_right: bool) -> None:
        """Lay ``tile`` from the hand of the player on turn on one end."""
        seat = self.turn
        self.hands[seat] ^= 1 << tile
        a, b = self.ends_of[tile]
        if self.left < 0:
            self.left, self.right = a, b
            self.forced_lead = -1
        elif on_right:
            self.right = b if a == self.right else a
        else:
            self.left = b if a == self.left else a
        self.last_player = seat
        self.last_tile = tile
        if not self.hands[seat]:
            self.outcome = DOMINO
            return
        self.turn = seat + 1 if seat + 1 < self.players else 0
        self.draws_this_turn = 0
        if not self.drawable:
            self._check_tranque()

    def draw(self) -> int:
        """Give the player on turn the next tile of the boneyard; returns it."""
        tile = self.stock[self.stock_pos]
        self.stock_pos += 1
        self.drawable -= 1
        self.hands[self.turn] |= 1 << tile
        self.draws_this_turn += 1
        if not self.drawable:
            self._check_tranque()
        return tile

    def pass_turn(self) -> None:
        self.turn = self.turn + 1 if self.turn + 1 < self.players else 0
        self.draws_this_turn = 0

    def _check_tranque(self) -> None:
        # The host knows every hand, so a blocked round ends at once instead of
        # waiting for each forced pass.
        if self.left < 0:
            return
        open_mask = self.suit[self.left] | self.suit[self.right]
        for hand in self.hands:
            if hand & open_mask:
                return
        self.outcome = TRANQUE

    # -- the fast path -------------------------------------------------------

    def play_out(
        self,
        rng: random.Random,
        greed: float = 0.0,
        follow: int = 0,
        *,
        searcher: int = -1,
        others: tuple[float, int] | None = None,
    ) -> None:
        """Finish the round with every seat choosing uniformly among its legal moves.

        With ``greed`` above 0, each move is instead, with that probability, the
        heaviest playable tile (a double on ties, never a draw by choice): the
        computer players' searches use it as a cheap model of sensible play.
        With ``follow`` above 0 that move weighs, instead, pips + 3 for a double
        + ``follow`` for each tile left in hand that fits the ends it leaves.
        With ``searcher`` and ``others`` given, the other seats play by ``others``
        (their greed and follow) instead: a searching seat models its opponents
        apart from its own later moves.
        """
        suit = self.suit
        ends_of = self.ends_of
        hands = self.hands
        weight = _weights(self.tiles)
        policies: list[tuple[float, int]] | None = None
        if others is not None:
            policies = [others] * self.players
            policies[searcher] = (greed, follow)
        while self.outcome is None:
            seat = self.turn
            if policies is not None:
                greed, follow = policies[seat]
            if self.left < 0:
                playable = hands[seat] if self.forced_lead < 0 else 1 << self.forced_lead
            else:
                playable = hands[seat] & (suit[self.left] | suit[self.right])
            if not playable:
                if self.may_draw():
                    self.draw()
                else:
                    self.pass_turn()
                continue
            if follow and greed and rng.random() < greed:
                tile, on_right = self._sensible_move(seat, playable, follow)
                self.play(tile, on_right)
                continue
            if greed and rng.random() < greed:
                best = -1
                tile = -1
                while playable:
                    low = playable & -playable
                    index = low.bit_length() - 1
                    if weight[index] > best:
                        best, tile = weight[index], index
                    playable ^= low
            else:
                if (
                    self.voluntary_draw
                    and self.may_draw()
                    and rng.random() < 1.0 / (playable.bit_count() + 1)
                ):
                    self.draw()
                    continue
                pick = int(rng.random() * playable.bit_count())
                while pick:
                    playable &= playable - 1
                    pick -= 1
                tile = (playable & -playable).bit_length() - 1
            if self.left < 0:
                self.play(tile, False)
                continue
            a, b = ends_of[tile]
            on_left = a == self.left or b == self.left
            on_right = a == self.right or b == self.right
            if on_left and on_right:
                on_right = rng.random() < 0.5
            self.play(tile, on_right)

    def _sensible_move(self, seat: int, playable: int, follow: int) -> tuple[int, bool]:
        """The (tile, on_right) that weighs most by `play_out`'s ``follow`` measure."""
        suit = self.suit
        ends_of = self.ends_of
        hand = self.hands[seat]
        left, right = self.left, self.right
        best = -1
        choice = (-1, False)
        while playable:
            low = playable & -playable
            playable ^= low
            tile = low.bit_length() - 1
            a, b = ends_of[tile]
            rest = hand ^ low
            merit = a + b + (3 if a == b else 0)
            if left < 0:
                score = merit + follow * (rest & (suit[a] | suit[b])).bit_count()
                if score > best:
                    best, choice = score, (tile, False)
                continue
            if a == left or b == left:
                score = merit + follow * (rest & (suit[b if a == left else a] | suit[right])).bit_count()
                if score > best:
                    best, choice = score, (tile, False)
            if a == right or b == right:
                score = merit + follow * (rest & (suit[left] | suit[b if a == right else a])).bit_count()
                if score > best:
                    best, choice = score, (tile, True)
        return choice

    def pip_counts(self) -> list[int]:
        return [self.tiles.pips_in(hand) for hand in self.hands]


@cache
def _weights(tiles: TileSet) -> tuple[int, ...]:
    """Each tile's rank for the greedy playout move: pips, then doubles first."""
    return tuple(2 * (a + b) + (a == b) for a, b in tiles.ends)
