"""What a player can do on their turn: play a tile on an end, draw, or pass.

Actions are tiny immutable values with a text form (``play 3-5 left``,
``draw``, ``pass``) that `parse_action` reads back.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from .tiles import Tile


class End(Enum):
    """One of the two open ends of the line of play."""

    LEFT = "left"
    RIGHT = "right"

    @property
    def opposite(self) -> End:
        return End.RIGHT if self is End.LEFT else End.LEFT


@dataclass(frozen=True, slots=True)
class Play:
    tile: Tile
    end: End = End.LEFT

    def __str__(self) -> str:
        return f"play {self.tile} {self.end.value}"


@dataclass(frozen=True, slots=True)
class Draw:
    def __str__(self) -> str:
        return "draw"


@dataclass(frozen=True, slots=True)
class Pass:
    def __str__(self) -> str:
        return "pass"


Action = Play | Draw | Pass

DRAW = Draw()
PASS = Pass()


class IllegalAction(ValueError):
    """An action the rules do not allow now; ``reason`` says why in a sentence."""

    def __init__(self, action: object, reason: str) -> None:
        super().__init__(f"{action}: {reason}" if action is not None else reason)
        self.action = action
        self.reason = reason


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
