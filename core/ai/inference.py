"""What a seat can work out about the tiles it cannot see, and deals that respect it.

A good human at the table knows more than "the hidden tiles are somewhere":

- a player who drew (when drawing is forced) or passed held no tile matching
  either open end at that moment; the tiles they drew later may match;
- a forced first lead of a double below the set's top double means nobody was
  dealt a higher double;
- how many tiles each hand and the boneyard hold, and which tiles are laid.

`infer` turns a `View` into `Knowledge`: for each other seat, one *slot* per
hidden tile in its hand, with the tiles that slot cannot hold. The slots are
every game's (core/ai/mexican_inference.py fills them for Mexican Train); the
Draw family's own reading of the line (its open ends, the plays seen) is a
`LineReading`. A slot is a
tile the seat acquired (dealt or drawn); a no-match event rules tiles out of
every slot the seat held at that moment, never out of slots acquired later.
Slots acquired earlier have seen every later event, so one seat's slots form a
chain (each forbids at least what the next forbids). When the seat lays a
known tile we remove the most constrained slot that could have held it: the
remaining slots are then as loose as any story consistent with the events
allows, so no real deal is ever excluded.

`DealSampler` draws hands and a boneyard order consistent with that knowledge
(and, when nothing can be drawn, with the round still being alive: some hand
fits an end). Those are hard facts. On top of them, `DealSampler.likelihood`
reads the other players' recent plays softly (a sensible player seldom keeps
a heavier tile, a double or an end it can follow when it had the choice), and
`DealChain` walks among deals by that likelihood; the search uses either.
"""

from __future__ import annotations

import math
import random

import msgspec

from ..draw.events import Passed, RoundStarted, TilePlayed, TilesDrawn
from ..draw.layout import line_of
from ..draw.view import View
from ..tiles import TileSet, tile_set

#: One play seen: ends before, tile index, ends after, tiles the seat laid later.
Choice = tuple[int, int, int, int, int, int]


#: A play prepared for the likelihood: tiles held then beyond the hand now, the
#: tiles that fitted, the chosen tile's bit, base merit and open ends after,
#: and for each fitting tile its (bit, base merit, open ends after) per end.
ChoiceTable = tuple[int, int, int, int, int, dict[int, list[tuple[int, int, int]]]]


class LineReading(msgspec.Struct, frozen=True):
    """The Draw family's own reading of the table: the line's open ends and the plays seen."""

    #: The open ends (-1, -1 before the lead).
    left: int = -1
    right: int = -1
    #: For each seat, its plays since it last drew (so it held every tile it
    #: holds now), each as (left, right) before the play, the tile, (left,
    #: right) after, and the tiles it laid later (held then, gone now).
    choices: tuple[tuple[Choice, ...], ...] = ()
    #: Blanks are wild (a house rule): a pass or a forced draw then rules out every blank too,
    #: as the line's fit table says.
    wild_blanks: bool = False


class Knowledge(msgspec.Struct, frozen=True):
    """A seat's knowledge of the hidden tiles (see the module docstring), in any game."""

    seat: int
    tiles: TileSet
    #: The seat's own hand as a mask.
    hand: int
    #: Every tile this seat cannot see: other hands plus the boneyard.
    pool: int
    #: For each seat, the forbidden-tile mask of each hidden tile it holds
    #: (oldest first); empty for this seat.
    slots: tuple[tuple[int, ...], ...]
    #: How many tiles the boneyard holds (drawable or not).
    boneyard: int
    #: How many tiles can still be drawn.
    drawable: int
    #: The Draw family's reading of the line (`infer`); None in a game without one.
    line: LineReading | None = None

    def lacks(self, seat: int) -> frozenset[int]:
        """The numbers ``seat`` is known to hold none of right now."""
        if seat == self.seat or not self.slots[seat]:
            return frozenset()
        suit = self.tiles.suit_mask
        common = self.tiles.full_mask
        for forbidden in self.slots[seat]:
            common &= forbidden
        return frozenset(n for n in range(self.tiles.max_pip + 1) if suit[n] & self.pool & ~common == 0
                         and suit[n] & self.pool)


