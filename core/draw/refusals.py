"""Why an action of the Draw family is not allowed now: a code for each reason, from a seat's view.

The engine speaks in codes, the interface in words (after python-chess's
``Termination``): every game's (`Refusal`, core/refusals.py) and the Draw
family's own (`DrawRefusal`). `why_not` is the one definition of every reason: `Match`
raises what it returns for the seat on turn, and an interface asks it before
it sends a key's intent, so both always agree.

    refused = why_not(view, DRAW)    # None when the action is legal
    refused.reason                   # Refusal.MUST_PLAY
    refused.params                   # {"tile": "5-6"}
    str(refused)                     # "draw: you must play a tile you hold (5-6 fits)"

Params are plain values: tiles as their text ("5-6"), ends as "left" or
"right", numbers as ints, and seats counted from 0 like `View.seat`.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..actions import Draw, End, IllegalAction, Pass, Play, Redeal, action_text
from ..codes import Code
from ..refusals import SHARED_ENGLISH, Refusal, not_now, say
from ..rules import REDEAL_DOUBLES
from ..tiles import Tile
from .layout import line_of
from .view import View


class DrawRefusal(Code):
    """Why the rules of the Draw family refuse an action, beyond every game's `Refusal`s."""

    LEAD_MUST_BE = "lead-must-be", "tile"
    LEAD_ON_LEFT = "lead-on-left", "tile"
    FITS_NEITHER_END = "fits-neither-end", "tile", "left", "right"
    WRONG_END = "wrong-end", "tile", "end", "number"
    NO_DRAWING = "no-drawing"
    RESERVE_REACHED = "reserve-reached", "reserve"
    DRAW_LIMIT = "draw-limit", "count"
    #: A number given to a blank, where blanks are not wild.
    BLANKS_NOT_WILD = "blanks-not-wild"
    #: A number given to a tile that has no blank.
    NO_BLANK = "no-blank", "tile"
    #: The number given to a blank is not one of the set's (0 to ``max_pip``).
    BLANK_NUMBER = "blank-number", "number", "max_pip"
    #: Laid so, the tile's blank touches the end and takes its number: it is given none.
    BLANK_NOT_LEFT_OPEN = "blank-not-left-open", "tile", "end", "number"
    #: A wild blank left open (the lead) needs the number its player gives it.
    BLANK_NEEDS_NUMBER = "blank-needs-number", "tile", "max_pip"
    #: A new deal asked for where the house rule is off.
    NO_REDEAL = "no-redeal"
    #: A new deal asked for once the round's first tile is laid.
    REDEAL_TOO_LATE = "redeal-too-late"
    #: A new deal asked for by a hand of ``doubles`` doubles, fewer than ``needed``.
    REDEAL_FEW_DOUBLES = "redeal-few-doubles", "doubles", "needed"

    def sentence(self, params: Mapping[str, int | str]) -> str:
        """The English reason for programmers and logs; interfaces make their own from the code."""
        return say(ENGLISH, self, params)


#: Each reason in English (every game's as core/refusals.py words them); its placeholders are
#: exactly the params it carries.
ENGLISH: Mapping[Code, str] = {
    **SHARED_ENGLISH,
    DrawRefusal.LEAD_MUST_BE: "the lead must be {tile}",
    DrawRefusal.LEAD_ON_LEFT: "the lead starts the line: play {tile} on the left",
    DrawRefusal.FITS_NEITHER_END: "{tile} matches neither open end ({left} and {right})",
    DrawRefusal.WRONG_END: "{tile} does not match the {end} end ({number})",
    DrawRefusal.NO_DRAWING: "there is no drawing in this game",
    DrawRefusal.RESERVE_REACHED: "the boneyard is down to its reserve of {reserve} tiles",
    DrawRefusal.DRAW_LIMIT: "you have drawn {count} tiles this turn, the most allowed",
    DrawRefusal.BLANKS_NOT_WILD: "blanks are not wild in this game: a tile is given no number",
    DrawRefusal.NO_BLANK: "{tile} has no blank to give a number",
    DrawRefusal.BLANK_NUMBER: "a blank can be given a number from 0 to {max_pip}, not {number}",
    DrawRefusal.BLANK_NOT_LEFT_OPEN: "laid on the {end} end, the blank of {tile} takes its number ({number})",
    DrawRefusal.BLANK_NEEDS_NUMBER: "say which number the blank of {tile} is (0 to {max_pip})",
    DrawRefusal.NO_REDEAL: "there is no new deal on five doubles in this game",
    DrawRefusal.REDEAL_TOO_LATE: "a new deal may be asked for only before the first tile is laid",
    DrawRefusal.REDEAL_FEW_DOUBLES: "a new deal needs {needed} doubles in hand; you hold {doubles}",
}

#: Every code the Draw family refuses an action with: every game's, then its own.
CODES: tuple[Refusal | DrawRefusal, ...] = (*Refusal, *DrawRefusal)
#: The names of the params each reason carries (as each code declares them).
PARAMS: Mapping[Code, frozenset[str]] = {reason: reason.params for reason in CODES}


