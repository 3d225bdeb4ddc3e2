"""``capicu simulate``: computer players play a whole match, printed as a readable log."""

from __future__ import annotations

from typing import TextIO

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


def _side_name(rules: Rules, players: int, side: int) -> str:
    if rules.sides(players) != players:
        return f"team {side + 1} (seats {side + 1} and {side + 3})"
    return f"seat {side + 1}"


def _bonus_names(result: RoundResult) -> str:
    """The round's bonuses as ", capicú +100, round 2 +75"."""
    return "".join(
        f", {f'round {result.round_number}' if bonus == Bonus.ROUND else bonus} +{points}"
        for bonus, points in result.bonuses
    )


def run_simulation(rules: Rules, players: int, *, seed: int, level: str, out: TextIO) -> int:
    """Play the match and print it; returns the exit code."""
    try:
        bots = [make_player(level, seed * 10 + seat) for seat in range(players)]
    except ValueError as exc:
        from capicu.tui.cli import CliError

        raise CliError(str(exc)) from None
    match = Match(rules, players, seed)
    write = out.write
    write(
        f"{rules.preset}: {players} players, double-{rules.max_pip}, "
        f"to {match.target} points, seed {seed}\n"
    )
    drawn_run: list[int] = []  # consecutive single draws of one seat, printed as one line

    def flush_draws() -> None:
        if drawn_run:
            count = len(drawn_run)
            write(f"  seat {drawn_run[0] + 1} draws {count} tile{'s' if count > 1 else ''}\n")
            drawn_run.clear()

    def show(event: Event) -> None:
        if isinstance(event, TilesDrawn):
            if drawn_run and drawn_run[0] != event.seat:
                flush_draws()
            drawn_run.append(event.seat)
            return
        flush_draws()
        if isinstance(event, RoundStarted):
            write(f"\nRound {event.round_number}")
            if event.redeals:
                write(f" (dealt again {event.redeals} time{'s' if event.redeals > 1 else ''}: no double)")
            write("\n")
            for seat in range(players):
                hand = " ".join(str(t) for t in match.view(seat).hand)
                write(f"  seat {seat + 1}: {hand}\n")
            write(f"  boneyard: {event.boneyard} tiles\n")
            lead = f" with {event.forced_lead}" if event.forced_lead else ""
            write(f"  seat {event.leader + 1} leads{lead}\n")
        elif isinstance(event, TilePlayed):
            write(f"  seat {event.seat + 1} plays {event.tile} on the {event.end.value}"
                  f"    ends {event.left} | {event.right}\n")
        elif isinstance(event, Passed):
            write(f"  seat {event.seat + 1} passes (paso)    ends {event.left} | {event.right}\n")
        elif isinstance(event, RoundEnded):
            r = event.result
            how = "domino" if r.reason == Outcome.DOMINO else "tranque (blocked)"
            write(f"  {how}: seat {r.last_player + 1} laid {r.last_tile} last\n")
            for seat, (held, count) in enumerate(zip(r.hands, r.pip_counts, strict=True)):
                shown = " ".join(str(t) for t in held) or "-"
                write(f"  seat {seat + 1} holds {shown}: {count} pips\n")
            if r.winner is None:
                write("  tie for the lowest count: nobody scores\n")
            else:
                write(f"  {_side_name(rules, players, r.winner)} scores {r.points}{_bonus_names(r)}\n")
            totals = ", ".join(
                f"{_side_name(rules, players, s)} {score}" for s, score in enumerate(r.scores)
            )
            write(f"  totals: {totals}\n")
        elif isinstance(event, MatchEnded):
            runner_up = max(s for i, s in enumerate(event.scores) if i != event.winner)
            write(
                f"\n{_side_name(rules, players, event.winner)} wins the match, "
                f"{event.scores[event.winner]} to {runner_up} after {len(match.results)} rounds\n"
            )

    for event in match.opening_events:
        show(event)
    while not match.is_over:
        seat = match.turn
        assert seat is not None
        action = bots[seat].choose(match.view(seat))
        for event in match.apply(action, seat):
            show(event)
    flush_draws()
    return 0
