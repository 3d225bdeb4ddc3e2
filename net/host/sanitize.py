"""Text from the outside made safe to print on somebody else's terminal.

A name or a chat line travels from one player's keyboard to everyone else's
terminal. Escape sequences could move their cursor, retitle their window or
worse, and bidirectional overrides could make a line read differently from
what was typed, and invisible characters could make two names that look the
same differ; so the host removes all of them before anyone sees the text.
Marks stacked on one letter beyond what any writing system needs are dropped
too (they pile up over the lines around them), and two names whose letters
look alike, from one script or two ("Observer" with a Cyrillic О), are one name.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

#: ESC-introduced sequences: CSI (ESC [ ... final), OSC/DCS/SOS/PM/APC strings
#: (ESC ] ... BEL or ST), and two-character escapes (ESC followed by one char).
_ESCAPES = re.compile(
    r"""
    \x1b\[[0-?]*[ -/]*[@-~]?            # CSI
  | \x1b[\]PX^_].*?(?:\x07|\x1b\\|$)    # OSC, DCS, SOS, PM, APC up to BEL or ST
  | \x1b[ -/]*[0-~]?                    # other escapes (charset, keypad, ...)
  | \x9b[0-?]*[ -/]*[@-~]?              # 8-bit CSI
  | [\x90\x98\x9d\x9e\x9f].*?(?:\x07|\x9c|$)  # 8-bit string introducers
    """,
    re.VERBOSE | re.DOTALL,
)

#: Characters that draw nothing yet are not format characters (Cf, all dropped):
#: the Hangul fillers, the combining grapheme joiner, Khmer's invisible vowels,
#: Mongolian variation selectors and the braille blank.
_INVISIBLE = frozenset(
    "\u115f\u1160\u3164\uffa0\u034f\u17b4\u17b5\u180b\u180c\u180d\u180f\u2800"
)


def _allowed(char: str) -> bool:
    # Cc: C0 and C1 controls (tab and newline too: one line each); Cf: format
    # characters (zero-width spaces and joiners, U+2060, U+FEFF, the soft hyphen,
    # bidirectional marks, embeddings, overrides and isolates); Cs: lone
    # surrogates; Co/Cn: private use and unassigned code points.
    if char in _INVISIBLE or "\ufe00" <= char <= "\ufe0f" or "\U000e0100" <= char <= "\U000e01ef":
        return False
    return unicodedata.category(char) not in ("Cc", "Cf", "Cs", "Co", "Cn")


#: The most combining marks kept on one letter: Vietnamese stacks two, Thai a vowel and a
#: tone mark, and three leaves room for any name; more only spill over the lines around it.
MARKS_PER_LETTER = 3


def clean_text(text: str, *, limit: int) -> str:
    """``text`` without control or escape sequences, on one line, at most ``limit`` characters.

    Whitespace runs (tabs and newlines included) become one space, and the
    result is stripped, so that a name cannot look empty yet be "different".
    Invisible characters go too (format characters such as U+200B, and the
    Hangul fillers), so that two texts that look alike are alike; so do the
    combining marks past `MARKS_PER_LETTER` on one letter.
    """
    text = _ESCAPES.sub("", text)
    text = "".join(c if _allowed(c) else (" " if c in "\t\n\r\x0b\x0c" else "") for c in text)
    text = _few_marks(" ".join(text.split()))
    return text[:limit].strip()


def _few_marks(text: str) -> str:
    """``text`` with at most `MARKS_PER_LETTER` combining marks after each letter."""
    if text.isascii():
        return text
    kept, marks = [], 0
    for char in text:
        if unicodedata.category(char) in ("Mn", "Me"):
            marks += 1
            if marks > MARKS_PER_LETTER:
                continue
        else:
            marks = 0
        kept.append(char)
    return "".join(kept)


def name_key(name: str) -> str:
    """The form in which two names are the same name: normalised (NFKC) and case-folded."""
    return unicodedata.normalize("NFKC", name.casefold())


def names_look_alike(first: str, second: str) -> bool:
    """Whether two names read as one on a screen, so that they cannot be two people at a table.

    They do when their `name_key` is the same, or when each letter of one is the other's
    letter in the same place or looks like it by Unicode's confusables data (UTS #39, as
    the ``confusable-homoglyphs`` package ships it): Cyrillic "Оbserver" is Latin "Observer".
    Two names in plain ASCII are compared by their keys alone: a terminal's font tells its
    letters apart, and a table of such names (every game against the computer) never loads
    the confusables data (about 30 ms on first use, measured after Textual is imported).
    """
    first, second = name_key(first), name_key(second)
    if first == second:
        return True
    if len(first) != len(second) or (first.isascii() and second.isascii()):
        return False
    return all(a == b or _look_alike(a, b) for a, b in zip(first, second, strict=True))


@lru_cache(maxsize=4096)  # bounded: the letters compared come from strangers
def _look_alike(first: str, second: str) -> bool:
    """Whether Unicode's confusables data says the letter ``first`` may be taken for ``second``."""
    # Imported here: its data is 900 KB of JSON, needed only once a name is not plain ASCII.
    from confusable_homoglyphs.confusables import confusables_data

    # The package wraps right-to-left letters in direction marks; the letters are what count.
    return any(found["c"].strip("\u200e\u200f") == other
               for letter, other in ((first, second), (second, first))
               for found in confusables_data.get(letter, ()))
