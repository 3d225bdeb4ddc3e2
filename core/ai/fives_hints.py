"""Hints for Fives and Threes: the move `hard` would make, what it scores, and what it gives away, in codes.

    hint = suggest_fives(view)        # view: this seat's FivesView on its turn
    hint.action                       # a legal Action (a play, a draw, a knock)
    hint.tile, hint.place             # the tile to lay and its end (None for a draw or a knock)
    hint.total, hint.points           # the ends' total it makes and what that scores ("15 for 8")
    hint.reasons                      # (FivesHintReason.SCORES(...), FivesHintReason.GIVES_EASY(...))

As core/ai/hints.py does for the Draw family: each reason is a `Statement` of a
`FivesHintReason` code with its params (seats counted from 0, tiles as their
text), for an interface to word. "An easy score" is a reply worth at least
`EASY` points that the next player may hold: a tile not seen, that shows no
number the seat has knocked on.
"""

from __future__ import annotations

from collections.abc import Callable

import msgspec

from ..actions import Action, Draw, End, Pass, Play
from ..codes import Code, Statement
from ..fives.state import FivesOutcome, FivesRound
from ..fives.view import FivesView
from ..tiles import Tile
from .fives_reading import after, allowed_for, next_seat, position, unseen_mask, voids

#: A reply worth this many points or more is an easy score given away (a total of 9, 12, 15, 18, 20, 21, 24).
EASY = 3


class FivesHintReason(Code):
    """Why a Fives and Threes hint suggests its move, with the params it is said with."""

    #: Nothing held fits either end and nothing can be drawn: knock.
    MUST_KNOCK = "must-knock"
    #: Nothing held fits: draw (the drawing option).
    MUST_DRAW = "must-draw"
    #: The play makes the ends add up to ``total``, which scores ``points``.
    SCORES = "scores", "total", "points"
    #: The play scores nothing (the ends add up to ``total``); the best it can do.
    NO_SCORE = "no-score", "total"
    #: The play's points take the side to the target: the match is won.
    WINS = "wins", "points"
    #: The last tile in hand: the go (1 point) when it ends the hand.
    CHIPS_OUT = "chips-out"
    #: The play scores past the target, which the exact finish does not count.
    PAST_TARGET = "past-target", "points"
    #: The ends it leaves give ``seat`` (the next to play) no easy score: ``points`` at best.
    SAFE = "safe", "seat", "points"
    #: The ends it leaves give ``seat`` an easy score: ``tile`` would make ``total`` for ``points``.
    GIVES_EASY = "gives-easy", "seat", "tile", "total", "points"
    #: ``tile`` would score ``points`` now but give ``seat`` ``total`` for ``reply`` with ``reply_tile``.
    AVOIDS = "avoids", "tile", "points", "seat", "reply_tile", "total", "reply"


#: One part of a hint's reason.
FivesReason = Statement[FivesHintReason]


class Reply(msgspec.Struct, frozen=True):
    """The best score the next player may make on the ends a play leaves."""

    seat: int
    tile: Tile
    total: int
    points: int


class FivesHint(msgspec.Struct, frozen=True):
    """The suggested move, what it scores, and why (one to three reasons)."""

    action: Action
    #: The tile to lay and its end; None for a draw or a knock.
    tile: Tile | None
    place: End | None
    #: The ends' total the play makes and what that scores (0 and 0 for a draw or a knock).
    total: int
    points: int
    #: The best reply the next player (an opponent) may make on the ends it leaves, or None.
    reply: Reply | None
    reasons: tuple[FivesReason, ...]


def best_reply(view: FivesView, play: Play) -> Reply | None:
    """The best score the next player may make after ``play``, with a tile they may hold.

    None when the next player is one's own partner, nobody is left to play, or
    no tile they may hold fits the ends the play leaves.
    """
    if view.seat is None:
        raise ValueError("a reply is read from a seat's view")
    st = position(view)
    following, _ = after(st, play)
    if following.outcome is FivesOutcome.CHIPPED_OUT:
        return None  # (the rebuilt position holds no other hand, so it may look blocked: it is not)
    nxt = next_seat(following, view.seat)
    if nxt == view.seat or st.side_of(nxt) == st.side_of(view.seat):
        return None
    may_hold = allowed_for(view, nxt, unseen_mask(view), voids(view)[nxt])
    return _best_on(following, nxt, may_hold)


