"""The lobby: who sits where, how others join, and the wait until every seat is filled."""

from __future__ import annotations

from typing import ClassVar

from capicu.tui.messages import add_messages, t
from capicu.tui.screens.base import CapicuScreen
from capicu.tui.widgets.event_log import EventLog
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import DataTable, Footer, Static

add_messages({
    "lobby.title": "Lobby",
    "lobby.connecting": "Connecting...",
    "lobby.join_line": "Others join with:",
    "lobby.join_command": "capicu join {address}:{port}",
    "lobby.join_code": " --code {code}",
    "lobby.code": "Join code: {code}",
    "lobby.no_code": "No join code: anyone who can reach this machine may join.",
    "lobby.waiting": "The match starts as soon as every seat is filled ({filled} of {players}).",
    "lobby.spectators": "{count} watching.",
    "lobby.col.seat": "Seat",
    "lobby.col.name": "Name",
    "lobby.col.who": "Who",
    "lobby.col.link": "Link",
    "lobby.kind.open": "open",
    "lobby.kind.person": "person",
    "lobby.kind.computer": "computer",
    "lobby.connected": "connected",
    "lobby.away": "away",
    "lobby.you": "{name} (you)",
    "lobby.fill": "Start with computers",
    "lobby.filled": "Computers took {count} open seats.",
})


class LobbyScreen(CapicuScreen[None]):
    """Shown from connecting until the first deal (a solo game has no lobby)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q", "leave", t("key.leave"), key_display="esc/q"),
        Binding("s", "fill_with_computers", t("lobby.fill")),
    ]

    def compose(self) -> ComposeResult:
        with Vertical(id="lobby-box"):
            yield Static(t("lobby.title"), classes="screen-title")
            yield Static(t("lobby.connecting"), id="lobby-status")
            yield Static("", id="lobby-join")
            table: DataTable[str] = DataTable(id="lobby-seats", cursor_type="none", zebra_stripes=True)
            yield table
            yield Static("", id="lobby-waiting")
            yield EventLog(id="lobby-news", max_lines=100)
        yield Footer()

    def on_mount(self) -> None:
        self.game_changed()

    def set_status(self, text: str) -> None:
        """What is happening before the seats are known ("Connecting...", "asking the host...")."""
        if self.is_mounted:
            self.query_one("#lobby-status", Static).update(text)

    def notice(self, text: str) -> None:
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
            line = t("lobby.join_command", address=game.host.address, port=game.host.port)
            if game.host.code:
                line += t("lobby.join_code", code=game.host.code)
            code = t("lobby.code", code=game.host.code) if game.host.code else t("lobby.no_code")
            join.update(f"{t('lobby.join_line')}\n  {line}\n{code}")
        else:
            join.update("")
        self.refresh_bindings()
        table = self.query_one("#lobby-seats", DataTable)
        # Columns are remade with the rows so that their widths fit the names.
        table.clear(columns=True)
        table.add_columns(t("lobby.col.seat"), t("lobby.col.name"), t("lobby.col.who"), t("lobby.col.link"))
        for info in game.seats:
            name = info.name or ""
            if info.seat == game.seat:
                name = t("lobby.you", name=name)
            link = "" if info.kind == "open" else (
                t("lobby.connected") if info.connected or info.kind == "computer" else t("lobby.away")
            )
            table.add_row(str(info.seat + 1), name, t(f"lobby.kind.{info.kind}"), link)
        filled = sum(1 for s in game.seats if s.kind != "open")
        waiting = t("lobby.waiting", filled=filled, players=game.players or len(game.seats))
        if game.spectators:
            waiting += " " + t("lobby.spectators", count=game.spectators)
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
            self.notify(t("lobby.filled", count=count))

    async def action_leave(self) -> None:
        await self.capicu.leave_game()
