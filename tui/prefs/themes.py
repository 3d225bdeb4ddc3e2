"""Themes as data: TOML files loaded into Textual `Theme` objects at start.

The shipped themes live in the `capicu.themes` package; a user adds one by
dropping a ``.toml`` file into ``<config folder>/themes``. A theme file is
hostile input as far as this module cares: it is size-limited, checked against
its declaration (`ThemeFile`) and every colour parsed before Textual sees it (Textual would
otherwise fail on the stylesheet at start, which is a crash the user cannot
fix from inside the app). A bad file is skipped with a warning that names the
file and the problem.

A theme file looks like this::

    name = "felt"
    dark = true
    primary = "#e0b040"
    background = "#0f3b24"
    # ... the other Textual base colours, all optional but primary

    [variables]
    felt = "#145a32"       # the table's cloth
    tile-face = "#f2ead3"  # and the other game variables of GAME_VARIABLES

One theme serves every terminal. Textual writes each colour as it is in 24-bit
terminals; in 256 and 16 colours, Rich replaces it by the nearest one the
terminal has (`rich.color.Color.downgrade`: the 6x6x6 cube or the grey ramp,
or the 16 standard colours, matched to their VGA values), without looking at
what is drawn over it. So the shipped themes choose colours whose nearest
matches still read: a dark theme keeps its backgrounds dark enough to become
black in 16 colours (xterm's bright black, #7f7f7f, is too light under white
text), a light theme keeps its text and accents on black, red and blue (xterm
draws "yellow" where Rich sees brown). tests/tui/test_contrast.py checks every
text cell of the real screens in each shipped theme and each colour mode.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import capicu.themes
import msgspec
from capicu.tui.words.messages import t
from msgspec import Meta
from textual.color import Color, ColorParseError
from textual.theme import BUILTIN_THEMES, Theme

from .files import FileProblem, checked, read_file
from .settings import ThemeName

if TYPE_CHECKING:
    from textual.app import App

#: A theme file larger than this is refused unread (a theme is a few hundred bytes).
MAX_THEME_BYTES = 64 * 1024
#: At most this many files are read from the user's folder.
MAX_THEME_FILES = 64
MAX_VARIABLES = 200

#: The game's own CSS variables, with defaults for any theme that lacks them
#: (Textual's built-in themes too). An App returns this from
#: `get_theme_variable_defaults` so that ``$tile-face`` always resolves.
GAME_VARIABLES: dict[str, str] = {
    "felt": "#145a32",  # the table's cloth, behind the line of play
    "felt-text": "#e8f0e8",  # words written on the felt
    "tile-face": "#f7efd8",  # a tile's face
    "tile-pip": "#1b1b1b",  # its pips and digits
    "tile-legal": "#fff8d6",  # the face of a tile that may be played now
    "tile-legal-pip": "#000000",
    "tile-dimmed": "#6f8a78",  # the face of a tile that may not be played now
    "tile-dimmed-pip": "#000000",
    "tile-cursor": "#ffc629",  # the face of the tile under the hand's cursor
    "tile-cursor-pip": "#000000",
    "open-end": "#ffc629",  # the open ends of the line: label and end tile
    "open-end-text": "#000000",
    "turn": "#ffc629",  # whose turn it is
}

#: A colour as Textual writes one ("#0f3b24", "ansi_red", "#81a1c1 35%"); `ThemeFile` parses it.
Colour = Annotated[str, Meta(max_length=60)]
VariableName = Annotated[str, Meta(pattern=r"^[a-z0-9][a-z0-9-]{0,63}$")]
Share = Annotated[float, Meta(ge=0.0, le=1.0)]


class ThemeFile(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A theme file, as its TOML holds it: Textual's base colours (all optional but primary),
    a few settings, and CSS variables (the game's `GAME_VARIABLES` and Textual's own)."""

    name: ThemeName
    primary: Colour
    secondary: Colour | None = None
    warning: Colour | None = None
    error: Colour | None = None
    success: Colour | None = None
    accent: Colour | None = None
    foreground: Colour | None = None
    background: Colour | None = None
    surface: Colour | None = None
    panel: Colour | None = None
    boost: Colour | None = None
    dark: bool = True
    description: Annotated[str, Meta(max_length=200)] = ""
    luminosity_spread: Share = 0.15
    text_alpha: Share = 0.95
    #: Colours, or a text style for a variable whose name ends in ``text-style`` ("bold italic").
    variables: Annotated[dict[VariableName, Colour], Meta(max_length=MAX_VARIABLES)] = {}