def why_not(view: View, action: object) -> IllegalAction | None:
    """Why ``action`` is not allowed in ``view`` (the refusal to raise), or None when it is legal.

    Everything is read from the view (its hand, ends, legal actions, el pozo's
    counts, the rules and whose turn it is), so a seat's interface gets the
    same answer as the engine.
    """
    on_train = isinstance(action, Play) and not isinstance(action.place, End)
    if not isinstance(action, Play | Draw | Pass | Redeal) or on_train:
        # (A run, or a play on a train, is an action of Mexican Train: not of this game.)
        return IllegalAction(action, Refusal.NOT_AN_ACTION, {"action": action_text(action)})
    if (now := not_now(view)) is not None:
        return IllegalAction(action, now)
    if isinstance(action, Redeal):  # asked for out of turn too
        return None if action in view.legal else IllegalAction(action, *_why_not_redeal(view))
    assert view.turn is not None  # (not_now says so)
    if view.turn != view.seat:
        return IllegalAction(action, Refusal.NOT_YOUR_TURN, {"seat": view.turn})
    if action in view.legal:
        return None
    # The engine lists every tile that may be laid now: those are the tiles that fit.
    fitting = [a.tile for a in view.legal if isinstance(a, Play)]
    if isinstance(action, Play):
        reason, params = _why_not_play(view, action)
    elif isinstance(action, Draw):
        reason, params = _why_not_draw(view, fitting)
    else:
        reason, params = _why_not_pass(view, fitting)
    return IllegalAction(action, reason, params)


_Why = tuple[Refusal | DrawRefusal, dict[str, int | str]]


def _why_not_play(view: View, action: Play) -> _Why:
    tile = action.tile
    max_pip = view.rules.max_pip
    if tile.high > max_pip:
        return Refusal.NO_SUCH_TILE, {"tile": str(tile), "max_pip": max_pip}
    if tile not in view.hand:
        return Refusal.NOT_HELD, {"tile": str(tile)}
    if view.ends is None:
        if view.forced_lead is not None and tile != view.forced_lead:
            return DrawRefusal.LEAD_MUST_BE, {"tile": str(view.forced_lead)}
        if action.place is not End.LEFT:
            return DrawRefusal.LEAD_ON_LEFT, {"tile": str(tile)}
        if blanked := _why_not_blank(view, action):
            return blanked
        return Refusal.NOT_ALLOWED, {}
    left, right = view.ends
    places = line_of(max_pip, bool(view.rules.wild_blanks)).tile_places(tile, view.ends)
    fits_left, fits_right = End.LEFT in places, End.RIGHT in places
    if not places:
        return DrawRefusal.FITS_NEITHER_END, {"tile": str(tile), "left": left, "right": right}
    if action.place is End.LEFT and not fits_left:
        return DrawRefusal.WRONG_END, {"tile": str(tile), "end": End.LEFT.value, "number": left}
    if action.place is End.RIGHT and not fits_right:
        return DrawRefusal.WRONG_END, {"tile": str(tile), "end": End.RIGHT.value, "number": right}
    if blanked := _why_not_blank(view, action):
        return blanked
    if action.blank is not None and isinstance(action.place, End):
        number = right if action.place is End.RIGHT else left
        where = {"tile": str(tile), "end": action.place.value, "number": number}
        return DrawRefusal.BLANK_NOT_LEFT_OPEN, where
    return Refusal.NOT_ALLOWED, {}


def _why_not_blank(view: View, action: Play) -> _Why | None:
    """Why the number given (or not given) to the blank of a play that fits is refused, if it is."""
    max_pip = view.rules.max_pip
    tile = str(action.tile)
    if action.blank is None:
        if view.rules.wild_blanks and view.ends is None and action.tile.low == 0:
            return DrawRefusal.BLANK_NEEDS_NUMBER, {"tile": tile, "max_pip": max_pip}
        return None
    if not view.rules.wild_blanks:
        return DrawRefusal.BLANKS_NOT_WILD, {}
    if action.tile.low != 0:
        return DrawRefusal.NO_BLANK, {"tile": tile}
    if not 0 <= action.blank <= max_pip:
        return DrawRefusal.BLANK_NUMBER, {"number": action.blank, "max_pip": max_pip}
    return None


def _why_not_redeal(view: View) -> _Why:
    if not view.rules.redeal_on_doubles:
        return DrawRefusal.NO_REDEAL, {}
    if view.ends is not None:
        return DrawRefusal.REDEAL_TOO_LATE, {}
    doubles = sum(tile.is_double for tile in view.hand)
    if doubles < REDEAL_DOUBLES:
        return DrawRefusal.REDEAL_FEW_DOUBLES, {"doubles": doubles, "needed": REDEAL_DOUBLES}
    return Refusal.NOT_ALLOWED, {}


def _why_not_draw(view: View, fitting: list[Tile]) -> _Why:
    rules = view.rules
    if not rules.drawing:
        return DrawRefusal.NO_DRAWING, {}
    if view.drawable <= 0:
        if view.boneyard > 0 and rules.reserve:
            return DrawRefusal.RESERVE_REACHED, {"reserve": rules.reserve}
        return Refusal.BONEYARD_EMPTY, {}
    if rules.max_draws_per_turn and view.draws_this_turn >= rules.max_draws_per_turn:
        return DrawRefusal.DRAW_LIMIT, {"count": view.draws_this_turn}
    if fitting and not rules.voluntary_draw:
        return Refusal.MUST_PLAY, {"tile": str(fitting[0])}
    return Refusal.NOT_ALLOWED, {}


def _why_not_pass(view: View, fitting: list[Tile]) -> _Why:
    if fitting:
        return Refusal.PASS_WHILE_FITS, {"tile": str(fitting[0])}
    if any(isinstance(a, Draw) for a in view.legal):
        return Refusal.PASS_WHILE_DRAWABLE, {}
    return Refusal.NOT_ALLOWED, {}
