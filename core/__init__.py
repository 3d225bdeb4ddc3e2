"""The rules of capicu, pure: no I/O, no clock, no global random state.

The games are declared in core/games.py (`game_of(rules)`, `new_match`); each
game's own modules are in its package (core/draw/, core/mexican/). Mexican
Train's types named here load when first asked for, so that a Draw-family game
never imports them.
"""

from typing import TYPE_CHECKING, Any

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
from .draw.refusals import DrawRefusal, why_not
from .draw.scoring import Bonus
from .draw.state import RoundState
from .draw.view import View
from .engine import Engine
from .games import GAMES, GameSpec, game_named, game_of, game_of_log, game_of_view, match_from_log, new_match
from .refusals import Refusal
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

if TYPE_CHECKING:
    from .mexican.match import MexicanMatch
    from .mexican.view import MexicanView

#: Names of a game's own package that load when first asked for.
_LAZY = {"MexicanMatch": ".mexican.match", "MexicanView": ".mexican.view"}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from importlib import import_module

    return getattr(import_module(module, __name__), name)


#: The outcomes by their short names (tui/screens/match_over.py still reads them so).
DOMINO = Outcome.DOMINO
TRANQUE = Outcome.TRANQUE

__all__ = [
    "DOMINO",
    "DRAW",
    "GAMES",
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
    "DrawRefusal",
    "End",
    "Engine",
    "Event",
    "Fact",
    "FirstLead",
    "Game",
    "GameSpec",
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
    "game_named",
    "game_of",
    "game_of_log",
    "game_of_view",
    "make_player",
    "match_from_log",
    "new_match",
    "parse_action",
    "tile_set",
    "why_not",
]
