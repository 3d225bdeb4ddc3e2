"""Mexican Train in words: its moves, its refusals and its round ends (docs/RULES.md, mexican-train).

core/ speaks in codes (`Refusal`, `MexicanRefusal`, the events of core/mexican/events.py); this
module makes the sentences a player reads at a Mexican Train table, in the
reader's language (the catalogue). It stands beside tui/words/describe.py, which
words the Draw family, so that each game's sentences are found in one place.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import partial
from typing import TYPE_CHECKING

import msgspec
from capicu.core import Action, MexicanView, Tile
from capicu.core.actions import Train
from capicu.core.codes import Outcome
from capicu.core.mexican.events import (
    MexicanEvent,
    MexicanMatchEnded,
    MexicanPassed,
    MexicanRoundEnded,
    MexicanRoundResult,
    MexicanRoundStarted,
    MexicanTileDrawn,
    MexicanTilePlayed,
)
from capicu.core.mexican.refusals import MexicanRefusal, why_not_mexican

if TYPE_CHECKING:  # the hints' module loads the search: the first hint imports it
    from capicu.core.ai.mexican_hints import MexicanHint

from capicu.core.refusals import Refusal

from .describe import and_list, display_text, seat_name, you, you_title
from .messages import N_, Wording, t, tc, tn

#: Why a key did nothing at a Mexican Train table, by the engine's reason.
TRAIN_REFUSALS: Mapping[Refusal | MexicanRefusal, str] = {
    Refusal.MATCH_OVER: N_("The match is over."),
    Refusal.ROUND_OVER: N_("This round is over; the next one is not dealt yet."),
    Refusal.NOT_AN_ACTION: N_("That is not a move."),
    Refusal.SPECTATOR: N_("You are watching: spectators do not play."),
    Refusal.NOT_YOUR_TURN: N_("Not your turn: {name} is playing."),
    Refusal.NO_SUCH_TILE: N_("There is no {tile} in a double-{max_pip} set."),
    Refusal.NOT_HELD: N_("You do not hold {tile}."),
    MexicanRefusal.NO_SUCH_TRAIN: N_("There is no such train at this table."),
    MexicanRefusal.COVER_THE_DOUBLE: N_("The double on {train} must be covered first: play a {number}."),
    MexicanRefusal.DRAWN_TILE_ONLY: N_("After a draw only the tile you drew may be laid: {tile}."),
    MexicanRefusal.START_YOUR_TRAIN: N_("Your first turn starts your own train."),
    MexicanRefusal.MARKER_DOWN: N_("{train} is not open to you: its marker is down."),
    MexicanRefusal.MEXICAN_NEEDS_OWN: N_("Start your own train before the Mexican train."),
    MexicanRefusal.DOES_NOT_FIT: N_("{tile} does not fit {train}, which shows {number}."),
    MexicanRefusal.RUN_CANNOT_GO_ON: N_(
        "A run may not end on a double, and nothing you hold follows {tile}."
    ),
    MexicanRefusal.NO_RUN_NOW: N_("A run is laid only as the first play of your first turn."),
    MexicanRefusal.ONE_TILE_ONLY: N_("The opening run is one tile in this game."),
    MexicanRefusal.RUN_ENDS_ON_DOUBLE: N_("A run may not end on a double ({tile}): lay a tile after it."),
    MexicanRefusal.RUN_REPEATS: N_("The run names {tile} twice."),
    Refusal.MUST_PLAY: N_("You must play: {tile} fits."),
    MexicanRefusal.DREW_ALREADY: N_("You have drawn your tile this turn."),
    Refusal.BONEYARD_EMPTY: N_("The boneyard is empty."),
    Refusal.PASS_WHILE_FITS: N_("You cannot pass while {tile} fits."),
    Refusal.PASS_WHILE_DRAWABLE: N_("You cannot pass before you draw a tile."),
    MexicanRefusal.NOT_RUNNING: N_("There is no run to end."),
    Refusal.NOT_ALLOWED: N_("That is not allowed now."),
}


#: Why a hint suggests its move, by the hint's reason code (core/ai/mexican_hints.py, `MexicanHintReason`).
TRAIN_HINT_REASONS: Mapping[str, str] = {
    "opening-run": N_("the longest run your hand makes: {length} tiles"),
    "end-run": N_("the run can go no further"),
    "must-draw": N_("nothing you hold fits: draw"),
    "must-pass": N_("nothing fits and nothing can be drawn: pass"),
    "domino": N_("your last tile: you go out"),
    "covers-double": N_("the double on {train} must be covered first"),
    "double": N_("{tile} and its cover: two tiles down this turn"),
    "another-double": N_("another double, {tile}, before your cover: one more tile down this turn"),
    "keeps-chain": N_("it keeps your train's plan of {length} tiles"),
    "unloads": N_("it sheds {pips} pips where others may lay too"),
    "marker-down": N_("your marker comes down"),
    "blocks-seat": N_("{name} is known to hold no {number}"),
    "best-odds": N_("it did best in {samples} sampled deals"),
}


def describe_train_hint(hint: MexicanHint, names: Sequence[str], my_seat: int | None) -> str:
    """The hint in one sentence: what to do and why ("Hint: play 5-12 on your train (...)")."""
    phrases = []
    for reason in hint.reasons:
        values: dict[str, object] = dict(reason.values)
        seat = values.get("seat")
        if isinstance(seat, int):
            values["name"] = you() if seat == my_seat else seat_name(names, seat)
        train = values.get("train")
        if isinstance(train, str):
            values["train"] = _train_from_text(train, names, my_seat)
        phrase = TRAIN_HINT_REASONS.get(reason.code)
        if phrase is not None:
            phrases.append(t(phrase, **values))
    why = tc("between the reasons of a hint", "; ").join(phrases)
    if len(hint.run) > 1:
        what = t("lay the run {tiles} on your train", tiles=" ".join(str(tile) for tile in hint.run))
    elif hint.tile is not None and hint.place is not None:
        what = t("play {tile} on {train}", tile=str(hint.tile), train=train_name(hint.place, names, my_seat))
    elif hint.reasons and hint.reasons[0].code == "must-pass":
        what = tc("a hint's move", "pass")
    elif hint.reasons and hint.reasons[0].code == "end-run":
        what = t("end your run")
    else:
        what = tc("a hint's move", "draw")
    if not why:
        return t("Hint: {action}", action=what)
    return t("Hint: {action} ({reason})", action=what, reason=why)


def _train_from_text(text: str, names: Sequence[str], my_seat: int | None) -> str:
    """A train written as in an action (``train 2``, ``mexican``), in words."""
    words = text.split()
    if words == ["mexican"]:
        return train_name(Train(-1), names, my_seat)
    if words and words[-1].isdigit():
        return train_name(Train(int(words[-1])), names, my_seat)
    return text


def train_name(train: Train, names: Sequence[str], my_seat: int | None) -> str:
    """A train inside a sentence: "the Mexican train", "your train", "Ana's train"."""
    if train.is_mexican:
        return t("the Mexican train")
    if train.owner == my_seat:
        return t("your train")
    return t("{name}'s train", name=seat_name(names, train.owner))


def _who(seat: int, names: Sequence[str], my_seat: int | None) -> str:
    return you_title() if seat == my_seat else seat_name(names, seat)


def describe_train_refusal(
    reason: Refusal | MexicanRefusal, params: Mapping[str, int | str], names: Sequence[str],
    my_seat: int | None
) -> str:
    """Why a key did nothing, from the engine's refusal code and its params."""
    values: dict[str, object] = {
        name: value if isinstance(value, int) else display_text(value, 40) for name, value in params.items()
    }
    seat = params.get("seat")
    if isinstance(seat, int):
        values["name"] = you() if seat == my_seat else seat_name(names, seat)
    train = params.get("train")
    if isinstance(train, str):
        values["train"] = _train_from_text(train, names, my_seat)
    return t(TRAIN_REFUSALS.get(reason, TRAIN_REFUSALS[Refusal.NOT_ALLOWED]), **values)


