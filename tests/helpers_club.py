"""Club nights for the tests: every kind of night the draws serve, some rounds in (hypothesis)."""

from __future__ import annotations

from collections.abc import Sequence

from capicu.core import Rules
from capicu.core.club import ByeRule, ClubConfig, ClubFormat, ClubNight, Phase
from hypothesis import strategies as st

PARTNERS = Rules.preset_named("puerto-rican-partners")
MEXICAN = Rules.preset_named("mexican-train")

#: (rules, table size, format) of every kind of night the draws serve.
KINDS = {
    "singles": (Rules(), 2, ClubFormat.SWISS),
    "threes": (Rules(), 3, ClubFormat.SWISS),
    "train-4": (MEXICAN, 4, ClubFormat.SWISS),
    "fixed-pairs": (PARTNERS, 4, ClubFormat.SWISS),
    "rotating": (PARTNERS, 4, ClubFormat.ROTATING),
    "round-robin": (Rules(), 2, ClubFormat.ROUND_ROBIN),
    "round-robin-pairs": (PARTNERS, 4, ClubFormat.ROUND_ROBIN),
}
#: The kinds drawn by the standings (not by a schedule fixed at round 1).
BY_STANDINGS = ("singles", "threes", "train-4", "fixed-pairs", "rotating")


def config_of(kind: str, bye: ByeRule, rounds: int = 12) -> ClubConfig:
    rules, size, format = KINDS[kind]
    return ClubConfig(rules=rules, table_size=size, format=format, bye=bye, rounds=rounds)


@st.composite
def nights(draw: st.DrawFn, kinds: Sequence[str] = tuple(KINDS), most: int = 9) -> ClubNight:
    """A night some rounds in (results at random), someone perhaps gone, between two rounds."""
    kind = draw(st.sampled_from(kinds))
    bye = draw(st.sampled_from(list(ByeRule)))
    least = 4 if kind in ("fixed-pairs", "rotating") and bye is not ByeRule.COMPUTER else 2
    if kind in ("threes", "train-4") and bye is not ByeRule.COMPUTER:
        least = KINDS[kind][1]
    if kind in ("fixed-pairs", "round-robin-pairs"):
        least = 4
    count = draw(st.integers(least, most))
    night = ClubNight.open(config_of(kind, bye))
    for i in range(count):
        night = night.join(f"P{i}")
    for _ in range(draw(st.integers(0, 4))):
        if night.phase is Phase.OVER:
            break
        if draw(st.booleans()) and len(night.active) > least:
            night = night.leave(draw(st.sampled_from(night.active)).id)
        night = night.start_round(draw(st.integers(0, 2**32)))
        for table in night.draws[-1].tables:
            sides = night.config.sides_of_table(len(table.seats))
            points = draw(st.lists(st.integers(0, 200), min_size=len(sides), max_size=len(sides)))
            night = night.close_table(night.round, table.number, points)
    return night
