"""Themes from TOML: the shipped ones, a user's, and hostile files skipped with a warning."""

from __future__ import annotations

import tomllib
from pathlib import Path

import msgspec
import pytest
from capicu.tui.app import CapicuApp
from capicu.tui.cli import commands
from capicu.tui.cli import main as cli
from capicu.tui.game import DisplayOptions
from capicu.tui.prefs.files import to_toml
from capicu.tui.prefs.settings import DEFAULT_THEME
from capicu.tui.prefs.themes import (
    GAME_VARIABLES,
    MAX_THEME_BYTES,
    READABLE_TEXTUAL_THEMES,
    ThemeError,
    ThemeFile,
    hide_unreadable_themes,
    load_themes,
    offered_theme_names,
    read_theme_file,
    theme_from_data,
    theme_from_file,
)
from capicu.tui.widgets.boneyard_info import BoneyardInfo
from capicu.tui.widgets.chat_panel import ChatPanel
from capicu.tui.widgets.event_log import EventLog
from capicu.tui.widgets.hand_view import HandView
from capicu.tui.widgets.line_of_play import LineOfPlay
from capicu.tui.widgets.seat_panel import SeatPanel, SeatView
from hypothesis import given
from hypothesis import strategies as st
from textual.theme import BUILTIN_THEMES
from textual.widgets import OptionList, Select
from widget_harness import SIZE, WidgetApp, played_view

GOOD = """
name = "midnight"
dark = true
primary = "#3366ff"
background = "#000010"

[variables]
felt = "#002040"
tile-face = "#eeeeee"
"""

def test_the_shipped_themes_load_without_warnings() -> None:
    themes, warnings = load_themes(None)
    assert warnings == []
    names = {theme.name for theme in themes}
    assert {"felt", "daylight", "high-contrast"} <= names
    assert DEFAULT_THEME == "felt"
    for theme in themes:
        assert set(GAME_VARIABLES) <= set(theme.variables), theme.name
        # The check load_themes skips for them at start, to save time.
        theme.to_color_system().generate()
    light = next(theme for theme in themes if theme.name == "daylight")
    assert not light.dark


def test_a_users_theme_loads_after_the_shipped_ones(tmp_path: Path) -> None:
    (tmp_path / "midnight.toml").write_text(GOOD)
    themes, warnings = load_themes(tmp_path)
    assert warnings == []
    mine = themes[-1]
    assert mine.name == "midnight"
    assert mine.variables["felt"] == "#002040"
    assert mine.variables["tile-pip"] == GAME_VARIABLES["tile-pip"]  # filled in


BAD_FILES = {
    "not-toml.toml": ("name = ", "not valid TOML"),
    "no-name.toml": ('primary = "#ffffff"', "it has no name"),
    "bad-name.toml": ('name = "Has Spaces"\nprimary = "#ffffff"', "name has an unusable value"),
    "no-primary.toml": ('name = "np"', "has no primary"),
    "wrong-type.toml": ('name = "wt"\nprimary = "#ffffff"\ndark = "yes"',
                        "dark must be true or false, not text"),
    "number-colour.toml": ('name = "nc"\nprimary = 12', "primary must be text, not a whole number"),
    "optional-colour.toml": ('name = "oc"\nprimary = "#fff"\nsecondary = 3',
                             "secondary must be text, not a whole number"),
    "bad-colour.toml": ('name = "bc"\nprimary = "#fff"\nbackground = "bluish"', "background is not a colour"),
    "bad-variable.toml": ('name = "bv"\nprimary = "#fff"\n[variables]\nfelt = "url(x)"', "variables.felt"),
    "variables-not-table.toml": ('name = "vt"\nprimary = "#fff"\nvariables = 3',
                                 "variables must be a table, not a whole number"),
    "variable-number.toml": ('name = "vn"\nprimary = "#fff"\n[variables]\nfelt = 3',
                             "variables must be text"),
    "variable-name.toml": ('name = "vb"\nprimary = "#fff"\n[variables]\n"Bad Name" = "#fff"',
                           "variables has a name that cannot be used"),
    "unknown-key.toml": ('name = "uk"\nprimary = "#fff"\nprimay = "#000"', "unknown setting 'primay'"),
    "shadows-textual.toml": ('name = "textual-dark"\nprimary = "#fff"', "already loaded"),
    "shadows-shipped.toml": ('name = "felt"\nprimary = "#fff"', "already loaded"),
    "spread.toml": ('name = "sp"\nprimary = "#fff"\nluminosity_spread = 1e308',
                    "luminosity_spread must be <= 1"),
    "alpha.toml": ('name = "al"\nprimary = "#fff"\ntext_alpha = -1', "text_alpha must be >= 0"),
    "long-text.toml": (f'name = "lt"\nprimary = "#fff"\ndescription = "{"d" * 201}"',
                       "description is longer than 200"),
    "long-colour.toml": (f'name = "lc"\nprimary = "{"#fff" * 16}"', "primary is longer than 60"),
    "many-variables.toml": ('name = "mv"\nprimary = "#fff"\n[variables]\n'
                            + "".join(f'v{i} = "#fff"\n' for i in range(201)),
                            "variables is longer than 200"),
    "deep.toml": ("x = " + "[" * 5000 + "]" * 5000, "not valid TOML"),
}


