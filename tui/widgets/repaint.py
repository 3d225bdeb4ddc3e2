"""Repaint only the cells that changed: SSH players pay for every byte written.

Textual repaints a whole widget on ``refresh()``, but it can repaint just some
regions of it. A widget that keeps the rows it drew last asks `changed_regions`
which cells differ in the new rows and refreshes only those: a tile laid on the
right end then costs the cells of two tiles, not the whole line of play.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rich.text import Text
from textual.geometry import Region
from textual.widget import Widget


def _cell_keys(text: Text) -> list[object]:
    """One comparable value per character: the character and every style on it."""
    plain = text.plain
    keys: list[object] = [(char, text.style) for char in plain]
    for span in text.spans:
        for i in range(max(span.start, 0), min(span.end, len(plain))):
            keys[i] = (keys[i], span.style)
    return keys


#: Unchanged cells between two changed runs of a row below which the runs are
#: repainted as one (each region costs a cursor move and fresh colour codes).
JOIN_GAP = 6


def _row_changes(old: Text, new: Text, y: int, width: int) -> list[Region]:
    if old.plain == new.plain and old.spans == new.spans and old.style == new.style:
        return []
    if old.cell_len != len(old.plain) or new.cell_len != len(new.plain):
        return [Region(0, y, width, 1)]  # wide characters: cells and indexes differ
    a, b = _cell_keys(old), _cell_keys(new)
    longest = max(len(a), len(b))
    a += [None] * (longest - len(a))
    b += [None] * (longest - len(b))
    regions: list[Region] = []
    start = end = -1
    for i in range(longest):
        if a[i] == b[i]:
            continue
        if start >= 0 and i - end <= JOIN_GAP:
            end = i
            continue
        if start >= 0:
            regions.append(Region(start, y, end - start + 1, 1))
        start = end = i
    if start >= 0:
        regions.append(Region(start, y, end - start + 1, 1))
    return regions


def changed_regions(old: Sequence[Text], new: Sequence[Text], width: int) -> list[Region] | None:
    """The regions (in content coordinates) where ``new`` rows differ from ``old``.

    None when the number of rows changed: the widget's height changes, so it
    needs a layout, not a repaint of some cells.
    """
    if len(old) != len(new):
        return None
    regions: list[Region] = []
    for y, (before, after) in enumerate(zip(old, new, strict=True)):
        regions += _row_changes(before, after, y, width)
    return regions


def laid_out(widget: Widget) -> bool:
    """Whether ``widget`` has its size yet (until then nothing of it is on screen)."""
    return widget.is_mounted and widget.content_size.width > 0


def repaint_changes(
    widget: Widget,
    painted: list[Text],
    make_rows: Callable[[int], list[Text]],
    fixed_height: int | None = None,
) -> list[Text]:
    """Refresh the cells of ``widget`` where its rows now differ from the ``painted`` ones.

    Returns the rows now on screen. The rows are made (by ``make_rows``, given
    the width) only once the widget is laid out: before that its first layout
    draws it whole, and at start, before the table's first draw, making them was
    done a dozen times for nothing. A change in the number of rows asks for a
    layout instead, since the widget's height changes; unless the widget has a
    ``fixed_height`` that holds both, when the rows are compared as if padded
    with blank ones.
    """
    if not laid_out(widget):
        widget.refresh(layout=True)
        return painted
    width = widget.content_size.width
    rows = made = make_rows(width)
    if fixed_height is not None and max(len(painted), len(rows)) <= fixed_height:
        blank = [Text(end="")] * fixed_height
        painted = [*painted, *blank[len(painted):]]
        rows = [*rows, *blank[len(rows):]]
    regions = changed_regions(painted, rows, width)
    if regions is None:
        widget.refresh(layout=True)
    elif regions:
        widget.refresh(*regions)
    return made
