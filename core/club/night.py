"""A club night as a value: its settings, who joined, each round's draw and each match's result.

`ClubNight` is rebuilt from its log of events, as a match is from its log: the
host journals each event as it happens (net/store/club.py) and a host killed
mid-round resumes the night with `ClubNight.from_log`. Each step returns a new
night, or raises `ClubError` and changes nothing::

    night = ClubNight.open(config).join("Ana").join("Bea").join("Cruz").join("Dani")
    night = night.start_round(seed=7)            # round 1 drawn (night.draws[-1])
    night = night.record(result)                 # one table's match over (a MatchResult)
    night = night.close_table(1, 2, (45, 30))    # a late table closed: its score as it stood
    night.phase, night.round, night.standings()
    assert ClubNight.from_log(night.log()) == night

The log is ``{"format", "game", "config", "events"}``: the config a `ClubConfig`
value and the events `ClubEvent` values (read back from plain data too: the
config's rules as the game's rules type, the game named by ``game``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from enum import StrEnum
from typing import Any

import msgspec
from msgspec import Struct
from msgspec.structs import replace

from ..games import game_named, game_of
from ..rules import RulesError
from .draw import DrawRound, draw_round, round_robin_rounds, round_robin_units
from .format import (
    MOST_ENTRANTS,
    NAME_LIMIT,
    ByeRule,
    ClubConfig,
    ClubError,
    ClubFormat,
    ClubProblem,
    Entrant,
    MatchResult,
    RoundDraw,
    TableDraw,
    is_clean_name,
    name_key,
)
from .standings import PlayerMatch, Standing, matches_of, standings

#: The format a night's log declares.
LOG_FORMAT = "capicu-club/1"


class Joined(Struct, frozen=True, tag="joined"):
    """Somebody joined (their id is the next number)."""

    name: str


class Left(Struct, frozen=True, tag="left"):
    """An entrant left for good: out of every later draw."""

    entrant: int


class RoundDrawn(Struct, frozen=True, tag="round"):
    """A round was drawn from ``seed``; the draw is kept as made, so a later version reads it alike."""

    seed: int
    draw: RoundDraw


class Recorded(Struct, frozen=True, tag="result"):
    """A table's match ended, or was closed by the organiser (``result.closed``)."""

    result: MatchResult


#: One step of the night, as its log keeps it.
ClubEvent = Joined | Left | RoundDrawn | Recorded


class Phase(StrEnum):
    """Where the night is."""

    #: People join; no round drawn yet.
    GATHERING = "gathering"
    #: A round is being played (`ClubNight.round`): some of its tables have no result yet.
    PLAYING = "playing"
    #: Every table of the last round is done; the next is to be drawn.
    BETWEEN = "between"
    #: Every round is played.
    OVER = "over"


