"""Public events, round results, refusals and hints in words, through the message catalogue.

Every sentence that can name the reader speaks to them ("You win the round"),
and one about partners names the team ("You and Luis win the round", "Team
Ana & Beto takes ..."): the reader's seat is passed in, never a name "You".

The host already cleans names and chat, but a name is shown on a terminal, so
every name passes `display_text` again here: one forgotten path on the host
must not let a player move another player's cursor.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from datetime import datetime
from enum import Enum
from typing import TYPE_CHECKING

from capicu.core import (
    Action,
    Bonus,
    Event,
    MatchEnded,
    Outcome,
    Passed,
    Refusal,
    RoundEnded,
    RoundResult,
    RoundStarted,
    Rules,
    Scoring,
    Tile,
    TilePlayed,
    TilesDrawn,
    View,
    why_not,
)
from capicu.core.draw.refusals import DrawRefusal
from capicu.core.rules import RulesProblem
from capicu.net.client import LinkEnd
from capicu.net.host.sanitize import clean_text
from capicu.net.host.server import HostNote, HostProblem
from capicu.net.protocol import NAME_LIMIT, ErrorCode, SeatKind
from capicu.net.store.journals import Unfinished
from capicu.net.store.keeping import HistoryProblem
from msgspec import UNSET

from .messages import N_, ascii_only, t, tc, tn, to_ascii

if TYPE_CHECKING:  # the hints' module loads the search, which the table loads on the first hint
    from capicu.core.ai.hints import Hint
    from capicu.net.store.record import MatchRecord

#: Why a key did nothing: one sentence for each `Refusal` and `DrawRefusal` code of the engine
#: (those that count or compare are worded in `describe_refusal`).
REFUSALS: Mapping[str, str] = {
    Refusal.MATCH_OVER: N_("The match is over."),
    Refusal.ROUND_OVER: N_("This round is over; the next one is not dealt yet."),
    Refusal.NOT_AN_ACTION: N_("That is not a move."),
    Refusal.SPECTATOR: N_("You are watching: spectators do not play."),
    Refusal.NOT_YOUR_TURN: N_("Not your turn: {name} is playing."),
    Refusal.NO_SUCH_TILE: N_("There is no {tile} in a double-{max_pip} set."),
    Refusal.NOT_HELD: N_("You do not hold {tile}."),
    DrawRefusal.LEAD_MUST_BE: N_("The round opens with {tile}: that is the only lead allowed."),
    DrawRefusal.LEAD_ON_LEFT: N_("The lead starts la mesa: {tile} goes on the left."),
    DrawRefusal.FITS_NEITHER_END: N_("{tile} fits neither end ({left} or {right})."),
    DrawRefusal.WRONG_END: N_("{tile} does not fit the {end} end ({number})."),
    DrawRefusal.NO_DRAWING: N_("There is no drawing in this game: with nothing that fits, you pass (paso)."),
    Refusal.BONEYARD_EMPTY: N_("There is nothing to draw: el pozo is empty."),
    Refusal.MUST_PLAY: N_("You hold a tile that fits ({tile}), so you cannot draw."),
    Refusal.PASS_WHILE_FITS: N_("You hold a tile that fits ({tile}), so you cannot pass."),
    Refusal.PASS_WHILE_DRAWABLE: N_("Tiles can still be drawn from el pozo, so you cannot pass: draw."),
    DrawRefusal.BLANKS_NOT_WILD: N_("Blanks are not wild in this game: a blank is given no number."),
    DrawRefusal.NO_BLANK: N_("{tile} has no blank to give a number."),
    DrawRefusal.BLANK_NUMBER: N_("A blank can be given a number from 0 to {max_pip}, not {number}."),
    DrawRefusal.BLANK_NOT_LEFT_OPEN: N_("On the {end} end the blank of {tile} touches the {number} and "
                                    "takes it."),
    DrawRefusal.BLANK_NEEDS_NUMBER: N_("Say which number the blank of {tile} is (0 to {max_pip})."),
    DrawRefusal.NO_REDEAL: N_("There is no new deal on five doubles in this game."),
    DrawRefusal.REDEAL_TOO_LATE: N_("A new deal may be asked for only before the first tile is laid."),
    DrawRefusal.REDEAL_FEW_DOUBLES: N_("A new deal needs {needed} doubles in hand; you hold {doubles}."),
    Refusal.NOT_ALLOWED: N_("That is not allowed now."),
}

#: Why a hint suggests its move: one phrase for each `HintReason` code (its value).
HINT_REASONS: Mapping[str, str] = {
    "must-draw": N_("nothing you hold fits {left} or {right}: draw"),
    "must-pass": N_("nothing fits and nothing can be drawn: pass"),
    "forced-lead": N_("the round opens with {tile}"),
    "only-tile": N_("{tile} is the only tile that fits"),
    "domino": N_("your last tile: domino"),
    "blocks-next": N_("the next player could not match {number}"),
    "blocks-seat": N_("{name} could not match {number}"),
    "keeps-suit": N_("keeps your {number}s"),
    "double": N_("lays the double {tile} while it still fits"),
    "sheds-weight": N_("gets rid of {pips} pips"),
    "draw-better": N_("drawing does better than any tile here"),
    "best-odds": N_("it gives the best chances"),
}

#: A hint's reasons with their figures, said when the hint is asked for again.
HINT_EVIDENCE: Mapping[str, str] = {
    "best-odds": N_("it did best in {samples} deals of the tiles you cannot see, tried out"),
}

#: What the host's refusals mean: one sentence for each `ErrorCode` (the host's own sentence is
#: English, for programmers and logs; a person reads this one).
HOST_ERRORS: Mapping[str, str] = {
    ErrorCode.BAD_FRAME: N_("The host could not read what this terminal sent."),
    ErrorCode.BAD_MESSAGE: N_("The host could not understand what this terminal sent."),
    ErrorCode.UNKNOWN_TYPE: N_("The host does not know what this terminal asked for."),
    ErrorCode.VERSION: N_("This capicu and the host's are different versions: update the older one."),
    ErrorCode.NOT_READY: N_("The host was not ready for that yet."),
    ErrorCode.BAD_CODE: N_("That is not this table's join code."),
    ErrorCode.BAD_NAME: N_("That name cannot be used at the table: choose another."),
    ErrorCode.NAME_TAKEN: N_("Somebody at this table already has that name: choose another."),
    ErrorCode.BAD_TOKEN: N_("That seat is not held at this table any more."),
    ErrorCode.MATCH_GONE: N_("The host restarted without this match: it is lost."),
    ErrorCode.NO_TABLE: N_("The host has no such table."),
    ErrorCode.TABLE_FULL: N_("Every seat and every spectator's place is taken."),
    ErrorCode.NOT_SEATED: N_("You are watching: spectators do not play."),
    ErrorCode.NOT_STARTED: N_("The match starts when every seat is filled."),
    ErrorCode.ILLEGAL: N_("The host refused that move."),
    ErrorCode.RATE_LIMITED: N_("Too much too fast: wait a moment."),
    ErrorCode.TOO_MANY_ERRORS: N_("The host hung up after too many messages it could not use."),
    ErrorCode.TOO_MANY_CONNECTIONS: N_("The host has too many connections from this address."),
    ErrorCode.TIMEOUT: N_("The host hung up: this terminal took too long to answer."),
    ErrorCode.REPLACED: N_("Your seat was taken back on another connection."),
    ErrorCode.SHUTTING_DOWN: N_("The host is shutting down."),
    ErrorCode.SEAT_HELD: N_("That seat is held for a player who is away: take it back with its seat key, "
                            "or join again from the machine that had it."),
    ErrorCode.REFUSED: N_("The host did not give the seat back."),
}

#: Why a rule setting cannot be played: one sentence for each `RulesProblem` of the engine (the player
#: count is worded in `describe_rules_problem`). {option} is the setting's name in the code, as typed
#: in a file; {value} is the value refused, as Python writes it.
RULES_PROBLEMS: Mapping[str, str] = {
    RulesProblem.NO_PRESET: N_("There is no preset {name}: choose one of {choices}."),
    RulesProblem.NOT_ONE_OF: N_("{option} must be one of {choices}, not {value}."),
    RulesProblem.HANDS_TOO_BIG: N_("{players} hands of {hand_size} tiles need more than the {tiles} tiles "
                                   "of a double-{max_pip} set."),
    RulesProblem.SET_SIZE: N_("The set must be double-6, double-9 or double-12, not double-{value}."),
    RulesProblem.PLAYERS_OUT_OF_RANGE: N_("A game is for 2 to 4 players."),
    RulesProblem.NOT_WHOLE_FROM: N_("{option} must be a whole number from {low} up, not {value}."),
    RulesProblem.TARGET: N_("The points to win must be a whole number from 1 up, not {value}."),
    # TRANSLATORS: {flag} is a command-line option as typed ("--target"); {high} the most it takes.
    RulesProblem.TOO_BIG: N_("{flag} must be at most {high}, not {value}."),
    RulesProblem.MAX_DRAWS: N_("The most tiles drawn in one turn must be a whole number from 1 up, or none, "
                               "not {value}."),
    RulesProblem.NOT_A_LIST: N_("{option} must be a list of whole numbers."),
    RulesProblem.LIST_TOO_LONG: N_("{option} is too long."),
    RulesProblem.PARTNERSHIPS_NEED_FOUR: N_("Partnerships need four players."),
    RulesProblem.NO_DOUBLE_DEALT: N_("No deal gave anybody a double ({deals} deals in a row): "
                                     "nobody can lead the first round."),
    RulesProblem.HOUSE_RULE_NOT_FOR_GAME: N_("{option} is a house rule of the Draw family: {preset} is "
                                             "played without it."),
    RulesProblem.DRAW_SEVERAL_NEEDS_DRAWING: N_("{preset} has no drawing, so nobody can draw several tiles "
                                                "at once."),
    RulesProblem.DRAW_SEVERAL_WITH_MAX_DRAWS: N_("Drawing several tiles at once and a limit on the tiles "
                                                 "drawn in one turn cannot go together: choose one."),
    RulesProblem.UNPLAYABLE: N_("These rules cannot be played."),
}


def describe_rules_problem(code: str, params: Mapping[str, object]) -> str:
    """Why a rule setting cannot be played, from the engine's `RulesError` (its ``code`` and ``params``)."""
    values = {
        name: value if isinstance(value, int) else display_text(value, 120) for name, value in params.items()
    }
    players, low, high = params.get("players"), params.get("low"), params.get("high")
    if code == RulesProblem.PLAYER_COUNT and isinstance(players, int):
        if low == high:
            return tn("{preset} is played by exactly {low} players, not {count}",
                      "{preset} is played by exactly {low} players, not {count}", players, **values)
        return tn("{preset} is played by {low} to {high} players, not {count}",
                  "{preset} is played by {low} to {high} players, not {count}", players, **values)
    if code == RulesProblem.PLAYER_COUNT:
        return t("{preset} is played by {low} to {high} players, not {players}", **values)
    return t(RULES_PROBLEMS.get(code, RULES_PROBLEMS[RulesProblem.UNPLAYABLE]), **values)


