"""Forced draws: the host draws for a seat that may only draw, in the update of the move before.

docs/RULES.md: a player with no playable tile draws until a drawn tile fits,
or until the reserve is reached (then they pass). Nobody chooses those draws,
so the host makes them itself (net/host/table.py `Table._forced_draws`) instead of
waiting for an intent per tile; every seat hears them in one update, as the
engine's own `tiles_drawn` events, which never say which tile came.
"""

from __future__ import annotations

from typing import Any

from capicu.core import DRAW, Match
from capicu.net.host.effects import Peer
from capicu.net.host.machine import HostMachine

from ..conftest import check_no_leaks, check_numbering
from .test_machine import framed, hello, host, joined, told


def _play(machine: HostMachine, peers: list[Peer], moves: int) -> list[list[dict[str, Any]]]:
    """Every seat sends its first legal intent on its turn, ready in the breaks; what each was told."""
    table = machine.tables["main"]
    frames: list[list[dict[str, Any]]] = [[] for _ in peers]
    now = 1.0
    for ref in range(1, moves):
        match = table.match
        assert match is not None
        if match.winner is not None:
            break
        if match.awaiting_deal:
            messages = [(peer, {"type": "ready"}) for peer in peers]
        else:
            assert match.turn is not None
            action = str(match.legal_actions()[0])
            messages = [(peers[match.turn], {"type": "action", "action": action, "ref": ref})]
        for peer, message in messages:
            effects = machine.receive(peer, framed(message), now)
            for seat, other in enumerate(peers):
                frames[seat].extend(told(effects, other))
        now += 0.01
    return frames


def _updates(frames: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [f for f in frames if f["type"] == "update"]


def test_a_seat_that_may_only_draw_never_waits_for_its_screen() -> None:
    machine = host(players=2, table={"next_round_delay": None})
    ana, first = joined(machine, "ana")
    bo, _ = machine.connect("10.0.0.2", 0.0)
    joining = machine.receive(bo, hello("bo"), 0.0)
    frames = _play(machine, [ana, bo], 400)
    frames[0][:0] = first + told(joining, ana)
    frames[1][:0] = told(joining, bo)
    updates = [_updates(f) for f in frames]
    draws = [u for u in updates[0] if any(e["type"] == "tiles_drawn" for e in u["events"])]
    assert draws, "this seed's match never forced a draw"
    for seat in (0, 1):
        # No view ever stops where drawing is all a seat may do: the host drew already.
        assert all(u["view"]["legal"] != [str(DRAW)] for u in updates[seat])
        check_numbering(frames[seat])
        assert check_no_leaks(frames[seat], seat) > 0
    # Both seats hear the same draws in the same update, each a count and never a tile.
    assert [u["events"] for u in updates[0]] == [u["events"] for u in updates[1]]
    for update in draws:
        drawn = [e for e in update["events"] if e["type"] == "tiles_drawn"]
        assert all(set(e) == {"type", "seat", "count", "left", "right"} for e in drawn)
        # The draws come in the update of the move that left the drawer nothing to play.
        drawer = drawn[0]["seat"]
        assert update["events"][0]["type"] != "tiles_drawn" and update["actor"] != drawer
        # The drawer may now play, or el pozo is down to its reserve and it passes (its own intent).
        view = updates[drawer][updates[0].index(update)]["view"]
        if view["turn"] == drawer:
            assert view["legal"] == ["pass"] or all(a.startswith("play") for a in view["legal"])


def test_the_match_the_host_plays_is_the_one_its_journal_replays() -> None:
    """The draws the host made are ordinary actions of the match: the log replays them."""
    machine = host(players=2, table={"next_round_delay": None})
    ana, _ = joined(machine, "ana")
    bo, _ = joined(machine, "bo")
    _play(machine, [ana, bo], 200)
    match = machine.tables["main"].match
    assert match is not None
    log = match.log()
    assert "draw" in log["entries"]
    replayed = Match.from_log(log)
    assert replayed.view(0) == match.view(0) and replayed.view(1) == match.view(1)