def describe_train_action_refused(view: MexicanView, action: Action, names: Sequence[str]) -> str:
    """Why ``action`` is not allowed in ``view`` ("" when it is): the engine's reason (`why_not_mexican`)."""
    refused = why_not_mexican(view, action)
    if refused is None or not isinstance(refused.reason, Refusal | MexicanRefusal):
        return ""
    return describe_train_refusal(refused.reason, refused.params, names, view.seat)


def describe_train_plays(
    seat: int, tiles: Sequence[Tile], train: Train, names: Sequence[str], my_seat: int | None
) -> str:
    """One or more tiles laid by ``seat`` on one train in one move ("Ana plays 12-5 and 5-3 on her train")."""
    laid = and_list([str(tile) for tile in tiles])
    if train.owner == seat:
        where = t("your train") if seat == my_seat else t("their own train")
    else:
        where = train_name(train, names, my_seat)
    if seat == my_seat:
        return t("You play {tiles} on {train}.", tiles=laid, train=where)
    return t("{name} plays {tiles} on {train}.", name=seat_name(names, seat), tiles=laid, train=where)


def describe_covered(seat: int, double: Tile, names: Sequence[str], my_seat: int | None) -> str:
    if seat == my_seat:
        return t("You covered the {tile}.", tile=str(double))
    return t("{name} covered the {tile}.", name=seat_name(names, seat), tile=str(double))


