"""The table of Mexican Train: the lanes (one per train), around every table's parts.

What every table does (the hand, ready, chat, leaving, the seat key, notices, the
turn timer and the countdown) is `TableScreen`'s (tui/screens/table.py); this
screen gives the game's own. The hand lights the tiles the view lists
(`MexicanView.legal`); a tile that fits several trains asks which, with the lanes
it may go on lit (arrows or the lane's key), one that fits one train goes there;
a key not allowed now says why, from the engine's refusal (`why_not_mexican`).

The opening run is built here, on the screen, and sent whole: each tile laid
(Enter on the first, then Space or Enter... see `action_lay`) goes on your own
lane at once, Esc takes back the last, and Enter ends the run and sends it as
one `run ...` action. Which tiles may come next is the engine's `run_steps`,
and whether the run may be sent as it stands its `run_problem` (a run may not
end on a double: the status line says why).

A turn of several doubles is built here too: a double laid (Enter, and the
lane's key when it fits several trains) goes down on the screen only, as the
turn stays yours; Esc takes back the last, and the tile that ends the turn
(the cover of the oldest open double), or a draw or a pass when nothing covers
it, sends the whole turn, each tile an ordinary ``play`` in order, as the
protocol has it (docs/PROTOCOL.md, "A turn of two doubles"). What the screen
shows meanwhile, and what may come next, is the engine's `view_after`.

Notices (who covered a double, whose marker went up, who drew and passed) go to
the status line and the log, never over the hand or the lanes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, cast

import msgspec
from capicu.core import DRAW, PASS, Action, MexicanView, Play, Rules, Tile
from capicu.core.actions import IllegalAction, Run, Train
from capicu.core.mexican.events import MexicanEvent
from capicu.core.mexican.refusals import run_problem, run_steps
from capicu.core.mexican.turn import view_after
from capicu.core.mexican.view import TrainLine
from capicu.core.tiles import tile_leaves
from capicu.tui.games import GameFace
from capicu.tui.screens.table import TableScreen
from capicu.tui.widgets.chat_panel import ChatPanel
from capicu.tui.widgets.event_log import EventLog
from capicu.tui.widgets.hand_view import HandView
from capicu.tui.widgets.status_line import StatusLine
from capicu.tui.widgets.train_lanes import (
    MEXICAN_KEY,
    TrainLanes,
    engine_laid_by,
    lane_keys,
    lane_order,
    lanes_from_view,
)
from capicu.tui.words.describe import and_list
from capicu.tui.words.describe_rules import game_title
from capicu.tui.words.describe_trains import (
    Untold,
    describe_must_cover,
    describe_train_action_refused,
    describe_train_hint,
    describe_train_refusal,
    describe_train_result,
    describe_train_winners,
    train_name,
    train_news_lines,
)
from capicu.tui.words.messages import N_, t
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Static

if TYPE_CHECKING:  # the hint's search loads on the first hint
    from capicu.core.ai.mexican_hints import MexicanHint
    from capicu.tui.screens.match_over import MatchOverScreen
    from capicu.tui.screens.replay import ReplayBoard


def _with_run(line: TrainLine, run: tuple[Tile, ...], max_pip: int) -> TrainLine:
    """One's own train with the run laid on the screen (not sent yet) after its tiles."""
    head, tiles = line.head, list(line.tiles)
    for tile in run:
        after = tile_leaves(tile, head, max_pip)
        tiles.append((head, after))
        head = after
    return TrainLine(line.train, tuple(tiles), head, line.marker)


