"""The table: the line of play, your hand, the other seats, el pozo, the log and chat.

The screen shows the table's model (`CapicuApp.table`) as each change comes
(`model_changed`) and turns key presses into intents. It never decides what
is legal: the hand lights the tiles in ``view.legal``, a tile that fits both
ends asks which end, draw is offered when the engine lists it (a voluntary
draw), pass only when it is the only action, and a key that is not allowed
now is answered with the engine's own reason. A draw the rules force is made
by the host in the update of the move before, and the status line says which
tiles came ("You drew 4-5 and 2-2.").

Nothing is ever drawn over the hand or the line: notices go to the status line
and the log. When a round ends the finished table stays in view (the last tile
marked, every hand beside its seat, the summary in the side panel) until every
person has pressed Enter or the host's countdown runs out.
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, ClassVar, cast

import msgspec
from capicu.core import (
    DRAW,
    PASS,
    REDEAL,
    Action,
    Direction,
    End,
    Event,
    Play,
    Tile,
    TilePlayed,
    TilesDrawn,
    View,
)
from capicu.net.client import Update
from capicu.net.model import Change, LinkState
from capicu.net.protocol import Chat, Seats, Snapshot
from capicu.tui.game import HostGame, JoinGame, SoloGame, seat_notices
from capicu.tui.screens.base import CapicuModalScreen, CapicuScreen
from capicu.tui.widgets.boneyard_info import BoneyardInfo
from capicu.tui.widgets.chat_panel import ChatPanel
from capicu.tui.widgets.event_log import EventLog
from capicu.tui.widgets.hand_view import HandView
from capicu.tui.widgets.line_of_play import LineOfPlay, line_marks
from capicu.tui.widgets.quiet_footer import QuietFooter
from capicu.tui.widgets.seat_panel import Position, SeatPanel, SeatView, table_positions
from capicu.tui.widgets.status_line import StatusLine
from capicu.tui.words.describe import (
    and_list,
    describe_action_refused,
    describe_hint_reasons,
    describe_my_draw,
    describe_result,
    describe_unfinished,
    end_name,
    you,
)
from capicu.tui.words.describe_rules import preset_title
from capicu.tui.words.messages import N_, Wording, later, t, tc
from textual import events, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Footer, Static

if TYPE_CHECKING:  # the hints' module loads the search: the first hint imports it
    from capicu.core.ai.hints import Hint

#: The smallest window the table is drawn in; below it, a message says so.
MIN_SIZE = (80, 24)
#: Seconds after a round ends before Enter says "ready" (an Enter meant for the last tile).
READY_DELAY = 0.8

#: The id of the widget that shows the seat at each place on screen.
_SLOT = {
    Position.BOTTOM: "seat-me",
    Position.LEFT: "seat-left",
    Position.TOP: "seat-across",
    Position.RIGHT: "seat-right",
}


def describe_action(action: Action, view: View) -> str:
    """A hint's move in words: "lead 1-2" on an empty table, no end when both ends are the same."""
    if isinstance(action, Play):
        if view.ends is None:
            # TRANSLATORS: a hint's move on an empty table.
            return t("lead {tile}", tile=str(action.tile))
        if view.ends[0] == view.ends[1]:
            # TRANSLATORS: a hint's move when both ends show the same number (either end is the same game).
            return t("play {tile}", tile=str(action.tile))
        # TRANSLATORS: a hint's move; {end} is "left" or "right", as worded for "end of the line".
        return t("play {tile} on the {end}", tile=str(action.tile), end=end_name(action.end.value))
    return tc("a hint's move", "draw") if action == DRAW else tc("a hint's move", "pass")


def yes_keys() -> str:
    """The letters that say yes in the reader's language, and ``y`` in every language."""
    # TRANSLATORS: the letter of your language's "yes" (Spanish: s, for "sí"); keep it one letter.
    letter = tc("the key that says yes", "y").strip().lower()[:1]
    return "".join(dict.fromkeys(f"y{letter}" if letter.isalpha() else "y"))


