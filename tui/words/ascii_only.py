"""ASCII stand-ins for text, for terminals that mangle anything else: "capicú" reads "capicu".

Two uses: a sentence or a name in ASCII mode (`to_ascii`), and the app's last
line of defence, which rewrites every rendered character outside ASCII into
ASCII of the same width (``same_width=True``) so that nothing moves on screen.
No Textual here: the catalogue uses it before Textual loads.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

from rich.cells import cell_len

_LOOKS_LIKE = {
    "-": "─━═╌╍┄┅▔▁▂▃▄▅▆▇█—–",
    "|": "│┃║╎╏┆┇▏▎▍▌▋▊▉▐▕",
    "+": "┌┐└┘╭╮╰╯├┤┬┴┼╔╗╚╝╠╣╦╩╬┏┓┗┛┣┫┳┻╋",
    ">": "▶▸►→⏵❯»",
    "<": "◀◂◄←⏴❮«",
    "^": "▲▴↑",
    "v": "▼▾↓",
    ".": "·•…",
    "o": "●○◦◯",
    "'": "‘’´",
    '"': "“”",
}
_TABLE = {char: ascii for ascii, chars in _LOOKS_LIKE.items() for char in chars}

#: In a sentence, where the width may change: Spanish opening marks go, an ellipsis is three dots.
_IN_A_SENTENCE = str.maketrans({"¡": "", "¿": "", "…": "..."})


def _stand_in(char: str) -> str:
    """The ASCII that looks like ``char`` ("é" gives "e", "┌" gives "+"); "?" when none does."""
    found = _TABLE.get(char)
    if found is None:
        decomposed = unicodedata.normalize("NFKD", char)
        found = "".join(c for c in decomposed if c.isascii() and c.isprintable())
    return found or "?"


@lru_cache(maxsize=4096)
def _same_width(char: str) -> str:
    if char.isascii():
        return char
    width = cell_len(char)
    return _stand_in(char)[:width].ljust(width) if width else ""


def to_ascii(text: str, *, same_width: bool = False) -> str:
    """``text`` in ASCII: accents dropped, lines and arrows drawn with ASCII, anything else "?".

    ``same_width`` keeps every character's width on screen (a rendered line), else
    the text reads as a sentence ("¡Capicú!" gives "Capicu!").
    """
    if text.isascii():
        return text
    if same_width:
        return "".join(_same_width(char) for char in text)
    decomposed = unicodedata.normalize("NFKD", text.translate(_IN_A_SENTENCE))
    return "".join(
        char if char.isascii() else _stand_in(char)
        for char in decomposed
        if not unicodedata.combining(char)
    )
