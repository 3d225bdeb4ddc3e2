"""Text from the outside made safe to print on somebody else's terminal.

A name or a chat line travels from one player's keyboard to everyone else's
terminal. Escape sequences could move their cursor, retitle their window or
worse, and bidirectional overrides could make a line read differently from
what was typed; so the host removes all of them before anyone sees the text.
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

#: Bidirectional embeddings, overrides and isolates, and the invisible marks.
_BIDI = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c")


def _allowed(char: str) -> bool:
    if char in _BIDI:
        return False
    # Cc: C0 and C1 controls (tab and newline too: one line each); Cs: lone
    # surrogates; Co/Cn: private use and unassigned code points.
    return unicodedata.category(char) not in ("Cc", "Cs", "Co", "Cn")


def clean_text(text: str, *, limit: int) -> str:
    """``text`` without control or escape sequences, on one line, at most ``limit`` characters.

    Whitespace runs (tabs and newlines included) become one space, and the
    result is stripped, so that a name cannot look empty yet be "different".
    """
    text = _ESCAPES.sub("", text)
    text = "".join(c if _allowed(c) else (" " if c in "\t\n\r\x0b\x0c" else "") for c in text)
    text = " ".join(text.split())
    return text[:limit].strip()
