"""A turn of Mexican Train built on a player's screen before it is sent: the view as it will be.

A player who lays a double keeps the turn (docs/RULES.md, mexican-train,
*Doubles*): another double anywhere they may play, or a tile that is not a
double on the oldest open double, which ends the turn. A client may lay such a
turn on its own screen first, so that the player sees every double where it
goes and may take the last one back, and send it once it ends (each tile an
ordinary ``play``, in order: docs/PROTOCOL.md, "A turn of two doubles").

`view_after` answers what the screen shows meanwhile, with the engine's own
rules: the seat's round is set up from its view on the engine's `MexicanRound`
(the other hands and the boneyard are placeholders: the seat on turn's choices
never depend on them), the plays laid so far are played on it, and the view
that comes out says where the trains stand, which doubles are open (oldest
first), whose turn it is and what may come next (``legal``), as the host's next
views will. A play that is not allowed is refused with the engine's reason
(`why_not_mexican`), so the screen never decides a rule of its own.
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from ..actions import MEXICAN, Play, Train
from ..tiles import tile_set
from .match import actions_of, play_table
from .refusals import why_not_mexican
from .state import MexicanRound
from .view import MexicanView, TrainLine


def _round_of(view: MexicanView) -> MexicanRound:
    """The round as ``view``'s seat, on turn, sees it: its own hand, the layout, where its turn stands."""
    assert view.seat is not None and view.turn == view.seat
    rules = view.rules
    tiles = tile_set(rules.max_pip)
    hands = [0] * view.players
    hands[view.seat] = tiles.mask_of(view.hand)
    state = MexicanRound(
        tiles, view.engine.high, hands, [0] * view.boneyard, turn=view.turn,
        opening_run=rules.opening_run, cover_doubles=rules.cover_doubles,
        one_double=rules.one_double_a_turn, mexican_needs_own=rules.mexican_needs_own_train,
    )
    state.heads = [line.head for line in view.trains]
    state.lengths = [len(line.tiles) for line in view.trains]
    state.markers = [line.marker for line in view.trains]
    state.open_doubles = [_index(train, view.players) for train in view.open_doubles]
    state.first_turn[view.seat] = view.first_turn
    state.running = view.running
    state.doubling = view.doubling
    if view.drawn is not None:
        state.drew = True
        state.drawn = tiles.index[view.drawn]
    return state


def _index(train: Train, players: int) -> int:
    return players if train.is_mexican else train.owner


def view_after(view: MexicanView, laid: Sequence[Play]) -> MexicanView:
    """``view`` (a seat's, on its turn) with ``laid`` played in order, as the engine would leave it.

    Raises the engine's `IllegalAction` for the first play that may not be laid
    where it stands. Once a play ends the turn (a tile that is not a double, or
    the last tile in hand) the view's ``turn`` is the next seat's, or None when
    the round is over, and its ``legal`` is empty.
    """
    if not laid:
        return view
    players = view.players
    state = _round_of(view)
    plays = play_table(view.rules.max_pip, players)
    lines = [list(line.tiles) for line in view.trains]
    shown = view
    for play in laid:
        refused = why_not_mexican(shown, play)
        if refused is not None:
            raise refused
        assert isinstance(play.place, Train)
        train = _index(play.place, players)
        before = state.heads[train]
        state.play(tile_set(view.rules.max_pip).index[play.tile], train)
        lines[train].append((before, state.heads[train]))
        shown = _view_of(view, state, lines, plays)
    return shown


def _view_of(view: MexicanView, state: MexicanRound, lines: list[list[tuple[int, int]]],
             plays: tuple[tuple[Play, ...], ...]) -> MexicanView:
    seat = view.seat
    assert seat is not None
    tiles = tile_set(view.rules.max_pip)
    acting = state.outcome is None
    mine = acting and state.turn == seat
    trains = tuple(
        TrainLine(Train(t) if t < view.players else MEXICAN, tuple(line), state.heads[t], state.markers[t])
        for t, line in enumerate(lines)
    )
    counts = list(view.hand_counts)
    counts[seat] = state.hands[seat].bit_count()
    return msgspec.structs.replace(
        view,
        hand=tiles.tiles_in(state.hands[seat]),
        trains=trains,
        open_doubles=tuple(trains[t].train for t in state.open_doubles),
        hand_counts=tuple(counts),
        turn=state.turn if acting else None,
        first_turn=mine and state.first_turn[seat],
        may_run=mine and state.first_turn[seat] and not state.drew and not state.running
        and not state.open_doubles,
        running=mine and state.running,
        doubling=mine and state.doubling,
        drawn=tiles.tiles[state.drawn] if mine and state.drew else None,
        legal=actions_of(state, plays) if mine else (),
    )


__all__ = ["view_after"]
