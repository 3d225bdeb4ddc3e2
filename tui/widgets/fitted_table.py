"""`fill_fitted`: a `DataTable` remade with its rows, each column as wide as its widest cell.

The lobbies list who is there (the table's seats, the club's entrants) and remake the list at each
change, so that its columns fit the names; the widths are set here, not left to Textual's measuring::

    fill_fitted(table, (t("#"), t("Name")), [("1", "Eva (tú)"), ("2", "Beto")])
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.cells import cell_len
from textual.widgets import DataTable


def fill_fitted(table: DataTable[str], headings: Sequence[str], rows: Sequence[Sequence[str]]) -> None:
    """Remake ``table``: ``headings``, then ``rows``, each column as wide as its heading or widest cell.

    Textual measures a column left to it (no width) only when the table is next idle, and a paint
    before then keeps the rows cut to the headings' widths ("Eva (t", "conectad") until the next change.
    """
    table.clear(columns=True)
    for column, heading in enumerate(headings):
        table.add_column(heading, width=max([cell_len(heading), *(cell_len(row[column]) for row in rows)]))
    for row in rows:
        table.add_row(*row)


__all__ = ["fill_fitted"]
