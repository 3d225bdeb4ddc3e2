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

#: What a finished round is worth to the searching side: (outcome, hands, last player, last tile, capicú).
LeafValue = Callable[[Outcome, list[int], int, int, bool], float]


class NodeLimit(Exception):
    """The search used up its nodes before finishing: the position is too big to solve now."""


class EndgameSolver:
    """Exact values of positions with nothing left to draw, for one searching side."""

    __slots__ = ("_ends", "_far", "_fit", "_leaf", "_limit", "_maximising", "_order", "_players", "nodes")

    def __init__(self, state: RoundState, sides: list[int], my_side: int, leaf: LeafValue) -> None:
        self._fit = state.fit
        self._far = state.far
        self._ends = state.ends_of
        self._players = state.players
        self._leaf = leaf
        #: For each seat, whether it plays for the searching side.
        self._maximising = [side == my_side for side in sides]
        weight = [a + b for a, b in state.ends_of]
        #: The tile indices, heaviest first: the order moves are tried in.
        self._order = sorted(range(len(weight)), key=lambda t: -weight[t])
        #: Nodes visited so far (every call of `value`).
        self.nodes = 0
        self._limit = 0

    def value(self, state: RoundState, limit: int) -> float:
        """The round's exact value to the searching side from ``state`` (drawable 0, not finished).

        Raises `NodeLimit` after ``limit`` more nodes.
        """
        if state.outcome is not None:
            return self._leaf(state.outcome, state.hands, state.last_player, state.last_tile, state.capicu)
        self._limit = self.nodes + limit
        return self._search(list(state.hands), state.left, state.right, state.turn,
                            -float("inf"), float("inf"))

    def _search(self, hands: list[int], left: int, right: int, turn: int, alpha: float, beta: float) -> float:
        self.nodes += 1
        if self.nodes > self._limit:
            raise NodeLimit
        fit = self._fit
        players = self._players
        playable = hands[turn] & fit[left][right]
        while not playable:  # a pass (a tranque ends the round as the tile that blocks it is laid)
            turn = turn + 1 if turn + 1 < players else 0
            playable = hands[turn] & fit[left][right]
        maximising = self._maximising[turn]
        far = self._far
        nxt = turn + 1 if turn + 1 < players else 0
        best = -float("inf") if maximising else float("inf")
        for tile in self._order:
            bit = 1 << tile
            if not playable & bit:
                continue
            row = far[tile]
            hand = hands[turn] ^ bit
            # Each end it fits; with both ends alike, one (the two give the same ends).
            places = []
            if row[left] >= 0:
                places.append((row[left], right))
            if row[right] >= 0 and left != right:
                places.append((left, row[right]))
            for new_left, new_right in places:
                hands[turn] = hand
                if not hand:
                    # Capicú, as `RoundState.play` says: not a double, and it fitted either end.
                    a, b = self._ends[tile]
                    capicu = a != b and row[left] >= 0 and row[right] >= 0
                    value = self._leaf(Outcome.DOMINO, hands, turn, tile, capicu)
                else:
                    open_mask = fit[new_left][new_right]
                    if any(h & open_mask for h in hands):
                        value = self._search(hands, new_left, new_right, nxt, alpha, beta)
                    else:
                        value = self._leaf(Outcome.TRANQUE, hands, turn, tile, False)
                hands[turn] = hand ^ bit
                if maximising:
                    if value > best:
                        best = value
                        if best > alpha:
                            alpha = best
                else:
                    if value < best:
                        best = value
                        if best < beta:
                            beta = best
                if alpha >= beta:
                    return best
        return best

