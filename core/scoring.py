"""Scoring a finished round, by the rules of RULES.md."""

from __future__ import annotations

from dataclasses import dataclass

from .rules import Rules, Scoring
from .state import DOMINO
from .tiles import Tile


@dataclass(frozen=True, slots=True)
class Score:
    #: The winning side, or None when the round is tied.
    winner: int | None
    #: The seat that leads next when the winner leads (the one who went out, or
    #: the winning side's lightest hand).
    winner_seat: int | None
    side_counts: tuple[int, ...]
    points: int
    bonuses: tuple[tuple[str, int], ...]


def score_round(
    rules: Rules,
    pip_counts: list[int] | tuple[int, ...],
    *,
    reason: str,
    last_player: int,
    last_tile: Tile,
    capicu: bool,
    round_number: int,
) -> Score:
    """Who won the round and how many points they take (bonuses included)."""
    players = len(pip_counts)
    sides = rules.sides(players)
    side_counts = [0] * sides
    for seat, count in enumerate(pip_counts):
        side_counts[rules.side_of(seat, players)] += count
    winner: int | None
    if rules.scoring is Scoring.ALL_PIPS or (
        rules.scoring is Scoring.DOMINO_TAKES_ALL and reason == DOMINO
    ):
        if reason == DOMINO:
            winner = rules.side_of(last_player, players)
        else:
            winner = _lightest_hand_side(rules, pip_counts)
        if winner is None:
            points = 0
        elif rules.scoring is Scoring.ALL_PIPS:
            points = sum(pip_counts)
        else:
            points = sum(side_counts) - side_counts[winner]
    else:
        lowest = min(side_counts)
        if side_counts.count(lowest) > 1:
            winner, points = None, 0
        else:
            winner = side_counts.index(lowest)
            points = sum(side_counts) - 2 * lowest
    bonuses: list[tuple[str, int]] = []
    if winner is not None:
        if reason == DOMINO and rules.capicu_bonus and capicu:
            bonuses.append(("capicú", rules.capicu_bonus))
        if reason == DOMINO and rules.chuchazo_bonus and last_tile == Tile(0, 0):
            bonuses.append(("chuchazo", rules.chuchazo_bonus))
        if round_number <= len(rules.round_bonuses) and rules.round_bonuses[round_number - 1]:
            bonuses.append((f"round {round_number}", rules.round_bonuses[round_number - 1]))
    winner_seat: int | None = None
    if winner is not None:
        if reason == DOMINO and rules.side_of(last_player, players) == winner:
            winner_seat = last_player
        else:
            members = [s for s in range(players) if rules.side_of(s, players) == winner]
            winner_seat = min(members, key=lambda s: (pip_counts[s], s))
    return Score(
        winner=winner,
        winner_seat=winner_seat,
        side_counts=tuple(side_counts),
        points=points + sum(p for _, p in bonuses),
        bonuses=tuple(bonuses),
    )


def _lightest_hand_side(rules: Rules, pip_counts: list[int] | tuple[int, ...]) -> int | None:
    players = len(pip_counts)
    lightest = min(pip_counts)
    sides = {rules.side_of(s, players) for s, c in enumerate(pip_counts) if c == lightest}
    return sides.pop() if len(sides) == 1 else None
