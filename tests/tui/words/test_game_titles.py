"""Every game has a title in words, as a table's header shows it ("Fives and Threes", not its preset's
name "fives-and-threes"), in English and Spanish."""

from __future__ import annotations

from capicu.core import Rules
from capicu.core.games import game_of
from capicu.core.rules import ALL_PRESET_NAMES
from capicu.tui.words.describe_rules import game_title
from capicu.tui.words.messages import default_language


def test_every_preset_has_a_title_in_words_in_each_language() -> None:
    for language in ("en", "es"):
        default_language.switch(language)
        try:
            titles = [game_title(preset) for preset in ALL_PRESET_NAMES]
        finally:
            default_language.switch("en")
        assert len(set(titles)) == len(titles), (language, titles)
        for preset, title in zip(ALL_PRESET_NAMES, titles, strict=True):
            assert "-" not in title and title[0].isupper(), (language, preset, title)


def test_a_game_of_one_preset_is_titled_as_the_registry_names_it() -> None:
    for preset in ("mexican-train", "fives-and-threes"):
        assert game_title(preset) == game_of(Rules.preset_named(preset)).title
    assert game_title("puerto-rican-partners") == "Puerto Rican partners"
