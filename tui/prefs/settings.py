"""What the interface remembers between runs, and the colour mode set before Textual loads.

Settings live in ``settings.toml`` in the platform's config folder
(``platformdirs.user_config_dir("capicu")``), or in ``$CAPICU_CONFIG_DIR`` when
that is set (tests point it at a temporary folder). The file is declared once,
as `Settings`: read with `tomllib`, checked by msgspec, written with `tomli_w`
(tui/prefs/files.py). A damaged file costs the user their settings, never the game:
`load_settings` answers the defaults and one warning naming the file, the field
and what is wrong with it.
"""

from __future__ import annotations

import os
import sys
from collections.abc import MutableMapping
from pathlib import Path
from typing import Annotated

import msgspec
from capicu.net.host.sanitize import clean_text
from capicu.net.protocol import NAME_LIMIT
from capicu.net.store.record import RECORDS_FOLDER
from capicu.tui.widgets.tiles import TileStyle
from capicu.tui.words.messages import t
from msgspec import Meta
from platformdirs import user_config_dir, user_data_dir

from .files import FileProblem, checked, parse, read_bytes, to_toml

# Nothing here imports Textual, so `apply_color_mode` really runs before it loads.

#: The theme a new player gets (`capicu.tui.prefs.themes` ships it).
DEFAULT_THEME = "felt"

CONFIG_ENV = "CAPICU_CONFIG_DIR"
DATA_ENV = "CAPICU_DATA_DIR"
SETTINGS_FILE = "settings.toml"
THEMES_FOLDER = "themes"
JOURNALS_FOLDER = "journals"
MAX_SETTINGS_BYTES = 16 * 1024
HOST_LIMIT = 255

COLOR_MODES = ("auto", "16", "256", "truecolor")
#: What Textual's ``TEXTUAL_COLOR_SYSTEM`` (Rich's colour systems) calls each mode.
_COLOR_SYSTEMS = {"16": "standard", "256": "256", "truecolor": "truecolor"}

#: A theme's name: what a theme file may call itself (`capicu.tui.prefs.themes`).
ThemeName = Annotated[str, Meta(pattern=r"^[a-z0-9][a-z0-9-]{0,39}$")]


class Settings(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The choices remembered between runs, as ``settings.toml`` holds them.

    The declaration is the file's schema: `load_settings` checks a file against it,
    `settings_to_toml` writes it. Change one with `msgspec.structs.replace`.
    """

    name: Annotated[str, Meta(max_length=NAME_LIMIT)] = ""
    theme: ThemeName = DEFAULT_THEME
    tile_style: TileStyle = TileStyle.AUTO
    #: The last host joined, as typed ("192.168.1.20:7777").
    last_host: Annotated[str, Meta(max_length=HOST_LIMIT)] = ""
    #: The language chosen in Settings or the command palette ("": none chosen, the locale's).
    language: Annotated[str, Meta(pattern=r"^([a-z]{2})?$")] = ""
    #: ASCII tiles and borders, for terminals that mangle box drawing.
    ascii: bool = False


#: The names of the settings, in the order the file lists them.
SETTING_NAMES = Settings.__struct_fields__


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


def journals_dir() -> Path:
    """The folder of match journals (net/store/journals.py says what is kept there, and for how long)."""
    return data_dir() / JOURNALS_FOLDER


def records_dir() -> Path:
    """The folder of finished matches' records (net/store/record.py), read by the replay and the history."""
    return data_dir() / RECORDS_FOLDER


def settings_path() -> Path:
    return config_dir() / SETTINGS_FILE


def themes_dir() -> Path:
    """Where a user's own theme files go (`load_themes` reads it)."""
    return config_dir() / THEMES_FOLDER


def settings_from_data(data: object) -> Settings:
    """Settings from a file's parsed TOML; `FileProblem` names the field that does not fit.

    The texts a file may hold are shown on screen: control and escape characters are dropped.
    """
    settings = checked(data, Settings)
    return msgspec.structs.replace(settings, name=clean_text(settings.name, limit=NAME_LIMIT),
                                   last_host=clean_text(settings.last_host, limit=HOST_LIMIT))


def load_settings(path: Path | None = None) -> tuple[Settings, list[str]]:
    """The remembered settings and any warnings: the defaults and one warning when the file is unusable."""
    path = path if path is not None else settings_path()
    try:
        if not path.exists():
            return Settings(), []
        return settings_from_data(parse(read_bytes(path, MAX_SETTINGS_BYTES), "toml")), []
    except (OSError, FileProblem) as exc:
        problem = str(exc) if isinstance(exc, FileProblem) else exc.strerror or type(exc).__name__
        return Settings(), [t("Settings file {file} could not be used ({problem}); using defaults.",
                              file=str(path), problem=problem)]


def settings_to_toml(settings: Settings) -> str:
    """The settings as ``settings.toml`` holds them."""
    return to_toml(settings, comment="capicu settings, written by the game; safe to edit or delete.")


def save_settings(settings: Settings, path: Path | None = None) -> str | None:
    """Write the settings (atomically); a sentence to show when that fails, or when the file
    they replace could not be used (it is kept beside them, as the history keeps a damaged
    file: ``settings.damaged-1.toml``), else None."""
    path = path if path is not None else settings_path()
    temporary = path.with_name(path.name + ".tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        kept = _keep_if_damaged(path)
        temporary.write_text(settings_to_toml(settings), encoding="utf-8")
        os.replace(temporary, path)
    except OSError as exc:
        return t("Settings could not be saved to {file} ({problem}).", file=str(path),
                 problem=exc.strerror or type(exc).__name__)
    if kept is not None:
        return t("Settings file {file} could not be used: it is kept as {copy}, and the new settings "
                 "are saved.", file=str(path), copy=str(kept))
    return None


def _keep_if_damaged(path: Path) -> Path | None:
    """Move the settings file at ``path`` to a free ``settings.damaged-N.toml`` beside it if it cannot
    be used (hand edits are not lost); where it went, None when it is sound or absent."""
    if not path.is_file() or not load_settings(path)[1]:
        return None
    number = 1
    while (kept := path.with_name(f"{path.stem}.damaged-{number}{path.suffix}")).exists():
        number += 1
    os.replace(path, kept)
    return kept


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
