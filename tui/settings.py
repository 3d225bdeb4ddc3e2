"""What the interface remembers between runs, and the colour mode set before Textual loads.

Settings live in ``settings.toml`` in the platform's config folder
(``platformdirs.user_config_dir("capicu")``), or in ``$CAPICU_CONFIG_DIR`` when
that is set (tests point it at a temporary folder). A damaged file costs the
user their settings, never the game: `load_settings` answers the defaults and a
warning, field by field.
"""

from __future__ import annotations

import json
import os
import re
import sys
import tomllib
from collections.abc import MutableMapping
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from capicu.net.protocol import NAME_LIMIT
from platformdirs import user_config_dir, user_data_dir

from .describe import display_text
from .messages import t
from .widgets.tiles import TileStyle

# Nothing here imports Textual, so `apply_color_mode` really runs before it loads.

#: The theme a new player gets (`capicu.tui.themes` ships it).
DEFAULT_THEME = "felt"

CONFIG_ENV = "CAPICU_CONFIG_DIR"
DATA_ENV = "CAPICU_DATA_DIR"
SETTINGS_FILE = "settings.toml"
THEMES_FOLDER = "themes"
MAX_SETTINGS_BYTES = 16 * 1024
HOST_LIMIT = 255

COLOR_MODES = ("auto", "16", "256", "truecolor")
#: What Textual's ``TEXTUAL_COLOR_SYSTEM`` (Rich's colour systems) calls each mode.
_COLOR_SYSTEMS = {"16": "standard", "256": "256", "truecolor": "truecolor"}

_THEME_NAME = re.compile(r"^[a-z0-9][a-z0-9-]{0,39}$")
_LANGUAGE = re.compile(r"^([a-z]{2})?$")


@dataclass(frozen=True, slots=True)
class Settings:
    """The choices remembered between runs (change one with `dataclasses.replace`)."""

    name: str = ""
    theme: str = DEFAULT_THEME
    tile_style: TileStyle = TileStyle.AUTO
    #: The last host joined, as typed ("192.168.1.20:7777").
    last_host: str = ""
    #: The language chosen in Settings or the command palette ("": none chosen, the locale's).
    language: str = ""
    #: ASCII tiles and borders, for terminals that mangle box drawing.
    ascii: bool = False


#: The names of the settings, in the order the file lists them.
SETTING_NAMES = tuple(field.name for field in fields(Settings))


def config_dir() -> Path:
    """The folder of settings and user themes (``$CAPICU_CONFIG_DIR`` wins)."""
    override = os.environ.get(CONFIG_ENV)
    if override:
        return Path(override)
    return Path(user_config_dir("capicu", appauthor=False))


def data_dir() -> Path:
    """The folder of what the game keeps for itself (the seats held at tables).

    ``$CAPICU_DATA_DIR`` wins; else ``$CAPICU_CONFIG_DIR`` when set, so that one
    folder holds a whole separate identity (tests, a second player on one machine);
    else the platform's user data folder.
    """
    for variable in (DATA_ENV, CONFIG_ENV):
        override = os.environ.get(variable)
        if override:
            return Path(override)
    return Path(user_data_dir("capicu", appauthor=False))


def settings_path() -> Path:
    return config_dir() / SETTINGS_FILE


def themes_dir() -> Path:
    """Where a user's own theme files go (`load_themes` reads it)."""
    return config_dir() / THEMES_FOLDER


def _field(data: dict[str, Any], key: str, default: Any, problems: list[str]) -> Any:
    """The checked value of one setting, or its default with a problem noted."""
    if key not in data:
        return default
    value = data[key]
    ok: Any = None
    if key == "name" and isinstance(value, str):
        ok = display_text(value, NAME_LIMIT)
    elif key == "theme" and isinstance(value, str) and _THEME_NAME.match(value):
        ok = value
    elif key == "tile_style" and isinstance(value, str):
        style = TileStyle.parse(value, default=None) if value in {s.value for s in TileStyle} else None
        ok = style
    elif key == "last_host" and isinstance(value, str):
        ok = display_text(value, HOST_LIMIT)
    elif (key == "language" and isinstance(value, str) and _LANGUAGE.match(value)) or (
        key == "ascii" and isinstance(value, bool)
    ):
        ok = value
    if ok is None:
        problems.append(t("{field} has an unusable value", field=key))
        return default
    return ok