class MexicanTableScreen(TableScreen[MexicanView]):
    """Where a match of Mexican Train is played."""

    #: While a tile that fits several trains waits for its train: these keys, before the others.
    LANE_BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up", "lane_step(-1)", N_("Previous train"), key_display="↑", priority=True),
        Binding("down", "lane_step(1)", N_("Next train"), key_display="↓", priority=True),
        # Not in the footer (the lanes show their keys); the rules and keys screen lists them.
        *(Binding(str(n), f"lane_key('{n}')", N_("That lane's train"), show=False, priority=True)
          for n in range(1, 9)),
        Binding(MEXICAN_KEY, f"lane_key('{MEXICAN_KEY}')", N_("That lane's train"), show=False,
                priority=True),
        Binding("enter", "lane_confirm", N_("Lay it here"), priority=True),
        Binding("escape", "lane_cancel", N_("Cancel"), key_display="esc", priority=True),
    ]
    #: While one's opening run is built on the screen (see the module docstring).
    RUN_BINDINGS: ClassVar[list[BindingType]] = [
        Binding("space", "lay", N_("Lay")),
        Binding("enter", "end_run", N_("End run")),
    ]

    BINDINGS: ClassVar[list[BindingType]] = [
        *TableScreen.TABLE_BINDINGS,
        # The opening run's Esc, before the others of the same key.
        Binding("escape", "take_back", N_("Take back"), key_display="esc"),
        Binding("q", "leave", N_("Leave")),
        Binding("escape", "leave", "", show=False),
        TableScreen.LEAVE_CHAT_BINDING,
        *RUN_BINDINGS,
        *TableScreen.TURN_BINDINGS,
        *LANE_BINDINGS,
    ]

    FOOTER_ACTIONS = (*TableScreen.FOOTER_ACTIONS, "lay", "end_run", "take_back", "lane_confirm")
    WORDED = "HandView, TrainLanes"
    STATUS_WRAPS = True  # a long hint or refusal takes a second row (from the log's) rather than lose its end

    def __init__(self, view: MexicanView) -> None:
        super().__init__(view)
        #: The round whose hand is shown (a new deal puts the hand's cursor back).
        self._round = -1
        #: The opening run laid on the screen so far (sent whole when it ends).
        self.run: tuple[Tile, ...] = ()
        #: The doubles of a turn laid on the screen so far (sent with the tile that ends the turn);
        #: once sent, the plays the host has not shown yet.
        self.laid: tuple[Play, ...] = ()
        #: The turn is sent: what ``laid`` holds waits for the host, and no key changes it.
        self.sending = False
        #: A tile that fits several trains, and the trains it may go on, while the player chooses.
        self.choosing: tuple[Tile, tuple[Train, ...]] | None = None
        #: The train the lanes' cursor is on while choosing.
        self.chosen: Train | None = None
        #: What the log tells with a later update: a seat's draw (told with its pass: "Luis drew a
        #: tile and passed"), an opening run laid a tile per update (a computer's, told in one line).
        self._untold = Untold()

    # -- layout ----------------------------------------------------------------------

    @classmethod
    def key_lines(cls, rules: Rules | None) -> list[str]:
        from capicu.tui.screens.rules_keys import binding_lines  # (the rules and keys screen's)

        # The table's keys hold the hand's, the opening run's and the lanes': each key once.
        return [*binding_lines(cls.BINDINGS, asides=cls.LANE_BINDINGS,
                               aside=lambda what: t("{what} (a tile that fits several trains)", what=what)),
                ""]

    def compose_board(self) -> ComposeResult:
        yield TrainLanes(id="lanes", ascii=self.capicu.ascii_mode)
        with Horizontal(id="train-middle"):
            yield EventLog(id="log")
            yield Static("", id="round-end", markup=False)
        with Vertical(id="train-chat"):
            yield ChatPanel(id="chat")

    def display_changed(self) -> None:
        super().display_changed()
        self.query_one(TrainLanes).ascii = self.capicu.ascii_mode

    # -- what the App tells us -----------------------------------------------------

    def _view_changed(self, view: MexicanView) -> None:
        # The view's may_run is about whoever's turn it is: once mine is sent, the next seat's
        # opening run may come, and mine, laid by the host now, must not be laid again on the screen.
        if not (view.may_run and view.is_my_turn):
            self.run = ()
        if self.laid:
            # The plays the host has laid leave the hand; the rest still wait on the screen (or for the
            # host). Anything else (the turn timer played for me) drops them.
            laid = tuple(play for play in self.laid if play.tile in view.hand) if view.is_my_turn else ()
            self.laid = laid if laid and self._lays(view, laid) else ()
        if not self.laid:
            self.sending = False
        if self.choosing is not None and not view.is_my_turn:
            self._stop_choosing()

    def _tell(self, news: tuple[object, ...], before: MexicanView | None, view: MexicanView, *,
              snapshot: bool) -> None:
        """The log's lines for these events (`train_news_lines`); what is not told yet waits for the next."""
        if snapshot:
            before = None
            self._untold = Untold()
        events = cast("tuple[MexicanEvent, ...]", news)  # a train view's update: its events
        names = self._names(view)
        lines, self._untold = train_news_lines(events, before, view, names, view.seat, self._untold)
        log = self.query_one(EventLog)
        for line in lines:
            log.add_notice(line)

    # -- drawing the screen ----------------------------------------------------------

    @staticmethod
    def _lays(view: MexicanView, laid: tuple[Play, ...]) -> bool:
        try:
            view_after(view, laid)
        except IllegalAction:
            return False
        return True

    def turn_view(self, view: MexicanView) -> MexicanView:
        """The view with the turn's doubles laid on the screen so far: what the keys act on."""
        if not self.laid or not view.is_my_turn:
            return view
        try:
            return view_after(view, self.laid)
        except IllegalAction:  # (`_view_changed` keeps only what may be laid)
            return view

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
        view = self.turn_view(view)
        shown = self._shown_view(view)
        names = self._names(view)
        ascii_mode = self.capicu.ascii_mode
        dot = " - " if ascii_mode else " · "
        title = dot.join([
            game_title(view.rules.preset),
            t("round {round} of {rounds}", round=view.round_number, rounds=view.rounds),
            t("boneyard {count}", count=view.boneyard),
        ])
        self._show_title(title)
        model = self.capicu.table
        over = view.turn is None and bool(view.results)
        counts = view.results[-1].counts if over else None
        lanes = self.query_one(TrainLanes)
        lanes.chosen = self.chosen
        by = engine_laid_by(view.engine_holder, names, view.seat, set_aside=view.rules.engine_set_aside)
        lanes.update_lanes(lanes_from_view(
            shown, names, occupants=model.seats if model is not None else (),
            playable=self._playable_trains(view), counts=counts,
        ), view.engine, by)
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
        super()._show(view)

    def _round_summary(self, view: MexicanView) -> str:
        names = self._names(view)
        head, *seats = describe_train_result(view.results[-1], names, view.seat)
        # The seats' counts as one paragraph that wraps: eight of them fit the rows left at 80x24.
        text = head + "\n" + "   ".join(seats)
        if view.winners is not None:
            text += "\n" + describe_train_winners(view.winners, view.totals, names, view.seat)
        return text

    def _show_turn_timer(self, view: MexicanView, left: tuple[int, int] | None) -> None:
        self.query_one(TrainLanes).timer = left

    def _question_prompt(self, view: MexicanView) -> str | None:
        if self.choosing is None:
            return None
        tile, trains = self.choosing
        keys = lane_keys(view)
        # TRANSLATORS: {keys} are the keys of the lit lanes, "1/m"; the lanes show which trains they are.
        return t("{tile}: which train? {keys} or ↑↓ and Enter. Esc: another tile.",
                 tile=str(tile), keys="/".join(keys[train] for train in trains))

    def _turn_prompt(self, view: MexicanView) -> str:
        names = self._names(view)
        if view.doubling and view.drawn is None and view.open_double is not None:
            return self._doubling_prompt(view)
        if view.open_double is not None:
            line = view.train_of(view.open_double)
            cover = describe_must_cover(Tile(*line.tiles[-1]), view.open_double, names, view.seat)
            if view.legal == (PASS,):
                cover += " " + t("Nothing covers it: press p to pass.")
            elif view.legal == (DRAW,):
                cover += " " + t("Nothing covers it: press d to draw.")
            return cover
        if view.may_run:
            if not self.run:
                return t("Your opening run: Enter lays a tile on your train, as many as you like.")
            problem = run_problem(view, Run(self.run))
            if problem is not None:
                return describe_train_refusal(problem[0], problem[1], names, view.seat)
            return t("Run of {count}: Space lays the next tile, Enter ends the run, "
                     "Esc takes back {tile}.", count=len(self.run), tile=str(self.run[-1]))
        if view.legal == (PASS,):
            return t("Nothing fits: press p to pass (your marker goes up).")
        if view.legal == (DRAW,):
            return t("Nothing fits: press d to draw a tile.")
        return super()._turn_prompt(view)

    def _doubling_prompt(self, view: MexicanView) -> str:
        """A turn of doubles under way: lay another, or end it on the oldest (Esc takes one back)."""
        assert view.open_double is not None
        names = self._names(view)
        doubles = [str(Tile(*view.train_of(train).tiles[-1])) for train in view.open_doubles]
        oldest = view.open_double
        cover = {"tile": doubles[0], "train": train_name(oldest, names, view.seat)}
        if DRAW in view.legal:
            text = t("Nothing covers {tile}: lay another double, or press d to draw.", tile=doubles[0])
        elif PASS in view.legal:
            text = t("Nothing covers {tile}: lay another double, or press p to pass.", tile=doubles[0])
        elif any(isinstance(a, Play) and a.place != oldest for a in view.legal):
            text = t("Your doubles: {tiles}. Lay another, or cover {tile} on {train} to end your turn.",
                     tiles=and_list(doubles), **cover)
        else:
            text = t("Your doubles: {tiles}. Cover {tile} on {train} to end your turn.",
                     tiles=and_list(doubles), **cover)
        if self.laid and not self.sending:
            text += " " + t("Esc takes back {tile}.", tile=str(self.laid[-1].tile))
        return text

    # -- what is offered, and why not ------------------------------------------------

    def _refusal(self, action: Action, view: MexicanView) -> str:
        return describe_train_action_refused(view, action, self._names(view))

    def _explain_in_turn(self, what: str, view: MexicanView) -> bool:
        if self.run:
            self.say(t("Your run is under way: Enter ends it, Esc takes back its last tile."), log_it=False)
            return True
        if self.laid:  # draw or pass as the turn stands with its doubles laid
            self._explain(DRAW if what == "draw" else PASS, self.turn_view(view))
            return True
        return False

    def _asks(self, action: str) -> bool | None:
        if action.startswith("lane_"):
            return self.choosing is not None
        if self.choosing is not None:
            return False  # one question at a time: which train
        return None

    def _offers_own(self, action: str, view: MexicanView | None) -> bool:
        mine = view is not None and view.is_my_turn
        running = mine and view is not None and view.may_run and bool(self.run)
        if action in ("lay", "end_run"):
            return running
        if action == "take_back":
            return running or (mine and bool(self.laid) and not self.sending)
        if self.sending:
            return action not in ("choose", "draw", "pass_turn")
        if action == "choose":
            return mine and any(isinstance(a, Play) for a in self.query_one(HandView).legal)
        turn = self.turn_view(view) if view is not None else None
        if action == "draw":
            return mine and turn is not None and DRAW in turn.legal and not self.run
        if action == "pass_turn":
            return mine and turn is not None and PASS in turn.legal and not self.run
        return True

    # -- acting ----------------------------------------------------------------------

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
        if self.sending:
            return
        turn = self.turn_view(view)
        plays = [a for a in message.actions if isinstance(a.place, Train) and a in turn.legal]
        if not plays:
            self._explain(self._refused_play(message.tile, turn), turn)
            return
        if len(plays) == 1:
            self._play(plays[0], view)
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

    def _play(self, play: Play, view: MexicanView) -> None:
        """Lay ``play`` in this turn: a tile that keeps the turn (a double) waits on the screen; one
        that ends it sends the turn whole, the doubles laid before it first."""
        laid = (*self.laid, play)
        after = view_after(view, laid)  # (``play`` is among what the turn's view lists)
        if after.is_my_turn:
            self.laid = laid
            self.query_one(StatusLine).clear_notice()
            self._show(view)
            self._cursor_to_a_fit()
            return
        self._send_turn(play)

    def _cursor_to_a_fit(self) -> None:
        """The hand's cursor on a tile that may come next, if the one under it may not (a tile just laid
        on the screen left the cursor on its neighbour)."""
        hand = self.query_one(HandView)
        fits = [a.tile for a in hand.legal if isinstance(a, Play)]
        if fits and hand.selected not in fits and fits[0] in hand.hand:
            hand.cursor = hand.hand.index(fits[0])

    def _send_turn(self, last: Action) -> None:
        """Send the turn: the doubles laid on the screen, then ``last`` (the cover, a draw or a pass)."""
        actions: tuple[Action, ...] = (*self.laid, last)
        view = self.view
        if last == DRAW and self.laid and view is not None and self.turn_view(view).legal == (DRAW,):
            # A draw that is all the turn allows is the host's to make (docs/PROTOCOL.md, "Forced
            # draws"): it draws as the last double goes down.
            actions = self.laid
        if isinstance(last, Play):
            self.laid = (*self.laid, last)  # shown where it goes until the host lays it
        if self.laid:
            self.sending = True
        self._send_all(actions)
        if self.view is not None:
            self._show(self.view)

    def action_draw(self) -> None:
        view = self.view
        if view is not None and view.is_my_turn and not self.sending and DRAW in self.turn_view(view).legal:
            self._send_turn(DRAW)

    def action_pass_turn(self) -> None:
        view = self.view
        if view is not None and view.is_my_turn and not self.sending and PASS in self.turn_view(view).legal:
            self._send_turn(PASS)

    def _lay(self, tile: Tile, view: MexicanView) -> None:
        """Lay ``tile`` on the opening run being built, or say why it may not come next."""
        if tile in run_steps(view, self.run):
            self.run = (*self.run, tile)
            # A refusal said a moment ago (Enter on a double) is no longer true.
            self.query_one(StatusLine).clear_notice()
            self._show(view)
            return
        self._say_run_problem(Run((*self.run, tile)), view)

    def _say_run_problem(self, run: Run, view: MexicanView) -> bool:
        """Say why ``run`` may not be laid as it stands (False: it may)."""
        problem = run_problem(view, run)
        if problem is not None:
            self.say(describe_train_refusal(problem[0], problem[1], self._names(view), view.seat),
                     log_it=False)
        return problem is not None

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
        if not self._say_run_problem(run, view):
            self._send(run)

    def action_take_back(self) -> None:
        view = self.view
        if view is not None and not self.run and self.laid and not self.sending:
            self.laid = self.laid[:-1]  # the last double laid on the screen goes back to the hand
            self.query_one(StatusLine).clear_notice()
            self._show(view)
            return
        if view is None or not self.run:
            return
        self.run = self.run[:-1]
        self.query_one(StatusLine).clear_notice()
        self._show(view)

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
        self._explain(Play(self.choosing[0], train), self.turn_view(view))

    def action_lane_confirm(self) -> None:
        if self.choosing is None or self.chosen is None:
            return
        play = Play(self.choosing[0], self.chosen)
        self._stop_choosing()
        view = self.view
        if view is not None and view.is_my_turn:
            self._play(play, view)
            self._show(view)

    def action_lane_cancel(self) -> None:
        self._stop_choosing()
        if self.view is not None:
            self._show(self.view)

    # -- the hint --------------------------------------------------------------------

    def _find_hint(self, view: MexicanView) -> None:
        # The doubles laid on the screen and not sent yet are part of the turn: the hint is for the
        # view after them (the engine's `view_after`), never a double already laid.
        self._think_of_hint(view, self.laid, self.turn_view(view))

    @work(thread=True, exclusive=True, group="hint")
    def _think_of_hint(self, view: MexicanView, laid: tuple[Play, ...], turn: MexicanView) -> None:
        # Imported on the first hint: the search it runs is not needed at start.
        from capicu.core.ai.mexican_hints import suggest_mexican

        hint = suggest_mexican(turn, seed=view.round_number)
        self.app.call_from_thread(self._show_hint, view, laid, hint)

    def _show_hint(self, view: MexicanView, laid: tuple[Play, ...], hint: MexicanHint) -> None:
        if self.view is not view or self.laid != laid:
            return  # the table moved on, or a double was laid or taken back, while we thought
        self.say(describe_train_hint(hint, self._names(view), view.seat), log_it=False)
        hand = self.query_one(HandView)
        # The tile to lay next: the run's next one past what is laid on the screen, else the hint's tile.
        tile = hint.tile
        if hint.run and hint.run[: len(self.run)] == self.run and len(hint.run) > len(self.run):
            tile = hint.run[len(self.run)]
        if tile is not None and tile in hand.hand:
            hand.cursor = hand.hand.index(tile)


def cast_train(place: object) -> Train:
    assert isinstance(place, Train)
    return place


def _replace_view(view: MexicanView, **changes: object) -> MexicanView:
    return msgspec.structs.replace(view, **changes)


def _match_over() -> type[MatchOverScreen[MexicanView]]:
    from capicu.tui.screens.mexican_match_over import MexicanMatchOverScreen

    return MexicanMatchOverScreen


def _replay_board() -> type[ReplayBoard[MexicanView]]:
    from capicu.tui.screens.mexican_replay import MexicanReplayBoard

    return MexicanReplayBoard


#: Mexican Train in the interface (see `tui.games`).
FACE = GameFace(table=MexicanTableScreen, match_over=_match_over, replay_board=_replay_board)
