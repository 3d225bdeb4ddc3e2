"""Themes as data: TOML files loaded into Textual `Theme` objects at start.

The shipped themes live in the `capicu.themes` package; a user adds one by
dropping a ``.toml`` file into ``<config folder>/themes``. A theme file is
hostile input as far as this module cares: it is size-limited, every field is
type-checked and every colour parsed before Textual sees it (Textual would
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
import tomllib
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import capicu.themes
from textual.color import Color, ColorParseError
from textual.theme import BUILTIN_THEMES, Theme

from .messages import t

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

_BASE_COLOURS = (
    "primary",
    "secondary",
    "warning",
    "error",
    "success",
    "accent",
    "foreground",
    "background",
    "surface",
    "panel",
    "boost",
)
_KNOWN_FIELDS = frozenset(
    (*_BASE_COLOURS, "name", "dark", "description", "luminosity_spread", "text_alpha", "variables")
)
_NAME = re.compile(r"^[a-z0-9][a-z0-9-]{0,39}$")
_VARIABLE_NAME = re.compile(r"^[a-z0-9][a-z0-9-]{0,63}$")
_PERCENT = re.compile(r"^(?P<colour>\S+) +(?P<percent>\d{1,3})%$")
_TEXT_STYLE_WORDS = frozenset(
    {"none", "not", "bold", "dim", "italic", "underline", "underline2", "reverse", "strike", "blink"}
)


#: Textual's own themes that pass tests/tui/test_contrast.py in every colour mode, the only
#: ones a player is offered. None does with Textual 8.2: their accents fall below 4.5:1 on their
#: panels in 24-bit colour already, and in 16 colours their panels turn bright black (#7f7f7f in
#: xterm) under white text. The test recomputes this set, so a Textual that fixes them shows up.
READABLE_TEXTUAL_THEMES: frozenset[str] = frozenset()


class ThemeError(ValueError):
    """One reason a theme file cannot be used, in words for the user."""


def _is_colour(value: str) -> bool:
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


def _colour(data: dict[str, Any], field: str) -> str | None:
    value = data.get(field)
    if value is None:
        return None
    if not isinstance(value, str):
        raise ThemeError(t("{field} must be text", field=field))
    if len(value) > 60 or not _is_colour(value):
        raise ThemeError(t("{field} is not a colour: {value}", field=field, value=repr(value[:60])))
    return value


def _number(data: dict[str, Any], field: str, default: float, low: float, high: float) -> float:
    value = data.get(field, default)
    if isinstance(value, bool) or not isinstance(value, int | float) or not low <= value <= high:
        raise ThemeError(t("{field} must be a number", field=field))
    return float(value)


def _variables(raw: Any) -> dict[str, str]:
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        raise ThemeError(t("{field} must be a table of names and colours", field="variables"))
    if len(raw) > MAX_VARIABLES:
        raise ThemeError(t("it has more than {limit} variables", limit=MAX_VARIABLES))
    out: dict[str, str] = {}
    for key, value in raw.items():
        field = f"variables.{str(key)[:64]}"
        if not _VARIABLE_NAME.match(key):
            raise ThemeError(t("it has an unknown setting {field}", field=repr(str(key)[:64])))
        if not isinstance(value, str) or len(value) > 60:
            raise ThemeError(t("{field} must be text", field=field))
        if key.endswith("text-style"):
            if not value.split() or not set(value.split()) <= _TEXT_STYLE_WORDS:
                raise ThemeError(t("{field} is not a colour: {value}", field=field, value=repr(value)))
        elif not _is_colour(value):
            raise ThemeError(t("{field} is not a colour: {value}", field=field, value=repr(value)))
        out[key] = value
    return out


def theme_from_data(data: Any, *, check_colors: bool = True) -> Theme:
    """A `Theme` from a theme file's parsed TOML; `ThemeError` says what is wrong.

    ``check_colors`` builds the theme's colour system once, as the App does on
    every switch, so that a bad file fails here; the shipped themes skip it at
    start (tests check them), since it costs milliseconds for each.
    """
    if not isinstance(data, dict):
        raise ThemeError(t("it has no {field}", field="name"))
    for key in data:
        if key not in _KNOWN_FIELDS:
            raise ThemeError(t("it has an unknown setting {field}", field=repr(str(key)[:64])))
    name = data.get("name")
    if not isinstance(name, str) or not _NAME.match(name):
        raise ThemeError(t("it needs a name made of letters, digits and dashes"))
    if "primary" not in data:
        raise ThemeError(t("it has no {field}", field="primary"))
    dark = data.get("dark", True)
    if not isinstance(dark, bool):
        raise ThemeError(t("{field} must be true or false", field="dark"))
    description = data.get("description", "")
    if not isinstance(description, str):
        raise ThemeError(t("{field} must be text", field="description"))
    primary = _colour(data, "primary")
    assert primary is not None
    theme = Theme(
        name=name,
        primary=primary,
        secondary=_colour(data, "secondary"),
        warning=_colour(data, "warning"),
        error=_colour(data, "error"),
        success=_colour(data, "success"),
        accent=_colour(data, "accent"),
        foreground=_colour(data, "foreground"),
        background=_colour(data, "background"),
        surface=_colour(data, "surface"),
        panel=_colour(data, "panel"),
        boost=_colour(data, "boost"),
        dark=dark,
        luminosity_spread=_number(data, "luminosity_spread", 0.15, 0.0, 1.0),
        text_alpha=_number(data, "text_alpha", 0.95, 0.0, 1.0),
        variables={**GAME_VARIABLES, **_variables(data.get("variables"))},
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
        if not path.is_file():
            raise ThemeError(t("it cannot be read ({reason})", reason=t("not a regular file")))
        if path.stat().st_size > MAX_THEME_BYTES:
            raise ThemeError(t("it is larger than {limit} bytes", limit=MAX_THEME_BYTES))
        with path.open("rb") as handle:
            raw = handle.read(MAX_THEME_BYTES + 1)
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__
        raise ThemeError(t("it cannot be read ({reason})", reason=reason)) from None
    if len(raw) > MAX_THEME_BYTES:
        raise ThemeError(t("it is larger than {limit} bytes", limit=MAX_THEME_BYTES))
    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise ThemeError(t("it is not valid TOML ({reason})", reason=t("not UTF-8 text"))) from None
    except (tomllib.TOMLDecodeError, RecursionError, ValueError) as exc:
        raise ThemeError(t("it is not valid TOML ({reason})", reason=str(exc)[:120])) from None
    return theme_from_data(data, check_colors=check_colors)


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
    `capicu.tui.settings.DEFAULT_THEME`. Never raises for a bad file.
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
