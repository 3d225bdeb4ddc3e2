"""Computer players, inference and hints: legal moves, honest deals, repeatable choices."""

from __future__ import annotations

import pickle
import random
from concurrent.futures import ThreadPoolExecutor

import msgspec
import pytest
from capicu.core import (
    PRESET_NAMES,
    Match,
    Passed,
    Play,
    RoundStarted,
    Rules,
    Tile,
    TilePlayed,
    TilesDrawn,
    View,
    make_player,
    tile_set,
)
from capicu.core.ai import LEVELS
from capicu.core.ai.hints import Hint, HintReason, suggest
from capicu.core.ai.inference import DealChain, DealSampler, Knowledge, LineReading, infer
from capicu.core.ai.playout import play_out
from capicu.core.ai.search import Budget, HardPlayer, search
from capicu.core.draw.state import RoundState
from capicu.net.protocol import Snapshot, message_from_host, to_wire
from helpers_core import crafted_match
from hypothesis import given, settings
from hypothesis import strategies as st

#: Small budgets keep the suite quick; no test depends on timing.
TINY = Budget(iterations=24, cap_seconds=None)
SMALL = Budget(iterations=120, cap_seconds=None)

TABLES = [
    (preset, players)
    for preset in PRESET_NAMES
    for players in range(Rules.preset_named(preset).min_players, Rules.preset_named(preset).max_players + 1)
]
BIG_SETS = [("puerto-rican-drawing", 9, 3), ("draw", 12, 4), ("drawing-game", 9, 4)]


def _player(level: str, seed: int) -> object:
    if level == "hard":
        return HardPlayer(seed, TINY)
    return make_player(level, seed)


def _play_rounds(match: Match, players: list[object], rounds: int, check: object = None) -> int:
    """Play until ``rounds`` rounds are over (or the match); asserts every move is legal."""
    moves = 0
    while not match.is_over and len(match.results) < rounds:
        seat = match.turn
        assert seat is not None
        view = match.view(seat)
        if check is not None:
            check(match, view)  # type: ignore[operator]
        action = players[seat].choose(view)  # type: ignore[attr-defined]
        assert action in view.legal, (str(action), [str(a) for a in view.legal])
        match.apply(action, seat)
        moves += 1
    return moves


# -- every level plays only legal moves, in every preset -------------------------


@pytest.mark.parametrize("preset,players", TABLES)
def test_easy_and_normal_play_legal_moves_in_whole_matches(preset: str, players: int) -> None:
    rules = Rules.preset_named(preset)
    for seed in range(30):  # with every table, some 2,500 rounds in all
        levels = ["easy", "normal"] * 2
        bots = [_player(levels[(seat + seed) % 4], seed * 7 + seat) for seat in range(players)]
        match = Match(rules, players, seed)
        _play_rounds(match, bots, rounds=10_000)
        assert match.is_over


@pytest.mark.parametrize("preset,players", TABLES)
def test_hard_plays_legal_moves(preset: str, players: int) -> None:
    rules = Rules.preset_named(preset)
    for seed in range(4):
        levels = ["hard" if seat == seed % players else "normal" for seat in range(players)]
        bots = [_player(level, seed + seat) for seat, level in enumerate(levels)]
        _play_rounds(Match(rules, players, seed), bots, rounds=2)


@pytest.mark.parametrize("preset,max_pip,players", BIG_SETS)
def test_levels_play_bigger_sets_and_house_rules(preset: str, max_pip: int, players: int) -> None:
    rules = msgspec.structs.replace(Rules.preset_named(preset), max_pip=max_pip)
    for seed in range(3):
        bots = [_player(LEVELS[(seat + seed) % 3], seed + seat) for seat in range(players)]
        _play_rounds(Match(rules, players, seed), bots, rounds=1)
    capped = msgspec.structs.replace(Rules.preset_named("draw"), max_draws_per_turn=2)
    bots = [_player(level, 5) for level in LEVELS]
    _play_rounds(Match(capped, 3, 11), bots, rounds=2)


