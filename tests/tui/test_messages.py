"""The message catalogue: lookups never crash, and every key the interface uses exists."""

from __future__ import annotations

import ast
import contextlib
import importlib
import pkgutil
from collections.abc import Iterator
from pathlib import Path

import capicu.tui
import pytest
from capicu.tui import messages
from capicu.tui.messages import ENGLISH, MessageError, add_messages, placeholders, set_language, t

TUI = Path(capicu.tui.__file__).parent


@pytest.fixture(autouse=True)
def english() -> Iterator[None]:
    set_language("en")
    yield
    set_language("en")


def test_a_sentence_is_filled_in() -> None:
    assert t("event.played", name="Ana", tile="3-5", end="left") == "Ana plays 3-5 on the left."


def test_a_missing_parameter_stays_visible_instead_of_crashing() -> None:
    assert t("event.played", name="Ana") == "Ana plays {tile} on the {end}."


def test_an_unknown_key_shows_itself() -> None:
    assert t("no.such.key") == "<no.such.key>"


def test_unknown_language_keeps_english() -> None:
    assert set_language("xx") is False
    assert messages.language() == "en"


def test_a_translation_falls_back_to_english_for_keys_it_lacks() -> None:
    add_messages({"hand.title": "Tu mano"}, language="zz")
    assert set_language("zz")
    assert t("hand.title") == "Tu mano"
    assert t("chat.title") == ENGLISH["chat.title"]
    assert "chat.title" in messages.missing_keys("zz")


def test_adding_a_clashing_english_key_is_refused() -> None:
    add_messages({"test.same": "Same"})
    add_messages({"test.same": "Same"})  # the same text again is fine (a module reloaded)
    with pytest.raises(MessageError):
        add_messages({"test.same": "Different"})


def test_a_translation_must_keep_the_placeholders() -> None:
    with pytest.raises(MessageError):
        add_messages({"event.played": "{name} juega {tile}"}, language="zz")
    with pytest.raises(MessageError):
        add_messages({"not.in.english": "hola"}, language="zz")
    with pytest.raises(MessageError):
        add_messages({"test.broken": "unclosed {brace"})


def _import_every_tui_module() -> None:
    for info in pkgutil.walk_packages([str(TUI)], prefix="capicu.tui."):
        if info.name.endswith("__main__"):
            continue
        # A module that does not import is another test's failure; its keys
        # are still checked below from its source text.
        with contextlib.suppress(ImportError):
            importlib.import_module(info.name)


def _catalogue_calls() -> Iterator[tuple[Path, int, str, set[str] | None]]:
    """Each ``t("key", ...)`` call in tui/: file, line, key, keyword names (None with **kwargs)."""
    for path in sorted(TUI.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "t"
                and node.args
                and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[0].value, str)
            ):
                names = {k.arg for k in node.keywords if k.arg is not None}
                has_splat = any(k.arg is None for k in node.keywords)
                yield path, node.lineno, node.args[0].value, None if has_splat else names


def test_every_key_used_in_the_interface_exists_with_its_parameters() -> None:
    _import_every_tui_module()
    calls = list(_catalogue_calls())
    assert len(calls) > 50
    problems = []
    for path, line, key, names in calls:
        where = f"{path.relative_to(TUI.parent)}:{line}"
        if key not in ENGLISH:
            problems.append(f"{where}: no message {key!r}")
        elif names is not None and not placeholders(ENGLISH[key]) <= names:
            missing = sorted(placeholders(ENGLISH[key]) - names)
            problems.append(f"{where}: {key!r} needs {missing}")
    assert not problems, "\n".join(problems)


def test_the_game_keeps_its_own_words() -> None:
    text = " ".join(ENGLISH.values())
    for word in ("tranque", "Domino", "paso", "el pozo", "La mesa", "capicú", "chuchazo"):
        assert word in text