def played_at(record: MatchRecord) -> str:
    """When the match of ``record`` started, in this machine's time: ``2026-12-01 17:02``."""
    try:
        moment = datetime.fromisoformat(record.started).astimezone()
    except ValueError:
        return record.started
    return moment.strftime("%Y-%m-%d %H:%M")


def display_text(text: object, limit: int = 500) -> str:
    """``text`` safe to print: no escape or control sequence, one line, at most ``limit`` chars.

    The same cleaning the host applies (`capicu.net.host.sanitize`), applied again on
    display, and in ASCII mode turned into plain ASCII.
    """
    value = clean_text(str(text), limit=limit)
    return to_ascii(value) if ascii_only() else value


def seat_name(names: Sequence[str], seat: int) -> str:
    """The name shown for ``seat``: its player's name, or "seat N" when it has none."""
    if 0 <= seat < len(names):
        name = display_text(names[seat], NAME_LIMIT)
        if name:
            return name
    return t("seat {number}", number=seat + 1)


def side_members(side: int, sides: int, players: int) -> list[int]:
    """The seats that score together as ``side`` (one seat unless in partnerships)."""
    if sides == players or sides <= 0:
        return [side]
    return [seat for seat in range(players) if seat % sides == side]


def seat_label(names: Sequence[str], seat: int, my_seat: int | None = None) -> str:
    """A seat as a label ("Ana: out", a column): its name, or "You" for the reader's own."""
    return you_title() if seat == my_seat else seat_name(names, seat)


