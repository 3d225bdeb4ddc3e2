"""The catalogues: every message the code words is in every language, with the same placeholders.

The messages are found as the translator's command finds them (Babel, with
``tui/words/locale/babel.cfg``), from the code and from argparse, so a message added
to the code and not to a catalogue fails here, and so does one a catalogue
keeps after the code dropped it, or a ``.po`` edited without recompiling.
"""

from __future__ import annotations

import argparse
import gettext
import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import capicu.tui
import pytest
from babel.messages.extract import extract_from_dir, extract_from_file
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po
from capicu.tui.words.messages import (
    DOMAIN,
    LANGUAGES,
    LOCALE_DIR,
    SOURCE_LANGUAGE,
    Language,
    choose_language,
    command_line_language,
    default_language,
    format_number,
    language_from_environment,
    placeholders,
    t,
    tc,
    tn,
)

TUI = Path(capicu.tui.__file__).parent
#: A message's identity in a catalogue: its context and its (singular) text.
Key = tuple[str | None, str]


@pytest.fixture(autouse=True)
def english() -> Iterator[None]:
    default_language.switch(SOURCE_LANGUAGE)
    yield
    default_language.switch(SOURCE_LANGUAGE)


@cache
def _extracted() -> dict[Key, tuple[str, ...]]:
    """Every message the code and argparse word, as the README's extract command finds them."""
    with (LOCALE_DIR / "babel.cfg").open() as config:
        method_map, options_map = parse_mapping_cfg(config)
    found: dict[Key, tuple[str, ...]] = {}
    for _, _, message, _, context in extract_from_dir(TUI, method_map, options_map):
        forms = (message,) if isinstance(message, str) else tuple(message)
        found[(context, forms[0])] = forms
    for _, message, _, context in extract_from_file("python", argparse.__file__):
        forms = (message,) if isinstance(message, str) else tuple(message)
        found[(context, forms[0])] = forms
    return found


def _po_files() -> list[Path]:
    return sorted(LOCALE_DIR.glob(f"*/LC_MESSAGES/{DOMAIN}.po"))


def _fields(text: str) -> frozenset[str]:
    """What a message fills in: ``{name}`` fields, or argparse's ``%(name)s`` and ``%s``."""
    printf = re.findall(r"%(?:\((\w+)\))?[-#0 +]*\d*(?:\.\d+)?[sdrgf]", text)
    if printf:
        return frozenset(name or "%" for name in printf)
    return placeholders(text)


def test_a_sentence_is_filled_in_and_never_crashes() -> None:
    played = t("{name} plays {tile} on the {end}.", name="Ana", tile="3-5", end="left")
    assert played == "Ana plays 3-5 on the left."
    assert t("{name} plays {tile} on the {end}.", name="Ana") == "Ana plays {tile} on the {end}."
    assert t("A message no catalogue has.") == "A message no catalogue has."


def test_every_language_has_a_compiled_catalogue() -> None:
    shipped = {path.parent.parent.name for path in _po_files()}
    assert shipped == set(LANGUAGES) - {SOURCE_LANGUAGE}
    for code in shipped:
        assert (LOCALE_DIR / code / "LC_MESSAGES" / f"{DOMAIN}.mo").is_file(), code


def test_the_template_holds_what_the_code_words() -> None:
    with (LOCALE_DIR / f"{DOMAIN}.pot").open("rb") as pot:
        template = {(m.context, m.id if isinstance(m.id, str) else m.id[0]) for m in read_po(pot) if m.id}
    code = set(_extracted())
    assert not code - template, f"run the README's extract command: new messages {sorted(code - template)}"
    assert not template - code, f"run the README's extract command: unused messages {sorted(template - code)}"


@pytest.mark.parametrize("po_path", _po_files(), ids=lambda path: path.parent.parent.name)
def test_every_message_is_translated_with_the_same_placeholders(po_path: Path) -> None:
    code = _extracted()
    with po_path.open("rb") as handle:
        catalogue = read_po(handle)
    entries = {(m.context, m.id if isinstance(m.id, str) else m.id[0]): m for m in catalogue if m.id}
    missing = sorted(set(code) - set(entries), key=str)
    unused = sorted(set(entries) - set(code), key=str)
    assert not missing, f"{po_path}: not translated: {missing}"
    assert not unused, f"{po_path}: no longer in the code: {unused}"
    problems = []
    for key, message in entries.items():
        forms = code[key]
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        if message.fuzzy or not all(strings):
            problems.append(f"{key}: not translated (or fuzzy)")
            continue
        if isinstance(message.id, tuple) != (len(forms) == 2):
            problems.append(f"{key}: singular or plural unlike the code's")
            continue
        expected = _fields(forms[-1]) | (_fields(forms[0]) if len(forms) == 2 else frozenset())
        for form in strings:
            # A singular form may leave its count out ("una ficha"); it adds nothing.
            if not _fields(form) <= expected or (len(forms) == 1 and _fields(form) != expected):
                problems.append(f"{key}: {form!r} fills {sorted(_fields(form))}, not {sorted(expected)}")
        if len(forms) == 2 and _fields(strings[-1]) != _fields(forms[1]):
            problems.append(f"{key}: the plural {strings[-1]!r} must fill {sorted(_fields(forms[1]))}")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("po_path", _po_files(), ids=lambda path: path.parent.parent.name)
