"""What a player can do on their turn: play a tile on an end, draw, or pass.

Actions are tiny immutable values with a text form (``play 3-5 left``,
``draw``, ``pass``) that `parse_action` reads back. They are plain classes
under one base, `Action`, rather than dataclasses: msgspec writes a dataclass
as a map by itself, and an action travels as its text (net/wire.py); one base
class is one type a declaration can name.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import Enum
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from .tiles import Tile

if TYPE_CHECKING:  # refusals.py reads actions: the codes are only named here
    from .refusals import Refusal


class End(Enum):
    """One of the two open ends of the line of play."""

    LEFT = "left"
    RIGHT = "right"


class Action:
    """Something a player does on their turn: a `Play`, a `Draw` or a `Pass`; ``str()`` is its text."""

    __slots__ = ()

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"an action cannot be changed ({name})")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"an action cannot be changed ({name})")


class Play(Action):
    __slots__ = ("_text", "end", "tile")
    tile: Tile
    end: End
    #: Written once: a host writes the legal plays of the seat on turn after every move.
    _text: str

    def __init__(self, tile: Tile, end: End = End.LEFT) -> None:
        object.__setattr__(self, "tile", tile)
        object.__setattr__(self, "end", end)
        object.__setattr__(self, "_text", f"play {tile} {end.value}")

    def __reduce__(self) -> tuple[type[Play], tuple[Tile, End]]:
        return Play, (self.tile, self.end)

    def __eq__(self, other: object) -> bool:
        if type(other) is not Play:
            return NotImplemented
        return self.tile == other.tile and self.end is other.end

    def __hash__(self) -> int:
        return hash((self.tile, self.end))

    def __repr__(self) -> str:
        return f"Play({self.tile!r}, {self.end})"

    def __str__(self) -> str:
        return self._text


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


DRAW = Draw()
PASS = Pass()


class IllegalAction(ValueError):
    """An action the rules do not allow now.

    ``reason`` is the code (a `Refusal`) and ``params`` what fills in the why
    (the tile, the ends, the seat on turn...): an interface words it from those.
    ``str()`` is an English sentence, for programmers and logs.
    """

    def __init__(
        self, action: object, reason: Refusal, params: Mapping[str, int | str] | None = None
    ) -> None:
        self.action = action
        self.reason = reason
        self.params: Mapping[str, int | str] = MappingProxyType(dict(params or {}))
        sentence = reason.sentence(self.params)
        super().__init__(f"{action}: {sentence}" if action is not None else sentence)


def parse_action(text: str) -> Action:
    """The action written as ``play 3-5 left``, ``play 3-5`` (left), ``draw`` or ``pass``."""
    if not isinstance(text, str) or len(text) > 40:
        raise ValueError("an action is a short text such as 'play 3-5 left', 'draw' or 'pass'")
    words = text.strip().lower().split()
    if words == ["draw"]:
        return DRAW
    if words == ["pass"]:
        return PASS
    if len(words) in (2, 3) and words[0] == "play":
        tile = Tile.parse(words[1])
        end = End.LEFT
        if len(words) == 3:
            try:
                end = End(words[2])
            except ValueError:
                raise ValueError(f"{words[2]!r} is not an end: say left or right") from None
        return Play(tile, end)
    raise ValueError(f"{text!r} is not an action: say 'play 3-5 left', 'draw' or 'pass'")
