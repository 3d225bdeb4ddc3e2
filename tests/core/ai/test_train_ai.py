"""Mexican Train's computer players: the exact chain, the plan kept, doubles covered, voids read, hints."""

from __future__ import annotations

import random

import msgspec
import pytest
from capicu.core import Play, Rules, Run, Tile, Train, parse_action, tile_set
from capicu.core.actions import END_RUN
from capicu.core.ai.mexican_chain import ChainTable, chain_value, longest_chain
from capicu.core.ai.mexican_hard import MexicanBudget, MexicanHardPlayer, decide
from capicu.core.ai.mexican_hints import MexicanHint, MexicanHintReason, suggest_mexican
from capicu.core.ai.mexican_inference import read_mexican
from capicu.core.ai.mexican_players import MEXICAN_PLAYERS, make_mexican_player
from capicu.core.mexican.match import MexicanMatch
from capicu.core.mexican.refusals import why_not_mexican
from capicu.core.tiles import far_ends
from helpers_core import crafted_mexican
from hypothesis import given, settings
from hypothesis import strategies as st

MEXICAN_TRAIN = Rules.preset_named("mexican-train")
ONE_ROUND = msgspec.structs.replace(MEXICAN_TRAIN, rounds=1)
#: Double-nine, one tile to open with: positions written by hand stay short (9 tiles each at 2 players).
NINE_ONE_TILE = msgspec.structs.replace(MEXICAN_TRAIN, max_pip=9, opening_run=False)
#: The search without its wall-clock cap: the same seed and view give the same move.
STEADY = MexicanBudget(cap_seconds=None)
TWELVE = tile_set(12)


# -- the longest chain ---------------------------------------------------------------------


def brute_chain(hand: int, head: int, *, run: bool) -> tuple[int, int]:
    """(tiles, pips) of the best chain, by trying every order of every subset."""
    far = far_ends(TWELVE)
    tiles = [t for t in range(len(TWELVE)) if hand >> t & 1]
    best = (0, 0)

    def walk(open_number: int, used: int, length: int, pips: int, on_double: bool) -> None:
        nonlocal best
        if not (run and on_double and used != hand) and (length, pips) > best:
            best = (length, pips)
        for tile in tiles:
            if not used >> tile & 1 and far[tile][open_number] >= 0:
                a, b = TWELVE.ends[tile]
                walk(far[tile][open_number], used | 1 << tile, length + 1, pips + a + b, a == b)

    walk(head, 0, 0, 0, False)
    return best


#: Tiles of few numbers, so that small hands make many chains.
DENSE = [i for i, (a, b) in enumerate(TWELVE.ends) if b <= 5]


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(DENSE), min_size=1, max_size=8, unique=True),
       st.integers(0, 5), st.booleans())
def test_the_longest_chain_is_the_longest_there_is(tiles: list[int], head: int, run: bool) -> None:
    hand = sum(1 << t for t in tiles)
    chain = longest_chain(TWELVE, hand, head, run=run)
    assert (len(chain), sum(TWELVE.pips[t] for t in chain)) == brute_chain(hand, head, run=run)
    assert chain_value(TWELVE, hand, head, run=run) == brute_chain(hand, head, run=run)
    # The chain is laid as it is written: each tile shows the number the one before leaves.
    far = far_ends(TWELVE)
    number = head
    for tile in chain:
        assert far[tile][number] >= 0
        number = far[tile][number]
    if run and chain and len(chain) < len(tiles):
        a, b = TWELVE.ends[chain[-1]]
        assert a != b  # a run ends on a double only by going out


def test_a_dealt_hand_of_fifteen_is_searched_exactly_and_a_swollen_one_still_answers() -> None:
    rng = random.Random(5)
    order = list(range(len(TWELVE)))
    for size in (15, 30):
        rng.shuffle(order)
        hand = sum(1 << t for t in order[:size])
        table = ChainTable(TWELVE, hand)
        for head in range(13):
            plan = table.plan(hand, head)
            assert len(plan) == table.length(hand, head) and len(set(plan)) == len(plan)
            assert all(hand >> t & 1 for t in plan)


# -- the hard player -----------------------------------------------------------------------


