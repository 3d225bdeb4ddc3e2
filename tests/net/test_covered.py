"""A snapshot says which of its view's events the computer made for your seat (``snapshot.covered``):
a person who takes their seat back is not told the covering computer's moves as their own."""

from __future__ import annotations

from capicu.core import Passed, TilePlayed
from capicu.net import Client, Snapshot, Update
from capicu.net.protocol import ActedBy, to_wire

from .conftest import LOOPBACK, first_that, next_of


def _numbered(snapshot: Snapshot) -> dict[int, object]:
    """The snapshot's view's events by their numbers (the last is ``seq``)."""
    events = snapshot.view.events
    first = snapshot.seq - len(events) + 1
    return {first + place: event for place, event in enumerate(events)}


async def test_the_snapshot_of_a_seat_taken_back_marks_the_computers_moves(start_host):
    _, port = await start_host(players=3, computers=1, seed=4, grace=300, computer_delay=0.3)
    ana = await Client.connect(LOOPBACK, port, name="ana")
    bea = await Client.connect(LOOPBACK, port, name="bea")
    first = await next_of(ana, Snapshot)
    assert first.covered == ()
    assert "covered" not in to_wire(first)  # nothing covered: the snapshot is the bytes it always was
    token = ana.token
    await ana.close()  # on purpose: the computer covers the seat at once
    move = await first_that(bea, lambda m: isinstance(m, Update) and m.actor == 0)
    assert move.by is ActedBy.COMPUTER
    back = await Client.connect(LOOPBACK, port, name="-", token=token)
    snapshot = await next_of(back, Snapshot)
    numbered = _numbered(snapshot)
    hers = {number for number, event in numbered.items()
            if isinstance(event, (TilePlayed, Passed)) and event.seat == 0}
    assert hers, "the computer made no move for ana"
    # Every play or pass of hers was the computer's (she made none), and nothing of anybody else's.
    assert hers <= set(snapshot.covered) <= set(numbered)
    assert all(getattr(numbered[number], "seat", 0) == 0 for number in snapshot.covered)
    # A spectator's snapshot marks nothing: ``covered`` is about your own seat.
    eve = await Client.connect(LOOPBACK, port, name="eve", spectate=True)
    assert (await next_of(eve, Snapshot)).covered == ()
    await eve.close()
    await back.close()
    await bea.close()
