"""Fives and Threes' board in a replay: the line and its ends' total, the pegging board, every seat."""

from __future__ import annotations

from functools import partial
from typing import cast

import msgspec
from capicu.core.fives.events import (
    FivesEvent,
    FivesMatchEnded,
    FivesRoundEnded,
    FivesRoundStarted,
    FivesTilePlayed,
)
from capicu.core.fives.view import FivesView
from capicu.core.replay import Position
from capicu.tui.screens.fives_table import (
    ends_words,
    fives_marks,
    fives_seat_view,
    last_play,
    pegging_tracks,
)
from capicu.tui.screens.replay import ReplayBoard, spectators_view
from capicu.tui.widgets.event_log import EventLog
from capicu.tui.widgets.line_of_play import LineOfPlay
from capicu.tui.widgets.pegging_board import PeggingBoard
from capicu.tui.widgets.seat_panel import SeatPanel
from capicu.tui.words.describe_fives import (
    describe_fives_event,
    describe_fives_summary,
    fives_side,
    score_words,
)
from capicu.tui.words.messages import t, tn
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Static


class FivesReplayBoard(ReplayBoard[FivesView]):
    """The line with its total, the coach and the log beside it; the pegging board; the seats below."""

    WORDED = "SeatPanel, HandView, LineOfPlay, PeggingBoard"

    def compose_above(self) -> ComposeResult:
        screen = self.screen
        with Horizontal(id="table-middle"):
            yield LineOfPlay(id="line", tile_style=screen.capicu.tile_style, ascii=screen.capicu.ascii_mode)
            with Vertical(id="table-side"):
                yield Static("", id="fives-total", markup=False)
                yield from screen.compose_coach()
                yield EventLog(id="log")
                yield Static("", id="round-end", markup=False)
        yield PeggingBoard(id="pegging", ascii=screen.capicu.ascii_mode)

    def compose_below(self) -> ComposeResult:
        ascii_mode = self.screen.capicu.ascii_mode
        yield from self.screen.compose_hands(
            lambda seat: SeatPanel(id=f"seat-{seat}", classes="seat-slot", ascii=ascii_mode))

    def display_changed(self) -> None:
        app = self.screen.capicu
        for line in self.screen.query(LineOfPlay):
            line.tile_style, line.ascii = app.tile_style, app.ascii_mode
        for panel in self.screen.query(SeatPanel):
            panel.ascii = app.ascii_mode
        for board in self.screen.query(PeggingBoard):
            board.ascii = app.ascii_mode

    def title_parts(self, board: FivesView) -> list[str]:
        return [t("hand {round}", round=board.round_number), t("to {target}", target=board.target)]

    def show(self, position: Position) -> None:
        screen, board = self.screen, cast(FivesView, position.board)  # a Fives and Threes match's position
        names = screen.names
        marks = fives_marks(board.events)
        played = last_play(board)
        label = names[marks.last_seat] if marks.last_seat is not None else ""
        note = score_words(played.total, played.points, played.scored, board.target) if played else ""
        screen.query_one(LineOfPlay).update_line(board.line, board.ends, board.rules.max_pip, lead=marks.lead,
                                                 last=marks.last, last_label=label, last_note=note)
        screen.query_one("#fives-total", Static).update(ends_words(board))
        labels = [fives_side(side, board.rules, board.players, names, None)
                  for side in range(len(board.scores))]
        screen.query_one(PeggingBoard).update_board(pegging_tracks(board, labels, None), board.target)
        nobody = spectators_view(board)
        for seat in range(screen.players):
            own = position.views[seat]
            note = tn("{count} tile in hand", "{count} tiles in hand", len(own.hand))
            if seat in screen.computers:
                note = t("computer")
            info = fives_seat_view(nobody, seat, names)
            screen.query_one(f"#seat-{seat}", SeatPanel).update_seat(
                msgspec.structs.replace(info, computer=seat in screen.computers, note=note))

    def _say(self, board: FivesView, event: FivesEvent, lead: bool) -> str:
        return describe_fives_event(event, self.screen.names, None, rules=board.rules, players=board.players,
                                    target=board.target, lead=lead)

    def tell(self, board: FivesView, log: EventLog) -> None:
        previous: FivesEvent | None = None
        for event in board.events:
            lead = isinstance(previous, FivesRoundStarted)
            previous = event
            log.add_line(partial(self._say, board, event, lead))

    def round_summary(self, board: FivesView) -> str:
        return describe_fives_summary(board, self.screen.names, None)

    def what_happened(self, position: Position, before: FivesView | None) -> str:
        board = cast(FivesView, position.board)
        previous = before.events[-1] if before is not None and before.events else None
        for event in position.events:
            if not isinstance(event, FivesRoundStarted | FivesRoundEnded | FivesMatchEnded):
                lead = isinstance(event, FivesTilePlayed) and isinstance(previous, FivesRoundStarted)
                return self._say(board, event, lead)
        return ""
