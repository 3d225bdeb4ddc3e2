"""Scoring as the tiles are laid: the ends' total and what it is worth (docs/RULES.md, fives-and-threes).

After every tile, the lead included, the two open ends are added; a double at an
end counts both its halves, and a line of one tile counts that tile's pips (a
double led counts its total once: 3-3 counts 6). A total that is a multiple of 3
scores total / 3, a multiple of 5 total / 5, both add: 15 scores 8.
"""

from __future__ import annotations

#: The largest total a double-six line can show: a double six at each end.
MOST_TOTAL = 24


def points_for(total: int) -> int:
    """What an ends' total of ``total`` scores: total / 3 for a multiple of 3 plus total / 5 for one of 5."""
    return (total // 3 if total % 3 == 0 else 0) + (total // 5 if total % 5 == 0 else 0)


#: points_for of every total a line can show, looked up on the hot path.
POINTS = tuple(points_for(total) for total in range(MOST_TOTAL + 1))


def line_total(line: tuple[tuple[int, int], ...] | list[tuple[int, int]]) -> int:
    """The ends' total of a line of play written left to right as (left, right) pairs.

    A recomputation from the line alone, for checks and for readers of a view:
    an end tile that is a double counts twice.
    """
    if not line:
        return 0
    if len(line) == 1:
        return line[0][0] + line[0][1]
    first, last = line[0], line[-1]
    left = first[0] * (2 if first[0] == first[1] else 1)
    right = last[1] * (2 if last[0] == last[1] else 1)
    return left + right
