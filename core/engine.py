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
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol, Self, TypeVar

from .actions import Action, IllegalAction, parse_action
from .rules import Rules

#: Told of each entry `from_log` replays: the match after it, the action (None for
#: a deal), the seat that took it and the events it caused.
OnEntry = Callable[[Any, "Action | None", "int | None", tuple[Any, ...]], None]

V_co = TypeVar("V_co", covariant=True)
E_co = TypeVar("E_co", covariant=True)


@dataclass(frozen=True)
class Ending:
    """How a finished match ended, in every game's terms: what the record and the history keep."""

    #: Each side's total at the end (a side is a seat but in partnerships: `Rules.side_of`).
    totals: tuple[int, ...]
    #: The seats that won (both partners of a winning side; every seat tied for the best).
    winners: tuple[int, ...]


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
    """The log every engine keeps and replays, written once (`Match`, `MexicanMatch` derive from it).

    An engine appends its deals (plain dicts) and actions to ``_entries`` as it
    goes, and declares `LOG_FORMAT`, `RULES` and the words its errors use.
    """

    #: The log's format: it tells one game's logs from another's (core/games.py).
    LOG_FORMAT: ClassVar[str]
    #: The rules type the engine plays.
    RULES: ClassVar[type[Rules]]
    #: How a log of another format is refused ("not a {LOG_NAME} (expected format ...)").
    LOG_NAME: ClassVar[str]
    #: How a log without rules of `RULES`' type is refused.
    RULES_NEEDED: ClassVar[str]

    rules: Rules
    players: int
    seed: int
    pause_between_rounds: bool
    _entries: list[Any]

    @abstractmethod
    def __init__(
        self,
        rules: Any,
        players: int,
        seed: int = 0,
        *,
        deals: list[tuple[list[int], int]] | None = None,
        pause_between_rounds: bool = False,
    ) -> None: ...

    # What replaying a log asks of the engine.

    @property
    @abstractmethod
    def turn(self) -> int | None: ...

    @property
    @abstractmethod
    def awaiting_deal(self) -> bool: ...

    @property
    @abstractmethod
    def opening_events(self) -> tuple[Any, ...]: ...

    @abstractmethod
    def apply(self, action: Action, seat: int | None = None) -> tuple[Any, ...]: ...

    @abstractmethod
    def deal_next_round(self) -> tuple[Any, ...]: ...

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
