"""A club night's settings and the values its rounds are made of (issue 33).

A club night is a league or tournament over several tables, run from one host:
the organiser chooses the game (any `Rules` preset with its options), a
`ClubFormat`, the number of rounds and the table size; people join by name; each
round is drawn (core/club/draw.py), its matches are played side by side, and
their results make the standings (core/club/standings.py). `ClubNight`
(core/club/night.py) is the whole evening as a value rebuilt from its log.

Everything here is a frozen msgspec Struct: declared once, checked wherever it
is read back (a journal, the wire). What a declaration cannot say (a table size
the game seats, a format the game allows) `__post_init__` checks, raising
`ClubError` with a `ClubProblem` code for an interface to word.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from enum import StrEnum
from types import MappingProxyType
from typing import Annotated

from msgspec import Meta, Struct

from ..codes import Code, Param
from ..rules import MOST_PLAYERS, Rules

#: The most rounds a night may have.
MOST_ROUNDS = 30
#: The most people who may join one night (8 tables of 4 is the bench's evening; twice that and more).
MOST_ENTRANTS = 128
#: The most units (players, or fixed pairs) a round robin is drawn for: one more is a night too long.
MOST_ROUND_ROBIN = 16
#: The longest name an entrant may have (net/limits.py's NAME_LIMIT for a seat's name).
NAME_LIMIT = 24
#: The longest name of a night.
NIGHT_NAME_LIMIT = 60


class ClubFormat(StrEnum):
    """How each round's tables are drawn."""

    #: By standings, avoiding opponents already met where possible (fixed pairs in a partners' game).
    SWISS = "swiss"
    #: A partners' game where each round gives everyone new partners (the clubs' "individual").
    ROTATING = "rotating-partners"
    #: Everyone meets everyone once (the circle method): for small fields of two-sided matches.
    ROUND_ROBIN = "round-robin"


class ByeRule(StrEnum):
    """What happens to the players (or pairs) left over when the field does not divide into tables."""

    #: A computer takes the empty seats; the standings count those matches (`Standing.computer_seats`).
    COMPUTER = "computer"
    #: The one left over sits the round out, and it counts as a match won, 0 points difference.
    WIN = "win"
    #: The one left over sits the round out, and it counts nothing.
    NOTHING = "nothing"


class ClubProblem(Code):
    """Why a club setting, a step of the night or a log is refused (`ClubError.code`), with its params."""

    #: ``most``: `MOST_ROUNDS`; ``value``: the number refused.
    ROUNDS = "rounds", "most", "value"
    #: The game seats ``low`` to ``high`` at a table, not ``value``.
    TABLE_SIZE = "table-size", "low", "high", "value"
    #: Rotating partners is for a partners' game at tables of four.
    ROTATING_NEEDS_PARTNERS = "rotating-needs-partners"
    #: A round robin pairs two sides a table: two players, or two fixed pairs at a table of four.
    ROUND_ROBIN_NEEDS_TWO_SIDES = "round-robin-needs-two-sides"
    #: ``units`` players (or pairs) are too many for a round robin, which draws for at most ``most``.
    ROUND_ROBIN_TOO_MANY = "round-robin-too-many", "units", "most"
    #: A round robin's field is the one its first round was drawn for: nobody joins after it.
    ROUND_ROBIN_CLOSED = "round-robin-closed"
    #: The night's name: at most ``limit`` characters, on one line.
    NIGHT_NAME = "night-name", "limit"
    #: A name with nothing in it.
    NAME_EMPTY = "name-empty"
    #: A name longer than ``limit`` characters.
    NAME_TOO_LONG = "name-too-long", "limit"
    #: A name with control, format or invisible characters, or spaces at its ends or in a row:
    #: the host cleans names (net/host/sanitize.py) before they come here.
    NAME_NOT_CLEAN = "name-not-clean"
    #: ``name`` is taken (the same once normalised and case-folded).
    NAME_TAKEN = "name-taken", "name"
    #: The night already has ``most`` entrants.
    FULL = "full", "most"
    #: No entrant has the number ``entrant``.
    NO_ENTRANT = "no-entrant", "entrant"
    #: ``entrant`` already left the night.
    ALREADY_LEFT = "already-left", "entrant"
    #: A round is being played: the next is drawn once every table of round ``round`` is done.
    ROUND_NOT_DONE = "round-not-done", "round"
    #: The night is over (its ``rounds`` rounds are played).
    NIGHT_OVER = "night-over", "rounds"
    #: A round needs ``least`` players (or pairs) still in the night; it has ``count``.
    TOO_FEW = "too-few", "count", "least"
    #: No round is being played.
    NO_ROUND = "no-round"
    #: Round ``round`` has no table ``table`` (or is not the round being played).
    NO_TABLE = "no-table", "round", "table"
    #: Table ``table`` of round ``round`` already has its result.
    ALREADY_RECORDED = "already-recorded", "round", "table"
    #: A result that does not fit its table; ``what`` says how (English, for logs).
    BAD_RESULT = "bad-result", "what"
    #: A night's log that cannot be replayed; ``what`` says where and why (English, for logs).
    BAD_LOG = "bad-log", "what"
    #: A drawn round that does not fit the night; ``what`` says how (English, for logs).
    BAD_DRAW = "bad-draw", "what"


