"""Fives and Threes' rules: `FivesRules`, declared with every game's rules in core/rules.py.

Its options are the fields of docs/RULES.md's ``fives-and-threes``: ``partnerships``
(4 as two partnerships, or each for themselves), ``league_deal`` (9 and 6 tiles),
``drawing`` (draw until one can play), ``target`` and ``exact_finish``. Changing
one is one call: ``msgspec.structs.replace(FIVES_AND_THREES, exact_finish=True)``.
"""

from __future__ import annotations

from ..rules import GO_POINTS, LEAGUE_HAND_SIZES, FivesRules

#: The preset's name.
PRESET = "fives-and-threes"

#: The preset: double-six, 2 to 4 players (4 as two partnerships), 7 or 5 tiles each, to 61.
FIVES_AND_THREES = FivesRules()

__all__ = ["FIVES_AND_THREES", "GO_POINTS", "LEAGUE_HAND_SIZES", "PRESET", "FivesRules"]