def side_name(
    side: int, names: Sequence[str], sides: int, players: int, my_seat: int | None = None
) -> str:
    """A side as a label: "Ana", "Ana and Luis" for partners; "You", "You and Luis" for the reader's.

    One form everywhere, a label or a sentence's subject: the names as the language lists them.
    """
    members = side_members(side, sides, players)
    if not members:  # a side number out of range (from a faulty host)
        return seat_name(names, side)
    if my_seat in members:
        return and_list([you_title(), *(seat_name(names, seat) for seat in members if seat != my_seat)])
    return partner_names([seat_name(names, seat) for seat in members])


def partner_names(names: Sequence[str]) -> str:
    """Partners' names as one label ("Ana and Luis"), joined as the language lists names."""
    return and_list(names)


def you_title() -> str:
    """The reader as a label ("You: out", a column's name)."""
    return tc("the reader, as a label", "You")


def you() -> str:
    """The reader inside a sentence or a caption ("▲ you" under the tile just played)."""
    return tc("the reader, inside a sentence", "you")


def end_name(end: str) -> str:
    """An end of the line of play in words ("left", "right")."""
    return tc("end of the line", "left") if end == "left" else tc("end of the line", "right")


def _you_or(seat: int, names: Sequence[str], my_seat: int | None) -> tuple[str, bool]:
    return seat_name(names, seat), seat == my_seat


class Subject(Enum):
    """Whom a sentence about a side speaks of, which picks its form."""

    #: Another player, or another partnership when nobody says "team" (``name``).
    OTHER = "other"
    #: Another partnership (``names``: "Ana and Luis", a plural subject).
    TEAM = "team"
    #: The reader alone.
    YOU = "you"
    #: The reader and their partner (``partner``).
    WE = "we"


def _subject(
    side: int, names: Sequence[str], sides: int, players: int, my_seat: int | None
) -> tuple[Subject, dict[str, str]]:
    """Whom a sentence about ``side`` speaks of, and the names it fills in."""
    members = side_members(side, sides, players)
    if my_seat is not None and my_seat in members:
        partners = [seat_name(names, seat) for seat in members if seat != my_seat]
        if partners:
            return Subject.WE, {"partner": partner_names(partners)}
        return Subject.YOU, {}
    if len(members) > 1:
        return Subject.TEAM, {"names": side_name(side, names, sides, players)}
    return Subject.OTHER, {"name": side_name(side, names, sides, players)}


def and_list(items: Sequence[str]) -> str:
    """``items`` as a list in words, as the language joins one: "4-5", "4-5 and 2-2", "4-5, 2-2 and 0-1".

    The catalogue's own pattern, not Babel's `format_list`: loading a language's list
    patterns from Babel costs 14-29 ms on first use (2 ms of import, then the locale data; measured
    after Textual is imported).
    """
    if len(items) <= 1:
        return "".join(items)
    # TRANSLATORS: a list of tiles or names, "4-5, 2-2 and 0-1": {items} are all but the last, joined by ", ".
    return t("{items} and {last}", items=list_separator().join(items[:-1]), last=items[-1])


def list_separator() -> str:
    """What separates the items of a list in a sentence (", ")."""
    return tc("between the items of a list", ", ")


def describe_covered(event: Event, my_seat: int | None) -> str | None:
    """``my_seat``'s move as the computer made it for them while they were away ("The computer played
    5-6 for you."); None for an event that is not that seat's play or pass."""
    if isinstance(event, TilePlayed) and event.seat == my_seat:
        blank = "" if event.blank is UNSET else " " + t("Its blank is {number}.", number=event.blank)
        return t("The computer played {tile} for you.", tile=str(event.tile)) + blank
    if isinstance(event, Passed) and event.seat == my_seat:
        return t("The computer passed for you.")
    return None