class ClubError(ValueError):
    """A club setting, step or log that cannot be: ``code`` and ``params`` say which and why.

    ``str()`` is an English sentence, for programmers and logs; an interface words the code.
    """

    def __init__(self, message: str, code: ClubProblem, /, **params: Param) -> None:
        super().__init__(message)
        self.code = code
        self.params: Mapping[str, Param] = MappingProxyType(code(**params).values)


def is_partners_game(rules: Rules, table_size: int) -> bool:
    """Whether tables of ``table_size`` play ``rules`` as two partnerships (seats 0+2 against 1+3)."""
    return rules.partnerships and table_size == 4


class ClubConfig(Struct, frozen=True, kw_only=True):
    """What the organiser chose for the night; checked as it is made (`ClubError`).

    ``rules`` is any preset with its options (the game is ``game_of(rules)``); it is
    read back as the game's rules type (net/store/club.py writes the game's name beside it).
    """

    rules: Rules
    format: ClubFormat = ClubFormat.SWISS
    #: Rounds to play; a round robin plays at most as many as its circle has (`ClubNight.total_rounds`).
    rounds: Annotated[int, Meta(ge=1)] = 3
    #: Seats at each table: the game's size (4 for a partners' game; 2 to 8 for Mexican Train).
    table_size: int = 2
    bye: ByeRule = ByeRule.COMPUTER
    #: The night's name, as the history and the printed standings show it.
    name: str = ""

    def __post_init__(self) -> None:
        if not 1 <= self.rounds <= MOST_ROUNDS:
            raise ClubError(f"a night has 1 to {MOST_ROUNDS} rounds, not {self.rounds}",
                            ClubProblem.ROUNDS, most=MOST_ROUNDS, value=self.rounds)
        low, high = self.rules.min_players, min(self.rules.max_players, MOST_PLAYERS[self.rules.game])
        if not low <= self.table_size <= high:
            raise ClubError(f"{self.rules.preset} seats {low} to {high} at a table, not {self.table_size}",
                            ClubProblem.TABLE_SIZE, low=low, high=high, value=self.table_size)
        if self.format is ClubFormat.ROTATING and not self.partners:
            raise ClubError("rotating partners is for a partners' game at tables of four",
                            ClubProblem.ROTATING_NEEDS_PARTNERS)
        if self.format is ClubFormat.ROUND_ROBIN and self.sides != 2:
            raise ClubError("a round robin pairs two sides at a table: two players, or two pairs of partners",
                            ClubProblem.ROUND_ROBIN_NEEDS_TWO_SIDES)
        if len(self.name) > NIGHT_NAME_LIMIT or not is_clean_name(self.name, empty=True):
            raise ClubError(f"a night's name is one clean line of at most {NIGHT_NAME_LIMIT} characters",
                            ClubProblem.NIGHT_NAME, limit=NIGHT_NAME_LIMIT)

    @property
    def partners(self) -> bool:
        """Whether each table plays as two partnerships (seats 0+2 against 1+3)."""
        return is_partners_game(self.rules, self.table_size)

    @property
    def sides(self) -> int:
        """How many sides score at a table."""
        return 2 if self.partners else self.table_size

    @property
    def fixed_pairs(self) -> bool:
        """Whether the draw seats fixed pairs (a partners' game not rotating): entrants 0+1, 2+3, ..."""
        return self.partners and self.format is not ClubFormat.ROTATING

    @property
    def low_wins(self) -> bool:
        """Whether the lower total wins a match (Mexican Train), so the points difference is turned round."""
        return self.rules.is_mexican_train

    def sides_of_table(self, seats: int) -> tuple[tuple[int, ...], ...]:
        """The seat indices of each side at a table of ``seats``: partners across, else one each."""
        if self.partners and seats == 4:
            return ((0, 2), (1, 3))
        return tuple((seat,) for seat in range(seats))


