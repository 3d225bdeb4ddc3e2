"""The club night (issue 33), pure: its settings, each round's draw, the standings, the night's log.

- core/club/format.py: `ClubConfig`, `ClubFormat`, `ByeRule`, the draw and result values, `ClubError`.
- core/club/draw.py: `draw_round`, a pure function of the night so far and a seed.
- core/club/standings.py: `standings`, matches won, points difference, then the format's tie-breaks.
- core/club/night.py: `ClubNight`, the evening as a value rebuilt from its log of events.
"""

from .draw import DrawRound, draw_round, round_robin_rounds
from .format import (
    MOST_ENTRANTS,
    MOST_ROUND_ROBIN,
    MOST_ROUNDS,
    NAME_LIMIT,
    ByeRule,
    ClubConfig,
    ClubError,
    ClubFormat,
    ClubProblem,
    Entrant,
    MatchResult,
    RoundDraw,
    TableDraw,
    is_clean_name,
    name_key,
)
from .night import LOG_FORMAT, ClubEvent, ClubNight, Joined, Left, Phase, Recorded, RoundDrawn
from .standings import PlayerMatch, Standing, matches_of, standings

__all__ = [
    "LOG_FORMAT",
    "MOST_ENTRANTS",
    "MOST_ROUNDS",
    "MOST_ROUND_ROBIN",
    "NAME_LIMIT",
    "ByeRule",
    "ClubConfig",
    "ClubError",
    "ClubEvent",
    "ClubFormat",
    "ClubNight",
    "ClubProblem",
    "DrawRound",
    "Entrant",
    "Joined",
    "Left",
    "MatchResult",
    "Phase",
    "PlayerMatch",
    "Recorded",
    "RoundDraw",
    "RoundDrawn",
    "Standing",
    "TableDraw",
    "draw_round",
    "is_clean_name",
    "matches_of",
    "name_key",
    "round_robin_rounds",
    "standings",
]
