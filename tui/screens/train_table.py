"""The table of Mexican Train: the lanes (one per train), your hand, the log and chat.

As the Draw family's table (tui/screens/table.py) does, the screen shows the
table's model (`CapicuApp.table`) as each change comes and turns keys into
intents; it never decides what is legal. The hand lights the tiles the view
lists (`MexicanView.legal`); a tile that fits several trains asks which, with the
lanes it may go on lit (arrows or the lane's key), one that fits one train goes
there; a key not allowed now says why, from the engine's refusal
(`why_not_mexican`).

The opening run is built here, on the screen, and sent whole: each tile laid
(Enter on the first, then Space or Enter... see `action_lay`) goes on your own
lane at once, Esc takes back the last, and Enter ends the run and sends it as
one `run ...` action. Which tiles may come next is the engine's `run_steps`,
and whether the run may be sent as it stands its `run_problem` (a run may not
end on a double: the status line says why).

Notices (who covered a double, whose marker went up, who drew and passed) go to
the status line and the log, never over the hand or the lanes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

import msgspec
from capicu.core import DRAW, PASS, Action, MexicanView, Play, Tile
from capicu.core.actions import Run, Train
from capicu.core.mexican.events import (
    MexicanEvent,
    MexicanMatchEnded,
    MexicanPassed,
    MexicanRoundEnded,
    MexicanRoundStarted,
    MexicanTileDrawn,
    MexicanTilePlayed,
    RunEnded,
)
from capicu.core.mexican.refusals import run_problem, run_steps
from capicu.core.mexican.view import TrainLine
from capicu.core.tiles import tile_leaves
from capicu.net.client import Update
from capicu.net.model import Change
from capicu.net.protocol import Chat, Seats, TrainSnapshot
from capicu.tui.game import SoloGame, seat_notices
from capicu.tui.screens.base import CapicuScreen
from capicu.tui.screens.table import MIN_SIZE, READY_DELAY, LeaveScreen
from capicu.tui.widgets.chat_panel import ChatPanel
from capicu.tui.widgets.event_log import EventLog
from capicu.tui.widgets.hand_view import HandView
from capicu.tui.widgets.quiet_footer import QuietFooter
from capicu.tui.widgets.status_line import StatusLine
from capicu.tui.widgets.train_lanes import MEXICAN_KEY, TrainLanes, lane_keys, lane_order, lanes_from_view
from capicu.tui.words.describe import and_list
from capicu.tui.words.describe_rules import preset_title
from capicu.tui.words.describe_trains import (
    Untold,
    describe_must_cover,
    describe_train_action_refused,
    describe_train_hint,
    describe_train_refusal,
    describe_train_result,
    describe_train_winners,
    train_news_lines,
)
from capicu.tui.words.messages import N_, Wording, later, t
from textual import events, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Static

if TYPE_CHECKING:  # the hint's search loads on the first hint
    from capicu.core.ai.mexican_hints import MexicanHint


def _with_run(line: TrainLine, run: tuple[Tile, ...], max_pip: int) -> TrainLine:
    """One's own train with the run laid on the screen (not sent yet) after its tiles."""
    head, tiles = line.head, list(line.tiles)
    for tile in run:
        after = tile_leaves(tile, head, max_pip)
        tiles.append((head, after))
        head = after
    return TrainLine(line.train, tuple(tiles), head, line.marker)


