"""Every text cell is readable, in every shipped theme and colour mode (issue 11, section 5).

The real app is driven with Pilot at 80x24 through the main menu, the lobby, the table mid-round
(and its cursor on a tile that does not fit, and notices over it), the round end and the match
over: one app per theme and colour mode, `SCREENS` in turn (adapt those helpers when a screen
changes). On
each screen, every cell that holds a visible character is checked as a terminal would draw it:
its colours are cut down to the colour system as Rich does when Textual writes them
(`rich.color.Color.downgrade`), and the colour number a 16- or 256-colour terminal receives is
turned back into light with a fixed palette: xterm's defaults (`XTERM_16`, what TERM=xterm
shows), and the standard cube and grey ramp for 16-255. A cell passes when its text and its
background are not sent as the same colour and their contrast ratio (WCAG 2, relative luminance)
is at least 4.5, or 3 for dimmed text (``text-style: dim``, which Textual turns into a blend
towards the background before writing: `MarkDimmed` notes where it was asked for). Bold text in
colours 0-7 must also read at 3:1 in the bright colour xterm and PuTTY draw it in (`bold_drawn_bright`).

xterm's palette is the strict choice: its bright black (#7f7f7f) is the lightest of the common
terminals', so white on it is 4.0:1, where the VGA palette Rich matches against has 7.5:1.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import capicu.tui.app
import msgspec
import pytest
import textual.constants
from capicu.core import Match, Play, Rules, View
from capicu.tui.app import CapicuApp
from capicu.tui.game import DisplayOptions, HostGame, SoloGame, make_host_config
from capicu.tui.prefs.themes import READABLE_TEXTUAL_THEMES, load_themes
from capicu.tui.widgets.hand_view import HandView
from helpers_app import my_turn, play_turn_and_wait, round_over, wait_for
from rich._palettes import EIGHT_BIT_PALETTE
from rich.cells import cell_len
from rich.color import Color as RichColor
from rich.color import ColorSystem, ColorType
from rich.segment import Segment
from rich.style import Style
from textual._context import visible_screen_stack
from textual.color import Color
from textual.errors import NoWidget
from textual.filter import LineFilter
from textual.notifications import SeverityLevel
from textual.pilot import Pilot
from textual.theme import BUILTIN_THEMES
from textual.widgets._toast import Toast

SIZE = (80, 24)
SHIPPED_THEMES = ("felt", "daylight", "high-contrast")
#: Our colour modes (``--colors``): what Textual's ``TEXTUAL_COLOR_SYSTEM`` and Rich call them.
COLOR_MODES = {
    "16": ("standard", ColorSystem.STANDARD),
    "256": ("256", ColorSystem.EIGHT_BIT),
    "truecolor": ("truecolor", ColorSystem.TRUECOLOR),
}
#: xterm's default colours 0-15 (XTerm-col.ad): what TERM=xterm shows for SGR 30-37 and 90-97.
XTERM_16 = (
    (0x00, 0x00, 0x00), (0xCD, 0x00, 0x00), (0x00, 0xCD, 0x00), (0xCD, 0xCD, 0x00),
    (0x00, 0x00, 0xEE), (0xCD, 0x00, 0xCD), (0x00, 0xCD, 0xCD), (0xE5, 0xE5, 0xE5),
    (0x7F, 0x7F, 0x7F), (0xFF, 0x00, 0x00), (0x00, 0xFF, 0x00), (0xFF, 0xFF, 0x00),
    (0x5C, 0x5C, 0xFF), (0xFF, 0x00, 0xFF), (0x00, 0xFF, 0xFF), (0xFF, 0xFF, 0xFF),
)
TEXT_CONTRAST = 4.5
DIM_TEXT_CONTRAST = 3.0

RGB = tuple[int, int, int]


# -- reaching the screens (the round end and match over are being reworked: adapt these) ----------


def solo_request(seed: int = 3) -> SoloGame:
    return SoloGame(Rules.preset_named("puerto-rican-drawing"), 2, "normal", seed=seed, name="Ana", pace=0.0)


async def show_main_menu(pilot: Pilot[Any], app: CapicuApp) -> None:
    from capicu.tui.screens.menu import MainMenuScreen

    await wait_for(pilot, lambda: isinstance(app.screen, MainMenuScreen), what="the main menu")


async def back_to_the_menu(pilot: Pilot[Any], app: CapicuApp) -> None:
    from capicu.tui.screens.menu import MainMenuScreen

    if app.game is not None:
        await app.leave_game()
    while not isinstance(app.screen, MainMenuScreen):
        app.pop_screen()
    await show_main_menu(pilot, app)


async def show_lobby(pilot: Pilot[Any], app: CapicuApp) -> None:
    """A LAN table this terminal hosts (on 127.0.0.1), waiting for a second player."""
    from capicu.tui.screens.lobby import LobbyScreen

    await back_to_the_menu(pilot, app)
    config = make_host_config(rules=Rules.preset_named("puerto-rican-drawing"), players=2, computers=0,
                              level="normal", bind="127.0.0.1", port=0, code="7k2q", seed=3)
    app.start_game(HostGame(config=config, name="Ana"))
    await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen) and app.game is not None
                   and app.table.seat is not None, what="the lobby")


async def show_table_mid_round(pilot: Pilot[Any], app: CapicuApp) -> None:
    """A solo game started from the menu, at my second turn: tiles on the line, some dimmed in my hand."""
    from capicu.tui.screens.draw_table import DrawTableScreen

    await back_to_the_menu(pilot, app)
    app.start_game(solo_request())
    await wait_for(pilot, lambda: isinstance(app.screen, DrawTableScreen) and my_turn(app),
                   what="my first turn")
    await play_turn_and_wait(pilot, app)
    await wait_for(pilot, lambda: my_turn(app) or round_over(app), what="my second turn")


async def show_cursor_on_a_tile_that_does_not_fit(pilot: Pilot[Any], app: CapicuApp) -> None:
    assert app.table is not None and app.table.view is not None
    view = app.table.view
    fits = {action.tile for action in view.legal if isinstance(action, Play)}
    index = next(i for i, tile in enumerate(view.hand) if tile not in fits)
    await pilot.press("home", *["right"] * index)
    await wait_for(pilot, lambda: app.screen.query_one(HandView).cursor == index, what="the cursor")


async def show_notices(pilot: Pilot[Any], app: CapicuApp) -> None:
    """One notice of each kind over the table (they are cleared before the next screen)."""
    severities: tuple[SeverityLevel, ...] = ("information", "warning", "error")
    for severity in severities:
        app.notify(f"A notice for the table: {severity}.", title=severity.title(), severity=severity)
    await wait_for(pilot, lambda: len(app.screen.query(Toast)) == 3, what="the notices")


async def show_round_end(pilot: Pilot[Any], app: CapicuApp) -> None:
    app.clear_notifications()
    await wait_for(pilot, lambda: not app.screen.query(Toast), what="the notices to go")
    for _ in range(60):
        await wait_for(pilot, lambda: my_turn(app) or round_over(app), what="my turn")
        if round_over(app):
            return
        await play_turn_and_wait(pilot, app)
    raise AssertionError("the round did not end")


def finished_view(seed: int = 5) -> View:
    """Seat 0's view of a whole two-player match, played out with the first legal move each turn."""
    match = Match(msgspec.structs.replace(Rules.preset_named("puerto-rican-drawing"), target=1), 2, seed=seed)
    while not match.is_over:
        legal = match.legal_actions()
        plays = [action for action in legal if isinstance(action, Play)]
        match.apply(plays[0] if plays else legal[0])
    return match.view(0)


