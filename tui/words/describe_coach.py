"""The coach in words: a decision's verdict, its reason, and a match's summary.

core/ai/coach.py values each choice and names a reason with a `CoachReason`
code; this module makes the sentences a player reads beside the replay
("6-4 on the left was better by about 9 points: Beto had shown they held no
5"), in the reader's language (the catalogue). Choices are worded with the
words the table uses for moves (tui/words/describe.py, tui/words/describe_trains.py).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import cast

from capicu.core.actions import REDEAL, Action, Draw, End, EndRun, Pass, Play, Run, Train
from capicu.core.ai.coach import Analysis, CoachReason, Decision
from capicu.core.games import LINE, MEXICAN_TRAIN

from .describe import end_name, list_separator, seat_name, you
from .describe_trains import train_name
from .messages import N_, t, tc, tn

#: Why the better choice was better, by the coach's reason code.
COACH_REASONS: Mapping[CoachReason, str] = {
    CoachReason.LACKED: N_("{name} had shown they held no {number}"),
    CoachReason.WENT_OUT: N_("{tile} was the last tile: it won the round"),
    CoachReason.KEPT_DOUBLE: N_("it laid the double {tile} while it still fitted"),
    CoachReason.HEAVIER: N_("it got rid of {pips} more pips"),
    CoachReason.NEEDLESS_DRAW: N_("a tile fitted, and drawing only added weight"),
    CoachReason.DRAW_BETTER: N_("drawing kept the tiles you needed later"),
    CoachReason.REDEAL_BETTER: N_("the hand was worse than a new deal on average"),
    CoachReason.KEEP_BETTER: N_("the hand was worth more than a new deal"),
    CoachReason.BROKE_CHAIN: N_("your choice broke the train your hand could build, by {tiles} tiles"),
    CoachReason.MARKER_DOWN: N_("it brought your marker down"),
    CoachReason.COVERED_DOUBLE: N_("your hand covered the double {tile} at once"),
    CoachReason.SCORED_MORE: N_("{tile} scored {points} at once"),
    CoachReason.LEFT_A_SCORE: N_("your choice left {name} about {points} to score on the ends"),
    CoachReason.REACHED_TARGET: N_("{tile} reached the target and won the match"),
    CoachReason.BEST_ODDS: N_("it did better in {samples} deals consistent with what you had seen"),
}


def _laid_on_line(action: Play, names: Sequence[str], my_seat: int | None, leads: bool) -> str:
    """A tile of a line of play (the Draw family, Fives and Threes): on an end, or leading."""
    tile = str(action.tile)
    if leads:
        if action.blank is not None:
            return t("leading with {tile}, its blank as {number}", tile=tile, number=action.blank)
        return t("leading with {tile}", tile=tile)
    end = end_name(cast(End, action.place).value)
    if action.blank is not None:
        return t("{tile} on the {end}, its blank as {number}", tile=tile, end=end, number=action.blank)
    return t("{tile} on the {end}", tile=tile, end=end)


def _laid_on_train(action: Play, names: Sequence[str], my_seat: int | None, leads: bool) -> str:
    """A tile of Mexican Train: on a train (a round never leads: the engine is on the table)."""
    train = train_name(cast(Train, action.place), names, my_seat)
    return t("{tile} on {train}", tile=str(action.tile), train=train)


#: How a tile laid is said, by where its game lays tiles (its `GameSpec.place_type`, core/games.py):
#: adding a game that lays tiles somewhere new is its words and one line here.
LAID_WORDS: Mapping[type, Callable[[Play, Sequence[str], int | None, bool], str]] = {
    LINE.place_type: _laid_on_line,
    MEXICAN_TRAIN.place_type: _laid_on_train,
}


def describe_choice(action: Action, names: Sequence[str], my_seat: int | None, *, leads: bool = False) -> str:
    """A choice as a phrase that can open a sentence: "6-4 on the left", "drawing", "2-5 on your train".

    ``leads``: the line is empty, so a tile is not laid on an end but leads ("leading with 6-6").
    """
    if isinstance(action, Play):
        return LAID_WORDS[type(action.place)](action, names, my_seat, leads)
    if isinstance(action, Run):
        return t("the run {tiles}", tiles=" ".join(str(tile) for tile in action.tiles))
    if isinstance(action, EndRun):
        return t("ending the run")
    if isinstance(action, Draw):
        return tc("a choice of the coach", "drawing")
    if isinstance(action, Pass):
        return tc("a choice of the coach", "passing")
    if action == REDEAL:
        return t("asking for a new deal")
    return str(action)


def describe_reason(code: CoachReason, params: Mapping[str, object], names: Sequence[str],
                    my_seat: int | None) -> str:
    """The reason the better choice was better, as a phrase ("Beto had shown they held no 5")."""
    values: dict[str, object] = dict(params)
    seat = values.get("seat")
    if isinstance(seat, int):
        values["name"] = you() if seat == my_seat else seat_name(names, seat)
    template = COACH_REASONS.get(code)
    return "" if template is None else t(template, **values)


def points(value: float) -> int:
    """A cost as said: whole points ("about 9 points"); the search's figures are not finer than that."""
    return round(value)