def describe_event(event: Event, names: Sequence[str], my_seat: int | None, *, lead: bool = False) -> str:
    """One public event as a sentence ("Ana plays 3-5 on the left.").

    ``lead``: this `TilePlayed` is the round's first tile (the event cannot tell,
    the sequence can: it follows `RoundStarted`), said as "Ana leads with 6-6."
    """
    if isinstance(event, RoundStarted):
        name, mine = _you_or(event.leader, names, my_seat)
        parts = []
        if event.asked_by is not UNSET and event.doubles is not UNSET:
            asker, asked = _you_or(event.asked_by, names, my_seat)
            parts.append(t("You asked for a new deal ({count} doubles).", count=event.doubles) if asked
                         else t("{name} asked for a new deal ({count} doubles).", name=asker,
                                count=event.doubles))
        if event.redeals:
            parts.append(tn("No double was dealt: the tiles were dealt again.",
                            "No double was dealt: the tiles were dealt again ({count} times).",
                            event.redeals))
        if mine:
            parts.append(t("Round {round} starts. You lead.", round=event.round_number))
        else:
            parts.append(t("Round {round} starts. {leader} leads.", round=event.round_number, leader=name))
        if event.forced_lead is not None:
            tile = str(event.forced_lead)
            parts.append(t("You must lead with {tile}.", tile=tile) if mine
                         else t("{leader} must lead with {tile}.", leader=name, tile=tile))
        return " ".join(parts)
    if isinstance(event, TilePlayed):
        name, mine = _you_or(event.seat, names, my_seat)
        tile = str(event.tile)
        # A wild blank's number is said after the play (house rules).
        blank = "" if event.blank is UNSET else " " + t("Its blank is {number}.", number=event.blank)
        if lead:
            if mine:
                return t("You lead with {tile}.", tile=tile) + blank
            return t("{name} leads with {tile}.", name=name, tile=tile) + blank
        # TRANSLATORS: {end} is "left" or "right", as worded for "end of the line".
        end = end_name(event.end.value)
        if mine:
            return t("You play {tile} on the {end}.", tile=tile, end=end) + blank
        return t("{name} plays {tile} on the {end}.", name=name, tile=tile, end=end) + blank
    if isinstance(event, TilesDrawn):
        name, mine = _you_or(event.seat, names, my_seat)
        if mine:
            return tn("You drew a tile.", "You drew {count} tiles.", event.count)
        return tn("{name} drew a tile.", "{name} drew {count} tiles.", event.count, name=name)
    if isinstance(event, Passed):
        name, mine = _you_or(event.seat, names, my_seat)
        return t("You pass (paso).") if mine else t("{name} passes (paso).", name=name)
    if isinstance(event, RoundEnded):
        result = event.result
        name, mine = _you_or(result.last_player, names, my_seat)
        tile = str(result.last_tile)
        if result.reason == Outcome.DOMINO:
            text = (t("Domino! You go out with {tile}.", tile=tile) if mine
                    else t("Domino! {name} goes out with {tile}.", name=name, tile=tile))
        else:
            text = (t("Tranque! You blocked the game with {tile}.", tile=tile) if mine
                    else t("Tranque! {name} blocked the game with {tile}.", name=name, tile=tile))
        bonuses = {bonus for bonus, _ in result.bonuses}
        if Bonus.CAPICU in bonuses:
            text += " " + t("¡Capicú!")
        if Bonus.CHUCHAZO in bonuses:
            text += " " + t("¡Chuchazo!")
        return text
    if isinstance(event, MatchEnded):
        sides = len(event.scores)
        players = max(len(names), sides)
        score = event.scores[event.winner] if 0 <= event.winner < sides else 0
        form, who = _subject(event.winner, names, sides, players, my_seat)
        if form is Subject.YOU:
            return t("You win the match with {score} points!", score=score)
        if form is Subject.WE:
            return t("You and {partner} win the match with {score} points!", score=score, **who)
        if form is Subject.TEAM:
            return t("{names} win the match with {score} points.", score=score, **who)
        return t("{name} wins the match with {score} points.", score=score, **who)
    return ""  # pragma: no cover - Event is a closed union


def describe_my_draw(tiles: Sequence[Tile]) -> str:
    """The drawer's own sentence, naming what came: "You drew 4-5 and 2-2."

    (Everybody else reads the count from the public event: "Pepe drew 2 tiles.")
    """
    if not tiles:
        return t("You drew no tile.")
    # TRANSLATORS: {tiles} is a list of tiles, "4-5, 2-2 and 0-1".
    return t("You drew {tiles}.", tiles=and_list([str(tile) for tile in tiles]))


def describe_bonus(bonus: Bonus, points: int, round_number: int) -> str:
    """One bonus of round ``round_number`` as a sentence ("Capicú bonus: +100.")."""
    if bonus == Bonus.CAPICU:
        return t("Capicú bonus: +{points}.", points=points)
    if bonus == Bonus.CHUCHAZO:
        return t("Chuchazo bonus: +{points}.", points=points)
    if bonus == Bonus.ROUND:
        return t("Bonus for winning round {number}: +{points}.", number=round_number, points=points)
    # A code from a newer host: shown as it came.
    return t("Bonus {bonus}: +{points}.", bonus=display_text(bonus, 40), points=points)


