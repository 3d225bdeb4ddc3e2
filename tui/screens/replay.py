"""A finished match, looked back at: the table at any position, every hand face up.

The positions come from core (`capicu.core.replay`: each seat's own view after
each entry of the match's log); this screen only shows one of them with the
table's own widgets, as the table would have shown it to everyone at once: the
game's board (`ReplayBoard`, each game's own: the Draw family's line of play in
tui/screens/draw_replay.py, Mexican Train's lanes in mexican_replay.py), every
seat's hand with its name and whose turn, the log of the round up to the
position in the table's words, and a status line that says where we are
("Round 3, move 12 of 40: Ana plays 6-4 on the left."). ← → step move by move,
Home/End go to the first and last position, PgUp/PgDn by round.

The seat on turn has the tiles it may play lit (the engine's legal actions in
its own view), and the tile it chooses next marked under it, so a reader sees
what was possible and what was done.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import ClassVar, Generic, TypeVar, cast

import msgspec
from capicu.core import Play
from capicu.core.ai.coach import Analysis, Cancelled, CoachBudget, Decision, analyse
from capicu.core.replay import AnyView, Position, Replay
from capicu.net.protocol import GameView
from capicu.net.store.coach_store import load_analysis, save_analysis
from capicu.tui.games import face_of
from capicu.tui.screens.base import SCREENS_CSS, CapicuScreen
from capicu.tui.screens.coach import CoachSeatScreen, CoachSummaryScreen
from capicu.tui.screens.table import too_small
from capicu.tui.widgets.event_log import EventLog
from capicu.tui.widgets.hand_view import HandView
from capicu.tui.widgets.quiet_footer import QuietFooter
from capicu.tui.widgets.status_line import StatusLine
from capicu.tui.widgets.tiles import TileStyle
from capicu.tui.words.describe import display_text
from capicu.tui.words.describe_coach import describe_choices, describe_decision, points
from capicu.tui.words.describe_rules import game_title
from capicu.tui.words.messages import N_, t, tn
from textual import events, work
from textual.app import ComposeResult
from textual.binding import ActiveBinding, Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.content import Content
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import ProgressBar, Static
from textual.worker import get_current_worker

#: The footer's "←→" in ASCII mode.
ASCII_ARROWS = "<-/->"

#: The view of the game replayed.
ViewT = TypeVar("ViewT", bound=GameView)


def spectators_view(view: ViewT) -> ViewT:
    """``view`` as nobody's: no seat is "you", no hand is the reader's."""
    struct = cast(msgspec.Struct, view)  # every game's view is a msgspec Struct (core/games.py)
    return cast("ViewT", msgspec.structs.replace(struct, seat=None, hand=(), legal=()))


class ReplayBoard(Generic[ViewT]):
    """A game's part of the replay: its board, and its words for the log, a round's end and a move.

    Each game gives its own (`tui.games.GameFace.replay_board`); the `ReplayScreen` holds the rest.
    """

    #: The widgets that word themselves (refreshed when the language changes), as a selector.
    WORDED: ClassVar[str] = "HandView"
    #: Each hand marks its next tile in a row of its own (the Mexican hands mark nothing else).
    MARKS_ONLY_THE_NEXT_TILE: ClassVar[bool] = False

    def __init__(self, screen: ReplayScreen) -> None:
        self.screen = screen

    def compose_above(self) -> ComposeResult:
        """The board, the coach and the log: above the status line."""
        yield from ()

    def compose_below(self) -> ComposeResult:
        """What goes below the status line (the hands, when they are not above it)."""
        yield from ()

    def mounted(self) -> None:
        """The screen is mounted: set what its widgets need first."""

    def fit(self, width: int, height: int) -> None:
        """Lay the board out for a window of ``width`` x ``height``."""

    def display_changed(self) -> None:
        """The App's tile style or ASCII mode changed: the board's widgets follow."""

    def title_parts(self, board: ViewT) -> list[str]:
        """What the title says of the match after the game's name: the round, the target."""
        return []

    def show(self, position: Position) -> None:
        """Show the board of ``position`` (and the seats beside it)."""

    def tell(self, board: ViewT, log: EventLog) -> None:
        """Tell the round up to ``board`` in the log, in the table's words."""

    def round_summary(self, board: ViewT) -> str:
        """The summary of the round that ended at ``board``."""
        return ""

    def what_happened(self, position: Position, before: ViewT | None) -> str:
        """The move of ``position`` in the log's words (its first sentence); ``before``: the board before."""
        return ""


