"""The table of Fives and Threes: the Draw family's line, its ends' total, and a pegging board.

What every table does (the hand, ready, chat, leaving, the seat key, notices, the
turn timer and the countdown) is `TableScreen`'s (tui/screens/table.py); this
screen gives the game's own. The line of play is the Draw family's
(`LineOfPlay`), with the two open ends and their total beside it, and what the
tile just played made under it in its caption ("▲ Ana 15 for 8"); the log tells
every play with its points. The scoreboard is a cribbage board's pegging
(`PeggingBoard`): each side's track to the target fills as it scores, the
stretch its last score pegged drawn apart.

A tile that fits both ends asks which end (its points on each are the engine's
to tell, through the hint); a player who cannot play knocks with p; with the
drawing option the host draws for a player who must. The hint (x) is core's
(`suggest_fives`): the tile, what it scores, and what it leaves the next
player. At a hand's end every hand is shown beside its seat (they count
nothing) with the go and each side's points.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import TYPE_CHECKING, ClassVar, cast

import msgspec
from capicu.core import PASS, Action, End, Play, Rules, Tile
from capicu.core.fives.events import (
    FivesEvent,
    FivesRoundEnded,
    FivesRoundStarted,
    FivesTilePlayed,
    Knocked,
)
from capicu.core.fives.view import FivesView
from capicu.net.model import LinkState
from capicu.tui.games import GameFace
from capicu.tui.screens.table import TableScreen
from capicu.tui.widgets.chat_panel import ChatPanel
from capicu.tui.widgets.event_log import EventLog
from capicu.tui.widgets.hand_view import HandView
from capicu.tui.widgets.line_of_play import LineMarks, LineOfPlay
from capicu.tui.widgets.pegging_board import PeggingBoard, Track
from capicu.tui.widgets.seat_panel import Position, SeatPanel, SeatView, table_positions
from capicu.tui.words.describe import seat_name, you
from capicu.tui.words.describe_fives import (
    describe_chipped_out,
    describe_fives_covered,
    describe_fives_event,
    describe_fives_hint,
    describe_fives_refused,
    describe_fives_summary,
    fives_side,
    score_words,
)
from capicu.tui.words.describe_rules import game_title
from capicu.tui.words.messages import N_, t, tn
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Static

if TYPE_CHECKING:  # the hint's search loads on the first hint
    from capicu.core.ai.fives_hints import FivesHint
    from capicu.net.protocol import Seat
    from capicu.tui.screens.match_over import MatchOverScreen
    from capicu.tui.screens.replay import ReplayBoard

#: The id of the widget that shows the seat at each place on screen.
_SLOT = {
    Position.BOTTOM: "seat-me",
    Position.LEFT: "seat-left",
    Position.TOP: "seat-across",
    Position.RIGHT: "seat-right",
}


def fives_marks(events: Sequence[FivesEvent]) -> LineMarks:
    """Where the hand's lead and last tile lie in its line, and who laid the last one."""
    lead, last, seat, laid = 0, None, None, 0
    for event in events:
        if isinstance(event, FivesRoundStarted):
            lead, last, seat, laid = 0, None, None, 0
        elif isinstance(event, FivesTilePlayed):
            if laid and event.end is End.LEFT:
                lead += 1  # a tile before it in the line
                last = 0
            else:
                last = laid
            laid += 1
            seat = event.seat
    return LineMarks(lead, last, seat)


def last_play(view: FivesView) -> FivesTilePlayed | None:
    """The hand's last tile laid, if any."""
    return next((e for e in reversed(view.events) if isinstance(e, FivesTilePlayed)), None)


def pegging_tracks(view: FivesView, labels: Sequence[str], my_seat: int | None) -> tuple[Track, ...]:
    """Each side's track: its score, the back peg (its score before its last score this hand), the last."""
    scores = list(view.scores)
    gained = [0] * len(scores)
    last = -1
    for event in view.events:
        if isinstance(event, FivesTilePlayed) and event.scored:
            side = view.side_of(event.seat)
            gained[side], last = event.scored, side
        elif isinstance(event, FivesRoundEnded) and event.result.go and event.result.go_side is not None:
            gained[event.result.go_side], last = event.result.go, event.result.go_side
    mine = view.side_of(my_seat) if my_seat is not None else -1
    return tuple(Track(labels[side], score, score - gained[side], side == mine, side == last)
                 for side, score in enumerate(scores))


