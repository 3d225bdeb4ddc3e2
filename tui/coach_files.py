"""The coach's analyses kept beside the record they judge, so that a second look is instant.

A stand-in until the coach's own ``load_analysis``/``save_analysis`` land (the
same names and calls: the replay imports them from here, one line to change).
The file sits beside the record (``<record>.coach-<seat>``); it holds the
coach's version and the record's digest, so an analysis of another record or
of an older coach is made again, never shown.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
from pathlib import Path
from typing import Any

import msgspec
from capicu.core.actions import Action, parse_action
from capicu.core.ai.coach import COACH_VERSION, Analysis, CoachReason
from capicu.core.replay import Replay

#: The largest analysis file read (a long Mexican Train match's is a few hundred KB).
MAX_ANALYSIS_BYTES = 4_000_000


class _Kept(msgspec.Struct, frozen=True):
    coach: int
    record: str
    analysis: Analysis


def _enc(value: object) -> Any:
    if isinstance(value, Action):
        return str(value)  # an action is kept as its text ("play 3-5 left"), as the log keeps it
    raise NotImplementedError(type(value).__name__)


def _dec(kind: type, value: object) -> Any:
    if kind is Action and isinstance(value, str):
        return parse_action(value)
    raise NotImplementedError(kind.__name__)


_ENCODER = msgspec.msgpack.Encoder(enc_hook=_enc)
_DECODER = msgspec.msgpack.Decoder(_Kept, dec_hook=_dec)


def analysis_path(record: Path, seat: int) -> Path:
    return record.with_name(f"{record.name}.coach-{seat}")


def _digest(record: Path) -> str:
    return hashlib.sha256(record.read_bytes()).hexdigest()


def load_analysis(record: Path, seat: int, replay: Replay | None = None) -> Analysis | None:
    """The analysis of ``seat`` kept beside ``record``; None when there is none that fits it."""
    path = analysis_path(record, seat)
    try:
        if path.stat().st_size > MAX_ANALYSIS_BYTES:
            return None
        kept = _DECODER.decode(path.read_bytes())
        digest = _digest(record)
    except (OSError, msgspec.DecodeError, ValueError, NotImplementedError):
        return None
    if kept.coach != COACH_VERSION or kept.record != digest or kept.analysis.seat != seat:
        return None
    if replay is not None and any(d.position >= len(replay.positions) for d in kept.analysis.decisions):
        return None
    return kept.analysis


def save_analysis(record: Path, analysis: Analysis) -> str | None:
    """Keep ``analysis`` beside ``record`` (at once or not at all); a sentence when it cannot be."""
    path = analysis_path(record, analysis.seat)
    try:
        data = _ENCODER.encode(_Kept(COACH_VERSION, _digest(record), analysis))
        part = path.with_name(f".{path.name}.part")
        part.write_bytes(data)
        os.replace(part, path)
    except OSError as exc:
        with contextlib.suppress(OSError):
            path.with_name(f".{path.name}.part").unlink()
        return f"cannot keep the coach's analysis beside {record.name}: {exc.strerror or exc}"
    return None


__all__ = ["analysis_path", "load_analysis", "save_analysis"]

# The reason codes are an Enum msgspec writes by value: named here so that a change of its type is seen.
_ = CoachReason