def settings_from_data(data: dict[str, Any]) -> tuple[Settings, list[str]]:
    """Settings from parsed TOML; each unusable field keeps its default and is named."""
    defaults = Settings()
    problems: list[str] = []
    values = {name: _field(data, name, getattr(defaults, name), problems) for name in SETTING_NAMES}
    return Settings(**values), problems


def _unusable(path: Path, problem: str) -> str:
    return t("Settings file {file} could not be used ({problem}); using defaults.", file=str(path),
             problem=problem)


def load_settings(path: Path | None = None) -> tuple[Settings, list[str]]:
    """The remembered settings and any warnings; defaults when there is no usable file."""
    path = path if path is not None else settings_path()
    defaults = Settings()
    try:
        if not path.exists():
            return defaults, []
        if not path.is_file():
            raise OSError(0, "not a regular file")
        if path.stat().st_size > MAX_SETTINGS_BYTES:
            problem = t("it is larger than {limit} bytes", limit=MAX_SETTINGS_BYTES)
            return defaults, [_unusable(path, problem)]
        with path.open("rb") as handle:
            raw = handle.read(MAX_SETTINGS_BYTES + 1)
    except OSError as exc:
        problem = t("it cannot be read: {reason}", reason=exc.strerror or type(exc).__name__)
        return defaults, [_unusable(path, problem)]
    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError, RecursionError, ValueError) as exc:
        problem = t("it is not valid TOML: {reason}", reason=str(exc)[:120])
        return defaults, [_unusable(path, problem)]
    settings, problems = settings_from_data(data)
    return settings, [_unusable(path, p) for p in problems]


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, TileStyle):
        value = value.value
    # A JSON string is a valid TOML basic string (same escapes).
    return json.dumps(str(value), ensure_ascii=False)


def settings_to_toml(settings: Settings) -> str:
    lines = ["# capicu settings, written by the game; safe to edit or delete."]
    lines += [f"{name} = {_toml_value(getattr(settings, name))}" for name in SETTING_NAMES]
    return "\n".join(lines) + "\n"


def save_settings(settings: Settings, path: Path | None = None) -> str | None:
    """Write the settings (atomically); a warning sentence when that fails, else None."""
    path = path if path is not None else settings_path()
    temporary = path.with_name(path.name + ".tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary.write_text(settings_to_toml(settings), encoding="utf-8")
        os.replace(temporary, path)
    except OSError as exc:
        return t("Settings could not be saved to {file} ({problem}).", file=str(path),
                 problem=exc.strerror or type(exc).__name__)
    return None


def apply_color_mode(mode: str, environ: MutableMapping[str, str] | None = None) -> None:
    """Make Textual use ``mode``'s colours; call before Textual is imported.

    Textual reads ``TEXTUAL_COLOR_SYSTEM`` (Rich's names: standard, 256,
    truecolor) once, into ``textual.constants``, and downgrades every colour to
    that system when it writes. "auto" leaves the terminal's own answer alone.
    """
    if mode not in COLOR_MODES:
        raise ValueError(f"colour mode must be one of {', '.join(COLOR_MODES)}, not {mode!r}")
    env = os.environ if environ is None else environ
    if mode == "auto":
        return
    system = _COLOR_SYSTEMS[mode]
    env["TEXTUAL_COLOR_SYSTEM"] = system
    if mode == "truecolor":
        env["COLORTERM"] = "truecolor"
    constants = sys.modules.get("textual.constants")
    if environ is None and constants is not None:
        # Imported already (tests, or a caller that was too early): set it there too.
        vars(constants)["COLOR_SYSTEM"] = system