async def show_match_over(pilot: Pilot[Any], app: CapicuApp) -> None:
    """The match-over screen, pushed over the finished round with a finished match's view."""
    from capicu.tui.screens.draw_match_over import DrawMatchOverScreen

    await app.push_screen(DrawMatchOverScreen(finished_view()))
    await wait_for(pilot, lambda: isinstance(app.screen, DrawMatchOverScreen), what="the match-over screen")


def train_request(seed: int = 5) -> SoloGame:
    rules = msgspec.structs.replace(Rules.preset_named("mexican-train"), rounds=1)
    return SoloGame(rules, 8, "normal", seed=seed, name="Ana", pace=0.0)


async def show_train_table(pilot: Pilot[Any], app: CapicuApp) -> None:
    """Mexican Train at 8 seats, at one of my turns with a marker up (the lanes, lit and marked)."""
    from capicu.tui.screens.mexican_table import MexicanTableScreen
    from capicu.tui.screens.resume_offer import ResumeOfferScreen
    from helpers_train import my_train_turn, next_train_turn, table_view, train_round_over

    await back_to_the_menu(pilot, app)
    app.start_game(train_request())
    await wait_for(pilot, lambda: isinstance(app.screen, ResumeOfferScreen | MexicanTableScreen),
                   what="the table or the offer to resume")
    if isinstance(app.screen, ResumeOfferScreen):  # the solo game left unfinished before this one
        await pilot.press("n")
    for _ in range(40):
        await wait_for(pilot, lambda: my_train_turn(app) or train_round_over(app), what="my turn")
        view = table_view(app)
        if train_round_over(app) or (view is not None and any(t.marker for t in view.trains[:-1])):
            return
        await next_train_turn(pilot, app)


