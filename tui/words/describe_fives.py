"""Fives and Threes in words: its plays and their points, its knocks, its hands' ends, its hints.

core/ speaks in codes and numbers (the events of core/fives/events.py, the
refusals of `why_not_fives`, the hint's `FivesHintReason`); this module makes the
sentences a player reads at a Fives and Threes table, in the reader's language.
A play's points are told as players say them: "15 for 8" (the ends add up to
15, which scores 8).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from capicu.core import Action
from capicu.core.actions import Draw, End, Pass, Play
from capicu.core.draw.refusals import DrawRefusal
from capicu.core.fives.events import (
    FivesEvent,
    FivesMatchEnded,
    FivesRoundEnded,
    FivesRoundResult,
    FivesRoundStarted,
    FivesTileDrawn,
    FivesTilePlayed,
    Knocked,
)
from capicu.core.fives.refusals import why_not_fives
from capicu.core.fives.state import FivesOutcome
from capicu.core.fives.view import FivesView
from capicu.core.refusals import Refusal
from capicu.core.rules import FivesRules

from .describe import describe_refusal, end_name, list_separator, seat_name, side_name, you
from .messages import N_, t, tc, tn

if TYPE_CHECKING:  # the hints' module loads the search: the first hint imports it
    from capicu.core.ai.fives_hints import FivesHint


def score_words(total: int, points: int, scored: int | None = None, target: int = 0) -> str:
    """What a play's ends made: "15 for 8", "total 7", or a score the exact finish refused."""
    if not points:
        return t("total {total}", total=total)
    if scored is not None and not scored:
        return t("{total} for {points}, past {target}: it does not count", total=total, points=points,
                 target=target)
    # TRANSLATORS: a play's ends add up to {total}, which scores {points}: "15 for 8".
    return t("{total} for {points}", total=total, points=points)


def _who(seat: int, names: Sequence[str], my_seat: int | None) -> tuple[str, bool]:
    return seat_name(names, seat), seat == my_seat


def fives_side(side: int, view_rules: FivesRules, players: int, names: Sequence[str],
               my_seat: int | None) -> str:
    """A side as a label: "Ana", "Ana and Carlos", "You and Carlos"."""
    return side_name(side, names, view_rules.sides(players), players, my_seat)


def describe_fives_event(event: FivesEvent, names: Sequence[str], my_seat: int | None, *, rules: FivesRules,
                         players: int, target: int, lead: bool = False) -> str:
    """One public event of Fives and Threes as a sentence ("Ana plays 6-4 on the right: 15 for 8.").

    ``lead``: this play is the hand's first tile.
    """
    if isinstance(event, FivesRoundStarted):
        name, mine = _who(event.leader, names, my_seat)
        if mine:
            return t("Hand {round}: you lead.", round=event.round_number)
        return t("Hand {round}: {name} leads.", round=event.round_number, name=name)
    if isinstance(event, FivesTilePlayed):
        name, mine = _who(event.seat, names, my_seat)
        score = score_words(event.total, event.points, event.scored, target)
        tile = str(event.tile)
        if lead and mine:
            text = t("You lead {tile}: {score}.", tile=tile, score=score)
        elif lead:
            text = t("{name} leads {tile}: {score}.", name=name, tile=tile, score=score)
        elif mine:
            text = t("You play {tile} on the {end}: {score}.", tile=tile, end=end_name(event.end.value),
                     score=score)
        else:
            text = t("{name} plays {tile} on the {end}: {score}.", name=name, tile=tile,
                     end=end_name(event.end.value), score=score)
        return text
    if isinstance(event, FivesTileDrawn):
        name, mine = _who(event.seat, names, my_seat)
        return t("You draw a tile.") if mine else t("{name} draws a tile.", name=name)
    if isinstance(event, Knocked):
        name, mine = _who(event.seat, names, my_seat)
        if mine:
            return t("You knock: nothing fits {left} or {right}.", left=event.left, right=event.right)
        return t("{name} knocks: nothing fits {left} or {right}.", name=name, left=event.left,
                 right=event.right)
    if isinstance(event, FivesRoundEnded):
        return describe_fives_end(event.result, names, my_seat, rules=rules, players=players, target=target)
    if isinstance(event, FivesMatchEnded):
        return describe_fives_winner(event.winner, event.scores, names, my_seat, rules=rules, players=players)
    return ""


