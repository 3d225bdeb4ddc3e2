"""A compact digest of seeded random matches of the Draw family, for the differential test.

`digest` plays a match with random legal actions (chosen by a seeded generator
from `legal_actions()` in its order) and hashes, step by step, the legal
actions, the action, the events and the scores in a canonical text form that
does not depend on how events are declared (dataclass or Struct). The digests
of the base commit (before the board seam) are kept in
tests/core/data/draw_family_digests.json; tests/core/test_draw_family_differential.py
plays the same matches on the engine of today and compares.
"""

from __future__ import annotations

import dataclasses
import hashlib
import random
from enum import Enum
from typing import Any

import msgspec
from capicu.core import Match, Rules, Tile

PRESETS = ("puerto-rican-drawing", "drawing-game", "puerto-rican-partners", "quinientos", "draw")


def canonical(value: Any) -> str:
    """``value`` as text: records by type name and fields in declared order, tiles as 3-5."""
    if isinstance(value, Tile):
        return str(value)
    if isinstance(value, Enum):
        return str(value.value)
    if isinstance(value, tuple | list):
        return "(" + ",".join(canonical(v) for v in value) + ")"
    names = getattr(type(value), "__struct_fields__", None)
    if names is None and dataclasses.is_dataclass(value):
        names = [f.name for f in dataclasses.fields(value)]
    if names is not None:
        # A field left UNSET is absent, as on the wire (the house rules' fields, off).
        inner = ",".join(f"{n}={canonical(getattr(value, n))}" for n in names
                         if getattr(value, n) is not msgspec.UNSET)
        return f"{type(value).__name__}[{inner}]"
    return repr(value)


#: Options of the Draw family played as well as the presets themselves, by name.
VARIANTS: dict[str, dict[str, Any]] = {
    "": {},
    "d9": {"max_pip": 9},
    "d12": {"max_pip": 12},
    "max2": {"max_draws_per_turn": 2},
    "voluntary": {"voluntary_draw": True},
    "tranque-leads": {"tranque_last_player_leads": True},
    "reserve0": {"reserve": 0},
}


def digest(preset: str, players: int, seed: int, variant: str = "", *, max_steps: int = 3000) -> str:
    """The digest of one seeded random match (cut after ``max_steps`` actions)."""
    rules = msgspec.structs.replace(Rules.preset_named(preset), **VARIANTS[variant])
    match = Match(rules, players, seed=seed)
    rng = random.Random(f"{preset}/{players}/{seed}/{variant}")
    h = hashlib.sha256()
    h.update(canonical(match.opening_events).encode())
    for _ in range(max_steps):
        legal = match.legal_actions()
        if not legal:
            break
        h.update(" ".join(str(a) for a in legal).encode())
        action = rng.choice(legal)
        events = match.apply(action)
        h.update(f"|{action}|{canonical(events)}|{match.scores}\n".encode())
    return h.hexdigest()[:16]


def cases() -> list[tuple[str, int, int, str]]:
    """Every (preset, players, seed, variant) the differential plays."""
    out = []
    for preset in PRESETS:
        rules = Rules.preset_named(preset)
        for players in range(rules.min_players, rules.max_players + 1):
            for variant in VARIANTS:
                seeds = 30 if variant == "" else 6
                for seed in range(seeds):
                    out.append((preset, players, seed, variant))
    return out


def key(preset: str, players: int, seed: int, variant: str) -> str:
    return f"{preset}/{players}/{seed}/{variant}"



def ai_digest(preset: str, players: int, seed: int, *, rounds: int = 2) -> str:
    """The digest of the first ``rounds`` rounds of a match played by the computer players.

    Seats take turns by level (easy, normal, hard with a small fixed budget and no
    clock cap, so the same seed gives the same moves), each choosing from its view.
    Hard reads and plays out as it did when the digests were recorded (``greed=0.5``,
    ``sensible=1``: issue 34 changed both): the digests are of the engine, and hard's
    own tuning since is measured by the benches.
    """
    from capicu.core.ai.heuristic import EasyPlayer, NormalPlayer
    from capicu.core.ai.search import Budget, HardPlayer

    rules = Rules.preset_named(preset)
    match = Match(rules, players, seed=seed)
    as_recorded = Budget(iterations=60, cap_seconds=None, greed=0.5, sensible=1.0)
    kinds = (EasyPlayer(seed), NormalPlayer(seed), HardPlayer(seed, as_recorded))
    h = hashlib.sha256()
    while match.turn is not None and len(match.results) < rounds:
        seat = match.turn
        action = kinds[seat % 3].choose(match.view(seat))
        events = match.apply(action)
        h.update(f"|{action}|{canonical(events)}\n".encode())
    return h.hexdigest()[:16]


def ai_cases() -> list[tuple[str, int, int]]:
    """Every (preset, players, seed) the computer players' differential plays: fewest and most players."""
    out = []
    for preset in PRESETS:
        rules = Rules.preset_named(preset)
        for players in sorted({rules.min_players, rules.max_players}):
            out.extend((preset, players, seed) for seed in range(2))
    return out


if __name__ == "__main__":
    import json
    import sys

    table = {key(*case): digest(*case) for case in cases()}
    table.update({"ai/" + "/".join(map(str, case)): ai_digest(*case) for case in ai_cases()})
    json.dump(table, sys.stdout, indent=0, sort_keys=True)