@settings(max_examples=60)
@given(seed=st.integers(0, 10**6), table=st.sampled_from(TABLES))
def test_random_tables_of_levels_stay_legal(seed: int, table: tuple[str, int]) -> None:
    preset, players = table
    rng = random.Random(seed)
    bots = [_player(rng.choice(["easy", "normal", "normal", "hard"]), seed + s) for s in range(players)]
    _play_rounds(Match(Rules.preset_named(preset), players, seed), bots, rounds=1)


# -- inference never excludes the truth; sampled deals never contradict the view --


def _no_match_violations(view: View, hand: int, seat: int) -> bool:
    """An independent check of a sampled hand for ``seat`` against ``view``'s events.

    For each time the seat drew (when drawing is forced) or passed on ends (a, b),
    the tiles of its hand now that show a or b must be no more than the tiles it
    drew after that moment (they can only have come in later). Likewise doubles
    above a forced first lead can only have been drawn.
    """
    tiles = tile_set(view.rules.max_pip)
    suit = tiles.suit_mask
    events = list(view.events)
    draws_after = [0] * (len(events) + 1)
    for i in range(len(events) - 1, -1, -1):
        e = events[i]
        draws_after[i] = draws_after[i + 1] + (e.count if isinstance(e, TilesDrawn) and e.seat == seat else 0)
    for i, e in enumerate(events):
        told = isinstance(e, Passed) or (isinstance(e, TilesDrawn) and not view.rules.voluntary_draw)
        if told and e.seat == seat and e.left >= 0:  # type: ignore[union-attr]
            showing = hand & (suit[e.left] | suit[e.right])  # type: ignore[union-attr]
            if showing.bit_count() > draws_after[i + 1]:
                return True
        if isinstance(e, RoundStarted) and e.forced_lead is not None:
            higher = 0
            for n in range(e.forced_lead.high + 1, tiles.max_pip + 1):
                higher |= 1 << tiles.double_of[n]
            if (hand & higher).bit_count() > draws_after[i + 1]:
                return True
    return False


def _allows_the_truth(knowledge: Knowledge, sampler: DealSampler, truth: list[int]) -> bool:
    """Whether the real hands fit what the seat knows: its own hand, and every other
    hand drawn from the unseen tiles and able to fill its seat's slots."""
    return truth[knowledge.seat] == knowledge.hand and all(
        not hand & ~knowledge.pool
        and hand.bit_count() == len(knowledge.slots[seat])
        and sampler.seat_histories(seat, hand) > 0
        for seat, hand in enumerate(truth)
        if seat != knowledge.seat
    )


def _check_knowledge(match: Match, view: View, samples: int = 6) -> None:
    knowledge = infer(view)
    truth = match.state.hands
    sampler = DealSampler(knowledge)
    assert _allows_the_truth(knowledge, sampler, truth), "inference ruled out the real deal"
    tiles = tile_set(view.rules.max_pip)
    laid = 0
    for e in view.events:
        if isinstance(e, TilePlayed):
            laid |= 1 << tiles.index[e.tile]
    rng = random.Random(len(view.events))
    seat = view.seat
    assert seat is not None
    chain = DealChain(sampler, rng, sharpness=1.0, burn_in=5)
    deals = [sampler.sample(rng) for _ in range(samples)]
    for _ in range(samples):
        chain.step(rng, 3)
        deals.append(chain.deal(rng))
    for deal in deals:
        assert deal.hands[seat] == truth[seat]
        assert [h.bit_count() for h in deal.hands] == list(view.hand_counts)
        assert len(deal.stock) == view.boneyard
        everything = laid
        for hand in deal.hands:
            assert not everything & hand
            everything |= hand
        for tile in deal.stock:
            assert not everything >> tile & 1
            everything |= 1 << tile
        assert everything == tiles.full_mask
        for other in range(view.players):
            if other != seat:
                assert not _no_match_violations(view, deal.hands[other], other)


@pytest.mark.parametrize("preset,players", TABLES)
def test_sampled_deals_respect_everything_seen(preset: str, players: int) -> None:
    rules = Rules.preset_named(preset)
    for seed in range(10):
        levels = ["normal" if (seat + seed) % 2 else "easy" for seat in range(players)]
        bots = [make_player(level, seed + seat) for seat, level in enumerate(levels)]
        _play_rounds(Match(rules, players, seed), bots, rounds=2, check=_check_knowledge)