def describe_fives_covered(event: FivesEvent, my_seat: int | None, *, target: int) -> str | None:
    """``my_seat``'s move as the computer made it for them while they were away ("The computer played
    3-6 for you: 9 for 3."); None for an event that is not that seat's play or knock."""
    if isinstance(event, FivesTilePlayed) and event.seat == my_seat:
        return t("The computer played {tile} for you: {score}.", tile=str(event.tile),
                 score=score_words(event.total, event.points, event.scored, target))
    if isinstance(event, Knocked) and event.seat == my_seat:
        return t("The computer knocked for you: nothing fits {left} or {right}.", left=event.left,
                 right=event.right)
    return None


def describe_chipped_out(seat: int, names: Sequence[str], my_seat: int | None) -> str:
    """A seat laid its last tile and its partner plays on: the hand goes on."""
    name, mine = _who(seat, names, my_seat)
    if mine:
        return t("You are out; your partner plays on.")
    return t("{name} is out; the hand goes on.", name=name)


def describe_fives_end(result: FivesRoundResult, names: Sequence[str], my_seat: int | None, *,
                       rules: FivesRules, players: int, target: int) -> str:
    """How a hand ended, in one sentence: the go, a blocked hand, the target reached."""
    if result.reason is FivesOutcome.BLOCKED:
        return t("Hand {round} is blocked: nobody can play, and nobody scores the go.",
                 round=result.round_number)
    if result.reason is FivesOutcome.TARGET_REACHED:
        winner = rules.side_of(result.last_player, players) if result.last_player >= 0 else 0
        return t("Hand {round} ends: {side} reached {target}.", round=result.round_number,
                 side=fives_side(winner, rules, players, names, my_seat), target=target)
    if result.go_side is None:
        return t("Hand {round} is over.", round=result.round_number)
    out = fives_side(result.go_side, rules, players, names, my_seat)
    if not result.go:
        return t("Hand {round}: {side} out; the go would pass {target} and does not count.",
                 round=result.round_number, side=out, target=target)
    # TRANSLATORS: the go: a point for laying one's last tile. {side} is "Ana" or "Ana and Carlos".
    return t("Hand {round}: {side} out, {points} for the go.", round=result.round_number, side=out,
             points=result.go)


def describe_fives_winner(winner: int, scores: Sequence[int], names: Sequence[str], my_seat: int | None, *,
                          rules: FivesRules, players: int) -> str:
    """Who won the match, and by how much."""
    others = [score for side, score in enumerate(scores) if side != winner]
    side = fives_side(winner, rules, players, names, my_seat)
    return t("The match goes to {side}, {score} to {other}.", side=side,
             score=scores[winner] if winner < len(scores) else 0, other=max(others, default=0))


def describe_fives_points(result: FivesRoundResult, names: Sequence[str], my_seat: int | None, *,
                          rules: FivesRules, players: int) -> tuple[str, str]:
    """Each side's points this hand, and the scores after it, as two lines."""
    made = list_separator().join(f"{fives_side(side, rules, players, names, my_seat)} {points}"
                                 for side, points in enumerate(result.points))
    totals = list_separator().join(f"{fives_side(side, rules, players, names, my_seat)} {score}"
                                   for side, score in enumerate(result.scores))
    return t("This hand: {points}.", points=made), t("Score: {totals}.", totals=totals)


def describe_fives_summary(view: FivesView, names: Sequence[str], my_seat: int | None) -> str:
    """The last hand's end as the table shows it between hands: how, the points, the scores, the hands."""
    result = view.results[-1]
    rules, players = view.rules, view.players
    lines = [describe_fives_end(result, names, my_seat, rules=rules, players=players, target=view.target),
             *describe_fives_points(result, names, my_seat, rules=rules, players=players)]
    if view.winner is not None:
        lines.append(describe_fives_winner(view.winner, view.scores, names, my_seat, rules=rules,
                                           players=players))
    lines.append(t("The tiles left in hand are shown by each seat: they count nothing."))
    return "\n".join(lines)