class ClubNight(Struct, frozen=True):
    """The night so far; every step gives a new value (or raises `ClubError`)."""

    config: ClubConfig
    entrants: tuple[Entrant, ...] = ()
    draws: tuple[RoundDraw, ...] = ()
    results: tuple[MatchResult, ...] = ()
    #: Everything that happened, in order: the log's events.
    events: tuple[ClubEvent, ...] = ()

    @classmethod
    def open(cls, config: ClubConfig) -> ClubNight:
        """A night with nobody in it yet."""
        return cls(config)

    # -- where it is -------------------------------------------------------------

    @property
    def round(self) -> int:
        """The round being played, or the last one drawn (0 before the first)."""
        return len(self.draws)

    @property
    def total_rounds(self) -> int:
        """The rounds the night plays: the config's; a round robin's at most its circle's."""
        if self.config.format is ClubFormat.ROUND_ROBIN and self.draws:
            units = len(round_robin_units(self.config, self.entrants, self.draws))
            return min(self.config.rounds, round_robin_rounds(units))
        return self.config.rounds

    @property
    def phase(self) -> Phase:
        if not self.draws:
            return Phase.GATHERING
        if self.waiting:
            return Phase.PLAYING
        return Phase.OVER if self.round >= self.total_rounds else Phase.BETWEEN

    @property
    def waiting(self) -> tuple[TableDraw, ...]:
        """The tables of the round being played that have no result yet."""
        if not self.draws:
            return ()
        done = {r.table for r in self.results if r.round == self.round}
        return tuple(t for t in self.draws[-1].tables if t.number not in done)

    @property
    def active(self) -> tuple[Entrant, ...]:
        """The entrants still in the night."""
        return tuple(e for e in self.entrants if e.active)

    def entrant_named(self, name: str) -> Entrant | None:
        """The entrant whose name is ``name`` (the same once normalised and case-folded), or None."""
        key = name_key(name)
        return next((e for e in self.entrants if name_key(e.name) == key), None)

    def standings(self) -> tuple[Standing, ...]:
        """The standings now, best first (core/club/standings.py)."""
        return standings(self.config, self.entrants, self.results, self.draws)

    def result_of(self, round: int, table: int) -> MatchResult | None:
        return next((r for r in self.results if r.round == round and r.table == table), None)

    # -- steps ---------------------------------------------------------------------

    def join(self, name: str, *, alike: Callable[[str, str], bool] | None = None) -> ClubNight:
        """Someone joins under ``name`` (cleaned by the host: net/host/sanitize.py's `clean_text`).

        A name is taken when an entrant's is the same once normalised and case-folded, or when
        ``alike(name, theirs)`` says they read as one (the host gives sanitize.py's
        `names_look_alike`, Unicode's confusables: core reads no data file). The log keeps the
        name only: a night replayed from it takes it as it was taken.
        """
        self._not_over()
        if self.config.format is ClubFormat.ROUND_ROBIN and self.draws:
            raise ClubError("a round robin's field is the one its first round was drawn for",
                            ClubProblem.ROUND_ROBIN_CLOSED)
        if not name:
            raise ClubError("a name has something in it", ClubProblem.NAME_EMPTY)
        if len(name) > NAME_LIMIT:
            raise ClubError(f"a name has at most {NAME_LIMIT} characters", ClubProblem.NAME_TOO_LONG,
                            limit=NAME_LIMIT)
        if not is_clean_name(name):
            raise ClubError(f"{name!r} holds control or invisible characters or spaces in a row",
                            ClubProblem.NAME_NOT_CLEAN)
        taken = self.entrant_named(name) or next(
            (e for e in self.entrants if alike is not None and alike(name, e.name)), None)
        if taken is not None:
            raise ClubError(f"{name!r} is taken (by {taken.name!r})", ClubProblem.NAME_TAKEN, name=taken.name)
        if len(self.entrants) >= MOST_ENTRANTS:
            raise ClubError(f"the night has its {MOST_ENTRANTS} entrants", ClubProblem.FULL,
                            most=MOST_ENTRANTS)
        entrant = Entrant(len(self.entrants), name)
        return replace(self, entrants=(*self.entrants, entrant), events=(*self.events, Joined(name)))

    def leave(self, entrant: int) -> ClubNight:
        """``entrant`` leaves for good: out of every later draw (their matches so far still count)."""
        found = self._entrant(entrant)
        if not found.active:
            raise ClubError(f"entrant {entrant} already left", ClubProblem.ALREADY_LEFT, entrant=entrant)
        entrants = tuple(replace(e, active=False) if e.id == entrant else e
                         for e in self.entrants)
        return replace(self, entrants=entrants, events=(*self.events, Left(entrant)))

    def next_draw(self, seed: int, draw: DrawRound = draw_round) -> RoundDraw:
        """The next round's draw from ``seed`` (core/club/draw.py's `draw_round`), not taken yet.

        A pure function of the night, which may take a while for a big field: a host runs it off
        its event loop, then gives it to `start_round`.
        """
        self._ready_for_round()
        return draw(self.config, self.entrants, self.results, self.round + 1, seed, draws=self.draws)

    def start_round(self, seed: int, *, drawn: RoundDraw | None = None) -> ClubNight:
        """The next round drawn from ``seed``; ``drawn``: that draw, made already (`next_draw`)."""
        draw = drawn if drawn is not None else self.next_draw(seed)
        self._ready_for_round()
        return self._drawn(seed, draw)

    def record(self, result: MatchResult) -> ClubNight:
        """A table of the round being played is done: its result."""
        table = self._table(result.round, result.table)
        self._check_result(result, table)
        return replace(self, results=(*self.results, result), events=(*self.events, Recorded(result)))

    def finish_table(self, round: int, table: int, points: Sequence[int], winners: Sequence[int],
                     record: str = "") -> ClubNight:
        """A table's match is over: each side's total (`sides_of_table`'s order) and the winning sides.

        ``record``: the match record's file name, to recompute the result from.
        """
        drawn = self._table(round, table)
        result = MatchResult(round=round, table=table, seats=drawn.seats,
                             sides=self.config.sides_of_table(len(drawn.seats)), points=tuple(points),
                             winners=tuple(winners), record=record)
        return self.record(result)

    def close_table(self, round: int, table: int, points: Sequence[int], record: str = "") -> ClubNight:
        """The organiser closes a late table: ``points`` (each side's total as it stands) is its result.

        The best total wins (the lowest in Mexican Train); level totals leave nobody the winner.
        """
        drawn = self._table(round, table)
        sides = self.config.sides_of_table(len(drawn.seats))
        points = tuple(points)
        if len(points) != len(sides) or not all(isinstance(p, int) and p >= 0 for p in points):
            raise ClubError(f"table {table} has {len(sides)} sides, each with a total from 0 up",
                            ClubProblem.BAD_RESULT, what=f"{len(sides)} totals wanted, not {points!r}")
        best = min(points) if self.config.low_wins else max(points)
        winners = () if len(set(points)) == 1 else tuple(i for i, p in enumerate(points) if p == best)
        result = MatchResult(round=round, table=table, seats=drawn.seats, sides=sides, points=points,
                             winners=winners, closed=True, record=record)
        return self.record(result)

    def matches_of(self, entrant: int) -> tuple[PlayerMatch, ...]:
        """``entrant``'s matches and byes so far, round by round (core/club/standings.py)."""
        return matches_of(self.config, entrant, self.results, self.draws)

    # -- the log -------------------------------------------------------------------

    def log(self) -> dict[str, Any]:
        """The night as its log: the config and every event, in order (`from_log` reads it back)."""
        return {"format": LOG_FORMAT, "game": game_of(self.config.rules).name, "config": self.config,
                "events": list(self.events)}

    @classmethod
    def from_log(cls, data: Any) -> ClubNight:
        """The night a `log` describes, its events replayed; a damaged log raises `ClubError` (BAD_LOG)."""
        if not isinstance(data, dict) or data.get("format") != LOG_FORMAT:
            raise _bad_log(f"not a club night's log (expected format {LOG_FORMAT!r})")
        config = _read_config(data.get("game"), data.get("config"))
        events = data.get("events")
        if not isinstance(events, list | tuple):
            raise _bad_log("a club night's log has a list of events")
        night = cls.open(config)
        for number, raw in enumerate(events, 1):
            try:
                event = raw if isinstance(raw, ClubEvent) else msgspec.convert(raw, ClubEvent)
                night = night.apply(event)
            except (ClubError, msgspec.ValidationError) as exc:
                raise _bad_log(f"event {number}: {exc}") from None
        return night

    def apply(self, event: ClubEvent) -> ClubNight:
        """The night after one event of its log (`from_log` applies them in order)."""
        if isinstance(event, Joined):
            return self.join(event.name)
        if isinstance(event, Left):
            return self.leave(event.entrant)
        if isinstance(event, RoundDrawn):
            self._ready_for_round()
            return self._drawn(event.seed, event.draw)
        return self.record(event.result)

    # -- checks ----------------------------------------------------------------------

    def _drawn(self, seed: int, draw: RoundDraw) -> ClubNight:
        self._check_draw(draw)
        return replace(self, draws=(*self.draws, draw), events=(*self.events, RoundDrawn(seed, draw)))

    def _not_over(self) -> None:
        if self.phase is Phase.OVER:
            raise ClubError(f"the night is over: its {self.total_rounds} rounds are played",
                            ClubProblem.NIGHT_OVER, rounds=self.total_rounds)

    def _ready_for_round(self) -> None:
        self._not_over()
        if self.phase is Phase.PLAYING:
            raise ClubError(f"round {self.round} is still being played", ClubProblem.ROUND_NOT_DONE,
                            round=self.round)

    def _entrant(self, entrant: int) -> Entrant:
        if not isinstance(entrant, int) or not 0 <= entrant < len(self.entrants):
            raise ClubError(f"there is no entrant {entrant!r}", ClubProblem.NO_ENTRANT,
                            entrant=entrant if isinstance(entrant, int) else -1)
        return self.entrants[entrant]

    def _table(self, round: int, table: int) -> TableDraw:
        if not self.draws:
            raise ClubError("no round is being played", ClubProblem.NO_ROUND)
        drawn = self.draws[-1].table(table) if round == self.round else None
        if drawn is None:
            raise ClubError(f"round {round} has no table {table} being played", ClubProblem.NO_TABLE,
                            round=round, table=table)
        if self.result_of(round, table) is not None:
            raise ClubError(f"table {table} of round {round} already has its result",
                            ClubProblem.ALREADY_RECORDED, round=round, table=table)
        return drawn

    def _check_result(self, result: MatchResult, table: TableDraw) -> None:
        def bad(what: str) -> ClubError:
            return ClubError(f"the result of table {table.number}: {what}", ClubProblem.BAD_RESULT, what=what)

        if result.seats != table.seats:
            raise bad(f"its seats {result.seats} are not the draw's {table.seats}")
        if result.sides != self.config.sides_of_table(len(table.seats)):
            raise bad(f"its sides {result.sides} are not the table's")
        if len(result.points) != len(result.sides) or any(p < 0 for p in result.points):
            raise bad("it needs one total from 0 up for each side")
        if len(set(result.winners)) != len(result.winners) or any(
                not 0 <= w < len(result.sides) for w in result.winners):
            raise bad(f"its winners {result.winners} are not sides of the table")

    def _check_draw(self, draw: RoundDraw) -> None:
        def bad(what: str) -> ClubError:
            return ClubError(f"round {draw.round}'s draw: {what}", ClubProblem.BAD_DRAW, what=what)

        if draw.round != self.round + 1:
            raise bad(f"it is round {self.round + 1}'s turn")
        active = {e.id for e in self.active}
        seated = Counter([*draw.seated, *draw.byes])
        twice = sorted(e for e, n in seated.items() if n > 1)
        if twice:
            raise bad(f"entrant {twice[0]} is seated twice")
        gone = sorted(set(seated) - active)
        if gone:
            raise bad(f"entrant {gone[0]} is not in the night")
        if [t.number for t in draw.tables] != list(range(1, len(draw.tables) + 1)):
            raise bad("its tables are not numbered 1, 2, ...")
        for table in draw.tables:
            if len(table.seats) != self.config.table_size or not table.entrants:
                raise bad(f"table {table.number} does not have {self.config.table_size} seats with people")
        if draw.byes and self.config.bye is ByeRule.COMPUTER:
            raise bad("it has byes, but a computer fills the empty seats")


