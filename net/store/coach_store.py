"""The coach's analyses kept beside a match record, so a second look is instant.

``FILE.coach`` beside the record ``FILE`` holds, per seat, one `Analysis`
(core/ai/coach.py) as msgpack, declared once by the Structs below (msgspec
derives the encoding and the checks). It carries the coach's version and a
digest of the record's bytes: an analysis made by another coach, or of a
record since replaced, is not returned, and so is computed again. A cache that
cannot be read (damaged, cut short, another format) is ignored in the same
way: it is a cache, never a reason to fail.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import msgspec
from capicu.core.actions import parse_action
from capicu.core.ai.coach import COACH_VERSION, Analysis, ChoiceValue, CoachReason, Decision
from capicu.core.codes import Param
from msgspec import Struct

#: The cache's own file format (the coach's version is `COACH_VERSION`, kept apart).
STORE_FORMAT = "capicu-coach/1"
#: A cache larger than this is not read (a 16-round match's analysis is a few tens of kB).
MAX_CACHE_BYTES = 16 * 1024 * 1024
SUFFIX = ".coach"


class _Choice(Struct, array_like=True, frozen=True):
    action: str
    expected: float
    cost: float


class _Decision(Struct, frozen=True):
    position: int
    round_number: int
    seat: int
    chosen: str
    choices: list[_Choice]
    cost: float
    flagged: bool
    reason: str | None = None
    reason_params: list[tuple[str, int | str | list[int]]] = []
    leads: bool = False


class _Analysis(Struct, frozen=True):
    seat: int
    threshold: float
    decisions: list[_Decision]
    given_away_by_round: list[float]
    #: The costliest decisions by their positions.
    costliest: list[int]


class _Store(Struct, frozen=True):
    format: str
    coach: int
    #: blake2b of the record's bytes, hex.
    record: str
    #: By seat.
    analyses: dict[int, _Analysis] = {}


def cache_path(record_path: Path) -> Path:
    """Where the analyses of ``record_path`` are kept: beside it, ``FILE.coach``."""
    return record_path.with_name(record_path.name + SUFFIX)


def _record_digest(record_path: Path) -> str:
    return hashlib.blake2b(record_path.read_bytes(), digest_size=16).hexdigest()


def _param(value: int | str | list[int]) -> Param:
    return tuple(value) if isinstance(value, list) else value


def _to_plain(analysis: Analysis) -> _Analysis:
    return _Analysis(
        seat=analysis.seat,
        threshold=analysis.threshold,
        decisions=[
            _Decision(
                position=d.position, round_number=d.round_number, seat=d.seat, chosen=str(d.chosen),
                choices=[_Choice(str(c.action), c.expected, c.cost) for c in d.choices],
                cost=d.cost, flagged=d.flagged, reason=None if d.reason is None else str(d.reason),
                reason_params=[(name, list(v) if isinstance(v, tuple) else v) for name, v in d.reason_params],
                leads=d.leads,
            )
            for d in analysis.decisions
        ],
        given_away_by_round=list(analysis.given_away_by_round),
        costliest=[d.position for d in analysis.costliest],
    )


def _from_plain(plain: _Analysis) -> Analysis:
    """The analysis kept; raises ValueError where a value is not one the coach makes."""
    decisions = tuple(
        Decision(
            position=d.position, round_number=d.round_number, seat=d.seat, chosen=parse_action(d.chosen),
            choices=tuple(ChoiceValue(parse_action(c.action), c.expected, c.cost) for c in d.choices),
            cost=d.cost, flagged=d.flagged, reason=None if d.reason is None else CoachReason(d.reason),
            reason_params=tuple((name, _param(v)) for name, v in d.reason_params),
            leads=d.leads,
        )
        for d in plain.decisions
    )
    if any(not d.choices for d in decisions):
        raise ValueError("a decision without choices")
    by_position = {d.position: d for d in decisions}
    costliest = tuple(by_position[p] for p in plain.costliest)  # KeyError: not one of them
    return Analysis(plain.seat, decisions, tuple(plain.given_away_by_round), costliest, plain.threshold)


def _read_store(path: Path) -> _Store | None:
    try:
        if path.stat().st_size > MAX_CACHE_BYTES:
            return None
        store = msgspec.msgpack.decode(path.read_bytes(), type=_Store)
    except (OSError, msgspec.DecodeError, msgspec.ValidationError):
        return None
    if store.format != STORE_FORMAT or store.coach != COACH_VERSION:
        return None
    return store


def load_analysis(record_path: Path, seat: int) -> Analysis | None:
    """The kept analysis of ``seat`` in the record, or None (none kept, stale, or damaged: analyse again)."""
    store = _read_store(cache_path(record_path))
    if store is None:
        return None
    try:
        if store.record != _record_digest(record_path):
            return None
        plain = store.analyses.get(seat)
        return None if plain is None else _from_plain(plain)
    except (OSError, ValueError, KeyError):
        return None


def save_analysis(record_path: Path, analysis: Analysis) -> None:
    """Keep ``analysis`` beside the record (atomically: a reader sees the old file or the new one).

    Analyses of other seats already kept for the same record stay. Raises OSError when the
    folder cannot be written (the caller may ignore it: the analysis is only cached).
    """
    path = cache_path(record_path)
    digest = _record_digest(record_path)
    kept = _read_store(path)
    analyses = dict(kept.analyses) if kept is not None and kept.record == digest else {}
    analyses[analysis.seat] = _to_plain(analysis)
    store = _Store(format=STORE_FORMAT, coach=COACH_VERSION, record=digest, analyses=analyses)
    temporary = path.with_name(path.name + ".tmp")
    temporary.write_bytes(msgspec.msgpack.encode(store))
    os.replace(temporary, path)


__all__ = ["MAX_CACHE_BYTES", "STORE_FORMAT", "cache_path", "load_analysis", "save_analysis"]
