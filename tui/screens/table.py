"""The table: the line of play, your hand, the other seats, el pozo, the log and chat.

The screen shows what the link last reported (`CapicuApp.game`) and turns key
presses into intents. It never decides what is legal: the hand lights the
tiles in ``view.legal``, a tile that fits both ends asks which end, draw is
offered when the engine lists it, pass only when it is the only action.
A draw the rules force is made for the player, and the hand says how many
tiles came ("You drew 3 tiles").
"""

from __future__ import annotations

import math
import time
from typing import TYPE_CHECKING, ClassVar

from capicu.core import DRAW, PASS, Action, Direction, End, Event, Play, TilesDrawn, View
from capicu.tui.describe import describe_event
from capicu.tui.link import TableChanged
from capicu.tui.messages import add_messages, t
from capicu.tui.widgets.boneyard_info import BoneyardInfo
from capicu.tui.widgets.chat_panel import ChatPanel
from capicu.tui.widgets.event_log import EventLog
from capicu.tui.widgets.hand_view import HandView
from capicu.tui.widgets.line_of_play import LineOfPlay
from capicu.tui.widgets.quiet_footer import QuietFooter
from capicu.tui.widgets.seat_panel import Position, SeatInfo, SeatPanel, table_positions
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen, Screen
from textual.widgets import Footer, Static

if TYPE_CHECKING:
    from capicu.tui.app import CapicuApp

add_messages({
    "table.title": "{preset} · round {round} · to {target}",
    "table.title_ascii": "{preset} - round {round} - to {target}",
    "table.direction_ccw": "play moves to your right",
    "table.direction_cw": "play moves to your left",
    "table.your_turn": "Your turn: pick a tile with the arrows, Enter plays it.",
    "table.your_lead": "Your lead: {tile} opens the round. Enter plays it.",
    "table.your_turn_draw": "Your turn: play a tile, or press d to draw.",
    "table.must_pass": "Nothing fits and el pozo is down to its reserve: press p to pass (paso).",
    "table.must_pass_paso": "Nothing fits: press p to pass (paso).",
    "table.drawing": "Nothing fits: drawing from el pozo...",
    "table.waiting": "{name} is playing...",
    "table.watching": "You are watching.",
    "table.round_over": "Round over.",
    "table.you_drew": "You drew {count} tiles.",
    "table.you_drew_one": "You drew a tile.",
    "table.not_your_turn": "Not your turn yet: {name} is playing.",
    "table.no_fit": "{tile} fits neither end ({left} or {right}); the bright tiles fit.",
    "table.must_lead": "The round opens with {tile}.",
    "table.choose_end": "{tile} fits both ends. Which end?",
    "table.end_left": "Left end ({number})",
    "table.end_right": "Right end ({number})",
    "table.hint": "Hint: {action} ({reason})",
    "table.hint_wait": "Thinking...",
    "table.hint_none": "It is not your turn.",
    "table.action_play": "play {tile} on the {end}",
    "table.action_draw": "draw",
    "table.action_pass": "pass",
    "table.leave_title": "Leave the table? y leaves, n or Esc stays.",
    "table.leave_body": "Your seat stays held; the computer covers it while you are away.",
    "table.leave_body_host": "You host this table: leaving ends the game for everyone.",
    "key.draw": "Draw",
    "key.pass": "Pass",
    "key.hint": "Hint",
    "key.chat": "Chat",
    "key.rules_keys": "Rules",
    "key.leave_table": "Leave",
    "key.left_end": "Left end",
    "key.right_end": "Right end",
    "key.cancel": "Cancel",
    "key.yes_leave": "Leave",
    "key.stay": "Stay",
    "hint.must_draw": "nothing you hold fits {left} or {right}: draw",
    "hint.must_pass": "nothing fits and nothing can be drawn: pass",
    "hint.forced_lead": "the round opens with {tile}",
    "hint.only_tile": "{tile} is the only tile that fits",
    "hint.domino": "your last tile: domino",
    "hint.blocks_next": "the next player could not match {number}",
    "hint.blocks_seat": "seat {seat} could not match {number}",
    "hint.keeps_suit": "keeps your {number}s",
    "hint.double": "lays the double {tile} while it still fits",
    "hint.sheds_weight": "gets rid of {pips} pips",
    "hint.draw_better": "drawing does better than any tile here",
    "hint.best_odds": "does best in {samples} sampled deals",
})