def test_a_pass_rules_out_both_ends_until_the_player_draws_again() -> None:
    rules = Rules.preset_named("puerto-rican-partners")
    # 6-6 leads; seat 1 holds no 6 and must pass.
    hands = [
        "6-6 0-0 0-1 0-2 0-3 0-4 0-5",
        "1-1 1-2 1-3 1-4 1-5 2-2 2-3",
        "0-6 1-6 2-6 3-6 4-6 5-5 2-4",
        "2-5 3-3 3-4 3-5 4-4 4-5 5-6",
    ]
    match = crafted_match(rules, hands)
    match.apply(match.legal_actions()[0])  # 6-6
    assert [str(a) for a in match.legal_actions()] == ["pass"]
    match.apply(match.legal_actions()[0])
    view = match.view(2)
    knowledge = infer(view)
    assert 6 in knowledge.lacks(1)
    sampler = DealSampler(knowledge)
    six = tile_set(6).suit_mask[6]
    rng = random.Random(1)
    for _ in range(200):
        assert not sampler.sample(rng).hands[1] & six


def test_a_draw_frees_only_the_tiles_drawn_later() -> None:
    rules = Rules.preset_named("puerto-rican-drawing")
    # Seat 1 has no 6: it draws 1-2 (no 6), then 5-6, which it must play.
    match = crafted_match(rules, ["6-6 0-0 0-1 0-2 0-3 0-4 0-5", "1-1 1-3 1-4 1-5 2-2 2-3 2-4"], "1-2 5-6")
    match.apply(match.legal_actions()[0])
    assert [str(a) for a in match.legal_actions()] == ["draw"]
    match.apply(match.legal_actions()[0])
    match.apply(match.legal_actions()[0])
    match.apply(next(a for a in match.legal_actions() if str(a).startswith("play 5-6")))
    view = match.view(0)
    knowledge = infer(view)
    sampler = DealSampler(knowledge)
    assert _allows_the_truth(knowledge, sampler, match.state.hands)
    tiles = tile_set(6)
    rng = random.Random(2)
    for _ in range(200):
        hand = sampler.sample(rng).hands[1]
        assert not hand & tiles.suit_mask[6]  # nothing held then, nor drawn since, shows a 6


def test_the_chain_weighs_a_hand_by_the_stories_that_lead_to_it() -> None:
    # Seat 1 kept two tiles without a 6 (it could not follow a 6), then drew one
    # tile from six: three with a 6, three without. So it holds a 6 half the
    # time, not three times in four as counting each possible hand once would say.
    tiles = tile_set(6)
    six = tiles.suit_mask[6]
    with_six = [tiles.index[Tile(n, 6)] for n in (0, 1, 2)]
    without = [tiles.index[Tile(a, b)] for a, b in ((0, 1), (0, 2), (1, 2), (1, 3), (2, 3))]
    pool = sum(1 << t for t in with_six + without)
    knowledge = Knowledge(
        seat=0,
        tiles=tiles,
        hand=tiles.full_mask & ~pool,
        pool=pool,
        slots=((), (six, six, 0)),
        boneyard=5,
        drawable=3,
        line=LineReading(choices=((), ())),
    )
    sampler = DealSampler(knowledge)
    assert sampler.seat_histories(1, 1 << without[0] | 1 << without[1] | 1 << without[2]) == 6
    assert sampler.seat_histories(1, 1 << without[0] | 1 << without[1] | 1 << with_six[0]) == 2
    assert sampler.seat_histories(1, 1 << without[0] | 1 << with_six[0] | 1 << with_six[1]) == 0
    rng = random.Random(5)
    chain = DealChain(sampler, rng, sharpness=1.0, burn_in=50)
    samples = 4000
    holds = 0
    for _ in range(samples):
        chain.step(rng, 3)
        holds += bool(chain.deal(rng).hands[1] & six)
    assert abs(holds / samples - 0.5) < 0.05