def after_first_turns(hands: list[str]) -> MexicanMatch:
    """A double-nine match for two in which seat 0 opened with 9-3 and seat 1 with 9-5."""
    match = crafted_mexican(NINE_ONE_TILE, hands)
    match.apply(parse_action("play 9-3 train 0"))
    match.apply(parse_action("play 5-9 train 1"))
    assert match.turn == 0
    return match


def test_hard_keeps_its_chain_and_unloads_what_is_off_it() -> None:
    # Its train shows 3: the plan is 3-6 6-9 9-1 1-4; 0-9 is off it. The Mexican train shows 9,
    # where the heaviest tiles (6-9, 1-9) would go, and break the plan.
    match = after_first_turns([
        "9-3 3-6 6-9 1-9 1-4 0-9 2-5 7-8 5-7",
        "9-5 2-2 2-3 2-4 3-3 4-4 0-1 1-1 6-6",
    ])
    view = match.view(0)
    assert {str(a) for a in view.legal} >= {"play 6-9 mexican", "play 1-9 mexican", "play 0-9 mexican"}
    for seed in range(4):
        action = MexicanHardPlayer(seed, STEADY).choose(view)
        assert str(action) in {"play 0-9 mexican", "play 3-6 train 0"}
    assert make_mexican_player("normal").choose(view) == parse_action("play 6-9 mexican")


def test_hard_lays_a_double_it_can_cover_and_covers_it() -> None:
    match = after_first_turns([
        "9-3 3-3 3-8 0-1 0-2 1-2 4-5 5-6 4-6",
        "9-5 2-2 2-3 2-4 4-4 1-1 6-6 7-7 0-0",
    ])
    hard = MexicanHardPlayer(0, STEADY)
    assert hard.choose(match.view(0)) == parse_action("play 3-3 train 0")
    match.apply(parse_action("play 3-3 train 0"))
    view = match.view(0)
    assert view.open_double == Train(0) and view.turn == 0
    assert hard.choose(view) == parse_action("play 3-8 train 0")


def play_round(rules: Rules, levels: list[str], seed: int, *, hints: bool = False) -> MexicanMatch:
    """One round, every move checked against the rules (and hard's hints with ``hints``)."""
    match = MexicanMatch(rules, len(levels), seed=seed)
    players = [make_mexican_player(level, seed * 10 + seat) for seat, level in enumerate(levels)]
    while not match.results:
        seat = match.turn
        assert seat is not None
        view = match.view(seat)
        action = players[seat].choose(view)
        assert why_not_mexican(view, action) is None, (action, view.legal)
        if hints and levels[seat] == "hard":
            hint = suggest_mexican(view, seed=seed)
            assert why_not_mexican(view, hint.action) is None
        match.apply(action, seat)
    return match


OPTIONS = [
    {},
    {"opening_run": False},
    {"cover_doubles": False},
    {"mexican_needs_own_train": True},
    {"max_pip": 9},
    {"max_pip": 15},
]


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: ",".join(o) or "preset")
def test_every_level_plays_only_legal_moves(options: dict[str, object]) -> None:
    rules = msgspec.structs.replace(ONE_ROUND, **options)  # type: ignore[arg-type]
    for players, seed in ((2, 1), (4, 2), (8, 3)):
        levels = (["hard", "normal", "easy"] * 3)[:players]
        match = play_round(rules, levels, seed + 10 * len(options), hints=players == 2)
        assert match.results[0].counts


def test_the_levels_are_registered_for_the_host() -> None:
    assert list(MEXICAN_PLAYERS) == ["easy", "normal", "hard"]
    assert make_mexican_player("hard", 3).name == "hard"
    with pytest.raises(ValueError, match="hard"):
        make_mexican_player("expert")


def position_with_choice(seed: int) -> MexicanMatch:
    """A three-player round played by normal players until seat 0 has a real choice mid-round."""
    match = MexicanMatch(ONE_ROUND, 3, seed=seed)
    players = [make_mexican_player("normal", seat) for seat in range(3)]
    while True:
        seat = match.turn
        if seat is None:  # the round ended first: another deal
            return position_with_choice(seed + 1000)
        view = match.view(seat)
        plays = [a for a in view.legal if isinstance(a, Play)]
        if seat == 0 and len({a.tile for a in plays}) > 2 and not view.first_turn and len(view.events) > 12:
            return match
        match.apply(players[seat].choose(view), seat)


