"""The rules of capicu, pure: no I/O, no clock, no global random state."""

from .actions import (
    DRAW,
    MEXICAN,
    PASS,
    REDEAL,
    Action,
    Draw,
    End,
    IllegalAction,
    Pass,
    Place,
    Play,
    Redeal,
    Run,
    Train,
    parse_action,
)
from .ai import LEVELS, ComputerPlayer, make_player
from .codes import Code, Outcome, Param, Statement
from .draw.events import (
    Event,
    MatchEnded,
    Passed,
    RoundEnded,
    RoundResult,
    RoundStarted,
    TilePlayed,
    TilesDrawn,
)
from .draw.match import Match
from .draw.refusals import Refusal, why_not
from .draw.scoring import Bonus
from .draw.state import RoundState
from .draw.view import View
from .games import new_match
from .mexican.match import MexicanMatch
from .mexican.view import MexicanView
from .rules import (
    PRESET_NAMES,
    Direction,
    Fact,
    FirstLead,
    Game,
    MexicanRules,
    RuleFact,
    Rules,
    RulesError,
    Scoring,
    TieLead,
)
from .tiles import Tile, TileSet, tile_set

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
    "REDEAL",
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
    "MexicanRules",
    "MexicanView",
    "Outcome",
    "Param",
    "Pass",
    "Passed",
    "Place",
    "Play",
    "Redeal",
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
    "View",
    "make_player",
    "new_match",
    "parse_action",
    "tile_set",
    "why_not",
]