class TrainTableScreen(CapicuScreen[None]):
    """Where a match of Mexican Train is played."""

    AUTO_FOCUS = ""

    #: While a tile that fits several trains waits for its train: these keys, before the others.
    LANE_BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up", "lane_step(-1)", N_("Previous train"), key_display="↑", priority=True),
        Binding("down", "lane_step(1)", N_("Next train"), key_display="↓", priority=True),
        *(Binding(str(n), f"lane_key('{n}')", "", show=False, priority=True) for n in range(1, 9)),
        Binding(MEXICAN_KEY, f"lane_key('{MEXICAN_KEY}')", "", show=False, priority=True),
        Binding("enter", "lane_confirm", N_("Lay it here"), priority=True),
        Binding("escape", "lane_cancel", N_("Cancel"), key_display="esc", priority=True),
    ]

    BINDINGS: ClassVar[list[BindingType]] = [
        *HandView.CURSOR_BINDINGS,
        Binding("x", "hint", N_("Hint")),
        Binding("x", "explain('hint')", "", show=False),
        Binding("c", "chat", N_("Chat")),
        Binding("r,f1", "rules", N_("Rules")),
        # The opening run's keys, before the others of the same key.
        Binding("escape", "take_back", N_("Take back"), key_display="esc"),
        Binding("q", "leave", N_("Leave")),
        Binding("escape", "leave", "", show=False),
        Binding("space", "lay", N_("Lay")),
        Binding("enter", "end_run", N_("End run")),
        HandView.CHOOSE_BINDING,
        Binding("enter", "ready", N_("Ready")),
        HandView.CHOOSE_ANYWAY_BINDING,
        Binding("d", "draw", N_("Draw")),
        Binding("d", "explain('draw')", "", show=False),
        Binding("p", "pass_turn", N_("Pass")),
        Binding("p", "explain('pass')", "", show=False),
        *LANE_BINDINGS,
    ]

    def __init__(self, players: int) -> None:
        super().__init__()
        self.players = players
        self._ready = False
        self._shown_seq = -1
        #: The status line says why a key did nothing (cleared once the table changes).
        self._refused = False
        self._offered: tuple[bool, ...] = ()
        self._title = ""
        self._summary_round = -1
        self._said_ready = False
        self.takes_ready = False
        #: The opening run laid on the screen so far (sent whole when it ends).
        self.run: tuple[Tile, ...] = ()
        #: A tile that fits several trains, and the trains it may go on, while the player chooses.
        self.choosing: tuple[Tile, tuple[Train, ...]] | None = None
        #: The train the lanes' cursor is on while choosing.
        self.chosen: Train | None = None
        #: What the log tells with a later update: a seat's draw (told with its pass: "Luis drew a
        #: tile and passed"), an opening run laid a tile per update (a computer's, told in one line).
        self._untold = Untold()

    # -- layout ----------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        ascii_mode = self.capicu.ascii_mode
        yield Static("", id="table-title")
        yield TrainLanes(id="lanes", ascii=ascii_mode)
        with Horizontal(id="train-middle"):
            yield EventLog(id="log")
            yield Static("", id="round-end", markup=False)
        with Vertical(id="train-chat"):
            yield ChatPanel(id="chat")
        # A long hint or refusal wraps to a second row (taken from the log's) rather than lose its end.
        yield StatusLine(id="table-status", wraps=True)
        hand = HandView(id="hand", tile_style=self.capicu.tile_style, ascii=ascii_mode)
        hand.can_focus = False
        yield hand
        yield Static("", id="too-small")
        yield QuietFooter()

    def on_mount(self) -> None:
        self._ready = True
        self._fit(self.app.size.width, self.app.size.height)
        model = self.capicu.table
        if model is None:
            return
        for line in model.chat:
            self.query_one(EventLog).add_chat(line.name, line.text)
        if isinstance(model.view, MexicanView):
            self._table_changed(model.view, None, (), snapshot=True, seq=model.seq)
        if model.resumed:
            self.say(later("You are back in your seat."))

    def on_resize(self, event: events.Resize) -> None:
        self._fit(event.size.width, event.size.height)

    def _fit(self, width: int, height: int) -> None:
        small = width < MIN_SIZE[0] or height < MIN_SIZE[1]
        self.set_class(small, "-too-small")
        if small:
            self.query_one("#too-small", Static).update(
                t("Make the window at least {width}x{height} to see the table (it is {now}).",
                  width=str(MIN_SIZE[0]), height=str(MIN_SIZE[1]), now=f"{width}x{height}"))

    # -- what the App tells us -----------------------------------------------------

    @property
    def view(self) -> MexicanView | None:
        model = self.capicu.table
        return model.view if model is not None and isinstance(model.view, MexicanView) else None

    def model_changed(self, change: Change) -> None:
        if not (self._ready and self.is_attached):
            return
        taken = change.message
        before = change.view_before if isinstance(change.view_before, MexicanView) else None
        if isinstance(taken, TrainSnapshot):
            self._table_changed(taken.view, before, (), snapshot=True, seq=taken.seq)
            return
        if isinstance(taken, Update) and isinstance(taken.view, MexicanView):
            if taken.seq > self._shown_seq:
                train_events = tuple(e for e in taken.events if isinstance(e, _TRAIN_EVENTS))
                self._table_changed(taken.view, before, train_events, snapshot=False, seq=taken.seq)
            return
        model = self.capicu.table
        if isinstance(taken, Seats) and model is not None:
            for notice in seat_notices(change.seats_before, taken.seats, model.seat):
                self.query_one(EventLog).add_notice(notice)
        elif isinstance(taken, Chat):
            self.query_one(EventLog).add_chat(taken.name, taken.text)
        view = self.view
        if view is not None:
            self._show(view)

    def display_changed(self) -> None:
        app = self.capicu
        hand = self.query_one(HandView)
        hand.tile_style, hand.ascii = app.tile_style, app.ascii_mode
        self.query_one(TrainLanes).ascii = app.ascii_mode

    def language_changed(self) -> None:
        self.query_one(EventLog).reword()
        self.query_one(ChatPanel).reword()
        self.query_one(StatusLine).clear_notice()
        self._fit(self.app.size.width, self.app.size.height)
        self._title = ""
        self._summary_round = -1
        self.query_one(TrainLanes).refresh(layout=True)
        view = self.view
        if view is not None:
            self._show(view)

    def _table_changed(self, view: MexicanView, before: MexicanView | None, news: tuple[MexicanEvent, ...], *,
                       snapshot: bool, seq: int) -> None:
        self._shown_seq = seq
        if self._refused:
            # The refusal on the status line was about the table before ("5-5 does not fit Computer 5's
            # train, which shows 3"): once the table changed it may no longer be true.
            self._refused = False
            self.query_one(StatusLine).clear_notice()
        # The view's may_run is about whoever's turn it is: once mine is sent, the next seat's
        # opening run may come, and mine, laid by the host now, must not be laid again on the screen.
        if not (view.may_run and view.is_my_turn):
            self.run = ()
        if self.choosing is not None and not view.is_my_turn:
            self._stop_choosing()
        log = self.query_one(EventLog)
        if snapshot:
            news = view.events
            log.restart()
            before = None
            self._untold = Untold()
        for line in self._news_lines(news, before, view):
            log.add_notice(line)
        if not view.between_rounds:
            self._said_ready = False
        if view.turn is None and (before is None or before.turn is not None):
            self.query_one(StatusLine).clear_notice()
            self.takes_ready = False
            self.set_timer(READY_DELAY, self._take_ready)
        self._show(view)

    def _take_ready(self) -> None:
        self.takes_ready = True

    def _news_lines(self, news: tuple[MexicanEvent, ...], before: MexicanView | None,
                    view: MexicanView) -> list[Wording]:
        """The log's lines for these events (`train_news_lines`); what is not told yet waits for the next."""
        lines, self._untold = train_news_lines(news, before, view, self._names(view), view.seat, self._untold)
        return lines

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

    def _names(self, view: MexicanView) -> list[str]:
        game = self.capicu.game
        return [game.seat_name(s) if game else t("seat {number}", number=s + 1) for s in range(view.players)]

    def _shown_view(self, view: MexicanView) -> MexicanView:
        """The view with the opening run laid on the screen so far on one's own train."""
        if not self.run or view.seat is None or not view.is_my_turn:
            return view
        trains = list(view.trains)
        trains[view.seat] = _with_run(trains[view.seat], self.run, view.rules.max_pip)
        hand = tuple(tile for tile in view.hand if tile not in self.run)
        counts = list(view.hand_counts)
        counts[view.seat] = len(hand)
        return _replace_view(view, trains=tuple(trains), hand=hand, hand_counts=tuple(counts))

    def _hand_legal(self, view: MexicanView) -> tuple[Action, ...]:
        """What the hand lights: the run's next steps while building one, else the view's plays."""
        if view.may_run and view.seat is not None:
            own = Train(view.seat)
            steps = run_steps(view, self.run)
            if steps or self.run:
                return tuple(Play(tile, own) for tile in steps)
        return view.legal

    def _playable_trains(self, view: MexicanView) -> frozenset[Train]:
        if self.choosing is not None:
            return frozenset(self.choosing[1])
        if not view.is_my_turn:
            return frozenset()
        if view.may_run and view.seat is not None:
            return frozenset({Train(view.seat)}) if run_steps(view, self.run) else frozenset()
        return frozenset(a.place for a in view.legal if isinstance(a, Play) and isinstance(a.place, Train))

    def _show(self, view: MexicanView) -> None:
        shown = self._shown_view(view)
        names = self._names(view)
        ascii_mode = self.capicu.ascii_mode
        dot = " - " if ascii_mode else " · "
        title = dot.join([
            preset_title(view.rules.preset),
            t("round {round} of {rounds}", round=view.round_number, rounds=view.rounds),
            t("boneyard {count}", count=view.boneyard),
        ])
        if title != self._title:
            self._title = title
            self.query_one("#table-title", Static).update(title)
        model = self.capicu.table
        over = view.turn is None and bool(view.results)
        counts = view.results[-1].counts if over else None
        lanes = self.query_one(TrainLanes)
        lanes.chosen = self.chosen
        lanes.update_lanes(lanes_from_view(
            shown, names, occupants=model.seats if model is not None else (),
            playable=self._playable_trains(view), counts=counts,
        ), view.engine)
        hand = self.query_one(HandView)
        hand.spectator = view.seat is None
        playing = view.seat is not None and view.turn is not None
        if playing != hand.playing:
            hand.playing = playing
            hand.refresh_bindings()
        legal = self._hand_legal(view) if view.is_my_turn else ()
        could_play = any(isinstance(a, Play) for a in hand.legal)
        hand.update_hand(shown.hand, legal, view.rules.max_pip, new_deal=view.round_number != self._round)
        self._round = view.round_number
        if view.is_my_turn and not could_play:
            fits = [a.tile for a in legal if isinstance(a, Play)]
            if fits and hand.selected not in fits:
                hand.cursor = shown.hand.index(fits[0])
        self._show_round_end(view)
        self._show_status(view)
        self._refresh_footer()

    _round = -1

    def _show_round_end(self, view: MexicanView) -> None:
        over = view.turn is None and bool(view.results)
        self.set_class(over, "-round-over")
        if not over or self._summary_round == view.results[-1].round_number:
            return
        result = view.results[-1]
        self._summary_round = result.round_number
        head, *seats = describe_train_result(result, self._names(view), view.seat)
        # The seats' counts as one paragraph that wraps: eight of them fit the rows left at 80x24.
        text = head + "\n" + "   ".join(seats)
        if view.winners is not None:
            text += "\n" + describe_train_winners(view.winners, view.totals, self._names(view), view.seat)
        self.query_one("#round-end", Static).update(text)

    def _show_status(self, view: MexicanView) -> None:
        status = self.query_one(StatusLine)
        names = self._names(view)
        if self.choosing is not None:
            tile, trains = self.choosing
            keys = lane_keys(view)
            # TRANSLATORS: {keys} are the keys of the lit lanes, "1/m"; the lanes show which trains they are.
            status.prompt = t("{tile}: which train? {keys} or ↑↓ and Enter. Esc: another tile.",
                              tile=str(tile), keys="/".join(keys[train] for train in trains))
        elif view.match_over:
            status.prompt = t("The match is over. Press Enter for the final score.")
        elif view.between_rounds:
            status.prompt = self._break_prompt(view)
        elif view.seat is None:
            status.prompt = t("You are watching.")
        elif not view.is_my_turn:
            status.prompt = t("{name} is playing...", name=names[view.turn or 0])
        elif view.open_double is not None:
            line = view.train_of(view.open_double)
            cover = describe_must_cover(Tile(*line.tiles[-1]), view.open_double, names, view.seat)
            if view.legal == (PASS,):
                cover += " " + t("Nothing covers it: press p to pass.")
            elif view.legal == (DRAW,):
                cover += " " + t("Nothing covers it: press d to draw.")
            status.prompt = cover
        elif view.may_run:
            if not self.run:
                status.prompt = t("Your opening run: Enter lays a tile on your train, as many as you like.")
            else:
                problem = run_problem(view, Run(self.run))
                if problem is not None:
                    status.prompt = describe_train_refusal(problem[0], problem[1], names, view.seat)
                else:
                    status.prompt = t("Run of {count}: Space lays the next tile, Enter ends the run, "
                                      "Esc takes back {tile}.", count=len(self.run), tile=str(self.run[-1]))
        elif view.legal == (PASS,):
            status.prompt = t("Nothing fits: press p to pass (your marker goes up).")
        elif view.legal == (DRAW,):
            status.prompt = t("Nothing fits: press d to draw a tile.")
        else:
            status.prompt = t("Your turn: pick a tile with the arrows, Enter plays it.")

    def _break_prompt(self, view: MexicanView) -> str:
        model = self.capicu.table
        state = model.next_round if model is not None else None
        if view.seat is None:
            return t("Round over: the next deal comes when the players are ready.")
        if self._said_ready or (state is not None and view.seat in state.ready):
            others = [s for s in state.waiting if s != view.seat] if state is not None else []
            if others:
                names = self._names(view)
                return t("You are ready. Waiting for {names}.", names=and_list([names[s] for s in others]))
            return t("Everyone is ready: dealing...")
        return t("Round over: press Enter when you are ready.")

    def _refresh_footer(self) -> None:
        offered = tuple(self._offers(action) for action in
                        ("choose", "ready", "draw", "pass_turn", "hint", "lay", "end_run", "take_back",
                         "lane_confirm"))
        if offered != self._offered:
            self._offered = offered
            self.refresh_bindings()

    # -- acting ----------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return self._offers(action)

    def _offers(self, action: str) -> bool:
        view = self.view
        seated = view is not None and view.seat is not None
        choosing = self.choosing is not None
        if action.startswith("lane_"):
            return choosing
        if choosing:
            return False
        mine = view is not None and view.is_my_turn
        running = mine and view is not None and view.may_run
        if action == "lay":
            return running and bool(self.run)
        if action == "end_run":
            return running and bool(self.run)
        if action == "take_back":
            return running and bool(self.run)
        if action == "choose":
            return mine and view is not None and bool(self.query_one(HandView).legal) and any(
                isinstance(a, Play) for a in self.query_one(HandView).legal)
        if action == "choose_anyway":
            return seated and view is not None and view.turn is not None
        if action == "ready":
            if view is None or view.seat is None:
                return False
            return view.match_over or (view.between_rounds and not self._said_ready)
        if action == "draw":
            return mine and view is not None and DRAW in view.legal and not self.run
        if action == "pass_turn":
            return mine and view is not None and PASS in view.legal and not self.run
        if action == "hint":
            return seated and view is not None and view.turn is not None
        return True

    def on_hand_view_tile_chosen(self, message: HandView.TileChosen) -> None:
        view = self.view
        if view is None or view.seat is None:
            return
        if view.between_rounds or view.match_over:
            self.action_ready()
            return
        if view.is_my_turn and view.may_run:
            self._lay(message.tile, view)
            return
        plays = [a for a in message.actions if isinstance(a.place, Train) and a in view.legal]
        if not plays:
            self._explain(self._refused_play(message.tile, view), view)
            return
        if len(plays) == 1:
            self._send(plays[0])
            return
        trains = tuple(sorted((cast_train(a.place) for a in plays), key=lane_order(view).index))
        self.choosing = (message.tile, trains)
        self.chosen = trains[0]
        self._show(view)

    def _refused_play(self, tile: Tile, view: MexicanView) -> Action:
        """The play to ask the engine about for a tile that may not go anywhere now."""
        if view.seat is None:
            return Play(tile, Train(0))
        if view.open_double is not None:
            return Play(tile, view.open_double)
        return Play(tile, Train(view.seat))

    def _lay(self, tile: Tile, view: MexicanView) -> None:
        """Lay ``tile`` on the opening run being built, or say why it may not come next."""
        if tile in run_steps(view, self.run):
            self.run = (*self.run, tile)
            # A refusal said a moment ago (Enter on a double) is no longer true.
            self.query_one(StatusLine).clear_notice()
            self._show(view)
            return
        problem = run_problem(view, Run((*self.run, tile)))
        if problem is not None:
            self._refuse(describe_train_refusal(problem[0], problem[1], self._names(view), view.seat))

    def action_lay(self) -> None:
        """Space: lay the tile under the hand's cursor on the run (Enter, once a run has begun, ends it)."""
        view = self.view
        tile = self.query_one(HandView).selected
        if view is not None and view.may_run and view.is_my_turn and tile is not None:
            self._lay(tile, view)

    def action_end_run(self) -> None:
        view = self.view
        if view is None or not view.may_run or not self.run:
            return
        run = Run(self.run)
        problem = run_problem(view, run)
        if problem is not None:
            self._refuse(describe_train_refusal(problem[0], problem[1], self._names(view), view.seat))
            return
        self._send(run)

    def action_take_back(self) -> None:
        view = self.view
        if view is None or not self.run:
            return
        self.run = self.run[:-1]
        self.query_one(StatusLine).clear_notice()
        self._show(view)

    def _send(self, action: Action) -> None:
        self.run_worker(self.capicu.send_action(action), group="intent")

    def _stop_choosing(self) -> None:
        self.choosing = None
        self.chosen = None

    def action_lane_step(self, step: int) -> None:
        if self.choosing is None or self.chosen is None:
            return
        trains = self.choosing[1]
        self.chosen = trains[(trains.index(self.chosen) + step) % len(trains)]
        if self.view is not None:
            self._show(self.view)

    def action_lane_key(self, key: str) -> None:
        view = self.view
        if self.choosing is None or view is None:
            return
        keys = lane_keys(view)
        train = next((train for train, k in keys.items() if k == key), None)
        if train is None:
            return
        if train in self.choosing[1]:
            self.chosen = train
            self.action_lane_confirm()
            return
        text = describe_train_action_refused(view, Play(self.choosing[0], train), self._names(view))
        if text:
            self._refuse(text)

    def action_lane_confirm(self) -> None:
        if self.choosing is None or self.chosen is None:
            return
        play = Play(self.choosing[0], self.chosen)
        self._stop_choosing()
        self._send(play)
        if self.view is not None:
            self._show(self.view)

    def action_lane_cancel(self) -> None:
        self._stop_choosing()
        if self.view is not None:
            self._show(self.view)

    def _explain(self, action: Action, view: MexicanView) -> None:
        text = describe_train_action_refused(view, action, self._names(view))
        if text:
            self._refuse(text)

    def _refuse(self, text: str) -> None:
        """Say why a key did nothing, until the table changes (then it may be true no more)."""
        self.say(text, log_it=False)
        self._refused = True

    def action_explain(self, what: str) -> None:
        view = self.view
        if view is None:
            return
        if view.seat is None:
            self.say(t("You are watching."), log_it=False)
            return
        if what == "hint":
            self.say(t("Hints are for your turn."), log_it=False)
            return
        if self.run:
            self.say(t("Your run is under way: Enter ends it, Esc takes back its last tile."), log_it=False)
            return
        self._explain(DRAW if what == "draw" else PASS, view)

    def action_ready(self) -> None:
        view = self.view
        if view is None or view.seat is None or not self.takes_ready:
            return
        if view.match_over:
            self.capicu.show_train_match_over(view)
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

    def on_chat_panel_send(self, message: ChatPanel.Send) -> None:
        self.run_worker(self.capicu.send_chat(message.text), group="intent")
        self.set_focus(None)

    def action_chat(self) -> None:
        self.query_one(ChatPanel).input.focus()

    def action_rules(self) -> None:
        self.capicu.show_rules_and_keys()

    def action_leave(self) -> None:
        chat = self.query_one(ChatPanel)
        if chat.has_focus_within:
            self.set_focus(None)
            return
        game = self.capicu.game
        hosting = game is not None and game.hosting

        async def answered(leave: bool | None) -> None:
            if leave:
                # As at the Draw family's table: the host's player ends the match on purpose,
                # and its journal is set aside (never offered again).
                await self.capicu.leave_game(end_match=hosting)

        solo = game is not None and isinstance(game.request, SoloGame)
        self.app.push_screen(LeaveScreen(hosting, solo=solo), answered)

    def action_hint(self) -> None:
        """The hard player's move for this turn, and why (core's hint); for a run, the longest one."""
        view = self.view
        if view is None or not view.is_my_turn or view.seat is None:
            self.say(t("Hints are for your turn."), log_it=False)
            return
        self.say(t("Thinking of a hint..."), log_it=False)
        self._find_hint(view)

    @work(thread=True, exclusive=True, group="hint")
    def _find_hint(self, view: MexicanView) -> None:
        # Imported on the first hint: the search it runs is not needed at start.
        from capicu.core.ai.mexican_hints import suggest_mexican

        hint = suggest_mexican(view, seed=view.round_number)
        self.app.call_from_thread(self._show_hint, view, hint)

    def _show_hint(self, view: MexicanView, hint: MexicanHint) -> None:
        if self.view is not view:
            return  # the table moved on while we thought
        self.say(describe_train_hint(hint, self._names(view), view.seat), log_it=False)
        hand = self.query_one(HandView)
        # The tile to lay next: the run's next one past what is laid on the screen, else the hint's tile.
        tile = hint.tile
        if hint.run and hint.run[: len(self.run)] == self.run and len(hint.run) > len(self.run):
            tile = hint.run[len(self.run)]
        if tile is not None and tile in hand.hand:
            hand.cursor = hand.hand.index(tile)


_TRAIN_EVENTS = (MexicanRoundStarted, MexicanTilePlayed, MexicanTileDrawn, RunEnded, MexicanPassed,
                 MexicanRoundEnded, MexicanMatchEnded)


def cast_train(place: object) -> Train:
    assert isinstance(place, Train)
    return place


def _replace_view(view: MexicanView, **changes: object) -> MexicanView:
    return msgspec.structs.replace(view, **changes)