@pytest.mark.parametrize("filename", sorted(BAD_FILES))
def test_a_bad_theme_file_is_skipped_with_a_warning_naming_it(tmp_path: Path, filename: str) -> None:
    content, problem = BAD_FILES[filename]
    (tmp_path / filename).write_text(content)
    themes, warnings = load_themes(tmp_path)
    assert {theme.name for theme in themes} == {"felt", "daylight", "high-contrast"}
    assert len(warnings) == 1
    assert filename in warnings[0] and problem in warnings[0], warnings[0]


def test_huge_binary_and_odd_files_never_crash(tmp_path: Path) -> None:
    (tmp_path / "huge.toml").write_bytes(b"#" * (MAX_THEME_BYTES + 1))
    (tmp_path / "binary.toml").write_bytes(b"\xff\xfe\x00name")
    (tmp_path / "folder.toml").mkdir()
    (tmp_path / "ignored.txt").write_text("not a theme")
    (tmp_path / "good.toml").write_text(GOOD)
    themes, warnings = load_themes(tmp_path)
    assert themes[-1].name == "midnight"
    assert len(warnings) == 3
    assert any("huge.toml" in w and "larger than" in w for w in warnings)
    assert any("binary.toml" in w and "UTF-8" in w for w in warnings)
    assert any("folder.toml" in w for w in warnings)


@pytest.mark.parametrize("path", sorted((Path(__file__).parents[3] / "themes").glob("*.toml")),
                         ids=lambda path: path.name)
def test_a_theme_file_round_trips_through_its_declaration(path: Path) -> None:
    file = msgspec.convert(tomllib.loads(path.read_text()), ThemeFile)
    text = to_toml(file)
    again = msgspec.convert(tomllib.loads(text), ThemeFile)
    assert again == file and to_toml(again) == text
    assert theme_from_file(again).variables == read_theme_file(path).variables


def test_a_missing_user_folder_is_not_a_problem(tmp_path: Path) -> None:
    assert load_themes(tmp_path / "absent")[1] == []
    assert read_theme_file(Path(__file__).parents[3] / "themes" / "felt.toml").name == "felt"


async def test_every_theme_styles_every_widget(tmp_path: Path) -> None:
    """Switching themes re-parses the widgets' CSS: a variable missing anywhere would fail here."""
    (tmp_path / "midnight.toml").write_text(GOOD)
    view = played_view()

    def widgets() -> list:  # type: ignore[type-arg]
        return [SeatPanel(SeatView(1, "Beto", 7, 0)), LineOfPlay(), BoneyardInfo(), HandView(), EventLog(),
                ChatPanel()]

    app = WidgetApp(widgets)
    async with app.run_test(size=SIZE) as pilot:
        for theme in load_themes(tmp_path)[0]:
            app.register_theme(theme)
        app.query_one(HandView).update_from_view(view)
        app.query_one(LineOfPlay).update_line(view.line, view.ends)
        for name in ("felt", "daylight", "high-contrast", "midnight", "textual-dark", "nord"):
            app.theme = name
            await pilot.pause()
            assert app.query_one(HandView).render().plain
            faces = app.query_one(LineOfPlay).get_component_rich_style("line--tile")
            assert faces.bgcolor is not None