def test_hard_decides_from_the_view_alone() -> None:
    """Other hidden tiles that tell the same story: the same view, the same choice."""
    swapped = 0
    for seed in range(6):
        match = position_with_choice(seed)
        view = match.view(0)
        choice = MexicanHardPlayer(7, STEADY).choose(view)
        log = match.log()
        deal = log["entries"][0]["deal"]
        size = ONE_ROUND.hand_size(3)
        state = match.state
        # Tiles still hidden where they were put: in seat 1's or 2's dealt hand, or still in the boneyard.
        hidden = [i for i in range(size, 3 * size) if state.hands[i // size] >> deal[i] & 1]
        # (The deal holds the engine too: it is laid from a hand or the boneyard, never drawn.)
        remaining = set(state.stock[state.stock_pos :])
        undrawn = [i for i in range(3 * size, len(deal)) if deal[i] in remaining]
        rng = random.Random(seed)
        for _ in range(40):
            a, b = rng.choice(hidden), rng.choice(undrawn + hidden)
            if b < 3 * size and a // size == b // size:
                continue
            order = list(deal)
            order[a], order[b] = order[b], order[a]
            entries = [{"deal": order, "seat": log["entries"][0]["seat"]}, *log["entries"][1:]]
            try:
                other = MexicanMatch.from_log({**log, "entries": entries})
            except ValueError:
                continue  # the swap makes a pass or a draw dishonest: not the same story
            assert other.state.hands != state.hands or other.state.stock != state.stock
            assert other.view(0) == view
            assert MexicanHardPlayer(7, STEADY).choose(other.view(0)) == choice
            swapped += 1
            break
    assert swapped >= 4


def test_the_reading_never_rules_out_a_tile_a_player_holds() -> None:
    """Voids read from draws, passes and markers hold for the real hands; and some are read."""
    read_any = 0
    for seed in range(8):
        match = MexicanMatch(ONE_ROUND, 2 + seed % 3, seed=seed)
        players = [make_mexican_player("normal", s) for s in range(match.players)]
        while not match.results:
            seat = match.turn
            assert seat is not None
            view = match.view(seat)
            if view.legal and view.turn is not None:
                reading = read_mexican(view)
                tiles = reading.knowledge.tiles
                for other in range(match.players):
                    held = match.state.hands[other]
                    for number in reading.lacks(other):
                        assert not held & tiles.suit_mask[number], (seed, other, number)
                        read_any += 1
                    if other != seat:
                        for forbidden in reading.knowledge.slots[other]:
                            assert held & ~forbidden  # every slot can hold one of its tiles
            match.apply(players[seat].choose(view), seat)
    assert read_any > 0


def test_hard_answers_the_same_with_the_same_seed() -> None:
    match = position_with_choice(3)
    view = match.view(0)
    first = decide(view, 5, STEADY)
    assert decide(view, 5, STEADY) == first
    assert first.action in view.legal and first.merits


# -- hints ---------------------------------------------------------------------------------


def test_the_hint_suggests_the_longest_opening_run() -> None:
    nine = msgspec.structs.replace(ONE_ROUND, max_pip=9)
    tested = 0
    for seed in range(30):
        match = MexicanMatch(nine, 2, seed=seed)
        seat = match.turn
        assert seat is not None
        view = match.view(seat)
        if not view.may_run or len([a for a in view.legal if isinstance(a, Play)]) == 0:
            continue
        hint = suggest_mexican(view, seed=1)
        tiles = tile_set(9)
        hand = tiles.mask_of(view.hand)
        expected = chain_value(tiles, hand, view.trains[seat].head, run=True)[0]
        assert len(hint.run) == expected
        assert hint.reasons == (MexicanHintReason.OPENING_RUN(length=expected),)
        assert hint.tile == hint.run[0] and hint.place == Train(seat)
        if expected > 1:
            assert hint.action == Run(hint.run)
        assert why_not_mexican(view, hint.action) is None
        tested += 1
    assert tested >= 20


def test_the_longest_opening_run_against_brute_force_on_a_dealt_double_twelve_hand() -> None:
    # A hand made of few numbers, so that the run has choices (and a double in it).
    hand = "12-1 1-1 1-2 2-3 3-1 1-4 4-2 2-5 5-3 3-6 6-0 0-7 7-8 8-9 9-10"
    other = "12-11 11-11 10-10 9-9 8-8 7-7 6-6 5-5 4-4 0-0 0-1 0-2 0-3 0-4 0-5"
    match = crafted_mexican(ONE_ROUND, [hand, other])
    view = match.view(0)
    hint = suggest_mexican(view)
    assert len(hint.run) == 15  # every tile, 9-10 last
    assert hint.run[0] == Tile(1, 12) and hint.action == Run(hint.run)
    match.apply(hint.action)
    assert match.results  # it went out on its first turn


def test_a_hint_names_a_tile_and_a_train_and_says_why() -> None:
    match = after_first_turns([
        "9-3 3-3 3-8 0-1 0-2 1-2 4-5 5-6 4-6",
        "9-5 2-2 2-3 2-4 4-4 1-1 6-6 7-7 0-0",
    ])
    hint = suggest_mexican(match.view(0), budget=STEADY)
    assert isinstance(hint, MexicanHint)
    assert (hint.tile, hint.place) == (Tile(3, 3), Train(0)) and hint.run == ()
    assert MexicanHintReason.DOUBLE(tile="3-3") in hint.reasons
    match.apply(hint.action)
    assert suggest_mexican(match.view(0)).reasons[0] == MexicanHintReason.COVERS_DOUBLE(train="train 0")
    for reason in MexicanHintReason:
        assert reason.params is not None
    with pytest.raises(ValueError):
        suggest_mexican(match.view(1))


def test_ending_the_run_is_suggested_when_the_run_can_go_no_further() -> None:
    match = crafted_mexican(ONE_ROUND, [
        "12-1 1-2 3-4 5-6 7-8 9-10 0-3 0-5 0-7 0-9 3-3 4-4 6-6 8-8 10-10",
        "12-11 11-11 9-9 7-7 5-5 2-2 1-1 0-0 0-1 0-2 0-4 0-6 0-8 0-10 1-3",
    ])
    assert suggest_mexican(match.view(0)).action == parse_action("run 12-1 1-2")
    match.apply(parse_action("play 1-12 train 0"))
    hint = suggest_mexican(match.view(0))
    assert hint.action == parse_action("play 1-2 train 0") and hint.run == (Tile(1, 2),)
    match.apply(hint.action)
    view = match.view(0)
    assert view.running and view.legal == (END_RUN,)
    hint = suggest_mexican(view)
    assert hint.action == END_RUN and hint.reasons == (MexicanHintReason.END_RUN(),)


def test_a_view_whose_events_do_not_add_up_still_gets_a_legal_move() -> None:
    match = position_with_choice(2)
    view = msgspec.structs.replace(match.view(0), events=match.view(0).events[:1])
    with pytest.raises(ValueError):
        read_mexican(view)
    assert MexicanHardPlayer(0, STEADY).choose(view) in view.legal


def test_a_number_the_next_player_lacks_left_open_counts_for_the_move() -> None:
    from capicu.core.ai.mexican_hard import BLOCKS, _Seat, merit_of

    match = after_first_turns([
        "9-3 3-6 6-9 1-9 1-4 0-9 2-5 7-8 5-7",
        "9-5 2-2 2-3 2-4 3-3 4-4 0-1 1-1 6-6",
    ])
    view = match.view(0)
    seat = _Seat(view, read_mexican(view))
    unload = parse_action("play 0-9 mexican")
    assert isinstance(unload, Play)
    before = merit_of(seat, unload, cover_doubles=True)
    assert before.blocks == -1 and before.unloads and before.chain_loss == 0
    seat.lacks[1] = frozenset({0})  # as if seat 1 had drawn and passed on a 0
    after = merit_of(seat, unload, cover_doubles=True)
    assert (after.blocks, after.blocked_number) == (1, 0)
    assert after.total == before.total + BLOCKS