def test_a_seat_may_be_read_as_a_player_whose_choices_look_like_chance() -> None:
    # Seat 1 laid 3-4 on the right of 5 ... 3. Holding 5-6 as well, the sensible
    # player of the model would have laid that (heavier); holding 0-5, it chose
    # right. Read as sure of that model (sensible=1) the first hand is nearly ruled
    # out; read as a player who may choose by a plan the model cannot see
    # (sensible=0), both hands are as likely: one chance in two (two plays fitted).
    tiles = tile_set(6)
    heavy, light, laid = (tiles.index[Tile.parse(t)] for t in ("5-6", "0-5", "3-4"))
    double = tiles.index[Tile.parse("1-1")]
    pool = 1 << heavy | 1 << light | 1 << double | 1 << tiles.index[Tile.parse("2-2")]
    knowledge = Knowledge(
        seat=0, tiles=tiles, hand=tiles.full_mask & ~pool & ~(1 << laid), pool=pool,
        slots=((), (0, 0)), boneyard=2, drawable=0,
        line=LineReading(left=5, right=4, choices=((), ((5, 3, laid, 5, 4, 0),))),
    )
    sampler = DealSampler(knowledge)
    foolish = 1 << heavy | 1 << double
    wise = 1 << light | 1 << double
    assert sampler.seat_likelihood(1, foolish, 3.0) == sampler.seat_likelihood(1, foolish, 3.0, 1.0)
    assert sampler.seat_likelihood(1, foolish, 3.0) < 0.001 < 0.9 < sampler.seat_likelihood(1, wise, 3.0)
    assert sampler.seat_likelihood(1, foolish, 3.0, 0.0) == sampler.seat_likelihood(1, wise, 3.0, 0.0) == 0.5
    for hand in (foolish, wise):
        mixed = sampler.seat_likelihood(1, hand, 3.0, 0.25)
        assert mixed == pytest.approx(0.25 * sampler.seat_likelihood(1, hand, 3.0) + 0.75 * 0.5)
    deal = sampler.sample(random.Random(1))
    assert sampler.likelihood(deal, 3.0, 0.25) == sampler.seat_likelihood(1, deal.hands[1], 3.0, 0.25)
    # The search and its chain take the same setting.
    chain = DealChain(sampler, random.Random(2), 3.0, 20, sensible=0.0)
    rng = random.Random(3)
    held = 0
    for _ in range(400):
        chain.step(rng, 2)
        held += bool(chain.deal(rng).hands[1] & 1 << heavy)
    assert 100 < held < 300  # about half the time: the play tells nothing of 5-6 then


def test_a_forced_lead_below_the_top_double_tells_who_holds_no_higher_double() -> None:
    rules = Rules.preset_named("puerto-rican-drawing")
    match = crafted_match(rules, ["5-5 0-1 0-2 0-3 0-4 1-2 1-3", "0-5 1-4 1-5 2-3 2-4 2-5 3-4"], "6-6")
    assert match.view(0).forced_lead is not None
    match.apply(match.legal_actions()[0])
    knowledge = infer(match.view(0))
    rng = random.Random(3)
    sampler = DealSampler(knowledge)
    top = 1 << tile_set(6).double_of[6]
    assert all(not sampler.sample(rng).hands[1] & top for _ in range(100))


# -- repeatable, bounded, thread-safe --------------------------------------------


def over_the_wire(view: View) -> View:
    """``view`` as a client reads it from a host's snapshot."""
    snapshot = message_from_host(to_wire(Snapshot(0, view)))
    assert isinstance(snapshot, Snapshot)
    return snapshot.view


def _positions(preset: str, players: int, seed: int, count: int) -> list[View]:
    """Views of seats with a real choice, from a match between normal players."""
    match = Match(Rules.preset_named(preset), players, seed)
    bots = [make_player("normal", seed + s) for s in range(players)]
    views: list[View] = []
    while not match.is_over and len(views) < count:
        seat = match.turn
        assert seat is not None
        view = match.view(seat)
        if len(view.legal) > 1:
            views.append(view)
        match.apply(bots[seat].choose(view))  # type: ignore[attr-defined]
    return views


