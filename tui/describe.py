"""Public events, round results, refusals and hints in words, through the message catalogue.

Every sentence that can name the reader speaks to them ("You win the round"),
and one about partners names the team ("You and Luis win the round", "Team
Ana & Beto takes ..."): the reader's seat is passed in, never a name "You".

The host already cleans names and chat, but a name is shown on a terminal, so
every name passes `display_text` again here: one forgotten path on the host
must not let a player move another player's cursor.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
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
from capicu.net.sanitize import clean_text

from .messages import add_messages, ascii_only, has, t, to_ascii

if TYPE_CHECKING:  # the hints' module loads the search, which the table loads on the first hint
    from capicu.core.ai.hints import Hint

add_messages({
    # Why a key did nothing: one sentence for each `Refusal` code of the engine.
    "refusal.match-over": "The match is over.",
    "refusal.round-over": "This round is over; the next one is not dealt yet.",
    "refusal.not-an-action": "That is not a move.",
    "refusal.spectator": "You are watching: spectators do not play.",
    "refusal.not-your-turn": "Not your turn: {name} is playing.",
    "refusal.no-such-tile": "There is no {tile} in a double-{max_pip} set.",
    "refusal.not-held": "You do not hold {tile}.",
    "refusal.lead-must-be": "The round opens with {tile}: that is the only lead allowed.",
    "refusal.lead-on-left": "The lead starts la mesa: {tile} goes on the left.",
    "refusal.fits-neither-end": "{tile} fits neither end ({left} or {right}).",
    "refusal.fits-neither-end_same": "{tile} does not fit: both ends are {left}.",
    "refusal.wrong-end": "{tile} does not fit the {end} end ({number}).",
    "refusal.no-drawing": "There is no drawing in this game: with nothing that fits, you pass (paso).",
    "refusal.reserve-reached": "El pozo is down to its last {reserve} tiles, which are never drawn.",
    "refusal.reserve-reached_one": "El pozo is down to its last tile, which is never drawn.",
    "refusal.boneyard-empty": "El pozo is empty: there is nothing to draw.",
    "refusal.draw-limit": "You have drawn {count} tiles this turn, the most allowed.",
    "refusal.draw-limit_one": "You have drawn a tile this turn, the most allowed.",
    "refusal.must-play": "You hold a tile that fits ({tile}), so you cannot draw.",
    "refusal.pass-while-fits": "You hold a tile that fits ({tile}), so you cannot pass.",
    "refusal.pass-while-drawable": "Tiles can still be drawn from el pozo, so you cannot pass: draw.",
    "refusal.not-allowed": "That is not allowed now.",
    # Why a hint suggests its move: one phrase for each `HintReason` code.
    "hint.must-draw": "nothing you hold fits {left} or {right}: draw",
    "hint.must-pass": "nothing fits and nothing can be drawn: pass",
    "hint.forced-lead": "the round opens with {tile}",
    "hint.only-tile": "{tile} is the only tile that fits",
    "hint.domino": "your last tile: domino",
    "hint.blocks-next": "the next player could not match {number}",
    "hint.blocks-seat": "{name} could not match {number}",
    "hint.keeps-suit": "keeps your {number}s",
    "hint.double": "lays the double {tile} while it still fits",
    "hint.sheds-weight": "gets rid of {pips} pips",
    "hint.draw-better": "drawing does better than any tile here",
    "hint.best-odds": "does best in {samples} sampled deals",
    "hint.separator": "; ",
})

#: Refusals whose sentence has a singular form, by the param that counts.
_COUNTED_REFUSALS: dict[str, str] = {Refusal.RESERVE_REACHED: "reserve", Refusal.DRAW_LIMIT: "count"}

#: Longest name shown; longer ones are cut (the host limits them too).
NAME_LIMIT = 24


def display_text(text: object, limit: int = 500) -> str:
    """``text`` safe to print: no escape or control sequence, one line, at most ``limit`` chars.

    The same cleaning the host applies (`capicu.net.sanitize`), applied again on
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
    return t("word.seat", number=seat + 1)


def side_members(side: int, sides: int, players: int) -> list[int]:
    """The seats that score together as ``side`` (one seat unless in partnerships)."""
    if sides == players or sides <= 0:
        return [side]
    return [seat for seat in range(players) if seat % sides == side]


def seat_label(names: Sequence[str], seat: int, my_seat: int | None = None) -> str:
    """A seat as a label ("Ana: out", a column): its name, or "You" for the reader's own."""
    return t("word.you_title") if seat == my_seat else seat_name(names, seat)


