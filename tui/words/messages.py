"""The interface's words in the reader's language: stdlib `gettext` over the catalogues in ``locale/``.

Every sentence a person reads is written in the code as its English message and
worded by one of these functions, which Babel knows as keywords (README,
"Translating"): ``t("{name} plays {tile}.", name=...)``; ``tn(singular, plural,
count, ...)`` where a count picks the form (each language's own plural rule);
``tc(context, message, ...)`` where one English word has two senses. `N_` marks
a message kept in a table and worded later. Placeholders are `str.format`
fields; whole numbers are written the language's way (`format_number`).

Babel extracts the messages into ``locale/capicu.pot``; a translator fills in
``locale/<code>/LC_MESSAGES/capicu.po`` (Poedit, Weblate) and Babel compiles the
``.mo`` beside it, which ships in the package. English is the source language:
it needs no file, and a message a catalogue lacks shows in English.

Each interface speaks its own `Language` (one process serves several over SSH):
the app installs `set_language_source` so that the words follow the app being
drawn; outside an app (the command line) they follow `default_language`. The
game's own words (tranque, capicú, chuchazo, paso, la mesa, el pozo) stay
Spanish in English too, because that is what Puerto Rican players say.
"""

from __future__ import annotations

import gettext
import os
import string
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from functools import cache
from pathlib import Path

from .ascii_only import to_ascii as to_ascii  # describe.py reads it from here

DOMAIN = "capicu"
LOCALE_DIR = Path(__file__).with_name("locale")
#: The language the messages are written in (no catalogue of its own).
SOURCE_LANGUAGE = "en"
#: The languages the interface speaks, each named in itself (never translated).
LANGUAGES: Mapping[str, str] = {"en": "English", "es": "Español"}

_FORMATTER = string.Formatter()


@cache
def catalogue(code: str) -> gettext.NullTranslations:
    """The compiled catalogue of ``code``; for English (or one not compiled) the messages as written."""
    if code == SOURCE_LANGUAGE:
        return gettext.NullTranslations()
    return gettext.translation(DOMAIN, LOCALE_DIR, languages=[code], fallback=True)


class Language:
    """The language one interface speaks, and whether it writes ASCII only."""

    def __init__(self, code: str = SOURCE_LANGUAGE, *, ascii: bool = False) -> None:
        self.code = SOURCE_LANGUAGE
        self.translations = catalogue(SOURCE_LANGUAGE)
        #: Every sentence (and every name shown through `describe`) in plain ASCII.
        self.ascii = ascii
        self.switch(code)

    def switch(self, code: str) -> bool:
        """Speak ``code`` from now on; False (and the language kept) when it is not one of `LANGUAGES`."""
        if code not in LANGUAGES:
            return False
        self.code = code
        self.translations = catalogue(code)
        return True

    def __repr__(self) -> str:
        return f"Language({self.code!r}, ascii={self.ascii})"


#: What the command line speaks, and any interface that has no language of its own.
default_language = Language()
_language_source: Callable[[], Language | None] | None = None


def set_language_source(source: Callable[[], Language | None]) -> None:
    """Where the language being spoken is found (the app: the one of the app being drawn)."""
    global _language_source
    _language_source = source


def current() -> Language:
    """The language of the interface being worded for now."""
    found = _language_source() if _language_source is not None else None
    return found if found is not None else default_language


class _Filled(dict[str, object]):
    """Parameters for `format_map` that leave an unknown placeholder visible rather than crash."""

    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def _fill(language: Language, template: str, params: Mapping[str, object]) -> str:
    values = _Filled({
        name: format_number(value, language) if isinstance(value, int | float) and not isinstance(value, bool)
        else value
        for name, value in params.items()
    })
    try:
        text = template.format_map(values)
    except (ValueError, IndexError, AttributeError, KeyError):
        text = template
    return to_ascii(text) if language.ascii else text


def t(message: str, /, **params: object) -> str:
    """``message`` in the current language, with ``params`` filled in.

    Never raises: a message the catalogue lacks shows in English, and a
    placeholder without a value shows as ``{name}`` (the catalogue test
    catches both before a player could).
    """
    language = current()
    return _fill(language, language.translations.gettext(message), params)