def _bad_log(what: str) -> ClubError:
    return ClubError(f"a club night's log that cannot be read: {what}", ClubProblem.BAD_LOG, what=what)


class _ConfigFields(Struct, frozen=True, forbid_unknown_fields=True):
    """A `ClubConfig`'s fields but its rules, as a log holds them (the rules are read as the game's)."""

    format: ClubFormat = ClubFormat.SWISS
    rounds: int = 3
    table_size: int = 2
    bye: ByeRule = ByeRule.COMPUTER
    name: str = ""


def _read_config(game: Any, config: Any) -> ClubConfig:
    if isinstance(config, ClubConfig):
        return config
    if not isinstance(game, str) or not isinstance(config, dict):
        raise _bad_log("a club night's log names its game and holds its config")
    try:
        rules = msgspec.convert(config.get("rules"), game_named(game).rules_type)
        fields = msgspec.convert({k: v for k, v in config.items() if k != "rules"}, _ConfigFields)
        return ClubConfig(rules=rules, **msgspec.structs.asdict(fields))
    except (KeyError, ValueError, RulesError, ClubError, msgspec.ValidationError) as exc:
        raise _bad_log(f"its config: {exc}") from None


__all__ = ["LOG_FORMAT", "ClubEvent", "ClubNight", "Joined", "Left", "Phase", "Recorded", "RoundDrawn"]