def side_name(
    side: int, names: Sequence[str], sides: int, players: int, my_seat: int | None = None
) -> str:
    """A side as a label: "Ana", "Team Ana & Luis" for partners; "You", "You & Luis" for the reader's."""
    members = side_members(side, sides, players)
    if not members:  # a side number out of range (from a faulty host)
        return seat_name(names, side)
    if my_seat in members:
        partners = " & ".join(seat_name(names, seat) for seat in members if seat != my_seat)
        return t("word.you_team", partner=partners) if partners else t("word.you_title")
    joined = " & ".join(seat_name(names, seat) for seat in members)
    return t("word.team", names=joined) if len(members) > 1 else joined


def _you_or(seat: int, names: Sequence[str], my_seat: int | None) -> tuple[str, bool]:
    return seat_name(names, seat), seat == my_seat


def _side_form(
    side: int, names: Sequence[str], sides: int, players: int, my_seat: int | None
) -> tuple[str, dict[str, str]]:
    """How a sentence whose subject is ``side`` is keyed, and the names it fills in.

    The suffix picks the catalogue's form: "" another player or team (``name``),
    "_you" the reader alone, "_we" the reader with their partner (``partner``).
    """
    members = side_members(side, sides, players)
    if my_seat is not None and my_seat in members:
        partners = [seat_name(names, seat) for seat in members if seat != my_seat]
        if partners:
            return "_we", {"partner": " & ".join(partners)}
        return "_you", {}
    return "", {"name": side_name(side, names, sides, players)}


def _and_list(items: Sequence[str]) -> str:
    """``items`` as a list in words: "4-5", "4-5 and 2-2", "4-5, 2-2 and 0-1"."""
    if len(items) <= 1:
        return "".join(items)
    return t("word.and_list", items=t("word.list_separator").join(items[:-1]), last=items[-1])


def describe_event(event: Event, names: Sequence[str], my_seat: int | None, *, lead: bool = False) -> str:
    """One public event as a sentence ("Ana plays 3-5 on the left.").

    ``lead``: this `TilePlayed` is the round's first tile (the event cannot tell,
    the sequence can: it follows `RoundStarted`), said as "Ana leads with 6-6."
    """
    if isinstance(event, RoundStarted):
        name, mine = _you_or(event.leader, names, my_seat)
        parts = []
        if event.redeals:
            parts.append(t("event.redeals", count=event.redeals))
        if mine:
            parts.append(t("event.round_started_you", round=event.round_number))
        else:
            parts.append(t("event.round_started", round=event.round_number, leader=name))
        if event.forced_lead is not None:
            key = "event.forced_lead_you" if mine else "event.forced_lead"
            parts.append(t(key, leader=name, tile=str(event.forced_lead)))
        return " ".join(parts)
    if isinstance(event, TilePlayed):
        name, mine = _you_or(event.seat, names, my_seat)
        if lead:
            return t("event.lead_you" if mine else "event.lead", name=name, tile=str(event.tile))
        end = t(f"end.{event.end.value}")
        return t("event.played_you" if mine else "event.played", name=name, tile=str(event.tile), end=end)
    if isinstance(event, TilesDrawn):
        name, mine = _you_or(event.seat, names, my_seat)
        if mine:
            key = "event.drew_you_one" if event.count == 1 else "event.drew_you"
        else:
            key = "event.drew_one" if event.count == 1 else "event.drew"
        return t(key, name=name, count=event.count)
    if isinstance(event, Passed):
        name, mine = _you_or(event.seat, names, my_seat)
        return t("event.passed_you" if mine else "event.passed", name=name)
    if isinstance(event, RoundEnded):
        result = event.result
        name, mine = _you_or(result.last_player, names, my_seat)
        kind = "domino" if result.reason == Outcome.DOMINO else "tranque"
        text = t(f"event.round_{kind}{'_you' if mine else ''}", name=name, tile=str(result.last_tile))
        bonuses = {bonus for bonus, _ in result.bonuses}
        if Bonus.CAPICU in bonuses:
            text += " " + t("event.capicu")
        if Bonus.CHUCHAZO in bonuses:
            text += " " + t("event.chuchazo")
        return text
    if isinstance(event, MatchEnded):
        sides = len(event.scores)
        players = max(len(names), sides)
        score = event.scores[event.winner] if 0 <= event.winner < sides else 0
        form, who = _side_form(event.winner, names, sides, players, my_seat)
        return t(f"event.match_won{form}", score=score, **who)
    return ""  # pragma: no cover - Event is a closed union


def describe_my_draw(tiles: Sequence[Tile]) -> str:
    """The drawer's own sentence, naming what came: "You drew 4-5 and 2-2."

    (Everybody else reads the count from the public event: "Pepe drew 2 tiles.")
    """
    if not tiles:
        return t("event.drew_you_none")
    return t("event.drew_you_tiles", tiles=_and_list([str(tile) for tile in tiles]))


