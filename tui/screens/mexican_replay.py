"""Mexican Train's board in a replay: the lanes, then every hand the whole width, the log below."""

from __future__ import annotations

from typing import cast

from capicu.core import MexicanView, Play
from capicu.core.actions import Train
from capicu.core.replay import Position
from capicu.tui.screens.replay import ReplayBoard, spectators_view
from capicu.tui.widgets.event_log import EventLog
from capicu.tui.widgets.train_lanes import NAME_WIDTH, TrainLanes, engine_laid_by, lanes_from_view
from capicu.tui.words.describe import seat_name
from capicu.tui.words.describe_trains import (
    describe_train_result,
    describe_train_winners,
    train_news_lines,
    untold_lines,
)
from capicu.tui.words.messages import t
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Static

#: The rows Mexican Train's log keeps at least, below the hands.
LOG_ROWS = 4


class MexicanReplayBoard(ReplayBoard[MexicanView]):
    """The lanes; the hands the whole width (a Mexican Train hand is long), the log below them."""

    WORDED = "HandView, TrainLanes"
    MARKS_ONLY_THE_NEXT_TILE = True

    def compose_above(self) -> ComposeResult:
        screen = self.screen
        yield TrainLanes(id="lanes", ascii=screen.capicu.ascii_mode)
        yield from screen.compose_hands(
            lambda seat: Static("", classes="replay-name", id=f"name-{seat}", markup=False))
        with Vertical(id="replay-side"):
            yield from screen.compose_coach()
            yield EventLog(id="log")
            yield Static("", id="round-end", markup=False)

    def fit(self, width: int, height: int) -> None:
        # The hands take what the title, the lanes, the status line, the keys and a few
        # lines of log leave (they scroll beyond it, the seat on turn kept in view).
        lanes = self.screen.players + 2
        self.screen.query_one("#replay-hands").styles.max_height = max(2, height - lanes - 3 - LOG_ROWS)

    def display_changed(self) -> None:
        for lanes in self.screen.query(TrainLanes):
            lanes.ascii = self.screen.capicu.ascii_mode

    def title_parts(self, board: MexicanView) -> list[str]:
        return [t("round {round} of {rounds}", round=board.round_number, rounds=board.rounds)]

    def show(self, position: Position) -> None:
        screen, board = self.screen, cast(MexicanView, position.board)  # a Mexican Train match's position
        nobody = spectators_view(board)
        over = board.turn is None and bool(board.results)
        counts = board.results[-1].counts if over else None
        playable: frozenset[Train] = frozenset()
        if board.turn is not None:
            own = position.views[board.turn]
            playable = frozenset(action.place for action in own.legal
                                 if isinstance(action, Play) and isinstance(action.place, Train))
        lanes = screen.query_one(TrainLanes)
        coming = screen.next_action()
        chosen = coming.action.place if coming is not None and isinstance(coming.action, Play) else None
        lanes.chosen = chosen if isinstance(chosen, Train) else None
        shown = lanes_from_view(nobody, screen.names, playable=playable, counts=counts)
        by = engine_laid_by(board.engine_holder, screen.names, None, set_aside=board.rules.engine_set_aside)
        lanes.update_lanes(shown, board.engine, by)
        for seat in range(screen.players):
            marker = ">" if screen.capicu.ascii_mode else "▶"
            turn = marker if board.turn == seat else " "
            name = f"{turn}{seat_name(screen.names, seat)}"[: NAME_WIDTH + 1]
            screen.query_one(f"#name-{seat}", Static).update(name)
            screen.query_one(f"#replay-seat-{seat}").set_class(board.turn == seat, "-turn")

    def tell(self, board: MexicanView, log: EventLog) -> None:
        names = self.screen.names
        lines, untold = train_news_lines(board.events, None, board, names, None)
        for line in lines + untold_lines(untold, names, None):
            log.add_notice(line)

    def round_summary(self, board: MexicanView) -> str:
        names = self.screen.names
        head, *seats = describe_train_result(board.results[-1], names, None)
        text = head + "\n" + "   ".join(seats)
        if board.winners is not None:
            text += "\n" + describe_train_winners(board.winners, board.totals, names, None)
        return text

    def what_happened(self, position: Position, before: MexicanView | None) -> str:
        board = cast(MexicanView, position.board)
        names = self.screen.names
        earlier = before if before is not None and before.round_number == board.round_number else None
        lines, untold = train_news_lines(position.events, earlier, board, names, None)
        lines += untold_lines(untold, names, None)
        return lines[0]() if lines else ""