#: A Fives and Threes player who cannot play knocks: the refusals about passing say so.
FIVES_REFUSALS: Mapping[str, str] = {
    DrawRefusal.NO_DRAWING: N_("There is no drawing in this game: with nothing that fits, you knock."),
    Refusal.PASS_WHILE_FITS: N_("You hold a tile that fits ({tile}), so you cannot knock."),
    Refusal.PASS_WHILE_DRAWABLE: N_("Tiles can still be drawn, so you cannot knock: draw."),
    Refusal.BONEYARD_EMPTY: N_("Nothing is left to draw."),
}


def describe_fives_refused(view: FivesView, action: Action, names: Sequence[str]) -> str:
    """Why ``action`` is not allowed in ``view``, in words ("" when it is): the engine's reason."""
    refused = why_not_fives(view, action)
    if refused is None:
        return ""
    own = FIVES_REFUSALS.get(refused.reason)
    if own is not None:
        return t(own, **{key: str(value) for key, value in refused.params.items()})
    return describe_refusal(refused.reason, refused.params, names, view.seat)


def describe_fives_move(action: Action, view: FivesView) -> str:
    """A hint's move in words: "lead 3-3", "play 6-4 on the right", "knock", "draw"."""
    if isinstance(action, Play):
        if view.ends is None:
            return t("lead {tile}", tile=str(action.tile))
        if view.ends[0] == view.ends[1] or not isinstance(action.place, End):
            return t("play {tile}", tile=str(action.tile))
        return t("play {tile} on the {end}", tile=str(action.tile), end=end_name(action.place.value))
    if isinstance(action, Draw):
        return tc("a hint's move", "draw")
    if isinstance(action, Pass):
        return tc("a hint's move", "knock")
    return ""


#: Why a hint suggests its move, by its reason's code (core/ai/fives_hints.py, `FivesHintReason`).
FIVES_HINT_REASONS: Mapping[str, str] = {
    "must-knock": N_("nothing you hold fits and nothing can be drawn"),
    "must-draw": N_("nothing you hold fits"),
    "scores": N_("{total} for {points}"),
    "no-score": N_("total {total}: nothing scores now"),
    "wins": N_("{points} takes your side to the target: the match is won"),
    "chips-out": N_("your last tile: 1 for the go"),
    "past-target": N_("its {points} would pass the target and not count"),
    # (worded in `describe_fives_hint`: a count of points)
    "safe-nothing": N_("it leaves {name} nothing to score"),
    "gives-easy": N_("but it gives {name} an easy score: {tile} would make {total} for {points}"),
    "avoids": N_("{tile} scores {points}, but would give {name} {total} for {reply} with {reply_tile}"),
}


def describe_fives_hint(hint: FivesHint, view: FivesView, names: Sequence[str]) -> str:
    """The hint as the status line says it: the tile, its points, and what it gives the next player."""
    phrases = []
    for reason in hint.reasons:
        values: dict[str, object] = dict(reason.values)
        seat = values.get("seat")
        if isinstance(seat, int):
            values["name"] = you() if seat == view.seat else seat_name(names, seat)
        code = str(reason.code)
        if code == "safe" and values.get("points") == 0:
            code = "safe-nothing"
        phrase = FIVES_HINT_REASONS.get(code)
        if code == "safe" and isinstance(points := values.get("points"), int):
            # The count after the name and with its word: "Computer 2 2 at most" read as one name.
            phrases.append(tn("it leaves {name} at most {points} point",
                              "it leaves {name} at most {points} points", points, **values))
        elif phrase is not None:
            phrases.append(t(phrase, **values))
    move = describe_fives_move(hint.action, view)
    if not phrases:
        return t("Hint: {action}.", action=move)
    if hint.tile is not None and len(phrases) > 1:
        # TRANSLATORS: a hint: "play 6-4 on the right: 15 for 8 (it leaves Beto at most 2 points)".
        return t("Hint: {action}: {score} ({reason})", action=move, score=phrases[0],
                 reason=tc("between the reasons of a hint", "; ").join(phrases[1:]))
    return t("Hint: {action}: {score}", action=move, score=phrases[0])
