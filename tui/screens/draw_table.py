"""The Draw family's table: the line of play, the other seats, el pozo, around every table's parts.

What every table does (the hand, ready, chat, leaving, the seat key, notices, the
turn timer and the countdown) is `TableScreen`'s; this screen gives the game's
own: the line of play and the seats around it, a tile that fits both ends asks
which end, draw is offered when the engine lists it (a voluntary draw), pass
only when it is the only action. A draw the rules force is made by the host in
the update of the move before, and the status line says which tiles came ("You
drew 4-5 and 2-2."). Two house rules ask their own questions: a wild blank's
number, and a new deal for a hand of five doubles.
"""

from __future__ import annotations

from collections.abc import Mapping
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
    Rules,
    Tile,
    TilePlayed,
    TilesDrawn,
    View,
)
from capicu.net.model import LinkState
from capicu.tui.games import GameFace
from capicu.tui.screens.table import TableScreen
from capicu.tui.widgets.boneyard_info import BoneyardInfo
from capicu.tui.widgets.chat_panel import ChatPanel
from capicu.tui.widgets.event_log import EventLog
from capicu.tui.widgets.hand_view import HandView
from capicu.tui.widgets.line_of_play import LineOfPlay, line_marks
from capicu.tui.widgets.seat_panel import Position, SeatPanel, SeatView, table_positions
from capicu.tui.widgets.status_line import StatusLine
from capicu.tui.words.describe import (
    describe_action_refused,
    describe_hint_reasons,
    describe_my_draw,
    describe_result,
    end_name,
    you,
)
from capicu.tui.words.describe_rules import game_title
from capicu.tui.words.messages import N_, t, tc
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Static

if TYPE_CHECKING:  # the hints' module loads the search: the first hint imports it
    from capicu.core.ai.hints import Hint
    from capicu.tui.screens.match_over import MatchOverScreen
    from capicu.tui.screens.replay import ReplayBoard

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


class BlankQuestion(msgspec.Struct, frozen=True):
    """A tile whose wild blank is left open, waiting on the status line for its number."""

    tile: Tile
    #: Each number the blank may be given, and the play that gives it.
    plays: Mapping[int, Play]
    numbers: tuple[int, ...]
    #: The number the arrows have reached.
    number: int


