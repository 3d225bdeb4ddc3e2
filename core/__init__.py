"""The rules of capicu, pure: no I/O, no clock, no global random state."""

from .actions import DRAW, PASS, Action, Draw, IllegalAction, Pass, Play, Run, parse_action
from .ai import LEVELS, ComputerPlayer, make_player
from .codes import Code, Param, Statement
from .events import (
    Event,
    MatchEnded,
    Passed,
    RoundEnded,
    RoundResult,
    RoundStarted,
    TilePlayed,
    TilesDrawn,
)
from .layout import MEXICAN, End, Place, Train
from .match import Match
from .mexican import MexicanMatch, TrainView, new_match
from .refusals import Refusal, why_not
from .rules import (
    PRESET_NAMES,
    Direction,
    Fact,
    FirstLead,
    Game,
    RuleFact,
    Rules,
    RulesError,
    Scoring,
    TieLead,
    TrainRules,
)
from .scoring import Bonus
from .state import Outcome, RoundState
from .tiles import Tile, TileSet, tile_set
from .view import View

#: The outcomes by their short names (tui/screens/match_over.py still reads them so).
DOMINO = Outcome.DOMINO
TRANQUE = Outcome.TRANQUE

__all__ = [
    "DOMINO",
    "DRAW",
    "LEVELS",
    "MEXICAN",
    "PASS",
    "PRESET_NAMES",
    "TRANQUE",
    "Action",
    "Bonus",
    "Code",
    "ComputerPlayer",
    "Direction",
    "Draw",
    "End",
    "Event",
    "Fact",
    "FirstLead",
    "Game",
    "IllegalAction",
    "Match",
    "MatchEnded",
    "MexicanMatch",
    "Outcome",
    "Param",
    "Pass",
    "Passed",
    "Place",
    "Play",
    "Refusal",
    "RoundEnded",
    "RoundResult",
    "RoundStarted",
    "RoundState",
    "RuleFact",
    "Rules",
    "RulesError",
    "Run",
    "Scoring",
    "Statement",
    "TieLead",
    "Tile",
    "TilePlayed",
    "TileSet",
    "TilesDrawn",
    "Train",
    "TrainRules",
    "TrainView",
    "View",
    "make_player",
    "new_match",
    "parse_action",
    "tile_set",
    "why_not",
]
