"""Declared values as plain data and back: the converter behind the protocol (cattrs).

Each message of the protocol (net/protocol.py), and each value of the engine
that travels inside one (tiles, actions, events, views, rules, results), is
declared once as a dataclass. This module derives the plain form msgpack
carries (maps, lists, texts, numbers) from those declarations, and reads it
back. Limits are part of a declaration: ``Annotated[str, Text(96)]`` is a
text of at most 96 characters, ``Annotated[int, Whole(0, 3)]`` a seat.

Reading is strict, since the data comes from another machine: a value must
be of its declared type (cattrs' own hooks would turn 5 into "5" and a text
into a list of letters), and the first problem found is said in one
sentence naming the field (``hello.name must be a text of at most 96
characters``). A `Schema` that is ``strict`` also refuses fields that the
declaration does not have; the other ignores them.

This module is written without ``from __future__ import annotations`` on
purpose, as is net/protocol.py: cattrs reads dataclasses' annotations with
``typing.get_type_hints``, which drops ``Annotated`` limits from annotations
kept as text.
"""

import dataclasses
import functools
import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from types import UnionType
from typing import Annotated, Any, TypeVar, Union, get_args, get_origin

from capicu.core import Action, Draw, Event, Pass, Play, Tile, View, parse_action
from cattrs.errors import (
    AttributeValidationNote,
    BaseValidationError,
    ForbiddenExtraKeysError,
    IterableValidationError,
    IterableValidationNote,
)
from cattrs.fns import identity
from cattrs.gen import make_dict_structure_fn, make_dict_unstructure_fn, override
from cattrs.preconf.msgpack import MsgpackConverter, make_converter

__all__ = ["Invalid", "Schema", "Span", "Text", "Whole", "event_tag"]

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Text:
    """The limit of a text field: at most ``limit`` characters."""

    limit: int


@dataclass(frozen=True, slots=True)
class Whole:
    """The limits of a whole-number field: from ``low`` to ``high``, both included."""

    low: int
    high: int


@dataclass(frozen=True, slots=True)
class Span:
    """The limits of a number field (seconds): from ``low`` to below ``high``; a whole number will do."""

    low: float
    high: float


class Invalid(ValueError):
    """Plain data that does not match its declaration; the text names the field and the problem."""


class _Broken(ValueError):
    """A value breaks its field's declaration; the text says what it must be ("must be ...")."""


def event_tag(kind: type) -> str:
    """An event's ``type`` on the wire: its class's name in snake case (``TilePlayed``: ``tile_played``)."""
    return re.sub(r"(?<!^)(?=[A-Z])", "_", kind.__name__).lower()


_EVENTS: dict[str, type] = {event_tag(kind): kind for kind in get_args(Event)}


class Schema:
    """Declared values to plain data and back; ``strict``: refuse fields a declaration lacks."""

    def __init__(self, *, strict: bool) -> None:
        self.strict = strict

    @functools.cached_property
    def _converter(self) -> MsgpackConverter:
        # Made on first use, as cattrs makes each type's code on first use: a program
        # pays for the schemas and types it uses (the journal's, an event's), when it does.
        return _converter(self.strict)

    def plain(self, value: Any) -> Any:
        """``value`` as plain data: maps, lists, texts, numbers, booleans and None."""
        return self._converter.unstructure(value)

    def read(self, data: Any, kind: type[T], path: str) -> T:
        """The ``kind`` that ``data`` holds; `Invalid` naming the field (from ``path``) if it does not fit."""
        try:
            return self._converter.structure(data, kind)
        except (BaseValidationError, _Broken, ValueError, TypeError, KeyError) as exc:
            raise Invalid(_sentence(exc, path)) from None


# -- reading: one sentence for the first problem ---------------------------------------


def _sentence(exc: BaseException, path: str) -> str:
    """What is wrong, said of the field where it is: cattrs notes the way down on each error."""
    while isinstance(exc, BaseValidationError):
        inner = exc.exceptions[0]
        step = ""
        for note in getattr(inner, "__notes__", ()):
            if isinstance(note, AttributeValidationNote):
                step = f".{note.name}"
            elif isinstance(note, IterableValidationNote):
                step = f"[{note.index}]"
        if isinstance(inner, KeyError) and step.startswith("."):
            return f"{path} needs the field {step[1:]!r}"
        path += step
        exc = inner
    if isinstance(exc, ForbiddenExtraKeysError):
        # A field name is the peer's text: cut short, as the host's error must stay short.
        return f"{path} has no field {sorted(exc.extra_fields)[0][:40]!r}"
    if isinstance(exc, _Broken):
        return f"{path} {exc}"
    return f"{path}: {exc}"


# -- the converter -------------------------------------------------------------------