def describe_marker_up(seat: int, names: Sequence[str], my_seat: int | None) -> str:
    if seat == my_seat:
        return t("Your marker is up: your train is open to everyone.")
    return t("{name}'s marker is up: that train is open to everyone.", name=seat_name(names, seat))


def describe_marker_down(seat: int, names: Sequence[str], my_seat: int | None) -> str:
    if seat == my_seat:
        return t("Your marker is down: your train is yours again.")
    return t("{name}'s marker is down.", name=seat_name(names, seat))


def describe_drew(seat: int, names: Sequence[str], my_seat: int | None, *, passed: bool) -> str:
    """A seat drew its one tile (and passed, when ``passed``)."""
    if seat == my_seat:
        if passed:
            return t("You drew a tile and passed.")
        return tn("You drew a tile.", "You drew {count} tiles.", 1)
    name = seat_name(names, seat)
    if passed:
        return t("{name} drew a tile and passed.", name=name)
    return tn("{name} drew a tile.", "{name} drew {count} tiles.", 1, name=name)


def describe_passed(seat: int, names: Sequence[str], my_seat: int | None) -> str:
    if seat == my_seat:
        return t("You passed.")
    return t("{name} passed.", name=seat_name(names, seat))


def describe_train_round_start(round_number: int, rounds: int, engine: Tile, first: int,
                               names: Sequence[str], my_seat: int | None) -> str:
    if first == my_seat:
        return t("Round {round} of {rounds}: the engine is {tile}; you play first.", round=round_number,
                 rounds=rounds, tile=str(engine))
    return t("Round {round} of {rounds}: the engine is {tile}; {name} plays first.", round=round_number,
             rounds=rounds, tile=str(engine), name=seat_name(names, first))


def describe_engine_laid(holder: int | None, engine: Tile, names: Sequence[str], my_seat: int | None) -> str:
    """Who laid the round's engine (its holder, as their turn), or that it came from the boneyard."""
    if holder is None:
        return t("The engine, {tile}, came from the boneyard: nobody was dealt it.", tile=str(engine))
    if holder == my_seat:
        return t("You were dealt the engine, {tile}, and laid it.", tile=str(engine))
    return t("{name} was dealt the engine, {tile}, and laid it.", name=seat_name(names, holder),
             tile=str(engine))


def describe_train_round_end(result: MexicanRoundResult, names: Sequence[str], my_seat: int | None) -> str:
    """How the round ended, in one line (the log's)."""
    return describe_train_result(result, names, my_seat)[0]


