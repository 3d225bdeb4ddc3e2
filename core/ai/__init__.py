"""The computer players: each decides from a seat's `View` only, exactly as a person would.

`players` names the levels and makes them; `heuristic` holds `easy` and
`normal`; `search` is `hard` (sampled deals of the hidden tiles, read by
`inference`, finished by `playout`); `hints` says what `hard` would do, and why
(``from capicu.core.ai.hints import suggest``: the search loads with it).
"""

from .players import LEVELS, ComputerPlayer, make_player

__all__ = ["LEVELS", "ComputerPlayer", "make_player"]
