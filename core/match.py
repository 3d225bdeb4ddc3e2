"""A match: rules, a seed and the actions taken; rounds are dealt inside it.

`Match` is the engine's public face, after python-chess's ``Board``: ask it for
`legal_actions`, `apply` one (an illegal one raises `IllegalAction` and
changes nothing), read the events it returns, and build a seat's `view`.
The match is its log: `Match.from_log(match.log())` is the same match.
"""

from __future__ import annotations

import random
from collections import deque
from typing import Any

from .actions import DRAW, PASS, Action, Draw, End, IllegalAction, Pass, Play, parse_action
from .events import (
    Event,
    MatchEnded,
    Passed,
    RoundEnded,
    RoundResult,
    RoundStarted,
    TilePlayed,
    TilesDrawn,
)
from .rules import FirstLead, Rules, RulesError, TieLead
from .scoring import score_round
from .state import TRANQUE, RoundState
from .tiles import tile_set
from .view import View

LOG_FORMAT = "capicu-log/1"
#: Deals in a row with no double before the engine gives up (never reached in
#: practice: about 3 deals in 1,000 have no double with two players).
_MAX_REDEALS = 1000


def deal_order(seed: int, deal_number: int, tile_count: int, players: int) -> tuple[list[int], int]:
    """The shuffled tile order of one deal and a seat drawn at random, from the seed."""
    rng = random.Random(f"capicu/{seed}/{deal_number}")
    order = list(range(tile_count))
    rng.shuffle(order)
    return order, rng.randrange(players)


