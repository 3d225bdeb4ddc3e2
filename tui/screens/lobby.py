"""The lobby: who sits where, how others join, and the wait until every seat is filled."""

from __future__ import annotations

from typing import ClassVar

from capicu.net.model import Change
from capicu.net.protocol import NAME_LIMIT, Chat, SeatKind, Seats
from capicu.tui.game import computer_name, seat_notices
from capicu.tui.screens.base import CapicuScreen
from capicu.tui.widgets.event_log import EventLog
from capicu.tui.widgets.fitted_table import fill_fitted
from capicu.tui.words.describe import display_text
from capicu.tui.words.messages import N_, t, tc, tn
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import DataTable, Footer, Static


def _kind_name(kind: str) -> str:
    """Who a seat is for, in a word (the seat map's kind)."""
    names = {
        "open": tc("a seat nobody has taken", "open"),
        "person": tc("a seat a person took", "person"),
        "computer": tc("a seat the computer plays", "computer"),
    }
    return names.get(kind, kind)


class LobbyScreen(CapicuScreen[None]):
    """Shown from connecting until the first deal (a solo game has no lobby)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q", "leave", N_("Leave"), key_display="esc/q"),
        Binding("s", "fill_with_computers", N_("Start with computers")),
    ]

    def compose(self) -> ComposeResult:
        with Vertical(id="lobby-box"):
            yield Static(t("Lobby"), id="lobby-title", classes="screen-title")
            yield Static(t("Connecting..."), id="lobby-status")
            yield Static("", id="lobby-join")
            table: DataTable[str] = DataTable(id="lobby-seats", cursor_type="none", zebra_stripes=True)
            yield table
            yield Static("", id="lobby-waiting")
            yield EventLog(id="lobby-news", max_lines=100)
        yield Footer()

    def on_mount(self) -> None:
        self.watch(self.app, "hosted_at", self._show_join)
        self.watch(self.app, "ssh_join", self._show_join)
        self._show_seats()
        for notice in self.capicu.take_opening_notices():
            self.query_one(EventLog).add_notice(notice)

    def language_changed(self) -> None:
        # Words again in place: the news log keeps its lines (in the new language).
        self.query_one("#lobby-title", Static).update(t("Lobby"))
        self.query_one(EventLog).reword()
        self._show_join()
        self._show_seats()

    def set_status(self, text: str) -> None:
        """What is happening before the seats are known ("Connecting...", "asking the host...")."""
        if self.is_mounted:
            self.query_one("#lobby-status", Static).update(text)

    def model_changed(self, change: Change) -> None:
        """Who sits where, said in the news when someone joins, leaves or comes back; chat."""
        model = self.capicu.table
        if model is None or not self.is_mounted:
            return
        taken = change.message
        news = self.query_one(EventLog)
        if isinstance(taken, Seats):
            for notice in seat_notices(change.seats_before, model.seats, model.seat, change.awaited_before):
                news.add_notice(notice)
        elif isinstance(taken, Chat):
            news.add_chat(taken.name, taken.text)
        self._show_seats()

    def _show_join(self, _: object = None) -> None:
        """How others join (this terminal hosts), SSH included once it is on."""
        # Loaded by the lobby only: a game against the computer has none.
        from capicu.tui.screens.how_to_join import how_to_join_lines

        self.query_one("#lobby-join", Static).update("\n".join(how_to_join_lines(self.capicu)))
        self.refresh_bindings()

    def _show_seats(self) -> None:
        model = self.capicu.table
        if model is None:
            return
        rows = []
        for info in model.seats:
            name = computer_name(info.seat) if info.kind == SeatKind.COMPUTER else (info.name or "")
            if info.seat == model.seat:
                name = t("{name} (you)", name=name)
            link = "" if info.kind == "open" else (
                t("connected") if info.connected or info.kind == "computer" else tc("not connected", "away")
            )
            rows.append((str(info.seat + 1), name, _kind_name(info.kind), link))
        for watcher in model.watchers:
            name = display_text(watcher, NAME_LIMIT)
            if model.seat is None and watcher == model.name:
                name = t("{name} (you)", name=name)
            rows.append(("", name, tc("a person who watches the table", "watching"), t("connected")))
        # Columns are remade with the rows so that their widths fit the names.
        headings = (t("Seat"), t("Name"), t("Who"), t("Link"))
        fill_fitted(self.query_one("#lobby-seats", DataTable), headings, rows)
        filled = sum(1 for s in model.seats if s.kind != "open")
        waiting = t("The match starts as soon as every seat is filled ({filled} of {players}).",
                    filled=filled, players=model.players or len(model.seats))
        if model.spectators:
            waiting += " " + tn("{count} watching.", "{count} watching.", model.spectators)
        self.query_one("#lobby-waiting", Static).update(waiting if model.seats else "")
        if model.seats:
            self.query_one("#lobby-status", Static).update("")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # Only the hosting terminal can seat computers, and only before the deal.
        if action == "fill_with_computers":
            return self.capicu.hosted_at is not None
        return True

    def action_fill_with_computers(self) -> None:
        link = self.capicu.link
        count = link.fill_with_computers() if link is not None else 0
        if count:
            self.notify(tn("A computer took the open seat.", "Computers took {count} open seats.", count))

    async def action_leave(self) -> None:
        game = self.capicu.game
        await self.capicu.leave_game(end_match=game is not None and game.hosting)
