"""The history's figures in words and table cells: for ``capicu history`` and the History screen.

net/store/history.py counts; this module says what was counted, in the language spoken. A
table of figures is its column titles and its rows of cells (`FigureTable`), which
the command line writes in aligned columns and the screen puts in a DataTable.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import msgspec
from capicu.core.games import game_named
from capicu.net.store.history import (
    FIVES_GAME,
    LINE_GAME,
    TRAIN_GAME,
    Figures,
    History,
    Opponent,
    PresetFigures,
    Standing,
)

from .describe import describe_history_problem, display_text, list_separator
from .describe_rules import game_title
from .messages import format_number, t, tn


class FigureTable(msgspec.Struct, frozen=True):
    """A table of figures: the column titles, then one row of cells for each line."""

    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]


def _share(won: int, played: int) -> str:
    # TRANSLATORS: the share of matches won, such as "58%".
    return t("{percent}%", percent=format_number(round(100 * won / played))) if played else "-"


def _per_round(value: float | None) -> str:
    return "-" if value is None else format_number(round(value, 1))


def figure_columns() -> tuple[str, ...]:
    """The titles of the figures' columns."""
    # TRANSLATORS: short column titles of the history's tables; "Points/round": the points a player's
    # side took, a round on average.
    return t("Played"), t("Won"), t("Points/round"), t("Capicú"), t("Chuchazo")


def _line_per_round(figures: Figures) -> str:
    return _per_round(figures.points_per_round)


def _train_per_round(figures: Figures) -> str:
    # TRANSLATORS: Mexican Train's points counted against a player a round, in the history's
    # "Points/round" column (lower is better): "12.5 counted".
    return t("{points} counted", points=_per_round(figures.count_per_round))


def _fives_per_round(figures: Figures) -> str:
    # TRANSLATORS: Fives and Threes' points a hand and the best single play, in the history's
    # "Points/round" column: "9.5, best 8".
    return t("{points}, best {best}", points=_per_round(figures.per(FIVES_GAME, "points", "hands")),
             best=format_number(figures.of(FIVES_GAME, "best_play")))


def _line_summary(figures: Figures) -> str | None:
    if not figures.rounds:
        return None
    return t("{points} points a round", points=_per_round(figures.points_per_round))


def _train_summary(figures: Figures) -> str | None:
    if not figures.train_rounds:
        return None
    return t("{points} counted a round in Mexican Train", points=_per_round(figures.count_per_round))


def _fives_summary(figures: Figures) -> str | None:
    if not figures.of(FIVES_GAME, "hands"):
        return None
    # TRANSLATORS: in the history's summary: "9.5 points a hand in Fives and Threes (best play 8)".
    return t("{points} points a hand in Fives and Threes (best play {best})",
             points=_per_round(figures.per(FIVES_GAME, "points", "hands")),
             best=format_number(figures.of(FIVES_GAME, "best_play")))


#: Each game's own figures in words, by its name (core/games.py): in the "Points/round" column of a row
#: of that game's matches alone, and in the summary. A game that counts figures of its own
#: (core/<game>/figures.py) says them here.
PER_ROUND: Mapping[str, Callable[[Figures], str]] = {
    LINE_GAME: _line_per_round, TRAIN_GAME: _train_per_round, FIVES_GAME: _fives_per_round,
}
SUMMARY: Mapping[str, Callable[[Figures], str | None]] = {
    LINE_GAME: _line_summary, TRAIN_GAME: _train_summary, FIVES_GAME: _fives_summary,
}


def _only_game(figures: Figures) -> str:
    """The one game a row's matches are of (the Draw family's, for a row of several or of none)."""
    games = list(figures.played_by_game)
    return games[0] if len(games) == 1 else LINE_GAME


def figure_cells(figures: Figures, *, game: str = LINE_GAME) -> tuple[str, ...]:
    """One row's cells, in `figure_columns`' order; ``game``: the game whose figures go in the
    "Points/round" column (a row of Mexican Train matches only says the counts taken, lower is
    better; one of Fives and Threes, the points a hand and the best play)."""
    # TRANSLATORS: matches won and their share, in a table of the history: "7 (58%)".
    won = t("{count} ({share})", count=format_number(figures.won), share=_share(figures.won, figures.played))
    per_round = PER_ROUND.get(game, _line_per_round)(figures)
    # The bonuses' columns are the Draw family's figures: a row of a game that does not declare them
    # (core/<game>/figures.py) has "-" there, not a "0" that reads as none made.
    declared = {figure.name for figure in game_named(game).figures.figures}
    bonuses = tuple(format_number(getattr(figures, name)) if name in declared else "-"
                    for name in ("capicu", "chuchazo"))
    return (format_number(figures.played), won, per_round, *bonuses)