def infer(view: View) -> Knowledge:
    """What ``view``'s seat knows about the hidden tiles, from its view alone."""
    if view.seat is None:
        raise ValueError("a spectator has no hand to reason from")
    me = view.seat
    tiles = tile_set(view.rules.max_pip)
    wild = bool(view.rules.wild_blanks)
    fit = line_of(view.rules.max_pip, wild).fit
    hand = tiles.mask_of(view.hand)
    laid = 0
    # A forced draw tells as much as a pass; a voluntary draw tells nothing.
    draws_tell = not view.rules.voluntary_draw
    slots: list[list[int]] = [[] for _ in range(view.players)]
    plays: list[list[tuple[int, int, int, int, int]]] = [[] for _ in range(view.players)]
    before = (-1, -1)  # the open ends before the next play
    lead_forced = False
    for event in view.events:
        if isinstance(event, RoundStarted):
            dealt = 0
            if event.forced_lead is not None:
                top = event.forced_lead.high
                for number in range(top + 1, tiles.max_pip + 1):
                    dealt |= 1 << tiles.double_of[number]
            slots = [
                [] if seat == me else [dealt] * count for seat, count in enumerate(event.hand_counts)
            ]
            plays = [[] for _ in range(view.players)]
            laid = 0
            before = (-1, -1)
            lead_forced = event.forced_lead is not None
        elif isinstance(event, TilePlayed):
            index = tiles.index[event.tile]
            bit = 1 << index
            laid |= bit
            if event.seat != me:
                _remove_slot(slots[event.seat], bit)
                if not (before[0] < 0 and lead_forced):
                    plays[event.seat].append((*before, index, event.left, event.right))
            before = (event.left, event.right)
        elif isinstance(event, TilesDrawn):
            if event.seat != me:
                plays[event.seat] = []
                if draws_tell and event.left >= 0:
                    _rule_out(slots[event.seat], fit[event.left][event.right])
                slots[event.seat].extend([0] * event.count)
        elif isinstance(event, Passed) and event.seat != me and event.left >= 0:
            _rule_out(slots[event.seat], fit[event.left][event.right])
    pool = tiles.full_mask & ~hand & ~laid
    counts_agree = all(
        seat == me or len(slots[seat]) == view.hand_counts[seat] for seat in range(view.players)
    ) and sum(len(s) for s in slots) + view.boneyard == pool.bit_count()
    if not counts_agree:
        # The events do not add up (a view built by hand, say): know only the counts.
        slots = [[] if seat == me else [0] * n for seat, n in enumerate(view.hand_counts)]
    left, right = view.ends if view.ends is not None else (-1, -1)
    return Knowledge(
        seat=me,
        tiles=tiles,
        hand=hand,
        pool=pool,
        slots=tuple(tuple(s) for s in slots),
        boneyard=view.boneyard,
        drawable=view.drawable,
        line=LineReading(left, right, tuple(_with_later(p) for p in plays), wild),
    )


def _with_later(plays: list[tuple[int, int, int, int, int]]) -> tuple[Choice, ...]:
    out: list[Choice] = []
    later = 0
    for play in reversed(plays):
        out.append((*play, later))
        later |= 1 << play[2]
    out.reverse()
    return tuple(out)



def _rule_out(slots: list[int], mask: int) -> None:
    for i in range(len(slots)):
        slots[i] |= mask


def _remove_slot(slots: list[int], bit: int) -> None:
    # Oldest first is most constrained first: take the first slot that could hold it.
    for i, forbidden in enumerate(slots):
        if not forbidden & bit:
            del slots[i]
            return
    if slots:  # cannot happen with honest events; stay usable anyway
        slots.pop()


