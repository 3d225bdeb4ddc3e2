"""The Draw family plays as it did before the board seam (issue 21): same actions, events, scores.

tests/core/data/draw_family_digests.json holds a digest per seeded match, recorded
on the engine of the base commit (402ae01) by ``python tests/helpers_draw_digest.py``;
each match is played again here and must give the same digest.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers_draw_digest import ai_cases, ai_digest, cases, digest, key

RECORDED: dict[str, str] = json.loads(
    (Path(__file__).parent / "data" / "draw_family_digests.json").read_text()
)


def test_every_case_is_recorded() -> None:
    assert len(RECORDED) == len(cases()) + len(ai_cases())


@pytest.mark.parametrize("preset", sorted({case[0] for case in cases()}))
def test_random_matches_play_as_before(preset: str) -> None:
    differ = [key(*case) for case in cases() if case[0] == preset and digest(*case) != RECORDED[key(*case)]]
    assert differ == []


def test_computer_players_play_as_before() -> None:
    differ = [case for case in ai_cases() if ai_digest(*case) != RECORDED["ai/" + "/".join(map(str, case))]]
    assert differ == []
