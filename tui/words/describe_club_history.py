"""The club nights kept, in words: ``capicu history --club`` and the printed standings' page.

net/store/club.py keeps the nights and recomputes their standings and each player's matches
(core/club/); this module says them in the language spoken: a night's title, its standings
as a table of cells (`FigureTable`, written in aligned columns), each player's matches, and the
words of the printable page (`PageWords`).
"""

from __future__ import annotations

from capicu.core.club import PlayerMatch, Standing
from capicu.net.store.club import KeptNight, PageWords
from capicu.tui.words.describe import display_text, list_separator
from capicu.tui.words.describe_club import format_name, signed
from capicu.tui.words.describe_history import FigureTable
from capicu.tui.words.describe_rules import game_title
from capicu.tui.words.messages import current, format_number, t, tc

#: The longest night's name shown.
NIGHT_NAME_SHOWN = 60


def night_name(kept: KeptNight) -> str:
    """The night's name as shown; a night without one is called by its number."""
    name = display_text(kept.name, NIGHT_NAME_SHOWN)
    return name or t("Club night {number}", number=format_number(kept.number))


def night_title(kept: KeptNight) -> str:
    """One line: the night's number, name, game, format and day ("3. Friday league: ...")."""
    # TRANSLATORS: a club night in `capicu history --club`: its number, name, game, format and day
    # (YYYY-MM-DD, in UTC).
    return t("{number}. {name}: {game}, {format}, {day}", number=format_number(kept.number),
             name=night_name(kept), game=game_title(kept.preset), format=format_name(kept.format),
             day=display_text(kept.started[:10], 10))


def night_state(kept: KeptNight) -> str:
    """Where the night ended, or stands: its rounds played and its winner."""
    night = kept.night
    played = format_number(night.round)
    if kept.ended is None:
        # TRANSLATORS: a club night kept before it was over (its host stopped, or it is going on).
        return t("Rounds played: {played} of {rounds}; not over.", played=played,
                 rounds=format_number(night.total_rounds))
    table = kept.standings
    if not table or (not table[0].played and not table[0].byes):
        return t("Rounds played: {played}.", played=played)
    return t("Rounds played: {played}; won by {name}.", played=played,
             name=display_text(kept.name_of(table[0].entrant), 24))


def standings_columns() -> tuple[str, ...]:
    """The titles of the standings' columns (`standings_cells`' order)."""
    # TRANSLATORS: short column titles of a club night's standings: place, name, matches played and
    # won, points difference, Buchholz (the matches won by one's opponents), rounds sat out, matches
    # with a computer at the table.
    return (t("#"), t("Name"), t("Played"), t("Won"), tc("standings: points difference", "+/-"),
            tc("standings: Buchholz tie-break", "Bh"), tc("standings: byes", "Bye"),
            tc("standings: matches with a computer at the table", "Cpu"))


def player_name(kept: KeptNight, entrant: int) -> str:
    """An entrant's name as shown; one who left the night says so."""
    name = display_text(kept.name_of(entrant), 24)
    if not kept.night.entrants[entrant].active:
        # TRANSLATORS: after the name of a player who left a club night for good.
        return t("{name} (left)", name=name)
    return name


def standings_cells(kept: KeptNight, place: int, standing: Standing) -> tuple[str, ...]:
    return (format_number(place), player_name(kept, standing.entrant), format_number(standing.played),
            format_number(standing.won), signed(standing.difference), format_number(standing.buchholz),
            format_number(standing.byes), format_number(standing.computer_seats))


def standings_table(kept: KeptNight) -> FigureTable:
    """The night's standings, best first."""
    rows = tuple(standings_cells(kept, place, s) for place, s in enumerate(kept.standings, 1))
    return FigureTable(standings_columns(), rows)


def aligned(table: FigureTable) -> list[str]:
    """The standings as lines, each column as wide as its widest cell (names left, figures right)."""
    lines = [table.columns, *table.rows]
    widths = [max(len(line[column]) for line in lines) for column in range(len(table.columns))]
    return ["  ".join(cell.ljust(widths[column]) if column == 1 else cell.rjust(widths[column])
                      for column, cell in enumerate(line)).rstrip() for line in lines]


def _names(kept: KeptNight, entrants: tuple[int, ...], computers: int) -> str:
    names = [display_text(kept.name_of(entrant), 24) for entrant in entrants]
    names += [tc("a seat the computer plays", "computer")] * computers
    return list_separator().join(names)


def match_line(kept: KeptNight, match: PlayerMatch) -> str:
    """One round of a player's night: "Round 2, table 1: won 150-90 against Bea (with Cruz)"."""
    if match.bye:
        if match.won:
            return t("Round {round}: sat out, counted as a match won.", round=format_number(match.round))
        return t("Round {round}: sat out.", round=format_number(match.round))
    score = f"{format_number(match.points_for)}-{format_number(match.points_against)}"
    if match.level:
        outcome = t("level {score}", score=score)
    elif match.won:
        outcome = t("won {score}", score=score)
    else:
        outcome = t("lost {score}", score=score)
    # A computer sits across from the player (a partner) or against them.
    partner_computers = 1 if kept.night.config.partners and not match.partners else 0
    opponents = _names(kept, match.opponents, match.computers - partner_computers)
    line = t("Round {round}, table {table}: {outcome} against {opponents}", round=format_number(match.round),
             table=format_number(match.table or 0), outcome=outcome, opponents=opponents)
    if match.partners or partner_computers:
        line = t("{match}, with {partners}", match=line, partners=_names(kept, match.partners,
                                                                          partner_computers))
    if match.closed:
        # TRANSLATORS: a club match the organiser closed before its end: its score as it stood.
        line = t("{match} (closed by the organiser)", match=line)
    return line + "."


def night_lines(kept: KeptNight, player: str | None = None) -> list[str]:
    """A night in full: its title, its state, its standings, and each player's matches
    (``player``'s only, by name, when given)."""
    lines = [night_title(kept), night_state(kept)]
    if not kept.night.entrants:
        return [*lines, t("Nobody joined.")]
    lines += ["", *aligned(standings_table(kept))]
    for standing in kept.standings:
        entrant = kept.night.entrants[standing.entrant]
        if player is not None and entrant.name.casefold() != player.casefold():
            continue
        matches = kept.matches_of(entrant.id)
        lines += ["", player_name(kept, entrant.id)]
        lines += [f"  {match_line(kept, match)}" for match in matches] or ["  " + t("No match played.")]
    return lines


def page_words(kept: KeptNight) -> PageWords:
    """The printed standings' words, in the language spoken."""
    night = kept.night
    if kept.ended is not None:
        title = t("{name}: final standings", name=night_name(kept))
    else:
        title = t("{name}: standings after round {round} of {rounds}", name=night_name(kept),
                  round=format_number(night.round), rounds=format_number(night.total_rounds))
    subtitle = t("{game}, {format}, {day}", game=game_title(kept.preset), format=format_name(kept.format),
                 day=display_text(kept.started[:10], 10))
    # TRANSLATORS: the column titles of the printed standings (a page for the wall: room for words).
    columns = (t("Place"), t("Name"), t("Played"), t("Won"), t("Points difference"), t("Points for"),
               t("Points against"), t("Byes"), t("With a computer"), t("Buchholz"), t("Head to head"),
               t("Opponents"))
    return PageWords(language=current().code, title=title, subtitle=subtitle, columns=columns,
                     left=tc("a player who left a club night", "left"))


__all__ = [
    "match_line",
    "night_lines",
    "night_name",
    "night_state",
    "night_title",
    "page_words",
    "standings_columns",
    "standings_table",
]
