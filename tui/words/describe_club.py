"""A club night in words: its format, its phase, its tables, and the standings' headings.

The host speaks in values (`ClubPhase`, `TableState`, the format's name); these
are the sentences a person reads, in the reader's language.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence

from capicu.core.club import ClubProblem
from capicu.core.codes import Param
from capicu.net.protocol import NAME_LIMIT, ClubDrawn, ClubPhase, ClubRoster, ClubTable, TableState
from capicu.tui.words.describe import display_text, list_separator
from capicu.tui.words.messages import N_, t, tc, tn


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


def phase_line(roster: ClubRoster, *, organiser: bool = False, round_delay: float | None = None) -> str:
    """Where the night stands, in one line ("Round 2 of 3 under way."), as it is true for its reader.

    ``organiser``: the reader runs the night (they draw the rounds, with the s key), and
    ``round_delay`` is then the night's seconds from a round's end to the next draw (None: the
    organiser draws each round). A player is not told the night's settings: their line holds
    either way.
    """
    phase = roster.phase
    if phase == ClubPhase.GATHERING:
        joined = sum(1 for entrant in roster.entrants if entrant.active)
        if organiser:
            return tn("{count} player has joined: press s to draw round 1 once everybody is here.",
                      "{count} players have joined: press s to draw round 1 once everybody is here.",
                      joined)
        return tn("{count} player has joined; the organiser starts round 1 when everybody is here.",
                  "{count} players have joined; the organiser starts round 1 when everybody is here.",
                  joined)
    if phase == ClubPhase.PLAYING:
        return t("Round {round} of {rounds} under way.", round=roster.round, rounds=roster.rounds)
    if phase == ClubPhase.BETWEEN:
        over = {"round": roster.round, "rounds": roster.rounds, "next": roster.round + 1}
        if not organiser:
            return t("Round {round} of {rounds} is over: waiting for round {next} to be drawn.", **over)
        if round_delay is None:
            return t("Round {round} of {rounds} is over: press s to draw round {next}.", **over)
        return tn("Round {round} of {rounds} is over: round {next} is drawn by itself {count} second "
                  "after the last table ended, or now if you press s.",
                  "Round {round} of {rounds} is over: round {next} is drawn by itself {count} seconds "
                  "after the last table ended, or now if you press s.",
                  math.ceil(round_delay), **over)
    if phase == ClubPhase.OVER:
        return t("The night is over: these are the final standings.")
    return phase


def table_state_name(state: str) -> str:
    """How a table of the round stands, in a word."""
    names: dict[str, str] = {
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
    if format in ("swiss", "rotating-partners"):  # core/club/standings.py breaks their ties so
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


#: What a refused club setting or step means, in words (params as core gives them).
_CLUB_PROBLEMS: dict[ClubProblem, str] = {
    ClubProblem.ROUNDS: N_("a night has 1 to {most} rounds, not {value}"),
    ClubProblem.TABLE_SIZE: N_("this game seats {low} to {high} at a table, not {value}"),
    ClubProblem.ROTATING_NEEDS_PARTNERS: N_("rotating partners is for a partners' game at tables of 4 "
                                            "(such as puerto-rican-partners)"),
    ClubProblem.ROUND_ROBIN_NEEDS_TWO_SIDES: N_("a round robin pairs two sides at a table: two players, or "
                                                "two pairs of partners"),
    ClubProblem.ROUND_ROBIN_TOO_MANY: N_("{units} players are too many for a round robin (at most {most}): "
                                         "play Swiss"),
    ClubProblem.ROUND_ROBIN_CLOSED: N_("the round robin has begun: nobody joins it now"),
    ClubProblem.NIGHT_NAME: N_("a night's name is one line of at most {limit} characters"),
    ClubProblem.NAME_EMPTY: N_("a name cannot be empty"),
    ClubProblem.NAME_TOO_LONG: N_("a name is at most {limit} characters"),
    ClubProblem.NAME_NOT_CLEAN: N_("a name is one line of letters, without characters that draw nothing"),
    ClubProblem.NAME_TAKEN: N_("somebody in the club is already called {name}"),
    ClubProblem.FULL: N_("the club is full ({most} people)"),
    ClubProblem.NO_ENTRANT: N_("nobody in the club has the number {entrant}"),
    ClubProblem.ALREADY_LEFT: N_("that player has already left the club"),
    ClubProblem.ROUND_NOT_DONE: N_("round {round} is still being played: the next is drawn when every "
                                   "table is done (or closed)"),
    ClubProblem.NIGHT_OVER: N_("the night is over: its {rounds} rounds are played"),
    ClubProblem.TOO_FEW: N_("a round needs {least} players in the club, and it has {count}"),
    ClubProblem.NO_ROUND: N_("no round is being played"),
    ClubProblem.NO_TABLE: N_("round {round} has no table {table}"),
    ClubProblem.ALREADY_RECORDED: N_("table {table} of round {round} already has its result"),
    ClubProblem.BAD_RESULT: N_("a result that does not fit its table ({what})"),
    ClubProblem.BAD_LOG: N_("the night's journal cannot be read ({what})"),
    ClubProblem.BAD_DRAW: N_("a draw that does not fit the night ({what})"),
}

#: The same problems as the command line words them, naming its options.
_CLUB_OPTION_PROBLEMS: dict[ClubProblem, str] = {
    ClubProblem.ROUNDS: N_("--club-rounds must be from 1 to {most}, not {value}"),
    ClubProblem.TABLE_SIZE: N_("--table-size {value}: this game seats {low} to {high} at a table"),
    ClubProblem.ROTATING_NEEDS_PARTNERS: N_("--format rotating-partners is for a partners' game at tables of "
                                            "4 (such as --preset puerto-rican-partners)"),
    ClubProblem.ROUND_ROBIN_NEEDS_TWO_SIDES: N_("--format round-robin pairs two sides at a table: two "
                                                "players (--table-size 2), or two pairs of partners"),
    ClubProblem.NIGHT_NAME: N_("--night-name is one line of at most {limit} characters"),
}


def describe_club_problem(
    code: ClubProblem, params: Mapping[str, Param], *, command_line: bool = False
) -> str:
    """A refused club setting or step in one sentence; ``command_line``: in terms of the options."""
    words = (_CLUB_OPTION_PROBLEMS.get(code) if command_line else None) or _CLUB_PROBLEMS[code]
    return t(words, **{name: str(value) for name, value in params.items()})
