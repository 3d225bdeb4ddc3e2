"""One msgpack value read under limits: the wire's frames and the stored match records share it.

Bytes from another machine or from a file somebody may have changed are read
with the most they may hold said before anything is decoded: how many bytes,
how many items a list or a map may hold, how deeply they may nest. Nothing we
write uses binary data or msgpack's extension types, so neither is read. What
is wrong comes back as one `Unreadable` carrying its `Flaw`, a code: the codec
(net/codec.py) says it as a frame's problem, the record (net/store/record.py) as a
file's, each in its own words.
"""

from __future__ import annotations

from enum import Enum
from typing import Any

import msgpack
import msgspec

from .limits import MAX_DEPTH

__all__ = ["Flaw", "UnpackLimits", "Unreadable", "unpack"]


class Flaw(Enum):
    """What keeps bytes from being one msgpack value within the limits."""

    EMPTY = "empty"
    TOO_LARGE = "too_large"
    #: Not msgpack at all (or a map keyed by something other than texts).
    NOT_MSGPACK = "not_msgpack"
    #: The bytes end inside a value.
    CUT_SHORT = "cut_short"
    #: More bytes follow the one value (`Unreadable.first` holds it).
    EXTRA_DATA = "extra_data"
    #: A text that is not valid UTF-8.
    NOT_UTF8 = "not_utf8"
    #: A list or a map holds more than `UnpackLimits.max_items` items.
    TOO_MANY_ITEMS = "too_many_items"
    #: Lists and maps nest deeper than `UnpackLimits.max_depth` levels.
    TOO_DEEP = "too_deep"
    BINARY = "binary"
    EXTENSION = "extension"


class Unreadable(ValueError):
    """The bytes are not one msgpack value within the limits: ``flaw`` says why."""

    def __init__(self, flaw: Flaw, limits: UnpackLimits, first: Any = None) -> None:
        super().__init__(flaw.value)
        self.flaw = flaw
        self.limits = limits
        #: The value the bytes begin with, when more bytes follow it (`Flaw.EXTRA_DATA`).
        self.first = first


class UnpackLimits(msgspec.Struct, frozen=True):
    """The most one value may hold: bytes, items in one list or map, levels of nesting."""

    max_bytes: int
    max_items: int
    max_depth: int = MAX_DEPTH


def unpack(data: bytes, limits: UnpackLimits) -> Any:
    """The one msgpack value ``data`` holds (maps keyed by texts, lists as lists); `Unreadable` if
    it holds anything else, or more than ``limits`` allow."""
    if not data:
        raise Unreadable(Flaw.EMPTY, limits)
    if len(data) > limits.max_bytes:
        raise Unreadable(Flaw.TOO_LARGE, limits)

    try:
        value = msgpack.unpackb(
            data, raw=False, strict_map_key=True, use_list=True, ext_hook=_no_extension,
            max_str_len=len(data), max_bin_len=0, max_array_len=limits.max_items,
            max_map_len=limits.max_items, max_ext_len=0,
        )
    except _Extension:
        raise Unreadable(Flaw.EXTENSION, limits) from None
    except UnicodeDecodeError:
        raise Unreadable(Flaw.NOT_UTF8, limits) from None
    except msgpack.ExtraData as extra:
        raise Unreadable(Flaw.EXTRA_DATA, limits, extra.unpacked) from None
    except msgpack.StackError:
        raise Unreadable(Flaw.TOO_DEEP, limits) from None
    except (ValueError, TypeError, OverflowError, msgpack.UnpackException) as exc:
        raise Unreadable(_flaw(exc), limits) from None
    _check_plain(value, limits)
    return value


class _Extension(Exception):
    """An extension type was met (its hook cannot know the limits to say so)."""


def _no_extension(code: int, body: bytes) -> Any:
    raise _Extension


def _flaw(exc: BaseException) -> Flaw:
    """What msgpack's own error means (it says it in words only)."""
    text = str(exc)
    if isinstance(exc, msgpack.OutOfData) or "incomplete" in text.lower():
        return Flaw.CUT_SHORT
    if "max_ext_len" in text:
        return Flaw.EXTENSION
    if "max_bin_len" in text:
        return Flaw.BINARY
    if "exceeds max_" in text:
        return Flaw.TOO_MANY_ITEMS
    return Flaw.NOT_MSGPACK


def _check_plain(value: Any, limits: UnpackLimits) -> None:
    """Refuse nesting deeper than the limits, and binary data (an empty one gets past msgpack's limit)."""
    kind = type(value)
    if kind is bytes:
        raise Unreadable(Flaw.BINARY, limits)
    if kind is not dict and kind is not list:
        return
    max_depth = limits.max_depth
    stack = [(value, 1)]
    while stack:
        container, depth = stack.pop()
        if depth > max_depth:
            raise Unreadable(Flaw.TOO_DEEP, limits)
        for item in container.values() if type(container) is dict else container:
            kind = type(item)
            if kind is dict or kind is list:
                stack.append((item, depth + 1))
            elif kind is bytes:
                raise Unreadable(Flaw.BINARY, limits)
