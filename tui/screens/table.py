"""The table: what every game's table does alike, around the game's own board.

The screen shows the table's model (`CapicuApp.table`) as each change comes
(`model_changed`) and turns key presses into intents. It never decides what
is legal: the hand lights what the engine lists, and a key that is not allowed
now is answered with the engine's own reason.

Written here once, for every game: the hand's cursor, Enter for the next deal
(ready) and for the final score, chat, leaving, the seat key, how to join,
notices (the status line for a moment, and the log), the turn timer and the
next deal's countdown, the window too small to draw the table in. Each game
gives its own subclass: its board widget (the Draw family's line of play,
Mexican Train's lanes) in `compose_board`, its keys (``BINDINGS``, placed
around the ones declared here), and its words (the title, the prompts, the
log's lines, the round's summary, its refusals and its hint).

Nothing is ever drawn over the hand or the board: notices go to the status
line and the log. When a round ends the finished table stays in view until
every person has pressed Enter or the host's countdown runs out.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from typing import ClassVar, Generic, TypeVar, cast

from capicu.core import DRAW, PASS, Action, Rules
from capicu.net.client import Update
from capicu.net.model import Change
from capicu.net.protocol import Chat, GameSnapshot, GameView, Seats
from capicu.tui.game import HostGame, JoinGame, SoloGame, seat_notices
from capicu.tui.screens.base import CapicuModalScreen, CapicuScreen
from capicu.tui.widgets.chat_panel import ChatPanel
from capicu.tui.widgets.event_log import EventLog
from capicu.tui.widgets.hand_view import HandView
from capicu.tui.widgets.quiet_footer import QuietFooter
from capicu.tui.widgets.status_line import StatusLine
from capicu.tui.words.describe import and_list, describe_unfinished
from capicu.tui.words.messages import N_, Wording, later, t, tc
from textual import events
from textual.app import ComposeResult
from textual.binding import ActiveBinding, Binding, BindingType
from textual.containers import Vertical
from textual.widgets import Footer, Static

#: The smallest window the table is drawn in; below it, a message says so.
MIN_SIZE = (80, 24)
#: Seconds after a round ends before Enter says "ready" (an Enter meant for the last tile).
READY_DELAY = 0.8

#: The view of the game at this table (any game's: what the wire knows of every view).
ViewT = TypeVar("ViewT", bound=GameView)


def too_small(width: int, height: int) -> str | None:
    """What a window below `MIN_SIZE` shows instead of the table (None: the table fits)."""
    if width >= MIN_SIZE[0] and height >= MIN_SIZE[1]:
        return None
    return t("Make the window at least {width}x{height} to see the table (it is {now}).",
             width=str(MIN_SIZE[0]), height=str(MIN_SIZE[1]), now=f"{width}x{height}")


def yes_keys() -> str:
    """The letters that say yes in the reader's language, and ``y`` in every language."""
    # TRANSLATORS: the letter of your language's "yes" (Spanish: s, for "sí"); keep it one letter.
    letter = tc("the key that says yes", "y").strip().lower()[:1]
    return "".join(dict.fromkeys(f"y{letter}" if letter.isalpha() else "y"))


class YesNoScreen(CapicuModalScreen[bool]):
    """A question that one key answers: yes is ``y`` everywhere, and also the reader's own letter for
    it (``s`` in Spanish). The footer shows the reader's letter for the binding of `YES_ACTION`
    (bound to ``y``), and that letter does it too (`on_key`)."""

    #: The action the yes key does (a binding of ``y``'s, with its arguments if any).
    YES_ACTION: ClassVar[str]

    def __init__(self) -> None:
        super().__init__()
        # Yes in the reader's language as the dialog opens (``s`` in Spanish); ``y`` works in every one.
        self.yes = yes_keys()[-1]

    @property
    def active_bindings(self) -> dict[str, ActiveBinding]:
        """The keys as the footer shows them: yes under the reader's own letter."""
        return {key: active._replace(binding=active.binding.with_key("y", key_display=self.yes))
                if active.binding.action == self.YES_ACTION else active
                for key, active in super().active_bindings.items()}

    async def on_key(self, event: events.Key) -> None:
        if event.key == self.yes:  # ``y`` is a binding; the reader's own letter for yes does it as well
            event.stop()
            await self.run_action(self.YES_ACTION)


