"""Small immutable values that cost nothing to define: `Record`.

A subclass declares its fields as a frozen dataclass does (annotations,
defaults, ``dataclasses.field(default_factory=...)``, ``ClassVar`` for
constants, ``__post_init__`` for checks), and gets the same behaviour: the
constructor, equality and hashing by value, a readable ``repr``, no
assignment after construction, ``__match_args__``.

Why not `dataclasses.dataclass`: it compiles six fresh methods for every
class, about half a millisecond each time a program starts. The network
messages and the interface's values are some thirty classes, all loaded
before the first table is drawn, which made them a tenth of `capicu play`'s
start. A `Record` class shares one set of methods instead; type checkers
read it as a dataclass (PEP 681). The engine's own values stay dataclasses:
they are made millions of times in a search, where generated code is faster.
"""

from __future__ import annotations

import dataclasses
import inspect
from collections.abc import Callable
from typing import Any, ClassVar, TypeVar, dataclass_transform

__all__ = ["Record", "fields", "replace"]

R = TypeVar("R", bound="Record")

_MUTABLE_DEFAULTS = (list, dict, set)


@dataclass_transform(frozen_default=True, field_specifiers=(dataclasses.field,))
class Record:
    """Base of a frozen value class; see the module's docstring."""

    __record_fields__: ClassVar[tuple[str, ...]] = ()
    #: Per field with a default: a function making it (a factory, or one returning the value).
    __record_defaults__: ClassVar[dict[str, Callable[[], Any]]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        names = list(cls.__record_fields__)
        defaults = dict(cls.__record_defaults__)
        for name, annotation in inspect.get_annotations(cls).items():
            if _is_class_var(annotation):
                continue
            if name not in names:
                names.append(name)
            if name in cls.__dict__:
                default = cls.__dict__[name]
                defaults[name] = _default_maker(cls, name, default)
                if isinstance(default, dataclasses.Field):
                    delattr(cls, name)
            elif defaults:
                raise TypeError(f"{cls.__name__}.{name} needs a default: the fields before it have one")
        cls.__record_fields__ = tuple(names)
        cls.__record_defaults__ = defaults
        cls.__match_args__ = tuple(names)  # type: ignore[attr-defined,misc]  # for `match`, as on a dataclass

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        cls = type(self)
        names = cls.__record_fields__
        if len(args) > len(names):
            raise TypeError(f"{cls.__name__}() takes {len(names)} arguments but {len(args)} were given")
        values = dict(zip(names, args, strict=False))
        for name in names[len(args):]:
            if name in kwargs:
                values[name] = kwargs.pop(name)
            elif name in cls.__record_defaults__:
                values[name] = cls.__record_defaults__[name]()
            else:
                raise TypeError(f"{cls.__name__}() is missing the argument {name!r}")
        if kwargs:
            name = next(iter(kwargs))
            problem = "got two values for" if name in values else "has no field"
            raise TypeError(f"{cls.__name__}() {problem} {name!r}")
        self.__dict__.update(values)
        post_init = getattr(self, "__post_init__", None)
        if post_init is not None:
            post_init()

    def _values(self) -> tuple[Any, ...]:
        return tuple([self.__dict__[name] for name in self.__record_fields__])

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, Record)
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={self.__dict__[name]!r}" for name in self.__record_fields__)
        return f"{type(self).__qualname__}({shown})"

    def __setattr__(self, name: str, value: Any) -> None:
        raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise dataclasses.FrozenInstanceError(f"cannot delete field {name!r}")


def fields(record: Record | type[Record]) -> tuple[str, ...]:
    """The names of a record's fields, in order."""
    return record.__record_fields__


def replace(record: R, **changes: Any) -> R:
    """A copy of ``record`` with some fields changed (checked again by ``__post_init__``)."""
    values = {name: record.__dict__[name] for name in record.__record_fields__}
    unknown = set(changes) - set(values)
    if unknown:
        raise TypeError(f"{type(record).__name__} has no field {sorted(unknown)[0]!r}")
    values.update(changes)
    return type(record)(**values)


def _is_class_var(annotation: object) -> bool:
    # Annotations are text under ``from __future__ import annotations``.
    if isinstance(annotation, str):
        return annotation.startswith(("ClassVar", "typing.ClassVar"))
    return getattr(annotation, "__origin__", None) is ClassVar or annotation is ClassVar


def _default_maker(cls: type, name: str, default: object) -> Callable[[], Any]:
    if isinstance(default, dataclasses.Field):
        if default.default_factory is not dataclasses.MISSING:
            return default.default_factory
        if default.default is dataclasses.MISSING:
            raise TypeError(f"{cls.__name__}: the field {name!r} needs a default or a default_factory")
        default = default.default
    if isinstance(default, _MUTABLE_DEFAULTS):
        raise TypeError(f"{cls.__name__}: the field {name!r} has a mutable default: use default_factory")
    return lambda: default
