"""The Draw family's board in a replay: the line of play, el pozo, every seat's panel beside its hand."""

from __future__ import annotations

from typing import cast

import msgspec
from capicu.core import MatchEnded, RoundEnded, RoundStarted, TilesDrawn, View
from capicu.core.replay import Position
from capicu.tui.screens.replay import ReplayBoard, spectators_view
from capicu.tui.widgets.boneyard_info import BoneyardInfo
from capicu.tui.widgets.event_log import EventLog
from capicu.tui.widgets.line_of_play import LineOfPlay, line_marks
from capicu.tui.widgets.seat_panel import SeatPanel, SeatView
from capicu.tui.words.describe import describe_event, describe_result
from capicu.tui.words.messages import t, tn
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Static


class DrawReplayBoard(ReplayBoard[View]):
    """The line of play with el pozo, the coach and the log beside it; the seats' panels below."""

    WORDED = "SeatPanel, HandView, LineOfPlay, BoneyardInfo"

    def compose_above(self) -> ComposeResult:
        screen = self.screen
        with Horizontal(id="table-middle"):
            yield LineOfPlay(id="line", tile_style=screen.capicu.tile_style, ascii=screen.capicu.ascii_mode)
            with Vertical(id="table-side"):
                yield BoneyardInfo(id="boneyard")
                yield from screen.compose_coach()
                yield EventLog(id="log")
                yield Static("", id="round-end", markup=False)

    def compose_below(self) -> ComposeResult:
        ascii_mode = self.screen.capicu.ascii_mode
        yield from self.screen.compose_hands(
            lambda seat: SeatPanel(id=f"seat-{seat}", classes="seat-slot", ascii=ascii_mode))

    def mounted(self) -> None:
        self.screen.query_one(BoneyardInfo).short = True

    def display_changed(self) -> None:
        app = self.screen.capicu
        for line in self.screen.query(LineOfPlay):
            line.tile_style, line.ascii = app.tile_style, app.ascii_mode
        for panel in self.screen.query(SeatPanel):
            panel.ascii = app.ascii_mode

    def title_parts(self, board: View) -> list[str]:
        return [t("round {round}", round=board.round_number), t("to {target}", target=board.target)]

    def show(self, position: Position) -> None:
        screen, board = self.screen, cast(View, position.board)  # a Draw-family match's position
        names = screen.names
        marks = line_marks(board.events)
        label = names[marks.last_seat] if marks.last_seat is not None else ""
        screen.query_one(LineOfPlay).update_line(
            board.line, board.ends, board.rules.max_pip, lead=marks.lead, last=marks.last, last_label=label,
            blanks=board.blanks or (),
        )
        screen.query_one(BoneyardInfo).update_from_view(board)
        nobody = spectators_view(board)
        for seat in range(screen.players):
            own = position.views[seat]
            pips = sum(tile.pips for tile in own.hand)
            note = tn("{count} pip in hand", "{count} pips in hand", pips)
            if seat in screen.computers:
                note = t("computer") + ", " + tn("{count} pip", "{count} pips", pips)
            info = SeatView.from_view(nobody, seat, names)
            screen.query_one(f"#seat-{seat}", SeatPanel).update_seat(
                msgspec.structs.replace(info, revealed=None, computer=seat in screen.computers, note=note))

    def tell(self, board: View, log: EventLog) -> None:
        for event in board.events:
            log.add_event(event, self.screen.names, None)
        log.end_draws()

    def round_summary(self, board: View) -> str:
        names = self.screen.names
        lines = describe_result(board.results[-1], names, board.rules, board.players, None, hands=False)
        ended = next((e for e in board.events if isinstance(e, MatchEnded)), None)
        if ended is not None:
            lines.append(describe_event(ended, names, None))
        return "\n".join(lines)

    def what_happened(self, position: Position, before: View | None) -> str:
        names = self.screen.names
        previous = before.events[-1] if before is not None and before.events else None
        for event in position.events:
            if isinstance(event, TilesDrawn):
                return describe_event(event, names, None)
            if not isinstance(event, RoundStarted | RoundEnded | MatchEnded):
                return describe_event(event, names, None, lead=isinstance(previous, RoundStarted))
        return ""
