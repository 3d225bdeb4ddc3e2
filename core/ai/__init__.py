"""The computer players: each decides from a seat's `View` only, exactly as a person would.

`players` names the levels and makes them; `heuristic` holds `easy` and
`normal`; `search` is `hard` (sampled deals of the hidden tiles, read by
`inference`, finished by `playout`); `hints` says what `hard` would do, and why
(``from capicu.core.ai.hints import suggest``: the search loads with it).

Mexican Train has its own: `train_players` (``make_train_player(level, seed)``,
the same levels, deciding from a `TrainView`), `train_hard` (a planned train
from `train_chain`'s exact longest chain, voids read by `train_inference`, a
search of close choices), and `train_hints` (``suggest_train(view)``).
"""

from .players import LEVELS, ComputerPlayer, make_player

__all__ = ["LEVELS", "ComputerPlayer", "make_player"]
