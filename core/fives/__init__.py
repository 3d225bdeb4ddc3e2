"""Fives and Threes (docs/RULES.md, fives-and-threes): the Draw family's line, scored as tiles are laid.

Its own rules type (`FivesRules`), hand (`FivesRound`), match (`FivesMatch`),
events, view and refusals; where a tile may go is the Draw family's `Line`
layout's answer (core/layout.py), never worked out again here.
"""

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
