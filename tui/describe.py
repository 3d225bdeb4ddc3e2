"""Public events and round results in words, through the message catalogue.

The host already cleans names and chat, but a name is shown on a terminal, so
every name passes `display_text` again here: one forgotten path on the host
must not let a player move another player's cursor.
"""

from __future__ import annotations

from collections.abc import Sequence

from capicu.core import (
    DOMINO,
    Event,
    MatchEnded,
    Passed,
    RoundEnded,
    RoundResult,
    RoundStarted,
    Rules,
    Scoring,
    TilePlayed,
    TilesDrawn,
)
from capicu.net.sanitize import clean_text

from .messages import ascii_only, t, to_ascii

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


def side_name(side: int, names: Sequence[str], sides: int, players: int) -> str:
    """A side named by its players: "Ana", or "Team Ana & Luis" for partners."""
    members = side_members(side, sides, players)
    if not members:  # a side number out of range (from a faulty host)
        return seat_name(names, side)
    joined = " & ".join(seat_name(names, seat) for seat in members)
    return t("word.team", names=joined) if len(members) > 1 else joined


def _you_or(seat: int, names: Sequence[str], my_seat: int | None) -> tuple[str, bool]:
    return seat_name(names, seat), seat == my_seat


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
        kind = "domino" if result.reason == DOMINO else "tranque"
        text = t(f"event.round_{kind}{'_you' if mine else ''}", name=name)
        bonuses = {bonus for bonus, _ in result.bonuses}
        if bonuses & {"capicú", "capicu"}:
            text += " " + t("event.capicu")
        if "chuchazo" in bonuses:
            text += " " + t("event.chuchazo")
        return text
    if isinstance(event, MatchEnded):
        sides = len(event.scores)
        players = len(names)
        members = side_members(event.winner, sides, players) if sides < players else [event.winner]
        score = event.scores[event.winner] if 0 <= event.winner < sides else 0
        if my_seat is not None and my_seat in members:
            return t("event.match_won_you", score=score)
        winner = " & ".join(seat_name(names, seat) for seat in members)
        if len(members) > 1:
            winner = t("word.team", names=winner)
        return t("event.match_won", name=winner, score=score)
    return ""  # pragma: no cover - Event is a closed union


def describe_events(events: Sequence[Event], names: Sequence[str], my_seat: int | None) -> list[str]:
    """A run of events in sentences, the lead told as a lead."""
    lines = []
    previous: Event | None = None
    for event in events:
        text = describe_event(event, names, my_seat, lead=isinstance(previous, RoundStarted))
        if text:
            lines.append(text)
        previous = event
    return lines


def bonus_name(name: str) -> str:
    """A bonus as the engine names it ("capicú", "round 2"), in the current language."""
    if name in ("capicú", "capicu"):
        return t("bonus.capicu")
    if name == "chuchazo":
        return t("bonus.chuchazo")
    if name.startswith("round ") and name[6:].isdigit():
        return t("bonus.round", number=int(name[6:]))
    return display_text(name, 40)


def describe_result(
    result: RoundResult,
    names: Sequence[str],
    rules: Rules,
    players: int,
) -> list[str]:
    """A finished round in sentences: how it ended, every hand, who scored what and why."""
    sides = rules.sides(players)
    last = seat_name(names, result.last_player)
    lines = []
    if result.reason == DOMINO:
        lines.append(t("result.domino", round=result.round_number, name=last, tile=str(result.last_tile)))
    else:
        lines.append(t("result.tranque", round=result.round_number, name=last, tile=str(result.last_tile)))
    for seat, hand in enumerate(result.hands):
        name = seat_name(names, seat)
        if hand:
            pips = result.pip_counts[seat] if seat < len(result.pip_counts) else sum(x.pips for x in hand)
            lines.append(t("result.hand", name=name, tiles=" ".join(str(x) for x in hand), pips=pips))
        else:
            lines.append(t("result.hand_empty", name=name))
    if sides != players:
        for side, count in enumerate(result.side_counts):
            lines.append(t("result.side_count", name=side_name(side, names, sides, players), count=count))
    if result.winner is None:
        lines.append(t("result.tie", count=min(result.side_counts, default=0)))
    else:
        winner = side_name(result.winner, names, sides, players)
        base = result.points - sum(points for _, points in result.bonuses)
        count = result.side_counts[result.winner] if 0 <= result.winner < len(result.side_counts) else 0
        lines.append(t(_why_key(rules, result.reason), name=winner, points=base, count=count, player=last))
        for bonus, points in result.bonuses:
            lines.append(t("result.bonus", bonus=bonus_name(bonus), points=points))
    for side, score in enumerate(result.scores):
        lines.append(t("result.total", name=side_name(side, names, sides, players), score=score))
    return lines


def _why_key(rules: Rules, reason: str) -> str:
    if rules.scoring is Scoring.ALL_PIPS:
        return "result.scored_why_all" if reason == DOMINO else "result.scored_why_lightest"
    if rules.scoring is Scoring.DOMINO_TAKES_ALL and reason == DOMINO:
        return "result.scored_why_domino"
    return "result.scored_why_lowest"