def describe_decision(decision: Decision, names: Sequence[str], my_seat: int | None) -> str:
    """The coach's verdict on one decision, as a sentence (``my_seat``: the seat it speaks to, "you").

    A flagged one names the better choice, the cost and, where the coach has one, the reason:
    "6-4 on the left was better by about 9 points: Beto had shown they held no 5."
    """
    if not decision.had_choice:
        return t("There was no other choice.")
    best = decision.best
    cost = points(decision.cost)
    if decision.cost <= 0 or cost == 0:
        return t("The best choice.")
    better = describe_choice(best.action, names, my_seat, leads=decision.leads)
    better = better[:1].upper() + better[1:]
    if not decision.flagged:
        return tn("{better} was a little better (about {count} point).",
                  "{better} was a little better (about {count} points).", cost, better=better)
    why = "" if decision.reason is None else describe_reason(
        decision.reason, dict(decision.reason_params), names, my_seat)
    if not why:
        return tn("{better} was better by about {count} point.",
                  "{better} was better by about {count} points.", cost, better=better)
    return tn("{better} was better by about {count} point: {reason}.",
              "{better} was better by about {count} points: {reason}.", cost, better=better, reason=why)


def describe_choices(decision: Decision, names: Sequence[str], my_seat: int | None) -> list[str]:
    """Each choice with its expected points of the round, best first ("6-4 on the left: +5")."""
    lines = []
    for choice in decision.choices:
        sign = "+" if points(choice.expected) > 0 else ""
        choice_words = describe_choice(choice.action, names, my_seat, leads=decision.leads)
        if choice.action == decision.chosen:
            lines.append(t("{choice}: {sign}{points} (chosen)", choice=choice_words, sign=sign,
                           points=points(choice.expected)))
        else:
            lines.append(t("{choice}: {sign}{points}", choice=choice_words, sign=sign,
                           points=points(choice.expected)))
    return lines


def describe_summary(analysis: Analysis, names: Sequence[str], my_seat: int | None) -> list[str]:
    """The match at a glance: points given away per round, and the three costliest decisions."""
    rounds = list_separator().join(
        t("round {number}: {points}", number=number, points=points(given))
        for number, given in enumerate(analysis.given_away_by_round, start=1)
    )
    total = points(sum(analysis.given_away_by_round))
    lines = [tn("Points given away: about {count} point in all.",
                "Points given away: about {count} points in all.", total),
             t("By round: {rounds}.", rounds=rounds) if rounds else t("No round was played.")]
    if not analysis.costliest:
        lines.append(t("No decision cost anything."))
        return lines
    lines.append(t("The costliest decisions:"))
    for decision in analysis.costliest:
        chosen = describe_choice(decision.chosen, names, my_seat, leads=decision.leads)
        lines.append(tn("Round {round}: {chosen} cost about {count} point. {verdict}",
                        "Round {round}: {chosen} cost about {count} points. {verdict}",
                        points(decision.cost), round=decision.round_number, chosen=chosen,
                        verdict=describe_decision(decision, names, my_seat)))
    return lines


__all__ = ["COACH_REASONS", "describe_choice", "describe_choices", "describe_decision", "describe_reason",
           "describe_summary"]