def hands_shown(view: FivesView) -> tuple[tuple[Tile, ...], ...] | None:
    """Every hand as the hand's end shows them (None while the hand is played)."""
    if view.turn is not None:
        return None
    ended = next((e for e in reversed(view.events) if isinstance(e, FivesRoundEnded)), None)
    return ended.result.hands if ended is not None else None


def ends_words(view: FivesView) -> str:
    """The two open ends as they count, and their total: "ends 6 + 4 = 10", a double at an end twice."""
    if view.ends is None or not view.line:
        return t("No tile down yet: any tile leads.")
    if len(view.line) == 1:
        return t("{tile} led: total {total}", tile="-".join(str(n) for n in view.line[0]), total=view.total)
    left, right = view.ends
    first, final = view.line[0], view.line[-1]
    left_counts = left * 2 if first[0] == first[1] else left
    right_counts = right * 2 if final[0] == final[1] else right
    return t("ends {left} + {right} = total {total}", left=left_counts, right=right_counts, total=view.total)


class FivesTableScreen(TableScreen[FivesView]):
    """Where a match of Fives and Threes is played."""

    #: While a tile that fits both ends waits for its end: these keys, before the hand's own.
    END_BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left,h,1", "choose_end('left')", N_("Left end"), key_display="←", priority=True),
        Binding("right,l,2", "choose_end('right')", N_("Right end"), key_display="→", priority=True),
        Binding("escape", "cancel_end", N_("Cancel"), key_display="esc", priority=True),
    ]

    BINDINGS: ClassVar[list[BindingType]] = [
        *TableScreen.TABLE_BINDINGS,
        Binding("escape,q", "leave", N_("Leave"), key_display="esc/q"),
        TableScreen.LEAVE_CHAT_BINDING,
        # A player who cannot play knocks: the pass key says so. Nobody draws by hand (with the
        # drawing option the host draws for a player who must): d only says so.
        *(Binding("p", "pass_turn", N_("Knock")) if isinstance(b, Binding) and b.action == "pass_turn" else b
          for b in TableScreen.TURN_BINDINGS if not (isinstance(b, Binding) and b.action == "draw")),
        *END_BINDINGS,
        Binding("h,l,1,2", "explain('choose_end')", "", show=False),
    ]

    FOOTER_ACTIONS = (*TableScreen.FOOTER_ACTIONS, "choose_end")
    WORDED = "SeatPanel, HandView, LineOfPlay, PeggingBoard"
    STATUS_WRAPS = True  # a hint names a tile, its points and the reply it leaves: a second row if need be

    def __init__(self, view: FivesView) -> None:
        super().__init__(view)
        self._places = {place for _, place in table_positions(view.players, None, view.rules.direction)}
        #: A tile that fits both ends, waiting for the player to say which.
        self.choosing_end: Play | None = None
        #: The event the log told last (a play after a hand's start is its lead).
        self._previous: FivesEvent | None = None
        #: The hand whose tiles the hand row shows (a new deal puts its cursor back).
        self._round = -1

    # -- layout --------------------------------------------------------------------

    @classmethod
    def key_lines(cls, rules: Rules | None) -> list[str]:
        from capicu.tui.screens.rules_keys import binding_lines  # (the rules and keys screen's)

        return [*binding_lines(cls.BINDINGS, asides=cls.END_BINDINGS,
                               aside=lambda what: t("{what} (a tile that fits both ends)", what=what)), ""]

    def compose_board(self) -> ComposeResult:
        ascii_mode = self.capicu.ascii_mode
        with Horizontal(id="table-seats"):
            for place in (Position.LEFT, Position.TOP, Position.RIGHT):
                if place in self._places:
                    yield SeatPanel(id=_SLOT[place], classes="seat-slot", ascii=ascii_mode)
        with Horizontal(id="table-middle"):
            yield LineOfPlay(id="line", tile_style=self.capicu.tile_style, ascii=ascii_mode)
            with Vertical(id="table-side"):
                yield Static("", id="fives-total", markup=False)
                yield EventLog(id="log")
                yield Static("", id="round-end", markup=False)
                yield ChatPanel(id="chat")
        yield PeggingBoard(id="pegging", ascii=ascii_mode)

    def compose_hand(self, hand: HandView) -> ComposeResult:
        with Horizontal(id="table-me"):
            yield SeatPanel(id=_SLOT[Position.BOTTOM], classes="seat-slot", ascii=self.capicu.ascii_mode)
            yield hand

    def display_changed(self) -> None:
        super().display_changed()
        app = self.capicu
        for line in self.query(LineOfPlay):
            line.tile_style, line.ascii = app.tile_style, app.ascii_mode
        for panel in self.query(SeatPanel):
            panel.ascii = app.ascii_mode
        for board in self.query(PeggingBoard):
            board.ascii = app.ascii_mode

    # -- what the App tells us -----------------------------------------------------

    def _view_changed(self, view: FivesView) -> None:
        if self.choosing_end is not None and self.choosing_end not in view.legal:
            self.choosing_end = None

    def _tell(self, news: tuple[object, ...], before: FivesView | None, view: FivesView, *,
              snapshot: bool) -> None:
        events = cast("tuple[FivesEvent, ...]", news)  # a Fives and Threes update's events
        if snapshot:
            events = tuple(view.events)
            self._previous = None
        log = self.query_one(EventLog)
        names = self._names(view)
        me = view.seat
        rules, players, target = view.rules, view.players, view.target
        for index, event in enumerate(events):
            lead = isinstance(self._previous, FivesRoundStarted)
            self._previous = event
            if index in self.covered and describe_fives_covered(event, me, target=target) is not None:
                # The computer made it for this seat while its person was away: said as the computer's.
                log.add_line(partial(_covered_words, event, me, target))
            else:
                log.add_line(partial(describe_fives_event, event, names, me, rules=rules, players=players,
                                     target=target, lead=lead))
            following = events[index + 1] if index + 1 < len(events) else None
            if (isinstance(event, FivesTilePlayed) and event.chipped_out
                    and not isinstance(following, FivesRoundEnded) and view.turn is not None):
                seat = event.seat
                log.add_line(partial(describe_chipped_out, seat, names, me))
            if not snapshot and isinstance(event, Knocked) and event.seat != me:
                seat = event.seat
                self.say(t("{name} knocks.", name=seat_name(names, seat)), log_it=False)

    # -- drawing the screen ----------------------------------------------------------

    def _show(self, view: FivesView) -> None:
        names = self._names(view)
        dot = " - " if self.capicu.ascii_mode else " · "
        parts = [
            game_title(view.rules.preset),
            t("hand {round}", round=view.round_number),
            t("to {target}", target=view.target),
        ]
        if view.drawable:
            parts.append(tn("{count} to draw", "{count} to draw", view.drawable))
        else:
            parts.append(tn("{count} set aside", "{count} set aside", view.set_aside))
        self._show_title(dot.join(parts))
        marks = fives_marks(view.events)
        label, note = "", ""
        played = last_play(view)
        if marks.last_seat is not None and played is not None:
            label = you() if marks.last_seat == view.seat else names[marks.last_seat]
            note = score_words(played.total, played.points, played.scored, view.target)
        self.query_one(LineOfPlay).update_line(view.line, view.ends, view.rules.max_pip, lead=marks.lead,
                                               last=marks.last, last_label=label, last_note=note)
        self.query_one("#fives-total", Static).update(ends_words(view))
        hand = self.query_one(HandView)
        could_play = any(isinstance(a, Play) for a in hand.legal)
        hand.spectator = view.seat is None
        playing = view.seat is not None and view.turn is not None
        if playing != hand.playing:
            hand.playing = playing
            hand.refresh_bindings()
        hand.update_hand(view.hand, view.legal, view.rules.max_pip, new_deal=view.round_number != self._round)
        self._round = view.round_number
        if view.is_my_turn and not could_play:
            fits = [a.tile for a in view.legal if isinstance(a, Play)]
            if fits and hand.selected not in fits:
                hand.cursor = view.hand.index(fits[0])
        self._show_seats(view)
        self._show_pegging(view)
        super()._show(view)

    def _show_around(self, view: FivesView) -> None:
        self._show_seats(view)
        self._show_status(view)
        self._refresh_footer()

    def _side_labels(self, view: FivesView) -> list[str]:
        names = self._names(view)
        return [fives_side(side, view.rules, view.players, names, view.seat)
                for side in range(len(view.scores))]

    def _show_pegging(self, view: FivesView) -> None:
        self.query_one(PeggingBoard).update_board(pegging_tracks(view, self._side_labels(view), view.seat),
                                                  view.target)

    def _show_seats(self, view: FivesView) -> None:
        model = self.capicu.table
        names = self._names(view)
        next_round = model.next_round if model is not None else None
        waiting = next_round.waiting if next_round is not None else ()
        ready = next_round.ready if next_round is not None else ()
        seats = model.seats if model is not None else ()
        link_down = model is not None and model.link is LinkState.RECONNECTING
        shown = hands_shown(view)
        for seat, place in table_positions(view.players, view.seat, view.rules.direction):
            occupant = next((s for s in seats if s.seat == seat), None)
            if link_down and seat == view.seat and occupant is not None:
                occupant = msgspec.structs.replace(occupant, connected=False)
            readiness = True if seat in ready else (False if seat in waiting else None)
            info = fives_seat_view(view, seat, names, occupant=occupant,
                                   ready=readiness if view.between_rounds else None)
            if shown is not None and seat < len(shown):
                # Every hand shown: they count nothing.
                info = msgspec.structs.replace(info, revealed=shown[seat])
            self.query_one(f"#{_SLOT[place]}", SeatPanel).update_seat(info)
        self._tick()

    def _round_summary(self, view: FivesView) -> str:
        return describe_fives_summary(view, self._names(view), view.seat)

    def _show_turn_timer(self, view: FivesView, left: tuple[int, int] | None) -> None:
        for seat, place in table_positions(view.players, view.seat, view.rules.direction):
            self.query_one(f"#{_SLOT[place]}", SeatPanel).timer = (
                left[1] if left is not None and left[0] == seat else None)

    def _round_over_words(self) -> tuple[str, str]:
        return (t("Hand over: press Enter when you are ready."),
                t("Hand over: the next deal comes when the players are ready."))

    def _question_prompt(self, view: FivesView) -> str | None:
        if self.choosing_end is not None and view.ends is not None:
            return t("{tile} fits both ends: ← left ({left}) or → right ({right})? Esc: another tile.",
                     tile=str(self.choosing_end.tile), left=view.ends[0], right=view.ends[1])
        return None

    def _turn_prompt(self, view: FivesView) -> str:
        if view.legal == (PASS,):
            if view.ends is not None:
                return t("Nothing fits {left} or {right}: press p to knock.", left=view.ends[0],
                         right=view.ends[1])
            return t("Nothing fits: press p to knock.")
        if view.ends is None:
            return t("Your lead: any tile. Its pips are the first total (x: a hint).")
        return t("Your turn: the ends add up to {total}. Enter plays a tile (x: a hint).", total=view.total)

    # -- acting ----------------------------------------------------------------------

    def on_hand_view_tile_chosen(self, message: HandView.TileChosen) -> None:
        view = self.view
        if view is None or view.seat is None or self.table_hidden:
            return
        plays = [a for a in message.actions if isinstance(a, Play) and a in view.legal]
        if not plays:
            if view.between_rounds or view.match_over:
                self.action_ready()
                return
            self._explain(Play(message.tile, End.LEFT if view.ends is None else End.RIGHT), view)
            return
        ends = view.ends if view.ends is not None else (0, 0)
        places = {play.place for play in plays}
        if len(places) == 1 or ends[0] == ends[1]:
            self._send(plays[0])
            return
        # Asked on the status line, so that nothing covers the line and its ends.
        self.choosing_end = plays[0]
        self._show_status(view)
        self._refresh_footer()

    def action_choose_end(self, end: str) -> None:
        chosen = self.choosing_end
        self.action_cancel_end()
        view = self.view
        if chosen is not None and view is not None:
            play = Play(chosen.tile, End(end))
            if play in view.legal:
                self._send(play)

    def action_cancel_end(self) -> None:
        self.choosing_end = None
        if self.view is not None:
            self._show_status(self.view)
        self._refresh_footer()

    # -- what is offered, and why not ------------------------------------------------

    def _refusal(self, action: Action, view: FivesView) -> str:
        return describe_fives_refused(view, action, self._names(view))

    def _explain_own(self, what: str) -> bool:
        if what == "choose_end":
            self.say(t("h, l, 1 and 2 choose an end when a tile fits both."), log_it=False)
            return True
        return False

    def _asks(self, action: str) -> bool | None:
        if action in ("choose_end", "cancel_end"):
            return self.choosing_end is not None
        if self.choosing_end is not None:
            return False  # one question at a time: which end
        return None

    def _offers_own(self, action: str, view: FivesView | None) -> bool:
        if action == "choose":
            return view is not None and view.is_my_turn and any(isinstance(a, Play) for a in view.legal)
        if action == "pass_turn":
            return view is not None and view.is_my_turn and view.legal == (PASS,)
        return True

    # -- the hint --------------------------------------------------------------------

    @work(thread=True, exclusive=True, group="hint")
    def _find_hint(self, view: FivesView) -> None:
        # Imported on the first hint: the search it runs is not needed at start.
        from capicu.core.ai.fives_hints import suggest_fives

        hint = suggest_fives(view, seed=view.round_number)
        self.app.call_from_thread(self._show_hint, view, hint)

    def _show_hint(self, view: FivesView, hint: FivesHint) -> None:
        if self.view is not view:
            return  # the table moved on while we thought
        self.say(describe_fives_hint(hint, view, self._names(view)), log_it=False)
        hand = self.query_one(HandView)
        if hint.tile is not None and hint.tile in hand.hand:
            hand.cursor = hand.hand.index(hint.tile)