_BASE_COLOURS = ("primary", "secondary", "warning", "error", "success", "accent", "foreground", "background",
                 "surface", "panel", "boost")
_PERCENT = re.compile(r"^(?P<colour>\S+) +(?P<percent>\d{1,3})%$")
_TEXT_STYLE_WORDS = frozenset(
    {"none", "not", "bold", "dim", "italic", "underline", "underline2", "reverse", "strike", "blink"}
)


#: Textual's own themes that pass tests/tui/test_contrast.py in every colour mode, the only
#: ones a player is offered. None does with Textual 8.2: their accents fall below 4.5:1 on their
#: panels in 24-bit colour already, and in 16 colours their panels turn bright black (#7f7f7f in
#: xterm) under white text. The test recomputes this set, so a Textual that fixes them shows up.
READABLE_TEXTUAL_THEMES: frozenset[str] = frozenset()


class ThemeError(FileProblem):
    """One reason a theme file cannot be used, in words for the user."""


def _is_colour(value: str) -> bool:
    """Whether Textual reads ``value`` as a colour (optionally followed by an alpha, "50%")."""
    match = _PERCENT.match(value)
    if match:
        if int(match["percent"]) > 100:
            return False
        value = match["colour"]
    try:
        Color.parse(value)
    except (ColorParseError, ValueError):
        return False
    return True


def _is_text_style(value: str) -> bool:
    words = value.split()
    return bool(words) and set(words) <= _TEXT_STYLE_WORDS


def _check_colours(file: ThemeFile) -> None:
    """Every colour of ``file`` parses (Textual would fail on the stylesheet otherwise)."""
    named = [(field, getattr(file, field)) for field in _BASE_COLOURS]
    named += [(f"variables.{key}", value) for key, value in file.variables.items()]
    for field, value in named:
        if value is None:
            continue
        usable = _is_text_style(value) if field.endswith("text-style") else _is_colour(value)
        if not usable:
            raise ThemeError(t("{field} is not a colour: {value}", field=field, value=repr(value)))


def theme_from_data(data: Any, *, check_colors: bool = True) -> Theme:
    """A `Theme` from a theme file's parsed TOML; `ThemeError` says what is wrong.

    ``check_colors`` builds the theme's colour system once, as the App does on
    every switch, so that a bad file fails here; the shipped themes skip it at
    start (tests check them), since it costs milliseconds for each.
    """
    try:
        file = checked(data, ThemeFile)
    except FileProblem as exc:
        raise ThemeError(str(exc)) from None
    return theme_from_file(file, check_colors=check_colors)


def theme_from_file(file: ThemeFile, *, check_colors: bool = True) -> Theme:
    """The Textual `Theme` a theme file declares; `ThemeError` when a colour does not parse."""
    _check_colours(file)
    theme = Theme(
        name=file.name, primary=file.primary, secondary=file.secondary, warning=file.warning,
        error=file.error, success=file.success, accent=file.accent, foreground=file.foreground,
        background=file.background, surface=file.surface, panel=file.panel, boost=file.boost,
        dark=file.dark, luminosity_spread=file.luminosity_spread, text_alpha=file.text_alpha,
        variables={**GAME_VARIABLES, **file.variables},
    )
    if not check_colors:
        return theme
    try:
        # What the App does with it on every switch: fail here, not there.
        theme.to_color_system().generate()
    except Exception as exc:  # any failure means the theme is unusable
        raise ThemeError(t("{field} is not a colour: {value}", field="theme", value=str(exc)[:80])) from None
    return theme


