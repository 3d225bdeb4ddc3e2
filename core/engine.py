"""What every game's engine is: the shape `Match` and `MexicanMatch` share.

A match is its log (header plus every deal and action, in order); replaying
the log entry by entry tells an `OnEntry` of each one (core/replay.py keeps
every position of a finished match that way).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .actions import Action

#: Told of each entry `from_log` replays: the match after it, the action (None for
#: a deal), the seat that took it and the events it caused.
OnEntry = Callable[[Any, "Action | None", "int | None", tuple[Any, ...]], None]

__all__ = ["OnEntry"]
