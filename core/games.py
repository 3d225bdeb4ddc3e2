"""The games capicu plays, found by their rules or their log.

`new_match` makes the engine a game's rules are played by; `match_from_log`
the match a log describes (told apart by the log's format).
"""

from __future__ import annotations

from typing import Any

from .draw.match import Match
from .engine import OnEntry
from .mexican.match import LOG_FORMAT, MexicanMatch
from .rules import MexicanRules, Rules


def new_match(
    rules: Rules, players: int, seed: int = 0, *, pause_between_rounds: bool = False
) -> Match | MexicanMatch:
    """The engine the rules' game is played by: a `MexicanMatch` or a `Match` (same API shape)."""
    if isinstance(rules, MexicanRules):
        return MexicanMatch(rules, players, seed, pause_between_rounds=pause_between_rounds)
    return Match(rules, players, seed, pause_between_rounds=pause_between_rounds)


def match_from_log(data: Any, on_entry: OnEntry | None = None) -> Match | MexicanMatch:
    """The match a log of either engine describes (told apart by its format)."""
    if isinstance(data, dict) and data.get("format") == LOG_FORMAT:
        return MexicanMatch.from_log(data, on_entry)
    return Match.from_log(data, on_entry)


__all__ = ["match_from_log", "new_match"]
