"""Declared values as plain data and back (msgspec), and a refusal said in one sentence.

Every message of the protocol (net/protocol.py), every value of the engine that
travels inside one (events, views, rules, results) and the journal's records
(net/store/journal.py) are msgspec Structs: their types and limits are their
declarations (``Annotated[str, Meta(max_length=96)]``), and msgspec reads and
writes them. This module adds what msgspec cannot know: a tile travels as its
text (``"3-5"``) and an action as its own (``"play 3-5 left"``).

Reading is msgspec's: strict, since the data comes from another machine (5 is
not "5", a text is not a list of letters, True is not a number). Its
`msgspec.ValidationError` names the field as a path (``$.view.hand[0]``);
`sentence` says it in the protocol's words (``snapshot.view.hand[0]: ...``).
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any, TypeVar

import msgspec
from capicu.core import Action, Tile, parse_action

__all__ = ["plain", "read", "sentence"]

T = TypeVar("T")


def _write_hook(value: Any) -> Any:
    if isinstance(value, _TEXTS):
        return value.__str__()
    raise NotImplementedError(f"{type(value).__name__} is not part of the protocol")


#: The values written as their text.
_TEXTS = (Tile, Action)


def _read_hook(kind: type, value: Any) -> Any:
    # A ValueError or a TypeError here is msgspec's ValidationError, at the field's path.
    if kind is Tile:
        if type(value) is not str:
            raise TypeError("expected a tile, written as two numbers such as '3-5'")
        return Tile.parse(value)
    if kind is Action:
        if type(value) is not str:
            raise TypeError("expected an action's text, such as 'play 3-5 left', 'draw' or 'pass'")
        return _action(value)
    raise NotImplementedError(f"{kind.__name__} is not part of the protocol")


#: Actions are immutable values and a table says the same few texts again and again:
#: each is read once (a text that is no action is refused each time, never kept).
_action = lru_cache(maxsize=1024)(parse_action)


def plain(value: Any) -> Any:
    """``value`` as plain data: maps, lists (or tuples), texts, numbers, booleans and None."""
    return msgspec.to_builtins(value, enc_hook=_write_hook)


def read(data: Any, kind: type[T]) -> T:
    """The ``kind`` that plain ``data`` holds; `msgspec.ValidationError` if it does not fit."""
    return msgspec.convert(data, kind, dec_hook=_read_hook)


_AT = re.compile(r"(?P<problem>.*?)(?: - at `\$(?P<path>.*)`)?", re.DOTALL)
_MISSING = re.compile(r"Object missing required field `(?P<field>.*)`", re.DOTALL)
_UNKNOWN = re.compile(r"Object contains unknown field `(?P<field>.*)`", re.DOTALL)
_EXPECTED = re.compile(
    r"Expected `(?P<kind>[^`]+)`"
    r"(?: of length (?:(?P<length_bound><=|>=) )?(?P<length>\d+)| (?P<bound><=|>=|<|>) (?P<limit>\S+))?"
    r"(?:, got .*)?",
    re.DOTALL,
)
_NOT_ONE_OF = re.compile(r"Invalid (?:enum )?value (?P<value>.*)", re.DOTALL)
#: msgspec's names of the plain types, in the protocol's words.
_KINDS = {
    "str": "a text", "int": "a whole number", "float": "a number", "bool": "true or false",
    "array": "a list", "object": "a map", "null": "none",
}
_BOUNDS = {">=": "from {} up", "<=": "up to {}", ">": "above {}", "<": "below {}"}
#: A sentence stays short: it may quote the peer's own text.
_SENTENCE_LIMIT = 300


def sentence(error: msgspec.ValidationError, name: str) -> str:
    """What ``error`` found, said of the field where it is (``hello.name must be a text``).

    ``name`` is what the path starts from (a message's type, ``record``, ``rules``).
    """
    found = _AT.fullmatch(str(error))
    assert found is not None  # the pattern matches any text
    problem, path = found["problem"], name + (found["path"] or "")
    if missing := _MISSING.fullmatch(problem):
        return f"{path} needs the field {missing['field']!r}"
    if unknown := _UNKNOWN.fullmatch(problem):
        # A field name is the peer's text: cut short, as the host's error must stay short.
        return f"{path} has no field {unknown['field'][:40]!r}"
    if expected := _EXPECTED.fullmatch(problem):
        return f"{path} must be {_expected(expected)}"
    if not_one_of := _NOT_ONE_OF.fullmatch(problem):
        return f"{path} must be one of its values, not {not_one_of['value'][:40]}"
    # Our own words: a tile's or an action's text, a rule that cannot be played.
    return f"{path}: {problem}"[:_SENTENCE_LIMIT]


def _expected(expected: re.Match[str]) -> str:
    """What msgspec expected, as the protocol says it (``a text of at most 96 characters``)."""
    kind = " or ".join(_KINDS.get(part, part) for part in expected["kind"].split(" | "))
    if expected["length"] is not None:
        count = expected["length"]
        if kind == "a text":
            least = expected["length_bound"] == ">="
            return f"a text of at {'least' if least else 'most'} {count} characters"
        bound = {"<=": "at most ", ">=": "at least ", None: ""}[expected["length_bound"]]
        return f"{kind} of {bound}{count}"
    if expected["bound"] is not None:
        return f"{kind} {_BOUNDS[expected['bound']].format(expected['limit'])}"
    return kind