def _limit(annotation: Any, marker: type) -> Any:
    """The ``marker`` (Text, Whole or Span) among ``annotation``'s metadata, or None."""
    if get_origin(annotation) is not Annotated:
        return None
    return next((m for m in annotation.__metadata__ if isinstance(m, marker)), None)


def _exact(kind: type, what: str) -> Callable[[Any, Any], Any]:
    # The type itself, not a subclass: True is an int to Python, not to the wire.
    def structure(value: Any, _: Any) -> Any:
        if type(value) is not kind:
            raise _Broken(f"must be {what}")
        return value

    return structure


def _string(value: Any, _: Any) -> str:
    # A str enum's member is a text too (values read back in the same process).
    if not isinstance(value, str):
        raise _Broken("must be a text")
    return value


def _text(annotation: Any) -> Callable[[Any, Any], str]:
    limit = _limit(annotation, Text).limit

    def structure(value: Any, _: Any) -> str:
        if not isinstance(value, str):
            raise _Broken("must be a text")
        if len(value) > limit:
            raise _Broken(f"must be at most {limit} characters long, not {len(value)}")
        return value

    return structure


def _whole(annotation: Any) -> Callable[[Any, Any], int]:
    bounds = _limit(annotation, Whole)
    low, high = bounds.low, bounds.high

    def structure(value: Any, _: Any) -> int:
        if type(value) is not int or not low <= value <= high:
            raise _Broken(f"must be a whole number from {low} to {high}")
        return value

    return structure


def _span(annotation: Any) -> Callable[[Any, Any], float]:
    bounds = _limit(annotation, Span)
    low, high = bounds.low, bounds.high

    def structure(value: Any, _: Any) -> float:
        if type(value) not in (int, float) or not low <= value < high:  # NaN fails the comparison
            raise _Broken(f"must be a number of seconds from {low:g} up to {high:g}")
        return float(value)

    return structure


def _number(value: Any, _: Any) -> float:
    if type(value) not in (int, float) or not math.isfinite(value):
        raise _Broken("must be a number")
    return float(value)


def _is_tuple(kind: Any) -> bool:
    return get_origin(kind) is tuple


def _tuple(converter: MsgpackConverter, kind: Any) -> Callable[[Any, Any], tuple[Any, ...]]:
    """Tuples come as lists, and only as lists (a text is not a list of letters)."""
    args = get_args(kind)
    if len(args) == 2 and args[1] is Ellipsis:
        items = [args[0]]
        fixed = None
    else:
        items, fixed = list(args), len(args)
    hooks = [converter.get_structure_hook(item) for item in items]

    def structure(value: Any, _: Any) -> tuple[Any, ...]:
        if type(value) is not list:
            raise _Broken("must be a list")
        if fixed is not None and len(value) != fixed:
            raise _Broken(f"must be a list of {fixed}")
        out = []
        for index, item in enumerate(value):
            slot = 0 if fixed is None else index
            try:
                out.append(hooks[slot](item, items[slot]))
            except Exception as exc:
                exc.add_note(IterableValidationNote(f"@ index {index}", index, items[slot]))
                raise IterableValidationError("while reading a list", [exc], kind) from None
        return tuple(out)

    return structure


def _tuple_out(converter: MsgpackConverter, kind: Any) -> Callable[[Any], list[Any]]:
    args = get_args(kind)
    if len(args) == 2 and args[1] is Ellipsis:
        hook = converter.get_unstructure_hook(args[0])
        if hook is identity:
            return list
        return lambda value: [hook(item) for item in value]
    hooks = [converter.get_unstructure_hook(item) for item in args]
    if all(hook is identity for hook in hooks):
        return list
    return lambda value: [hook(item) for hook, item in zip(hooks, value, strict=True)]


def _is_optional(kind: Any) -> bool:
    args = get_args(kind)
    return get_origin(kind) in (Union, UnionType) and len(args) == 2 and type(None) in args


def _optional_out(converter: MsgpackConverter, kind: Any) -> Callable[[Any], Any]:
    (inner,) = (item for item in get_args(kind) if item is not type(None))
    hook = converter.get_unstructure_hook(inner)
    if hook is identity:
        return identity
    return lambda value: None if value is None else hook(value)


def _is_enum(kind: Any) -> bool:
    return isinstance(kind, type) and issubclass(kind, Enum)


def _enum(kind: type[Enum]) -> Callable[[Any, Any], Enum]:
    values = {member.value: member for member in kind}
    choices = ", ".join(repr(v) for v in values)

    def structure(value: Any, _: Any) -> Enum:
        if not isinstance(value, str) or value not in values:
            raise _Broken(f"must be one of {choices}")
        return values[value]

    return structure


def _is_map(kind: Any) -> bool:
    return dataclasses.is_dataclass(kind) and isinstance(kind, type)