class DrawTableScreen(TableScreen[View]):
    """Where a match of the Draw family is played."""

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
        *TableScreen.TABLE_BINDINGS,
        Binding("escape,q", "leave", N_("Leave"), key_display="esc/q"),
        TableScreen.LEAVE_CHAT_BINDING,
        *TableScreen.TURN_BINDINGS,
        *END_BINDINGS,
        *BLANK_BINDINGS,
        REDEAL_BINDING,
        # The end keys outside a question of which end: they say what they are for.
        Binding("h,l,1,2", "explain('choose_end')", "", show=False),
    ]

    FOOTER_ACTIONS = (*TableScreen.FOOTER_ACTIONS, "choose_end")
    WORDED = "SeatPanel, HandView, LineOfPlay, BoneyardInfo"

    def __init__(self, view: View) -> None:
        super().__init__(view)
        #: Where this match's seats sit on screen: only their panels are made.
        self._places = {place for _, place in table_positions(view.players, None, view.rules.direction)}
        #: My hand before my current run of draws (to tell which tiles came).
        self._hand_before_draws: tuple[object, ...] | None = None
        #: A tile that fits both ends, waiting for the player to say which.
        self.choosing_end: Play | None = None
        #: A tile whose wild blank is left open, waiting for its number (`BlankQuestion`).
        self.choosing_blank: BlankQuestion | None = None
        #: The last hint shown, and for which view: asked again, it says why in figures.
        self._last_hint: tuple[View, Hint] | None = None

    # -- layout --------------------------------------------------------------------

    @classmethod
    def key_lines(cls, rules: Rules | None) -> list[str]:
        from capicu.tui.screens.rules_keys import binding_lines  # (the rules and keys screen's)

        # The house rules' keys are listed only when the game in play has them.
        house = [*cls.BLANK_BINDINGS, cls.REDEAL_BINDING]
        lines = [
            # The table's keys hold the hand's (HandView.CURSOR_BINDINGS) and the ends': each key once.
            *binding_lines([b for b in cls.BINDINGS if b not in house], asides=cls.END_BINDINGS,
                           aside=lambda what: t("{what} (a tile that fits both ends)", what=what)),
            "",
        ]
        if rules is not None and rules.wild_blanks:
            lines += [t("When a blank is left open (wild blanks), 0 to 9 give its number too:"),
                      *binding_lines(cls.BLANK_BINDINGS), ""]
        if rules is not None and rules.redeal_on_doubles:
            lines += [t("Dealt five doubles or more, before the first tile:"),
                      *binding_lines([cls.REDEAL_BINDING]), ""]
        return lines

    def compose_board(self) -> ComposeResult:
        ascii_mode = self.capicu.ascii_mode
        with Horizontal(id="table-seats"):
            for place in (Position.LEFT, Position.TOP, Position.RIGHT):
                if place in self._places:
                    yield SeatPanel(id=_SLOT[place], classes="seat-slot", ascii=ascii_mode)
        with Horizontal(id="table-middle"):
            yield LineOfPlay(id="line", tile_style=self.capicu.tile_style, ascii=ascii_mode)
            with Vertical(id="table-side"):
                boneyard = BoneyardInfo(id="boneyard")
                boneyard.set_reactive(BoneyardInfo.short, True)  # the side panel is narrow
                yield boneyard
                yield EventLog(id="log")
                yield Static("", id="round-end", markup=False)
                yield ChatPanel(id="chat")

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

    # -- what the App tells us -----------------------------------------------------

    def _view_changed(self, view: View) -> None:
        if self.choosing_end is not None and self.choosing_end not in view.legal:
            self.choosing_end = None

    def _tell(self, news: tuple[object, ...], before: View | None, view: View, *, snapshot: bool) -> None:
        events = cast("tuple[Event, ...]", news)  # a line of play's events
        log = self.query_one(EventLog)
        names = self._names(view)
        for place, event in enumerate(events):
            log.add_event(event, names, view.seat, covered=place in self.covered)
            self._note_my_move(event, view, before)
        drawer = log.drawing()
        if drawer is not None and (view.turn != drawer or (drawer == view.seat and view.legal != (DRAW,))):
            # The run of draws is over (for me: a drawn tile fits, or nothing more can come).
            self._tell_draws(view)
        if any(isinstance(event, TilePlayed) and event.seat == view.seat for event in events):
            self.query_one(HandView).fresh = frozenset()

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

    # -- drawing the screen ----------------------------------------------------------

    def _show(self, view: View) -> None:
        direction = (
            t("play moves to your right") if view.rules.direction is Direction.COUNTERCLOCKWISE
            else t("play moves to your left")
        )
        preset = game_title(view.rules.preset)
        if self.capicu.ascii_mode:
            title = t("{preset} - round {round} - to {target}", preset=preset, round=view.round_number,
                      target=view.target)
        else:
            title = t("{preset} · round {round} · to {target}", preset=preset, round=view.round_number,
                      target=view.target)
        self._show_title(f"{title}   {direction}")
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
        super()._show(view)

    def _show_around(self, view: View) -> None:
        self._show_seats(view)
        self._show_status(view)
        self._refresh_footer()

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

    def _round_summary(self, view: View) -> str:
        lines = describe_result(view.results[-1], self._names(view), view.rules, view.players,
                                my_seat=view.seat, hands=False)
        return "\n".join(lines)

    def _show_turn_timer(self, view: View, left: tuple[int, int] | None) -> None:
        for seat, place in table_positions(view.players, view.seat, view.rules.direction):
            self.query_one(f"#{_SLOT[place]}", SeatPanel).timer = (
                left[1] if left is not None and left[0] == seat else None)

    def _question_prompt(self, view: View) -> str | None:
        if self.choosing_blank is not None:
            question = self.choosing_blank
            return t("Blank of {tile} as which number ({low}-{high})? ← → or digit, Enter: {number}. "
                     "Esc: another tile.", tile=str(question.tile), low=min(question.numbers),
                     high=max(question.numbers), number=question.number)
        if REDEAL in view.legal and view.ends is None:
            return (t("You were dealt five doubles or more: n asks for a new deal, or play on.")
                    if view.is_my_turn
                    else t("You were dealt five doubles or more: n asks for a new deal."))
        if self.choosing_end is not None and view.ends is not None:
            return t("{tile} fits both ends: ← left ({left}) or → right ({right})? Esc: another tile.",
                     tile=str(self.choosing_end.tile), left=view.ends[0], right=view.ends[1])
        return None

    def _turn_prompt(self, view: View) -> str:
        if view.legal == (PASS,):
            return (t("Nothing fits and el pozo is down to its reserve: press p to pass (paso).")
                    if view.rules.drawing else t("Nothing fits: press p to pass (paso)."))
        if view.legal == (DRAW,):
            return t("Nothing fits: drawing from el pozo...")
        if view.forced_lead is not None:
            return t("Your lead: {tile} opens the round. Enter plays it.", tile=str(view.forced_lead))
        if DRAW in view.legal:
            return t("Your turn: play a tile, or press d to draw.")
        return super()._turn_prompt(view)

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

    def action_cancel_end(self) -> None:
        self.choosing_end = None
        if self.view is not None:
            self._show_status(self.view)
        self._refresh_footer()

    # -- a wild blank's number, and a new deal (house rules) --------------------------

    def _lay(self, plays: list[Play], place: object, view: View) -> None:
        """Send the play of ``plays`` on ``place``, asking first for its blank's number when it has one."""
        here = [play for play in plays if play.place == place]
        named = {play.blank: play for play in here if play.blank is not None}
        if not named:
            if here:
                self._send(here[0])
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
        self.choosing_blank = msgspec.structs.replace(question, number=question.numbers[index])
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
        self.choosing_blank = msgspec.structs.replace(question, number=number)
        self.query_one(StatusLine).clear_notice()  # the choice made, not a refusal it replaced
        if self.view is not None:
            self._show_status(self.view)

    def action_blank_lay(self) -> None:
        """Lay the tile with its blank as the number chosen (with the arrows or a digit)."""
        question = self.choosing_blank
        if question is None:
            return
        self.action_cancel_blank()
        self._send(question.plays[question.number])

    def action_cancel_blank(self) -> None:
        self.choosing_blank = None
        if self.view is not None:
            self._show_status(self.view)
        self._refresh_footer()

    def action_redeal(self) -> None:
        view = self.view
        if view is not None and REDEAL in view.legal:
            self._send(REDEAL)

    # -- what is offered, and why not ------------------------------------------------

    def _refusal(self, action: Action, view: View) -> str:
        return describe_action_refused(view, action, self._names(view))

    def _explain_own(self, what: str) -> bool:
        if what == "choose_end":
            self.say(t("h, l, 1 and 2 choose an end when a tile fits both."), log_it=False)
            return True
        return False

    def _asks(self, action: str) -> bool | None:
        if action in ("blank_step", "blank_choose", "blank_lay", "cancel_blank"):
            return self.choosing_blank is not None
        if action in ("choose_end", "cancel_end"):
            return self.choosing_end is not None
        if self.choosing_end is not None or self.choosing_blank is not None:
            return False  # one question at a time: which end, or which number
        return None

    def _offers_own(self, action: str, view: View | None) -> bool:
        if action == "redeal":
            return view is not None and REDEAL in view.legal
        if action == "choose":
            return view is not None and view.is_my_turn and any(isinstance(a, Play) for a in view.legal)
        if action == "draw":
            return view is not None and view.is_my_turn and DRAW in view.legal and len(view.legal) > 1
        if action == "pass_turn":
            return view is not None and view.is_my_turn and view.legal == (PASS,)
        return True

    # -- the hint --------------------------------------------------------------------

    def _hint_again(self, view: View) -> bool:
        if self._last_hint is not None and self._last_hint[0] is view:
            self._show_hint(view, self._last_hint[1], evidence=True)  # asked again: the figures behind it
            return True
        return False

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


def _match_over() -> type[MatchOverScreen[View]]:
    from capicu.tui.screens.draw_match_over import DrawMatchOverScreen

    return DrawMatchOverScreen


def _replay_board() -> type[ReplayBoard[View]]:
    from capicu.tui.screens.draw_replay import DrawReplayBoard

    return DrawReplayBoard


#: The Draw family in the interface (see `tui.games`).
FACE = GameFace(table=DrawTableScreen, match_over=_match_over, replay_board=_replay_board)
