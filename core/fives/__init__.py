"""Fives and Threes (docs/RULES.md, fives-and-threes): the Draw family's line, scored as tiles are laid.

Its own rules type (`FivesRules`), hand (`FivesRound`), match (`FivesMatch`),
events, view and refusals; where a tile may go is the Draw family's `Line`
layout's answer (core/draw/layout.py), never worked out again here.

The names below load their module when first asked for (PEP 562): the registry
(core/games.py) reads `FivesRules` without loading the engine, as it loads no
game's modules before that game is asked for.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .events import (
        FivesEvent,
        FivesMatchEnded,
        FivesRoundEnded,
        FivesRoundResult,
        FivesRoundStarted,
        FivesTileDrawn,
        FivesTilePlayed,
        Knocked,
    )
    from .match import LOG_FORMAT, FivesMatch
    from .refusals import why_not_fives
    from .rules import FIVES_AND_THREES, PRESET, FivesRules
    from .scoring import line_total, points_for
    from .state import FivesOutcome, FivesRound
    from .view import FivesView

#: Each name and the module it lives in.
_WHERE = {
    "FivesEvent": "events",
    "FivesMatchEnded": "events",
    "FivesRoundEnded": "events",
    "FivesRoundResult": "events",
    "FivesRoundStarted": "events",
    "FivesTileDrawn": "events",
    "FivesTilePlayed": "events",
    "Knocked": "events",
    "LOG_FORMAT": "match",
    "FivesMatch": "match",
    "why_not_fives": "refusals",
    "FIVES_AND_THREES": "rules",
    "PRESET": "rules",
    "FivesRules": "rules",
    "line_total": "scoring",
    "points_for": "scoring",
    "FivesOutcome": "state",
    "FivesRound": "state",
    "FivesView": "view",
}


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(f".{module}", __name__), name)


__all__ = [
    "FIVES_AND_THREES",
    "LOG_FORMAT",
    "PRESET",
    "FivesEvent",
    "FivesMatch",
    "FivesMatchEnded",
    "FivesOutcome",
    "FivesRound",
    "FivesRoundEnded",
    "FivesRoundResult",
    "FivesRoundStarted",
    "FivesRules",
    "FivesTileDrawn",
    "FivesTilePlayed",
    "FivesView",
    "Knocked",
    "line_total",
    "points_for",
    "why_not_fives",
]