class Match:
    """A match in progress (or over); see the module docstring."""

    def __init__(
        self,
        rules: Rules,
        players: int,
        seed: int = 0,
        *,
        deals: list[tuple[list[int], int]] | None = None,
    ) -> None:
        rules.check_players(players)
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise ValueError(f"a seed is a whole number, not {seed!r}")
        self.rules = rules
        self.players = players
        self.seed = seed
        self.tiles = tile_set(rules.max_pip)
        self.target = rules.target_for(players)
        self.scores = [0] * rules.sides(players)
        self.results: list[RoundResult] = []
        self.winner: int | None = None
        self.round_number = 0
        self.leader = 0
        self._recorded_deals = deque(deals or ())
        self._deal_count = 0
        self._entries: list[Any] = []
        self._line: deque[tuple[int, int]] = deque()
        self._round_events: list[Event] = []
        self._state: RoundState
        self._opening: tuple[Event, ...] = ()
        self._opening = tuple(self._start_round(None))

    # -- reading ---------------------------------------------------------------

    @property
    def turn(self) -> int | None:
        """The seat to act, or None when the match is over."""
        return None if self.winner is not None else self._state.turn

    @property
    def is_over(self) -> bool:
        return self.winner is not None

    @property
    def opening_events(self) -> tuple[Event, ...]:
        """The events of the first deal, which happened before any action."""
        return self._opening

    @property
    def state(self) -> RoundState:
        """The running round as the engine holds it (every hand: not for players' eyes)."""
        return self._state

    def legal_actions(self) -> tuple[Action, ...]:
        """Every action the seat on turn may take now."""
        if self.winner is not None:
            return ()
        st = self._state
        seat = st.turn
        playable = st.playable(seat)
        actions: list[Action] = []
        tiles = self.tiles.tiles
        mask = playable
        while mask:
            low = mask & -mask
            index = low.bit_length() - 1
            mask ^= low
            on_left, on_right = st.fits(index)
            if on_left:
                actions.append(Play(tiles[index], End.LEFT))
            if on_right:
                actions.append(Play(tiles[index], End.RIGHT))
        if st.may_draw() and (not playable or st.voluntary_draw):
            actions.append(DRAW)
        if not actions:
            actions.append(PASS)
        return tuple(actions)

    def is_legal(self, action: Action, seat: int | None = None) -> bool:
        try:
            self._check(action, seat)
        except IllegalAction:
            return False
        return True

    def view(self, seat: int | None) -> View:
        """What ``seat`` may know now; None gives a spectator's view."""
        if seat is not None and not (isinstance(seat, int) and 0 <= seat < self.players):
            raise ValueError(f"there is no seat {seat!r} at a table of {self.players}")
        st = self._state
        over = self.winner is not None
        return View(
            rules=self.rules,
            players=self.players,
            seat=seat,
            round_number=self.round_number,
            hand=() if seat is None else self.tiles.tiles_in(st.hands[seat]),
            line=tuple(self._line),
            ends=None if st.left < 0 else (st.left, st.right),
            hand_counts=tuple(h.bit_count() for h in st.hands),
            boneyard=len(st.stock) - st.stock_pos,
            drawable=st.drawable,
            turn=None if over else st.turn,
            leader=self.leader,
            forced_lead=None if st.forced_lead < 0 else self.tiles.tiles[st.forced_lead],
            draws_this_turn=st.draws_this_turn,
            scores=tuple(self.scores),
            target=self.target,
            legal=self.legal_actions() if seat is not None and not over and st.turn == seat else (),
            events=tuple(self._round_events),
            results=tuple(self.results),
            winner=self.winner,
        )

    # -- acting ------------------------------------------------------------------

    def apply(self, action: Action, seat: int | None = None) -> tuple[Event, ...]:
        """Take ``action`` for the seat on turn (checked to be ``seat`` when given).

        Returns the public events it caused; raises `IllegalAction` and changes
        nothing when the rules do not allow it.
        """
        index = self._check(action, seat)
        st = self._state
        mover = st.turn
        self._entries.append(str(action))
        events: list[Event] = []
        if isinstance(action, Play):
            fits_left, fits_right = st.fits(index)
            capicu = fits_left and fits_right and not action.tile.is_double and st.left >= 0
            self._lay(index, action.end)
            st.play(index, action.end is End.RIGHT)
            events.append(TilePlayed(mover, action.tile, action.end, st.left, st.right))
        elif isinstance(action, Draw):
            left, right = st.left, st.right
            st.draw()
            capicu = False
            events.append(TilesDrawn(mover, 1, left, right))
        else:
            capicu = False
            st.pass_turn()
            events.append(Passed(mover, st.left, st.right))
        self._round_events.extend(events)
        if st.outcome is not None:
            events.extend(self._finish_round(capicu))
        return tuple(events)

    def _check(self, action: Action, seat: int | None) -> int:
        """The tile index a legal play lays (-1 for draw and pass), or IllegalAction."""
        if self.winner is not None:
            raise IllegalAction(action, "the match is over")
        st = self._state
        if seat is not None and seat != st.turn:
            raise IllegalAction(action, f"it is not your turn: seat {st.turn + 1} is to play")
        playable = st.playable(st.turn)
        if isinstance(action, Play):
            tile = action.tile
            if not self.tiles.contains(tile):
                raise IllegalAction(action, f"there is no {tile} in a double-{self.rules.max_pip} set")
            index = self.tiles.index[tile]
            if not st.hands[st.turn] >> index & 1:
                raise IllegalAction(action, f"you do not hold {tile}")
            if st.left < 0:
                if st.forced_lead >= 0 and index != st.forced_lead:
                    forced = self.tiles.tiles[st.forced_lead]
                    raise IllegalAction(action, f"the lead must be {forced}")
                if action.end is not End.LEFT:
                    raise IllegalAction(action, "the lead starts the line: play it on the left")
                return index
            fits_left, fits_right = st.fits(index)
            if not (fits_left or fits_right):
                raise IllegalAction(
                    action, f"{tile} matches neither open end ({st.left} and {st.right})"
                )
            if action.end is End.LEFT and not fits_left:
                raise IllegalAction(action, f"{tile} does not match the left end ({st.left})")
            if action.end is End.RIGHT and not fits_right:
                raise IllegalAction(action, f"{tile} does not match the right end ({st.right})")
            return index
        if isinstance(action, Draw):
            if not self.rules.drawing:
                raise IllegalAction(action, "there is no drawing in this game")
            if st.drawable <= 0:
                if st.stock_pos < len(st.stock) and self.rules.reserve:
                    raise IllegalAction(
                        action, f"the boneyard is down to its reserve of {self.rules.reserve} tiles"
                    )
                raise IllegalAction(action, "the boneyard is empty")
            if not st.may_draw():
                raise IllegalAction(
                    action, f"you have drawn {st.draws_this_turn} tiles this turn, the most allowed"
                )
            if playable and not st.voluntary_draw:
                example = self.tiles.tiles_in(playable)[0]
                raise IllegalAction(action, f"you must play a tile you hold ({example} fits)")
            return -1
        if isinstance(action, Pass):
            if playable:
                example = self.tiles.tiles_in(playable)[0]
                raise IllegalAction(action, f"you cannot pass while you hold a tile that fits ({example})")
            if st.may_draw():
                raise IllegalAction(action, "you cannot pass while tiles can be drawn: draw")
            return -1
        raise IllegalAction(action, f"{action!r} is not an action")

    def _lay(self, index: int, end: End) -> None:
        st = self._state
        a, b = self.tiles.ends[index]
        if st.left < 0:
            self._line.append((a, b))
        elif end is End.LEFT:
            self._line.appendleft((a, b) if b == st.left else (b, a))
        else:
            self._line.append((a, b) if a == st.right else (b, a))

    # -- rounds ------------------------------------------------------------------

    def _finish_round(self, capicu: bool) -> list[Event]:
        st = self._state
        counts = st.pip_counts()
        last_tile = self.tiles.tiles[st.last_tile]
        score = score_round(
            self.rules,
            counts,
            reason=st.outcome or TRANQUE,
            last_player=st.last_player,
            last_tile=last_tile,
            capicu=capicu,
            round_number=self.round_number,
        )
        if score.winner is not None:
            self.scores[score.winner] += score.points
        result = RoundResult(
            round_number=self.round_number,
            reason=st.outcome or TRANQUE,
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
        events: list[Event] = [RoundEnded(result)]
        self._round_events.append(events[0])
        best = max(self.scores)
        if best >= self.target:
            # Only the round's winner scores, so at most one side crosses.
            self.winner = self.scores.index(best)
            events.append(MatchEnded(self.winner, tuple(self.scores)))
            self._round_events.append(events[-1])
            return events
        lead: int | None
        if not self.rules.winner_leads:
            lead = None
        elif st.outcome == TRANQUE and self.rules.tranque_last_player_leads:
            lead = st.last_player
        elif score.winner_seat is not None:
            lead = score.winner_seat
        elif self.rules.tie_lead is TieLead.PREVIOUS_LEADER:
            lead = self.leader
        else:
            lead = None
        events.extend(self._start_round(lead))
        return events

    def _next_deal(self) -> tuple[list[int], int]:
        count = len(self.tiles)
        if self._recorded_deals:
            order, seat = self._recorded_deals.popleft()
            if sorted(order) != list(range(count)) or not 0 <= seat < self.players:
                raise ValueError(f"deal {self._deal_count + 1} of the log is not a shuffle of the set")
        else:
            order, seat = deal_order(self.seed, self._deal_count, count, self.players)
        self._deal_count += 1
        self._entries.append({"deal": list(order), "seat": seat})
        return list(order), seat

    def _start_round(self, lead: int | None) -> list[Event]:
        """Deal the next round; ``lead`` is the seat that leads with any tile, if any."""
        self.round_number += 1
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
            hands = []
            for seat in range(self.players):
                mask = 0
                for tile in order[seat * hand_size : (seat + 1) * hand_size]:
                    mask |= 1 << tile
                hands.append(mask)
            stock = order[self.players * hand_size :]
            forced = -1
            if lead is not None:
                leader = lead
            elif random_lead:
                leader = random_seat
            else:
                found = self._highest_double(hands)
                if found is None:
                    redeals += 1
                    if redeals > _MAX_REDEALS:
                        raise RulesError("no deal gave anybody a double")
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
        )
        self._line.clear()
        started = RoundStarted(
            round_number=self.round_number,
            leader=leader,
            hand_counts=tuple(h.bit_count() for h in hands),
            boneyard=len(stock),
            forced_lead=None if forced < 0 else self.tiles.tiles[forced],
            redeals=redeals,
        )
        self._round_events = [started]
        return [started]

    def _highest_double(self, hands: list[int]) -> tuple[int, int] | None:
        for number in range(self.rules.max_pip, -1, -1):
            bit = 1 << self.tiles.double_of[number]
            for seat, hand in enumerate(hands):
                if hand & bit:
                    return seat, self.tiles.double_of[number]
        return None

    # -- the log -----------------------------------------------------------------

    def log(self) -> dict[str, Any]:
        """The match as plain data: header plus every deal and action, in order."""
        return {
            "format": LOG_FORMAT,
            "rules": self.rules.to_dict(),
            "players": self.players,
            "seed": self.seed,
            "entries": list(self._entries),
        }

    @property
    def actions_taken(self) -> int:
        return sum(1 for e in self._entries if isinstance(e, str))

    @classmethod
    def from_log(cls, data: Any) -> Match:
        """The match a `log` describes; a damaged log raises ValueError saying where."""
        if not isinstance(data, dict) or data.get("format") != LOG_FORMAT:
            raise ValueError(f"not a capicu match log (expected format {LOG_FORMAT!r})")
        rules = Rules.from_dict(data.get("rules"))
        players, seed, entries = data.get("players"), data.get("seed"), data.get("entries")
        if not isinstance(players, int) or not isinstance(seed, int) or not isinstance(entries, list):
            raise ValueError("a match log needs players, seed and entries")
        deals: list[tuple[list[int], int]] = []
        actions: list[tuple[int, Action]] = []
        for number, entry in enumerate(entries, 1):
            if isinstance(entry, dict):
                order, seat = entry.get("deal"), entry.get("seat")
                if not (isinstance(order, list) and all(isinstance(t, int) for t in order)
                        and isinstance(seat, int)):
                    raise ValueError(f"entry {number} of the log is not a deal")
                deals.append((order, seat))
            else:
                try:
                    actions.append((number, parse_action(entry)))
                except ValueError as exc:
                    raise ValueError(f"entry {number} of the log: {exc}") from None
        match = cls(rules, players, seed, deals=deals)
        for number, action in actions:
            try:
                match.apply(action)
            except IllegalAction as exc:
                raise ValueError(f"entry {number} of the log cannot be replayed: {exc}") from None
        if match._entries != entries[: len(match._entries)] or len(match._entries) < len(entries):
            raise ValueError("the log's deals are not where its actions need them")
        return match
