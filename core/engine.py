"""What every game's engine is: one protocol, and the log code they share.

`Engine` is the shape every match engine has (the Draw family's `Match`,
Mexican Train's `MexicanMatch`, ...), after python-chess's ``Board``: ask it
for `legal_actions`, `apply` one (an illegal one raises `IllegalAction` and
changes nothing), read the events it returns, and build a seat's `view`
(``view(None)`` for a spectator). Between rounds it may wait for
`deal_next_round` (``pause_between_rounds``). Code above core holds an
``Engine[Any, Any]`` and never asks which game it is: core/games.py says.

A match is its log: the header (format, rules, players, seed) plus every deal
and action in order, and ``Engine.from_log(match.log())`` is the same match.
`LoggedMatch` writes and reads that log once for every engine; an engine
gives its format, its rules type and how it reads its own kinds of entries.

`LoggedMatch` also runs the rounds the way every engine does, after
python-chess's ``BaseBoard`` under ``Board``: a round's deal drawn from the
seed (or taken from the log) and logged, the round counted, the pause
between rounds, the end of a round's events and why an action is refused.
Each engine keeps its own rules in its own package: what a round is, who
leads it, how it scores, when the match is over and its view.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections import deque
from collections.abc import Callable, Sequence
from typing import Any, ClassVar, NoReturn, Protocol, Self, TypeVar

import msgspec

from .actions import Action, IllegalAction, parse_action
from .refusals import Refusal
from .rules import Rules
from .tiles import TileSet, tile_set

#: Told of each entry `from_log` replays: the match after it, the action (None for
#: a deal), the seat that took it and the events it caused.
OnEntry = Callable[[Any, "Action | None", "int | None", tuple[Any, ...]], None]

V_co = TypeVar("V_co", covariant=True)
E_co = TypeVar("E_co", covariant=True)


class Ending(msgspec.Struct, frozen=True):
    """How a finished match ended, in every game's terms: what the record and the history keep."""

    #: Each side's total at the end (a side is a seat but in partnerships: `Rules.side_of`).
    totals: tuple[int, ...]
    #: The seats that won (both partners of a winning side; every seat tied for the best).
    winners: tuple[int, ...]

    @classmethod
    def of_side(cls, rules: Rules, players: int, scores: Sequence[int], side: int) -> Ending:
        """The ending of a match that ``side`` won, with each side's ``scores``."""
        winners = tuple(seat for seat in range(players) if rules.side_of(seat, players) == side)
        return cls(tuple(scores), winners)


class Engine(Protocol[V_co, E_co]):
    """A match of one game, in progress or over: what the host, the journal, the replay and the
    computer players ask of any engine. ``V_co`` is its view type, ``E_co`` its events'."""

    @property
    def rules(self) -> Rules:
        """Its rules (each engine's own kind of `Rules`: read-only here, so an engine may narrow it)."""

    players: int
    seed: int
    round_number: int
    pause_between_rounds: bool

    @property
    def turn(self) -> int | None:
        """The seat to act; None when the match is over or the next round awaits its deal."""

    @property
    def is_over(self) -> bool: ...

    @property
    def awaiting_deal(self) -> bool:
        """A round is over and the next waits for `deal_next_round` (``pause_between_rounds``)."""

    @property
    def ending(self) -> Ending | None:
        """How the match ended (its totals and winning seats); None while it is not over."""

    @property
    def opening_events(self) -> tuple[E_co, ...]:
        """The events of the first deal (made when the match was)."""

    @property
    def entry_count(self) -> int:
        """How many entries (deals and actions) the log holds now."""

    def legal_actions(self) -> tuple[Action, ...]: ...

    def view(self, seat: int | None) -> V_co:
        """What ``seat`` may know now; None gives a spectator's view."""

    def apply(self, action: Action, seat: int | None = None) -> tuple[E_co, ...]:
        """Take ``action`` (for ``seat`` when given); its public events. IllegalAction when refused."""

    def deal_next_round(self) -> tuple[E_co, ...]: ...

    def log(self) -> dict[str, Any]: ...

    def entries_since(self, start: int) -> list[Any]: ...