def describe_train_result(result: MexicanRoundResult, names: Sequence[str], my_seat: int | None) -> list[str]:
    """The round's end in lines: how it ended, then each seat's count and total (lowest total first)."""
    if result.reason is Outcome.DOMINO:
        head = t("Round {round} is over: {name} went out.", round=result.round_number,
                 name=_who(result.last_player, names, my_seat))
    else:
        head = t("Round {round} is blocked: nobody can play.", round=result.round_number)
    lines = [head]
    for seat in sorted(range(len(result.counts)), key=lambda s: (result.totals[s], s)):
        lines.append(t("{name}: +{count}, total {total}", name=_who(seat, names, my_seat),
                       count=result.counts[seat], total=result.totals[seat]))
    return lines


def describe_train_winners(winners: Sequence[int], totals: Sequence[int], names: Sequence[str],
                           my_seat: int | None) -> str:
    """Who won the match (the lowest total; equal totals share the win)."""
    best = totals[winners[0]] if winners else 0
    # The total is what was counted against a player: "with 0" read as nothing won at all.
    if len(winners) == 1:
        if winners[0] == my_seat:
            return tn("You win the match with the lowest total: {total} point counted against you.",
                      "You win the match with the lowest total: {total} points counted against you.",
                      best, total=best)
        return tn("{name} wins the match with the lowest total: {total} point counted against them.",
                  "{name} wins the match with the lowest total: {total} points counted against them.",
                  best, name=seat_name(names, winners[0]), total=best)
    who = and_list([_who(seat, names, my_seat) for seat in winners])
    return tn("{names} share the win with the lowest total: {total} point counted against each.",
              "{names} share the win with the lowest total: {total} points counted against each.",
              best, names=who, total=best)


def describe_must_cover(double: Tile, train: Train, names: Sequence[str], my_seat: int | None) -> str:
    return t("{tile} on {train} must be covered.", tile=str(double), train=train_name(train, names, my_seat))


def describe_doubles_to_cover(doubles: Sequence[tuple[Train, Tile]], names: Sequence[str],
                              my_seat: int | None) -> str:
    """The doubles left open, which every player in turn must cover, oldest first."""
    if len(doubles) == 1:
        train, double = doubles[0]
        return describe_must_cover(double, train, names, my_seat)
    each = [t("{tile} on {train}", tile=str(double), train=train_name(train, names, my_seat))
            for train, double in doubles]
    # TRANSLATORS: {doubles} is a list: "5-5 on your train and 6-6 on the Mexican train".
    return t("{doubles} must be covered, in this order.", doubles=and_list(each))


class Untold(msgspec.Struct, frozen=True):
    """What a Mexican Train log tells with the events still to come (`train_news_lines`)."""

    #: A seat that drew its tile: told with what comes next (its pass, or a tile laid).
    drew: int | None = None
    #: An opening run laid a tile per update (a computer's), not ended yet: told whole once it is.
    run: tuple[int, Train, tuple[Tile, ...]] | None = None


def untold_lines(untold: Untold, names: Sequence[str], me: int | None) -> list[Wording]:
    """What ``untold`` holds, told now (a story that stops there: the replay's position)."""
    lines: list[Wording] = []
    if untold.run is not None:
        seat, train, tiles = untold.run
        lines.append(partial(describe_train_plays, seat, tiles, train, names, me))
    if untold.drew is not None:
        lines.append(partial(describe_drew, untold.drew, names, me, passed=False))
    return lines


