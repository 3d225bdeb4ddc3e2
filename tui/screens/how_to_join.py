"""How others join the table this terminal hosts: the join command, the code, and SSH when it is on.

The same lines stand in the lobby; at the table they are one key away (``j``),
never a notice over the hand.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from capicu.tui.screens.base import CapicuModalScreen
from capicu.tui.words.messages import N_, t
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import Footer, Static

if TYPE_CHECKING:
    from capicu.tui.app import CapicuApp


def how_to_join_lines(app: CapicuApp) -> list[str]:
    """How others reach the table this app hosts (none when it does not host)."""
    host = app.hosted_at
    if host is None:
        return []
    line = f"capicu {'club --join' if host.club else 'join'} {host.address}:{host.port}"
    if host.code:
        line += f" --code {host.code}"
    code = (t("Join code: {code}", code=host.code) if host.code
            else t("No join code: anyone who can reach this machine may join."))
    lines = [t("Others join with:"), f"  {line}", code]
    if host.announced is not None and host.club:
        # TRANSLATORS: {name} is the club night's name as others see it in their list ("Ana's club").
        lines.append(t("On the local network the club night is listed as {name}.", name=host.announced))
    elif host.announced is not None:
        # TRANSLATORS: {name} is the table's name as others see it in their list ("Ana's table").
        lines.append(t("On the local network the table is listed as {name}.", name=host.announced))
    if app.ssh_join is not None:
        lines += app.ssh_join()
    return lines


class HowToJoinScreen(CapicuModalScreen[None]):
    """The join command and, with ``--ssh``, the SSH line and the host key's fingerprint."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,enter,j", "close", N_("Close"), key_display="esc"),
    ]

    def compose(self) -> ComposeResult:
        with Vertical(id="how-to-join-box", classes="dialog"):
            yield Static(t("How to join this table"), classes="screen-title")
            yield Static("\n".join(how_to_join_lines(self.capicu)), id="how-to-join", markup=False)
        yield Footer()

    def action_close(self) -> None:
        self.dismiss()
