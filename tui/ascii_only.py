"""ASCII mode's last line of defence: a Textual line filter that leaves only ASCII on screen.

The widgets already draw tiles and borders in ASCII when asked, but a name
("José"), a word of the catalogue ("capicú") or a glyph inside a Textual widget
would still reach a terminal that mangles anything else. This filter rewrites
every character outside ASCII into ASCII of the same width, after everything
else has rendered, so the promise holds for every screen.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

from rich.cells import cell_len
from rich.segment import Segment
from textual.color import Color
from textual.filter import LineFilter

_LOOKS_LIKE = {
    "-": "─━═╌╍┄┅▔▁▂▃▄▅▆▇█",
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


@lru_cache(maxsize=4096)
def ascii_of(char: str) -> str:
    """``char`` as ASCII text of the same cell width (``?`` when nothing fits better)."""
    width = cell_len(char)
    if char.isascii():
        return char
    found = _TABLE.get(char)
    if found is None:
        decomposed = unicodedata.normalize("NFKD", char)
        found = "".join(c for c in decomposed if c.isascii() and c.isprintable())
    if not found:
        found = "?"
    return found[:width].ljust(width) if width else ""


def to_ascii(text: str) -> str:
    """Every character of ``text`` in ASCII, each keeping its width on screen."""
    if text.isascii():
        return text
    return "".join(ascii_of(char) for char in text)


class AsciiOnly(LineFilter):
    """Replace what is not ASCII in each rendered line (styles untouched)."""

    def apply(self, segments: list[Segment], background: Color) -> list[Segment]:
        if all(segment.text.isascii() for segment in segments):
            return segments
        return [
            segment if segment.text.isascii() or segment.control
            else Segment(to_ascii(segment.text), segment.style, segment.control)
            for segment in segments
        ]
