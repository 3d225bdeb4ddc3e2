"""The club night's standings: one row an entrant, best first, with who met whom.

Fed by the host's standings (`ClubStandings`' rows, which core/club's `Standing`
values become on the wire): the widget sorts nothing and counts nothing, it shows
the order and the figures it is given. Opponents and partners are named by their
place in these standings, as a tournament's crosstable names them, so that every
row fits 80 columns; the columns a night does not need (Buchholz outside Swiss,
partners outside rotating partners, byes and computer seats when there are none)
are left out.
"""

from __future__ import annotations

from collections.abc import Sequence

from capicu.net.protocol import NAME_LIMIT, StandingRow
from capicu.tui.words.describe import display_text
from capicu.tui.words.describe_club import signed, standings_columns
from rich.text import Text
from textual.widgets import DataTable

#: The widest a name shows in the standings (the rest of the row needs the other columns).
NAME_WIDTH = 16


class StandingsTable(DataTable[Text]):
    """The standings as a table; `show` fills it (again) from the host's rows."""

    DEFAULT_CSS = """
    StandingsTable {
        height: auto;
        max-height: 100%;
    }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, cursor_type="row", zebra_stripes=True)
        self.rows_shown: tuple[StandingRow, ...] = ()
        self.keys: list[str] = []

    def show(self, rows: Sequence[StandingRow], format: str, you: int | None = None) -> None:
        """Fill the table with ``rows`` (best first), for a night of ``format``; ``you`` marked."""
        self.rows_shown = tuple(rows)
        place = {row.entrant: number for number, row in enumerate(rows, start=1)}
        columns = standings_columns(format, any(row.byes for row in rows),
                                    any(row.computer_seats for row in rows))
        self.keys = [key for key, _ in columns]
        cursor = self.cursor_row
        self.clear(columns=True)
        right = {"place", "played", "won", "difference", "buchholz", "byes", "computers"}
        # Widths set, not measured: the table is remade at every change and must not jump about; the
        # opponents (and partners) take what 80 columns leave.
        widths = {"place": 3, "name": NAME_WIDTH, "difference": 5}
        fixed = sum(max(widths.get(key, 3), len(heading)) + 2 for key, heading in columns
                    if key not in ("opponents", "partners"))
        lists = [key for key, _ in columns if key in ("opponents", "partners")]
        for key in lists:
            widths[key] = max(8, (76 - fixed) // len(lists) - 2)
        for key, heading in columns:
            self.add_column(Text(heading, justify="right" if key in right else "left"), key=key,
                            width=max(widths.get(key, 3), len(heading)))
        for number, row in enumerate(rows, start=1):
            cells = {
                "place": str(number),
                "name": _short(display_text(row.name, NAME_LIMIT)),
                "played": str(row.played),
                "won": str(row.won),
                "difference": signed(row.difference),
                "buchholz": str(row.buchholz),
                "byes": str(row.byes),
                "computers": str(row.computer_seats),
                "partners": " ".join(str(place[p]) for p in row.partners if p in place),
                "opponents": " ".join(str(place[o]) for o in row.opponents if o in place),
            }
            style = "bold" if row.entrant == you else ""
            self.add_row(*(Text(cells[key], style=style, justify="right" if key in right else "left")
                           for key in self.keys), key=str(row.entrant))
        if rows:
            self.move_cursor(row=min(max(cursor, 0), len(rows) - 1))


def _short(name: str) -> str:
    """A name cut to `NAME_WIDTH`, with an ellipsis that says it was cut."""
    return name if len(name) <= NAME_WIDTH else name[: NAME_WIDTH - 1] + "…"