def describe_result(
    result: RoundResult,
    names: Sequence[str],
    rules: Rules,
    players: int,
    my_seat: int | None = None,
    *,
    hands: bool = True,
) -> list[str]:
    """A finished round in sentences: how it ended, every hand, who scored what and why.

    ``my_seat`` is the reader's seat (None for a spectator): sentences about it
    speak to them ("You win the round: 14 points."). ``hands=False`` leaves the
    hands out, for a screen that lays them out beside their seats.
    """
    sides = rules.sides(players)
    teams = sides != players
    name, mine = _you_or(result.last_player, names, my_seat)
    number, tile = result.round_number, str(result.last_tile)
    if result.reason == Outcome.DOMINO:
        lines = [t("Round {round}: domino. You go out with {tile}.", round=number, tile=tile) if mine
                 else t("Round {round}: domino. {name} goes out with {tile}.", round=number, name=name,
                        tile=tile)]
    else:
        lines = [t("Round {round}: tranque. You laid the last tile, {tile}.", round=number, tile=tile) if mine
                 else t("Round {round}: tranque. {name} laid the last tile, {tile}.", round=number, name=name,
                        tile=tile)]
    for seat, hand in enumerate(result.hands if hands else ()):
        label = seat_label(names, seat, my_seat)
        if hand:
            pips = result.pip_counts[seat] if seat < len(result.pip_counts) else sum(x.pips for x in hand)
            # TRANSLATORS: a hand at the end of a round: "Ana: 5-6 0-1 = 12".
            tiles = " ".join(str(x) for x in hand)
            lines.append(t("{name}: {tiles} = {pips}", name=label, tiles=tiles, pips=pips))
        else:
            lines.append(t("{name}: out", name=label))
    if teams:
        for side, count in enumerate(result.side_counts):
            form, who = _subject(side, names, sides, players, my_seat)
            if form is Subject.YOU:
                lines.append(t("You count {count}.", count=count))
            elif form is Subject.WE:
                lines.append(t("You and {partner} count {count}.", count=count, **who))
            elif form is Subject.TEAM:
                lines.append(t("{names} count {count}.", count=count, **who))
            else:
                lines.append(t("{name} counts {count}.", count=count, **who))
    winner = result.winner
    if winner is None:
        lines.append(t("Tie at {count}: nobody scores this round.", count=min(result.side_counts, default=0)))
    else:
        form, who = _subject(winner, names, sides, players, my_seat)
        if form is Subject.YOU:
            lines.append(tn("You win the round: {count} point.", "You win the round: {count} points.",
                            result.points))
        elif form is Subject.WE:
            lines.append(tn("You and {partner} win the round: {count} point.",
                            "You and {partner} win the round: {count} points.", result.points, **who))
        elif form is Subject.TEAM:
            lines.append(tn("{names} win the round: {count} point.", "{names} win the round: {count} points.",
                            result.points, **who))
        else:
            lines.append(tn("{name} wins the round: {count} point.", "{name} wins the round: {count} points.",
                            result.points, **who))
        base = result.points - sum(points for _, points in result.bonuses)
        count = result.side_counts[winner] if 0 <= winner < len(result.side_counts) else 0
        lines.extend(_why_they_score(result, names, rules, players, my_seat, base, count))
        lines.extend(describe_bonus(bonus, points, result.round_number) for bonus, points in result.bonuses)
    for side, score in enumerate(result.scores):
        lines.append(t("{name}: {score} in total.", name=side_name(side, names, sides, players, my_seat),
                       score=score))
    return lines


def _why_they_score(
    result: RoundResult, names: Sequence[str], rules: Rules, players: int, my_seat: int | None,
    points: int, count: int,
) -> list[str]:
    """What the winning side's points count, in the words of the game's scoring."""
    assert result.winner is not None
    sides = rules.sides(players)
    # Another team's sentence names both ("Ana and Luis take ...") and says "the other team's".
    form, who = _subject(result.winner, names, sides, players, my_seat)
    if rules.scoring is Scoring.ALL_PIPS:
        lines = []
        if result.reason != Outcome.DOMINO:
            lightest = _lightest_seat(result, sides, players)
            if lightest is not None:
                name, mine = _you_or(lightest, names, my_seat)
                pips = result.pip_counts[lightest]
                lines.append(t("You hold the lightest hand ({count}).", count=pips) if mine
                             else t("{name} holds the lightest hand ({count}).", name=name, count=pips))
        if form is Subject.YOU:
            lines.append(t("You take the pips left in every hand: {points}.", points=points))
        elif form is Subject.WE:
            lines.append(t("You and {partner} take the pips left in every hand: {points}.", points=points,
                           **who))
        elif form is Subject.TEAM:
            lines.append(t("{names} take the pips left in every hand: {points}.", points=points, **who))
        else:
            lines.append(t("{name} takes the pips left in every hand: {points}.", points=points, **who))
        return lines
    if rules.scoring is Scoring.DOMINO_TAKES_ALL and result.reason == Outcome.DOMINO:
        if form is Subject.YOU:
            return [t("You take every pip left in the other hands: {points}.", points=points)]
        if form is Subject.WE:
            return [t("You and {partner} take the pips left in the other team's hands: {points}.",
                      points=points, **who)]
        if form is Subject.TEAM:
            return [t("{names} take the pips left in the other team's hands: {points}.", points=points,
                      **who)]
        return [t("{name} takes every pip left in the other hands: {points}.", points=points, **who)]
    if form is Subject.YOU:
        return [t("You have the lowest count ({count}) and score the others' counts minus yours: {points}.",
                  count=count, points=points)]
    if form is Subject.WE:
        return [t("You and {partner} have the lower count ({count}) and score the other team's count minus "
                  "yours: {points}.", count=count, points=points, **who)]
    if form is Subject.TEAM:
        return [t("{names} have the lower count ({count}) and score the other team's count minus theirs: "
                  "{points}.", count=count, points=points, **who)]
    return [t("{name} has the lowest count ({count}) and scores the others' counts minus its own: {points}.",
              count=count, points=points, **who)]