class LeaveScreen(YesNoScreen):
    """Leaving is one key away, and one more to confirm (yes: `YesNoScreen`).

    An SSH player is shown the way back as it is: the ssh line and the seat key as its password.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "leave", N_("Leave")),
        # Enter stays: a player pressing Enter to play must never leave by accident.
        Binding("n,escape,q,enter", "stay", N_("Stay"), key_display="n/esc"),
    ]
    YES_ACTION = "leave"

    def __init__(self, hosting: bool, *, solo: bool = False, seat_key: str | None = None,
                 way_back: str | None = None, organiser: bool = False) -> None:
        super().__init__()
        self.hosting = hosting
        #: A game against the computer (nobody else at the table to end it for).
        self.solo = solo
        #: An SSH player's seat key and ssh line: their way back (None: the same join command works).
        self.seat_key = seat_key
        self.way_back = way_back
        #: The club night's organiser, whose terminal runs the night (``hosting`` aside).
        self.organiser = organiser

    def compose(self) -> ComposeResult:
        with Vertical(id="leave-box", classes="dialog"):
            if self.organiser:
                # TRANSLATORS: {yes} is the key that says yes (y; in Spanish s), shown as the reader types it.
                question = t("Leave the club night? Press {yes} to leave; n or Esc to stay.", yes=self.yes)
            else:
                # TRANSLATORS: {yes} is the key that says yes (y; in Spanish s), shown as the reader types it.
                question = t("Leave the table? Press {yes} to leave; n or Esc to stay.", yes=self.yes)
            yield Static(question, classes="screen-title")
            if self.solo:
                yield Static(t("Leaving ends this game against the computer: it will not be offered again."))
            elif self.organiser:
                yield Static(t("You run this club night: leaving stops it for everyone, until you run "
                               "capicu club again to go on with it."))
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


class TableScreen(CapicuScreen[None], Generic[ViewT]):
    """Where a match is played: the keys and clocks of every table, around the game's board."""

    #: The table itself has the keyboard (its bindings drive the hand), so that the
    #: Footer lists its keys in the table's order: the ones that come and go with
    #: the turn last, where they repaint only their own cells (bytes over SSH).
    AUTO_FOCUS = ""

    # Every table's keys; a game's ``BINDINGS`` places them around its own, in the footer's order.
    #: First: the hand's cursor (see HandView.CURSOR_BINDINGS, driven from here), the hint, chat,
    #: the seat key, how to join, the rules.
    TABLE_BINDINGS: ClassVar[list[BindingType]] = [
        *HandView.CURSOR_BINDINGS,
        Binding("x", "hint", N_("Hint")),
        Binding("x", "explain('hint')", "", show=False),
        Binding("c", "chat", N_("Chat")),
        Binding("k", "seat_key", N_("Seat key")),
        Binding("k", "explain('seat_key')", "", show=False),
        Binding("j", "how_to_join", N_("How to join")),
        Binding("j", "explain('how_to_join')", "", show=False),
        Binding("r,f1", "rules", N_("Rules")),
    ]
    #: While chat has the keyboard, q is a letter and Esc only gives the keyboard back.
    LEAVE_CHAT_BINDING: ClassVar[Binding] = Binding("escape", "leave_chat", N_("Back to the table"),
                                                    key_display="esc")
    #: The keys that come and go with the turn, last; a key not allowed now still answers (the status line
    #: says why).
    TURN_BINDINGS: ClassVar[list[BindingType]] = [
        HandView.CHOOSE_BINDING,
        Binding("enter", "ready", N_("Ready")),
        HandView.CHOOSE_ANYWAY_BINDING,
        Binding("d", "draw", N_("Draw")),
        Binding("d", "explain('draw')", "", show=False),
        Binding("p", "pass_turn", N_("Pass")),
        Binding("p", "explain('pass')", "", show=False),
    ]

    #: The actions whose offer the footer follows (`_refresh_footer`): the game's own come after these.
    FOOTER_ACTIONS: ClassVar[tuple[str, ...]] = ("choose", "ready", "draw", "pass_turn", "hint", "seat_key")
    #: The widgets that word themselves (refreshed when the language changes), as a selector.
    WORDED: ClassVar[str] = "HandView"
    #: A long notice wraps to a second row of the status line rather than lose its end.
    STATUS_WRAPS: ClassVar[bool] = False

    def __init__(self, view: ViewT) -> None:
        """The table of ``view``'s match (the first view the model holds)."""
        super().__init__()
        self._ready = False
        #: The number of the last event the log shows (a change the screen showed already is skipped).
        self._shown_seq = -1
        #: The status line says why a key did nothing (cleared once the table changes).
        self._refused = False
        #: Which of the events being told (their places among them) the computer made for this seat,
        #: covering it while its person was away: a game's `_tell` words them so ("The computer played
        #: 5-6 for you.", not "You play 5-6").
        self.covered: frozenset[int] = frozenset()
        #: What the footer offers (see `_offers`), so it is rebuilt only when that changes.
        self._offered: tuple[bool, ...] = ()
        #: The title as shown, and the round whose summary is shown (each drawn again only when it changes).
        self._title = ""
        self._summary_round = -1
        #: Enter pressed for the next deal in this break.
        self._said_ready = False
        #: The final score is open over the table (Enter opened it).
        self._final_score_shown = False
        #: False for a moment after a round ends, so that an Enter meant for the
        #: round's last tile does not skip its end unread (set by a Textual timer).
        self.takes_ready = False

    # -- layout --------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Static("", id="table-title")
        yield from self.compose_board()
        yield StatusLine(id="table-status", wraps=self.STATUS_WRAPS)
        hand = HandView(id="hand", tile_style=self.capicu.tile_style, ascii=self.capicu.ascii_mode)
        hand.can_focus = False  # the table's keys drive it
        yield from self.compose_hand(hand)
        yield Static("", id="too-small")
        yield QuietFooter()

    @classmethod
    def key_lines(cls, rules: Rules | None) -> list[str]:
        """Every key of this table, each once, as the rules and keys screen lists them.

        ``rules``: the match in play (None: none is, the keys of a preset read from the menu).
        """
        from capicu.tui.screens.rules_keys import binding_lines  # (the rules and keys screen's)

        return [*binding_lines(cls.BINDINGS), ""]

    def compose_board(self) -> ComposeResult:
        """The game's board, the log and chat, between the title and the status line."""
        yield from ()

    def compose_hand(self, hand: HandView) -> ComposeResult:
        """The row of one's hand (a game may set one's own seat beside it)."""
        yield hand

    def on_mount(self) -> None:
        if not self.query(EventLog):
            return  # the app ended while the table opened: its widgets never came
        self._ready = True
        self.set_interval(1.0, self._tick)
        self._fit(self.app.size.width, self.app.size.height)
        model = self.capicu.table
        if model is None:
            return
        if model.view is not None:
            # The table as it is now, told as a snapshot is (the changes until now are in it).
            self._table_changed(cast("ViewT", model.view), None, (), snapshot=True, seq=model.seq)
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
        small = too_small(width, height)
        if (small is not None) != self.has_class("-too-small"):
            self.refresh_bindings()  # a hidden table takes no keys (`_offers`), and the footer says so
        self.set_class(small is not None, "-too-small")
        if small is not None:
            self.query_one("#too-small", Static).update(small)

    # -- what the App tells us -----------------------------------------------------

    @property
    def view(self) -> ViewT | None:
        """The table's view as the model has it now (what key presses act on).

        The App opens the table of the game the model holds (`tui.games`): its view is this game's.
        """
        model = self.capicu.table
        return cast("ViewT | None", model.view if model is not None else None)

    def model_changed(self, change: Change) -> None:
        """Show what the model took: a new view with its events, the seats, the clocks, chat."""
        if not (self._ready and self.is_attached):  # not shown yet (on_mount shows the model), or closing
            return
        taken = change.message
        before = cast("ViewT | None", change.view_before)
        if isinstance(taken, GameSnapshot):
            self._table_changed(cast("ViewT", taken.view), before, (), snapshot=True, seq=taken.seq)
            return
        if isinstance(taken, Update):
            if taken.seq > self._shown_seq:
                self._table_changed(cast("ViewT", taken.view), before, taken.events, snapshot=False,
                                    seq=taken.seq)
            return
        model = self.capicu.table
        if isinstance(taken, Seats) and model is not None:
            for notice in seat_notices(change.seats_before, taken.seats, model.seat, change.awaited_before):
                self.query_one(EventLog).add_notice(notice)
        elif isinstance(taken, Chat):
            self.query_one(EventLog).add_chat(taken.name, taken.text)
        view = self.view
        if view is not None:
            self._show_around(view)

    def display_changed(self) -> None:
        app = self.capicu
        for hand in self.query(HandView):
            hand.tile_style, hand.ascii = app.tile_style, app.ascii_mode

    def language_changed(self) -> None:
        """Word every text again where it stands: the game, the log's lines and the hand's cursor stay."""
        self.query_one(EventLog).reword()
        self.query_one(ChatPanel).reword()
        self.query_one(StatusLine).clear_notice()  # a notice in the old language says nothing new
        for widget in self.query(self.WORDED):
            widget.refresh(layout=True)
        self._fit(self.app.size.width, self.app.size.height)
        self._title = ""
        self._summary_round = -1
        view = self.view
        if view is not None:
            self._show(view)

    def _table_changed(self, view: ViewT, before: ViewT | None, news: tuple[object, ...], *,
                       snapshot: bool, seq: int) -> None:
        """A new view with the events that led to it (a snapshot: the round's events, the log anew)."""
        self._shown_seq = seq
        self._view_changed(view)
        if (before is not None and before.turn != view.turn) or self._refused:
            # A notice belongs to the turn it was said in ("You drew 4-4."): the status line says now.
            # A refusal belongs to the table it was said of ("5-5 does not fit Computer 5's train, which
            # shows 3"): once the table changed it may be true no more, even back on the same turn.
            self._refused = False
            self.query_one(StatusLine).clear_notice()
        log = self.query_one(EventLog)
        if snapshot:
            news = tuple(view.events)
        self.covered = self._covered(len(news), seq)
        if snapshot:
            log.restart()
            model = self.capicu.table
            for line in model.chat if model is not None else ():
                log.add_chat(line.name, line.text)  # what was said (also before we came back) is told again
        self._tell(news, before, view, snapshot=snapshot)
        if not view.between_rounds:
            self._said_ready = False
        if view.turn is None and (before is None or before.turn is not None):
            self.query_one(StatusLine).clear_notice()  # the round's end speaks now
            self.takes_ready = False
            self.set_timer(READY_DELAY, self._take_ready)
        self._show(view)

    def _covered(self, count: int, seq: int) -> frozenset[int]:
        """Which of the ``count`` events told now, the last numbered ``seq``, the computer made for this
        seat (their places among them), as the model knows (`TableModel.covered`)."""
        model = self.capicu.table
        first = seq - count + 1
        return frozenset(number - first for number in model.covered if first <= number <= seq) \
            if model is not None else frozenset()

    def _view_changed(self, view: ViewT) -> None:
        """Drop what the new view makes stale (a question about a move no longer legal)."""

    def _tell(self, news: tuple[object, ...], before: ViewT | None, view: ViewT, *, snapshot: bool) -> None:
        """Tell ``news`` (the events that led to ``view``) in the log, in the game's words."""

    def _take_ready(self) -> None:
        self.takes_ready = True

    def say(self, text: str | Wording, *, log_it: bool = True, status: bool = True) -> None:
        """A notice for this player: in the status line for a moment (``status``), and in the log."""
        if not (self._ready and self.is_attached):
            return
        self._refused = False
        if status:
            self.query_one(StatusLine).say(text() if callable(text) else text)
        if log_it:
            self.query_one(EventLog).add_notice(text)

    # -- drawing the screen ----------------------------------------------------------

    def _names(self, view: ViewT) -> list[str]:
        game = self.capicu.game
        return [game.seat_name(s) if game else t("seat {number}", number=s + 1) for s in range(view.players)]

    def _show_title(self, title: str) -> None:
        if title != self._title:
            # Only when it changes: an update with the same text still repaints the row.
            self._title = title
            self.query_one("#table-title", Static).update(title)

    def _show(self, view: ViewT) -> None:
        """Show ``view`` whole: the game's board and hand, then the round's end, the status, the keys."""
        self._show_round_end(view)
        self._show_status(view)
        self._refresh_footer()

    def _show_around(self, view: ViewT) -> None:
        """Show what changed around the board (the seats, the clocks, chat): by default, everything."""
        self._show(view)

    def _refresh_footer(self) -> None:
        offered = tuple(self._offers(action) for action in self.FOOTER_ACTIONS)
        if offered != self._offered:
            # Only when a key comes or goes: the footer is rebuilt each time (bytes over SSH).
            self._offered = offered
            self.refresh_bindings()

    def _show_round_end(self, view: ViewT) -> None:
        """Between rounds and once the match is over, the round's summary replaces the log."""
        over = view.turn is None and bool(view.results)
        self.set_class(over, "-round-over")
        if not over or self._summary_round == view.results[-1].round_number:
            return
        self._summary_round = view.results[-1].round_number
        self.query_one("#round-end", Static).update(self._round_summary(view))

    def _round_summary(self, view: ViewT) -> str:
        """The last round's summary, in the game's words."""
        return ""

    def _tick(self) -> None:
        """Count the turn timer and the next deal down (once a second)."""
        model = self.capicu.table
        view = self.view
        if view is None or model is None:
            return
        timer = model.timer
        left: tuple[int, int] | None = None
        if timer is not None and view.turn == timer.seat:
            left = (timer.seat, max(0, math.ceil(timer.deadline - time.monotonic())))
        self._show_turn_timer(view, left)
        if view.between_rounds and model.next_round is not None and model.next_round.deadline is not None:
            self._show_status(view)

    def _show_turn_timer(self, view: ViewT, left: tuple[int, int] | None) -> None:
        """Show the turn timer: ``left`` is the seat on turn and its seconds left (None: no timer runs)."""

    def _show_status(self, view: ViewT) -> None:
        status = self.query_one(StatusLine)
        question = self._question_prompt(view)
        if question is not None:
            status.prompt = question
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
        else:
            status.prompt = self._turn_prompt(view)

    def _question_prompt(self, view: ViewT) -> str | None:
        """What the status line asks while the game waits on the player's answer (None: nothing waits)."""
        return None

    def _turn_prompt(self, view: ViewT) -> str:
        """What the status line says on the player's own turn, in the game's words."""
        return t("Your turn: pick a tile with the arrows, Enter plays it.")

    def _round_over_words(self) -> tuple[str, str]:
        """What the status line says once a round is over, to a player and to a watcher (a game that
        calls its rounds hands says so)."""
        return (t("Round over: press Enter when you are ready."),
                t("Round over: the next deal comes when the players are ready."))

    def _break_prompt(self, view: ViewT) -> str:
        model = self.capicu.table
        state = model.next_round if model is not None else None
        to_player, to_watcher = self._round_over_words()
        if view.seat is None:
            text = to_watcher
        elif self._said_ready or (state is not None and view.seat in state.ready):
            others = [s for s in state.waiting if s != view.seat] if state is not None else []
            if others:
                names = self._names(view)
                text = t("You are ready. Waiting for {names}.", names=and_list([names[s] for s in others]))
            else:
                text = t("Everyone is ready: dealing...")
        else:
            text = to_player
        if state is not None and state.deadline is not None:
            seconds = max(0, math.ceil(state.deadline - time.monotonic()))
            text += " " + t("Next deal in {seconds} s.", seconds=seconds)
        return text

    # -- acting ----------------------------------------------------------------------

    def _send(self, action: Action) -> None:
        self.run_worker(self.capicu.send_action(action), group="intent")

    def _send_all(self, actions: Sequence[Action]) -> None:
        """Send these intents in this order (a turn of several plays, sent as the protocol has it)."""

        async def in_order() -> None:
            for action in actions:
                await self.capicu.send_action(action)

        self.run_worker(in_order(), group="intent")

    def _explain(self, action: Action, view: ViewT) -> None:
        """Say why ``action`` is not allowed now (the engine's reason, in words)."""
        text = self._refusal(action, view)
        if text:
            self.say(text, log_it=False)
            self._refused = True

    def _refusal(self, action: Action, view: ViewT) -> str:
        """Why ``action`` is not allowed now, in the game's words ("" when it is)."""
        return ""

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
        if self._explain_own(what):
            return
        view = self.view
        if view is None:
            return
        if view.seat is None:
            self.say(t("You are watching."), log_it=False)
            return
        if what == "hint":
            self.say(t("Hints are for your turn."), log_it=False)
            return
        if self._explain_in_turn(what, view):
            return
        self._explain(DRAW if what == "draw" else PASS, view)

    def _explain_own(self, what: str) -> bool:
        """Say why a key of the game's own does nothing now (False: ``what`` is not one of them)."""
        return False

    def _explain_in_turn(self, what: str, view: ViewT) -> bool:
        """Say why draw or pass does nothing now when the game has its own reason (False: it has not)."""
        return False

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
        asked = self._asks(action)
        if asked is not None:
            return asked
        view = self.view
        seated = view is not None and view.seat is not None
        if action == "ready":
            if view is None or view.seat is None:
                return False
            return view.match_over or (view.between_rounds and not self._said_ready)
        if action in ("choose_anyway", "hint"):
            return seated and view is not None and view.turn is not None
        if action == "seat_key":
            return self._has_seat_key()
        if action == "how_to_join":
            game = self.capicu.game
            hosts_others = game is not None and isinstance(game.request, HostGame)
            return hosts_others and self.capicu.hosted_at is not None
        return self._offers_own(action, view)

    def _asks(self, action: str) -> bool | None:
        """While the game asks the player a question, whether ``action`` is offered (None: nothing asked)."""
        return None

    def _offers_own(self, action: str, view: ViewT | None) -> bool:
        """Whether the game offers ``action`` now (play, draw, pass and the game's own keys)."""
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
            self._send(DRAW)

    def action_pass_turn(self) -> None:
        view = self.view
        if view is not None and view.is_my_turn and PASS in view.legal:
            self._send(PASS)

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
        if game is not None and game.table.seat is None and self.capicu.club is not None:
            # Watching a club night's table: nothing to lose, straight back to the standings.
            self.run_worker(self.capicu.leave_game(), group="leave")
            return
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
        if view is None or not view.is_my_turn or view.seat is None:
            self.say(t("Hints are for your turn."), log_it=False)
            return
        if self._hint_again(view):
            return
        self.say(t("Thinking of a hint..."), log_it=False)
        self._find_hint(view)

    def _hint_again(self, view: ViewT) -> bool:
        """The same hint asked again: say more (False: nothing more to say)."""
        return False

    def _find_hint(self, view: ViewT) -> object:
        """Find the game's hint for ``view`` (in a worker: a game's search takes a moment) and show it."""
        return None
