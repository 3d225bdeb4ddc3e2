"""A tiny App that shows the widgets under test, with the game's themes registered."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from capicu.core import Match, Play, Rules, View
from capicu.tui.prefs.themes import GAME_VARIABLES, load_themes
from textual.app import App, ComposeResult
from textual.widget import Widget

SIZE = (80, 24)


class WidgetApp(App[None]):
    """Composes whatever widgets a test hands it and records the messages they post."""

    def __init__(self, make: Callable[[], Iterable[Widget]], theme: str = "felt") -> None:
        super().__init__()
        self._make = make
        self.posted: list[object] = []
        for loaded in load_themes(None)[0]:
            self.register_theme(loaded)
        self.theme = theme

    def get_theme_variable_defaults(self) -> dict[str, str]:
        return dict(GAME_VARIABLES)

    def compose(self) -> ComposeResult:
        yield from self._make()

    def on_hand_view_tile_chosen(self, message: object) -> None:
        self.posted.append(message)

    def on_chat_panel_send(self, message: object) -> None:
        self.posted.append(message)


def styled_app(make: Callable[[], Iterable[Widget]], css: str) -> WidgetApp:
    """A `WidgetApp` with extra CSS (sizes the layout would give the widgets)."""
    styled = type("StyledWidgetApp", (WidgetApp,), {"CSS": css})
    app: WidgetApp = styled(make)
    return app


def played_view(seed: int = 7, moves: int = 12, players: int = 3, preset: str = "puerto-rican-drawing",
                seat: int | None = 0) -> View:
    """A real mid-round view: a match from ``seed`` after ``moves`` first-legal-play moves."""
    match = Match(Rules.preset_named(preset), players, seed=seed)
    for _ in range(moves):
        if match.is_over or match.turn is None:
            break
        legal = match.legal_actions()
        plays = [a for a in legal if isinstance(a, Play)]
        match.apply(plays[0] if plays else legal[0])
    return match.view(seat)