class Deal(msgspec.Struct, frozen=True):
    """One guess at the hidden tiles: every hand, and the boneyard in draw order."""

    hands: list[int]
    stock: list[int]


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


class DealSampler:
    """Draws deals consistent with one `Knowledge`; build once per decision, sample often."""

    __slots__ = ("_choices", "_constrained", "_free_counts", "_knowledge", "_open", "_tables")

    def __init__(self, knowledge: Knowledge) -> None:
        self._knowledge = knowledge
        pool = knowledge.pool
        constrained: list[tuple[int, int]] = []  # (seat, allowed mask)
        free_counts = [0] * len(knowledge.slots)
        for seat, seat_slots in enumerate(knowledge.slots):
            for forbidden in seat_slots:
                if forbidden & pool:
                    constrained.append((seat, pool & ~forbidden))
                else:
                    free_counts[seat] += 1
        # Fewest choices first, so a random fill rarely paints itself into a corner.
        constrained.sort(key=lambda item: item[1].bit_count())
        self._constrained = constrained
        self._free_counts = free_counts
        line = knowledge.line
        #: The tiles that fit the board now (0: nothing to check a deal's liveness by).
        self._open = 0 if line is None or line.left < 0 else line_of(
            knowledge.tiles.max_pip, line.wild_blanks).fitting(line.left, line.right)
        self._choices = () if line is None else line.choices
        self._tables: list[list[ChoiceTable]] | None = None

    def sample(self, rng: random.Random, tries: int = 30) -> Deal:
        """A deal drawn at random among those the knowledge allows."""
        for _ in range(tries):
            deal = self._try(rng)
            if deal is not None and self._alive(deal):
                return deal
        # Random filling kept failing: a matching always finds a consistent deal.
        return self._matched(rng)

    def likelihood(self, deal: Deal, sharpness: float, sensible: float = 1.0) -> float:
        """How likely the other seats' recent plays are if they hold ``deal``'s hands.

        The model of a sensible player: it prefers heavy tiles, doubles, and
        ends it can follow (more of its tiles match them), choosing each move
        with a probability that grows as exp(sharpness * merit). Used as an
        importance weight, it makes deals in which an opponent passed up a
        much better move count for less.

        ``sensible`` below 1: each seat is that player only with that
        probability, and otherwise one whose choices the model cannot tell
        from chance (each legal play as likely): the two kinds averaged over
        the seat's plays, so a seat whose plays keep fitting the sensible
        player is read as one, and a seat whose plays do not (a strong player
        who follows a plan of its own, say) is not read as a sensible player
        who kept being foolish.
        """
        weight = 1.0
        choices = self._choices
        for seat in range(len(choices)):
            if choices[seat]:
                weight *= self.seat_likelihood(seat, deal.hands[seat], sharpness, sensible)
        return weight

    def seat_likelihood(self, seat: int, hand: int, sharpness: float, sensible: float = 1.0) -> float:
        """`likelihood`'s factor for one seat holding ``hand``."""
        if self._tables is None:
            self._tables = [[self._table(c) for c in seat_choices] for seat_choices in self._choices]
        weight = 1.0
        chance = 1.0  # the plays' likelihood if each legal play were as likely
        exp = math.exp
        for kept, fit, chosen_bit, chosen_base, chosen_out, options in self._tables[seat]:
            held = hand | kept
            chosen = chosen_base + 2 * (held & ~chosen_bit & chosen_out).bit_count()
            total = 0.0
            count = 0
            for index in _bits(held & fit):
                for bit, base, out in options[index]:
                    total += exp(sharpness * (base + 2 * (held & ~bit & out).bit_count() - chosen))
                    count += 1
            weight /= total
            chance /= count
        if sensible >= 1.0:
            return weight
        return sensible * weight + (1.0 - sensible) * chance

    def _table(self, choice: Choice) -> ChoiceTable:
        """What `seat_likelihood` needs of one play, worked out once per decision."""
        left, right, tile, new_left, new_right, later = choice
        tiles = self._knowledge.tiles
        reading = self._knowledge.line
        line = line_of(tiles.max_pip, reading is not None and reading.wild_blanks)
        fitting = line.fitting(left, right)
        options: dict[int, list[tuple[int, int, int]]] = {}
        for index in _bits(fitting):
            a, b = tiles.ends[index]
            base = a + b + (3 if a == b else 0)
            # For each end it fits, the tiles that can follow the ends it leaves.
            outs = [line.fitting(*line.after(index, end, left, right))
                    for end in line.places(index, left, right)]
            options[index] = [(1 << index, base, out) for out in outs]
        a, b = tiles.ends[tile]
        chosen_base = a + b + (3 if a == b else 0)
        bit = 1 << tile
        return (later | bit, fitting, bit, chosen_base, line.fitting(new_left, new_right), options)

    def seat_histories(self, seat: int, hand: int) -> int:
        """In how many ways ``hand`` fills ``seat``'s slots: its prior weight (0: impossible).

        Every shuffle of the set is equally likely, so a hand is as likely as
        the stories that lead to it: a seat that drew after failing to follow
        a number more likely holds few of it, as most of its tiles are from
        before. The slots form a chain, so filling the most constrained slot
        first, each slot has as many choices as the tiles it allows less those
        already placed.
        """
        count = 1
        for placed, forbidden in enumerate(self._knowledge.slots[seat]):
            options = (hand & ~forbidden).bit_count() - placed
            if options <= 0:
                return 0
            count *= options
        return count

    def _alive(self, deal: Deal) -> bool:
        # While the round goes on with nothing to draw, some hand must fit an end
        # (the host would have called the tranque otherwise).
        if self._knowledge.drawable or not self._open:
            return True
        return any(hand & self._open for hand in deal.hands)

    def _try(self, rng: random.Random) -> Deal | None:
        k = self._knowledge
        remaining = k.pool
        hands = [0] * len(k.slots)
        hands[k.seat] = k.hand
        for seat, allowed in self._constrained:
            options = allowed & remaining
            if not options:
                return None
            count = options.bit_count()
            pick = int(rng.random() * count)
            while pick:
                options &= options - 1
                pick -= 1
            bit = options & -options
            hands[seat] |= bit
            remaining ^= bit
        rest = _bits(remaining)
        rng.shuffle(rest)
        pos = 0
        for seat, count in enumerate(self._free_counts):
            for tile in rest[pos : pos + count]:
                hands[seat] |= 1 << tile
            pos += count
        return Deal(hands, rest[pos:])

    def _matched(self, rng: random.Random) -> Deal:
        """A consistent deal by bipartite matching (Kuhn), in a random order."""
        k = self._knowledge
        slots = list(self._constrained)
        rng.shuffle(slots)
        owner: dict[int, int] = {}  # tile -> slot index

        def augment(slot: int, seen: set[int]) -> bool:
            choices = _bits(slots[slot][1])
            rng.shuffle(choices)
            for tile in choices:
                if tile in seen:
                    continue
                seen.add(tile)
                if tile not in owner or augment(owner[tile], seen):
                    owner[tile] = slot
                    return True
            return False

        for slot in range(len(slots)):
            augment(slot, set())
        hands = [0] * len(k.slots)
        hands[k.seat] = k.hand
        remaining = k.pool
        for tile, slot in owner.items():
            hands[slots[slot][0]] |= 1 << tile
            remaining &= ~(1 << tile)
        # Any slot left unmatched (only with inconsistent knowledge) takes any tile.
        short = [0] * len(k.slots)
        matched = set(owner.values())
        for i, (seat, _) in enumerate(slots):
            if i not in matched:
                short[seat] += 1
        rest = _bits(remaining)
        rng.shuffle(rest)
        pos = 0
        for seat, count in enumerate(self._free_counts):
            take = count + short[seat]
            for tile in rest[pos : pos + take]:
                hands[seat] |= 1 << tile
            pos += take
        return Deal(hands, rest[pos:])


