"""The list of the player's recorded matches, newest first: Enter opens one in the replay.

Each row says when the match was played, which game, who played and who won
(read from the records net/store/record.py keeps in the user data folder). A file
that cannot be read is listed as damaged, with the record's own sentence, and
does not open.
"""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from capicu.core.replay import replay
from capicu.net.store.record import MatchRecord, RecordError, list_records
from capicu.tui.prefs.settings import records_dir
from capicu.tui.screens.base import SCREENS_CSS, CapicuScreen
from capicu.tui.screens.replay import ReplayScreen
from capicu.tui.words.describe import and_list, display_text, list_separator, played_at
from capicu.tui.words.describe_rules import game_title
from capicu.tui.words.messages import N_, t
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import DataTable, Footer, Static


def replay_screen(record: MatchRecord, path: Path | None = None) -> ReplayScreen:
    """The replay of ``record`` (read from ``path``, where the coach keeps its analysis beside it)."""
    computers = {seat for seat, sitter in enumerate(record.seats) if sitter.kind == "computer"}
    return ReplayScreen(replay(record.match_log()), record.names, computers=computers, record=path,
                        when=played_at(record))


class ReplaysScreen(CapicuScreen[None]):
    """The recorded matches, newest first (see the module docstring)."""

    CSS_PATH = SCREENS_CSS

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "open", N_("Replay"), show=True),
        Binding("escape,q", "close", N_("Close"), key_display="q"),
    ]

    def __init__(self, folder: Path | None = None) -> None:
        super().__init__()
        self.folder = folder if folder is not None else records_dir()
        #: Each row's record and file, or the sentence that says why its file cannot be read.
        self.rows: list[tuple[Path, MatchRecord | str]] = []

    def compose(self) -> ComposeResult:
        with Vertical(id="replays-box"):
            yield Static(t("Recorded matches, newest first: Enter replays one."), classes="screen-title")
            yield DataTable(id="replays", cursor_type="row", zebra_stripes=False)
            # A damaged file's whole reason, while its row is chosen (its column cuts it at 80).
            yield Static("", id="replays-why", classes="hint", markup=False)
            yield Static("", id="replays-empty", classes="hint")
        yield Footer()

    def on_mount(self) -> None:
        self.load()

    def load(self) -> None:
        """Read the folder of records again and list them (damaged files last, as damaged)."""
        problems: list[tuple[Path, RecordError]] = []
        found = list_records(self.folder, on_problem=lambda path, error: problems.append((path, error)))
        self.rows = [(path, record) for path, record in found]
        self.rows += [(path, _without_path(str(error), path)) for path, error in problems]
        table = self.query_one(DataTable)
        table.clear(columns=True)
        table.add_columns(t("When"), t("Game"), t("Winner"), t("Players"))
        for index, (path, entry) in enumerate(self.rows):
            if isinstance(entry, str):
                table.add_row(path.stem[:16], t("damaged"), "", display_text(entry, 200), key=str(index))
            else:
                players = list_separator().join(display_text(name, 40) for name in entry.names)
                winners = and_list([display_text(name, 40) for name in entry.winner_names])
                table.add_row(played_at(entry), game_title(entry.preset), winners, players, key=str(index))
        empty = self.query_one("#replays-empty", Static)
        empty.display = not self.rows
        empty.update(t("No recorded matches yet: every match you finish is kept, to replay here."))
        table.display = bool(self.rows)
        if self.rows:
            table.focus()

    def language_changed(self) -> None:
        self.call_later(self._again)

    async def _again(self) -> None:
        await self.recompose()
        self.load()

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        why = self.query_one("#replays-why", Static)
        index = event.cursor_row
        entry = self.rows[index][1] if 0 <= index < len(self.rows) else None
        why.display = isinstance(entry, str)
        if isinstance(entry, str):
            why.update(t("{file} cannot be replayed: {reason}", file=self.rows[index][0].name,
                         reason=display_text(entry, 400)))

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        self.open_row(event.cursor_row)

    def action_open(self) -> None:
        self.open_row(self.query_one(DataTable).cursor_row)

    def open_row(self, index: int) -> None:
        """Replay the match of row ``index``; a damaged file says why it does not open."""
        if not 0 <= index < len(self.rows):
            return
        path, entry = self.rows[index]
        if isinstance(entry, str):
            self.notify(t("{file} cannot be replayed: {reason}", file=path.name, reason=entry),
                        severity="warning", timeout=8)
            return
        self.app.push_screen(replay_screen(entry, path))

    def action_close(self) -> None:
        if self.capicu.start_request is not None and len(self.app.screen_stack) <= 2:
            self.app.exit()  # opened from the shell: closing it ends the program
        else:
            self.dismiss()


def _without_path(sentence: str, path: Path) -> str:
    """The record's sentence without the file's path in front (the row names the file)."""
    prefix = f"{path}: "
    return sentence[len(prefix):] if sentence.startswith(prefix) else sentence
