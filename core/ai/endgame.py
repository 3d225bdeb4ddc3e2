"""The end of a round played exactly on one deal: alpha-beta search over the hands as bitmasks.

Once nothing can be drawn, a round of the Draw family is a game of perfect
information on each guessed deal: every tile is in a known hand. `EndgameSolver`
plays such a position to its end with a two-sided minimax (the searching side
maximises what the round is worth to it, the other side minimises it), pruned by
alpha-beta and with the heaviest tiles tried first. The `hard` search uses it in
place of play-outs near the end of a round (`Budget.endgame`): averaged over
many deals read from the play, the exact value of each move says what random
play-outs can only estimate, such as a tranque one side can force.

Only for games of two sides (two players, or four in partnerships), without
wild blanks (a blank's number is a choice the search does not make). The
leaves are scored by the preset's own scoring (`search._Scorer`).
"""

from __future__ import annotations

from collections.abc import Callable

from ..codes import Outcome
from ..draw.state import RoundState

#: What a finished round is worth to each side: (outcome, hands, last player, last tile, capicú).
LeafValues = Callable[[Outcome, list[int], int, int, bool], list[float]]


class NodeLimit(Exception):
    """The search used up its nodes before finishing: the position is too big to solve now."""


class EndgameSolver:
    """Exact values of positions with nothing left to draw, for one searching side.

    Two sides play minimax, pruned by alpha-beta; three or more sides (each for
    themselves) play max^n: each seat picks the move best for its own side,
    assuming the same of the others (no pruning, so it stays for small endgames).
    """

    __slots__ = ("_ends", "_far", "_fit", "_leaf", "_limit", "_maximising", "_me", "_order", "_players",
                 "_sides", "nodes")

    def __init__(self, state: RoundState, sides: list[int], my_side: int, leaf: LeafValues) -> None:
        self._fit = state.fit
        self._far = state.far
        self._ends = state.ends_of
        self._players = state.players
        self._leaf = leaf
        self._me = my_side
        #: Each seat's side, and (for two sides) whether it plays for the searching side.
        self._sides = sides
        self._maximising = [side == my_side for side in sides]
        weight = [a + b for a, b in state.ends_of]
        #: The tile indices, heaviest first: the order moves are tried in.
        self._order = sorted(range(len(weight)), key=lambda t: -weight[t])
        #: Nodes visited so far (every position searched).
        self.nodes = 0
        self._limit = 0

    def value(self, state: RoundState, limit: int) -> float:
        """The round's exact value to the searching side from ``state`` (drawable 0).

        Raises `NodeLimit` after ``limit`` more nodes.
        """
        if state.outcome is not None:
            return self._leaf(state.outcome, state.hands, state.last_player, state.last_tile,
                              state.capicu)[self._me]
        self._limit = self.nodes + limit
        hands = list(state.hands)
        if max(self._sides) == 1:
            return self._search(hands, state.left, state.right, state.turn, -float("inf"), float("inf"))
        return self._search_each(hands, state.left, state.right, state.turn)[self._me]

    def _moves(
        self, hands: list[int], left: int, right: int, turn: int
    ) -> tuple[int, list[tuple[int, int, int]]]:
        """The seat to move (after any passes), its moves as (tile, new left, new right), heaviest first."""
        fit = self._fit
        players = self._players
        playable = hands[turn] & fit[left][right]
        while not playable:  # a pass (a tranque ends the round as the tile that blocks it is laid)
            turn = turn + 1 if turn + 1 < players else 0
            playable = hands[turn] & fit[left][right]
        far = self._far
        moves = []
        for tile in self._order:
            if not playable >> tile & 1:
                continue
            row = far[tile]
            # Each end it fits; with both ends alike, one (the two give the same ends).
            if row[left] >= 0:
                moves.append((tile, row[left], right))
            if row[right] >= 0 and left != right:
                moves.append((tile, left, row[right]))
        return turn, moves

    def _after(self, hands: list[int], turn: int, tile: int, left: int, right: int, new_left: int,
               new_right: int) -> list[float] | None:
        """The values of the round if laying ``tile`` (already gone from the hand) ends it, else None."""
        if not hands[turn]:
            # Capicú, as `RoundState.play` says: not a double, and it fitted either end.
            a, b = self._ends[tile]
            row = self._far[tile]
            capicu = a != b and row[left] >= 0 and row[right] >= 0
            return self._leaf(Outcome.DOMINO, hands, turn, tile, capicu)
        open_mask = self._fit[new_left][new_right]
        for hand in hands:
            if hand & open_mask:
                return None
        return self._leaf(Outcome.TRANQUE, hands, turn, tile, False)

    def _search(self, hands: list[int], left: int, right: int, turn: int, alpha: float, beta: float) -> float:
        self.nodes += 1
        if self.nodes > self._limit:
            raise NodeLimit
        turn, moves = self._moves(hands, left, right, turn)
        maximising = self._maximising[turn]
        nxt = turn + 1 if turn + 1 < self._players else 0
        me = self._me
        best = -float("inf") if maximising else float("inf")
        hand = hands[turn]
        for tile, new_left, new_right in moves:
            hands[turn] = hand ^ 1 << tile
            done = self._after(hands, turn, tile, left, right, new_left, new_right)
            value = self._search(hands, new_left, new_right, nxt, alpha, beta) if done is None else done[me]
            hands[turn] = hand
            if maximising:
                if value > best:
                    best = value
                    if best > alpha:
                        alpha = best
            elif value < best:
                best = value
                if best < beta:
                    beta = best
            if alpha >= beta:
                break
        return best

    def _search_each(self, hands: list[int], left: int, right: int, turn: int) -> list[float]:
        self.nodes += 1
        if self.nodes > self._limit:
            raise NodeLimit
        turn, moves = self._moves(hands, left, right, turn)
        side = self._sides[turn]
        nxt = turn + 1 if turn + 1 < self._players else 0
        best: list[float] = []
        hand = hands[turn]
        for tile, new_left, new_right in moves:
            hands[turn] = hand ^ 1 << tile
            values = self._after(hands, turn, tile, left, right, new_left, new_right)
            if values is None:
                values = self._search_each(hands, new_left, new_right, nxt)
            hands[turn] = hand
            if not best or values[side] > best[side]:
                best = values
        return best
