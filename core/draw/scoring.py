"""Scoring a finished round, by the rules of docs/RULES.md."""

from __future__ import annotations

from enum import StrEnum

import msgspec

from ..codes import Outcome
from ..rules import Rules, Scoring
from ..tiles import Tile


class Bonus(StrEnum):
    """A bonus a round's winner can earn on top of the count (the values travel on the wire)."""

    #: The last tile could have gone on either open end (and is not a double).
    CAPICU = "capicú"
    #: Going out with the double blank.
    CHUCHAZO = "chuchazo"
    #: Winning one of the match's first rounds: the result's ``round_number`` says
    #: which, `Rules.round_bonuses` what it is worth.
    ROUND = "round"


class Score(msgspec.Struct, frozen=True):
    #: The winning side, or None when the round is tied.
    winner: int | None
    #: The seat that leads next when the winner leads (the one who went out, or
    #: the winning side's lightest hand).
    winner_seat: int | None
    side_counts: tuple[int, ...]
    points: int
    #: (bonus, points) of each bonus won, already in `points`.
    bonuses: tuple[tuple[Bonus, int], ...]


def score_round(
    rules: Rules,
    pip_counts: list[int] | tuple[int, ...],
    *,
    reason: Outcome,
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
        rules.scoring is Scoring.DOMINO_TAKES_ALL and reason is Outcome.DOMINO
    ):
        if reason is Outcome.DOMINO:
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
    bonuses: list[tuple[Bonus, int]] = []
    if winner is not None:
        if reason is Outcome.DOMINO and rules.capicu_bonus and capicu:
            bonuses.append((Bonus.CAPICU, rules.capicu_bonus))
        if reason is Outcome.DOMINO and rules.chuchazo_bonus and last_tile == Tile(0, 0):
            bonuses.append((Bonus.CHUCHAZO, rules.chuchazo_bonus))
        if round_number <= len(rules.round_bonuses) and rules.round_bonuses[round_number - 1]:
            bonuses.append((Bonus.ROUND, rules.round_bonuses[round_number - 1]))
    winner_seat: int | None = None
    if winner is not None:
        if reason is Outcome.DOMINO and rules.side_of(last_player, players) == winner:
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
