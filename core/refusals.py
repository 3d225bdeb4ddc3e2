"""Why an action is not allowed now: the codes every game shares, declared once.

The engine speaks in codes, the interface in words (after python-chess's
``Termination``). `Refusal` holds the reasons every game gives alike (the
match or the round is over, it is not your turn, you do not hold that tile,
...); each game adds its own codes in its refusals module (`DrawRefusal` in
core/draw/refusals.py, `MexicanRefusal` in core/mexican/refusals.py), whose
``why_not`` is the one definition of when each reason is given: the engine
raises what it returns, and an interface asks it before it sends a key's
intent, so both always agree. `IllegalAction.reason` holds a code of either
kind; the registry (core/games.py) lists a game's codes.

Params are plain values: tiles as their text ("5-6"), numbers as ints, and
seats counted from 0 like a view's ``seat``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol

from .codes import Code


class Refusal(Code):
    """Why the rules of any game refuse an action, with the params it is said with."""

    MATCH_OVER = "match-over"
    #: The round has ended and the next one is not dealt yet.
    ROUND_OVER = "round-over"
    NOT_AN_ACTION = "not-an-action", "action"
    #: A view without a seat (a spectator, or a seat that is not at the table).
    SPECTATOR = "spectator"
    NOT_YOUR_TURN = "not-your-turn", "seat"
    NO_SUCH_TILE = "no-such-tile", "tile", "max_pip"
    NOT_HELD = "not-held", "tile"
    BONEYARD_EMPTY = "boneyard-empty"
    #: Drawing while holding a tile that fits, where the rules say one must play.
    MUST_PLAY = "must-play", "tile"
    PASS_WHILE_FITS = "pass-while-fits", "tile"
    PASS_WHILE_DRAWABLE = "pass-while-drawable"
    #: No rule names it: only a view that contradicts itself gives this.
    NOT_ALLOWED = "not-allowed"

    def sentence(self, params: Mapping[str, int | str]) -> str:
        """The English reason for programmers and logs; interfaces make their own from the code."""
        return say(SHARED_ENGLISH, self, params)


#: Each shared reason in English (a game may word one its own way: `say`); its placeholders are
#: exactly the params it carries.
SHARED_ENGLISH: Mapping[Code, str] = {
    Refusal.MATCH_OVER: "the match is over",
    Refusal.ROUND_OVER: "the round is over and the next one is not dealt yet",
    Refusal.NOT_AN_ACTION: "{action} is not an action",
    Refusal.SPECTATOR: "spectators watch: they cannot play",
    Refusal.NOT_YOUR_TURN: "it is not your turn: seat {seat} is to play",
    Refusal.NO_SUCH_TILE: "there is no {tile} in a double-{max_pip} set",
    Refusal.NOT_HELD: "you do not hold {tile}",
    Refusal.BONEYARD_EMPTY: "the boneyard is empty",
    Refusal.MUST_PLAY: "you must play a tile you hold ({tile} fits)",
    Refusal.PASS_WHILE_FITS: "you cannot pass while you hold a tile that fits ({tile})",
    Refusal.PASS_WHILE_DRAWABLE: "you cannot pass while tiles can be drawn: draw",
    Refusal.NOT_ALLOWED: "that is not allowed now",
}


def say(english: Mapping[Code, str], code: Code, params: Mapping[str, int | str]) -> str:
    """``code``'s sentence in ``english``, filled from ``params`` (seats counted from 1 there)."""
    # Seats are counted from 0 in params, and from 1 wherever a person reads them.
    shown = {key: value + 1 if key == "seat" and isinstance(value, int) else value
             for key, value in params.items()}
    try:
        return english[code].format_map(shown)
    except (KeyError, ValueError, IndexError):
        return english[code]


class TurnView(Protocol):
    """What every game's view says of whose turn it is."""

    @property
    def match_over(self) -> bool: ...

    @property
    def turn(self) -> int | None: ...

    @property
    def seat(self) -> int | None: ...


def not_now(view: TurnView) -> Refusal | None:
    """Why nothing may be done in ``view`` now (the match or the round is over, a spectator's), if so."""
    if view.match_over:
        return Refusal.MATCH_OVER
    if view.turn is None:
        return Refusal.ROUND_OVER
    if view.seat is None:
        return Refusal.SPECTATOR
    return None


__all__ = ["SHARED_ENGLISH", "Refusal", "TurnView", "not_now", "say"]