def read_theme_file(path: Path, *, check_colors: bool = True) -> Theme:
    """The theme in one file; `ThemeError` names the problem (never another exception)."""
    try:
        file = read_file(path, ThemeFile, limit=MAX_THEME_BYTES)
    except FileProblem as exc:
        raise ThemeError(str(exc)) from None
    return theme_from_file(file, check_colors=check_colors)


def _builtin_paths() -> list[Path]:
    # The package's own folder (importlib.resources would cost milliseconds at start
    # for the same answer: the files are read as plain paths either way).
    folder = Path(capicu.themes.__file__).parent
    return sorted(folder.glob("*.toml"), key=lambda p: p.name)


def _user_paths(user_dir: Path, warnings: list[str]) -> list[Path]:
    try:
        if not user_dir.is_dir():
            return []
        paths = sorted(p for p in user_dir.iterdir() if p.suffix == ".toml")
    except OSError as exc:
        problem = exc.strerror or type(exc).__name__
        warnings.append(t("Theme file {file} was skipped: {problem}", file=str(user_dir), problem=problem))
        return []
    if len(paths) > MAX_THEME_FILES:
        problem = t("only the first {limit} theme files are read", limit=MAX_THEME_FILES)
        warnings += [t("Theme file {file} was skipped: {problem}", file=str(path), problem=problem)
                     for path in paths[MAX_THEME_FILES:]]
        paths = paths[:MAX_THEME_FILES]
    return paths


def load_theme_files(
    paths: Iterable[Path], taken: set[str], warnings: list[str], *, check_colors: bool = True
) -> list[Theme]:
    """The usable themes among ``paths``; a warning for each file skipped."""
    themes = []
    for path in paths:
        try:
            theme = read_theme_file(path, check_colors=check_colors)
            if theme.name in taken:
                raise ThemeError(t("a theme named {name} is already loaded", name=theme.name))
        except ThemeError as exc:
            warnings.append(t("Theme file {file} was skipped: {problem}", file=str(path), problem=str(exc)))
            continue
        taken.add(theme.name)
        themes.append(theme)
    return themes


def load_themes(user_dir: Path | None = None) -> tuple[list[Theme], list[str]]:
    """The shipped themes, then the user's (from ``user_dir``), and a warning per file skipped.

    Register them with ``app.register_theme(theme)``; the default is
    `capicu.tui.prefs.settings.DEFAULT_THEME`. Never raises for a bad file.
    """
    warnings: list[str] = []
    # A file may not replace one of Textual's own themes either.
    taken: set[str] = set(BUILTIN_THEMES)
    themes = load_theme_files(_builtin_paths(), taken, warnings, check_colors=False)
    if user_dir is not None:
        themes += load_theme_files(_user_paths(user_dir, warnings), taken, warnings)
    return themes, warnings


def offered_theme_names(available: Iterable[str]) -> list[str]:
    """The themes a player may choose among ``available``: capicu's and the user's, in the order
    loaded, then Textual's readable ones (`READABLE_TEXTUAL_THEMES`)."""
    names = list(available)
    ours = [name for name in names if name not in BUILTIN_THEMES]
    return ours + sorted(name for name in names if name in READABLE_TEXTUAL_THEMES)


def theme_names(user_dir: Path | None) -> list[str]:
    """Every theme ``--theme`` accepts: the shipped ones, the user's, Textual's readable ones."""
    themes, _ = load_themes(user_dir)
    return offered_theme_names([*(theme.name for theme in themes), *BUILTIN_THEMES])


def hide_unreadable_themes(app: App[Any]) -> None:
    """Unregister Textual's themes that fail the contrast test, but the one in use.

    The command palette's theme switcher lists what is registered: after this it offers what the
    settings offer. Call it once the app's own theme is chosen (Textual falls back on
    textual-dark while none is).
    """
    for name in BUILTIN_THEMES:
        if name not in READABLE_TEXTUAL_THEMES and name != app.theme:
            app.unregister_theme(name)