def test_the_compiled_catalogue_is_the_po_file(po_path: Path) -> None:
    """A ``.po`` edited without the README's compile command fails: the ``.mo`` says otherwise."""
    with po_path.open("rb") as handle:
        catalogue = read_po(handle)
    with po_path.with_suffix(".mo").open("rb") as handle:
        compiled = gettext.GNUTranslations(handle)
    for message in catalogue:
        if not message.id:
            continue
        prefix = f"{message.context}\x04" if message.context else ""
        if isinstance(message.id, tuple):
            for n, form in enumerate(message.string):
                assert compiled._catalog.get((prefix + message.id[0], n)) == form, (po_path, message.id)
        else:
            assert compiled._catalog.get(prefix + message.id) == message.string, (po_path, message.id)
    assert compiled.plural(1) == 0 and compiled.plural(2) == 1
    entries = sum(len(m.string) if isinstance(m.id, tuple) else 1 for m in catalogue if m.id)
    assert len(compiled._catalog) == entries + 1  # and the header


def test_plural_forms_follow_the_language() -> None:
    assert tn("{count} tile", "{count} tiles", 1) == "1 tile"
    assert tn("{count} tile", "{count} tiles", 3) == "3 tiles"
    default_language.switch("es")
    assert tn("{count} tile", "{count} tiles", 1) == "1 ficha"
    assert tn("{count} tile", "{count} tiles", 0) == "0 fichas"
    assert tn("You drew a tile.", "You drew {count} tiles.", 2) == "Robaste 2 fichas."
    assert tc("end of the line", "left") == "izquierda"


def test_numbers_are_written_the_languages_way() -> None:
    english, spanish = Language("en"), Language("es")
    assert format_number(1000, english) == "1,000"
    assert format_number(1234567, english) == "1,234,567"
    assert format_number(2.5, english) == "2.5"
    assert (format_number(20.0, english), format_number(1234.5, english)) == ("20", "1,234.5")
    assert format_number(-1234, english) == "-1,234"
    assert format_number(1000, spanish) == "1000"  # four digits stay together in Spanish
    assert format_number(12345, spanish) == "12\u00a0345"
    assert format_number(2.5, spanish) == "2,5"
    assert format_number(12345.5, spanish) == "12\u00a0345,5"
    default_language.switch("es")
    assert t("The match is won by the first to reach {points} points.", points=10000) == (
        "Gana la partida el primero que llegue a 10\u00a0000 puntos.")


def test_the_language_is_asked_then_saved_then_the_locales() -> None:
    spanish_locale = {"LANG": "es_PR.UTF-8"}
    assert choose_language("en", "es", spanish_locale) == "en"
    assert choose_language(None, "en", spanish_locale) == "en"
    assert choose_language(None, "", spanish_locale) == "es"
    assert choose_language(None, "", {}) == "en"
    assert choose_language("xx", "zz", {"LANG": "fr_FR"}) == "en"
    # LC_ALL wins over LC_MESSAGES, which wins over LANG; "C" names no language.
    assert language_from_environment({"LC_ALL": "es_ES", "LANG": "en_US"}) == "es"
    assert language_from_environment({"LC_MESSAGES": "en_GB.UTF-8", "LANG": "es_MX"}) == "en"
    assert language_from_environment({"LC_ALL": "C", "LANG": "es_MX"}) is None
    assert language_from_environment({"LANGUAGE": "es"}) is None


def test_the_command_line_language_gives_the_process_back() -> None:
    with command_line_language("es"):
        assert t("Quit") == "Salir"
        assert gettext.gettext("usage: ") == "uso: "  # argparse's own words
    assert t("Quit") == "Quit"
    assert gettext.gettext("usage: ") == "usage: "


def test_the_game_keeps_its_own_words() -> None:
    """Puerto Rican players' words, in both languages (docs/GLOSSARY.md lists them)."""
    english = " ".join(forms[-1] for forms in _extracted().values())
    for word in ("tranque", "Domino", "paso", "el pozo", "la mesa", "capicú", "chuchazo"):
        assert word in english
    with (LOCALE_DIR / "es" / "LC_MESSAGES" / f"{DOMAIN}.po").open("rb") as handle:
        spanish = " ".join(" ".join(m.string) if isinstance(m.string, tuple) else m.string
                           for m in read_po(handle) if m.id)
    for word in ("ficha", "pozo", "paso", "pasar", "tranque", "capicú", "chuchazo", "mano", "la mesa",
                 "¡Dominó!", "robar", "punta"):
        assert word in spanish, word


def test_no_english_sentence_opens_with_a_spanish_article() -> None:
    """The game's words sit inside an English sentence ("Nothing on la mesa yet"): "La mesa is empty"
    read as Spanish that turned English halfway (docs/GLOSSARY.md)."""
    opening = re.compile(r"^(La|El|Las|Los) [a-zñáéíóú]")
    english = [form for forms in _extracted().values() for form in forms]
    assert [form for form in english if opening.match(form)] == []


def test_an_unknown_language_keeps_the_one_spoken() -> None:
    language = Language("es")
    assert language.switch("xx") is False
    assert language.code == "es"
    assert Language("xx").code == SOURCE_LANGUAGE