def opponent_name(opponent: Opponent | Standing) -> str:
    """A player's name in the history's tables; a computer's says so."""
    name = display_text(opponent.name, 40)
    # TRANSLATORS: an opponent who was a computer player, in the history: "Beto (computer)".
    return t("{name} (computer)", name=name) if opponent.kind == "computer" else name


# The standings count the Draw family's points a round; the table by game has a row for each
# game's preset, with that game's own figures, and so has an opponent met in one game only (the
# summary sentence has every game's).


def opponents_table(opponents: Sequence[Opponent]) -> FigureTable:
    # Against whom only one game was played: that game's own figures ("2.5, best 8" for Fives and
    # Threes), not a "-" from the Draw family's.
    return FigureTable((t("Opponent"), *figure_columns()),
                       tuple((opponent_name(o), *figure_cells(o.figures, game=_only_game(o.figures)))
                             for o in opponents))


def presets_table(presets: Sequence[PresetFigures]) -> FigureTable:
    # A game in words ("Mexican Train"), as its table's header says it: the CSV keeps the preset's name.
    return FigureTable((t("Game"), *figure_columns()),
                       tuple((game_title(p.preset), *figure_cells(p.figures, game=_only_game(p.figures)))
                             for p in presets))


def standings_table(standings: Sequence[Standing]) -> FigureTable:
    return FigureTable((t("Player"), *figure_columns()),
                       tuple((opponent_name(s), *figure_cells(s.figures)) for s in standings))


def period_title(year: int | None) -> str:
    # TRANSLATORS: the period the history's figures cover: "in 2026", or "all time".
    return t("all time") if year is None else t("in {year}", year=str(year))


def history_title(player: str | None, year: int | None) -> str:
    """Whose figures these are and over when: a name, or the seats this machine's player sat in."""
    if player is None:
        # TRANSLATORS: the head of the history: "Your history, in 2026" / "Your history, all time".
        return t("Your history, {period}", period=period_title(year))
    # TRANSLATORS: the head of the history: "History of Ana, in 2026" / "History of Ana, all time".
    return t("History of {name}, {period}", name=display_text(player, 40), period=period_title(year))


def summary_sentence(figures: Figures) -> str:
    """The figures in one sentence: played, won, each game's own (points a round, counts, points a hand
    and best play), capicús and chuchazos."""
    if not figures.played:
        return t("No finished match.")
    parts = [tn("{count} match played", "{count} matches played", figures.played,
                count=format_number(figures.played)),
             tn("{count} won ({share})", "{count} won ({share})", figures.won,
                count=format_number(figures.won), share=_share(figures.won, figures.played))]
    parts += [said for words in SUMMARY.values() if (said := words(figures)) is not None]
    if LINE_GAME in figures.played_by_game or figures.capicu or figures.chuchazo:
        # The Draw family's bonuses: said of a player who played one of its games (not of Fives and
        # Threes or Mexican Train only, where "0 capicús" would be noise).
        parts.append(tn("{count} capicú", "{count} capicús", figures.capicu,
                        count=format_number(figures.capicu)))
        parts.append(tn("{count} chuchazo", "{count} chuchazos", figures.chuchazo,
                        count=format_number(figures.chuchazo)))
    # TRANSLATORS: between the parts of the history's summary: "12 matches played, 7 won (58%), ...".
    return t("{parts}.", parts=list_separator().join(parts))


def aligned(table: FigureTable) -> list[str]:
    """The table as lines of text, each column as wide as its widest cell (numbers to the right)."""
    lines = [table.columns, *table.rows]
    widths = [max(len(line[column]) for line in lines) for column in range(len(table.columns))]
    return ["  ".join(cell.ljust(widths[0]) if column == 0 else cell.rjust(widths[column])
                      for column, cell in enumerate(line)).rstrip() for line in lines]


def summary_lines(history: History, player: str | None, year: int | None) -> list[str]:
    """What ``capicu history`` prints of a player: the summary, then by game and by opponent."""
    figures = history.figures(player, year=year)
    lines = [history_title(player, year), summary_sentence(figures)]
    if not figures.played:
        return lines
    lines += ["", t("By game"), *aligned(presets_table(history.by_preset(player, year=year)))]
    opponents = history.by_opponent(player, year=year)
    if opponents:
        lines += ["", t("By opponent"), *aligned(opponents_table(opponents))]
    return lines


def standings_lines(history: History, year: int | None) -> list[str]:
    """What ``capicu history --host`` prints: every person who played at this host's table."""
    standings = history.standings(year=year)
    lines = [t("Standings at this table, {period}", period=period_title(year))]
    if not standings:
        return [*lines, t("No finished match.")]
    return [*lines, *aligned(standings_table(standings))]


__all__ = [
    "FigureTable",
    "describe_history_problem",
    "figure_cells",
    "figure_columns",
    "history_title",
    "opponents_table",
    "period_title",
    "presets_table",
    "standings_lines",
    "standings_table",
    "summary_lines",
    "summary_sentence",
]
