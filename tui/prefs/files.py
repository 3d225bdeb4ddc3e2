"""The game's own files (settings, themes, saved seats): read, checked by their declaration, written.

Each file is declared once as a `msgspec.Struct` whose annotations are the
schema and whose `Meta` annotations are the limits; `read_file` reads one
(size-limited, TOML or JSON), and `msgspec.convert` checks it against the
declaration. A file that does not fit is a `FileProblem`: one sentence, in the
interface's language, naming the field's path and what is wrong with it. The
caller says what happens then (defaults, a theme skipped, a seat forgotten).
Writing goes through the same declaration (`msgspec.to_builtins`) and a real
writer (`tomli_w`, `msgspec.json`), never by hand.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any, Literal, TypeVar

import msgspec
from capicu.tui.words.messages import N_, t

T = TypeVar("T")

Format = Literal["toml", "json"]


class FileProblem(ValueError):
    """A file cannot be used: ``str()`` is the reason, in words for the user."""


#: What msgspec calls each kind of value, in words (its messages name them like this: `str`).
_KINDS = {
    "str": N_("text"),
    "int": N_("a whole number"),
    "float": N_("a number"),
    "bool": N_("true or false"),
    "object": N_("a table"),
    "array": N_("a list"),
    "null": N_("nothing"),
}
_PATH = re.compile(r"^(?P<problem>.*?) - at `(?:(?P<key>key)` in `)?\$(?P<path>[^`]*)`+$")
#: A value of the wrong kind (of an optional field, msgspec says "`str | null`": the first is named).
_WRONG_KIND = re.compile(r"^Expected `(?P<kind>\w+)(?: \| \w+)*`, got `(?P<found>\w+)`$")
_TOO_LONG = re.compile(r"^Expected `(?:str|array|object)` of length <= (?P<limit>\d+)$")
_TOO_SHORT = re.compile(r"^Expected `(?:str|array|object)` of length >= (?P<limit>\d+)$")
_OUT_OF_RANGE = re.compile(r"^Expected `(?:int|float)` (?P<bound>[<>]=? \S+)$")
_UNKNOWN_FIELD = re.compile(r"^Object contains unknown field `(?P<field>[^`]*)`$")
_MISSING_FIELD = re.compile(r"^Object missing required field `(?P<field>[^`]*)`$")
_UNUSABLE = re.compile(r"^(?:Expected `str` matching regex .*|Invalid enum value .*)$")


def _kind(name: str) -> str:
    return t(_KINDS[name]) if name in _KINDS else name


def field_path(raw: str) -> str:
    """A msgspec path (``$.variables[...]``, ``$.seats[2].port``) as a person reads it."""
    return raw.removeprefix(".").replace("[...]", "")


def describe_invalid(error: msgspec.ValidationError) -> str:
    """msgspec's account of a value that does not fit its declaration, as a sentence naming the field.

    msgspec says it in English (``Expected `str`, got `int` - at `$.name```); this words the
    shapes it uses in the interface's language, and keeps its own words for any other.
    """
    text = str(error)
    found = _PATH.match(text)
    problem = found["problem"] if found else text
    field = field_path(found["path"]) if found else ""
    if found and found["key"]:
        # TRANSLATORS: {field} is a table in a file ("variables"); a key of it is not a usable name.
        return t("{field} has a name that cannot be used", field=field or t("the file"))
    shown = field or t("the file")
    if match := _UNKNOWN_FIELD.match(problem):
        name = ".".join(part for part in (field, match["field"]) if part)
        return t("it has an unknown setting {field}", field=repr(name[:64]))
    if match := _MISSING_FIELD.match(problem):
        name = ".".join(part for part in (field, match["field"]) if part)
        return t("it has no {field}", field=name)
    if match := _WRONG_KIND.match(problem):
        return t("{field} must be {kind}, not {found}", field=shown, kind=_kind(match["kind"]),
                 found=_kind(match["found"]))
    if match := _TOO_LONG.match(problem):
        return t("{field} is longer than {limit}", field=shown, limit=match["limit"])
    if match := _TOO_SHORT.match(problem):
        return t("{field} is shorter than {limit}", field=shown, limit=match["limit"])
    if match := _OUT_OF_RANGE.match(problem):
        return t("{field} must be {bound}", field=shown, bound=match["bound"])
    if _UNUSABLE.match(problem):
        return t("{field} has an unusable value", field=shown)
    # TRANSLATORS: {problem} is a check's own words (a colour that does not parse, in English).
    return t("{field}: {problem}", field=shown, problem=problem[:160])


def read_bytes(path: Path, limit: int) -> bytes:
    """The file's bytes; `FileProblem` when it is missing, not a file, unreadable or over ``limit``."""
    try:
        if not path.is_file():
            raise FileProblem(t("it cannot be read ({reason})", reason=t("not a regular file")))
        if path.stat().st_size > limit:
            raise FileProblem(t("it is larger than {limit} bytes", limit=limit))
        with path.open("rb") as handle:
            raw = handle.read(limit + 1)
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__
        raise FileProblem(t("it cannot be read ({reason})", reason=reason)) from None
    if len(raw) > limit:  # it grew since stat()
        raise FileProblem(t("it is larger than {limit} bytes", limit=limit))
    return raw


def parse(raw: bytes, kind: Format) -> Any:
    """Plain data from a file's bytes (TOML through `tomllib`, JSON through msgspec); or `FileProblem`."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise FileProblem(t("it is not valid {format} ({reason})", format=kind.upper(),
                            reason=t("not UTF-8 text"))) from None
    try:
        return tomllib.loads(text) if kind == "toml" else msgspec.json.decode(raw)
    except (tomllib.TOMLDecodeError, msgspec.DecodeError, RecursionError, ValueError) as exc:
        raise FileProblem(t("it is not valid {format} ({reason})", format=kind.upper(),
                            reason=str(exc)[:120])) from None


def checked(data: Any, declaration: type[T]) -> T:
    """``data`` as a ``declaration`` value; `FileProblem` names the field that does not fit."""
    try:
        return msgspec.convert(data, declaration)
    except msgspec.ValidationError as exc:
        raise FileProblem(describe_invalid(exc)) from None


def read_file(path: Path, declaration: type[T], *, kind: Format = "toml", limit: int) -> T:
    """The value a file holds, checked against ``declaration``; `FileProblem` says what is wrong."""
    return checked(parse(read_bytes(path, limit), kind), declaration)


def to_toml(value: msgspec.Struct, *, comment: str = "") -> str:
    """A declared value as TOML text (``comment``, if any, as its first line).

    TOML has no null: a field that is None is left out, which reads back as None.
    """
    fields = {name: item for name, item in msgspec.to_builtins(value).items() if item is not None}
    import tomli_w  # only to write a file: most starts write none

    text = tomli_w.dumps(fields)
    return f"# {comment}\n{text}" if comment else text
