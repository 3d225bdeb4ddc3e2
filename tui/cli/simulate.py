"""``capicu simulate``: computer players play a whole match, printed as a readable log (in the
command line's language, through the catalogue)."""

from __future__ import annotations

import importlib
import secrets
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TextIO

from capicu.core import (
    Bonus,
    Event,
    Match,
    MatchEnded,
    Outcome,
    Passed,
    RoundEnded,
    RoundResult,
    RoundStarted,
    Rules,
    TilePlayed,
    TilesDrawn,
    make_player,
)
from capicu.core.engine import Engine
from capicu.core.games import game_of
from capicu.net.store.record import RecordError, RecordSeat, record_of, write_record_file
from capicu.tui.words.describe import end_name, list_separator
from capicu.tui.words.describe_rules import preset_title
from capicu.tui.words.messages import t, tn


def _side_name(rules: Rules, players: int, side: int) -> str:
    if rules.sides(players) != players:
        return t("team {team} (seats {first} and {second})", team=side + 1, first=side + 1, second=side + 3)
    return _seat(side)


def _seat(seat: int) -> str:
    return t("seat {number}", number=seat + 1)


def _bonus_names(result: RoundResult) -> str:
    """The round's bonuses as ", capicú +100, round 2 +75"."""
    names = {Bonus.CAPICU: t("capicú"), Bonus.CHUCHAZO: t("chuchazo"),
             Bonus.ROUND: t("round {number}", number=result.round_number)}
    return "".join(f", {names.get(bonus, str(bonus))} +{points}" for bonus, points in result.bonuses)


#: Each game's printer, by the game's name (`GameSpec.name`): "module:function", imported when
#: that game is simulated. Adding a game is its printer's module and one line here.
PRINTERS = {
    "line": "capicu.tui.cli.simulate:run_draw_simulation",
    "mexican-train": "capicu.tui.cli.simulate_mexican:run_train_simulation",
    "fives-and-threes": "capicu.tui.cli.simulate_fives:run_fives_simulation",
}


def run_simulation(rules: Rules, players: int, *, seed: int, level: str, out: TextIO,
                   record: Path | None = None) -> int:
    """Play the match and print it (``record``: and write its record there); returns the exit code.

    The game's own printer (`PRINTERS`) plays and prints it.
    """
    module, _, name = PRINTERS[game_of(rules).name].partition(":")
    printer: Callable[..., int] = getattr(importlib.import_module(module), name)
    return printer(rules, players, seed=seed, level=level, out=out, record=record)


