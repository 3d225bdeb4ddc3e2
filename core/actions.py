"""What a player can do on their turn: play a tile on a place, draw, or pass.

Actions are tiny immutable values with a text form that `parse_action` reads
back: ``play 3-5 left`` (an end of the line of play), ``play 5-12 train 2``
(seat 2's train, seats counted from 0), ``play 5-5 mexican`` (the Mexican
train), ``end run``, ``draw``, ``pass``. With wild blanks (a house rule), a
play that leaves its blank open names the number its player gives it:
``play 0-5 left as 3``; and a player dealt five doubles may ask for a new
deal before the first tile: ``redeal``. Mexican Train's opening run can also
be one action laying several tiles in order on one's own train:
``run 12-5 5-3 3-3 3-9`` (see `Run`).

They are plain classes under one base, `Action`, rather than dataclasses:
msgspec writes a dataclass as a map by itself, and an action travels as its
text (net/wire.py); one base class is one type a declaration can name.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import Enum
from types import MappingProxyType
from typing import Any

from msgspec import Struct

from .codes import Code
from .tiles import Tile, is_small_number

__all__ = [
    "DRAW", "END_RUN", "MAX_RUN", "MEXICAN", "PASS", "REDEAL", "Action", "Draw", "End", "EndRun",
    "IllegalAction", "Pass", "Place", "Play", "Redeal", "Run", "Train", "parse_action", "parse_place",
]


# -- places: where a tile is laid ---------------------------------------------------


class End(Enum):
    """One of the two open ends of the line of play."""

    LEFT = "left"
    RIGHT = "right"

    def __str__(self) -> str:
        return self.value


class Train(Struct, frozen=True, order=True, gc=False):
    """A train of Mexican Train: a seat's own (``owner``, counted from 0) or the Mexican train.

    Prints as it is written in an action: ``train 2``, ``mexican``.
    """

    #: The seat whose train it is; -1 for the Mexican train, which is everyone's.
    owner: int

    @property
    def is_mexican(self) -> bool:
        return self.owner < 0

    def __str__(self) -> str:
        return "mexican" if self.owner < 0 else f"train {self.owner}"


#: The one shared train, open to all.
MEXICAN = Train(-1)

#: Where a tile is laid: an end of the line, or a train.
Place = End | Train


class Action:
    """Something a player does on their turn: a `Play`, `Run`, `EndRun`, `Draw` or `Pass`.

    ``str()`` is its text.
    """

    __slots__ = ()

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"an action cannot be changed ({name})")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"an action cannot be changed ({name})")


class Play(Action):
    """Lay ``tile`` on ``place``: an end of the line of play, or a train.

    ``blank`` is the number a wild blank left open is given (None: the tile
    leaves no blank open, or blanks are not wild).
    """

    __slots__ = ("_text", "blank", "place", "tile")
    tile: Tile
    place: Place
    blank: int | None
    #: Written once: a host writes the legal plays of the seat on turn after every move.
    _text: str

    def __init__(self, tile: Tile, place: Place = End.LEFT, blank: int | None = None) -> None:
        object.__setattr__(self, "tile", tile)
        object.__setattr__(self, "place", place)
        object.__setattr__(self, "blank", blank)
        text = f"play {tile} {place}" if blank is None else f"play {tile} {place} as {blank}"
        object.__setattr__(self, "_text", text)

    @property
    def end(self) -> End:
        """The end of the line the tile goes on (a play of the Draw family)."""
        if isinstance(self.place, End):
            return self.place
        raise AttributeError(f"{self} is laid on a train, not on an end of the line")

    def __reduce__(self) -> tuple[type[Play], tuple[Tile, Place, int | None]]:
        return Play, (self.tile, self.place, self.blank)

    def __eq__(self, other: object) -> bool:
        if type(other) is not Play:
            return NotImplemented
        return self.tile == other.tile and self.place == other.place and self.blank == other.blank

    def __hash__(self) -> int:
        return hash((self.tile, self.place, self.blank))

    def __repr__(self) -> str:
        if self.blank is None:
            return f"Play({self.tile!r}, {self.place!r})"
        return f"Play({self.tile!r}, {self.place!r}, {self.blank!r})"

    def __str__(self) -> str:
        return self._text


class Run(Action):
    """Mexican Train's opening run: ``tiles`` laid in order on one's own train, as one play.

    Each tile matches the open number the one before it leaves; the run may
    not end on a double (docs/RULES.md). A client builds the run tile by tile
    on its own screen (taking back the last one as it likes) and sends it
    whole when the player ends it, so the host checks and lays it at once.
    """

    __slots__ = ("tiles",)
    tiles: tuple[Tile, ...]

    def __init__(self, tiles: tuple[Tile, ...]) -> None:
        object.__setattr__(self, "tiles", tuple(tiles))

    def __reduce__(self) -> tuple[type[Run], tuple[tuple[Tile, ...]]]:
        return Run, (self.tiles,)

    def __eq__(self, other: object) -> bool:
        if type(other) is not Run:
            return NotImplemented
        return self.tiles == other.tiles

    def __hash__(self) -> int:
        return hash((Run, self.tiles))

    def __repr__(self) -> str:
        return f"Run({self.tiles!r})"

    def __str__(self) -> str:
        return "run " + " ".join(str(t) for t in self.tiles)


class EndRun(Action):
    """End one's opening run of Mexican Train (its last tile is not a double)."""

    __slots__ = ()

    def __eq__(self, other: object) -> bool:
        return type(other) is EndRun if isinstance(other, Action) else NotImplemented

    def __hash__(self) -> int:
        return hash(EndRun)

    def __reduce__(self) -> str:
        return "END_RUN"

    def __repr__(self) -> str:
        return "EndRun()"

    def __str__(self) -> str:
        return "end run"