def tn(singular: str, plural: str, count: int, /, **params: object) -> str:
    """The form of a message that suits ``count`` (the language's plural rule); ``{count}`` is filled in."""
    language = current()
    template = language.translations.ngettext(singular, plural, count)
    return _fill(language, template, {"count": count, **params})


def tc(context: str, message: str, /, **params: object) -> str:
    """``message`` in the sense that ``context`` names ("end of the line" left, not a player who left)."""
    language = current()
    return _fill(language, language.translations.pgettext(context, message), params)


#: A sentence worded when it is shown, and again after a change of language (a log's line).
Wording = Callable[[], str]


def later(message: str, /, **params: object) -> Wording:
    """``message`` as a `Wording`: worded with `t` each time it is shown, not now."""
    return lambda: t(message, **params)


def N_(message: str) -> str:
    """Mark ``message`` for the catalogue without wording it: a table's entry, worded with `t` when shown."""
    return message


def format_number(value: float, language: Language | None = None) -> str:
    """``value`` written the language's way: its thousands separator and decimal mark."""
    translations = (language or current()).translations
    # TRANSLATORS: what separates groups of three digits in a long number (English 1,000,000).
    thousands = translations.pgettext("thousands separator", ",")
    # TRANSLATORS: what separates whole units from tenths (English 2.5).
    decimal = translations.pgettext("decimal mark", ".")
    # TRANSLATORS: the fewest digits a number needs before its thousands are grouped: 4 groups 1,000;
    # 5 keeps 1000 as it is and writes 10,000.
    fewest = translations.pgettext("digits before grouping", "4")
    text = f"{int(value):,}" if isinstance(value, float) and value.is_integer() else f"{value:,}"
    whole, _, fraction = text.partition(".")
    if len(whole.lstrip("-").replace(",", "")) < (int(fewest) if fewest.isdigit() else 4):
        whole = whole.replace(",", "")
    return whole.replace(",", thousands) + (decimal + fraction if fraction else "")


def placeholders(template: str) -> frozenset[str]:
    """The names a template fills in (``{name}`` gives ``name``)."""
    return frozenset(
        field.split(".")[0].split("[")[0]
        for _, field, _, _ in _FORMATTER.parse(template)
        if field
    )


def set_ascii(on: bool) -> None:
    """ASCII mode for the current language: every sentence, and every name shown through `describe`."""
    current().ascii = bool(on)


def ascii_only() -> bool:
    return current().ascii


# -- which language --------------------------------------------------------------------

#: The variables that name the user's locale, the first one set winning (as POSIX reads them).
LOCALE_VARIABLES = ("LC_ALL", "LC_MESSAGES", "LANG")


def language_from_environment(environ: Mapping[str, str] | None = None) -> str | None:
    """The language of the user's locale ("es_PR.UTF-8" gives "es"), if the interface speaks it."""
    env = os.environ if environ is None else environ
    for variable in LOCALE_VARIABLES:
        value = env.get(variable, "")
        if value:
            code = value.split(".")[0].split("@")[0].split("_")[0].split("-")[0].lower()
            return code if code in LANGUAGES else None
    return None


def choose_language(
    asked: str | None, saved: str | None, environ: Mapping[str, str] | None = None
) -> str:
    """The language to speak: the one asked for (``--lang``), else the one saved, else the locale's."""
    for code in (asked, saved, language_from_environment(environ)):
        if code is not None and code in LANGUAGES:
            return code
    return SOURCE_LANGUAGE


@contextmanager
def command_line_language(code: str) -> Iterator[None]:
    """Speak ``code`` on the command line, argparse's own words (usage, errors) included.

    argparse words its messages through the process's gettext domain, which reads
    the language from ``LANGUAGE``: both point at our catalogue while this lasts
    (a test that runs the command line in-process gets its process back as it was).
    """
    before = (default_language.code, gettext.textdomain(), os.environ.get("LANGUAGE"))
    default_language.switch(code)
    gettext.bindtextdomain(DOMAIN, str(LOCALE_DIR))
    gettext.textdomain(DOMAIN)
    os.environ["LANGUAGE"] = code
    try:
        yield
    finally:
        default_language.switch(before[0])
        gettext.textdomain(before[1])
        if before[2] is None:
            os.environ.pop("LANGUAGE", None)
        else:
            os.environ["LANGUAGE"] = before[2]
