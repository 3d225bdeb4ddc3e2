"""Codes the engine speaks in, each with the params it is said with; the interface words them.

After python-chess's ``Termination``: the engine names a thing with a code and
leaves the sentence to the caller, so a second language is one file of the
interface and never a change here. A code declares the names of its params,
and calling it makes a `Statement`, checked against them::

    RuleFact.RESERVE(count=2)      # Statement(code=RuleFact.RESERVE, params=(('count', 2),))

Params are plain values: numbers, tiles as their text ("6-6"), lists of
numbers as tuples, seats counted from 0 like `View.seat`.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from typing import Generic, Self, TypeVar

import msgspec

#: A param's value: a number, a text (a tile as "6-6"), or numbers in order.
Param = int | str | tuple[int, ...]

C = TypeVar("C", bound="Code")


class Code(StrEnum):
    """A code whose members are declared as ``NAME = "value", "param", ...``."""

    #: The names of the params a statement of this code carries, always all of them.
    params: frozenset[str]

    def __new__(cls, value: str, *params: str) -> Self:
        member = str.__new__(cls, value)
        member._value_ = value
        member.params = frozenset(params)
        return member

    def sentence(self, params: Mapping[str, int | str]) -> str:
        """The English sentence for programmers and logs (a code with its own words says them)."""
        return str(self.value)

    def __call__(self, **params: Param) -> Statement[Self]:
        """A statement of this code; its params must be exactly the declared ones."""
        if set(params) != self.params:
            raise ValueError(f"{self} is said with {sorted(self.params)}, not {sorted(params)}")
        return Statement(self, tuple(sorted(params.items())))


class Statement(msgspec.Struct, Generic[C], frozen=True):
    """A code with its params, for an interface to put into words."""

    code: C
    #: (name, value) pairs, sorted by name so that equal statements compare equal.
    params: tuple[tuple[str, Param], ...] = ()

    @property
    def values(self) -> dict[str, Param]:
        """The params as keyword arguments for a sentence's template."""
        return dict(self.params)


class Outcome(StrEnum):
    """How a round ended (the values travel on the wire)."""

    #: A player laid their last tile.
    DOMINO = "domino"
    #: Nobody can play and nobody can draw: the round is blocked.
    TRANQUE = "tranque"
