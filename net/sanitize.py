"""Text from the outside made safe to print on somebody else's terminal.

A name or a chat line travels from one player's keyboard to everyone else's
terminal. Escape sequences could move their cursor, retitle their window or
worse, and bidirectional overrides could make a line read differently from
what was typed, and invisible characters could make two names that look the
same differ; so the host removes all of them before anyone sees the text.
"""

from __future__ import annotations

import re
import unicodedata

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


def clean_text(text: str, *, limit: int) -> str:
    """``text`` without control or escape sequences, on one line, at most ``limit`` characters.

    Whitespace runs (tabs and newlines included) become one space, and the
    result is stripped, so that a name cannot look empty yet be "different".
    Invisible characters go too (format characters such as U+200B, and the
    Hangul fillers), so that two texts that look alike are alike.
    """
    text = _ESCAPES.sub("", text)
    text = "".join(c if _allowed(c) else (" " if c in "\t\n\r\x0b\x0c" else "") for c in text)
    text = " ".join(text.split())
    return text[:limit].strip()
