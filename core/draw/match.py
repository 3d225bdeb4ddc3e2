"""A match: rules, a seed and the actions taken; rounds are dealt inside it.

`Match` is the engine's public face, after python-chess's ``Board``: ask it for
`legal_actions`, `apply` one (an illegal one raises `IllegalAction` and
changes nothing), read the events it returns, and build a seat's `view`.
The match is its log: `Match.from_log(match.log())` is the same match.

A host builds every seat's view after every action, so a view costs about what
an action does: the line of play is kept as tiles are laid, what every seat
sees alike is gathered once per position and shared by the seats' views, and a
hand is made again only when it changed.
"""

from __future__ import annotations

from collections import deque
from functools import cache
from typing import Any

from msgspec import UNSET

from ..actions import DRAW, PASS, REDEAL, Action, Draw, End, Play, Redeal
from ..codes import Outcome
from ..engine import Ending, LoggedMatch
from ..games import LINE
from ..rules import REDEAL_DOUBLES, FirstLead, Rules, RulesError, RulesProblem, TieLead
from ..tiles import Tile, TileSet, tile_set
from .events import Event, MatchEnded, Passed, RoundEnded, RoundResult, RoundStarted, TilePlayed, TilesDrawn
from .layout import line_plays
from .refusals import why_not
from .scoring import score_round
from .state import RoundState, deal_hands, highest_double
from .view import View

#: The format its logs declare (core/games.py, `LINE`).
LOG_FORMAT = LINE.log_format
#: View's fields in order, and where a seat's own go among them (every view of a
#: position shares the others).
_VIEW_FIELDS = View.__struct_fields__
_SEAT, _HAND, _LEGAL = (_VIEW_FIELDS.index(name) for name in ("seat", "hand", "legal"))
#: The ends, looked up once (an enum member read from its class is slow on the hot path).
_LEFT, _RIGHT = End.LEFT, End.RIGHT
#: Deals in a row with no double before the engine gives up (never reached in
#: practice: about 3 deals in 1,000 have no double with two players).
_MAX_REDEALS = 1000


@cache
def _blank_plays(max_pip: int) -> dict[tuple[int, End, int], Play]:
    """One shared `Play` per tile with a blank, end and number given to it (wild blanks)."""
    tiles = tile_set(max_pip)
    return {
        (index, end, number): Play(tile, end, number)
        for index, tile in enumerate(tiles.tiles) if tile.low == 0
        for end in (End.LEFT, End.RIGHT) for number in range(max_pip + 1)
    }


@cache
def _doubles_mask(tiles: TileSet) -> int:
    return sum(1 << double for double in tiles.double_of)