def _lightest_seat(result: RoundResult, sides: int, players: int) -> int | None:
    """The winning side's seat with the lightest hand (what wins a tranque in partners' scoring)."""
    assert result.winner is not None
    members = [s for s in side_members(result.winner, sides, players) if 0 <= s < len(result.pip_counts)]
    return min(members, key=lambda s: (result.pip_counts[s], s)) if members else None


def describe_refusal(
    reason: str, params: Mapping[str, object], names: Sequence[str], my_seat: int | None = None
) -> str:
    """Why a key did nothing, from the engine's refusal (`IllegalAction.reason` and ``.params``).

    ``names`` name the seat in ``params`` ("Not your turn: Pepe is playing.");
    ``my_seat`` is the reader's, said as "you".
    """
    values: dict[str, object] = {
        name: value if isinstance(value, int) else display_text(value, 40) for name, value in params.items()
    }
    seat = params.get("seat")
    if isinstance(seat, int):
        values["name"] = you() if seat == my_seat else seat_name(names, seat)
    if params.get("end") in ("left", "right"):
        values["end"] = end_name(str(params["end"]))
    counted = params.get("reserve") if reason == DrawRefusal.RESERVE_REACHED else params.get("count")
    if reason == DrawRefusal.RESERVE_REACHED and isinstance(counted, int):
        return tn("Only the last tile of el pozo is left, and it is never drawn.",
                  "Only the last {count} tiles of el pozo are left, and they are never drawn.", counted,
                  **values)
    if reason == DrawRefusal.DRAW_LIMIT and isinstance(counted, int):
        return tn("You have drawn a tile this turn, the most allowed.",
                  "You have drawn {count} tiles this turn, the most allowed.", counted, **values)
    if reason == DrawRefusal.FITS_NEITHER_END and "left" in params and params["left"] == params.get("right"):
        return t("{tile} does not fit: both ends are {left}.", **values)
    return t(REFUSALS.get(reason, REFUSALS[Refusal.NOT_ALLOWED]), **values)


def describe_action_refused(view: View, action: Action, names: Sequence[str]) -> str:
    """Why ``action`` is not allowed in ``view``, in words ("" when it is allowed).

    The engine's own reason (`why_not`), asked before a key's intent is sent.
    """
    refused = why_not(view, action)
    if refused is None:
        return ""
    return describe_refusal(refused.reason, refused.params, names, view.seat)


def describe_hint_reasons(
    hint: Hint, names: Sequence[str], my_seat: int | None = None, *, evidence: bool = False
) -> str:
    """Why a hint suggests its move, as a phrase ("keeps your 5s; Pepe could not match 3").

    ``names`` name a seat the reason is about; ``my_seat`` is the reader's. The advice is
    said plainly; with ``evidence`` (the hint asked for again) a reason gives its figures.
    """
    phrases = []
    for reason in hint.reasons:
        values: dict[str, object] = dict(reason.values)
        seat = values.get("seat")
        if isinstance(seat, int):
            values["name"] = you() if seat == my_seat else seat_name(names, seat)
        phrase = (HINT_EVIDENCE.get(reason.code) if evidence else None) or HINT_REASONS.get(reason.code)
        if phrase is not None:
            phrases.append(t(phrase, **values))
    # TRANSLATORS: between two reasons of a hint: "keeps your 5s; Pepe could not match 3".
    return tc("between the reasons of a hint", "; ").join(phrases)


def _in_hands(preset: str) -> bool:
    """Whether the game ``preset`` names calls its rounds hands (Fives and Threes)."""
    from capicu.core.rules import ALL_PRESET_NAMES, Game, Rules

    return preset in ALL_PRESET_NAMES and Rules.preset_named(preset).game is Game.FIVES_AND_THREES


def describe_unfinished(kept: Unfinished, now: float | None = None) -> str:
    """An unfinished match, for an offer to resume it:
    "the Puerto Rican Drawing Game match of 17:02 (Ana, Computer 2; 3 rounds played)".

    The time is when the match began (its first deal), local; a day before ``now`` (default:
    the time), the date too. The game is titled in words, as its table's header says it; every seat
    is named, the computers' in the reader's language.
    """
    from .describe_rules import game_title  # which imports this module

    moment = time.localtime(kept.began)
    today = time.localtime(time.time() if now is None else now)
    when = (time.strftime("%H:%M", moment) if moment[:3] == today[:3]
            else time.strftime("%Y-%m-%d %H:%M", moment))
    names = list_separator().join(
        t("Computer {number}", number=seat + 1) if kind is SeatKind.COMPUTER
        else display_text(name, NAME_LIMIT)
        for seat, (kind, name) in enumerate(kept.seats)
        if kind is SeatKind.COMPUTER or (kind is SeatKind.PERSON and name))
    game = game_title(kept.preset)
    if not kept.started:
        how_far = t("not dealt yet")
    elif _in_hands(kept.preset):
        how_far = tn("{count} hand played", "{count} hands played", kept.rounds)
    else:
        how_far = tn("{count} round played", "{count} rounds played", kept.rounds)
    if not names:
        # TRANSLATORS: {game} is a game's name; {how_far} is "3 rounds played" or "not dealt yet".
        return t("the {game} match of {when} ({how_far})", game=game, when=when, how_far=how_far)
    # TRANSLATORS: {game} is a game's name; {names} "Ana, Computer 2"; {how_far} "3 rounds played".
    return t("the {game} match of {when} ({names}; {how_far})", game=game, when=when, names=names,
             how_far=how_far)