class LeaveScreen(CapicuModalScreen[bool]):
    """Leaving is one key away, and one more to confirm.

    Yes is ``y`` everywhere, and also the reader's own letter for it (``s`` in Spanish).
    An SSH player is shown the way back as it is: the ssh line and the seat key as its password.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        # Enter stays: a player pressing Enter to play must never leave by accident.
        Binding("y", "leave", N_("Leave")),
        Binding("n,escape,q,enter", "stay", N_("Stay"), key_display="n/esc"),
    ]

    def __init__(self, hosting: bool, *, solo: bool = False, seat_key: str | None = None,
                 way_back: str | None = None) -> None:
        super().__init__()
        # Yes in the reader's language is the key shown (``s`` in Spanish); ``y`` works in every one.
        yes = yes_keys()
        bindings = self._bindings
        others = {key: found for key, found in bindings.key_to_bindings.items() if key != "y"}
        bindings.key_to_bindings = {}
        bindings.bind(yes[-1], "leave", N_("Leave"))  # first in the footer, as declared
        if yes != "y":
            bindings.bind("y", "leave", N_("Leave"), show=False)
        bindings.key_to_bindings.update(others)
        self.hosting = hosting
        #: A game against the computer (nobody else at the table to end it for).
        self.solo = solo
        #: An SSH player's seat key and ssh line: their way back (None: the same join command works).
        self.seat_key = seat_key
        self.way_back = way_back

    def compose(self) -> ComposeResult:
        with Vertical(id="leave-box", classes="dialog"):
            # TRANSLATORS: {yes} is the key that says yes (y; in Spanish s), shown as the reader types it.
            yield Static(t("Leave the table? Press {yes} to leave; n or Esc to stay.", yes=yes_keys()[-1]),
                         classes="screen-title")
            if self.solo:
                yield Static(t("Leaving ends this game against the computer: it will not be offered again."))
            elif self.hosting:
                yield Static(t("You host this table: leaving ends the game for everyone."))
            elif self.way_back is not None and self.seat_key is not None:
                yield Static(t("Your seat stays held; the computer covers it while you are away. "
                               "To come back, type {command} and give your seat key as the password:",
                               command=self.way_back), id="leave-way-back", markup=False)
                yield Static(f"  {self.seat_key}", id="leave-seat-key", markup=False)
            else:
                yield Static(t("Your seat stays held; the computer covers it while you are away. "
                               "Run the same join command again to come back."))
        yield Footer()

    def action_leave(self) -> None:
        self.dismiss(True)

    def action_stay(self) -> None:
        self.dismiss(False)


class SeatKeyScreen(CapicuModalScreen[None]):
    """The seat's key, to read aloud or type on another machine."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,enter,k", "close", N_("Close"), key_display="esc"),
    ]

    def __init__(self, key: str | None, command: str, *, back_by_itself: bool = True) -> None:
        super().__init__()
        self.key = key
        self.command = command
        #: The same join command on this machine reclaims the seat (the saved seat): not for SSH players,
        #: whose way back is the ``command`` itself.
        self.back_by_itself = back_by_itself

    def compose(self) -> ComposeResult:
        with Vertical(id="seat-key-box", classes="dialog"):
            yield Static(t("Your seat key"), classes="screen-title")
            if self.key is None:
                yield Static(t("Only a seated player at someone else's table has a seat key."))
            else:
                yield Static(self.key, id="seat-key", markup=False)
                yield Static(t("To take this seat back from another machine, type there:"), classes="hint")
                yield Static(f"  {self.command}", id="seat-key-command", markup=False)
                if self.back_by_itself:
                    yield Static(t("From this machine, the same join command brings you back by itself."),
                                 classes="hint", id="seat-key-same-machine")
        yield Footer()

    def action_close(self) -> None:
        self.dismiss()


@dataclass(frozen=True, slots=True)
class BlankQuestion:
    """A tile whose wild blank is left open, waiting on the status line for its number."""

    tile: Tile
    #: Each number the blank may be given, and the play that gives it.
    plays: Mapping[int, Play]
    numbers: tuple[int, ...]
    #: The number the arrows have reached.
    number: int


