"""Each game's own parts of the interface, found by the game's name.

The app and the replay never choose a game's screen by its types: they ask
`face_of` for the game the rules are for (core's registry of games,
core/games.py, names it), and get its declaration (`GameFace`):
its table screen, its final score, its board in a replay. A game's modules
are imported when that game is played, so a Draw match never loads Mexican
Train's screens. Adding a game is its own modules (its table, final score and
replay board, declaring its `FACE`) and one line in `FACES`.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import msgspec
from capicu.core.games import game_of

if TYPE_CHECKING:
    from capicu.core import Rules
    from capicu.tui.screens.match_over import MatchOverScreen
    from capicu.tui.screens.replay import ReplayBoard
    from capicu.tui.screens.table import TableScreen

#: Each game's interface, by the game's name (`GameSpec.name`): the module that declares its `FACE`.
FACES = {
    "line": "capicu.tui.screens.draw_table",
    "mexican-train": "capicu.tui.screens.mexican_table",
    "fives-and-threes": "capicu.tui.screens.fives_table",
}


class GameFace(msgspec.Struct, frozen=True):
    """One game's parts of the interface."""

    #: Its table: the board widget, its keys and its words around every table's parts.
    table: type[TableScreen[Any]]
    #: Its final score (loaded when a match ends: not needed before).
    match_over: Callable[[], type[MatchOverScreen[Any]]]
    #: Its board and words in a replay (loaded when a replay opens).
    replay_board: Callable[[], type[ReplayBoard[Any]]]


def face_of(rules: Rules) -> GameFace:
    """The interface of the game ``rules`` are for."""
    name = game_of(rules).name
    if name not in FACES:
        raise LookupError(f"the interface has no table for {name} yet (tui/games.py FACES)")
    face: GameFace = importlib.import_module(FACES[name]).FACE
    return face