class Entrant(Struct, frozen=True):
    """Somebody who joined the night: numbered from 0 in joining order."""

    id: Annotated[int, Meta(ge=0)]
    name: str
    #: False once they left for good: they are out of every later draw.
    active: bool = True


class TableDraw(Struct, frozen=True):
    """One table of a round: who sits where."""

    #: From 1 within the round.
    number: Annotated[int, Meta(ge=1)]
    #: The entrant in each seat, in seat order; None: a computer fills the seat.
    #: Partners sit across (seats 0+2 and 1+3), as the Draw family deals them.
    seats: tuple[int | None, ...]

    @property
    def entrants(self) -> tuple[int, ...]:
        """The entrants at the table, in seat order."""
        return tuple(seat for seat in self.seats if seat is not None)


class RoundDraw(Struct, frozen=True):
    """One round's tables, and who sits it out (a bye, scored by the night's `ByeRule`)."""

    round: Annotated[int, Meta(ge=1)]
    tables: tuple[TableDraw, ...]
    byes: tuple[int, ...] = ()

    def table(self, number: int) -> TableDraw | None:
        """The table numbered ``number``, or None."""
        return next((table for table in self.tables if table.number == number), None)

    @property
    def seated(self) -> tuple[int, ...]:
        """Every entrant seated this round, table by table."""
        return tuple(entrant for table in self.tables for entrant in table.entrants)


class MatchResult(Struct, frozen=True, kw_only=True):
    """How one table's match ended (or stood, when the organiser closed it)."""

    round: Annotated[int, Meta(ge=1)]
    table: Annotated[int, Meta(ge=1)]
    #: As drawn (`TableDraw.seats`).
    seats: tuple[int | None, ...]
    #: The seat indices of each side: one per player, or the two partnerships (0, 2) and (1, 3).
    sides: tuple[tuple[int, ...], ...]
    #: Each side's final total in the match.
    points: tuple[int, ...]
    #: The sides that won (by index into ``sides``); none when it ended level.
    winners: tuple[int, ...]
    #: The organiser closed the table while it was being played: its score as it stood.
    closed: bool = False
    #: The match record's file name, to recompute from ("" when none was kept).
    record: str = ""


def is_clean_name(name: str, *, empty: bool = False) -> bool:
    """Whether ``name`` is one line as net/host/sanitize.py's `clean_text` leaves it.

    No control, format, private-use or unassigned characters, no variation selectors,
    no space at either end nor two in a row. (Core cannot clean text for the host:
    the host cleans, core checks.)
    """
    if not name:
        return empty
    if name != name.strip() or "  " in name:
        return False
    for char in name:
        if "\ufe00" <= char <= "\ufe0f" or "\U000e0100" <= char <= "\U000e01ef":
            return False
        if char in _INVISIBLE or unicodedata.category(char) in ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"):
            return False
        if char.isspace() and char != " ":
            return False
    return True


#: net/host/sanitize.py's characters that draw nothing yet are not format characters.
_INVISIBLE = frozenset("\u115f\u1160\u3164\uffa0\u034f\u17b4\u17b5\u180b\u180c\u180d\u180f\u2800")


def name_key(name: str) -> str:
    """The form in which two names are one name: normalised (NFKC) and case-folded (as sanitize.py's)."""
    return unicodedata.normalize("NFKC", name.casefold())


__all__ = [
    "MOST_ENTRANTS",
    "MOST_ROUNDS",
    "MOST_ROUND_ROBIN",
    "NAME_LIMIT",
    "ByeRule",
    "ClubConfig",
    "ClubError",
    "ClubFormat",
    "ClubProblem",
    "Entrant",
    "MatchResult",
    "RoundDraw",
    "TableDraw",
    "is_clean_name",
    "name_key",
]