def train_news_lines(news: Sequence[MexicanEvent], before: MexicanView | None, view: MexicanView,
                     names: Sequence[str], me: int | None, untold: Untold | None = None,
                     ) -> tuple[list[Wording], Untold]:
    """The log's lines for these events, and what is left to tell with the next ones.

    Tiles laid in one move on one train are said together, then a double covered,
    a marker going up or down, a draw with its pass. ``before`` is the view before
    the events (None: they start a round's story); ``untold`` what the events before
    them left to tell. Both Mexican Train's table and its replay write their logs with it.
    """
    untold = untold or Untold()
    drew = untold.drew
    lines: list[Wording] = []
    # The doubles open before these events (oldest first), each with the seat that laid it in the turn
    # still going (None: an earlier turn's), and every train's marker, followed event by event. A
    # double laid and covered in one turn is not news of a cover: a turn (an opening run, a turn of
    # doubles) may come a tile per update.
    opened = _open_before(before)
    markers = {line.train.owner: line.marker for line in before.trains} if before is not None else {}
    pending: tuple[int, Train, list[Tile]] | None = None
    if untold.run is not None:
        pending = (untold.run[0], untold.run[1], list(untold.run[2]))

    def flush() -> None:
        nonlocal pending
        if pending is not None:
            seat, train, tiles = pending
            lines.append(partial(describe_train_plays, seat, tuple(tiles), train, names, me))
            pending = None

    def flush_draw(passed: bool) -> None:
        nonlocal drew
        if drew is not None:
            lines.append(partial(describe_drew, drew, names, me, passed=passed))
            drew = None

    for event in news:
        if isinstance(event, MexicanTileDrawn):
            flush()
            flush_draw(False)
            drew = event.seat  # told with what comes next: a pass, or a tile laid
            continue
        if not (isinstance(event, MexicanPassed) and event.seat == drew):
            flush_draw(False)
        if isinstance(event, MexicanTilePlayed):
            covered: Tile | None = None
            on = next((o for o in opened if o[0] == event.train), None)
            if on is not None:
                if on[2] != event.seat:
                    covered = on[1]
                opened.remove(on)
            if pending is not None and (pending[0], pending[1]) == (event.seat, event.train):
                pending[2].append(event.tile)
            else:
                flush()
                pending = (event.seat, event.train, [event.tile])
            if covered is not None:  # said after the tile that covers it
                flush()
                lines.append(partial(describe_covered, event.seat, covered, names, me))
            if event.tile.is_double:
                opened.append((event.train, event.tile, event.seat))
            if event.train.owner == event.seat and markers.get(event.seat):
                flush()
                markers[event.seat] = False
                lines.append(partial(describe_marker_down, event.seat, names, me))
            continue
        flush()
        if isinstance(event, MexicanPassed):
            if event.seat == drew:
                flush_draw(True)
            else:
                lines.append(partial(describe_passed, event.seat, names, me))
            if not markers.get(event.seat):
                lines.append(partial(describe_marker_up, event.seat, names, me))
            markers[event.seat] = True
        elif isinstance(event, MexicanRoundStarted):
            markers = {}
            opened = []
            lines.append(partial(describe_train_round_start, event.round_number, view.rounds,
                                 event.engine, event.first, names, me))
            if not view.rules.engine_set_aside:  # the seed's way: dealt, and laid by its holder
                lines.append(partial(describe_engine_laid, event.engine_holder, event.engine, names, me))
        elif isinstance(event, MexicanRoundEnded):
            lines.append(partial(describe_train_round_end, event.result, names, me))
        elif isinstance(event, MexicanMatchEnded):
            lines.append(partial(describe_train_winners, event.winners, event.totals, names, me))
    run: tuple[int, Train, tuple[Tile, ...]] | None = None
    if pending is not None and view.running and view.turn == pending[0]:
        run = (pending[0], pending[1], tuple(pending[2]))  # the run goes on in the next update
    else:
        flush()
    left = [(train, double) for train, double, seat in opened if seat is not None and seat != view.turn]
    if left:
        # The doubles' player could not cover them: everyone must now, in this order.
        lines.append(partial(describe_doubles_to_cover, tuple(left), names, me))
    return lines, Untold(drew, run)


def _open_before(before: MexicanView | None) -> list[tuple[Train, Tile, int | None]]:
    """The doubles open in ``before``, oldest first, each with the seat on turn when it laid it in
    this turn (its last plays, and a draw after them), else None."""
    if before is None:
        return []
    this_turn: set[Train] = set()
    for event in reversed(before.events):
        if isinstance(event, MexicanTilePlayed) and event.seat == before.turn:
            this_turn.add(event.train)
        elif not (isinstance(event, MexicanTileDrawn) and event.seat == before.turn):
            break
    opened: list[tuple[Train, Tile, int | None]] = []
    for train in before.open_doubles:
        laid = before.train_of(train).tiles
        if laid:
            opened.append((train, Tile(*laid[-1]), before.turn if train in this_turn else None))
    return opened
