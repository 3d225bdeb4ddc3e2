"""``capicu simulate --preset mexican-train``: computer players play a match of Mexican Train,
printed as a readable log, deal by deal."""

from __future__ import annotations

import time
from pathlib import Path
from typing import TextIO

from capicu.core import Outcome
from capicu.core.actions import Train
from capicu.core.ai.mexican_players import make_mexican_player
from capicu.core.mexican.events import (
    MexicanEvent,
    MexicanMatchEnded,
    MexicanPassed,
    MexicanRoundEnded,
    MexicanRoundStarted,
    MexicanTileDrawn,
    MexicanTilePlayed,
    RunEnded,
)
from capicu.core.mexican.match import MexicanMatch
from capicu.core.rules import MexicanRules
from capicu.tui.words.describe import list_separator
from capicu.tui.words.describe_rules import preset_title
from capicu.tui.words.messages import t, tn

from .simulate import _play_through, _seat, _write_record


def _train_name(train: Train, mover: int) -> str:
    """A train as a move names it: the mover's own, the Mexican train, or another seat's."""
    if train.is_mexican:
        return t("the Mexican train")
    if train.owner == mover:
        return t("their own train")
    return t("the train of {seat}", seat=_seat(train.owner))


def run_train_simulation(rules: MexicanRules, players: int, *, seed: int, level: str, out: TextIO,
                         record: Path | None = None) -> int:
    """Play a match of Mexican Train between computer players and print it, deal by deal."""
    try:
        bots = [make_mexican_player(level, seed * 10 + seat) for seat in range(players)]
    except ValueError as exc:
        from capicu.tui.cli.main import CliError

        raise CliError(str(exc)) from None
    match = MexicanMatch(rules, players, seed, pause_between_rounds=True)
    started = time.time()
    write = out.write
    rounds = tn("{count} round", "{count} rounds", rules.round_count)
    write(tn("{preset}: {count} player, double-{max_pip}, {rounds}, seed {seed}",
             "{preset}: {count} players, double-{max_pip}, {rounds}, seed {seed}", players,
             preset=preset_title(rules.preset), max_pip=rules.max_pip, rounds=rounds, seed=str(seed)) + "\n")

    def show(event: MexicanEvent) -> None:
        if isinstance(event, MexicanRoundStarted):
            write("\n" + t("Round {round}: the engine is {tile}", round=event.round_number,
                           tile=str(event.engine)) + "\n")
            for seat in range(players):
                hand = " ".join(str(tile) for tile in match.view(seat).hand)
                write(f"  {_seat(seat)}: {hand}\n")
            boneyard = tn("the boneyard: {count} tile", "the boneyard: {count} tiles", event.boneyard)
            write(f"  {boneyard}\n")
            write("  " + t("{seat} plays first", seat=_seat(event.first)) + "\n")
        elif isinstance(event, MexicanTilePlayed):
            write("  " + t("{seat} lays {tile} on {train}", seat=_seat(event.seat), tile=str(event.tile),
                           train=_train_name(event.train, event.seat))
                  + "    " + t("it shows {number}", number=event.head) + "\n")
        elif isinstance(event, RunEnded):
            write("  " + t("{seat} ends their opening run", seat=_seat(event.seat)) + "\n")
        elif isinstance(event, MexicanTileDrawn):
            write("  " + t("{seat} draws a tile", seat=_seat(event.seat)) + "\n")
        elif isinstance(event, MexicanPassed):
            write("  " + t("{seat} passes: their marker is up", seat=_seat(event.seat)) + "\n")
        elif isinstance(event, MexicanRoundEnded):
            r = event.result
            if r.reason == Outcome.DOMINO:
                write("  " + t("{seat} goes out", seat=_seat(r.last_player)) + "\n")
            else:
                write("  " + t("blocked: the boneyard is empty and nobody can play") + "\n")
            for seat, (held, count) in enumerate(zip(r.hands, r.counts, strict=True)):
                shown = " ".join(str(tile) for tile in held) or "-"
                write("  " + tn("{seat} holds {tiles}: {count} point", "{seat} holds {tiles}: {count} points",
                                count, seat=_seat(seat), tiles=shown) + "\n")
            totals = list_separator().join(f"{_seat(s)} {total}" for s, total in enumerate(r.totals))
            write("  " + t("totals: {totals}", totals=totals) + "\n")
        elif isinstance(event, MexicanMatchEnded):
            best = event.totals[event.winners[0]]
            names = list_separator().join(_seat(s) for s in event.winners)
            write("\n" + tn("{seats} wins the match with the lowest total, {total}",
                            "{seats} share the win with the lowest total, {total}", len(event.winners),
                            seats=names, total=best) + "\n")

    _play_through(match, bots, show)
    if record is not None:
        _write_record(match, level, started, record)
    return 0
