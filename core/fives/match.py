"""A match of Fives and Threes: rules, a seed and the actions taken; hands are dealt inside it.

The same engine as the Draw family's `Match` (core/draw/match.py) from outside: ask
`legal_actions`, `apply` one (an illegal one raises `IllegalAction` and changes
nothing), read the events it returns, build a seat's `view`; the match is its
log, deals recorded in it, and `FivesMatch.from_log(match.log())` is the same
match. What differs is inside: each play scores as it is laid, and the first
side to the target wins at once, even in the middle of a hand.
"""

from __future__ import annotations

from collections import deque

from ..actions import DRAW, PASS, Action, Draw, End, Play
from ..draw.layout import line_plays
from ..engine import Ending, LoggedMatch
from ..games import FIVES
from .events import (
    FivesEvent,
    FivesMatchEnded,
    FivesRoundEnded,
    FivesRoundResult,
    FivesRoundStarted,
    FivesTileDrawn,
    FivesTilePlayed,
    Knocked,
)
from .refusals import why_not_fives
from .rules import GO_POINTS, FivesRules
from .state import FivesOutcome, FivesRound, deal_hands
from .view import FivesView

LOG_FORMAT = FIVES.log_format
_LEFT, _RIGHT = End.LEFT, End.RIGHT


class FivesMatch(LoggedMatch):
    """A match of Fives and Threes in progress (or over); see the module docstring."""

    LOG_FORMAT = LOG_FORMAT
    RULES = FivesRules
    LOG_NAME = "capicu Fives and Threes log"
    RULES_NEEDED = "a Fives and Threes log needs its rules"
    _why_not = why_not_fives
    rules: FivesRules
    _round_events: list[FivesEvent]

    def __init__(
        self,
        rules: FivesRules,
        players: int,
        seed: int = 0,
        *,
        deals: list[tuple[list[int], int]] | None = None,
        pause_between_rounds: bool = False,
    ) -> None:
        if not isinstance(rules, FivesRules):
            raise ValueError(f"{rules.preset} is not Fives and Threes: play it with its own engine")
        super().__init__(rules, players, seed, deals=deals, pause_between_rounds=pause_between_rounds)
        self.target = rules.target_for(players)
        self.sides = rules.sides(players)
        self.scores = [0] * self.sides
        self.results: list[FivesRoundResult] = []
        self.winner: int | None = None
        self.leader = -1
        self._plays = line_plays(rules.max_pip)
        #: The line of play, left to right, kept by each play.
        self._line: deque[tuple[int, int]] = deque()
        self._hand_counts: list[int] = []
        #: Each side's points in the hand being played, as counted.
        self._round_points: list[int] = []
        self._state: FivesRound
        self._opening: tuple[FivesEvent, ...] = tuple(self._next_round())

    # -- reading ---------------------------------------------------------------

    @property
    def turn(self) -> int | None:
        """The seat to act, or None when the match is over or the next hand awaits its deal."""
        if self.winner is not None or self._awaiting_deal or self._state.outcome is not None:
            return None
        return self._state.turn

    @property
    def is_over(self) -> bool:
        return self.winner is not None

    @property
    def ending(self) -> Ending | None:
        """How the match ended: each side's score and the seats of the side that won; None before."""
        if self.winner is None:
            return None
        return Ending.of_side(self.rules, self.players, self.scores, self.winner)

    @property
    def state(self) -> FivesRound:
        """The running hand as the engine holds it (every hand: not for players' eyes)."""
        return self._state

    def legal_actions(self) -> tuple[Action, ...]:
        """Every action the seat on turn may take now."""
        if self._legal is not None:
            return self._legal
        if self.turn is None:
            self._legal = ()
            return ()
        st = self._state
        mask = st.playable(st.turn)
        actions: list[Action] = []
        far = st.far
        left, right = st.left, st.right
        plays = self._plays
        while mask:
            low = mask & -mask
            index = low.bit_length() - 1
            mask ^= low
            if left < 0 or far[index][left] >= 0:
                actions.append(plays[index][0])
            if left >= 0 and far[index][right] >= 0:
                actions.append(plays[index][1])
        if not actions:
            actions.append(DRAW if st.may_draw() else PASS)
        self._legal = tuple(actions)
        return self._legal

    def view(self, seat: int | None) -> FivesView:
        """What ``seat`` may know now; None gives a spectator's view."""
        if seat is not None and not (type(seat) is int and 0 <= seat < self.players):
            raise ValueError(f"there is no seat {seat!r} at a table of {self.players}")
        st = self._state
        turn = self.turn
        return FivesView(
            rules=self.rules,
            players=self.players,
            seat=seat,
            round_number=self.round_number,
            hand=() if seat is None else self.tiles.tiles_in(st.hands[seat]),
            line=tuple(self._line),
            ends=None if st.left < 0 else (st.left, st.right),
            total=st.total,
            hand_counts=tuple(self._hand_counts),
            out=tuple(s for s in range(self.players) if st.out >> s & 1),
            set_aside=len(st.stock) - st.stock_pos,
            drawable=st.drawable,
            turn=turn,
            leader=self.leader,
            scores=tuple(self.scores),
            target=self.target,
            legal=self.legal_actions() if seat is not None and seat == turn else (),
            winner=self.winner,
            events=tuple(self._round_events),
            results=tuple(self.results),
        )

    # -- acting ------------------------------------------------------------------

    def apply(self, action: Action, seat: int | None = None) -> tuple[FivesEvent, ...]:
        """Take ``action`` for the seat on turn (checked to be ``seat`` when given).

        Returns the public events it caused; raises `IllegalAction` and changes
        nothing when the rules do not allow it.
        """
        legal = self.legal_actions()
        st = self._state
        if (seat is not None and seat != self.turn) or action not in legal:
            self._refuse(action, seat)
        mover = st.turn
        self._legal = None
        self._entries.append(action)
        left, right = st.left, st.right
        events: list[FivesEvent] = []
        if type(action) is Play:
            index = self.tiles.index[action.tile]
            on_right = action.place is _RIGHT
            points = st.play(index, on_right)
            if left < 0:
                self._line.append((st.left, st.right))
            elif on_right:
                self._line.append((right, st.right))
            else:
                self._line.appendleft((st.left, left))
            self._hand_counts[mover] -= 1
            scored = self._score(st.side_of(mover), points)
            events.append(FivesTilePlayed(mover, action.tile, _RIGHT if on_right else _LEFT, st.left,
                                          st.right, st.total, points, scored,
                                          chipped_out=self._hand_counts[mover] == 0))
        elif type(action) is Draw:
            st.draw()
            self._hand_counts[mover] += 1
            events.append(FivesTileDrawn(mover, left, right))
        else:
            st.knock()
            events.append(Knocked(mover, left, right))
        self._round_events.extend(events)
        if self.winner is not None:
            events.extend(self._finish_round(FivesOutcome.TARGET_REACHED))
        elif st.outcome is not None:
            events.extend(self._finish_round(st.outcome))
        return tuple(events)

    def _score(self, side: int, points: int) -> int:
        """Add ``points`` to ``side``'s score as the rules count it; what counted.

        Reaching the target wins at once; with the exact finish, a score that
        would pass it does not count.
        """
        if not points:
            return 0
        total = self.scores[side] + points
        if total > self.target and self.rules.exact_finish:
            return 0
        self.scores[side] = total
        self._round_points[side] += points
        if total >= self.target:
            self.winner = side
        return points

    # -- hands -------------------------------------------------------------------

    def _finish_round(self, outcome: FivesOutcome) -> list[FivesEvent]:
        st = self._state
        go = 0
        go_side = st.go_side if outcome is FivesOutcome.CHIPPED_OUT else -1
        if go_side >= 0:
            go = self._score(go_side, GO_POINTS)
        result = FivesRoundResult(
            round_number=self.round_number,
            reason=outcome,
            last_player=st.last_player,
            last_tile=None if st.last_tile < 0 else self.tiles.tiles[st.last_tile],
            hands=tuple(self.tiles.tiles_in(h) for h in st.hands),
            go_side=go_side if go_side >= 0 else None,
            go=go,
            points=tuple(self._round_points),
            scores=tuple(self.scores),
        )
        self.results.append(result)
        if self.winner is None:
            return self._round_ended(FivesRoundEnded(result))
        return self._round_ended(FivesRoundEnded(result), FivesMatchEnded(self.winner, tuple(self.scores)))

    def _start_round(self) -> list[FivesEvent]:
        """Deal the next hand: the first is led by a seat drawn at random, each later by the next seat."""
        hand_size = self.rules.hand_size(self.players)
        order, random_seat = self._next_deal()
        self.leader = random_seat if self.round_number == 1 else (self.leader + 1) % self.players
        hands = deal_hands(order, self.players, hand_size)
        stock = order[self.players * hand_size :]
        self._state = FivesRound(self.tiles, hands, stock, turn=self.leader, drawing=self.rules.drawing,
                                 partnerships=self.rules.partnerships)
        self._hand_counts = [hand_size] * self.players
        self._round_points = [0] * self.sides
        started = FivesRoundStarted(
            round_number=self.round_number,
            leader=self.leader,
            hand_counts=tuple(self._hand_counts),
            set_aside=len(stock),
            drawable=self._state.drawable,
        )
        self._round_events = [started]
        self._line.clear()
        self._legal = None
        return [started]