class ReplayScreen(CapicuScreen[None]):
    """One finished match, position by position (see the module docstring)."""

    CSS_PATH = SCREENS_CSS

    AUTO_FOCUS = ""

    BINDINGS: ClassVar[list[BindingType]] = [
        # Each pair shown once in the footer, so that the keys fit 80 columns in every language.
        Binding("left", "step(-1)", N_("Move"), key_display="←→"),
        Binding("right", "step(1)", N_("Next move"), show=False),
        Binding("pageup", "round_step(-1)", N_("Round"), key_display="PgUp/PgDn"),
        Binding("pagedown", "round_step(1)", N_("Next round"), show=False),
        # Not in the footer (80 columns hold the others): the keys panel lists them.
        Binding("home", "go_to(0)", N_("First position"), show=False),
        Binding("end", "go_to(-1)", N_("Last position"), show=False),
        Binding("c", "coach", N_("Coach")),
        Binding("s", "summary", N_("Summary")),
        # In the footer once a player is coached (the status line names it: "f: the next one").
        Binding("f", "next_flagged", N_("Next flagged")),
        # While the coach works, Esc stops it (and only that).
        Binding("escape", "stop_coach", N_("Stop the coach"), key_display="esc", priority=True),
        Binding("escape,q", "close", N_("Close"), key_display="q"),
    ]

    @dataclass
    class CoachProgress(Message):
        """The coach's worker has judged ``done`` of ``total`` decisions."""

        done: int
        total: int

    @dataclass
    class CoachDone(Message):
        """The coach's worker ended: its analysis, or None when it was stopped."""

        seat: int
        analysis: Analysis | None

    #: The index of the position shown, in `Replay.positions`.
    position: reactive[int] = reactive(0, init=False)

    def __init__(self, replay: Replay, names: Sequence[str], *, computers: Collection[int] = (),
                 record: Path | None = None, when: str = "", coach_budget: CoachBudget | None = None) -> None:
        super().__init__()
        #: How much the coach searches (None: the coach's own default; the tests ask for less).
        self.coach_budget = coach_budget
        #: The analyses made (or read) this time, by seat, and the one shown.
        self.analyses: dict[int, Analysis] = {}
        self.coached: Analysis | None = None
        #: The seat the coach is working on now (None: it is not working).
        self.coaching: int | None = None
        self.replay = replay
        self.names = [display_text(name, 40) or t("seat {number}", number=seat + 1)
                      for seat, name in enumerate(names)]
        while len(self.names) < self.players:
            self.names.append(t("seat {number}", number=len(self.names) + 1))
        self.computers = frozenset(computers)
        #: The record file this match was read from (where the coach keeps its analysis).
        self.record = record
        #: When the match was played, as the list of replays words it ("" when unknown).
        self.when = when
        first = replay.positions[0].board
        #: The game's own part: its board and its words (`tui.games`).
        self.board: ReplayBoard[AnyView] = face_of(first.rules).replay_board()(self)
        self._starts = replay.round_starts()
        self._shown_round = -1
        self._ready = False

    @property
    def players(self) -> int:
        return self.replay.positions[0].board.players

    @property
    def shown(self) -> Position:
        """The position on the screen."""
        return self.replay.positions[self.position]

    # -- layout --------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Static("", id="table-title")
        yield from self.board.compose_above()
        with Horizontal(id="coach-progress"):
            yield Static("", id="coach-progress-label", markup=False)
            # Its bar is not ASCII.
            yield ProgressBar(id="coach-bar", show_eta=False, show_bar=not self.capicu.ascii_mode)
        # The coach's sentences are long: they wrap to a second row rather than lose their end.
        yield StatusLine(id="table-status", wraps=True)
        yield from self.board.compose_below()
        yield Static("", id="too-small")
        yield QuietFooter()

    def compose_hands(self, seat_widget: Callable[[int], Widget]) -> ComposeResult:
        """Every seat's row: ``seat_widget`` (its name, its panel), then its hand face up."""
        hands, ascii_mode = self.hand_style(), self.capicu.ascii_mode
        with VerticalScroll(id="replay-hands"):
            for seat in range(self.players):
                with Horizontal(classes="replay-seat", id=f"replay-seat-{seat}"):
                    yield seat_widget(seat)
                    yield self._hand(seat, hands, ascii_mode)

    def hand_style(self) -> TileStyle:
        """How the hands are drawn: as asked, but never the large pip faces ``auto`` picks on a big
        screen (two to eight hands at once: compact, all of them readable)."""
        style = self.capicu.tile_style
        return TileStyle.COMPACT if style is TileStyle.AUTO else style

    @staticmethod
    def compose_coach() -> ComposeResult:
        """The coach's marks and words (in the log's place while a player is coached)."""
        yield Static("", id="coach-marks")
        yield Static("", id="coach", markup=False)

    @staticmethod
    def _hand(seat: int, style: TileStyle, ascii_mode: bool) -> HandView:
        hand = HandView(id=f"hand-{seat}", classes="replay-hand", tile_style=style, ascii=ascii_mode)
        hand.can_focus = False
        return hand

    def on_mount(self) -> None:
        self._ready = True
        self.board.mounted()
        self._fit(self.app.size.width, self.app.size.height)
        self._show()

    def on_resize(self, event: events.Resize) -> None:
        self._fit(event.size.width, event.size.height)

    def _fit(self, width: int, height: int) -> None:
        """Below the table's smallest size, say so rather than draw a garbled table."""
        small = too_small(width, height)
        self.set_class(small is not None, "-too-small")
        self.board.fit(width, height)
        if small is not None:
            self.query_one("#too-small", Static).update(small)

    # -- moving ----------------------------------------------------------------------

    def validate_position(self, value: int) -> int:
        return max(0, min(value, len(self.replay.positions) - 1))

    def watch_position(self) -> None:
        if self._ready:
            self._show()

    def action_step(self, step: int) -> None:
        self.position += step

    def action_go_to(self, index: int) -> None:
        self.position = index if index >= 0 else len(self.replay.positions) + index

    def action_round_step(self, step: int) -> None:
        """PgDn: the next round's deal; PgUp: this round's deal, or the one before when already there."""
        here = self.position
        if step > 0:
            later_starts = [start for start in self._starts if start > here]
            self.position = later_starts[0] if later_starts else len(self.replay.positions) - 1
        else:
            earlier = [start for start in self._starts if start < here]
            self.position = earlier[-1] if earlier else 0

    def action_close(self) -> None:
        self.workers.cancel_group(self, "coach")
        if self.capicu.start_request is not None and len(self.app.screen_stack) <= 2:
            self.app.exit()  # opened from the shell: closing it ends the program
        else:
            self.dismiss()

    def language_changed(self) -> None:
        self._shown_round = -1
        self._fit(self.app.size.width, self.app.size.height)
        for widget in self.query(self.board.WORDED):
            widget.refresh(layout=True)
        self._show()
        self.refresh_bindings()

    def display_changed(self) -> None:
        app = self.capicu
        for hand in self.query(HandView):
            hand.tile_style, hand.ascii = self.hand_style(), app.ascii_mode
        self.board.display_changed()

    @property
    def active_bindings(self) -> dict[str, ActiveBinding]:
        """The keys as the footer shows them; in ASCII mode the pair of arrows as ``<-/->``."""
        active = super().active_bindings
        if not self.capicu.ascii_mode:
            return active
        return {key: shown._replace(binding=replace(shown.binding, key_display=ASCII_ARROWS))
                if shown.binding.key_display == "←→" else shown for key, shown in active.items()}

    # -- the coach ----------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "stop_coach":
            return self.coaching is not None
        if action in ("summary", "next_flagged"):
            return self.coached is not None
        return True

    def action_coach(self) -> None:
        """Choose the player to coach, then show their analysis (made now, or kept from before)."""

        def chosen(seat: int | None) -> None:
            if seat is not None and seat < 0:
                self.coach_off()
            elif seat is not None:
                self.coach(seat)

        kept = frozenset(seat for seat in range(self.players) if self._kept_analysis(seat) is not None)
        self.app.push_screen(CoachSeatScreen(self.names, analysed=kept), chosen)

    def coach_off(self) -> None:
        """No coach: the log again in its place."""
        self.coached = None
        self.remove_class("-coached")
        self.refresh_bindings()

    def coach(self, seat: int) -> None:
        """Show the coach's look at ``seat``: at once when it is kept, else analysed in a worker."""
        kept = self._kept_analysis(seat)
        if kept is not None:
            self._coached(kept)
            return
        self.coaching = seat
        self.add_class("-coaching")
        self.query_one("#coach-progress-label", Static).update(
            t("Coaching {name}: Esc stops it", name=self.names[seat]))
        self.query_one(ProgressBar).update(total=None, progress=0)
        self.refresh_bindings()
        self._analyse(seat)

    @work(thread=True, exclusive=True, group="coach")
    def _analyse(self, seat: int) -> None:
        worker = get_current_worker()

        def progress(done: int, total: int) -> None:
            self.post_message(self.CoachProgress(done, total))  # post_message is thread-safe

        try:
            analysis = analyse(self.replay, seat, budget=self.coach_budget, progress=progress,
                               stop=lambda: worker.is_cancelled)
        except Cancelled:
            self.post_message(self.CoachDone(seat, None))
            return
        self.post_message(self.CoachDone(seat, analysis))

    def on_replay_screen_coach_progress(self, message: CoachProgress) -> None:
        if self.coaching is not None:
            self.query_one(ProgressBar).update(total=max(message.total, 1), progress=message.done)

    def on_replay_screen_coach_done(self, message: CoachDone) -> None:
        if message.analysis is None:
            if self.coaching == message.seat:
                self._stop_showing_progress()
                self.query_one(StatusLine).say(t("The coach stopped."))
            return
        self.analyses[message.seat] = message.analysis
        self._save_analysis(message.analysis)
        if self.coaching == message.seat:
            self._stop_showing_progress()
            self._coached(message.analysis)

    def action_stop_coach(self) -> None:
        if self.coaching is None:
            return
        self.workers.cancel_group(self, "coach")
        self._stop_showing_progress()
        self.query_one(StatusLine).say(t("The coach stopped."))

    def _stop_showing_progress(self) -> None:
        self.coaching = None
        self.remove_class("-coaching")
        self.refresh_bindings()

    def _coached(self, analysis: Analysis) -> None:
        self.analyses[analysis.seat] = analysis
        self.coached = analysis
        self.add_class("-coached")
        self.refresh_bindings()
        flagged = len(analysis.flagged)
        self.query_one(StatusLine).say(tn(
            "The coach looked at {name}'s decisions: {count} is flagged. s: the summary, f: the next one.",
            "The coach looked at {name}'s decisions: {count} are flagged. s: the summary, f: the next one.",
            flagged, name=self.names[analysis.seat]))
        self._show_coach()

    def _kept_analysis(self, seat: int) -> Analysis | None:
        """The analysis of ``seat`` made before (this time, or kept beside the record)."""
        if seat in self.analyses:
            return self.analyses[seat]
        if self.record is None:
            return None
        kept = load_analysis(self.record, seat)
        if kept is not None:
            self.analyses[seat] = kept
        return kept

    def _save_analysis(self, analysis: Analysis) -> None:
        if self.record is None:
            return
        try:
            save_analysis(self.record, analysis)
        except OSError as exc:  # only a cache: said, and the analysis is shown all the same
            self.notify(t("The coach's analysis could not be kept beside the record: {problem}",
                          problem=exc.strerror or str(exc)), severity="warning")

    def action_summary(self) -> None:
        analysis = self.coached
        if analysis is None:
            return

        def went(index: int | None) -> None:
            if index is not None:
                self.position = max(index - 1, 0)  # the table as the choice was to be made

        self.app.push_screen(CoachSummaryScreen(analysis, self.names), went)

    def action_next_flagged(self) -> None:
        """The table before the next flagged decision (after the one in view; at the end, the first)."""
        analysis = self.coached
        if analysis is None:
            return
        if not analysis.flagged:
            name = self.names[analysis.seat]
            self.query_one(StatusLine).say(t("No decision of {name}'s is flagged.", name=name))
            return
        later_ones = [d.position for d in analysis.flagged if d.position > self.position + 1]
        target = later_ones[0] if later_ones else analysis.flagged[0].position
        self.position = max(target - 1, 0)

    def decision_in_view(self) -> Decision | None:
        """The coached player's decision about to be made here (else the one just made)."""
        analysis = self.coached
        if analysis is None:
            return None
        coming = analysis.at(self.position + 1)
        same_round = coming is not None and (
            self.replay.positions[self.position + 1].round_number == self.shown.round_number)
        if coming is not None and same_round:
            return coming
        return analysis.at(self.position)

    def _show_coach(self) -> None:
        analysis = self.coached
        marks = self.query_one("#coach-marks", Static)
        panel = self.query_one("#coach", Static)
        if analysis is None:
            return
        seat = analysis.seat
        in_view = self.decision_in_view()
        ascii_mode = self.capicu.ascii_mode
        round_number = self.shown.round_number
        row = Content(t("{name}: ", name=self.names[seat]))
        for decision in analysis.decisions:
            if decision.round_number != round_number:
                continue
            if decision.flagged:
                mark, style = "!", "bold $text-error"
            elif points(decision.cost) > 0:
                mark, style = "~", "$text-warning"
            else:
                mark, style = ("." if ascii_mode else "·"), ""
            if decision is in_view:
                style = (style + " reverse").strip()
            row += Content.styled(mark, style) if style else Content(mark)
        marks.update(row)
        panel.set_class(in_view is not None and in_view.flagged, "-flagged")
        if in_view is None:
            panel.update(t("Not {name}'s move. f: the next flagged decision, s: the summary.",
                           name=self.names[seat]))
            return
        lines = [describe_decision(in_view, self.names, seat)]
        if in_view.had_choice:
            lines += describe_choices(in_view, self.names, seat)
        panel.update("\n".join(lines))

    # -- where we are ----------------------------------------------------------------

    def round_span(self, index: int | None = None) -> tuple[int, int]:
        """The first and last index of the round of the position at ``index`` (default: the one shown)."""
        here = self.position if index is None else index
        start = max((s for s in self._starts if s <= here), default=0)
        ends = [s - 1 for s in self._starts if s > here]
        return start, ends[0] if ends else len(self.replay.positions) - 1

    def next_action(self) -> Position | None:
        """The position that follows the one shown in the same round (what is chosen next)."""
        end = self.round_span()[1]
        return self.replay.positions[self.position + 1] if self.position < end else None

    # -- drawing -----------------------------------------------------------------------

    def _show(self) -> None:
        position = self.shown
        board = position.board
        self._show_title(board)
        self.board.show(position)
        self._show_hands(position)
        self._show_log(position)
        self._show_round_end(board)
        self._show_coach()
        self.query_one(StatusLine).prompt = self.where_we_are()

    def _show_title(self, board: AnyView) -> None:
        dot = " - " if self.capicu.ascii_mode else " · "
        parts = [t("Replay"), game_title(board.rules.preset), *self.board.title_parts(board)]
        if self.when:
            parts.append(self.when)
        self.query_one("#table-title", Static).update(dot.join(parts))

    def _show_hands(self, position: Position) -> None:
        coming = self.next_action()
        for seat in range(self.players):
            own = position.views[seat]
            hand = self.query_one(f"#hand-{seat}", HandView)
            # Lit: what the seat on turn may play (its own view's legal actions).
            legal = own.legal if own.turn == seat else ()
            hand.update_hand(own.hand, legal, own.rules.max_pip)
            # The tile this seat lays next, marked under it; no cursor anywhere else.
            chosen = coming.action.tile if (coming is not None and coming.seat == seat
                                             and isinstance(coming.action, Play)) else None
            hand.playing = chosen is not None and chosen in own.hand
            if self.board.MARKS_ONLY_THE_NEXT_TILE:
                hand.markers = hand.playing  # no empty row under the hands that mark nothing
            if chosen is not None and chosen in own.hand:
                hand.cursor = own.hand.index(chosen)
        turn = position.board.turn
        if turn is not None:
            self.query_one(f"#replay-seat-{turn}").scroll_visible(animate=False)

    def _show_log(self, position: Position) -> None:
        """The round's story up to the position, in the table's words (written again at each step)."""
        log = self.query_one(EventLog)
        log.restart()
        self.board.tell(position.board, log)

    def _show_round_end(self, board: AnyView) -> None:
        """At a round's end its summary takes the log's place, as at the table."""
        over = board.turn is None and bool(board.results)
        self.set_class(over, "-round-over")
        if not over or self._shown_round == self.position:
            return
        self._shown_round = self.position
        self.query_one("#round-end", Static).update(self.board.round_summary(board))

    def where_we_are(self) -> str:
        """The status line: the round, the move and what it was ("Round 3, move 12 of 40: ...")."""
        position = self.shown
        start, end = self.round_span()
        round_number = position.round_number
        if position.action is None:
            return t("Round {round}, the deal: every hand as dealt ({count} moves follow).",
                     round=round_number, count=end - start)
        what = self.what_happened(self.position)
        return t("Round {round}, move {move} of {moves}: {what}", round=round_number,
                 move=self.position - start, moves=end - start, what=what)

    def what_happened(self, index: int) -> str:
        """The move at ``index`` in the log's words (its first sentence: the move itself)."""
        before = self.replay.positions[index - 1].board if index > 0 else None
        return self.board.what_happened(self.replay.positions[index], before)


__all__ = ["ReplayBoard", "ReplayScreen", "spectators_view"]
