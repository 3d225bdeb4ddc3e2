"""A 3-round Swiss night of 2-player matches, with real processes (issue 33): a headless club host,
two people in pseudo-terminals (``capicu club --join``) and six protocol players (helpers_club_processes.py).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from helpers_club_processes import NIGHTS, play_the_night

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals")


def test_two_people_in_pseudo_terminals_are_seated_by_the_draw_and_end_on_the_final_standings(
    tmp_path: Path,
) -> None:
    play_the_night(tmp_path, NIGHTS["swiss"])