def describe_host_error(code: str) -> str:
    """What a refusal from the host means, from its `ErrorCode` (one from a newer host: said generally)."""
    sentence = HOST_ERRORS.get(code)
    if sentence is None:
        return t("The host refused ({code}).", code=display_text(code, 40))
    return t(sentence)


#: Why the link to the host ended: one sentence for each `LinkEnd` of the client (those with a
#: detail or a count are worded in `describe_link_end`). Its params come from the system or the host.
LINK_ENDS: Mapping[str, str] = {
    LinkEnd.HOST_SILENT: N_("The host stopped answering."),
    LinkEnd.HOST_CLOSED: N_("The host closed the connection."),
    # TRANSLATORS: {problem} is the program's own words, in English, for a bug report.
    LinkEnd.UNREADABLE: N_("The host sent something this terminal cannot read ({problem})."),
    # TRANSLATORS: {problem} is the system's own words ("Connection reset by peer").
    LinkEnd.BROKEN: N_("The connection broke ({problem})."),
    # TRANSLATORS: {problem} is the system's own words ("connection refused").
    LinkEnd.UNREACHABLE: N_("The host cannot be reached ({problem})."),
    LinkEnd.CLOSED_HERE: N_("This terminal left the table."),
    LinkEnd.DROPPED_HERE: N_("This terminal hung up."),
}


#: Why a host cannot start (`HostProblem`); {problem} is the journal's, the engine's or the system's words.
HOST_PROBLEMS: Mapping[str, str] = {
    # TRANSLATORS: {problem} is the journal reader's own words, in English ("line 13 is damaged ...").
    HostProblem.JOURNAL: N_("The journal {path} cannot be read: {problem}"),
    # TRANSLATORS: {problem} is the engine's own words, in English.
    HostProblem.CANNOT_RESUME: N_("Cannot resume the match from {path}: {problem}"),
    # TRANSLATORS: {problem} is the system's own words ("Address already in use").
    HostProblem.CANNOT_LISTEN: N_("Cannot listen on {address} port {port} ({problem})."),
    HostProblem.JOURNAL_IN_USE: N_("Another host is playing the match of {path} right now."),
    # TRANSLATORS: {problem} is the system's own words ("Permission denied").
    HostProblem.JOURNALS_FOLDER: N_("Cannot keep the match journal in {path} ({problem}): "
                                    "--no-journal plays without one."),
}


def describe_host_problem(code: str, params: Mapping[str, object]) -> str:
    """Why the host cannot start, from its `HostError`'s code and params."""
    values = {name: display_text(value, 300) for name, value in params.items()}
    if code == HostProblem.CANNOT_LISTEN and not values.get("address"):
        return t("Cannot listen on every interface, port {port} ({problem}).", **values)
    sentence = HOST_PROBLEMS.get(code)
    # What runs beside the host (the SSH gateway) words its own problem.
    return t(sentence, **values) if sentence is not None else values.get("problem", "")


#: What a running host tells its operator (`HostNote`), those with a count worded in `describe_host_note`.
HOST_NOTES: Mapping[str, str] = {
    # TRANSLATORS: {problem} is the program's own words, in English, for a bug report.
    HostNote.ASK_FAILED: N_("Asking the operator about seat {number} failed ({problem})."),
    # TRANSLATORS: {problem} is the program's own words, in English, for a bug report.
    HostNote.COMPUTER_FAILED: N_("Table {table}: the computer player of seat {number} failed ({problem}); "
                                "the table played its first legal move instead."),
    # TRANSLATORS: {problem} is the journal's or the system's own words, in English ("No space left").
    HostNote.JOURNAL_FAILED: N_("Table {table} stopped: its journal cannot be written ({problem})."),
    HostNote.SEATED: N_("Table {table}: {name} took seat {number}."),
    HostNote.DROPPED: N_("Table {table}: {name} (seat {number}) lost the connection; the seat is held."),
    HostNote.LEFT: N_("Table {table}: {name} (seat {number}) left the table."),
    HostNote.CAME_BACK: N_("Table {table}: {name} is back in seat {number}."),
    HostNote.RECORD_KEPT: N_("Table {table}: the match is over; its record is kept in {path}."),
    # TRANSLATORS: {problem} is the system's own words, in English ("No space left on device").
    HostNote.RECORD_FAILED: N_("Table {table}: the match is over, but its record cannot be written "
                               "({problem})."),
}


def describe_host_note(code: str, params: Mapping[str, object]) -> str:
    """What the running host tells its operator, from its `HostNote` and params (one from a newer host:
    its code and params as they came)."""
    values: dict[str, object] = {
        name: value if isinstance(value, int) else display_text(value, 300) for name, value in params.items()
    }
    seat = params.get("seat")
    if isinstance(seat, int):
        values["number"] = seat + 1
    if code == HostNote.BESIDE:
        return str(values.get("text", ""))
    if code == HostNote.HISTORY_PROBLEM:
        detail = params.get("detail", "")
        problem = describe_history_problem(str(params.get("history", "")), {
            "file": params.get("file", ""), "kept": detail, "version": detail, "problem": detail})
        # TRANSLATORS: {problem} is a sentence about the history of matches ("The history file ...").
        return t("Table {table}: {problem}", table=values.get("table", ""), problem=problem)
    unsent, entries = params.get("unsent"), params.get("entries")
    if code == HostNote.CUT_OFF and isinstance(unsent, int):
        return tn("{address} was cut off: it stopped reading ({count} byte unsent).",
                  "{address} was cut off: it stopped reading ({count} bytes unsent).", unsent, **values)
    if code in (HostNote.JOURNAL_CUT_SHORT, HostNote.JOURNAL_LINE_DAMAGED) and isinstance(entries, int):
        return " ".join(_journal_tail_dropped(code, entries, params, values))
    sentence = HOST_NOTES.get(code)
    if sentence is None:
        shown = ", ".join(f"{name} {value}" for name, value in values.items())
        return t("The host says {code} ({params}).", code=display_text(code, 40), params=shown)
    return t(sentence, **values)