def _covered_words(event: FivesEvent, me: int | None, target: int) -> str:
    return describe_fives_covered(event, me, target=target) or ""


def fives_seat_view(view: FivesView, seat: int, names: Sequence[str], *, occupant: Seat | None = None,
                    ready: bool | None = None) -> SeatView:
    """Seat ``seat`` as ``view``'s seat sees it: its tiles, its side's score, ``occupant`` the host's word."""
    from capicu.net.protocol import SeatKind

    side = view.side_of(seat)
    me = view.seat is not None and seat == view.seat
    partner = (view.seat is not None and not me and view.players > len(view.scores)
               and view.side_of(view.seat) == side)
    return SeatView(
        seat=seat,
        name=seat_name(names, seat),
        tiles=view.hand_counts[seat] if seat < len(view.hand_counts) else 0,
        score=view.scores[side] if side < len(view.scores) else 0,
        connected=occupant.connected if occupant else True,
        computer=occupant is not None and occupant.kind == SeatKind.COMPUTER,
        covered=occupant is not None and occupant.covered,
        turn=view.turn == seat,
        me=me,
        partner=partner,
        left=occupant is not None and occupant.left,
        ready=ready,
        pips=False,
    )


def _match_over() -> type[MatchOverScreen[FivesView]]:
    from capicu.tui.screens.fives_match_over import FivesMatchOverScreen

    return FivesMatchOverScreen


def _replay_board() -> type[ReplayBoard[FivesView]]:
    from capicu.tui.screens.fives_replay import FivesReplayBoard

    return FivesReplayBoard


#: Fives and Threes in the interface (see `tui.games`).
FACE = GameFace(table=FivesTableScreen, match_over=_match_over, replay_board=_replay_board)