def describe_bonus(bonus: Bonus, points: int, round_number: int) -> str:
    """One bonus of round ``round_number`` as a sentence ("Capicú bonus: +100.")."""
    if bonus == Bonus.CAPICU:
        return t("result.bonus_capicu", points=points)
    if bonus == Bonus.CHUCHAZO:
        return t("result.bonus_chuchazo", points=points)
    if bonus == Bonus.ROUND:
        return t("result.bonus_round", number=round_number, points=points)
    return t("result.bonus", bonus=display_text(bonus, 40), points=points)  # a code from a newer host


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
    kind = "domino" if result.reason == Outcome.DOMINO else "tranque"
    lines = [t(f"result.{kind}{'_you' if mine else ''}", round=result.round_number, name=name,
               tile=str(result.last_tile))]
    for seat, hand in enumerate(result.hands if hands else ()):
        label = seat_label(names, seat, my_seat)
        if hand:
            pips = result.pip_counts[seat] if seat < len(result.pip_counts) else sum(x.pips for x in hand)
            lines.append(t("result.hand", name=label, tiles=" ".join(str(x) for x in hand), pips=pips))
        else:
            lines.append(t("result.hand_empty", name=label))
    if teams:
        for side, count in enumerate(result.side_counts):
            form, who = _side_form(side, names, sides, players, my_seat)
            lines.append(t(f"result.side_count{form}", count=count, **who))
    winner = result.winner
    if winner is None:
        lines.append(t("result.tie", count=min(result.side_counts, default=0)))
    else:
        form, who = _side_form(winner, names, sides, players, my_seat)
        lines.append(t(f"result.winner{form}", points=result.points, **who))
        base = result.points - sum(points for _, points in result.bonuses)
        count = result.side_counts[winner] if 0 <= winner < len(result.side_counts) else 0
        lines.extend(_why_they_score(result, names, rules, players, my_seat, base, count))
        lines.extend(describe_bonus(bonus, points, result.round_number) for bonus, points in result.bonuses)
    for side, score in enumerate(result.scores):
        lines.append(t("result.total", name=side_name(side, names, sides, players, my_seat), score=score))
    return lines


def _why_they_score(
    result: RoundResult, names: Sequence[str], rules: Rules, players: int, my_seat: int | None,
    points: int, count: int,
) -> list[str]:
    """What the winning side's points count, in the words of the game's scoring."""
    assert result.winner is not None
    sides = rules.sides(players)
    form, who = _side_form(result.winner, names, sides, players, my_seat)
    # A team sentence names "Team Ana & Luis" and says "the other team's"; the reader's team is "_we".
    team = "_team" if sides != players and form == "" else ""
    if rules.scoring is Scoring.ALL_PIPS:
        lines = []
        if result.reason != Outcome.DOMINO:
            lightest = _lightest_seat(result, sides, players)
            if lightest is not None:
                name, mine = _you_or(lightest, names, my_seat)
                lines.append(t(f"result.lightest{'_you' if mine else ''}", name=name,
                               count=result.pip_counts[lightest]))
        lines.append(t(f"result.takes_all{form}", points=points, **who))
        return lines
    if rules.scoring is Scoring.DOMINO_TAKES_ALL and result.reason == Outcome.DOMINO:
        return [t(f"result.takes_others{form or team}", points=points, **who)]
    return [t(f"result.lowest{form or team}", points=points, count=count, **who)]


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
    key = f"refusal.{reason}"
    if not has(key):
        key = "refusal.not-allowed"
    values: dict[str, object] = {
        name: value if isinstance(value, int) else display_text(value, 40) for name, value in params.items()
    }
    seat = params.get("seat")
    if isinstance(seat, int):
        values["name"] = t("word.you") if seat == my_seat else seat_name(names, seat)
    if params.get("end") in ("left", "right"):
        values["end"] = t(f"end.{params['end']}")
    counted = _COUNTED_REFUSALS.get(reason)
    if counted is not None and params.get(counted) == 1:
        key += "_one"
    elif reason == Refusal.FITS_NEITHER_END and "left" in params and params["left"] == params.get("right"):
        key += "_same"
    return t(key, **values)


def describe_action_refused(view: View, action: Action, names: Sequence[str]) -> str:
    """Why ``action`` is not allowed in ``view``, in words ("" when it is allowed).

    The engine's own reason (`why_not`), asked before a key's intent is sent.
    """
    refused = why_not(view, action)
    if refused is None:
        return ""
    return describe_refusal(refused.reason, refused.params, names, view.seat)


def describe_hint_reasons(hint: Hint, names: Sequence[str], my_seat: int | None = None) -> str:
    """Why a hint suggests its move, as a phrase ("keeps your 5s; Pepe could not match 3").

    ``names`` name a seat the reason is about; ``my_seat`` is the reader's.
    """
    phrases = []
    for reason in hint.reasons:
        values: dict[str, object] = dict(reason.values)
        seat = values.get("seat")
        if isinstance(seat, int):
            values["name"] = t("word.you") if seat == my_seat else seat_name(names, seat)
        phrases.append(t(f"hint.{reason.code}", **values))
    return t("hint.separator").join(phrases)
