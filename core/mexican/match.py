"""A match of Mexican Train: rules, a seed and the actions taken; rounds are dealt inside it.

docs/RULES.md, ``mexican-train``. `MexicanMatch` has the shape of `Match`
(core/draw/match.py): ask it for `legal_actions`, `apply` one (an illegal one raises
`IllegalAction` and changes nothing), read the events it returns, and build a
seat's `view` (`MexicanView`; ``view(None)`` for a spectator). The match is its
log: `MexicanMatch.from_log(match.log())` is the same match. The rules are
`MexicanRound`'s (core/mexican/state.py); this module keeps the trains' tiles for the
views, records the deals, scores the rounds and says why an action is refused.

The actions (core/actions.py): ``play 5-12 train 2`` (a tile on seat 2's train,
seats counted from 0), ``play 5-5 mexican``, ``end run``, ``draw``, ``pass``, and
``run 12-5 5-3 3-9``.

The opening run. A player's first turn of a round may lay a run of tiles on
their own train. `legal_actions` lists it a step at a time, so the list stays
short (a hand of 15 can make thousands of runs): the tiles that may go next on
one's own train and, once a tile that is not a double is down, `END_RUN`.
Nobody else acts in between, so the run is one play. A client sends the run
whole instead, as one `Run` action, built on its own screen as the player
lays tiles and takes back the last (nothing reaches the host until the
player ends it); the host checks it and lays it tile by tile, all or nothing.
`MexicanView.may_run` says when a run may be built, `run_steps` which tiles may
come next in it, and `run_problem` whether it may be sent as it stands.

The rules are a `MexicanRules` (core/rules.py). On the wire a train is
``{"owner": seat}``, the Mexican train's owner being -1.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import msgspec

from ..actions import (
    DRAW,
    END_RUN,
    MEXICAN,
    PASS,
    Action,
    Draw,
    EndRun,
    Play,
    Run,
    Train,
)
from ..codes import Outcome
from ..engine import Ending, LoggedMatch, OnEntry
from ..games import MEXICAN_TRAIN
from ..rules import MexicanRules
from ..tiles import tile_set
from .events import (
    MexicanEvent,
    MexicanMatchEnded,
    MexicanPassed,
    MexicanRoundEnded,
    MexicanRoundResult,
    MexicanRoundStarted,
    MexicanTileDrawn,
    MexicanTilePlayed,
    RunEnded,
)
from .refusals import why_not_mexican
from .state import MexicanRound
from .view import MexicanView, TrainLine

#: The format its logs declare (core/games.py, `MEXICAN_TRAIN`).
LOG_FORMAT = MEXICAN_TRAIN.log_format
#: The log of capicu before issue 29 (the engine set aside, one double a turn): read with those options.
LOG_FORMAT_1 = "capicu-mexican-train-log/1"


@cache
def play_table(max_pip: int, players: int) -> tuple[tuple[Play, ...], ...]:
    """One shared `Play` per tile and train (the Mexican train last), so listing builds nothing."""
    trains = [Train(seat) for seat in range(players)] + [MEXICAN]
    return tuple(tuple(Play(t, train) for train in trains) for t in tile_set(max_pip).tiles)


def actions_of(st: MexicanRound, plays: tuple[tuple[Play, ...], ...]) -> tuple[Action, ...]:
    """Every action the seat on turn of ``st`` may take now (``plays``: its table's `play_table`)."""
    actions: list[Action] = []
    for train in st.places():
        mask = st.fitting(train)
        while mask:
            low = mask & -mask
            mask ^= low
            actions.append(plays[low.bit_length() - 1][train])
    if st.may_end_run():
        actions.append(END_RUN)
    elif st.may_stop():
        actions.append(DRAW if st.may_draw() else PASS)
    return tuple(actions)


class MexicanMatch(LoggedMatch):
    """A match of Mexican Train in progress (or over); see the module docstring."""

    LOG_FORMAT = LOG_FORMAT
    RULES = MexicanRules
    LOG_NAME = "Mexican Train match log"
    RULES_NEEDED = "a Mexican Train match log needs its rules (MexicanRules)"
    _why_not = why_not_mexican
    rules: MexicanRules
    _round_events: list[MexicanEvent]

    def __init__(
        self,
        rules: MexicanRules,
        players: int,
        seed: int = 0,
        *,
        deals: list[tuple[list[int], int]] | None = None,
        pause_between_rounds: bool = False,
    ) -> None:
        if not isinstance(rules, MexicanRules):
            raise ValueError(f"{rules.preset} is not Mexican Train: play it with Match")
        super().__init__(rules, players, seed, deals=deals, pause_between_rounds=pause_between_rounds)
        self.totals = [0] * players
        self.results: list[MexicanRoundResult] = []
        self.winners: tuple[int, ...] | None = None
        #: The seat that played first this round.
        self.first = 0
        #: The seat that began this round: the engine's holder, or the seat whose turn came first.
        self.began = 0
        #: The seat dealt this round's engine (None: it came from the boneyard or was set aside).
        self.engine_holder: int | None = None
        self._plays = play_table(rules.max_pip, players)
        #: Each train's tiles, from the engine out, as (inner, outer) numbers.
        self._lines: list[list[tuple[int, int]]] = []
        self._state: MexicanRound
        self._opening = tuple(self._next_round())

    # -- reading ---------------------------------------------------------------

    @property
    def turn(self) -> int | None:
        """The seat to act, or None when the match is over or the next round awaits its deal."""
        return None if self.winners is not None or self._awaiting_deal else self._state.turn

    @property
    def is_over(self) -> bool:
        return self.winners is not None

    @property
    def ending(self) -> Ending | None:
        """How the match ended: each seat's total and the seats tied for the lowest; None before."""
        return None if self.winners is None else Ending(tuple(self.totals), self.winners)

    @property
    def state(self) -> MexicanRound:
        """The running round as the engine holds it (every hand: not for players' eyes)."""
        return self._state

    def legal_actions(self) -> tuple[Action, ...]:
        """Every action the seat on turn may take now (an opening run a tile at a time)."""
        if self._legal is not None:
            return self._legal
        if self.winners is not None or self._awaiting_deal:
            self._legal = ()
            return ()
        self._legal = actions_of(self._state, self._plays)
        return self._legal

    def view(self, seat: int | None) -> MexicanView:
        """What ``seat`` may know now; None gives a spectator's view."""
        if seat is not None and not (type(seat) is int and 0 <= seat < self.players):
            raise ValueError(f"there is no seat {seat!r} at a table of {self.players}")
        st = self._state
        acting = self.winners is None and not self._awaiting_deal
        trains = tuple(
            TrainLine(Train(t) if t < self.players else MEXICAN, tuple(line), st.heads[t], st.markers[t])
            for t, line in enumerate(self._lines)
        )
        may_run = (acting and st.first_turn[st.turn] and not st.drew and not st.running
                   and not st.open_doubles)
        drawn = acting and seat == st.turn and st.drew
        return MexicanView(
            rules=self.rules,
            players=self.players,
            seat=seat,
            round_number=self.round_number,
            rounds=self.rules.round_count,
            engine=self.tiles.tiles[self.tiles.double_of[st.engine]],
            hand=() if seat is None else self.tiles.tiles_in(st.hands[seat]),
            trains=trains,
            open_doubles=tuple(trains[t].train for t in st.open_doubles),
            hand_counts=tuple(hand.bit_count() for hand in st.hands),
            boneyard=st.boneyard,
            turn=st.turn if acting else None,
            first=self.first,
            first_turn=acting and st.first_turn[st.turn],
            may_run=may_run,
            running=acting and st.running,
            doubling=acting and st.doubling,
            engine_holder=self.engine_holder,
            drawn=self.tiles.tiles[st.drawn] if drawn else None,
            totals=tuple(self.totals),
            legal=self.legal_actions() if acting and seat == st.turn else (),
            events=tuple(self._round_events),
            results=tuple(self.results),
            winners=self.winners,
        )

    # -- acting ------------------------------------------------------------------

    def apply(self, action: Action, seat: int | None = None) -> tuple[MexicanEvent, ...]:
        """Take ``action`` for the seat on turn (checked to be ``seat`` when given).

        Returns the public events it caused; raises `IllegalAction` and changes
        nothing when the rules do not allow it.
        """
        legal = self.legal_actions()
        if seat is not None and seat != self.turn:
            self._refuse(action, seat)
        if type(action) is Run:
            refused = why_not_mexican(self.view(self.turn), action)
            if refused is not None:
                raise refused
            self._entries.append(action)
            events = self._lay_run(action)
        else:
            if action not in legal:
                self._refuse(action, seat)
            self._entries.append(action)
            events = [self._step(action)]
        if self._state.outcome is not None:
            events.extend(self._finish_round())
        return tuple(events)

    def _lay_run(self, run: Run) -> list[MexicanEvent]:
        """Lay a checked opening run tile by tile, then end it (unless it went out)."""
        own = self._plays[0][self._state.turn].place
        events: list[MexicanEvent] = []
        for tile in run.tiles:
            events.append(self._step(Play(tile, own)))
            if self._state.outcome is not None:
                return events
        if self._state.running:
            events.append(self._step(END_RUN))
        return events

    def _step(self, action: Action) -> MexicanEvent:
        """Do one legal step on the round; its event."""
        st = self._state
        mover = st.turn
        self._legal = None
        event: MexicanEvent
        if type(action) is Play:
            assert isinstance(action.place, Train)
            train = self.players if action.place.owner < 0 else action.place.owner
            index = self.tiles.index[action.tile]
            before = st.heads[train]
            st.play(index, train)
            self._lines[train].append((before, st.heads[train]))
            event = MexicanTilePlayed(mover, action.tile, action.place, st.heads[train])
        elif type(action) is EndRun:
            st.end_run()
            event = RunEnded(mover)
        elif type(action) is Draw:
            st.draw()
            event = MexicanTileDrawn(mover)
        else:
            st.pass_turn()
            event = MexicanPassed(mover)
        self._round_events.append(event)
        return event

    # -- rounds ------------------------------------------------------------------

    def _finish_round(self) -> list[MexicanEvent]:
        st = self._state
        counts = st.pip_counts(self.rules.double_blank_points)
        for seat, count in enumerate(counts):
            self.totals[seat] += count
        result = MexicanRoundResult(
            round_number=self.round_number,
            engine=self.tiles.tiles[self.tiles.double_of[st.engine]],
            reason=st.outcome or Outcome.TRANQUE,
            last_player=st.last_player,
            hands=tuple(self.tiles.tiles_in(h) for h in st.hands),
            counts=tuple(counts),
            totals=tuple(self.totals),
        )
        self.results.append(result)
        if self.round_number < self.rules.round_count:
            return self._round_ended(MexicanRoundEnded(result))
        best = min(self.totals)
        self.winners = tuple(s for s, total in enumerate(self.totals) if total == best)
        ended = MexicanMatchEnded(self.winners, tuple(self.totals))
        return self._round_ended(MexicanRoundEnded(result), ended)

    def _start_round(self) -> list[MexicanEvent]:
        """Deal the next engine's round (highest double first), have it laid, and name who plays first.

        The engine's holder lays it as their turn and the next seat plays first; when
        nobody holds it (or it was set aside), it comes from the boneyard and the round
        begins with a seat drawn at random in round 1, else the seat after the last
        round's beginner.
        """
        rules = self.rules
        number = rules.max_pip - (self.round_number - 1)
        engine = self.tiles.double_of[number]
        if rules.engine_set_aside:
            order, random_seat = self._next_deal(
                [t for t in range(len(self.tiles)) if t != engine], "the set without the round's engine")
        else:
            order, random_seat = self._next_deal(what="the whole set")
        size = rules.hand_size(self.players)
        hands = []
        for seat in range(self.players):
            mask = 0
            for tile in order[seat * size : (seat + 1) * size]:
                mask |= 1 << tile
            hands.append(mask)
        stock = [t for t in order[self.players * size :] if t != engine]
        bit = 1 << engine
        holder = next((seat for seat, hand in enumerate(hands) if hand & bit), None)
        self.engine_holder = holder
        if holder is not None:
            hands[holder] ^= bit
            self.began = holder
            self.first = (holder + 1) % self.players
        else:
            self.began = random_seat if self.round_number == 1 else (self.began + 1) % self.players
            self.first = self.began
        self._state = MexicanRound(
            self.tiles, number, hands, stock, turn=self.first,
            opening_run=rules.opening_run, cover_doubles=rules.cover_doubles,
            one_double=rules.one_double_a_turn, mexican_needs_own=rules.mexican_needs_own_train,
        )
        self._lines = [[] for _ in range(self.players + 1)]
        started = MexicanRoundStarted(
            round_number=self.round_number,
            engine=self.tiles.tiles[engine],
            first=self.first,
            hand_counts=tuple(hand.bit_count() for hand in hands),
            boneyard=len(stock),
            engine_holder=holder,
        )
        self._round_events = [started]
        self._legal = None
        return [started]

    @classmethod
    def from_log(cls, data: Any, on_entry: OnEntry | None = None) -> MexicanMatch:
        """As `LoggedMatch.from_log`; a log of version 1 (before issue 29) is read with the engine
        set aside and one double a turn, or refused in one sentence naming its version."""
        if isinstance(data, dict) and data.get("format") == LOG_FORMAT_1 and isinstance(
            data.get("rules"), MexicanRules
        ):
            old = msgspec.structs.replace(data["rules"], engine_set_aside=True, one_double_a_turn=True)
            try:
                return super().from_log({**data, "format": LOG_FORMAT, "rules": old}, on_entry)
            except ValueError:
                raise ValueError(
                    "this Mexican Train log was written by capicu's log version 1, whose rules (a draw, "
                    "a blocked round) this version no longer plays, so it cannot be replayed"
                ) from None
        return super().from_log(data, on_entry)


__all__ = ["LOG_FORMAT", "LOG_FORMAT_1", "MexicanMatch"]