class LoggedMatch(ABC):
    """The log every engine keeps and replays, and the rounds every engine deals, written once
    (`Match`, `MexicanMatch`, `FivesMatch` derive from it).

    An engine calls ``super().__init__`` first, sets up its own parts, then deals
    its first round (``self._opening = tuple(self._next_round())``). It deals a
    round in `_start_round` with `_next_deal` (which logs it), appends its actions to ``_entries``,
    ends a round with `_round_ended`, and declares `LOG_FORMAT`, `RULES`, the
    words its errors use and `_why_not`, which says why its view refuses an action.
    """

    #: The log's format: it tells one game's logs from another's (core/games.py).
    LOG_FORMAT: ClassVar[str]
    #: The rules type the engine plays.
    RULES: ClassVar[type[Rules]]
    #: How a log of another format is refused ("not a {LOG_NAME} (expected format ...)").
    LOG_NAME: ClassVar[str]
    #: How a log without rules of `RULES`' type is refused.
    RULES_NEEDED: ClassVar[str]
    #: Why the engine's view refuses an action (its refusals.py `why_not`); None when it does not.
    _why_not: ClassVar[Callable[[Any, object], IllegalAction | None]]

    rules: Rules
    players: int
    seed: int
    pause_between_rounds: bool
    _entries: list[Any]
    _opening: tuple[Any, ...]

    def __init__(
        self,
        rules: Any,
        players: int,
        seed: int = 0,
        *,
        deals: list[tuple[list[int], int]] | None = None,
        pause_between_rounds: bool = False,
    ) -> None:
        """What every engine sets up: the players and the seed checked, the deals to come, the log.

        ``deals``: the deals a log recorded, taken in order before the seed's.
        """
        rules.check_players(players)
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise ValueError(f"a seed is a whole number, not {seed!r}")
        self.rules = rules
        self.players = players
        self.seed = seed
        self.tiles: TileSet = tile_set(rules.max_pip)
        self.round_number = 0
        #: Stop after a round's end until `deal_next_round` (a table lets people read it).
        self.pause_between_rounds = pause_between_rounds
        self._awaiting_deal = False
        self._recorded_deals = deque(deals or ())
        self._deal_count = 0
        #: The match's own source of deals: the same seed gives the same deals.
        self._deal_rng = random.Random(seed)
        #: Deals (plain data) and actions, in order; `log` writes the actions as text.
        self._entries = []
        #: legal_actions() of the current position, until the next action.
        self._legal: tuple[Action, ...] | None = None
        #: The events of the round being played, from its deal on (every view shows them).
        self._round_events: list[Any] = []

    # What an engine gives.

    @property
    @abstractmethod
    def turn(self) -> int | None: ...

    @abstractmethod
    def view(self, seat: int | None) -> Any: ...

    @abstractmethod
    def apply(self, action: Action, seat: int | None = None) -> tuple[Any, ...]: ...

    @abstractmethod
    def _start_round(self) -> list[Any]:
        """Deal round ``round_number`` (`_next_deal`) and start it; its events."""

    # -- rounds ------------------------------------------------------------------

    @property
    def awaiting_deal(self) -> bool:
        """A round has ended (not the match) and `deal_next_round` has not dealt the next one.

        Only with ``pause_between_rounds``; meanwhile nobody may act.
        """
        return self._awaiting_deal

    @property
    def opening_events(self) -> tuple[Any, ...]:
        """The events of the first deal, which happened before any action."""
        return self._opening

    def _next_round(self) -> list[Any]:
        """Count the next round and deal it (`_start_round`); its events."""
        self.round_number += 1
        return self._start_round()

    def deal_next_round(self) -> tuple[Any, ...]:
        """Deal the round that `awaiting_deal` waits for; its events (the new round's start).

        RuntimeError when no round awaits its deal (a caller's mistake, not a player's).
        """
        if not self._awaiting_deal:
            raise RuntimeError("no round awaits its deal")
        self._awaiting_deal = False
        return tuple(self._next_round())

    def _next_deal(self, tiles: list[int] | None = None, what: str = "the set") -> tuple[list[int], int]:
        """The next deal, logged: the shuffled order of ``tiles`` (the whole set's indexes when
        None) and a seat drawn at random; ``what`` names the tiles when a log's deal is damaged."""
        expected = list(range(len(self.tiles))) if tiles is None else tiles
        # Drawn even when the deal is recorded, so that a log cut short before a
        # deal goes on with the deal the seed gives.
        order = list(expected)
        self._deal_rng.shuffle(order)
        seat = self._deal_rng.randrange(self.players)
        if self._recorded_deals:
            order, seat = self._recorded_deals.popleft()
            if sorted(order) != expected:
                raise ValueError(f"deal {self._deal_count + 1} of the log is not a shuffle of {what}")
            if not 0 <= seat < self.players:
                # Said in the log's own terms: a players count changed by hand shows here first.
                raise ValueError(f"deal {self._deal_count + 1} of the log is led by seat {seat + 1}, "
                                 f"but the match has {self.players} players (seats 1 to {self.players})")
        self._deal_count += 1
        self._entries.append({"deal": list(order), "seat": seat})
        return list(order), seat

    def _round_ended(self, ended: Any, match_ended: Any = None) -> list[Any]:
        """The events of a round's end: ``ended``, then ``match_ended`` when it ends the match.

        Otherwise the next round is dealt at once, or awaits `deal_next_round`
        with ``pause_between_rounds``.
        """
        events = [ended] if match_ended is None else [ended, match_ended]
        self._round_events.extend(events)
        if match_ended is None:
            if self.pause_between_rounds:
                self._awaiting_deal = True
            else:
                events.extend(self._next_round())
        return events

    def _refuse(self, action: object, seat: int | None) -> NoReturn:
        """Raise IllegalAction for an action that is not legal now, saying why.

        The reason is `_why_not`'s, read from the view of the seat that acts, so
        the engine and an interface asking the same view never disagree.
        """
        if seat is None:
            seat = self.turn
        elif not (isinstance(seat, int) and 0 <= seat < self.players):
            seat = None  # not a seat at this table: it may only watch
        refused = type(self)._why_not(self.view(seat), action)
        if refused is None:  # pragma: no cover - only called for an action that is not legal
            refused = IllegalAction(action, Refusal.NOT_ALLOWED)
        raise refused

    # -- the log -----------------------------------------------------------------

    def log(self) -> dict[str, Any]:
        """The match as its record: header plus every deal and action, in order.

        Everything in it is plain data but the rules, a `Rules` value: whoever
        stores a log writes them as it writes rules anywhere (net/store/journal.py).
        """
        log: dict[str, Any] = {
            "format": self.LOG_FORMAT,
            "rules": self.rules,
            "players": self.players,
            "seed": self.seed,
            "entries": self.entries_since(0),
        }
        if self.pause_between_rounds:
            # Only when set, so that logs of matches without pauses read as before.
            log["pause_between_rounds"] = True
        return log

    @property
    def entry_count(self) -> int:
        """How many entries (deals and actions) the log holds now."""
        return len(self._entries)

    def entries_since(self, start: int) -> list[Any]:
        """The log's entries from number ``start`` on, as plain data (for a journal)."""
        return [e if isinstance(e, dict) else str(e) for e in self._entries[start:]]

    @classmethod
    def _read_entry(cls, number: int, entry: dict[str, Any]) -> tuple[Action, int] | None:
        """An entry of the engine's own kind written as a map (not a deal): its action and seat.

        None: the entry is a deal. The Draw family's new deal asked for
        (``{"redeal": seat}``) is one; raise ValueError for a damaged one.
        """
        return None

    @classmethod
    def from_log(cls, data: Any, on_entry: OnEntry | None = None) -> Self:
        """The match a `log` describes; a damaged log raises ValueError saying where.

        A log cut anywhere replays: a round it does not deal is dealt from the seed.
        ``on_entry`` hears of every entry as it is replayed (core/replay.py keeps
        each position of a finished match that way).
        """
        if not isinstance(data, dict) or data.get("format") != cls.LOG_FORMAT:
            raise ValueError(f"not a {cls.LOG_NAME} (expected format {cls.LOG_FORMAT!r})")
        rules = data.get("rules")
        if not isinstance(rules, cls.RULES):
            raise ValueError(cls.RULES_NEEDED)
        players, seed, entries = data.get("players"), data.get("seed"), data.get("entries")
        if not isinstance(players, int) or not isinstance(seed, int) or not isinstance(entries, list):
            raise ValueError("a match log needs players, seed and entries")
        pause = data.get("pause_between_rounds", False)
        if not isinstance(pause, bool):
            raise ValueError("a match log's pause_between_rounds is true or false")
        deals: list[tuple[list[int], int]] = []
        #: Every entry in order: its number and its action (None for a deal).
        steps: list[tuple[int, Action | None]] = []
        #: The seat of each entry an engine read itself (a new deal asked for), by number.
        seats: dict[int, int] = {}
        for number, entry in enumerate(entries, 1):
            own = cls._read_entry(number, entry) if isinstance(entry, dict) else None
            if own is not None:
                steps.append((number, own[0]))
                seats[number] = own[1]
            elif isinstance(entry, dict):
                order, seat = entry.get("deal"), entry.get("seat")
                if not (isinstance(order, list) and all(isinstance(t, int) for t in order)
                        and isinstance(seat, int)):
                    raise ValueError(f"entry {number} of the log is not a deal")
                deals.append((order, seat))
                steps.append((number, None))
            else:
                try:
                    steps.append((number, parse_action(entry)))
                except ValueError as exc:
                    raise ValueError(f"entry {number} of the log: {exc}") from None
        match = cls(rules, players, seed, deals=deals, pause_between_rounds=pause)
        for number, action in steps:
            if action is None:
                # The deals are taken in order as rounds start; one that comes
                # after a pause is the deal the match waits for.
                if match.awaiting_deal:
                    dealt = match.deal_next_round()
                else:
                    dealt = match.opening_events if number == 1 else ()
                if on_entry is not None:
                    on_entry(match, None, None, dealt)
                continue
            actor = seats.get(number, match.turn)
            try:
                events = match.apply(action, seats.get(number))
            except IllegalAction as exc:
                raise ValueError(f"entry {number} of the log cannot be replayed: {exc}") from None
            if on_entry is not None:
                on_entry(match, action, actor, events)
        # A log cut right after a round's last action (a journal torn by a crash) lacks the
        # next deal, which the replay has dealt from the seed: what the log holds must come
        # first, where the replay put it; after it, only deals the replay made.
        if match.entries_since(0)[: len(entries)] != entries:
            raise ValueError("the log's deals are not where its actions need them")
        return match


__all__ = ["Ending", "Engine", "LoggedMatch", "OnEntry"]