def _map(converter: MsgpackConverter, kind: type, strict: bool) -> Callable[[Any, Any], Any]:
    """A dataclass from a map (and only a map), by cattrs' generated code."""
    generated: Callable[[Any, Any], Any] = make_dict_structure_fn(
        kind, converter, _cattrs_forbid_extra_keys=strict
    )

    def structure(value: Any, _: Any) -> Any:
        if type(value) is not dict:
            raise _Broken("must be a map")
        return generated(value, kind)

    return structure


def _tile(value: Any, _: Any) -> Tile:
    if not isinstance(value, str):
        raise _Broken("must be a tile, written as two numbers such as '3-5'")
    return Tile.parse(value)


def _action(value: Any, _: Any) -> Action:
    if not isinstance(value, str):
        raise _Broken("must be an action's text, such as 'play 3-5 left', 'draw' or 'pass'")
    return parse_action(value)


def _converter(strict: bool) -> MsgpackConverter:
    # Tuples are written as lists: what msgpack reads back, and what plain data compares to.
    converter = make_converter(
        detailed_validation=True, forbid_extra_keys=strict, unstruct_collection_overrides={tuple: list}
    )
    converter.register_structure_hook(str, _string)
    converter.register_structure_hook(int, _exact(int, "a whole number"))
    converter.register_structure_hook(bool, _exact(bool, "true or false"))
    converter.register_structure_hook(float, _number)
    converter.register_structure_hook_factory(_is_map, lambda kind: _map(converter, kind, strict))
    converter.register_structure_hook_factory(_is_enum, _enum)
    # (A str enum's member stays as it is in plain data: msgpack and json write it as its text.)
    converter.register_structure_hook_factory(_is_tuple, lambda kind: _tuple(converter, kind))
    converter.register_structure_hook_factory(lambda t: _limit(t, Text) is not None, _text)
    converter.register_structure_hook_factory(lambda t: _limit(t, Whole) is not None, _whole)
    converter.register_structure_hook_factory(lambda t: _limit(t, Span) is not None, _span)

    converter.register_structure_hook(Tile, _tile)
    converter.register_unstructure_hook(Tile, str)
    converter.register_structure_hook(Action, _action)
    converter.register_unstructure_hook(Action, str)
    for action in (Play, Draw, Pass):
        converter.register_unstructure_hook(action, str)
    # A host writes every seat's view after every move: tuples and optional values
    # by hooks looked up once per type rather than by cattrs' general ones.
    converter.register_unstructure_hook_factory(_is_tuple, lambda kind: _tuple_out(converter, kind))
    converter.register_unstructure_hook_factory(_is_optional, lambda kind: _optional_out(converter, kind))

    # Events travel as maps told apart by their "type", which comes first.
    def structure_event(value: Any, _: Any) -> Any:
        if type(value) is not dict:
            raise _Broken("must be a map")
        kind = _EVENTS.get(value.get("type"))  # type: ignore[arg-type]  # any value: a miss is None
        if kind is None:
            raise _Broken(f"must have an event type ({', '.join(_EVENTS)})")
        return converter.structure({k: v for k, v in value.items() if k != "type"}, kind)

    converter.register_structure_hook(Event, structure_event)
    event_kinds = frozenset(_EVENTS.values())

    def event_hook(kind: type) -> Callable[[Any], dict[str, Any]]:
        return _tagged(event_tag(kind), make_dict_unstructure_fn(kind, converter))

    converter.register_unstructure_hook_factory(lambda t: t in event_kinds, event_hook)
    by_class: dict[type, Callable[[Any], dict[str, Any]]] = {}

    def unstructure_event(event: Any) -> dict[str, Any]:
        hook = by_class.get(type(event))
        if hook is None:
            hook = by_class[type(event)] = converter.get_unstructure_hook(type(event))
        return hook(event)

    converter.register_unstructure_hook(Event, unstructure_event)

    # A view's changing fields first, the rules before them, the round's events and
    # the results after: the order of protocol version 2.
    def view_hook(_: type) -> Callable[[View], dict[str, Any]]:
        state = make_dict_unstructure_fn(
            View, converter,
            rules=override(omit=True), events=override(omit=True), results=override(omit=True),
        )
        rest = converter.unstructure

        def unstructure_view(view: View) -> dict[str, Any]:
            return {
                "rules": rest(view.rules), **state(view), "events": rest(view.events, tuple[Event, ...]),
                "results": rest(view.results),
            }

        return unstructure_view

    converter.register_unstructure_hook_factory(lambda t: t is View, view_hook)
    return converter


def _tagged(tag: str, fields: Callable[[Any], dict[str, Any]]) -> Callable[[Any], dict[str, Any]]:
    def unstructure(value: Any) -> dict[str, Any]:
        return {"type": tag, **fields(value)}

    return unstructure

