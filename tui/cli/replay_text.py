"""``capicu replay FILE --text``: a recorded match move by move, as plain text to paste into a chat.

Round by round: the deal with every hand, each move in the table's own words
(tui/words/describe.py, tui/words/describe_trains.py), the round's result with the hands
left and the totals, and at the end who won. In the command line's language.

Each game words its own rounds (`ROUND_TEXTS`, keyed by the game's name): adding a game
is its module and one line there.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator, Sequence
from typing import Any, cast

from capicu.core import MatchEnded, RoundEnded, RoundStarted, TilesDrawn, View
from capicu.core.draw.events import Event
from capicu.core.games import game_of
from capicu.core.replay import Position, Replay, replay
from capicu.net.store.record import MatchRecord
from capicu.tui.words.describe import (
    describe_event,
    describe_result,
    display_text,
    list_separator,
)
from capicu.tui.words.describe_rules import preset_title
from capicu.tui.words.messages import t, tn


def record_text(record: MatchRecord, when: str, replayed: Replay | None = None) -> Iterator[str]:
    """The lines of the text of ``record`` (played at ``when``, as the list of replays words it).

    ``replayed``: the log replayed already (`capicu.net.store.record.read_replay`), else replayed here.
    """
    names = [display_text(name, 40) or t("seat {number}", number=seat + 1)
             for seat, name in enumerate(record.names)]
    seats = [t("{name} (computer)", name=name) if record.seats[seat].kind == "computer" else name
             for seat, name in enumerate(names)]
    yield t("{game}, played {when}: {players}", game=preset_title(record.preset), when=when,
            players=list_separator().join(seats))
    yield from replay_text(replayed or replay(record.match_log()), names)


#: Each game's words for one round, by the game's name (`GameSpec.name`): "module:function",
#: imported when a record of that game is told. The function is given the round's positions
#: (its deal first) and the seats' names, and yields the round's lines.
ROUND_TEXTS = {
    "line": "capicu.tui.cli.replay_text:draw_round",
    "mexican-train": "capicu.tui.cli.replay_mexican:train_round",
    "fives-and-threes": "capicu.tui.cli.replay_fives:fives_round",
}

RoundText = Callable[[Sequence[Position], Sequence[str]], Iterator[str]]


def _round_text(rules: Any) -> RoundText:
    module, _, name = ROUND_TEXTS[game_of(rules).name].partition(":")
    text: RoundText = getattr(importlib.import_module(module), name)
    return text


def replay_text(match: Replay, names: Sequence[str]) -> Iterator[str]:
    """Every round of ``match`` told in order (see the module docstring)."""
    round_text = _round_text(match.match.rules)
    starts = match.round_starts()
    for number, first in enumerate(starts):
        last = (starts[number + 1] if number + 1 < len(starts) else len(match.positions)) - 1
        yield from round_text(match.positions[first:last + 1], names)


def dealt(rounds: Sequence[Position], started: type[Any] | Any) -> Position:
    """The deal a round was played with: the last position whose events hold ``started`` (the game's
    round-started event; a new deal asked for replaces the first), else the round's first."""
    deals = [p for p in rounds if any(isinstance(e, started) for e in p.events)]
    return deals[-1] if deals else rounds[0]


def dealt_hands(position: Position, names: Sequence[str], left_to_draw: str) -> Iterator[str]:
    """Every hand as dealt (one line a seat), then ``left_to_draw`` (what is left, in the game's words)."""
    for seat, view in enumerate(position.views):
        yield "  " + t("{name}: {tiles}", name=names[seat], tiles=" ".join(str(tile) for tile in view.hand))
    yield "  " + left_to_draw


def left_in_hands(hands: Sequence[Sequence[object]], counts: Sequence[int],
                   names: Sequence[str]) -> Iterator[str]:
    for seat, hand in enumerate(hands):
        if hand:
            yield "  " + t("{name}: {tiles} = {pips}", name=names[seat], tiles=" ".join(str(x) for x in hand),
                           pips=counts[seat])
        else:
            yield "  " + t("{name}: out", name=names[seat])


def draw_round(rounds: Sequence[Position], names: Sequence[str]) -> Iterator[str]:
    """A round of the Draw family: its story (`View.events` at its end), a run of draws as one line."""
    board = cast(View, rounds[-1].board)
    deal = dealt(rounds, RoundStarted)
    previous: Event | None = None
    drawn: tuple[int, int] | None = None
    for event in board.events:
        if isinstance(event, TilesDrawn):
            if drawn is not None and drawn[0] != event.seat:
                yield "  " + describe_event(TilesDrawn(drawn[0], drawn[1], -1, -1), names, None)
                drawn = None
            drawn = (event.seat, event.count + (drawn[1] if drawn is not None else 0))
            previous = event
            continue
        if drawn is not None:
            yield "  " + describe_event(TilesDrawn(drawn[0], drawn[1], -1, -1), names, None)
            drawn = None
        if isinstance(event, RoundStarted):
            yield ""
            yield describe_event(event, names, None)
            yield from dealt_hands(deal, names, tn("el pozo: {count} tile", "el pozo: {count} tiles",
                                             deal.board.boneyard))
        elif isinstance(event, RoundEnded):
            yield "  " + describe_event(event, names, None)
            lines = describe_result(event.result, names, board.rules, board.players, None, hands=True)
            yield from ("  " + line for line in lines[1:])
        elif isinstance(event, MatchEnded):
            yield ""
            yield describe_event(event, names, None)
        else:
            yield "  " + describe_event(event, names, None, lead=isinstance(previous, RoundStarted))
        previous = event
