"""``capicu replay FILE --text``: a recorded match move by move, as plain text to paste into a chat.

Round by round: the deal with every hand, each move in the table's own words
(tui/words/describe.py, tui/words/describe_trains.py), the round's result with the hands
left and the totals, and at the end who won. In the command line's language.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from capicu.core import MatchEnded, MexicanView, RoundEnded, RoundStarted, TilesDrawn, View
from capicu.core.draw.events import Event
from capicu.core.mexican.events import MexicanMatchEnded, MexicanRoundEnded, MexicanRoundStarted
from capicu.core.replay import Position, Replay, replay
from capicu.net.store.record import MatchRecord
from capicu.tui.words.describe import (
    describe_event,
    describe_result,
    display_text,
    list_separator,
)
from capicu.tui.words.describe_rules import preset_title
from capicu.tui.words.describe_trains import (
    describe_train_result,
    describe_train_winners,
    train_news_lines,
    untold_lines,
)
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


def replay_text(match: Replay, names: Sequence[str]) -> Iterator[str]:
    """Every round of ``match`` told in order (see the module docstring)."""
    starts = match.round_starts()
    for number, first in enumerate(starts):
        last = (starts[number + 1] if number + 1 < len(starts) else len(match.positions)) - 1
        rounds = match.positions[first:last + 1]
        # The deal the round was played with (a new deal asked for replaces the first).
        dealt = [p for p in rounds
                 if any(isinstance(e, RoundStarted | MexicanRoundStarted) for e in p.events)]
        deal = dealt[-1] if dealt else rounds[0]
        board = rounds[-1].board
        if isinstance(board, MexicanView):
            yield from _train_round(board, deal, names)
        else:
            yield from _draw_round(board, deal, names)


def _hands(position: Position, names: Sequence[str]) -> Iterator[str]:
    """Every hand as dealt (one line a seat), then what is left to draw."""
    for seat, view in enumerate(position.views):
        yield "  " + t("{name}: {tiles}", name=names[seat], tiles=" ".join(str(tile) for tile in view.hand))
    board = position.board
    if isinstance(board, MexicanView):
        yield "  " + tn("the boneyard: {count} tile", "the boneyard: {count} tiles", board.boneyard)
    else:
        yield "  " + tn("el pozo: {count} tile", "el pozo: {count} tiles", board.boneyard)


def _left_in_hands(hands: Sequence[Sequence[object]], counts: Sequence[int],
                   names: Sequence[str]) -> Iterator[str]:
    for seat, hand in enumerate(hands):
        if hand:
            yield "  " + t("{name}: {tiles} = {pips}", name=names[seat], tiles=" ".join(str(x) for x in hand),
                           pips=counts[seat])
        else:
            yield "  " + t("{name}: out", name=names[seat])


def _draw_round(board: View, deal: Position, names: Sequence[str]) -> Iterator[str]:
    """A round of the Draw family: its story (`View.events` at its end), a run of draws as one line."""
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
            yield from _hands(deal, names)
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


def _train_round(board: MexicanView, deal: Position, names: Sequence[str]) -> Iterator[str]:
    """A round of Mexican Train: the table's log lines (tiles of one move said together)."""
    story = board.events
    begun = max((i for i, e in enumerate(story) if isinstance(e, MexicanRoundStarted)), default=-1)
    moves = [e for e in story[begun + 1:] if not isinstance(e, MexicanRoundEnded | MexicanMatchEnded)]
    if begun >= 0:
        head, _ = train_news_lines(story[begun:begun + 1], None, board, names, None)
        yield ""
        yield from (line() for line in head)
        yield from _hands(deal, names)
    told, untold = train_news_lines(moves, None, board, names, None)
    yield from ("  " + line() for line in told + untold_lines(untold, names, None))
    for event in story:
        if isinstance(event, MexicanRoundEnded):
            head_line, *totals = describe_train_result(event.result, names, None)
            yield "  " + head_line
            yield from _left_in_hands(event.result.hands, event.result.counts, names)
            yield from ("  " + line for line in totals)
        elif isinstance(event, MexicanMatchEnded):
            yield ""
            yield describe_train_winners(event.winners, event.totals, names, None)
