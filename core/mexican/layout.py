"""Mexican Train's layout: a train for each seat and the Mexican train, all from the engine.

docs/RULES.md, ``mexican-train``. Trains are numbered ``0 .. players - 1`` for
the seats' own trains and ``players`` for the Mexican train; each keeps its
open number (``heads``), its length and its marker. The Mexican train's marker
is always up: a train whose marker is up is open to everyone, which is exactly
what the Mexican train is. Where a tile fits is the one fit rule, `far_ends`
(core/tiles.py). A train as a place of an action is `Train` (core/actions.py).
"""

from __future__ import annotations

from ..tiles import TileSet, far_ends


class Trains:
    """The layout: every train's open number, length and marker, and the doubles left open.

    `places` says on which trains the seat on turn may lay now, `fitting` which
    of its tiles go on one of them; the fit itself is `far_ends`'.
    """

    __slots__ = (
        "engine",
        "far",
        "heads",
        "lengths",
        "markers",
        "mexican",
        "mexican_needs_own",
        "open_doubles",
        "suit",
    )

    def __init__(self, tiles: TileSet, players: int, engine: int, *, mexican_needs_own: bool) -> None:
        self.far = far_ends(tiles)
        self.suit = tiles.suit_mask
        #: The engine's number: every train's first tile shows it.
        self.engine = engine
        #: The number open at the end of each train (the engine's while it is empty).
        self.heads = [engine] * (players + 1)
        self.lengths = [0] * (players + 1)
        #: Each train's marker; the Mexican train's is always up (open to all).
        self.markers = [False] * players + [True]
        self.mexican = players
        #: The option: only a player whose own train is started may lay on the Mexican train.
        self.mexican_needs_own = mexican_needs_own
        #: The trains whose last tile is a double not yet covered, oldest first.
        self.open_doubles: list[int] = []

    @property
    def open_double(self) -> int:
        """The train of the oldest open double, or -1: the one to cover next."""
        return self.open_doubles[0] if self.open_doubles else -1

    def open_to(self, seat: int) -> list[int]:
        """The trains ``seat`` may lay on in an ordinary turn: its own, the Mexican, those marked up."""
        trains = [seat]
        markers = self.markers
        for train in range(self.mexican):
            if train != seat and markers[train]:
                trains.append(train)
        if not (self.mexican_needs_own and not self.lengths[seat]):
            trains.append(self.mexican)
        return trains

    def fits(self, hand: int, train: int) -> int:
        """The tiles of ``hand`` that show ``train``'s open number."""
        return hand & self.suit[self.heads[train]]

    def lay_on(self, tile: int, train: int) -> int:
        """Lay tile number ``tile`` on ``train`` (where it fits); returns the number it leaves open."""
        head = self.far[tile][self.heads[train]]
        self.heads[train] = head
        self.lengths[train] += 1
        return head
