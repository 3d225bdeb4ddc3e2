"""The club nights kept: ``capicu history --club`` prints them, ``capicu club --standings FILE`` prints
one for the wall (FILE.csv and FILE.html).

The nights are kept by the club host in ``clubs.sqlite3``, in the folder of records
(net/store/club.py). A bad request is a `CliError`: one line, exit code 2, nothing written.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from capicu.tui.prefs.settings import records_dir
from capicu.tui.words.describe import describe_history_problem
from capicu.tui.words.messages import N_, t

from .options import CliError, number_in

if TYPE_CHECKING:  # the nights kept (SQLite) load when asked for: every command builds these options
    from capicu.net.store.club import ClubHistory

__all__ = ["add_club_history_arguments", "add_standings_arguments", "export_standings", "run_club_history"]


def add_club_history_arguments(history: argparse.ArgumentParser) -> None:
    """``--club`` and ``--night N`` on ``capicu history``."""
    history.add_argument("--club", action="store_true",
                         help=t("the club nights kept on this machine: each night's standings and every "
                                "player's matches (with --player NAME, that player's nights only)"))
    add_night_argument(history)


def add_night_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--night", type=number_in(int, 1, what=N_("a night's number")), default=None,
                        metavar=t("N"),
                        help=t("one club night, by the number `capicu history --club` gives it "
                               "(default: every night; for --standings, the last one)"))


def add_standings_arguments(club: argparse.ArgumentParser) -> None:
    """``--standings FILE`` and ``--night N`` on ``capicu club`` (its handler calls `export_standings`)."""
    club.add_argument("--standings", default=None, metavar=t("FILE"),
                      help=t("write a kept night's standings to FILE.csv and, printable for the wall, "
                             "FILE.html, and start nothing"))
    add_night_argument(club)


def _open(folder: Path) -> ClubHistory:
    from capicu.net.store.club import ClubHistoryError, open_club_history

    try:
        history, problem = open_club_history(folder)
    except ClubHistoryError as exc:
        raise CliError(describe_history_problem(exc.problem.code, exc.problem.values)) from None
    if problem is not None:
        print("capicu: " + describe_history_problem(problem.code, problem.values), file=sys.stderr)
    return history


def run_club_history(args: argparse.Namespace, folder: Path | None = None) -> int:
    """``capicu history --club``: every night kept (or ``--night N``), ``--player``'s only when given."""
    if args.host or args.csv is not None:
        raise CliError(t("--club goes with neither --host nor --csv (capicu club --standings FILE writes "
                         "a night's standings)"))
    if args.year is not None or args.this_year:
        raise CliError(t("--club shows every night kept: choose one with --night N"))
    from capicu.net.store.club import clubs_path
    from capicu.tui.words.describe_club_history import night_lines

    player: str | None = args.player.strip() if args.player is not None else None
    if args.player is not None and not player:
        raise CliError(t("a name cannot be empty"))
    folder = folder or records_dir()
    if not clubs_path(folder).exists():
        print(t("No club night is kept yet (they will be kept in {file}).", file=str(clubs_path(folder))))
        return 0
    with _open(folder) as history:
        if args.night is not None:
            kept = history.night(args.night)
            if kept is None:
                raise CliError(t("there is no club night {number} (capicu history --club lists them)",
                                 number=str(args.night)))
            nights = [kept]
        else:
            nights = history.nights(player)
    if not nights:
        print(t("{name} played in no club night kept.", name=player) if player else
              t("No club night is kept yet."))
        return 0
    lines: list[str] = []
    for kept in nights:
        lines += ["", *night_lines(kept, player)] if lines else night_lines(kept, player)
    print("\n".join(lines))
    return 0


def export_standings(where: str, night: int | None = None, folder: Path | None = None) -> int:
    """``capicu club --standings FILE``: night ``night`` (None: the last kept) as FILE.csv and FILE.html."""
    from capicu.net.store.club import clubs_path, write_standings
    from capicu.tui.words.describe_club_history import night_title, page_words

    folder = folder or records_dir()
    if not where.strip():
        raise CliError(t("--standings needs a file's name"))
    if not clubs_path(folder).exists():
        raise CliError(t("No club night is kept yet (they will be kept in {file}).",
                         file=str(clubs_path(folder))))
    with _open(folder) as history:
        kept = history.night(night)
    if kept is None:
        if night is None:
            raise CliError(t("No club night is kept yet."))
        raise CliError(t("there is no club night {number} (capicu history --club lists them)",
                         number=str(night)))
    try:
        csv_path, html_path = write_standings(kept, Path(where), page_words(kept))
    except OSError as exc:
        raise CliError(t("cannot write {file} ({problem})", file=where,
                         problem=exc.strerror or type(exc).__name__)) from None
    print(t("{night}: standings written to {csv} and {html}", night=night_title(kept), csv=str(csv_path),
            html=str(html_path)))
    return 0