_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20)
    | st.sampled_from(["#fff", "#123456", "red", "felt", "bold", "ansi_red", "#81a1c1 35%"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=12), inner, max_size=4),
    max_leaves=12,
)
_FIELDS = ["name", "primary", "dark", "background", "variables", "text_alpha", "panel"]
_KEYS = st.sampled_from(_FIELDS) | st.text(max_size=10)


@given(st.dictionaries(_KEYS, _VALUES, max_size=8))
def test_any_parsed_data_gives_a_theme_or_a_theme_error(data: dict[str, object]) -> None:
    try:
        theme = theme_from_data(data)
    except ThemeError as exc:
        assert str(exc)
    else:
        assert set(GAME_VARIABLES) <= set(theme.variables)
        theme.to_color_system().generate()


# -- which themes a player is offered --------------------------------------------------------------

SHIPPED = ["daylight", "felt", "high-contrast"]


@pytest.fixture
def config_with_a_theme(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh config folder holding the user's own theme, midnight."""
    config = tmp_path / "config"
    (config / "themes").mkdir(parents=True)
    (config / "themes" / "midnight.toml").write_text(GOOD)
    monkeypatch.setenv("CAPICU_CONFIG_DIR", str(config))
    return config


def test_the_offer_is_capicus_themes_then_the_users_then_no_unreadable_textual_one() -> None:
    names = offered_theme_names([*BUILTIN_THEMES, "daylight", "felt", "high-contrast", "midnight"])
    assert names == [*SHIPPED, "midnight", *sorted(READABLE_TEXTUAL_THEMES)]
    assert "textual-dark" not in names and "nord" not in names


@pytest.mark.parametrize("command", [["play"], ["join", "127.0.0.1"], []])
def test_an_unknown_theme_is_one_line_naming_the_themes_and_exit_2(
    config_with_a_theme: Path, capsys: pytest.CaptureFixture[str], command: list[str]
) -> None:
    assert cli.main([*command, "--theme", "nigth"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    themes = "daylight, felt, high-contrast, midnight"
    assert err == f"capicu: there is no theme called 'nigth': the themes are {themes}\n"


def test_a_textual_theme_that_is_not_offered_is_unknown_too(
    config_with_a_theme: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["play", "--theme", "nord"]) == 2
    assert "no theme called 'nord'" in capsys.readouterr().err


@pytest.mark.parametrize("theme", ["high-contrast", "midnight"])
def test_a_shipped_or_own_theme_is_taken(config_with_a_theme: Path, theme: str) -> None:
    args = cli.build_parser().parse_args(["play", "--theme", theme])
    assert commands.display_options(args).theme == theme


async def test_the_settings_offer_the_same_themes_and_apply_the_one_chosen(config_with_a_theme: Path) -> None:
    from capicu.tui.screens.settings import SettingsScreen

    app = CapicuApp(DisplayOptions(mouse=False))
    async with app.run_test(size=SIZE) as pilot:
        await app.push_screen(SettingsScreen())
        await pilot.pause()
        choice = app.screen.query_one("#theme", Select)
        options = choice.query_one(OptionList)
        offered = [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]
        assert offered == [*SHIPPED, "midnight", *sorted(READABLE_TEXTUAL_THEMES)]
        assert choice.value == "felt"
        choice.value = "midnight"
        await pilot.pause()
        assert app.theme == "midnight"
        assert app.settings.theme == "midnight"


async def test_hiding_the_unreadable_themes_leaves_the_palette_what_the_settings_offer(
    config_with_a_theme: Path,
) -> None:
    app = CapicuApp(DisplayOptions(mouse=False))
    async with app.run_test(size=SIZE):
        hide_unreadable_themes(app)
        assert list(app.available_themes) == offered_theme_names(app.available_themes)
        assert set(app.available_themes) == {*SHIPPED, "midnight", *READABLE_TEXTUAL_THEMES}
        app.theme = "daylight"
        assert app.current_theme.name == "daylight"