@pytest.mark.parametrize(
    "preset,players", [("puerto-rican-drawing", 3), ("drawing-game", 4), ("quinientos", 4)]
)
def test_same_seed_and_budget_give_the_same_move(preset: str, players: int) -> None:
    for view in _positions(preset, players, seed=4, count=8):
        first = HardPlayer(9, SMALL).choose(view)
        again = HardPlayer(9, SMALL).choose(view)
        assert first == again
        values = search(view, seed=9, budget=SMALL).values
        assert values == search(view, seed=9, budget=SMALL).values
        # A view that came over the wire decides the same.
        assert HardPlayer(9, SMALL).choose(over_the_wire(view)) == first


def test_the_wall_clock_cap_stops_the_search_and_still_answers() -> None:
    ticks = iter(range(10**6))

    def slow_clock() -> float:
        return float(next(ticks))  # every reading is a second later

    view = _positions("puerto-rican-drawing", 2, seed=2, count=1)[0]
    result = search(view, seed=1, budget=Budget(iterations=10_000, cap_seconds=0.5), clock=slow_clock)
    assert result.capped
    assert result.best.action in view.legal
    assert result.best.samples == 1


def test_the_search_takes_its_deals_from_the_source_it_is_given() -> None:
    # The arena's bound on reading (`--sees-all-hands`) hands the search the
    # real deal this way; the default source is the seat's own sampler.
    view = _positions("puerto-rican-drawing", 3, seed=5, count=3)[-1]
    asked: list[Knowledge] = []

    def source(knowledge: Knowledge) -> DealSampler:
        asked.append(knowledge)
        return DealSampler(knowledge)

    assert search(view, seed=3, budget=SMALL, deals=source) == search(view, seed=3, budget=SMALL)
    assert [k.seat for k in asked] == [view.seat]
    assert HardPlayer(3, SMALL, deals=source).choose(view) == HardPlayer(3, SMALL).choose(view)
    assert len(asked) == 2


def test_an_evaluation_ends_the_playouts_where_the_budget_says() -> None:
    # The hook a learned evaluation plugs into: asked after `evaluate_after` play-out
    # moves on every play-out that is still going, with the searching seat; its points
    # (positive: the seat's side wins them) then decide, the play-outs being cut short.
    view = _positions("puerto-rican-drawing", 3, seed=5, count=3)[-1]
    assert view.seat is not None
    seen: list[tuple[int, int]] = []

    def hand_size(st: RoundState, seat: int) -> float:
        seen.append((seat, sum(h.bit_count() for h in st.hands)))
        return -float(st.hands[seat].bit_count())  # fewer tiles kept: better

    at_once = Budget(iterations=60, cap_seconds=None, evaluate=hand_size)
    result = search(view, seed=3, budget=at_once)
    assert seen and {seat for seat, _ in seen} == {view.seat}
    assert {tiles for _, tiles in seen} <= {sum(view.hand_counts) - 1, sum(view.hand_counts) + 1}
    # Straight after each action: the seat has laid one tile or drawn one.
    in_hand = len(view.hand)
    assert {v.mean for v in result.values} <= {-(in_hand - 1) - 15.0, -(in_hand + 1) - 15.0}
    assert search(view, seed=3, budget=at_once) == result
    seen.clear()
    later = search(view, seed=3, budget=Budget(iterations=60, cap_seconds=None, evaluate=hand_size,
                                               evaluate_after=3))
    assert {tiles for _, tiles in seen} - {sum(view.hand_counts) - 1, sum(view.hand_counts) + 1}
    assert later != result
    # A play-out of a given length simply stops there.
    st = _endgame([["2-3"], ["6-6", "1-6"]])
    play_out(st, random.Random(1), 1.0, 0, moves=1)
    assert st.outcome is None and st.hands[1].bit_count() == 1


def _endgame(tiles_text: list[list[str]]) -> RoundState:
    """Two hands, nothing to draw, 6|6 open and seat 1 to play."""
    tiles = tile_set(6)
    hands = [sum(1 << tiles.index[t] for t in (Tile.parse(x) for x in hand)) for hand in tiles_text]
    st = RoundState(tiles, hands, [], turn=1, reserve=0)
    st.left = st.right = 6
    return st