async def show_train_round_end(pilot: Pilot[Any], app: CapicuApp) -> None:
    from helpers_train import my_train_turn, next_train_turn, train_round_over

    for _ in range(200):
        await wait_for(pilot, lambda: my_train_turn(app) or train_round_over(app), what="my turn")
        if train_round_over(app):
            return
        await next_train_turn(pilot, app)
    raise AssertionError("the round did not end")


async def show_train_match_over(pilot: Pilot[Any], app: CapicuApp) -> None:
    from capicu.tui.screens.mexican_match_over import MexicanMatchOverScreen

    screen = app.screen
    await wait_for(pilot, lambda: getattr(screen, "takes_ready", False), what="the round end")
    await pilot.press("enter")
    await wait_for(pilot, lambda: isinstance(app.screen, MexicanMatchOverScreen), what="the final score")


def fives_request(seed: int = 3) -> SoloGame:
    rules = msgspec.structs.replace(Rules.preset_named("fives-and-threes"), targets=(25, 25, 25))
    return SoloGame(rules, 4, "normal", seed=seed, name="Ana", pace=0.0)


async def show_fives_table(pilot: Pilot[Any], app: CapicuApp) -> None:
    """Fives and Threes at 4 seats, at one of my turns after a score (the total, the pegging board moved)."""
    from capicu.tui.screens.fives_table import FivesTableScreen
    from capicu.tui.screens.resume_offer import ResumeOfferScreen
    from helpers_fives_table import fives_view, my_fives_turn, play_fives_until

    await back_to_the_menu(pilot, app)
    app.start_game(fives_request())
    await wait_for(pilot, lambda: isinstance(app.screen, ResumeOfferScreen | FivesTableScreen),
                   what="the table or the offer to resume")
    if isinstance(app.screen, ResumeOfferScreen):  # the game left unfinished before this one
        await pilot.press("n")
    await play_fives_until(pilot, app, lambda: my_fives_turn(app) and (v := fives_view(app)) is not None
                           and min(v.scores) > 0)


async def show_fives_hand_end(pilot: Pilot[Any], app: CapicuApp) -> None:
    from helpers_fives_table import hand_over, play_fives_until

    await play_fives_until(pilot, app, lambda: hand_over(app))


async def show_fives_match_over(pilot: Pilot[Any], app: CapicuApp) -> None:
    from capicu.tui.screens.fives_match_over import FivesMatchOverScreen
    from helpers_fives_table import fives_view, play_fives_until

    await play_fives_until(pilot, app, lambda: (v := fives_view(app)) is not None and v.match_over, turns=400)
    await wait_for(pilot, lambda: getattr(app.screen, "takes_ready", False), what="the round end")
    await pilot.press("enter")
    await wait_for(pilot, lambda: isinstance(app.screen, FivesMatchOverScreen), what="the final score")


SCREENS = {
    "the main menu": show_main_menu,
    "the lobby": show_lobby,
    "the table mid-round": show_table_mid_round,
    "the cursor on a tile that does not fit": show_cursor_on_a_tile_that_does_not_fit,
    "notices over the table": show_notices,
    "the round end": show_round_end,
    "the match over": show_match_over,
    "Mexican Train's table": show_train_table,
    "Mexican Train's round end": show_train_round_end,
    "Mexican Train's match over": show_train_match_over,
    "Fives and Threes' table": show_fives_table,
    "Fives and Threes' hand end": show_fives_hand_end,
    "Fives and Threes' match over": show_fives_match_over,
}


# -- what a terminal shows ---------------------------------------------------------------------