class Match(LoggedMatch):
    """A match in progress (or over); see the module docstring."""

    LOG_FORMAT = LOG_FORMAT
    RULES = Rules
    LOG_NAME = "capicu match log"
    RULES_NEEDED = "a match log needs its rules"
    _why_not = why_not
    _round_events: list[Event]

    def __init__(
        self,
        rules: Rules,
        players: int,
        seed: int = 0,
        *,
        deals: list[tuple[list[int], int]] | None = None,
        pause_between_rounds: bool = False,
    ) -> None:
        if rules.game is not LINE.game:
            raise ValueError(f"{rules.preset} is Mexican Train: play it with MexicanMatch (or new_match)")
        super().__init__(rules, players, seed, deals=deals, pause_between_rounds=pause_between_rounds)
        self.target = rules.target_for(players)
        self.scores = [0] * rules.sides(players)
        self.results: list[RoundResult] = []
        self.winner: int | None = None
        self.leader = 0
        #: The seat that leads the round with any tile (None: as `Rules.first_lead` says),
        #: decided when the last round ended; a new deal asked for keeps it.
        self._lead: int | None = None
        self._plays = line_plays(rules.max_pip)
        self._blank_plays = _blank_plays(rules.max_pip) if rules.wild_blanks else {}
        #: The house rules, read once (the hot path asks for them after every action).
        self._wild = bool(rules.wild_blanks)
        self._redeal_on_doubles = bool(rules.redeal_on_doubles)
        #: id() of each legal Play to its tile index (the `_legal` objects stay alive).
        self._legal_tiles: dict[int, int] = {}
        #: The line of play, left to right, kept by each play.
        self._line: deque[tuple[int, int]] = deque()
        #: With wild blanks, which halves of each tile of the line are given blanks (`View.blanks`).
        self._blanks: deque[int] = deque()
        #: View's fields for the current position (`_share_position`), once made.
        self._view_fields: list[Any] | None = None
        self._results_shown: tuple[RoundResult, ...] = ()
        self._scores_shown = tuple(self.scores)
        #: How many tiles each seat holds, kept by each play and draw.
        self._hand_counts: list[int] = []
        #: Each seat's hand as tiles, and the mask it was made from (a move changes one hand).
        self._shown_hands: list[tuple[Tile, ...]] = [()] * players
        self._shown_masks = [0] * players
        self._state: RoundState
        self._opening: tuple[Event, ...] = ()
        self._opening = tuple(self._next_round())

    # -- reading ---------------------------------------------------------------

    @property
    def turn(self) -> int | None:
        """The seat to act, or None when the match is over or the next round awaits its deal."""
        return None if self.winner is not None or self._awaiting_deal else self._state.turn

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
    def state(self) -> RoundState:
        """The running round as the engine holds it (every hand: not for players' eyes)."""
        return self._state

    def legal_actions(self) -> tuple[Action, ...]:
        """Every action the seat on turn may take now."""
        if self._legal is not None:
            return self._legal
        if self.winner is not None or self._awaiting_deal:
            self._legal_tiles = {}
            self._legal = ()
            return ()
        st = self._state
        playable = st.playable(st.turn)
        actions: list[Action] = []
        tiles: dict[int, int] = {}
        plays = self._plays
        # The line's fit rule (core/tiles.py `far_ends`): far[tile][n] >= 0 when the tile fits n.
        far = st.far
        left, right = st.left, st.right
        mask = playable
        if self._blank_plays:
            self._add_blank_plays(actions, tiles)
            mask = 0
        while mask:
            low = mask & -mask
            index = low.bit_length() - 1
            mask ^= low
            row = far[index]
            if left < 0 or row[left] >= 0:
                play = plays[index][0]
                actions.append(play)
                tiles[id(play)] = index
            if left >= 0 and row[right] >= 0:
                play = plays[index][1]
                actions.append(play)
                tiles[id(play)] = index
        if (not playable or st.voluntary_draw) and st.may_draw():
            actions.append(DRAW)
        if not actions:
            actions.append(PASS)
        if self._redeal_on_doubles and self._may_redeal(st.turn):
            actions.append(REDEAL)
        self._legal_tiles = tiles
        self._legal = tuple(actions)
        return self._legal

    def _add_blank_plays(self, actions: list[Action], tiles: dict[int, int]) -> None:
        """The plays of the seat on turn with wild blanks: each tile's places, and each number
        a blank left open may be given (the layout says when it may, or must, be named)."""
        st = self._state
        layout = st.layout
        left, right = st.left, st.right
        mask = st.playable(st.turn)
        numbers = range(self.rules.max_pip + 1)
        while mask:
            low = mask & -mask
            index = low.bit_length() - 1
            mask ^= low
            for end in layout.places(index, left, right):
                if not layout.must_name_blank(index, left):
                    play = self._plays[index][end is _RIGHT]
                    actions.append(play)
                    tiles[id(play)] = index
                if layout.may_name_blank(index, end, left, right):
                    shown = right if end is _RIGHT else left
                    for number in numbers:
                        if number != shown or left < 0:  # (laid so, it is the play above)
                            play = self._blank_plays[index, end, number]
                            actions.append(play)
                            tiles[id(play)] = index

    def _may_redeal(self, seat: int) -> bool:
        """Whether ``seat`` may ask for a new deal now (redeal on five doubles, docs/RULES.md)."""
        st = self._state
        return bool(
            self.rules.redeal_on_doubles and st.left < 0 and st.outcome is None
            and self.winner is None and not self._awaiting_deal
            and (st.hands[seat] & _doubles_mask(self.tiles)).bit_count() >= REDEAL_DOUBLES
        )

    def view(self, seat: int | None) -> View:
        """What ``seat`` may know now; None gives a spectator's view."""
        if seat is not None and not (type(seat) is int and 0 <= seat < self.players):
            raise ValueError(f"there is no seat {seat!r} at a table of {self.players}")
        fields = self._view_fields or self._share_position()
        fields[_SEAT] = seat
        if seat is None:
            fields[_HAND] = fields[_LEGAL] = ()
        else:
            st = self._state
            mask = st.hands[seat]
            if self._shown_masks[seat] != mask:
                self._shown_masks[seat] = mask
                self._shown_hands[seat] = self.tiles.tiles_in(mask)
            fields[_HAND] = self._shown_hands[seat]
            # (legal_actions() is empty while nobody may act; a seat not on turn may only
            # ask for a new deal, when the house rule lets it.)
            if seat == st.turn:
                fields[_LEGAL] = self.legal_actions()
            else:
                fields[_LEGAL] = (REDEAL,) if self._redeal_on_doubles and self._may_redeal(seat) else ()
        return View(*fields)

    def _share_position(self) -> list[Any]:
        """View's fields for this position, in order, as every seat's view shares them."""
        st = self._state
        if len(self._results_shown) != len(self.results):  # scores change as rounds end
            self._results_shown = tuple(self.results)
            self._scores_shown = tuple(self.scores)
        self._view_fields = [
            self.rules,
            self.players,
            None,  # seat
            self.round_number,
            (),  # hand
            tuple(self._line),
            None if st.left < 0 else (st.left, st.right),
            tuple(self._hand_counts),
            len(st.stock) - st.stock_pos,  # boneyard
            st.drawable,
            None if self.winner is not None or self._awaiting_deal else st.turn,
            self.leader,
            None if st.forced_lead < 0 else self.tiles.tiles[st.forced_lead],
            st.draws_this_turn,
            self._scores_shown,
            self.target,
            (),  # legal
            self.winner,
            tuple(self._blanks) if self._wild else UNSET,
            tuple(self._round_events),
            self._results_shown,
        ]
        return self._view_fields

    # -- acting ------------------------------------------------------------------

    def apply(self, action: Action, seat: int | None = None) -> tuple[Event, ...]:
        """Take ``action`` for the seat on turn (checked to be ``seat`` when given).

        Returns the public events it caused; raises `IllegalAction` and changes
        nothing when the rules do not allow it.
        """
        legal = self._legal if self._legal is not None else self.legal_actions()
        st = self._state
        if type(action) is Redeal:
            return self._redeal(seat if seat is not None else st.turn)
        if seat is not None and seat != st.turn:
            self._refuse(action, seat)
        # Plays taken from legal_actions() are found by identity, the rest by value.
        index = self._legal_tiles.get(id(action), -1)
        if index < 0:
            if action not in legal:
                self._refuse(action, seat)
            if type(action) is Play:
                index = self.tiles.index[action.tile]
        mover = st.turn
        # A new position: what was worked out for the last one goes.
        self._legal = self._view_fields = None
        self._entries.append(action)
        left, right = st.left, st.right
        event: Event
        if type(action) is Play:
            on_right = action.place is _RIGHT
            blank = -1 if action.blank is None else action.blank
            if blank < 0:
                st.play(index, on_right)
            else:
                st.play(index, on_right, blank)
            # The tile's inner number is the end it was laid on; its outer one, the new end.
            if left < 0:
                self._line.append((st.left, st.right))
            elif on_right:
                self._line.append((right, st.right))
            else:
                self._line.appendleft((st.left, left))
            self._hand_counts[mover] -= 1
            end = _RIGHT if on_right else _LEFT
            if self._blank_plays:
                given = st.layout.given(index, end, left, right, blank)
                self._mark_blanks(index, on_right, left < 0, blank >= 0)
                event = TilePlayed(mover, action.tile, end, st.left, st.right,
                                   given if given >= 0 else UNSET)
            else:
                event = TilePlayed(mover, action.tile, end, st.left, st.right)
        elif type(action) is Draw:
            drawn = st.draw()
            self._hand_counts[mover] += drawn
            event = TilesDrawn(mover, drawn, left, right)
        else:
            st.pass_turn()
            event = Passed(mover, left, right)
        self._round_events.append(event)
        if st.outcome is None:
            return (event,)
        return (event, *self._finish_round())

    def _mark_blanks(self, tile: int, on_right: bool, lead: bool, left_open: bool) -> None:
        """Which halves of the tile just laid are given blanks (`View.blanks`), by where it went."""
        a, b = self.tiles.ends[tile]
        if a != 0:
            mark = 0
        elif b == 0:
            mark = 3
        elif lead:
            mark = 1  # laid as (blank, b)
        else:
            # Laid on the right, the inner half is the left one; on the left, the right one.
            inner, outer = (1, 2) if on_right else (2, 1)
            mark = outer if left_open else inner
        if lead or on_right:
            self._blanks.append(mark)
        else:
            self._blanks.appendleft(mark)

    def _redeal(self, seat: int) -> tuple[Event, ...]:
        """Deal the round again for ``seat``, dealt five doubles or more (it may, or it is refused)."""
        if not (type(seat) is int and 0 <= seat < self.players and self._may_redeal(seat)):
            self._refuse(REDEAL, seat)
        doubles = (self._state.hands[seat] & _doubles_mask(self.tiles)).bit_count()
        self._legal = self._view_fields = None
        self._entries.append({"redeal": seat})
        return tuple(self._start_round(asked_by=seat, doubles=doubles))  # the same round, dealt again

    # -- rounds ------------------------------------------------------------------

    def _finish_round(self) -> list[Event]:
        st = self._state
        counts = st.pip_counts()
        last_tile = self.tiles.tiles[st.last_tile]
        outcome = st.outcome or Outcome.TRANQUE
        score = score_round(
            self.rules,
            counts,
            reason=outcome,
            last_player=st.last_player,
            last_tile=last_tile,
            capicu=st.capicu,
            round_number=self.round_number,
        )
        if score.winner is not None:
            self.scores[score.winner] += score.points
        result = RoundResult(
            round_number=self.round_number,
            reason=outcome,
            last_player=st.last_player,
            last_tile=last_tile,
            hands=tuple(self.tiles.tiles_in(h) for h in st.hands),
            pip_counts=tuple(counts),
            side_counts=score.side_counts,
            winner=score.winner,
            points=score.points,
            bonuses=score.bonuses,
            scores=tuple(self.scores),
        )
        self.results.append(result)
        best = max(self.scores)
        if best >= self.target:
            # Only the round's winner scores, so at most one side crosses.
            self.winner = self.scores.index(best)
            return self._round_ended(RoundEnded(result), MatchEnded(self.winner, tuple(self.scores)))
        if not self.rules.winner_leads:
            self._lead = None
        elif outcome is Outcome.TRANQUE and self.rules.tranque_last_player_leads:
            self._lead = st.last_player
        elif score.winner_seat is not None:
            self._lead = score.winner_seat
        elif self.rules.tie_lead is TieLead.PREVIOUS_LEADER:
            self._lead = self.leader
        else:
            self._lead = None
        return self._round_ended(RoundEnded(result))

    def _start_round(self, *, asked_by: int = -1, doubles: int = 0) -> list[Event]:
        """Deal round ``round_number``, led with any tile by the seat in ``_lead``, if any.

        ``asked_by``: the seat whose new deal this is (redeal on five doubles), holding ``doubles``.
        """
        lead = self._lead
        rules = self.rules
        hand_size = rules.hand_size(self.players)
        random_lead = (
            lead is None
            and rules.first_lead is FirstLead.RANDOM
            and (self.round_number == 1 or not rules.winner_leads)
        )
        redeals = 0
        while True:
            order, random_seat = self._next_deal()
            hands = deal_hands(order, self.players, hand_size)
            stock = order[self.players * hand_size :]
            forced = -1
            if lead is not None:
                leader = lead
            elif random_lead:
                leader = random_seat
            else:
                found = highest_double(self.tiles, hands)
                if found is None:
                    redeals += 1
                    if redeals > _MAX_REDEALS:
                        raise RulesError(f"no deal gave anybody a double in {redeals} deals",
                                         RulesProblem.NO_DOUBLE_DEALT, deals=redeals)
                    continue
                leader, forced = found
            break
        self.leader = leader
        self._state = RoundState(
            self.tiles,
            hands,
            stock,
            turn=leader,
            reserve=rules.reserve,
            drawing=rules.drawing,
            forced_lead=forced,
            voluntary_draw=rules.voluntary_draw,
            max_draws=rules.max_draws_per_turn or 0,
            wild_blanks=bool(rules.wild_blanks),
            draws_at_once=rules.draws_at_once,
        )
        self._hand_counts = [hand.bit_count() for hand in hands]
        started = RoundStarted(
            round_number=self.round_number,
            leader=leader,
            hand_counts=tuple(self._hand_counts),
            boneyard=len(stock),
            forced_lead=None if forced < 0 else self.tiles.tiles[forced],
            redeals=redeals,
            asked_by=asked_by if asked_by >= 0 else UNSET,
            doubles=doubles if asked_by >= 0 else UNSET,
        )
        self._round_events = [started]
        self._line.clear()
        self._blanks.clear()
        self._legal = self._view_fields = None
        return [started]

    # -- the log (core/engine.py writes and reads it) ---------------------------

    @classmethod
    def _read_entry(cls, number: int, entry: dict[str, Any]) -> tuple[Action, int] | None:
        """A new deal asked for (redeal on five doubles) is logged as ``{"redeal": seat}``."""
        if "redeal" not in entry:
            return None
        seat = entry["redeal"]
        if not isinstance(seat, int) or len(entry) != 1:
            raise ValueError(f"entry {number} of the log is not a new deal asked for")
        return REDEAL, seat
