"""Join a game: a table found on the local network, or the host's address; your name and the join code.

The tables announced on the local network are listed as they appear and go (net/mdns.py's
`TableWatch`, started with the screen and closed with it); choosing one fills in its address.
Club nights are listed with them: one chosen is joined as ``capicu club --join`` joins it, into
the club's lobby.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, ClassVar

from capicu.net.host.server import NO_LAN
from capicu.net.protocol import CODE_LIMIT, NAME_LIMIT
from capicu.tui.cli.options import CliError, parse_address
from capicu.tui.cli.tables import joinable, table_name_shown, table_state
from capicu.tui.game import JoinGame
from capicu.tui.screens.base import SCREENS_CSS, CapicuScreen
from capicu.tui.words.describe_rules import game_title
from capicu.tui.words.messages import N_, t
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Grid, Horizontal, Vertical
from textual.widgets import Button, Checkbox, Footer, Input, Label, OptionList, Static
from textual.widgets.option_list import Option

if TYPE_CHECKING:
    from capicu.net.discovery import Found, Listing
    from capicu.net.mdns import TableWatch


class JoinFormScreen(CapicuScreen[None]):
    """Where a player types what the host's screen shows."""

    CSS_PATH = SCREENS_CSS

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s,f5", "connect", N_("Join"), key_display="^s"),
        Binding("escape", "back", N_("Back"), key_display="esc"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self._watch: TableWatch | None = None
        #: The tables listed, in the list's order.
        self._tables: list[Listing] = []
        #: Whether the network was listened to (False: not yet, or it could not be).
        self._looking = False
        #: The table (or club night) last chosen from the list (None: none, the address typed).
        self._chosen: Listing | None = None

    def compose(self) -> ComposeResult:
        last_host = self.capicu.settings.last_host
        name = self.capicu.player_name(None)
        with Vertical(id="join-box", classes="form-box"):
            yield Static(t("Join a game"), classes="screen-title")
            tables = OptionList(id="tables")
            tables.border_title = self._list_title()
            yield tables
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
        self._show_tables()
        if not os.environ.get(NO_LAN):
            self.run_worker(self._look(), group="tables", exclusive=True)

    async def _look(self) -> None:
        """Follow the tables on the local network until the screen closes."""
        # Imported here: python-zeroconf loads with the first Join screen, not with the app.
        from capicu.net.mdns import TableWatch

        watch = TableWatch(self.tables_heard)
        try:
            await watch.start()
        except (OSError, RuntimeError) as exc:  # no interface to listen on: the address is typed, as before
            self.log.warning(f"cannot look for tables: {exc}")
            await watch.close()
            self._show_tables()
            return
        self._watch, self._looking = watch, True
        self._show_tables()

    async def on_unmount(self) -> None:
        watch, self._watch = self._watch, None
        if watch is not None:
            await watch.close()

    def tables_heard(self, found: list[Found]) -> None:
        """The tables on the network now (the watch calls it each time that changes)."""
        from capicu.net.discovery import listings

        self._tables = listings(found)
        self._show_tables()

    def _show_tables(self) -> None:
        """List the tables heard (or say that none is, and why an address may be needed)."""
        shown = self.query_one("#tables", OptionList)
        shown.border_title = self._list_title()
        highlighted = shown.highlighted
        shown.clear_options()
        if not self._tables:
            empty = (t("Looking for tables... (none yet: a network may not pass them; type the address)")
                     if self._looking else t("Not looking for tables: type the host's address."))
            shown.add_option(Option(empty, disabled=True))
            return
        for listing in self._tables:
            shown.add_option(Option(self._table_row(listing), disabled=not joinable(listing, False)))
        if highlighted is not None and highlighted < len(self._tables):
            shown.highlighted = highlighted

    def _list_title(self) -> str:
        """The list's title: its club nights named too when any is listed."""
        if any(listing.club for listing in self._tables):
            return t("Tables and club nights on the local network")
        return t("Tables on the local network")

    @staticmethod
    def _table_row(listing: Listing) -> Text:
        """A table on two lines: its name and where it is, then the game (its title in words) and its
        seats (a club night: its format, round and players).

        The address goes beside the name, so that neither line is much longer than the other and a
        club night's fits an 80-column terminal; a line longer than the list is cut (…, the list's
        style), never wrapped to a third line that would take the room of the next row.
        """
        row = Text()
        row.append(table_name_shown(listing, address_beside=True), style="bold")
        game = game_title(listing.found.ad.preset)
        row.append(f" · {listing.found.where}\n  {game} · {table_state(listing)}")
        return row

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        """A table chosen: its address goes in the field, and the focus to what is still to fill in."""
        event.stop()
        if not 0 <= event.option_index < len(self._tables):
            return
        chosen = self._chosen = self._tables[event.option_index]
        self.query_one("#address", Input).value = chosen.found.where
        code = self.query_one("#code", Input)
        if chosen.found.ad.code_needed and not code.value.strip():
            code.focus()
        else:
            self.query_one("#connect", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "connect":
            self.action_connect()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.action_connect()

    def action_back(self) -> None:
        self.dismiss()

    def action_connect(self) -> None:
        address = self.query_one("#address", Input).value
        try:
            host, port = parse_address(address)
        except CliError:
            self.notify(t("Write the host as ADDRESS or ADDRESS:PORT."), severity="error")
            return
        name = self.query_one("#name", Input).value.strip()
        if not name:
            self.notify(t("Your name cannot be empty."), severity="error")
            return
        code = self.query_one("#code", Input).value.strip() or None
        spectate = self.query_one("#spectate", Checkbox).value
        chosen = self._chosen
        # A club night chosen from the list (its address not changed since): into its lobby.
        club = chosen is not None and chosen.club and address.strip() == chosen.found.where
        self.capicu.save_setting(name=name)
        self.capicu.start_game(JoinGame(host=host, port=port, name=name, code=code, spectate=spectate,
                                        club=club))