def _best_on(st: FivesRound, seat: int, candidates: int) -> Reply | None:
    fitting = candidates & st.fit[st.left][st.right]
    best: Reply | None = None
    while fitting:
        low = fitting & -fitting
        fitting ^= low
        index = low.bit_length() - 1
        for on_right in (False, True):
            number = st.right if on_right else st.left
            if st.far[index][number] < 0:
                continue
            clone = st.copy()
            clone.turn = seat
            clone.hands[seat] |= low
            points = clone.play(index, on_right)
            if best is None or points > best.points:
                best = Reply(seat, st.tiles.tiles[index], clone.total, points)
    return best


def suggest_fives(view: FivesView, seed: int = 0, clock: Callable[[], float] | None = None) -> FivesHint:
    """The move `hard` would make in ``view`` (with this seed), what it scores, and why.

    ``view`` must be a seat's view on its turn (``view.legal`` not empty). ``clock`` is the
    search's (its wall-clock cap reads it; a test's still clock makes the hint depend on the seed alone).
    """
    if view.seat is None or not view.legal:
        raise ValueError("a hint needs a seat whose turn it is")
    from .fives_hard import FivesHardPlayer  # the search loads with the first hint

    player = FivesHardPlayer(seed) if clock is None else FivesHardPlayer(seed, clock=clock)
    action = player.choose(view)
    if isinstance(action, Pass):
        return FivesHint(action, None, None, 0, 0, None, (FivesHintReason.MUST_KNOCK(),))
    if isinstance(action, Draw):
        return FivesHint(action, None, None, 0, 0, None, (FivesHintReason.MUST_DRAW(),))
    assert isinstance(action, Play) and isinstance(action.place, End)
    total, points = play_score(view, action)
    reply = best_reply(view, action)
    return FivesHint(action, action.tile, action.place, total, points, reply,
                     _reasons(view, action, total, points, reply))


def play_score(view: FivesView, play: Play) -> tuple[int, int]:
    """The ends' total ``play`` makes and what that scores (as laid, before the exact finish)."""
    following, points = after(position(view), play)
    return following.total, points


def _reasons(view: FivesView, play: Play, total: int, points: int,
             reply: Reply | None) -> tuple[FivesReason, ...]:
    assert view.seat is not None
    side = view.side_of(view.seat)
    found: list[FivesReason] = []
    if points and view.rules.exact_finish and view.scores[side] + points > view.target:
        found.append(FivesHintReason.PAST_TARGET(points=points))
    elif points and view.scores[side] + points >= view.target:
        return (FivesHintReason.WINS(points=points),)
    elif points:
        found.append(FivesHintReason.SCORES(total=total, points=points))
    else:
        found.append(FivesHintReason.NO_SCORE(total=total))
    st = position(view)
    following, _ = after(st, play)
    if len(view.hand) == 1 and following.outcome is FivesOutcome.CHIPPED_OUT:
        found.append(FivesHintReason.CHIPS_OUT())
        return tuple(found)
    if reply is not None and reply.points >= EASY:
        found.append(FivesHintReason.GIVES_EASY(seat=reply.seat, tile=str(reply.tile), total=reply.total,
                                                points=reply.points))
        return tuple(found)
    avoided = _avoided(view, play, points)
    if avoided is not None:
        found.append(avoided)
    elif reply is not None:
        found.append(FivesHintReason.SAFE(seat=reply.seat, points=reply.points))
    return tuple(found)


def _avoided(view: FivesView, chosen: Play, points: int) -> FivesReason | None:
    """A play scoring more now that the hint passed over because it gives the next player an easy score."""
    better: list[tuple[int, Play]] = []
    for action in view.legal:
        if isinstance(action, Play) and action != chosen:
            _, scored = play_score(view, action)
            if scored > points:
                better.append((scored, action))
    for scored, action in sorted(better, key=lambda pair: (-pair[0], str(pair[1]))):
        reply = best_reply(view, action)
        if reply is not None and reply.points >= EASY and reply.points >= scored - points:
            return FivesHintReason.AVOIDS(tile=str(action.tile), points=scored, seat=reply.seat,
                                          reply_tile=str(reply.tile), total=reply.total, reply=reply.points)
    return None
