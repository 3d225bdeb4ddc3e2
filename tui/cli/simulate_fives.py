"""``capicu simulate --preset fives-and-threes``: computer players play a match of Fives and Threes,
printed as a readable log with each play's total and what it scored ("15 for 8")."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TextIO

from capicu.core.fives.events import (
    FivesEvent,
    FivesMatchEnded,
    FivesRoundEnded,
    FivesRoundStarted,
    FivesTileDrawn,
    FivesTilePlayed,
    Knocked,
)
from capicu.core.fives.match import FivesMatch
from capicu.core.fives.state import FivesOutcome
from capicu.core.games import FIVES
from capicu.core.rules import FivesRules
from capicu.core.tiles import Tile
from capicu.tui.words.describe import end_name, list_separator
from capicu.tui.words.describe_rules import preset_title
from capicu.tui.words.messages import t, tn

from .simulate import _play_through, _seat, _side_name, _write_record


def scored_words(event: FivesTilePlayed, target: int) -> str:
    """What a play's ends made: "15 for 8", "total 7", or a score the exact finish refused."""
    if not event.points:
        return t("total {total}", total=event.total)
    if not event.scored:
        return t("{total} for {points}, past {target}: it does not count", total=event.total,
                 points=event.points, target=target)
    # TRANSLATORS: a play's ends add up to {total}, which scores {points}: "15 for 8".
    return t("{total} for {points}", total=event.total, points=event.points)


def fives_event_lines(event: FivesEvent, *, players: int, target: int, seat: Callable[[int], str],
                      side: Callable[[int], str], hand: Callable[[int], Sequence[Tile]],
                      goes_on: Callable[[], bool], rounds: Callable[[], int]) -> list[str]:
    """The lines telling ``event`` of a match of Fives and Threes (`capicu simulate`, `replay --text`).

    ``seat``, ``side``: a seat's and a side's name; ``hand``: a seat's tiles as dealt (asked at a
    round's start); ``goes_on``: the hand goes on after a seat chipped out; ``rounds``: how many
    rounds were played (asked at the match's end).
    """
    lines: list[str] = []
    write = lines.append
    if isinstance(event, FivesRoundStarted):
        write("")
        write(t("Hand {round}", round=event.round_number))
        for who in range(players):
            write(f"  {seat(who)}: {' '.join(str(tile) for tile in hand(who))}")
        if event.drawable:
            write("  " + tn("el pozo: {count} tile", "el pozo: {count} tiles", event.set_aside))
        else:
            write("  " + tn("{count} tile set aside", "{count} tiles set aside", event.set_aside))
        write("  " + t("{seat} leads", seat=seat(event.leader)))
    elif isinstance(event, FivesTilePlayed):
        write("  " + t("{seat} plays {tile} on the {end}", seat=seat(event.seat), tile=str(event.tile),
                       end=end_name(event.end.value))
              + "    " + t("ends {left} | {right}", left=event.left, right=event.right)
              + "    " + scored_words(event, target))
        if event.chipped_out and goes_on():
            write("  " + t("{seat} is out; the hand goes on", seat=seat(event.seat)))
    elif isinstance(event, FivesTileDrawn):
        write("  " + tn("{seat} draws {count} tile", "{seat} draws {count} tiles", 1, seat=seat(event.seat)))
    elif isinstance(event, Knocked):
        write("  " + t("{seat} knocks", seat=seat(event.seat))
              + "    " + t("ends {left} | {right}", left=event.left, right=event.right))
    elif isinstance(event, FivesRoundEnded):
        result = event.result
        if result.reason is FivesOutcome.CHIPPED_OUT and result.go_side is not None:
            write("  " + t("{side} is out: {points} for the go", side=side(result.go_side), points=result.go))
        elif result.reason is FivesOutcome.BLOCKED:
            write("  " + t("tranque (blocked): nobody can play, and nobody scores the go"))
        for who, held in enumerate(result.hands):
            shown = " ".join(str(tile) for tile in held) or "-"
            write("  " + t("{seat} holds {tiles}", seat=seat(who), tiles=shown))
        made = list_separator().join(f"{side(s)} {points}" for s, points in enumerate(result.points))
        write("  " + t("points this hand: {points}", points=made))
        totals = list_separator().join(f"{side(s)} {score}" for s, score in enumerate(result.scores))
        write("  " + t("totals: {totals}", totals=totals))
    elif isinstance(event, FivesMatchEnded):
        runner_up = max(s for i, s in enumerate(event.scores) if i != event.winner)
        write("")
        write(tn("{side} wins the match, {score} to {other} after {count} hand",
                 "{side} wins the match, {score} to {other} after {count} hands",
                 rounds(), side=side(event.winner), score=event.scores[event.winner], other=runner_up))
    return lines


def run_fives_simulation(rules: FivesRules, players: int, *, seed: int, level: str, out: TextIO,
                         record: Path | None = None) -> int:
    """Play a match of Fives and Threes between computer players and print it, play by play."""
    try:
        bots = [FIVES.make_player(level, seed * 10 + seat) for seat in range(players)]
    except ValueError as exc:
        from capicu.tui.cli.main import CliError

        raise CliError(str(exc)) from None
    match = FivesMatch(rules, players, seed, pause_between_rounds=True)
    started = time.time()
    write = out.write
    write(tn("{preset}: {count} player, double-{max_pip}, to {target} points, seed {seed}",
             "{preset}: {count} players, double-{max_pip}, to {target} points, seed {seed}", players,
             preset=preset_title(rules.preset), max_pip=rules.max_pip, target=match.target, seed=str(seed))
          + "\n")

    def show(event: FivesEvent) -> None:
        lines = fives_event_lines(
            event, players=players, target=match.target, seat=_seat,
            side=lambda side: _side_name(rules, players, side),
            hand=lambda seat: match.view(seat).hand,
            goes_on=lambda: match.view(None).turn is not None,
            rounds=lambda: len(match.results))
        write("".join(line + "\n" for line in lines))

    _play_through(match, bots, show)
    if record is not None:
        _write_record(match, level, started, record)
    return 0