def test_playouts_can_model_the_other_seats_apart_from_the_searching_one() -> None:
    # Seat 1 holds 6-6 and 6-1 and seat 0 can never play: whichever tile seat 1
    # lays second ends the round. A seat that always lays its heaviest tile
    # lays 6-6 first; one that plays at random sometimes lays 6-1 first.
    tiles = tile_set(6)
    last_modelled = set()
    last_loose = set()
    for seed in range(40):
        modelled = _endgame([["2-3"], ["6-6", "1-6"]])
        play_out(modelled, random.Random(seed), 0.0, 0, searcher=0, others=(1.0, 0))
        last_modelled.add(tiles.tiles[modelled.last_tile])
        loose = _endgame([["2-3"], ["6-6", "1-6"]])
        play_out(loose, random.Random(seed), 0.0, 0)
        last_loose.add(tiles.tiles[loose.last_tile])
    assert last_modelled == {Tile.parse("1-6")}
    assert last_loose == {Tile.parse("1-6"), Tile.parse("6-6")}


def test_players_are_safe_to_share_across_threads() -> None:
    views = _positions("puerto-rican-drawing", 3, seed=6, count=12)
    player = HardPlayer(3, TINY)
    alone = [player.choose(v) for v in views]
    with ThreadPoolExecutor(max_workers=4) as pool:
        together = list(pool.map(player.choose, views))
    assert alone == together


def test_players_and_views_travel_to_a_process_pool() -> None:
    view = _positions("puerto-rican-drawing", 2, seed=8, count=1)[0]
    for level in LEVELS:
        player = _player(level, 4)
        clone = pickle.loads(pickle.dumps(player))
        assert clone.choose(pickle.loads(pickle.dumps(view))) == player.choose(view)  # type: ignore[attr-defined]


def test_make_player_knows_every_level() -> None:
    for level in LEVELS:
        assert make_player(level, 1).name == level
    with pytest.raises(ValueError, match="no computer player"):
        make_player("grandmaster")


# -- hints ---------------------------------------------------------------------


@pytest.mark.parametrize("preset,players", TABLES)
def test_hints_are_legal_with_a_reason(preset: str, players: int) -> None:
    match = Match(Rules.preset_named(preset), players, 21)
    bots = [make_player("normal", s) for s in range(players)]
    hints = 0
    while not match.is_over and len(match.results) < 1:
        seat = match.turn
        assert seat is not None
        view = match.view(seat)
        hint = suggest(view, seed=1, budget=TINY)
        assert isinstance(hint, Hint)
        assert hint.action in view.legal
        assert 1 <= len(hint.reasons) <= 2
        assert all(isinstance(reason.code, HintReason) for reason in hint.reasons)
        assert hint.action == HardPlayer(1, TINY).choose(view)
        hints += 1
        match.apply(bots[seat].choose(view))  # type: ignore[attr-defined]
    assert hints


def test_a_hint_says_why_in_codes() -> None:
    # After 6-6 is led, 1-6 is seat 1's only tile with a 6; then seat 0 holds
    # neither end's number and must draw.
    rules = Rules.preset_named("puerto-rican-drawing")
    match = crafted_match(rules, ["6-6 0-0 0-2 0-3 0-4 0-5 2-2", "1-6 1-1 1-2 1-3 3-3 3-4 4-4"])
    match.apply(match.legal_actions()[0])
    hint = suggest(match.view(1), seed=1, budget=TINY)
    assert isinstance(hint.action, Play) and hint.action.tile == Tile(1, 6)
    assert hint.reasons == (HintReason.ONLY_TILE(tile="1-6"),)
    match.apply(hint.action)
    view = match.view(0)
    assert view.ends is not None
    left, right = view.ends
    assert suggest(view, seed=1, budget=TINY).reasons == (HintReason.MUST_DRAW(left=left, right=right),)


def test_a_hint_needs_the_seats_turn() -> None:
    match = Match(Rules(), 2, 1)
    idle = 1 - (match.turn or 0)
    with pytest.raises(ValueError):
        suggest(match.view(idle))
