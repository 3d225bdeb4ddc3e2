"""The rules of capicu, pure: no I/O, no clock, no global random state."""

from .actions import DRAW, PASS, Action, Draw, End, IllegalAction, Pass, Play, parse_action
from .events import (
    Event,
    MatchEnded,
    Passed,
    RoundEnded,
    RoundResult,
    RoundStarted,
    TilePlayed,
    TilesDrawn,
    event_from_dict,
    event_to_dict,
)
from .match import Match
from .players import ComputerPlayer, make_player
from .refusals import Refusal, why_not
from .rules import PRESET_NAMES, Direction, FirstLead, Rules, RulesError, Scoring, TieLead
from .state import DOMINO, TRANQUE, RoundState
from .tiles import Tile, TileSet, tile_set
from .view import View

__all__ = [
    "DOMINO",
    "DRAW",
    "PASS",
    "PRESET_NAMES",
    "TRANQUE",
    "Action",
    "ComputerPlayer",
    "Direction",
    "Draw",
    "End",
    "Event",
    "FirstLead",
    "IllegalAction",
    "Match",
    "MatchEnded",
    "Pass",
    "Passed",
    "Play",
    "Refusal",
    "RoundEnded",
    "RoundResult",
    "RoundStarted",
    "RoundState",
    "Rules",
    "RulesError",
    "Scoring",
    "TieLead",
    "Tile",
    "TilePlayed",
    "TileSet",
    "TilesDrawn",
    "View",
    "event_from_dict",
    "event_to_dict",
    "make_player",
    "parse_action",
    "tile_set",
    "why_not",
]