class DealChain:
    """Deals drawn from the posterior that `DealSampler.likelihood` defines, by Metropolis steps.

    Independent deals weighted by likelihood waste most of their playouts
    when the reading is sharp; a Markov chain of swaps (two hidden tiles in
    different places trade places, kept with probability min(1, W'/W)) stays
    among the plausible deals. A deal's weight W is its likelihood times its
    prior, the number of stories that lead to it (`DealSampler.seat_histories`).
    Every state is a consistent deal.
    """

    __slots__ = ("_hands", "_hidden", "_like", "_sampler", "_seats", "_sensible", "_sharpness", "_where")

    def __init__(
        self, sampler: DealSampler, rng: random.Random, sharpness: float, burn_in: int, sensible: float = 1.0
    ) -> None:
        self._sampler = sampler
        self._sharpness = sharpness
        self._sensible = sensible
        k = sampler._knowledge
        start = sampler.sample(rng)
        self._hands = list(start.hands)
        self._seats = [s for s in range(len(k.slots)) if s != k.seat]
        self._like = [
            self._weight(s, self._hands[s]) if s != k.seat else 1.0 for s in range(len(self._hands))
        ]
        #: where[tile] is the seat holding it, or -1 for the boneyard.
        self._where: dict[int, int] = {t: -1 for t in start.stock}
        for s in self._seats:
            for t in _bits(self._hands[s]):
                self._where[t] = s
        self._hidden = [t for t in _bits(k.pool) if self._where[t] >= 0]
        self.step(rng, burn_in)

    def step(self, rng: random.Random, steps: int) -> None:
        """Make ``steps`` proposals."""
        hidden = self._hidden
        if not hidden:
            return
        where = self._where
        tiles = list(where)
        sampler = self._sampler
        hands = self._hands
        for _ in range(steps):
            x = hidden[int(rng.random() * len(hidden))]
            y = tiles[int(rng.random() * len(tiles))]
            sx, sy = where[x], where[y]
            if sx == sy:
                continue
            bx, by = 1 << x, 1 << y
            new_x = hands[sx] ^ bx ^ by
            like_x = self._weight(sx, new_x)
            if not like_x:
                continue
            ratio = like_x / self._like[sx] if self._like[sx] else 1.0
            if sy >= 0:
                new_y = hands[sy] ^ bx ^ by
                like_y = self._weight(sy, new_y)
                if not like_y:
                    continue
                ratio *= like_y / self._like[sy] if self._like[sy] else 1.0
            if ratio < 1.0 and rng.random() >= ratio:
                continue
            if sy < 0 and not sampler._alive(Deal([*hands[:sx], new_x, *hands[sx + 1 :]], [])):
                continue  # the tile that kept the round alive went to the boneyard
            hands[sx] = new_x
            self._like[sx] = like_x
            if sy >= 0:
                hands[sy] = new_y
                self._like[sy] = like_y
                # the hidden list holds tiles in hands: x and y both still are
            else:
                hidden[hidden.index(x)] = y
            where[x], where[y] = sy, sx

    def _weight(self, seat: int, hand: int) -> float:
        """The posterior weight of ``seat`` holding ``hand``: prior stories times the reading."""
        histories = self._sampler.seat_histories(seat, hand)
        if not histories:
            return 0.0
        return histories * self._sampler.seat_likelihood(seat, hand, self._sharpness, self._sensible)

    def deal(self, rng: random.Random) -> Deal:
        """The chain's current deal, with the boneyard in a fresh random order."""
        stock = [t for t, s in self._where.items() if s < 0]
        rng.shuffle(stock)
        return Deal(list(self._hands), stock)
