"""Settings remembered in the config folder; damage costs defaults, never the game."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from capicu.net.host.sanitize import clean_text
from capicu.tui.prefs.files import FileProblem
from capicu.tui.prefs.settings import (
    CONFIG_ENV,
    MAX_SETTINGS_BYTES,
    SETTING_NAMES,
    Settings,
    apply_color_mode,
    config_dir,
    load_settings,
    save_settings,
    settings_from_data,
    settings_path,
    settings_to_toml,
    themes_dir,
)
from capicu.tui.widgets.tiles import TileStyle
from hypothesis import given
from hypothesis import strategies as st


@pytest.fixture
def config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv(CONFIG_ENV, str(tmp_path / "capicu"))
    return tmp_path / "capicu"


def test_the_env_var_chooses_the_folder(config: Path) -> None:
    assert config_dir() == config
    assert settings_path() == config / "settings.toml"
    assert themes_dir() == config / "themes"


def test_no_file_means_defaults_and_no_warning(config: Path) -> None:
    assert load_settings() == (Settings(), [])


def test_settings_round_trip(config: Path) -> None:
    chosen = Settings(name='José "Pepe"', theme="daylight", tile_style=TileStyle.PIPS,
                      last_host="192.168.1.20:7777", language="es", ascii=True)
    assert save_settings(chosen) is None
    assert load_settings() == (chosen, [])
    assert not list(config.glob("*.tmp"))


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        (b"name = ", "not valid TOML"),
        (b"\xff\xfe garbage", "not valid TOML"),
        (b"x = " + b"[" * 3000 + b"]" * 3000, "not valid TOML"),
        (b"#" * (MAX_SETTINGS_BYTES + 1), "larger than"),
        (b'name = "' + b"x" * MAX_SETTINGS_BYTES + b'"', "larger than"),
        (b"[1, 2, 3]", "not valid TOML"),
        (b"{}", "not valid TOML"),
    ],
)
def test_a_damaged_file_gives_defaults_and_a_warning(config: Path, content: bytes, problem: str) -> None:
    config.mkdir(parents=True)
    settings_path().write_bytes(content)
    settings, warnings = load_settings()
    assert settings == Settings()
    assert len(warnings) == 1 and "settings.toml" in warnings[0] and problem in warnings[0]


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        ('name = 7\nlanguage = "es"\n', "name must be text, not a whole number"),
        ('theme = "../../etc"\n', "theme has an unusable value"),
        ('tile_style = "hex"\n', "tile_style has an unusable value"),
        ('ascii = "yes"\n', "ascii must be true or false, not text"),
        ('language = "es"\nfuture = 1\n', "unknown setting 'future'"),
        (f'name = "{"x" * 40}"\n', "name is longer than 24"),
        (f'last_host = "{"h" * 300}"\n', "last_host is longer than 255"),
        ("[name]\nfirst = 'Ana'\n", "name must be text, not a table"),
        ("ascii = [true]\n", "ascii must be true or false, not a list"),
    ],
)
def test_a_file_that_does_not_fit_the_declaration_gives_defaults_and_names_the_field(
    config: Path, content: str, problem: str
) -> None:
    config.mkdir(parents=True)
    settings_path().write_text(content)
    settings, warnings = load_settings()
    assert settings == Settings()  # nothing of a bad file is used
    assert len(warnings) == 1 and str(settings_path()) in warnings[0] and problem in warnings[0], warnings


def test_a_file_written_by_the_hand_made_writer_still_loads(config: Path) -> None:
    """The writer before tomli-w wrote every field as a JSON string; those files stay readable."""
    config.mkdir(parents=True)
    settings_path().write_text(
        '# capicu settings, written by the game; safe to edit or delete.\n'
        'name = "Jos\u00e9 \\"Pepe\\""\ntheme = "daylight"\ntile_style = "pips"\n'
        'last_host = "192.168.1.20:7777"\nlanguage = "es"\nascii = true\n', encoding="utf-8")
    assert load_settings() == (Settings(name='José "Pepe"', theme="daylight", tile_style=TileStyle.PIPS,
                                        last_host="192.168.1.20:7777", language="es", ascii=True), [])


def test_the_toml_written_is_stable_and_lists_every_setting(config: Path) -> None:
    chosen = Settings(name="Ana \\ 'B' \"C\"", ascii=True)
    text = settings_to_toml(chosen)
    assert text.startswith("# capicu settings")
    assert list(tomllib.loads(text)) == list(SETTING_NAMES)
    assert settings_to_toml(settings_from_data(tomllib.loads(text))) == text


def test_control_characters_in_a_name_are_dropped(config: Path) -> None:
    config.mkdir(parents=True)
    settings_path().write_text('name = "\\u001b[31mAna\\u0007"\n')
    assert load_settings()[0].name == "Ana"


def test_a_folder_in_the_way_gives_warnings_not_errors(config: Path) -> None:
    config.mkdir(parents=True)
    settings_path().mkdir()
    settings, warnings = load_settings()
    assert settings == Settings() and warnings
    assert "settings.toml" in (save_settings(Settings(name="x")) or "")


def test_colour_modes_set_what_textual_reads() -> None:
    env: dict[str, str] = {}
    apply_color_mode("auto", env)
    assert env == {}
    apply_color_mode("16", env)
    assert env["TEXTUAL_COLOR_SYSTEM"] == "standard"
    apply_color_mode("256", env)
    assert env["TEXTUAL_COLOR_SYSTEM"] == "256"
    apply_color_mode("truecolor", env)
    assert env == {"TEXTUAL_COLOR_SYSTEM": "truecolor", "COLORTERM": "truecolor"}
    with pytest.raises(ValueError):
        apply_color_mode("8", env)


def test_a_colour_mode_set_late_still_reaches_textual(monkeypatch: pytest.MonkeyPatch) -> None:
    import textual.constants

    monkeypatch.setattr(textual.constants, "COLOR_SYSTEM", "auto")
    monkeypatch.delenv("TEXTUAL_COLOR_SYSTEM", raising=False)
    monkeypatch.delenv("COLORTERM", raising=False)
    apply_color_mode("16")
    assert textual.constants.COLOR_SYSTEM == "standard"

    from textual.app import App

    assert App().console.color_system == "standard"


@given(st.dictionaries(
    st.sampled_from(["name", "theme", "tile_style", "last_host", "language", "ascii"]) | st.text(max_size=8),
    st.none() | st.booleans() | st.integers() | st.text(max_size=30) | st.lists(st.integers(), max_size=2),
    max_size=8,
))
def test_any_parsed_data_gives_settings_or_a_sentence(data: dict[str, object]) -> None:
    try:
        settings = settings_from_data(data)
    except FileProblem as exc:
        assert str(exc)
        return
    assert isinstance(settings.tile_style, TileStyle)
    # Whatever was kept is written back and read again unchanged.
    assert settings_from_data(tomllib.loads(settings_to_toml(settings))) == settings


#: Texts as the file keeps them: what `clean_text` leaves (it drops what a terminal must not be sent).
_SHOWN = st.text(max_size=24).map(lambda text: clean_text(text, limit=24))


@given(st.builds(
    Settings, name=_SHOWN, theme=st.from_regex(r"\A[a-z0-9][a-z0-9-]{0,39}\Z"),
    tile_style=st.sampled_from(TileStyle), last_host=_SHOWN,
    language=st.sampled_from(["", "es", "en"]), ascii=st.booleans(),
))
def test_every_settings_value_round_trips_through_its_toml(settings: Settings) -> None:
    assert settings_from_data(tomllib.loads(settings_to_toml(settings))) == settings


def test_settings_do_not_load_textual_so_colours_are_set_first() -> None:
    code = "import sys, capicu.tui.prefs.settings; print(any(m.startswith('textual') for m in sys.modules))"
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True
    )
    assert result.stdout.strip() == "False"


@pytest.mark.parametrize("content", [b"name = ", b'name = 7\nlanguage = "es"\n'])
def test_a_damaged_file_is_kept_as_a_copy_before_it_is_replaced(config: Path, content: bytes) -> None:
    """As the history keeps a damaged file (history.damaged-1.sqlite3): the user's hand edits are not lost."""
    config.mkdir(parents=True)
    settings_path().write_bytes(content)
    (config / "settings.damaged-1.toml").write_bytes(b"an older one")
    warning = save_settings(Settings(name="Ana"))
    kept = config / "settings.damaged-2.toml"
    assert kept.read_bytes() == content
    assert warning == (f"Settings file {settings_path()} could not be used: it is kept as {kept}, "
                       "and the new settings are saved.")
    assert load_settings() == (Settings(name="Ana"), [])
    assert save_settings(Settings(name="Beto")) is None  # a sound file is replaced as before
    assert sorted(path.name for path in config.iterdir()) == [
        "settings.damaged-1.toml", "settings.damaged-2.toml", "settings.toml"]