class Draw(Action):
    __slots__ = ()

    def __eq__(self, other: object) -> bool:
        return type(other) is Draw if isinstance(other, Action) else NotImplemented

    def __hash__(self) -> int:
        return hash(Draw)

    def __reduce__(self) -> str:
        return "DRAW"

    def __repr__(self) -> str:
        return "Draw()"

    def __str__(self) -> str:
        return "draw"


class Pass(Action):
    __slots__ = ()

    def __eq__(self, other: object) -> bool:
        return type(other) is Pass if isinstance(other, Action) else NotImplemented

    def __hash__(self) -> int:
        return hash(Pass)

    def __reduce__(self) -> str:
        return "PASS"

    def __repr__(self) -> str:
        return "Pass()"

    def __str__(self) -> str:
        return "pass"


class Redeal(Action):
    """Ask for a new deal: a player dealt five doubles or more, before the round's first tile."""

    __slots__ = ()

    def __eq__(self, other: object) -> bool:
        return type(other) is Redeal if isinstance(other, Action) else NotImplemented

    def __hash__(self) -> int:
        return hash(Redeal)

    def __reduce__(self) -> str:
        return "REDEAL"

    def __repr__(self) -> str:
        return "Redeal()"

    def __str__(self) -> str:
        return "redeal"


DRAW = Draw()
PASS = Pass()
REDEAL = Redeal()
END_RUN = EndRun()
#: The longest opening run an action may name (a hand holds at most 15 tiles).
MAX_RUN = 15


class IllegalAction(ValueError):
    """An action the rules do not allow now.

    ``reason`` is the code (every game's `Refusal`, or a game's own: core/refusals.py)
    and ``params`` what fills in the why
    (the tile, the ends, the seat on turn...): an interface words it from those.
    ``str()`` is an English sentence, for programmers and logs.
    """

    def __init__(
        self, action: object, reason: Code, params: Mapping[str, int | str] | None = None, *,
        sentence: str | None = None,
    ) -> None:
        self.action = action
        self.reason = reason
        self.params: Mapping[str, int | str] = MappingProxyType(dict(params or {}))
        if sentence is None:  # a game that words a shared code its own way gives its sentence
            sentence = reason.sentence(self.params)
        super().__init__(f"{action}: {sentence}" if action is not None else sentence)


def action_text(action: object) -> str:
    """How a refusal names ``action``: an action's own text (``redeal``), anything else as a Python value."""
    return str(action) if isinstance(action, Action) else repr(action)[:40]


def parse_place(words: list[str]) -> Place:
    """The place written as ``left``, ``right``, ``mexican`` or ``train N`` (N a seat from 0)."""
    if len(words) == 1:
        if words[0] == "mexican":
            return MEXICAN
        try:
            return End(words[0])
        except ValueError:
            pass
    elif len(words) == 2 and words[0] == "train" and is_small_number(words[1]):
        return Train(int(words[1]))
    raise ValueError(f"{' '.join(words)!r} is not an end or a train: say left, right, mexican or train N")


def parse_action(text: str) -> Action:
    """The action written as ``play 3-5 left``, ``play 3-5`` (left), ``play 0-5 left as 3``,
    ``play 3-5 train 2``, ``play 3-5 mexican``, ``run 12-5 5-3``, ``end run``, ``draw``,
    ``pass`` or ``redeal``."""
    if not isinstance(text, str) or len(text) > 40 + 6 * MAX_RUN:
        raise ValueError("an action is a short text such as 'play 3-5 left', 'draw' or 'pass'")
    words = text.strip().lower().split()
    if words == ["draw"]:
        return DRAW
    if words == ["pass"]:
        return PASS
    if words == ["end", "run"]:
        return END_RUN
    if words == ["redeal"]:
        return REDEAL
    if 4 <= len(words) <= 5 and words[0] == "play" and words[-2] == "as" and len(text) <= 40:
        number = words[-1]
        if not is_small_number(number):
            raise ValueError(f"{number!r} is not a number a blank can be given")
        return Play(Tile.parse(words[1]), parse_place(words[2:-2]) if len(words) > 4 else End.LEFT,
                    int(number))
    if 2 <= len(words) <= 4 and words[0] == "play" and len(text) <= 40:
        tile = Tile.parse(words[1])
        return Play(tile, parse_place(words[2:]) if len(words) > 2 else End.LEFT)
    if 2 <= len(words) <= MAX_RUN + 1 and words[0] == "run":
        return Run(tuple(Tile.parse(word) for word in words[1:]))
    raise ValueError(f"{text!r} is not an action: say 'play 3-5 left', 'draw' or 'pass'")
