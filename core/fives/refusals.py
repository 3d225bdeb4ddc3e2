"""Why an action of Fives and Threes is not allowed now, decided from a seat's view.

The reasons are every game's (core/refusals.py: a tile held, must play...) and
four of the Draw family's line codes (core/draw/refusals.py: an end it fits, no
drawing...): the game is played on the same line, so the interface words them
as it already does. `FivesMatch` raises what `why_not_fives`
returns for the seat on turn, and an interface asks it before sending a key's
intent, so both agree.
"""

from __future__ import annotations

from ..actions import Draw, End, IllegalAction, Pass, Play
from ..codes import Code
from ..draw.layout import line_of
from ..draw.refusals import DrawRefusal
from ..refusals import Refusal, not_now
from ..tiles import Tile
from .view import FivesView

_Why = tuple[Code, dict[str, int | str]]


def why_not_fives(view: FivesView, action: object) -> IllegalAction | None:
    """Why ``action`` is not allowed in ``view`` (the refusal to raise), or None when it is legal."""
    if not isinstance(action, Play | Draw | Pass) or (isinstance(action, Play) and (
            not isinstance(action.place, End) or action.blank is not None)):
        return IllegalAction(action, Refusal.NOT_AN_ACTION, {"action": repr(action)[:40]})
    if (now := not_now(view)) is not None:
        return IllegalAction(action, now)
    assert view.turn is not None  # (not_now says so)
    if view.turn != view.seat:
        return IllegalAction(action, Refusal.NOT_YOUR_TURN, {"seat": view.turn})
    if action in view.legal:
        return None
    fitting = [a.tile for a in view.legal if isinstance(a, Play)]
    if isinstance(action, Play):
        reason, params = _why_not_play(view, action)
    elif isinstance(action, Draw):
        reason, params = _why_not_draw(view, fitting)
    else:
        reason, params = _why_not_knock(view, fitting)
    return IllegalAction(action, reason, params)


def _why_not_play(view: FivesView, action: Play) -> _Why:
    tile = action.tile
    max_pip = view.rules.max_pip
    if tile.high > max_pip:
        return Refusal.NO_SUCH_TILE, {"tile": str(tile), "max_pip": max_pip}
    if tile not in view.hand:
        return Refusal.NOT_HELD, {"tile": str(tile)}
    if view.ends is None:
        return DrawRefusal.LEAD_ON_LEFT, {"tile": str(tile)}
    left, right = view.ends
    places = line_of(max_pip).tile_places(tile, view.ends)
    if not places:
        return DrawRefusal.FITS_NEITHER_END, {"tile": str(tile), "left": left, "right": right}
    end = action.place
    number = left if end is End.LEFT else right
    return DrawRefusal.WRONG_END, {"tile": str(tile), "end": str(end), "number": number}


def _why_not_draw(view: FivesView, fitting: list[Tile]) -> _Why:
    if not view.rules.drawing:
        return DrawRefusal.NO_DRAWING, {}
    if fitting:
        return Refusal.MUST_PLAY, {"tile": str(fitting[0])}
    if view.drawable <= 0:
        return Refusal.BONEYARD_EMPTY, {}
    return Refusal.NOT_ALLOWED, {}


def _why_not_knock(view: FivesView, fitting: list[Tile]) -> _Why:
    if fitting:
        return Refusal.PASS_WHILE_FITS, {"tile": str(fitting[0])}
    if view.drawable > 0:
        return Refusal.PASS_WHILE_DRAWABLE, {}
    return Refusal.NOT_ALLOWED, {}