#: The id of the widget that shows the seat at each place on screen.
_SLOT = {
    Position.BOTTOM: "seat-me",
    Position.LEFT: "seat-left",
    Position.TOP: "seat-across",
    Position.RIGHT: "seat-right",
}


def describe_action(action: Action) -> str:
    if isinstance(action, Play):
        return t("table.action_play", tile=str(action.tile), end=t(f"end.{action.end.value}"))
    return t("table.action_draw") if action == DRAW else t("table.action_pass")


class EndChoiceScreen(ModalScreen[End | None]):
    """A tile fits both ends: the player says which."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left,h,1", "choose('left')", t("key.left_end"), key_display="<-"),
        Binding("right,l,2", "choose('right')", t("key.right_end"), key_display="->"),
        Binding("escape,ctrl+b", "cancel", t("key.cancel"), key_display="esc/^b"),
    ]

    def __init__(self, tile: str, ends: tuple[int, int]) -> None:
        super().__init__()
        self.tile = tile
        self.ends = ends

    def compose(self) -> ComposeResult:
        with Vertical(id="end-box", classes="dialog"):
            yield Static(t("table.choose_end", tile=self.tile), classes="screen-title")
            with Horizontal(id="end-choices"):
                yield Static(f"<- {t('table.end_left', number=self.ends[0])}", classes="end-choice")
                yield Static(f"{t('table.end_right', number=self.ends[1])} ->", classes="end-choice")
        yield Footer()

    def action_choose(self, end: str) -> None:
        self.dismiss(End(end))

    def action_cancel(self) -> None:
        self.dismiss(None)


class LeaveScreen(ModalScreen[bool]):
    """Leaving is one key away, and one more to confirm."""

    BINDINGS: ClassVar[list[BindingType]] = [
        # Enter stays: a player pressing Enter to play must never leave by accident.
        Binding("y", "leave", t("key.yes_leave")),
        Binding("n,escape,ctrl+b,enter", "stay", t("key.stay"), key_display="n/esc"),
    ]

    def __init__(self, hosting: bool) -> None:
        super().__init__()
        self.hosting = hosting

    def compose(self) -> ComposeResult:
        with Vertical(id="leave-box", classes="dialog"):
            yield Static(t("table.leave_title"), classes="screen-title")
            yield Static(t("table.leave_body_host") if self.hosting else t("table.leave_body"))
        yield Footer()

    def action_leave(self) -> None:
        self.dismiss(True)

    def action_stay(self) -> None:
        self.dismiss(False)


class TableScreen(Screen[None]):
    """Where the match is played."""

    #: The hand has the keyboard whenever the table comes (back) on screen.
    AUTO_FOCUS = "#hand"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("d", "draw", t("key.draw")),
        Binding("p", "pass_turn", t("key.pass")),
        Binding("x", "hint", t("key.hint")),
        Binding("c", "chat", t("key.chat")),
        Binding("r,f1", "rules", t("key.rules_keys")),
        Binding("escape,ctrl+b", "leave", t("key.leave_table"), key_display="esc/^b"),
    ]

    def __init__(self, players: int, direction: Direction) -> None:
        super().__init__()
        #: Where this match's seats sit on screen: only their panels are made (each
        #: one more to build and style would slow the table's first draw).
        self._places = {place for _, place in table_positions(players, None, direction)}
        self._view: View | None = None
        #: A run of single draws by one seat, told as one line when it ends.
        self._draw_run: tuple[int, int] | None = None
        self._my_draws = 0
        self._ready = False
        self._pending: list[TableChanged] = []
        self._offered: tuple[bool, bool] = (False, False)  # what the footer offers before any view

    @property
    def capicu(self) -> CapicuApp:
        return self.app  # type: ignore[return-value]

    # -- layout --------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Static("", id="table-title")
        with Horizontal(id="table-seats"):
            for place in (Position.LEFT, Position.TOP, Position.RIGHT):
                if place in self._places:
                    yield SeatPanel(id=_SLOT[place], classes="seat-slot", ascii=self.capicu.ascii_mode)
        with Horizontal(id="table-middle"):
            yield LineOfPlay(id="line", tile_style=self.capicu.tile_style, ascii=self.capicu.ascii_mode)
            with Vertical(id="table-side"):
                yield BoneyardInfo(id="boneyard")
                yield EventLog(id="log")
                yield ChatPanel(id="chat", compact=True)
        yield Static("", id="table-status")
        with Horizontal(id="table-me"):
            yield SeatPanel(id=_SLOT[Position.BOTTOM], classes="seat-slot", ascii=self.capicu.ascii_mode)
            yield HandView(id="hand", tile_style=self.capicu.tile_style, ascii=self.capicu.ascii_mode)
        yield QuietFooter()

    def on_mount(self) -> None:
        self.query_one(BoneyardInfo).short = True
        self.query_one(HandView).focus()
        self._ready = True
        self.set_interval(1.0, self._tick)
        game = self.capicu.game
        for name, text in game.chat if game is not None else ():
            self.query_one(ChatPanel).add_chat(name, text)  # said in the lobby
        pending, self._pending = self._pending, []
        for message in pending:
            self.table_changed(message)

    # -- what the App tells us -----------------------------------------------------

    def game_changed(self) -> None:
        """Seats, names or timers changed (the App calls this)."""
        if self._view is not None and self._ready:
            self._show_seats(self._view)

    def table_changed(self, message: TableChanged) -> None:
        """A new view arrived with the events that led to it."""
        if not self._ready:
            self._pending.append(message)
            return
        if not self.is_attached:  # the app is closing
            return
        self._view = message.view
        if message.snapshot:
            self.query_one(EventLog).clear()
            for event in message.view.events:
                self._log_event(event)
        else:
            for event in message.events:
                self._log_event(event)
        self._flush_draws_if_done(message.view)
        self._show(message.view)
        self._act_if_forced(message.view)

    def notice(self, text: str) -> None:
        """A line from the table itself (someone sat down, dropped, came back)."""
        if self._ready and self.is_attached:
            self.query_one(ChatPanel).add_notice(text)

    def chat_arrived(self, name: str, text: str) -> None:
        if self._ready and self.is_attached:
            self.query_one(ChatPanel).add_chat(name, text)

    # -- drawing the screen ----------------------------------------------------------

    def _names(self, view: View) -> list[str]:
        game = self.capicu.game
        return [game.seat_name(s) if game else t("word.seat", number=s + 1) for s in range(view.players)]

    def _show(self, view: View) -> None:
        self._view = view
        key = "table.title_ascii" if self.capicu.ascii_mode else "table.title"
        direction = (
            t("table.direction_ccw") if view.rules.direction is Direction.COUNTERCLOCKWISE
            else t("table.direction_cw")
        )
        title = t(key, preset=view.rules.preset, round=view.round_number, target=view.target)
        self.query_one("#table-title", Static).update(f"{title}   {direction}")
        self.query_one(LineOfPlay).update_line(view.line, view.ends, view.rules.max_pip)
        hand = self.query_one(HandView)
        could_play = any(isinstance(a, Play) for a in hand.legal)
        hand.update_from_view(view)
        if view.is_my_turn and not could_play:
            # A turn starts (or forced draws brought a tile that fits).
            self._cursor_to_playable(hand, view)
        self.query_one(BoneyardInfo).update_from_view(view)
        self._show_seats(view)
        self._show_status(view)
        offered = (self._offers("draw"), self._offers("pass_turn"))
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
        game = self.capicu.game
        positions = table_positions(view.players, view.seat, view.rules.direction)
        names = self._names(view)
        for seat, place in positions:
            info = next((s for s in game.seats if s.seat == seat), None) if game is not None else None
            panel = self.query_one(f"#{_SLOT[place]}", SeatPanel)
            panel.update_seat(SeatInfo.from_view(
                view, seat, names,
                connected=info.connected if info else True,
                computer=info.kind == "computer" if info else False,
                covered=info.covered if info else False,
            ))
        self._tick()

    def _tick(self) -> None:
        """Count the turn timer down on the seat whose turn it is (once a second)."""
        view = self._view
        game = self.capicu.game
        if view is None or game is None:
            return
        positions = table_positions(view.players, view.seat, view.rules.direction)
        timer = game.timer
        for seat, place in positions:
            left: int | None = None
            if timer is not None and timer[0] == seat and view.turn == seat:
                left = max(0, math.ceil(timer[1] - time.monotonic()))
            self.query_one(f"#{_SLOT[place]}", SeatPanel).timer = left

    def _show_status(self, view: View) -> None:
        status = self.query_one("#table-status", Static)
        if view.seat is None:
            status.update(t("table.watching"))
        elif view.turn is None:
            status.update(t("table.round_over"))
        elif not view.is_my_turn:
            status.update(t("table.waiting", name=self._names(view)[view.turn]))
        elif view.legal == (PASS,):
            status.update(t("table.must_pass") if view.rules.drawing else t("table.must_pass_paso"))
        elif view.legal == (DRAW,):
            status.update(t("table.drawing"))
        elif view.forced_lead is not None:
            status.update(t("table.your_lead", tile=str(view.forced_lead)))
        elif DRAW in view.legal:
            status.update(t("table.your_turn_draw"))
        else:
            status.update(t("table.your_turn"))

    # -- the log -------------------------------------------------------------------

    def _log_event(self, event: Event) -> None:
        if isinstance(event, TilesDrawn):
            if self._draw_run is not None and self._draw_run[0] == event.seat:
                self._draw_run = (event.seat, self._draw_run[1] + event.count)
            else:
                self._flush_draw_run()
                self._draw_run = (event.seat, event.count)
            return
        self._flush_draw_run()
        view = self._view
        names = self._names(view) if view is not None else []
        my_seat = self.capicu.game.seat if self.capicu.game is not None else None
        text = describe_event(event, names, my_seat)
        if text:
            self.query_one(EventLog).add_text(text)

    def _flush_draw_run(self) -> None:
        if self._draw_run is None:
            return
        seat, count = self._draw_run
        self._draw_run = None
        view = self._view
        names = self._names(view) if view is not None else []
        my_seat = self.capicu.game.seat if self.capicu.game is not None else None
        self.query_one(EventLog).add_text(describe_event(TilesDrawn(seat, count, -1, -1), names, my_seat))

    def _flush_draws_if_done(self, view: View) -> None:
        """Once my forced draws end, say how many tiles came, in the log and on screen."""
        if self._my_draws and view.legal != (DRAW,):
            count, self._my_draws = self._my_draws, 0
            self._flush_draw_run()
            text = t("table.you_drew_one") if count == 1 else t("table.you_drew", count=count)
            self.notify(text, timeout=4)
        elif self._draw_run is not None and (view.turn != self._draw_run[0]):
            self._flush_draw_run()

    # -- acting ----------------------------------------------------------------------

    def _act_if_forced(self, view: View) -> None:
        """Draw for the player when drawing is the only thing the rules allow."""
        if view.is_my_turn and view.legal == (DRAW,):
            self._my_draws += 1
            self.run_worker(self.capicu.send_action(DRAW), group="intent")

    def on_hand_view_tile_chosen(self, message: HandView.TileChosen) -> None:
        view = self._view
        if view is None or view.seat is None:
            return
        if not view.is_my_turn:
            if view.turn is not None:
                self.notify(t("table.not_your_turn", name=self._names(view)[view.turn]), timeout=3)
            return
        plays = [a for a in message.actions if isinstance(a, Play) and a in view.legal]
        if not plays:
            self._explain_no_fit(view, str(message.tile))
            return
        ends = view.ends if view.ends is not None else (0, 0)
        if len(plays) == 1 or ends[0] == ends[1]:
            # Two equal ends leave the same game either way: no question to ask.
            self.run_worker(self.capicu.send_action(plays[0]), group="intent")
            return

        def chosen(end: End | None) -> None:
            if end is not None:
                self.run_worker(self.capicu.send_action(Play(plays[0].tile, end)), group="intent")

        self.app.push_screen(EndChoiceScreen(str(plays[0].tile), ends), chosen)

    def _explain_no_fit(self, view: View, tile: str) -> None:
        """Say why Enter did nothing: the tile does not fit, or something else must be done."""
        if view.legal == (PASS,):
            self.notify(t("table.must_pass") if view.rules.drawing else t("table.must_pass_paso"), timeout=4)
        elif view.forced_lead is not None:
            self.notify(t("table.must_lead", tile=str(view.forced_lead)), timeout=4)
        elif view.ends is not None:
            self.notify(t("table.no_fit", tile=tile, left=view.ends[0], right=view.ends[1]), timeout=4)

    def on_chat_panel_send(self, message: ChatPanel.Send) -> None:
        self.run_worker(self.capicu.send_chat(message.text), group="intent")
        self.query_one(HandView).focus()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return self._offers(action)

    def _offers(self, action: str) -> bool:
        """Whether the footer offers ``action`` now (the engine's legal actions decide)."""
        view = self._view
        if action == "draw":
            return view is not None and view.is_my_turn and DRAW in view.legal and len(view.legal) > 1
        if action == "pass_turn":
            return view is not None and view.is_my_turn and view.legal == (PASS,)
        return True  # the hint key stays put: off-turn it says so, and the footer is not rebuilt

    def action_draw(self) -> None:
        view = self._view
        if view is not None and view.is_my_turn and DRAW in view.legal:
            self._my_draws += 1
            self.run_worker(self.capicu.send_action(DRAW), group="intent")

    def action_pass_turn(self) -> None:
        view = self._view
        if view is not None and view.is_my_turn and view.legal == (PASS,):
            self.run_worker(self.capicu.send_action(PASS), group="intent")

    def action_chat(self) -> None:
        self.query_one(ChatPanel).input.focus()

    def action_rules(self) -> None:
        from capicu.tui.screens.rules_keys import RulesKeysScreen

        self.app.push_screen(RulesKeysScreen())

    def action_leave(self) -> None:
        chat = self.query_one(ChatPanel)
        if chat.has_focus_within:
            self.query_one(HandView).focus()
            return
        game = self.capicu.game
        hosting = game is not None and type(game.request).__name__ != "JoinGame"

        async def answered(leave: bool | None) -> None:
            if leave:
                await self.capicu.leave_game()

        self.app.push_screen(LeaveScreen(hosting), answered)

    def action_hint(self) -> None:
        view = self._view
        if view is None or not view.is_my_turn:
            self.notify(t("table.hint_none"))
            return
        self.notify(t("table.hint_wait"), timeout=2)
        self._find_hint(view)

    @work(thread=True, exclusive=True, group="hint")
    def _find_hint(self, view: View) -> None:
        from capicu.core.hints import suggest

        hint = suggest(view, seed=view.round_number)
        reason = "; ".join(t(f"hint.{r.code}", **dict(r.params)) for r in hint.reasons)
        text = t("table.hint", action=describe_action(hint.action), reason=reason)
        self.app.call_from_thread(self._show_hint, view, hint.action, text)

    def _show_hint(self, view: View, action: Action, text: str) -> None:
        if self._view is not view:
            return  # the table moved on while we thought
        self.notify(text, timeout=8)
        if isinstance(action, Play):
            hand = self.query_one(HandView)
            if action.tile in hand.hand:
                hand.cursor = hand.hand.index(action.tile)
