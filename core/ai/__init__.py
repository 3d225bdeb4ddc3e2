"""The computer players: each decides from a seat's `View` only, exactly as a person would.

`players` names the levels and makes them; `heuristic` holds `easy` and
`normal`; `search` is `hard` (sampled deals of the hidden tiles, read by
`inference`, finished by `playout`); `hints` says what `hard` would do, and why
(``from capicu.core.ai.hints import suggest``: the search loads with it).

Mexican Train has its own: `mexican_players` (``make_mexican_player(level, seed)``,
the same levels, deciding from a `MexicanView`), `mexican_hard` (a planned train
from `mexican_chain`'s exact longest chain, voids read by `mexican_inference`, a
search of close choices), and `mexican_hints` (``suggest_mexican(view)``).
"""

from .players import LEVELS, ComputerPlayer, make_player

__all__ = ["LEVELS", "ComputerPlayer", "make_player"]
