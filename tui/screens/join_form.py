"""Join a game: the host's address, your name and the join code."""

from __future__ import annotations

from typing import ClassVar

from capicu.net.protocol import CODE_LIMIT, NAME_LIMIT
from capicu.tui.cli.options import CliError, parse_address
from capicu.tui.game import JoinGame
from capicu.tui.screens.base import CapicuScreen
from capicu.tui.words.messages import N_, t
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Grid, Horizontal, Vertical
from textual.widgets import Button, Checkbox, Footer, Input, Label, Static


class JoinFormScreen(CapicuScreen[None]):
    """Where a player types what the host's screen shows."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s,f5", "connect", N_("Join"), key_display="^s"),
        Binding("escape", "back", N_("Back"), key_display="esc"),
    ]

    def compose(self) -> ComposeResult:
        last_host = self.capicu.settings.last_host
        name = self.capicu.player_name(None)
        with Vertical(id="join-box", classes="form-box"):
            yield Static(t("Join a game"), classes="screen-title")
            with Grid(classes="form-grid"):
                yield Label(t("Address"))
                yield Input(value=last_host, placeholder=t("address or address:port, as the host shows it"),
                            id="address")
                yield Label(t("Your name"))
                yield Input(value=name, id="name", max_length=NAME_LIMIT)
                yield Label(t("Join code"))
                yield Input(id="code", max_length=CODE_LIMIT)
                yield Label("")
                yield self.capicu.ascii_checkbox(t("Only watch"), id="spectate")
            with Horizontal(classes="form-buttons"):
                yield Button(t("Join"), id="connect", variant="primary")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#address", Input).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "connect":
            self.action_connect()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.action_connect()

    def action_back(self) -> None:
        self.dismiss()

    def action_connect(self) -> None:
        try:
            host, port = parse_address(self.query_one("#address", Input).value)
        except CliError:
            self.notify(t("Write the host as ADDRESS or ADDRESS:PORT."), severity="error")
            return
        name = self.query_one("#name", Input).value.strip()
        if not name:
            self.notify(t("Your name cannot be empty."), severity="error")
            return
        code = self.query_one("#code", Input).value.strip() or None
        spectate = self.query_one("#spectate", Checkbox).value
        self.capicu.save_setting(name=name)
        self.capicu.start_game(JoinGame(host=host, port=port, name=name, code=code, spectate=spectate))