def _journal_tail_dropped(code: str, entries: int, params: Mapping[str, object],
                          values: dict[str, object]) -> list[str]:
    """The sentences of a resumed journal whose tail was dropped: what is kept, what is lost, the copy."""
    if code == HostNote.JOURNAL_CUT_SHORT:
        said = [tn("{path}: {count} entry recovered; line {line} was cut short (the host stopped while "
                   "writing it, or the file was cut there), and the {dropped} bytes from there on are "
                   "dropped.",
                   "{path}: {count} entries recovered; line {line} was cut short (the host stopped while "
                   "writing it, or the file was cut there), and the {dropped} bytes from there on are "
                   "dropped.",
                   entries, **values)]
    else:
        said = [tn("{path}: {count} entry recovered; line {line} is damaged and no good line follows it, "
                   "so the {dropped} bytes from there on are dropped.",
                   "{path}: {count} entries recovered; line {line} is damaged and no good line follows it, "
                   "so the {dropped} bytes from there on are dropped.", entries, **values)]
    lost, round_number = params.get("lost"), params.get("round")
    if isinstance(lost, int) and isinstance(round_number, int):
        # The file cannot tell a crash from a cut made by hand: what a crash loses is said, and that
        # a cut loses more (the file as it was is kept: `copy`).
        if round_number > 0:
            said.append(tn("If the host stopped while writing, {count} entry is lost (more if the file was "
                           "cut by hand); the match goes on in round {round}.",
                           "If the host stopped while writing, {count} entries are lost (more if the file "
                           "was cut by hand); the match goes on in round {round}.", lost, **values))
        else:
            said.append(tn("If the host stopped while writing, {count} entry is lost (more if the file was "
                           "cut by hand); the match was not dealt yet.",
                           "If the host stopped while writing, {count} entries are lost (more if the file "
                           "was cut by hand); the match was not dealt yet.", lost, **values))
    if params.get("copy"):
        said.append(t("The file as it was is kept as {copy}.", **values))
    return said


HISTORY_PROBLEMS: Mapping[str, str] = {
    HistoryProblem.SET_ASIDE: N_("The history file {file} was damaged: it is kept aside as {kept}, "
                                 "and a new history has begun."),
    HistoryProblem.TOO_NEW: N_("The history file {file} was written by a newer capicu (version {version}): "
                               "it is left as it is, and no match is added to it."),
    # TRANSLATORS: {problem} is the system's own words ("Permission denied").
    HistoryProblem.UNUSABLE: N_("The history file {file} cannot be used ({problem})."),
}


def describe_history_problem(code: str, params: Mapping[str, object]) -> str:
    """What went wrong with the history file, as one sentence."""
    values = {name: value if isinstance(value, int) else display_text(value, 300)
              for name, value in params.items()}
    return t(HISTORY_PROBLEMS.get(code, N_("The history file {file} cannot be used ({problem}).")),
             **{"problem": code, "file": "", **values})


def describe_host_bye(params: Mapping[str, object]) -> str:
    """The host ended the game on purpose: who closed the table, and whether the seat is kept."""
    name = display_text(params.get("name") or "", 24)
    closed = t("{name} closed the table.", name=name) if name else t("The host closed the table.")
    if params.get("resumable"):
        return t("{closed} Your seat is saved: when the match is hosted again, run the same join command "
                 "to take it back.", closed=closed)
    return closed


def describe_link_end(reason: str, params: Mapping[str, object] | None = None) -> str:
    """Why the link to the host ended (or the last try failed), from the client's `LinkEnd` and params.

    A refusal is worded from the host's `ErrorCode`; giving up says for how long,
    then why the last try failed; a code from a newer client is said generally.
    """
    params = params or {}
    problem = display_text(params.get("problem", ""), 120)
    if reason == LinkEnd.REFUSED:
        return describe_host_error(str(params.get("code", "")))
    if reason == LinkEnd.HOST_BYE:
        return describe_host_bye(params)
    if reason == LinkEnd.UNREACHABLE and not problem:
        return t("The host cannot be reached (no answer).")
    if reason == LinkEnd.GAVE_UP:
        seconds = params.get("seconds")
        last_reason = str(params.get("last", ""))
        last = describe_link_end(last_reason if last_reason != LinkEnd.GAVE_UP else "", params)
        if not isinstance(seconds, int):
            return t("Gave up trying to reconnect. {last}", last=last)
        return tn("Gave up after {count} second of trying to reconnect. {last}",
                  "Gave up after {count} seconds of trying to reconnect. {last}", seconds, last=last)
    sentence = LINK_ENDS.get(reason)
    if sentence is None:
        return t("The connection to the host was lost.")
    return t(sentence, problem=problem)