class MarkDimmed(LineFilter):
    """Marks dimmed text before Textual's own filters blend it into a colour and drop the ``dim``.

    The mark is the ``encircle`` attribute: no widget uses it and it changes no colour, and it
    survives both the blend and the tint of a screen seen beneath a modal one.
    """

    MARK = Style(encircle=True)

    def apply(self, segments: list[Segment], background: Color) -> list[Segment]:
        return [
            Segment(text, style + self.MARK, control) if style is not None and style.dim
            else Segment(text, style, control)
            for text, style, control in segments
        ]


class ContrastApp(CapicuApp):
    """The real app, with dimmed text marked for the check (`MarkDimmed`)."""

    CSS_PATH = str(Path(capicu.tui.app.__file__).with_name("capicu.tcss"))

    def get_line_filters(self) -> list[LineFilter]:
        return [MarkDimmed(), *super().get_line_filters()]


def terminal_rgb(color: RichColor, system: ColorSystem) -> RGB | None:
    """The light a terminal in ``system`` shows for ``color`` (xterm's palette for numbered colours).

    None for the terminal's own default colour, which a test cannot know (nor can a theme rely on).
    """
    shown = color.downgrade(system)
    if shown.type is ColorType.TRUECOLOR:
        assert shown.triplet is not None
        return shown.triplet.red, shown.triplet.green, shown.triplet.blue
    if shown.number is None:
        return None
    if shown.number < 16:
        return XTERM_16[shown.number]
    red, green, blue = EIGHT_BIT_PALETTE[shown.number]
    return red, green, blue


def what_is_sent(color: RichColor, system: ColorSystem) -> str:
    """The colour as the terminal receives it: a palette number, or #rrggbb in truecolor."""
    shown = color.downgrade(system)
    if shown.number is not None:
        return str(shown.number)
    return shown.triplet.hex if shown.triplet is not None else "default"


def named(color: RichColor, system: ColorSystem) -> str:
    """The colour sent, with the one the app asked for when they differ: "8 (#1c4530)"."""
    sent = what_is_sent(color, system)
    asked = color.triplet.hex if color.triplet is not None else color.name
    return sent if sent == asked else f"{sent} ({asked})"


def relative_luminance(rgb: RGB) -> float:
    def linear(channel: int) -> float:
        value = channel / 255
        return value / 12.92 if value <= 0.04045 else ((value + 0.055) / 1.055) ** 2.4

    red, green, blue = (linear(channel) for channel in rgb)
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue


def contrast_ratio(first: RGB, second: RGB) -> float:
    lighter, darker = sorted((relative_luminance(first), relative_luminance(second)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


def seen_contrast(text: RichColor, background: RichColor, system: ColorSystem) -> float:
    """The contrast a terminal in ``system`` shows; 0 where the two are sent as one colour."""
    if what_is_sent(text, system) == what_is_sent(background, system):
        return 0.0
    shown = terminal_rgb(text, system), terminal_rgb(background, system)
    return 0.0 if shown[0] is None or shown[1] is None else contrast_ratio(shown[0], shown[1])


def bold_drawn_bright(text: RichColor, background: RichColor, system: ColorSystem) -> float | None:
    """The contrast of bold text where the terminal draws it in the bright colour, else None.

    xterm (its boldColors resource), PuTTY and others draw bold text in colours 0-7 in the
    bright colour 8-15 by default: bold black comes out bright black. It must then still read,
    as dimmed text does (3:1); it is no failure of ours that it is fainter than asked.
    """
    sent, under = text.downgrade(system), terminal_rgb(background, system)
    if sent.type is not ColorType.STANDARD or sent.number is None or sent.number > 7 or under is None:
        return None
    return contrast_ratio(XTERM_16[sent.number + 8], under)


@dataclass(frozen=True, slots=True)
class Look:
    """How failing cells are drawn: where, in which colours (as the terminal receives them), how faint."""

    widget: str
    foreground: str
    background: str
    contrast: float
    dimmed: bool
    #: Bold text in colours 0-7 that is unreadable once drawn in the bright colour (`bold_drawn_bright`).
    drawn_bright: bool


def screen_cells(app: CapicuApp) -> Iterator[tuple[int, int, str, Style]]:
    """Every visible character on screen (a modal screen over the ones beneath), with its style."""
    # A modal screen draws the ones beneath it from this list (as the app's own refresh sets it).
    visible_screen_stack.set(list(app._background_screens))
    for y, strip in enumerate(app.screen._compositor.render_strips()):
        x = 0
        for text, style, control in strip:
            if control:
                continue
            for character in text:
                if character.strip() and style is not None:
                    yield x, y, character, style
                x += cell_len(character)


def _widget_at(app: CapicuApp, x: int, y: int) -> str:
    try:
        widget = app.screen.get_widget_at(x, y)[0]
    except NoWidget:  # nothing of the top screen there: a screen beneath it shows
        return "a screen beneath"
    return f"{type(widget).__name__}#{widget.id}" if widget.id else type(widget).__name__


def unreadable_cells(app: CapicuApp, system: ColorSystem) -> dict[Look, str]:
    """Each way cells on screen fail now, with the characters drawn that way."""
    failures: dict[Look, str] = {}
    for x, y, character, style in screen_cells(app):
        text, background = (style.bgcolor, style.color) if style.reverse else (style.color, style.bgcolor)
        assert text is not None and background is not None, f"no colour at {x},{y} ({character!r})"
        dimmed = bool(style.encircle)
        ratio = seen_contrast(text, background, system)
        bright = bold_drawn_bright(text, background, system) if style.bold else None
        drawn_bright = bright is not None and bright < DIM_TEXT_CONTRAST
        if drawn_bright:
            ratio = min(ratio, bright or 0.0)
        if drawn_bright or ratio < (DIM_TEXT_CONTRAST if dimmed else TEXT_CONTRAST):
            look = Look(_widget_at(app, x, y), named(text, system), named(background, system),
                        round(ratio, 2), dimmed, drawn_bright)
            failures[look] = failures.get(look, "") + character
    return failures


def describe(look: Look, characters: str) -> str:
    kind = "dimmed text" if look.dimmed else "text"
    if look.drawn_bright:
        kind = "bold " + kind + " drawn bright (as xterm does)"
    sample = characters if len(characters) <= 20 else characters[:20] + "..."
    return (f"{len(characters)} cells of {kind} in {look.widget} ({sample!r}): colour {look.foreground} "
            f"on {look.background}, contrast {look.contrast:.2f}")


async def choose_theme(pilot: Pilot[Any], app: CapicuApp, theme: str) -> list[tuple[int, int, str, Style]]:
    """Chooses ``theme`` as Settings does; the screen's cells once it is drawn in it.

    A theme chosen lays the footer out again: on a loaded machine one pause can end before it is back
    (a footer missing from one capture failed the comparison below in CI). Drawn means the footer's
    row shows again and nothing changes over one more pause; bounded like every wait here.
    """
    app.theme = theme
    last: list[tuple[int, int, str, Style]] = []
    for _ in range(200):
        await pilot.pause()
        cells = list(screen_cells(app))
        if cells == last and any(y == SIZE[1] - 1 for _, y, _, _ in cells):
            return cells
        last = cells
    raise AssertionError(f"the screen was not drawn again in {theme}")


# -- the tests -----------------------------------------------------------------------------------


@pytest.fixture(autouse=True)
def _own_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Settings go to a fresh folder: a test never reads or writes the user's."""
    monkeypatch.setenv("CAPICU_CONFIG_DIR", str(tmp_path / "config"))


#: Every theme offered: the shipped ones, and Textual's that read well.
OFFERED_THEMES = (*SHIPPED_THEMES, *sorted(READABLE_TEXTUAL_THEMES))


async def test_every_text_cell_is_readable(monkeypatch: pytest.MonkeyPatch) -> None:
    """One walk through the screens; on each, every theme in turn, each checked in every colour mode.

    A theme is chosen while the app runs, as Settings and the command palette choose it: what it
    draws then is what an app started in it draws (`test_a_theme_chosen_while_the_app_runs_draws_
    what_starting_in_it_draws`), so one walk serves every theme (one walk per theme was a minute).
    The screen Textual composes is the same in every mode (nothing in capicu or Textual
    chooses colours by the colour system: the downgrade happens as the driver writes, and
    `unreadable_cells` makes it as Rich does), so one look at each screen serves all three.
    `test_a_screen_is_composed_alike_in_every_colour_mode` holds that true.
    """
    monkeypatch.setattr(textual.constants, "COLOR_SYSTEM", "truecolor")
    first = OFFERED_THEMES[0]
    app = ContrastApp(DisplayOptions(theme=first, mouse=False))
    report = []
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        assert app.theme == first
        for screen, show in SCREENS.items():
            await show(pilot, app)
            for theme in (*OFFERED_THEMES[1:], first):  # the walk goes on in the first theme
                await choose_theme(pilot, app, theme)
                assert app.theme == theme
                for mode, (_, system) in COLOR_MODES.items():
                    failures = unreadable_cells(app, system)
                    for look in sorted(failures, key=lambda look: -len(failures[look])):
                        report.append(f"{theme}: {screen} in {mode} colours: "
                                      f"{describe(look, failures[look])}")
    assert not report, "\n".join(report)


async def test_a_theme_chosen_while_the_app_runs_draws_what_starting_in_it_draws(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """What the check above relies on: every cell, with its colours, is the same whether the app
    started in a theme or had it chosen on the way (the main menu, then the table mid-round)."""
    monkeypatch.setattr(textual.constants, "COLOR_SYSTEM", "truecolor")
    first, *others = OFFERED_THEMES
    for theme in others:
        seen = []
        for started in (theme, first):
            # Each app its own folder (the first's match, left unfinished, would be offered for resuming).
            monkeypatch.setenv("CAPICU_CONFIG_DIR", str(tmp_path / f"{theme}-{started}"))
            app = ContrastApp(DisplayOptions(theme=started, mouse=False))
            async with app.run_test(size=SIZE) as pilot:
                await show_main_menu(pilot, app)
                menu = await choose_theme(pilot, app, theme)
                app.theme = started
                await show_table_mid_round(pilot, app)
                seen.append((menu, await choose_theme(pilot, app, theme)))
        assert seen[0] == seen[1], theme


@pytest.mark.parametrize("mode", ["16", "256"])
async def test_a_screen_is_composed_alike_in_every_colour_mode(mode: str, monkeypatch: pytest.MonkeyPatch,
                                                               tmp_path: Path) -> None:
    """What the check above relies on: the cells of a screen do not depend on the colour mode."""
    seen = []
    for textual_name in (COLOR_MODES[mode][0], "truecolor"):
        # Each app its own folder (the first's match, left unfinished, would be offered for resuming).
        monkeypatch.setenv("CAPICU_CONFIG_DIR", str(tmp_path / textual_name))
        monkeypatch.setattr(textual.constants, "COLOR_SYSTEM", textual_name)
        app = ContrastApp(DisplayOptions(theme="felt", mouse=False))
        async with app.run_test(size=SIZE) as pilot:
            assert app.console.color_system == textual_name
            await show_table_mid_round(pilot, app)
            await pilot.pause()
            seen.append(list(screen_cells(app)))
    assert seen[0] == seen[1]


async def test_textual_themes_left_out_fail_the_same_check(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each of Textual's themes not in READABLE_TEXTUAL_THEMES has unreadable text on the main menu."""
    monkeypatch.setattr(textual.constants, "COLOR_SYSTEM", "standard")
    app = ContrastApp(DisplayOptions(mouse=False))
    readable = []
    async with app.run_test(size=SIZE) as pilot:
        await show_main_menu(pilot, app)
        for theme in sorted(set(BUILTIN_THEMES) - READABLE_TEXTUAL_THEMES):
            app.register_theme(BUILTIN_THEMES[theme])  # the app hides it: brought back to be looked at
            app.theme = theme
            await pilot.pause()
            if not unreadable_cells(app, ColorSystem.STANDARD):
                readable.append(theme)
    assert not readable, (f"{readable} read well on the main menu in 16 colours: check them in every mode "
                          "and screen (add them to the test above) and offer those that pass")


#: The colours a theme draws text in and the backgrounds of screens, panels and notices...
TEXT_COLOURS = ("foreground", "text-muted", "primary", "accent", "warning", "error", "success", "turn",
                "open-end", "felt-text", "footer-key-foreground")
BACKGROUNDS = ("background", "surface", "panel")
#: ... the colours drawn on the table (seats, the line's labels) and its backgrounds (a seat whose
#: turn it is has $boost over it) ...
TABLE_COLOURS = ("foreground", "text-muted", "accent", "warning", "turn", "open-end", "felt-text")
TABLE_BACKGROUNDS = ("felt", "felt+boost", "surface+boost")
#: ... and each kind of tile, with the colour of its pips.
TILES = (("tile-pip", "tile-face"), ("tile-legal-pip", "tile-legal"), ("tile-dimmed-pip", "tile-dimmed"),
         ("tile-cursor-pip", "tile-cursor"), ("open-end-text", "open-end"))


def theme_colours(name: str) -> dict[str, Color]:
    """A shipped theme's colours as the app resolves them (Textual's generated ones under the theme's)."""
    theme = next(theme for theme in load_themes(None)[0] if theme.name == name)
    values = {**theme.to_color_system().generate(), **theme.variables}
    colours = {key: Color.parse(values[key]) for key in {*TEXT_COLOURS, *BACKGROUNDS, "felt", "boost"}}
    colours |= {key: Color.parse(values[key]) for pair in TILES for key in pair}
    for base in ("felt", "surface"):
        colours[f"{base}+boost"] = colours[base] + colours["boost"]
    return colours


@pytest.mark.parametrize("mode", list(COLOR_MODES))
@pytest.mark.parametrize("theme", SHIPPED_THEMES)
def test_every_text_colour_reads_on_every_background(theme: str, mode: str) -> None:
    """Also the states the screens above do not reach: a seat away, a turn timer, a notice's title."""
    _, system = COLOR_MODES[mode]
    colours = theme_colours(theme)
    pairs = [(text, background) for text in TEXT_COLOURS for background in BACKGROUNDS]
    pairs += [(text, background) for text in TABLE_COLOURS for background in TABLE_BACKGROUNDS]
    pairs += TILES
    unreadable = []
    for text, background in pairs:
        ratio = seen_contrast(colours[text].rich_color, colours[background].rich_color, system)
        if ratio < TEXT_CONTRAST:
            unreadable.append(f"{text} on {background}: {ratio:.2f}")
    assert not unreadable, f"{theme} in {mode} colours: " + "; ".join(unreadable)


@pytest.mark.parametrize("theme", SHIPPED_THEMES)
def test_in_16_colours_the_tiles_stay_apart(theme: str) -> None:
    """A tile that fits, one that does not and the cursor's are three colours in every mode."""
    colours = theme_colours(theme)
    for _, system in COLOR_MODES.values():
        faces = {what_is_sent(colours[face].rich_color, system) for face in ("tile-legal", "tile-dimmed",
                                                                             "tile-cursor")}
        assert len(faces) == 3, (theme, system, faces)


def test_the_check_sees_what_xterm_would() -> None:
    """The palette and the arithmetic: the invisible and the faint fail, black on white passes."""
    dimmed_face, dimmed_pips = RichColor.parse("#6f8a78"), RichColor.parse("#435549")
    # The dimmed tiles of old: grey on grey in 24 bits, one colour (SGR 90 on 100) in 16.
    assert seen_contrast(dimmed_pips, dimmed_face, ColorSystem.TRUECOLOR) == pytest.approx(2.12, abs=0.01)
    assert what_is_sent(dimmed_pips, ColorSystem.STANDARD) == what_is_sent(dimmed_face, ColorSystem.STANDARD)
    assert seen_contrast(dimmed_pips, dimmed_face, ColorSystem.STANDARD) == 0
    white, black = RichColor.parse("#ffffff"), RichColor.parse("#000000")
    assert seen_contrast(black, white, ColorSystem.STANDARD) == pytest.approx(21.0)
    # xterm's bright black is too light for white text; Rich's own (VGA) palette would not say so.
    bright_black = RichColor.parse("#555555")
    assert seen_contrast(white, bright_black, ColorSystem.STANDARD) == pytest.approx(4.0, abs=0.01)
    assert what_is_sent(RichColor.parse("#145a32"), ColorSystem.EIGHT_BIT) == "23"
    assert terminal_rgb(RichColor.parse("#145a32"), ColorSystem.EIGHT_BIT) == (0, 95, 95)
    assert terminal_rgb(RichColor.default(), ColorSystem.STANDARD) is None
    segments = [Segment("x", Style(dim=True)), Segment("y", Style(bold=True))]
    marked = MarkDimmed().apply(segments, Color(0, 0, 0))
    assert [bool(segment.style and segment.style.encircle) for segment in marked] == [True, False]
