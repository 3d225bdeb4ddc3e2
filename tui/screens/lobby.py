"""The lobby: who sits where, how others join, and the wait until every seat is filled."""

from __future__ import annotations

from typing import ClassVar

from capicu.net.protocol import SeatKind
from capicu.tui.game import computer_name
from capicu.tui.messages import N_, Wording, t, tc, tn
from capicu.tui.screens.base import CapicuScreen
from capicu.tui.widgets.event_log import EventLog
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
        self.game_changed()

    def language_changed(self) -> None:
        # Words again in place: the news log keeps its lines (in the new language).
        self.query_one("#lobby-title", Static).update(t("Lobby"))
        self.query_one(EventLog).reword()
        self.game_changed()

    def set_status(self, text: str) -> None:
        """What is happening before the seats are known ("Connecting...", "asking the host...")."""
        if self.is_mounted:
            self.query_one("#lobby-status", Static).update(text)

    def notice(self, text: str | Wording) -> None:
        """Someone joined, left or came back: everyone in the lobby is told."""
        if self.is_mounted:
            self.query_one(EventLog).add_notice(text)

    def chat_arrived(self, name: str, text: str) -> None:
        if self.is_mounted:
            self.query_one(EventLog).add_chat(name, text)

    def game_changed(self) -> None:
        """Redraw from the App's game state (the App calls this on every change)."""
        game = self.capicu.game
        if game is None or not self.is_mounted:
            return
        join = self.query_one("#lobby-join", Static)
        if game.host is not None:
            line = f"capicu join {game.host.address}:{game.host.port}"
            if game.host.code:
                line += f" --code {game.host.code}"
            code = (t("Join code: {code}", code=game.host.code) if game.host.code
                    else t("No join code: anyone who can reach this machine may join."))
            join.update("\n".join((t("Others join with:"), f"  {line}", code)))
        else:
            join.update("")
        self.refresh_bindings()
        table = self.query_one("#lobby-seats", DataTable)
        # Columns are remade with the rows so that their widths fit the names.
        table.clear(columns=True)
        table.add_columns(t("Seat"), t("Name"), t("Who"), t("Link"))
        for info in game.seats:
            name = computer_name(info.seat) if info.kind == SeatKind.COMPUTER else (info.name or "")
            if info.seat == game.seat:
                name = t("{name} (you)", name=name)
            link = "" if info.kind == "open" else (
                t("connected") if info.connected or info.kind == "computer" else tc("not connected", "away")
            )
            table.add_row(str(info.seat + 1), name, _kind_name(info.kind), link)
        filled = sum(1 for s in game.seats if s.kind != "open")
        waiting = t("The match starts as soon as every seat is filled ({filled} of {players}).",
                    filled=filled, players=game.players or len(game.seats))
        if game.spectators:
            waiting += " " + tn("{count} watching.", "{count} watching.", game.spectators)
        self.query_one("#lobby-waiting", Static).update(waiting if game.seats else "")
        if game.seats:
            self.query_one("#lobby-status", Static).update("")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # Only the hosting terminal can seat computers, and only before the deal.
        if action == "fill_with_computers":
            game = self.capicu.game
            return game is not None and game.host is not None
        return True

    def action_fill_with_computers(self) -> None:
        link = self.capicu.link
        count = link.fill_with_computers() if link is not None else 0
        if count:
            self.notify(tn("A computer took the open seat.", "Computers took {count} open seats.", count))

    async def action_leave(self) -> None:
        game = self.capicu.game
        await self.capicu.leave_game(end_match=game is not None and game.hosting)