class TableScreen(CapicuScreen[None]):
    """Where the match is played."""

    #: The table itself has the keyboard (its bindings drive the hand), so that the
    #: Footer lists its keys in the table's order: the ones that come and go with
    #: the turn last, where they repaint only their own cells (bytes over SSH).
    AUTO_FOCUS = ""

    #: While a tile that fits both ends waits for its end: these keys, before the hand's own.
    END_BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left,h,1", "choose_end('left')", N_("Left end"), key_display="←", priority=True),
        Binding("right,l,2", "choose_end('right')", N_("Right end"), key_display="→", priority=True),
        Binding("escape", "cancel_end", N_("Cancel"), key_display="esc", priority=True),
    ]

    #: While a wild blank left open waits for its number (a house rule): these keys first.
    BLANK_BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "blank_step(-1)", N_("Lower"), key_display="←", priority=True),
        Binding("right", "blank_step(1)", N_("Higher"), key_display="→", priority=True),
        # A digit chooses, as the arrows do, and Enter lays: the prompt asks for Enter, and a
        # digit that laid the tile at once made that Enter play the next tile.
        *(Binding(str(n), f"blank_choose({n})", "", show=False, priority=True) for n in range(10)),
        Binding("enter", "blank_lay", N_("Lay it"), key_display="enter", priority=True),
        Binding("escape", "cancel_blank", N_("Cancel"), key_display="esc", priority=True),
    ]
    #: Offered before the first tile to a player dealt five doubles (a house rule).
    REDEAL_BINDING: ClassVar[Binding] = Binding("n", "redeal", N_("New deal"))

    BINDINGS: ClassVar[list[BindingType]] = [
        # The hand's own keys (see HandView.CURSOR_BINDINGS), driving it from here.
        *HandView.CURSOR_BINDINGS,
        Binding("x", "hint", N_("Hint")),
        Binding("c", "chat", N_("Chat")),
        Binding("k", "seat_key", N_("Seat key")),
        Binding("k", "explain('seat_key')", "", show=False),
        Binding("j", "how_to_join", N_("How to join")),
        Binding("j", "explain('how_to_join')", "", show=False),
        Binding("r,f1", "rules", N_("Rules")),
        Binding("escape,q", "leave", N_("Leave"), key_display="esc/q"),
        # While chat has the keyboard, q is a letter and Esc only gives the keyboard back.
        Binding("escape", "leave_chat", N_("Back to the table"), key_display="esc"),
        # The keys that come and go with the turn, last.
        HandView.CHOOSE_BINDING,
        Binding("enter", "ready", N_("Ready")),
        # A key that is not allowed now still answers: the status line says why.
        HandView.CHOOSE_ANYWAY_BINDING,
        Binding("d", "draw", N_("Draw")),
        Binding("d", "explain('draw')", "", show=False),
        Binding("p", "pass_turn", N_("Pass")),
        Binding("p", "explain('pass')", "", show=False),
        *END_BINDINGS,
        *BLANK_BINDINGS,
        REDEAL_BINDING,
        # The end keys outside a question of which end: they say what they are for.
        Binding("h,l,1,2", "explain('choose_end')", "", show=False),
    ]

    def __init__(self, players: int, direction: Direction) -> None:
        super().__init__()
        #: Where this match's seats sit on screen: only their panels are made.
        self._places = {place for _, place in table_positions(players, None, direction)}
        self._ready = False
        #: The number of the last event the log shows (a change the screen showed already is skipped).
        self._shown_seq = -1
        #: What the footer offers (see `_offers`), so it is rebuilt only when that changes.
        self._offered: tuple[bool, ...] = ()
        #: My hand before my current run of draws (to tell which tiles came).
        self._hand_before_draws: tuple[object, ...] | None = None
        #: The last tile played: (its seat, the line it was played on) until the next play.
        self._summary_round = -1
        #: Enter pressed for the next deal in this break.
        self._said_ready = False
        #: A tile that fits both ends, waiting for the player to say which.
        self.choosing_end: Play | None = None
        #: A tile whose wild blank is left open, waiting for its number (`BlankQuestion`).
        self.choosing_blank: BlankQuestion | None = None
        #: The final score is open over the table (Enter opened it).
        self._final_score_shown = False
        #: The last hint shown, and for which view: asked again, it says why in figures.
        self._last_hint: tuple[View, Hint] | None = None
        self._title = ""
        #: False for a moment after a round ends, so that an Enter meant for the
        #: round's last tile does not skip its end unread (set by a Textual timer).
        self.takes_ready = False

    # -- layout --------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        ascii_mode = self.capicu.ascii_mode
        yield Static("", id="table-title")
        with Horizontal(id="table-seats"):
            for place in (Position.LEFT, Position.TOP, Position.RIGHT):
                if place in self._places:
                    yield SeatPanel(id=_SLOT[place], classes="seat-slot", ascii=ascii_mode)
        with Horizontal(id="table-middle"):
            yield LineOfPlay(id="line", tile_style=self.capicu.tile_style, ascii=ascii_mode)
            with Vertical(id="table-side"):
                yield BoneyardInfo(id="boneyard")
                yield EventLog(id="log")
                yield Static("", id="round-end", markup=False)
                yield ChatPanel(id="chat")
        yield StatusLine(id="table-status")
        with Horizontal(id="table-me"):
            yield SeatPanel(id=_SLOT[Position.BOTTOM], classes="seat-slot", ascii=ascii_mode)
            hand = HandView(id="hand", tile_style=self.capicu.tile_style, ascii=ascii_mode)
            hand.can_focus = False  # the table's keys drive it
            yield hand
        yield Static("", id="too-small")
        yield QuietFooter()

    def on_mount(self) -> None:
        self.query_one(BoneyardInfo).short = True
        self._ready = True
        self.set_interval(1.0, self._tick)
        self._fit(self.app.size.width, self.app.size.height)
        model = self.capicu.table
        if model is None:
            return
        if isinstance(model.view, View):
            # The table as it is now, told as a snapshot is (the changes until now are in it).
            self._table_changed(model.view, None, (), snapshot=True, seq=model.seq)
        resumed = self.capicu.game.resumed if self.capicu.game is not None else None
        if resumed is not None:  # this terminal's host went on with a kept match
            # TRANSLATORS: {match} is "the match of 17:02 (Ana, Beto; 3 rounds played)".
            self.say(lambda: t("Resumed {match}.", match=describe_unfinished(resumed)))
        elif model.resumed:  # a saved seat, a seat key or the host gave it back
            self.say(later("You are back in your seat."))
        for notice in self.capicu.take_opening_notices():
            self.say(notice)
        self.watch(self.app, "ssh_join", self._ssh_is_on)

    def _ssh_is_on(self, how: object) -> None:
        """SSH came up beside our table: said in the log, and `j` shows how (never a notice over the hand)."""
        if how is not None:
            self.query_one(EventLog).add_notice(later("SSH is on: press j to see how to join."))

    def on_resize(self, event: events.Resize) -> None:
        self._fit(event.size.width, event.size.height)

    def _fit(self, width: int, height: int) -> None:
        """Below `MIN_SIZE` say so instead of drawing a garbled table; it comes back when the window grows."""
        small = width < MIN_SIZE[0] or height < MIN_SIZE[1]
        if small != self.has_class("-too-small"):
            self.refresh_bindings()  # a hidden table takes no keys (`_offers`), and the footer says so
        self.set_class(small, "-too-small")
        if small:
            now = f"{width}x{height}"
            self.query_one("#too-small", Static).update(
                t("Make the window at least {width}x{height} to see the table (it is {now}).",
                  width=str(MIN_SIZE[0]), height=str(MIN_SIZE[1]), now=now)
            )

    # -- what the App tells us -----------------------------------------------------

    @property
    def view(self) -> View | None:
        """The table's view as the model has it now (what key presses act on)."""
        model = self.capicu.table
        return model.view if model is not None and isinstance(model.view, View) else None

    def model_changed(self, change: Change) -> None:
        """Show what the model took: a new view with its events, the seats, the clocks, chat."""
        if not (self._ready and self.is_attached):  # not shown yet (on_mount shows the model), or closing
            return
        taken = change.message
        # This screen draws a line of play (a Mexican Train table never opens it: see the App).
        before = change.view_before if isinstance(change.view_before, View) else None
        if isinstance(taken, Snapshot):
            self._table_changed(taken.view, before, (), snapshot=True, seq=taken.seq)
            return
        if isinstance(taken, Update) and isinstance(taken.view, View):
            if taken.seq > self._shown_seq:
                events = cast("tuple[Event, ...]", taken.events)  # a line of play's update: its events
                self._table_changed(taken.view, before, events, snapshot=False, seq=taken.seq)
            return
        model = self.capicu.table
        if isinstance(taken, Seats) and model is not None:
            for notice in seat_notices(change.seats_before, taken.seats, model.seat):
                self.query_one(EventLog).add_notice(notice)
        elif isinstance(taken, Chat):
            self.query_one(EventLog).add_chat(taken.name, taken.text)
        view = self.view
        if view is not None:
            self._show_seats(view)
            self._show_status(view)
            self._refresh_footer()

    def display_changed(self) -> None:
        app = self.capicu
        for hand in self.query(HandView):
            hand.tile_style, hand.ascii = app.tile_style, app.ascii_mode
        for line in self.query(LineOfPlay):
            line.tile_style, line.ascii = app.tile_style, app.ascii_mode
        for panel in self.query(SeatPanel):
            panel.ascii = app.ascii_mode

    def language_changed(self) -> None:
        """Word every text again where it stands: the game, the log's lines and the hand's cursor stay."""
        self.query_one(EventLog).reword()
        self.query_one(ChatPanel).reword()
        self.query_one(StatusLine).clear_notice()  # a notice in the old language says nothing new
        for widget in self.query("SeatPanel, HandView, LineOfPlay, BoneyardInfo"):
            widget.refresh(layout=True)
        self._fit(self.app.size.width, self.app.size.height)
        view = self.view
        if view is not None:
            self._title = ""
            self._summary_round = -1
            self._show(view)

    def _table_changed(self, view: View, before: View | None, events: tuple[Event, ...], *,
                       snapshot: bool, seq: int) -> None:
        """A new view with the events that led to it (a snapshot: the round's events, the log anew)."""
        self._shown_seq = seq
        if self.choosing_end is not None and self.choosing_end not in view.legal:
            self.choosing_end = None
        if before is not None and before.turn != view.turn:
            # A notice belongs to the turn it was said in ("You drew 4-4."): the status line says now.
            self.query_one(StatusLine).clear_notice()
        log = self.query_one(EventLog)
        names = self._names(view)
        if snapshot:
            events = view.events
            log.restart()
            model = self.capicu.table
            for line in model.chat if model is not None else ():
                log.add_chat(line.name, line.text)  # what was said (also before we came back) is told again
        for event in events:
            log.add_event(event, names, view.seat)
            self._note_my_move(event, view, before)
        drawer = log.drawing()
        if drawer is not None and (view.turn != drawer or (drawer == view.seat and view.legal != (DRAW,))):
            # The run of draws is over (for me: a drawn tile fits, or nothing more can come).
            self._tell_draws(view)
        if any(isinstance(event, TilePlayed) and event.seat == view.seat for event in events):
            self.query_one(HandView).fresh = frozenset()
        if not view.between_rounds:
            self._said_ready = False
        if view.turn is None and (before is None or before.turn is not None):
            self.query_one(StatusLine).clear_notice()  # the round's end speaks now
            self.takes_ready = False
            self.set_timer(READY_DELAY, self._take_ready)
        self._show(view)

    def _take_ready(self) -> None:
        self.takes_ready = True

    def _note_my_move(self, event: Event, view: View, before: View | None) -> None:
        """Keep my hand as it was before my draws, to tell which tiles came."""
        if isinstance(event, TilesDrawn) and event.seat == view.seat and self._hand_before_draws is None:
            self._hand_before_draws = tuple(before.hand) if before is not None else ()

    def _tell_draws(self, view: View) -> None:
        """A run of draws ended: say it in the log, and to the drawer which tiles came."""
        log = self.query_one(EventLog)
        if log.drawing() == view.seat and self._hand_before_draws is not None:
            came = tuple(tile for tile in view.hand if tile not in self._hand_before_draws)
            self._hand_before_draws = None
            told = describe_my_draw(came)
            log.end_draws(lambda: describe_my_draw(came))
            hand = self.query_one(HandView)
            hand.fresh = hand.fresh | frozenset(came)
            self.say(told, log_it=False)
        else:
            log.end_draws()

    def say(self, text: str | Wording, *, log_it: bool = True, status: bool = True) -> None:
        """A notice for this player: in the status line for a moment (and in the log)."""
        if not (self._ready and self.is_attached):
            return
        if status:
            self.query_one(StatusLine).say(text() if callable(text) else text)
        if log_it:
            self.query_one(EventLog).add_notice(text)

    # -- drawing the screen ----------------------------------------------------------

    def _names(self, view: View) -> list[str]:
        game = self.capicu.game
        return [game.seat_name(s) if game else t("seat {number}", number=s + 1) for s in range(view.players)]

    def _show(self, view: View) -> None:
        direction = (
            t("play moves to your right") if view.rules.direction is Direction.COUNTERCLOCKWISE
            else t("play moves to your left")
        )
        preset = preset_title(view.rules.preset)
        if self.capicu.ascii_mode:
            title = t("{preset} - round {round} - to {target}", preset=preset, round=view.round_number,
                      target=view.target)
        else:
            title = t("{preset} · round {round} · to {target}", preset=preset, round=view.round_number,
                      target=view.target)
        if f"{title}   {direction}" != self._title:
            # Only when it changes: an update with the same text still repaints the row.
            self._title = f"{title}   {direction}"
            self.query_one("#table-title", Static).update(self._title)
        marks = line_marks(view.events)
        label = ""
        if marks.last_seat is not None:
            label = you() if marks.last_seat == view.seat else self._names(view)[marks.last_seat]
        self.query_one(LineOfPlay).update_line(
            view.line, view.ends, view.rules.max_pip, lead=marks.lead, last=marks.last, last_label=label,
            blanks=view.blanks or (),
        )
        hand = self.query_one(HandView)
        could_play = any(isinstance(a, Play) for a in hand.legal)
        hand.update_from_view(view)
        if view.is_my_turn and not could_play:
            # A turn starts (or forced draws brought a tile that fits).
            self._cursor_to_playable(hand, view)
        self.query_one(BoneyardInfo).update_from_view(view)
        self._show_seats(view)
        self._show_round_end(view)
        self._show_status(view)
        self._refresh_footer()

    def _refresh_footer(self) -> None:
        offered = tuple(self._offers(action) for action in
                        ("choose", "ready", "draw", "pass_turn", "hint", "seat_key", "choose_end"))
        if offered != self._offered:
            # Only when a key comes or goes: the footer is rebuilt each time (bytes over SSH).
            self._offered = offered
            self.refresh_bindings()

    @staticmethod
    def _cursor_to_playable(hand: HandView, view: View) -> None:
        """As a turn starts, put the cursor on a tile that fits, unless it is on one already."""
        fits = [a.tile for a in view.legal if isinstance(a, Play)]
        if not fits or (hand.selected in fits):
            return
        hand.cursor = view.hand.index(fits[0])

    def _show_seats(self, view: View) -> None:
        model = self.capicu.table
        positions = table_positions(view.players, view.seat, view.rules.direction)
        names = self._names(view)
        next_round = model.next_round if model is not None else None
        waiting = next_round.waiting if next_round is not None else ()
        ready = next_round.ready if next_round is not None else ()
        seats = model.seats if model is not None else ()
        link_down = model is not None and model.link is LinkState.RECONNECTING
        for seat, place in positions:
            occupant = next((s for s in seats if s.seat == seat), None)
            if link_down and seat == view.seat and occupant is not None:
                # The host's last word says connected; while our link is down, we are not.
                occupant = msgspec.structs.replace(occupant, connected=False)
            readiness = True if seat in ready else (False if seat in waiting else None)
            self.query_one(f"#{_SLOT[place]}", SeatPanel).update_seat(SeatView.from_view(
                view, seat, names, occupant=occupant, ready=readiness if view.between_rounds else None,
            ))
        self._tick()

    def _show_round_end(self, view: View) -> None:
        """Between rounds and once the match is over, the round's summary replaces the log."""
        over = view.turn is None and bool(view.results)
        self.set_class(over, "-round-over")
        if not over or self._summary_round == view.results[-1].round_number:
            return
        result = view.results[-1]
        self._summary_round = result.round_number
        lines = describe_result(result, self._names(view), view.rules, view.players, my_seat=view.seat,
                                hands=False)
        self.query_one("#round-end", Static).update("\n".join(lines))

    def _tick(self) -> None:
        """Count the turn timer and the next deal down (once a second)."""
        model = self.capicu.table
        view = model.view if model is not None else None
        if not isinstance(view, View) or model is None:
            return
        positions = table_positions(view.players, view.seat, view.rules.direction)
        timer = model.timer
        for seat, place in positions:
            left: int | None = None
            if timer is not None and timer.seat == seat and view.turn == seat:
                left = max(0, math.ceil(timer.deadline - time.monotonic()))
            self.query_one(f"#{_SLOT[place]}", SeatPanel).timer = left
        if view.between_rounds and model.next_round is not None and model.next_round.deadline is not None:
            self._show_status(view)

    def _show_status(self, view: View) -> None:
        status = self.query_one(StatusLine)
        if self.choosing_blank is not None:
            question = self.choosing_blank
            status.prompt = t(
                "Blank of {tile} as which number ({low}-{high})? ← → or digit, Enter: {number}. "
                "Esc: another tile.", tile=str(question.tile), low=min(question.numbers),
                high=max(question.numbers), number=question.number)
        elif REDEAL in view.legal and view.ends is None:
            status.prompt = (t("You were dealt five doubles or more: n asks for a new deal, or play on.")
                             if view.is_my_turn
                             else t("You were dealt five doubles or more: n asks for a new deal."))
        elif self.choosing_end is not None and view.ends is not None:
            status.prompt = t(
                "{tile} fits both ends: ← left ({left}) or → right ({right})? Esc: another tile.",
                tile=str(self.choosing_end.tile), left=view.ends[0], right=view.ends[1])
        elif view.match_over and self._final_score_shown:
            status.prompt = t("The match is over.")
        elif view.match_over:
            status.prompt = t("The match is over. Press Enter for the final score.")
        elif view.between_rounds:
            status.prompt = self._break_prompt(view)
        elif view.seat is None:
            status.prompt = t("You are watching.")
        elif not view.is_my_turn:
            status.prompt = t("{name} is playing...", name=self._names(view)[view.turn or 0])
        elif view.legal == (PASS,):
            status.prompt = (
                t("Nothing fits and el pozo is down to its reserve: press p to pass (paso).")
                if view.rules.drawing else t("Nothing fits: press p to pass (paso).")
            )
        elif view.legal == (DRAW,):
            status.prompt = t("Nothing fits: drawing from el pozo...")
        elif view.forced_lead is not None:
            status.prompt = t("Your lead: {tile} opens the round. Enter plays it.",
                              tile=str(view.forced_lead))
        elif DRAW in view.legal:
            status.prompt = t("Your turn: play a tile, or press d to draw.")
        else:
            status.prompt = t("Your turn: pick a tile with the arrows, Enter plays it.")

    def _break_prompt(self, view: View) -> str:
        model = self.capicu.table
        state = model.next_round if model is not None else None
        if view.seat is None:
            text = t("Round over: the next deal comes when the players are ready.")
        elif self._said_ready or (state is not None and view.seat in state.ready):
            others = [s for s in state.waiting if s != view.seat] if state is not None else []
            if others:
                names = self._names(view)
                text = t("You are ready. Waiting for {names}.", names=and_list([names[s] for s in others]))
            else:
                text = t("Everyone is ready: dealing...")
        else:
            text = t("Round over: press Enter when you are ready.")
        if state is not None and state.deadline is not None:
            seconds = max(0, math.ceil(state.deadline - time.monotonic()))
            text += " " + t("Next deal in {seconds} s.", seconds=seconds)
        return text

    # -- acting ----------------------------------------------------------------------

    def on_hand_view_tile_chosen(self, message: HandView.TileChosen) -> None:
        view = self.view
        if view is None or view.seat is None or self.table_hidden:
            return
        plays = [a for a in message.actions if isinstance(a, Play) and a in view.legal]
        if not plays:
            # Enter on a tile that may not be played now: why, in the engine's words.
            if view.between_rounds or view.match_over:
                self.action_ready()
                return
            self._explain(Play(message.tile, End.LEFT if view.ends is None else End.RIGHT), view)
            return
        ends = view.ends if view.ends is not None else (0, 0)
        places = {play.place for play in plays}
        if len(places) == 1 or ends[0] == ends[1]:
            # Two equal ends leave the same game either way: no question to ask but the blank's.
            self._lay(plays, plays[0].place, view)
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
            plays = [a for a in view.legal if isinstance(a, Play) and a.tile == chosen.tile]
            self._lay(plays, End(end), view)

    # -- a wild blank's number, and a new deal (house rules) --------------------------

    def _lay(self, plays: list[Play], place: object, view: View) -> None:
        """Send the play of ``plays`` on ``place``, asking first for its blank's number when it has one."""
        here = [play for play in plays if play.place == place]
        named = {play.blank: play for play in here if play.blank is not None}
        if not named:
            if here:
                self.run_worker(self.capicu.send_action(here[0]), group="intent")
            return
        plain = next((play for play in here if play.blank is None), None)
        choices = dict(named)
        if plain is not None and view.ends is not None:
            # The blank touching the end is the blank given that end's number.
            choices[view.ends[1] if place is End.RIGHT else view.ends[0]] = plain
        numbers = tuple(sorted(choices))
        self.choosing_blank = BlankQuestion(plays[0].tile, choices, numbers, numbers[-1])
        self._show_status(view)
        self._refresh_footer()

    def action_blank_step(self, step: int) -> None:
        question = self.choosing_blank
        if question is None:
            return
        index = (question.numbers.index(question.number) + step) % len(question.numbers)
        self.choosing_blank = replace(question, number=question.numbers[index])
        if self.view is not None:
            self._show_status(self.view)

    def action_blank_choose(self, number: int) -> None:
        """Choose ``number`` for the blank (a digit): laid by Enter. A number it cannot be is said."""
        question = self.choosing_blank
        if question is None:
            return
        if number not in question.plays:
            self.say(t("The blank of {tile} cannot be {number} here.", tile=str(question.tile),
                       number=number), log_it=False)
            return
        self.choosing_blank = replace(question, number=number)
        self.query_one(StatusLine).clear_notice()  # the choice made, not a refusal it replaced
        if self.view is not None:
            self._show_status(self.view)

    def action_blank_lay(self) -> None:
        """Lay the tile with its blank as the number chosen (with the arrows or a digit)."""
        question = self.choosing_blank
        if question is None:
            return
        self.action_cancel_blank()
        self.run_worker(self.capicu.send_action(question.plays[question.number]), group="intent")

    def action_cancel_blank(self) -> None:
        self.choosing_blank = None
        if self.view is not None:
            self._show_status(self.view)
        self._refresh_footer()

    def action_redeal(self) -> None:
        view = self.view
        if view is not None and REDEAL in view.legal:
            self.run_worker(self.capicu.send_action(REDEAL), group="intent")

    def action_cancel_end(self) -> None:
        self.choosing_end = None
        if self.view is not None:
            self._show_status(self.view)
        self._refresh_footer()

    def _explain(self, action: Action, view: View) -> None:
        """Say why ``action`` is not allowed now (the engine's reason, in words)."""
        text = describe_action_refused(view, action, self._names(view))
        if text:
            self.say(text, log_it=False)

    def action_explain(self, what: str) -> None:
        """A key that does nothing now says why (a table key never goes unanswered)."""
        if what == "seat_key":
            self.say(t("Only a seated player at someone else's table has a seat key."), log_it=False)
            return
        if what == "how_to_join":
            game = self.capicu.game
            if game is not None and isinstance(game.request, JoinGame):
                self.say(t("The host's terminal shows how to join this table."), log_it=False)
            else:
                self.say(t("Nobody else joins this table: it is played here alone."), log_it=False)
            return
        if what == "choose_end":
            self.say(t("h, l, 1 and 2 choose an end when a tile fits both."), log_it=False)
            return
        view = self.view
        if view is None:
            return
        if view.seat is None:
            self.say(t("You are watching."), log_it=False)
            return
        self._explain(DRAW if what == "draw" else PASS, view)

    def on_chat_panel_send(self, message: ChatPanel.Send) -> None:
        self.run_worker(self.capicu.send_chat(message.text), group="intent")
        self.set_focus(None)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return self._offers(action)

    @property
    def table_hidden(self) -> bool:
        """Whether the window is too small and a message shows instead of the table."""
        return self.has_class("-too-small")

    def _chatting(self) -> bool:
        return self.is_mounted and self.query_one(ChatPanel).has_focus_within

    def _offers(self, action: str) -> bool:
        """Whether the footer offers ``action`` now (the engine's legal actions decide)."""
        if self.table_hidden:
            return action == "leave"  # no key acts on a table nobody can see
        if self._chatting():
            # The keys are chat's: only the way back to the table is the table's.
            return action == "leave_chat"
        if action == "leave_chat":
            return False
        view = self.view
        seated = view is not None and view.seat is not None
        if action in ("blank_step", "blank_choose", "blank_lay", "cancel_blank"):
            return self.choosing_blank is not None
        if action in ("choose_end", "cancel_end"):
            return self.choosing_end is not None
        if self.choosing_end is not None or self.choosing_blank is not None:
            return False  # one question at a time: which end, or which number
        if action == "redeal":
            return view is not None and REDEAL in view.legal
        if action == "choose":
            return view is not None and view.is_my_turn and any(isinstance(a, Play) for a in view.legal)
        if action == "choose_anyway":
            return seated and view is not None and view.turn is not None
        if action == "ready":
            if view is None or view.seat is None:
                return False
            return view.match_over or (view.between_rounds and not self._said_ready)
        if action == "draw":
            return view is not None and view.is_my_turn and DRAW in view.legal and len(view.legal) > 1
        if action == "pass_turn":
            return view is not None and view.is_my_turn and view.legal == (PASS,)
        if action == "hint":
            return seated and view is not None and view.turn is not None
        if action == "seat_key":
            return self._has_seat_key()
        if action == "how_to_join":
            game = self.capicu.game
            hosts_others = game is not None and isinstance(game.request, HostGame)
            return hosts_others and self.capicu.hosted_at is not None
        return True

    def _has_seat_key(self) -> bool:
        game = self.capicu.game
        return game is not None and game.table.seat_key is not None and not game.hosting

    def action_ready(self) -> None:
        view = self.view
        if view is None or view.seat is None or not self.takes_ready:
            return
        if view.match_over:
            self.capicu.show_match_over(view)
            self._final_score_shown = True
            self._show_status(view)
            return
        if view.between_rounds and not self._said_ready:
            self._said_ready = True
            self.run_worker(self.capicu.send_ready(), group="intent")
            self._show_status(view)
            self._refresh_footer()

    def action_cursor(self, step: int) -> None:
        self.query_one(HandView).action_cursor(step)

    def action_cursor_to(self, index: int) -> None:
        self.query_one(HandView).action_cursor_to(index)

    def action_choose(self) -> None:
        self.query_one(HandView).action_choose()

    def action_choose_anyway(self) -> None:
        self.query_one(HandView).action_choose()

    def action_draw(self) -> None:
        view = self.view
        if view is not None and view.is_my_turn and DRAW in view.legal:
            self.run_worker(self.capicu.send_action(DRAW), group="intent")

    def action_pass_turn(self) -> None:
        view = self.view
        if view is not None and view.is_my_turn and view.legal == (PASS,):
            self.run_worker(self.capicu.send_action(PASS), group="intent")

    def action_chat(self) -> None:
        self.query_one(ChatPanel).input.focus()

    def action_rules(self) -> None:
        self.capicu.show_rules_and_keys()

    def action_seat_key(self) -> None:
        game = self.capicu.game
        if game is None:
            return
        over_ssh = isinstance(game.request, JoinGame) and game.request.return_line is not None
        command = game.seat_key_command()
        self.app.push_screen(SeatKeyScreen(game.table.seat_key, command, back_by_itself=not over_ssh))

    def action_leave_chat(self) -> None:
        self.set_focus(None)  # back to the table's keys

    def action_how_to_join(self) -> None:
        hosting = self.capicu.hosted_at
        if hosting is not None:
            from capicu.tui.screens.how_to_join import HowToJoinScreen  # only for a host's player

            self.app.push_screen(HowToJoinScreen())

    def action_leave(self) -> None:
        if self._chatting():
            self.set_focus(None)  # back to the table's keys
            return
        game = self.capicu.game
        hosting = game is not None and game.hosting
        seat_key = way_back = None
        if game is not None and isinstance(game.request, JoinGame) and game.request.ssh_line is not None:
            seat_key, way_back = game.table.seat_key, game.request.ssh_line

        async def answered(leave: bool | None) -> None:
            if leave:
                await self.capicu.leave_game(end_match=hosting)

        solo = game is not None and isinstance(game.request, SoloGame)
        self.app.push_screen(LeaveScreen(hosting, solo=solo, seat_key=seat_key, way_back=way_back), answered)

    def action_hint(self) -> None:
        view = self.view
        if view is None or not view.is_my_turn:
            self.say(t("Hints are for your turn."), log_it=False)
            return
        if self._last_hint is not None and self._last_hint[0] is view:
            self._show_hint(view, self._last_hint[1], evidence=True)  # asked again: the figures behind it
            return
        self.say(t("Thinking of a hint..."), log_it=False)
        self._find_hint(view)

    @work(thread=True, exclusive=True, group="hint")
    def _find_hint(self, view: View) -> None:
        # Imported on the first hint: the search it runs (core/ai: search, inference, playout)
        # costs about 18 ms at start, 0.06 of bench/tui.py's start_ratio, for a key many
        # players never press.
        from capicu.core.ai.hints import suggest

        hint = suggest(view, seed=view.round_number)
        self.app.call_from_thread(self._show_hint, view, hint)

    def _show_hint(self, view: View, hint: Hint, *, evidence: bool = False) -> None:
        if self.view is not view:
            return  # the table moved on while we thought
        self._last_hint = (view, hint)
        # Worded here, not in the worker's thread: the words follow this app's language.
        reason = describe_hint_reasons(hint, self._names(view), view.seat, evidence=evidence)
        self.say(t("Hint: {action} ({reason})", action=describe_action(hint.action, view), reason=reason),
                 log_it=False)
        action = hint.action
        if isinstance(action, Play):
            hand = self.query_one(HandView)
            if action.tile in hand.hand:
                hand.cursor = hand.hand.index(action.tile)
