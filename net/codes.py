"""Secrets a person reads aloud and types: join codes and seat keys.

Both are written in one alphabet of letters and digits that cannot be
mistaken for one another (no 0/O, 1/I/L), and compared ignoring case, spaces
and dashes, in constant time, so that how long a comparison takes says
nothing about how much of a guess was right.
"""

from __future__ import annotations

import hmac
import secrets

#: Letters and digits that cannot be mistaken for one another when read aloud.
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
#: Symbols in a seat key: 31**14 is about 2**69, past the 64 random bits asked of it.
SEAT_KEY_SYMBOLS = 14


def new_join_code(length: int = 6) -> str:
    """A random short join code, from `secrets`."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(length))


def new_seat_key() -> str:
    """A random seat key in groups of four, such as ``K7PX-2MQR-HT4W-9CV``."""
    symbols = "".join(secrets.choice(CODE_ALPHABET) for _ in range(SEAT_KEY_SYMBOLS))
    return "-".join(symbols[i : i + 4] for i in range(0, len(symbols), 4))


def normal_code(code: str) -> str:
    """``code`` without spaces and dashes, in capitals: the form that is compared."""
    return "".join(code.split()).replace("-", "").upper()


def same_code(given: str, expected: str) -> bool:
    """Whether ``given`` is ``expected``, ignoring case, spaces and dashes, in constant time."""
    return hmac.compare_digest(normal_code(given).encode(), normal_code(expected).encode())
