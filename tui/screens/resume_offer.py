"""An unfinished match was kept (the host crashed, or stopped mid-match): resume it or start a new one.

Shown before a hosted or solo game starts, when the folder of journals holds an
unfinished match of that kind (net/store/journals.py). The answer goes back to the App
(`CapicuApp.start_game`): True resumes it, False starts a new match and sets the
unfinished one aside with the finished ones, None (Esc) starts nothing.
"""

from __future__ import annotations

from typing import ClassVar

from capicu.net.store.journals import Unfinished
from capicu.tui.screens.base import SCREENS_CSS, CapicuModalScreen
from capicu.tui.words.describe import describe_unfinished
from capicu.tui.words.messages import N_, t
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Footer, Static


class ResumeOfferScreen(CapicuModalScreen[bool | None]):
    """Offers the unfinished match ``kept``; dismissed with True (resume), False (new) or None (back)."""

    CSS_PATH = SCREENS_CSS

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("r", "answer(True)", N_("Resume")),
        Binding("n", "answer(False)", N_("Start new")),
        Binding("escape", "answer(None)", N_("Back")),
    ]

    def __init__(self, kept: Unfinished) -> None:
        super().__init__()
        self.kept = kept

    def compose(self) -> ComposeResult:
        with Vertical(id="resume-box", classes="dialog"):
            # TRANSLATORS: {match} is "the match of 17:02 (Ana, Beto; 3 rounds played)".
            yield Static(t("Resume {match}?", match=describe_unfinished(self.kept)),
                         classes="screen-title", markup=False)
            yield Static(t("It was not finished: this machine kept it in {path}. r resumes it where it "
                           "stopped; n starts a new match and sets that one aside with the finished ones.",
                           path=str(self.kept.path)), markup=False)
            with Horizontal(classes="form-buttons"):
                yield Button(t("Resume"), id="resume", variant="primary")
                yield Button(t("Start new"), id="new")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#resume", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "resume")

    def action_answer(self, resume: bool | None) -> None:
        self.dismiss(resume)
