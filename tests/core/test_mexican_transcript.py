"""A golden transcript of one Mexican Train round: what each seat and a spectator saw, step by step.

After OpenSpiel's playthroughs: a change in what a view shows (a leak above
all) shows up as a diff of tests/core/data/mexican_transcript.txt in review. To
write it again after a deliberate change: ``python tests/core/test_mexican_transcript.py``.
"""

from __future__ import annotations

from pathlib import Path

import msgspec
from capicu.core import Rules
from capicu.core.mexican.match import MexicanMatch
from capicu.core.mexican.view import MexicanView
from helpers_core import crafted_mexican

GOLDEN = Path(__file__).parent / "data" / "mexican_transcript.txt"
RULES = msgspec.structs.replace(Rules.preset_named("mexican-train"), max_pip=9, rounds=1)
HANDS = [
    "9-3 3-5 5-5 5-1 2-2 9-2 0-0 0-1 0-4",
    "8-8 8-1 1-2 2-3 3-4 4-6 6-7 7-7 1-6",
]


def seen(view: MexicanView) -> str:
    """One line: everything the view shows, in a fixed text form."""
    trains = " ".join(
        f"{line.train}=[{' '.join(f'{a}-{b}' for a, b in line.tiles)}]{'^' if line.marker else ''}"
        for line in view.trains
    )
    who = "spectator" if view.seat is None else f"seat {view.seat}"
    return (
        f"  {who}: hand=[{' '.join(map(str, view.hand))}] {trains} open={view.open_double} "
        f"counts={list(view.hand_counts)} boneyard={view.boneyard} turn={view.turn} "
        f"run={view.may_run}/{view.running} totals={list(view.totals)} "
        f"legal=[{', '.join(map(str, view.legal))}]"
    )


def transcript() -> str:
    """The round played with each seat taking its first legal action (so runs grow long)."""
    match: MexicanMatch = crafted_mexican(RULES, HANDS)
    lines = ["start", *(seen(match.view(s)) for s in (0, 1, None))]
    while not match.is_over:
        action = match.legal_actions()[0]
        match.apply(action)
        lines.append(f"{action}")
        lines.extend(seen(match.view(s)) for s in (0, 1, None))
    lines.append(f"result {match.results[-1].reason} counts={list(match.results[-1].counts)}")
    return "\n".join(lines) + "\n"


def test_the_round_reads_as_recorded() -> None:
    assert transcript() == GOLDEN.read_text()


if __name__ == "__main__":
    GOLDEN.write_text(transcript())
