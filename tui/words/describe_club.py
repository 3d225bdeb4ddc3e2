"""A club night in words: its format, its phase, its tables, and the standings' headings.

The host speaks in values (`ClubPhase`, `TableState`, the format's name); these
are the sentences a person reads, in the reader's language.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from capicu.net.protocol import NAME_LIMIT, ClubDrawn, ClubPhase, ClubRoster, ClubTable, TableState
from capicu.tui.words.describe import display_text, list_separator
from capicu.tui.words.messages import t, tc, tn


def format_name(format: str) -> str:
    """A night's format in a few words ("Swiss", "rotating partners", "round robin")."""
    names = {
        "swiss": tc("a club night's format", "Swiss"),
        "rotating-partners": tc("a club night's format", "rotating partners"),
        "round-robin": tc("a club night's format", "round robin"),
    }
    return names.get(format, format)


def bye_name(bye: str) -> str:
    """What a bye is worth, in a few words (the organiser's choice)."""
    names = {
        "computer": tc("a club night's bye rule", "a computer fills the seat"),
        "win": tc("a club night's bye rule", "a bye is a match won"),
        "nothing": tc("a club night's bye rule", "a bye scores nothing"),
    }
    return names.get(bye, bye)


def phase_line(roster: ClubRoster) -> str:
    """Where the night stands, in one line ("Round 2 of 3 under way.")."""
    phase = roster.phase
    if phase == ClubPhase.GATHERING:
        return tn("{count} player has joined; the organiser starts round 1 when everybody is here.",
                  "{count} players have joined; the organiser starts round 1 when everybody is here.",
                  sum(1 for entrant in roster.entrants if entrant.active))
    if phase == ClubPhase.PLAYING:
        return t("Round {round} of {rounds} under way.", round=roster.round, rounds=roster.rounds)
    if phase == ClubPhase.BETWEEN:
        return t("Round {round} of {rounds} is over: the organiser draws the next one.",
                 round=roster.round, rounds=roster.rounds)
    if phase == ClubPhase.OVER:
        return t("The night is over: these are the final standings.")
    return phase


def table_state_name(state: str) -> str:
    """How a table of the round stands, in a word."""
    names = {
        TableState.PLAYING: tc("a club table's state", "playing"),
        TableState.DONE: tc("a club table's state", "done"),
        TableState.CLOSED: tc("a club table's state", "closed"),
    }
    return names.get(state, state)


def entrant_names(roster: ClubRoster | None) -> Callable[[int | None], str]:
    """A function naming an entrant by id (None: the computer that fills a seat), as shown."""
    names = {entrant.id: display_text(entrant.name, NAME_LIMIT) for entrant in roster.entrants} \
        if roster is not None else {}

    def name(entrant: int | None) -> str:
        if entrant is None:
            return tc("a seat the computer plays", "computer")
        return names.get(entrant) or t("player {number}", number=entrant + 1)

    return name


def table_players(table: ClubTable, name: Callable[[int | None], str]) -> str:
    """Who sits at a table, side by side: "Ana, Beto - Carla, Dani" (partners together)."""
    sides = [
        list_separator().join(name(table.seats[seat]) for seat in side if seat < len(table.seats))
        for side in table.sides
    ] or [list_separator().join(name(entrant) for entrant in table.seats)]
    return " - ".join(sides)


def table_line(table: ClubTable, name: Callable[[int | None], str]) -> str:
    """One table of the round: "Table 2: Ana, Beto - Carla, Dani (playing, 120-85)"."""
    who = table_players(table, name)
    state = table_state_name(table.state)
    if table.points:
        score = "-".join(str(points) for points in table.points)
        # TRANSLATORS: a club table: its number, its players by side, its state and its points so far.
        return t("Table {number}: {who} ({state}, {score})", number=table.number, who=who, state=state,
                 score=score)
    return t("Table {number}: {who} ({state})", number=table.number, who=who, state=state)


def draw_lines(drawn: ClubDrawn, roster: ClubRoster | None) -> list[str]:
    """The round's draw: a line a table, the byes, and (for a player) where they sit."""
    name = entrant_names(roster)
    lines = [t("Round {round} is drawn:", round=drawn.round)]
    lines += ["  " + table_line(table, name) for table in drawn.tables]
    if drawn.byes:
        lines.append("  " + t("Sitting out: {names}",
                              names=list_separator().join(name(entrant) for entrant in drawn.byes)))
    you = _your_table(drawn)
    if you is not None and drawn.seat is not None:
        lines.append(t("You sit at table {number}, seat {seat}: taking you there...", number=you.number,
                       seat=drawn.seat + 1))
    elif roster is not None and roster.you is not None and roster.you in drawn.byes:
        lines.append(t("You sit this round out."))
    return lines


def _your_table(drawn: ClubDrawn) -> ClubTable | None:
    return next((table for table in drawn.tables if table.name == drawn.table), None)


def standings_heading(round: int, rounds: int, final: bool) -> str:
    """The standings' title: final, after a round, or before any."""
    if final:
        return t("Final standings")
    if round == 0:
        return t("Standings (no match played yet)")
    return t("Standings: round {round} of {rounds}", round=round, rounds=rounds)


def standings_columns(format: str, any_byes: bool, any_computers: bool) -> list[tuple[str, str]]:
    """The standings' columns (key, heading), those the night needs only."""
    columns = [
        ("place", t("#")),
        # TRANSLATORS: the standings' column headings are short: 80 columns hold them all.
        ("name", t("Name")),
        ("played", tc("standings: matches played", "Pl")),
        ("won", tc("standings: matches won", "Won")),
        ("difference", tc("standings: points difference", "+/-")),
    ]
    if format == "swiss":
        columns.append(("buchholz", tc("standings: Buchholz tie-break", "Bh")))
    if any_byes:
        columns.append(("byes", tc("standings: byes", "Bye")))
    if any_computers:
        columns.append(("computers", tc("standings: matches with a computer at the table", "Cpu")))
    if format == "rotating-partners":
        columns.append(("partners", tc("standings: the places of one's partners", "With")))
    columns.append(("opponents", tc("standings: the places of the opponents met", "Met")))
    return columns


def standings_legend(keys: Sequence[str]) -> str:
    """What the standings' short headings mean, for those shown."""
    words = {
        "played": tc("standings legend", "Pl played"),
        "won": tc("standings legend", "Won matches won"),
        "difference": tc("standings legend", "+/- points difference"),
        "buchholz": tc("standings legend", "Bh the opponents' wins"),
        "byes": tc("standings legend", "Bye rounds sat out"),
        "computers": tc("standings legend", "Cpu with a computer"),
        "partners": tc("standings legend", "With: partners' places"),
        "opponents": tc("standings legend", "Met: opponents' places"),
    }
    return list_separator().join(words[key] for key in keys if key in words)


def signed(number: int) -> str:
    """A difference with its sign ("+12", "-3", "0")."""
    return f"+{number}" if number > 0 else str(number)