def run_draw_simulation(rules: Rules, players: int, *, seed: int, level: str, out: TextIO,
                        record: Path | None = None) -> int:
    """Play a match of the Draw family between computer players and print it, round by round."""
    try:
        bots = [make_player(level, seed * 10 + seat) for seat in range(players)]
    except ValueError as exc:
        from capicu.tui.cli.main import CliError

        raise CliError(str(exc)) from None
    # Each round's end waits for the next deal, as at a table: the record then holds each round's
    # end as a position of its own (what is printed is the same).
    match = Match(rules, players, seed, pause_between_rounds=True)
    started = time.time()
    write = out.write
    write(tn("{preset}: {count} player, double-{max_pip}, to {target} points, seed {seed}",
             "{preset}: {count} players, double-{max_pip}, to {target} points, seed {seed}", players,
             preset=preset_title(rules.preset), max_pip=rules.max_pip, target=match.target, seed=str(seed))
          + "\n")
    drawn_run: list[int] = []  # consecutive single draws of one seat, printed as one line

    def flush_draws() -> None:
        if drawn_run:
            count = len(drawn_run)
            write("  " + tn("{seat} draws {count} tile", "{seat} draws {count} tiles", count,
                            seat=_seat(drawn_run[0])) + "\n")
            drawn_run.clear()

    def show(event: Event) -> None:
        if isinstance(event, TilesDrawn):
            if drawn_run and drawn_run[0] != event.seat:
                flush_draws()
            drawn_run.append(event.seat)
            return
        flush_draws()
        if isinstance(event, RoundStarted):
            write("\n" + t("Round {round}", round=event.round_number))
            if event.redeals:
                write(" " + tn("(dealt again {count} time: no double)",
                               "(dealt again {count} times: no double)", event.redeals))
            write("\n")
            for seat in range(players):
                hand = " ".join(str(tile) for tile in match.view(seat).hand)
                write(f"  {_seat(seat)}: {hand}\n")
            write("  " + tn("el pozo: {count} tile", "el pozo: {count} tiles", event.boneyard) + "\n")
            if event.forced_lead:
                write("  " + t("{seat} leads with {tile}", seat=_seat(event.leader),
                               tile=str(event.forced_lead)))
            else:
                write("  " + t("{seat} leads", seat=_seat(event.leader)))
            write("\n")
        elif isinstance(event, TilePlayed):
            write("  " + t("{seat} plays {tile} on the {end}", seat=_seat(event.seat), tile=str(event.tile),
                           end=end_name(event.end.value))
                  + "    " + t("ends {left} | {right}", left=event.left, right=event.right) + "\n")
        elif isinstance(event, Passed):
            write("  " + t("{seat} passes (paso)", seat=_seat(event.seat))
                  + "    " + t("ends {left} | {right}", left=event.left, right=event.right) + "\n")
        elif isinstance(event, RoundEnded):
            r = event.result
            last = {"seat": _seat(r.last_player), "tile": str(r.last_tile)}
            if r.reason == Outcome.DOMINO:
                write("  " + t("domino: {seat} laid {tile} last", **last) + "\n")
            else:
                write("  " + t("tranque (blocked): {seat} laid {tile} last", **last) + "\n")
            for seat, (held, count) in enumerate(zip(r.hands, r.pip_counts, strict=True)):
                shown = " ".join(str(tile) for tile in held) or "-"
                write("  " + tn("{seat} holds {tiles}: {count} pip", "{seat} holds {tiles}: {count} pips",
                                count, seat=_seat(seat), tiles=shown) + "\n")
            if r.winner is None:
                write("  " + t("tie for the lowest count: nobody scores") + "\n")
            else:
                side = _side_name(rules, players, r.winner)
                write("  " + t("{side} scores {points}", side=side, points=r.points) + _bonus_names(r) + "\n")
            totals = list_separator().join(
                f"{_side_name(rules, players, s)} {score}" for s, score in enumerate(r.scores)
            )
            write("  " + t("totals: {totals}", totals=totals) + "\n")
        elif isinstance(event, MatchEnded):
            runner_up = max(s for i, s in enumerate(event.scores) if i != event.winner)
            write("\n" + tn("{side} wins the match, {score} to {other} after {count} round",
                            "{side} wins the match, {score} to {other} after {count} rounds",
                            len(match.results), side=_side_name(rules, players, event.winner),
                            score=event.scores[event.winner], other=runner_up) + "\n")

    _play_through(match, bots, show)
    flush_draws()
    if record is not None:
        _write_record(match, level, started, record)
    return 0


def _play_through(match: Any, bots: Sequence[Any], show: Callable[[Any], None]) -> None:
    """Play ``match`` to its end by ``bots`` (one a seat), showing every event as it comes."""
    for event in match.opening_events:
        show(event)
    while not match.is_over:
        if match.awaiting_deal:
            events = match.deal_next_round()
        else:
            seat = match.turn
            assert seat is not None
            events = match.apply(bots[seat].choose(match.view(seat)), seat)
        for event in events:
            show(event)


def _write_record(match: Engine[Any, Any], level: str, started: float, path: Path) -> None:
    """Write the finished match's record to ``path`` (its seats: the computer players)."""
    from capicu.tui.cli.main import CliError

    seats = [RecordSeat(f"Computer {seat + 1}", "computer", level) for seat in range(match.players)]
    finished = record_of(match, seats, match_id=secrets.token_urlsafe(12), started=started, ended=time.time())
    try:
        write_record_file(path, finished)
    except RecordError as exc:
        raise CliError(t("--record {path}: {problem}", path=str(path), problem=str(exc))) from None
