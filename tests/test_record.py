"""`Record` behaves as the frozen dataclass it stands in for."""

from __future__ import annotations

import copy
import pickle
from dataclasses import FrozenInstanceError, field
from typing import ClassVar

import pytest
from capicu.core.record import Record, fields, replace


class Point(Record):
    kind: ClassVar[str] = "point"
    x: int
    y: int = 0
    tags: tuple[str, ...] = field(default_factory=tuple)
    seen: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        if self.x < 0:
            raise ValueError("x must not be negative")


class Other(Record):
    x: int
    y: int = 0


def test_fields_in_order_without_class_variables():
    assert fields(Point) == ("x", "y", "tags", "seen")
    assert fields(Point(1)) == ("x", "y", "tags", "seen")
    assert Point.__match_args__ == ("x", "y", "tags", "seen")
    assert Point(1).kind == "point"


def test_construction_positional_keyword_and_defaults():
    assert Point(1, 2) == Point(x=1, y=2) == Point(1, y=2)
    p = Point(3)
    assert (p.x, p.y, p.tags, p.seen) == (3, 0, (), [])
    assert Point(1).seen is not Point(1).seen  # a factory makes a fresh value each time


@pytest.mark.parametrize(
    ("args", "kwargs", "problem"),
    [
        ((), {}, "missing the argument 'x'"),
        ((1, 2, (), [], 5), {}, "takes 4 arguments but 5 were given"),
        ((1,), {"z": 2}, "has no field 'z'"),
        ((1,), {"x": 2}, "got two values for 'x'"),
    ],
)
def test_wrong_arguments_say_what_is_wrong(args, kwargs, problem):
    with pytest.raises(TypeError, match=problem):
        Point(*args, **kwargs)


def test_post_init_checks():
    with pytest.raises(ValueError, match="negative"):
        Point(-1)
    with pytest.raises(ValueError, match="negative"):
        replace(Point(1), x=-1)


def test_equality_and_hash_by_value_and_type():
    assert Point(1, 2) != Point(1, 3)
    assert Other(1, 2) != Point(1, 2)  # the same values in another type are another value
    assert Other(1, 2) != (1, 2)
    assert hash(Other(1, 2)) == hash(Other(1, 2))
    assert len({Other(1, 2), Other(1, 2), Other(2, 1)}) == 2


def test_frozen():
    p = Other(1)
    with pytest.raises(FrozenInstanceError):
        p.x = 2  # type: ignore[misc]
    with pytest.raises(FrozenInstanceError):
        del p.x  # type: ignore[misc]
    assert p.x == 1


def test_repr_names_every_field():
    assert repr(Other(1, 2)) == "Other(x=1, y=2)"


def test_replace_and_its_errors():
    assert replace(Other(1, 2), y=5) == Other(1, 5)
    with pytest.raises(TypeError, match="has no field 'z'"):
        replace(Other(1), z=3)


def test_pickle_and_copy_keep_the_value():
    p = Point(1, 2, ("a",))
    assert pickle.loads(pickle.dumps(p)) == p
    assert copy.copy(p) == p and copy.deepcopy(p) == p


def test_match_by_position():
    match Other(4, 5):
        case Other(x, y):
            assert (x, y) == (4, 5)
        case _:
            pytest.fail("no match")


def test_class_definition_errors():
    with pytest.raises(TypeError, match="needs a default"):
        class Bad(Record):
            a: int = 1
            b: int

    with pytest.raises(TypeError, match="mutable default"):
        class Mutable(Record):
            items: list[int] = []  # noqa: RUF012


def test_subclass_extends_the_fields():
    class Point3(Other):
        z: int = 0

    assert fields(Point3) == ("x", "y", "z")
    assert Point3(1, 2, 3).z == 3
    assert Point3(1, 2, 3) != Other(1, 2)
