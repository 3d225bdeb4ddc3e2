"""Secrets a person reads aloud and types: join codes and seat keys.

Both are written in one alphabet of letters and digits that cannot be
mistaken for one another (no 0/O, 1/I/L), and compared ignoring case, spaces
and dashes, in constant time, so that how long a comparison takes says
nothing about how much of a guess was right.
"""

from __future__ import annotations

import hmac
import secrets
from collections.abc import Callable

#: A source of random bytes: ``entropy(n)`` gives ``n`` of them. A host passes
#: `secrets.token_bytes`; a test may pass a seeded one, and get the same secrets again.
Entropy = Callable[[int], bytes]

#: Letters and digits that cannot be mistaken for one another when read aloud.
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
#: Symbols in a seat key: 31**14 is about 2**69, past the 64 random bits asked of it.
SEAT_KEY_SYMBOLS = 14


def new_join_code(length: int = 6) -> str:
    """A random short join code, from `secrets`."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(length))


def new_seat_key(entropy: Entropy) -> str:
    """A random seat key in groups of four, such as ``K7PX-2MQR-HT4W-9CV``, from ``entropy``."""
    symbols = _symbols(SEAT_KEY_SYMBOLS, entropy)
    return "-".join(symbols[i : i + 4] for i in range(0, len(symbols), 4))


#: The bytes below this many pick a symbol evenly (``byte % 31``); the others are drawn again.
_EVEN = 256 - 256 % len(CODE_ALPHABET)


def _symbols(count: int, entropy: Entropy) -> str:
    """``count`` symbols of `CODE_ALPHABET`, each as likely as the others."""
    symbols: list[str] = []
    while len(symbols) < count:
        symbols.extend(CODE_ALPHABET[byte % len(CODE_ALPHABET)] for byte in entropy(count) if byte < _EVEN)
    return "".join(symbols[:count])


def normal_code(code: str) -> str:
    """``code`` without spaces and dashes, in capitals: the form that is compared."""
    return "".join(code.split()).replace("-", "").upper()


def same_code(given: str, expected: str) -> bool:
    """Whether ``given`` is ``expected``, ignoring case, spaces and dashes, in constant time."""
    return hmac.compare_digest(normal_code(given).encode(), normal_code(expected).encode())
