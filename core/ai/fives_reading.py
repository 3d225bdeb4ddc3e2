"""What a Fives and Threes player reads from its view: the position, the unseen tiles, the knocks.

Every computer level asks the same questions of one `FivesRound` rebuilt from
the seat's `FivesView` (its own hand only, the others empty): what a play
scores now (`FivesRound.points_of`, the engine's own answer) and what the best
reply to the ends it leaves would score. What has been knocked tells which
numbers a seat holds none of; with the tiles set aside never drawn, that
lasts the hand.
"""

from __future__ import annotations

from ..actions import End, Play
from ..fives.events import FivesTileDrawn, FivesTilePlayed, Knocked
from ..fives.state import FivesRound
from ..fives.view import FivesView
from ..tiles import Tile, tile_set


def position(view: FivesView) -> FivesRound:
    """The hand at ``view``'s position: the seat's own tiles in its hand, the other hands empty."""
    tiles = tile_set(view.rules.max_pip)
    hands = [0] * view.players
    if view.seat is not None:
        hands[view.seat] = tiles.mask_of(view.hand)
    turn = view.turn if view.turn is not None else 0
    st = FivesRound(tiles, hands, [], turn=turn, drawing=False, partnerships=view.rules.partnerships)
    st.drawable = view.drawable
    line = view.line
    if line and view.ends is not None:
        st.left, st.right = view.ends
        st.left_double = line[0][0] == line[0][1]
        st.right_double = line[-1][0] == line[-1][1]
        st.laid = len(line)
        st.lead_pips = line[0][0] + line[0][1]
    for seat in view.out:
        st.out |= 1 << seat
    return st


def unseen_mask(view: FivesView) -> int:
    """The tiles this seat cannot see: the other hands and the tiles set aside."""
    tiles = tile_set(view.rules.max_pip)
    seen = tiles.mask_of(view.hand)
    for a, b in view.line:
        seen |= 1 << tiles.index[Tile(a, b)]
    return tiles.full_mask & ~seen


def voids(view: FivesView) -> list[int]:
    """For each seat, the numbers it is known to hold none of now, as a mask of numbers.

    A knock says the seat held no tile matching either end. A draw says it too,
    but the tiles drawn after may match, so only knocks are kept (with drawing,
    a seat knocks only once nothing is left to draw: it holds nothing new after).
    """
    lacking = [0] * view.players
    for event in view.events:
        if isinstance(event, Knocked):
            lacking[event.seat] |= 1 << event.left | 1 << event.right
    return lacking


def allowed_for(view: FivesView, seat: int, unseen: int, lacking: int) -> int:
    """The unseen tiles ``seat`` may hold: none showing a number it is known to lack."""
    suit = tile_set(view.rules.max_pip).suit_mask
    mask = unseen
    number = 0
    while lacking:
        if lacking & 1:
            mask &= ~suit[number]
        lacking >>= 1
        number += 1
    return mask


def next_seat(st: FivesRound, seat: int) -> int:
    """The seat that plays after ``seat`` (players who are out are passed over)."""
    players = st.players
    nxt = seat
    for _ in range(players):
        nxt = nxt + 1 if nxt + 1 < players else 0
        if not st.out >> nxt & 1:
            return nxt
    return seat


def after(st: FivesRound, play: Play) -> tuple[FivesRound, int]:
    """The position once the seat on turn lays ``play``, and what it scored."""
    clone = st.copy()
    index = st.tiles.index[play.tile]
    clone.hands[clone.turn] |= 1 << index  # (the seat's tile, held in this rebuilt position)
    points = clone.play(index, play.place is End.RIGHT)
    return clone, points


def reply_points(st: FivesRound, candidates: int) -> list[int]:
    """What each of ``candidates`` would score laid next on ``st``'s ends, best end each, highest first."""
    fitting = candidates & st.fit[st.left][st.right]
    far = st.far
    found: list[int] = []
    left, right = st.left, st.right
    while fitting:
        low = fitting & -fitting
        fitting ^= low
        tile = low.bit_length() - 1
        best = 0
        if left < 0 or far[tile][left] >= 0:
            best = st.points_of(tile, False)
        if left >= 0 and far[tile][right] >= 0:
            best = max(best, st.points_of(tile, True))
        found.append(best)
    found.sort(reverse=True)
    return found


def expected_best(values: list[int], chance: float) -> float:
    """The expected best of ``values`` (highest first) when each is held with probability ``chance``."""
    expected = 0.0
    none_yet = 1.0
    for value in values:
        if not value:
            break
        expected += value * chance * none_yet
        none_yet *= 1.0 - chance
    return expected


def passed_over(view: FivesView) -> list[int]:
    """For each seat, the tiles it likely lacks because it laid a tile scoring less, as a mask.

    A player who lays the tile that scores most (as most do) shows, at each of
    its plays, that it held no tile scoring more there. A tile that would have
    scored more then is unlikely to be in its hand now: the reading of what
    has been played. Only plays since the seat's last draw count (a tile drawn
    after was not held then). Soft knowledge: a player may also have kept a
    tile back on purpose, so the search weighs these tiles down, never out.
    """
    tiles = tile_set(view.rules.max_pip)
    players = view.players
    st = FivesRound(tiles, [0] * players, [], turn=0, drawing=False, partnerships=view.rules.partnerships)
    unlikely = [0] * players
    laid = 0
    for event in view.events:
        if isinstance(event, FivesTileDrawn):
            unlikely[event.seat] = 0
            continue
        if not isinstance(event, FivesTilePlayed):
            continue
        index = tiles.index[event.tile]
        better = 0
        candidates = tiles.full_mask & ~laid & st.fit[st.left][st.right]
        far = st.far
        while candidates:
            low = candidates & -candidates
            candidates ^= low
            tile = low.bit_length() - 1
            if (st.left < 0 or far[tile][st.left] >= 0) and st.points_of(tile, False) > event.points:
                better |= low
                continue
            if st.left >= 0 and far[tile][st.right] >= 0 and st.points_of(tile, True) > event.points:
                better |= low
        unlikely[event.seat] |= better
        laid |= 1 << index
        st.turn = event.seat
        st.hands[event.seat] = tiles.full_mask  # (never empties: only the ends are followed here)
        st.play(index, event.end is End.RIGHT)
    return unlikely


#: How much likelier a tile is in a hand than one the reading of the plays says the seat passed over.
UNLIKELY = 0.05


def expected_reply(st: FivesRound, candidates: int, chance: float, unlikely: int = 0) -> float:
    """The expected best score of a reply on ``st``'s ends by a seat holding each of ``candidates``
    with probability ``chance`` (those in ``unlikely`` with `UNLIKELY` times that)."""
    fitting = candidates & st.fit[st.left][st.right]
    far = st.far
    left, right = st.left, st.right
    found: list[tuple[int, float]] = []
    while fitting:
        low = fitting & -fitting
        fitting ^= low
        tile = low.bit_length() - 1
        best = 0
        if left < 0 or far[tile][left] >= 0:
            best = st.points_of(tile, False)
        if left >= 0 and far[tile][right] >= 0:
            best = max(best, st.points_of(tile, True))
        if best:
            found.append((best, chance * UNLIKELY if unlikely & low else chance))
    found.sort(reverse=True)
    expected = 0.0
    none_yet = 1.0
    for value, held in found:
        expected += value * held * none_yet
        none_yet *= 1.0 - held
    return expected
