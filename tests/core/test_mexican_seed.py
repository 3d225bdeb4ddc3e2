"""Mexican Train as seed 004 plays it (issue 29), point by point as docs/RULES.md says, deals set by hand.

*Who begins*: the engine is dealt like any tile and its holder lays it; else it
comes from the boneyard and the beginner rotates. *Doubles*: several a turn,
covered oldest first. *Drawing*: only the drawn tile may be laid. *End of a
round*: blocked only when the boneyard is empty and nobody can lay a tile.
"""

from __future__ import annotations

import random

import msgspec
import pytest
from capicu.core import DRAW, MEXICAN, PASS, Play, Rules, Tile, Train, parse_action, tile_set
from capicu.core.actions import IllegalAction
from capicu.core.codes import Outcome
from capicu.core.mexican.events import MexicanRoundEnded, MexicanRoundStarted
from capicu.core.mexican.match import MexicanMatch
from capicu.core.mexican.refusals import MexicanRefusal
from capicu.core.mexican.state import MexicanRound
from helpers_core import crafted_mexican
from hypothesis import given, settings
from hypothesis import strategies as st

MEXICAN_TRAIN = Rules.preset_named("mexican-train")
#: Double-nine keeps hands written by hand short: 9 tiles each with 2 or 3 players, engine 9-9.
NINE = msgspec.structs.replace(MEXICAN_TRAIN, max_pip=9)


def play(text: str) -> Play:
    action = parse_action(text)
    assert isinstance(action, Play)
    return action


def legal_texts(match: MexicanMatch) -> set[str]:
    return {str(a) for a in match.legal_actions()}


def apply_all(match: MexicanMatch, *texts: str) -> None:
    for text in texts:
        match.apply(parse_action(text))


def refusal(match: MexicanMatch, text: str) -> MexicanRefusal:
    with pytest.raises(IllegalAction) as refused:
        match.apply(parse_action(text))
    assert isinstance(refused.value.reason, MexicanRefusal)
    assert set(refused.value.params) == refused.value.reason.params
    return refused.value.reason


def deal_of(max_pip: int, hands: list[str], stock: str = "") -> list[int]:
    """A whole deal (every tile of the set, the engine too): the hands as written, then ``stock``
    in draw order, then every tile not named, the round's engine among them unless a hand holds it."""
    tiles = tile_set(max_pip)
    named = [Tile.parse(t) for hand in hands for t in hand.split()]
    drawn = [Tile.parse(t) for t in stock.split()]
    rest = [t for t in tiles.tiles if t not in set(named) | set(drawn)]
    return [tiles.index[t] for t in named + drawn + rest]


def dealt(rules: Rules, hands: list[str], stock: str = "", *, seat: int = 0,
          later: list[list[str]] | None = None) -> MexicanMatch:
    """A match whose deals give each seat the tiles written; ``seat`` is round 1's seat drawn at random.

    ``later`` gives the hands of the next rounds' deals (each with the seat drawn 0, unused after round 1).
    """
    size = rules.hand_size(len(hands))
    for hand in [hands, *(later or [])]:
        assert all(len(h.split()) == size for h in hand), f"each hand holds {size} tiles"
    deals = [(deal_of(rules.max_pip, hands, stock), seat)]
    deals += [(deal_of(rules.max_pip, hand), 0) for hand in later or []]
    match = MexicanMatch(rules, len(hands), seed=0, deals=deals)  # type: ignore[arg-type]
    return match


# -- who begins ----------------------------------------------------------------------------


def test_the_holder_lays_the_engine_as_their_turn_and_the_next_seat_plays() -> None:
    hands = [
        "9-5 5-5 5-6 0-1 0-2 0-3 1-1 1-2 1-3",
        "9-9 9-6 6-6 2-2 2-3 2-4 3-3 3-4 4-4",  # seat 1 was dealt the engine
        "9-7 7-7 6-7 6-8 7-8 8-8 0-6 0-7 0-8",
    ]
    match = dealt(NINE, hands, seat=0)
    started = match.opening_events[0]
    assert isinstance(started, MexicanRoundStarted)
    # Everyone sees who laid it; it left seat 1's hand, and the next seat plays first.
    assert started.engine == Tile(9, 9) and started.engine_holder == 1
    assert started.hand_counts == (9, 8, 9) and started.first == 2
    view = match.view(None)
    assert view.engine_holder == 1 and view.turn == 2
    assert Tile(9, 9) not in match.view(1).hand and view.boneyard == 55 - 27
    # The seat after the holder starts its own train (its first turn, an opening run).
    assert match.view(2).may_run is True
    assert legal_texts(match) == {"play 7-9 train 2"}
    apply_all(match, "run 9-7 7-7 7-6", "run 9-5")
    # Laying the engine was the holder's turn; its next turn is its first on the trains.
    assert match.turn == 1 and match.view(1).may_run


def test_nobody_holds_the_engine_it_comes_from_the_boneyard_and_the_beginner_rotates() -> None:
    rules = msgspec.structs.replace(NINE, rounds=4)
    out = "9-8 8-7 7-6 6-5 5-4 4-3 3-2 2-1 1-0"  # seat 1 goes out in its opening run
    hands = ["0-0 0-2 0-3 0-4 0-5 0-6 0-7 0-8 2-2", out, "2-4 2-5 2-6 2-7 2-8 3-3 3-5 3-6 3-7"]
    # Round 2's engine (8-8) is dealt to nobody either: the round begins with the seat after
    # round 1's beginner.
    round_2 = ["9-9 0-0 0-1 0-2 0-3 0-4 0-5 0-6 0-7", "1-1 1-2 1-3 1-4 1-5 1-6 1-7 1-9 2-2",
               "2-3 2-4 2-5 2-6 2-7 2-9 3-3 3-4 3-5"]
    match = dealt(rules, hands, seat=1, later=[round_2])
    started = match.opening_events[0]
    assert isinstance(started, MexicanRoundStarted)
    # Nobody was dealt 9-9: it came from the boneyard (55 - 27 dealt - the engine), the seat
    # drawn at random (seat 1) begins.
    assert started.engine_holder is None and started.first == 1
    assert match.view(None).engine_holder is None and match.view(None).boneyard == 27
    assert match.turn == 1
    events = match.apply(parse_action("run " + out))
    second = next(e for e in events if isinstance(e, MexicanRoundStarted))
    assert second.engine == Tile(8, 8) and second.engine_holder is None and second.first == 2


def test_a_holder_begins_and_the_next_round_without_one_begins_after_them() -> None:
    rules = msgspec.structs.replace(NINE, rounds=4)
    out = "9-8 8-7 7-6 6-5 5-4 4-3 3-2 2-1 1-0"  # seat 0 goes out in its opening run
    hands = [out, "0-0 0-2 0-3 0-4 0-5 0-6 0-7 0-8 2-2", "9-9 2-4 2-5 2-6 2-7 2-8 3-3 3-5 3-6"]
    round_2 = ["9-9 0-0 0-1 0-2 0-3 0-4 0-5 0-6 0-7", "1-1 1-2 1-3 1-4 1-5 1-6 1-7 1-9 2-2",
               "2-3 2-4 2-5 2-6 2-7 2-9 3-3 3-4 3-5"]
    match = dealt(rules, hands, seat=1, later=[round_2])
    started = match.opening_events[0]
    assert isinstance(started, MexicanRoundStarted)
    assert started.engine_holder == 2 and started.first == 0  # seat 2 began: it laid the engine
    events = match.apply(parse_action("run " + out))
    second = next(e for e in events if isinstance(e, MexicanRoundStarted))
    assert second.engine_holder is None and second.first == 0  # the seat after seat 2


def test_with_the_option_the_engine_is_set_aside_before_the_deal() -> None:
    rules = msgspec.structs.replace(NINE, engine_set_aside=True)
    match = MexicanMatch(rules, 3, seed=4)
    started = match.opening_events[0]
    assert isinstance(started, MexicanRoundStarted)
    assert started.engine_holder is None and started.hand_counts == (9, 9, 9)
    assert match.view(None).boneyard == 55 - 1 - 27


# -- several doubles a turn --------------------------------------------------------------------

#: Three seats on double-nine. Seat 0 lays three doubles in one turn (on its own train, the
#: Mexican train and seat 1's train, whose marker is up) and cannot cover the first; seats 1, 2
#: and 0 then cover them, oldest first, one tile a turn.
THREE = [
    "9-5 5-5 6-9 6-6 3-3 0-3 0-0 0-1 1-1",
    "9-3 5-8 8-8 2-8 1-8 1-2 2-2 4-8 0-8",
    "9-7 4-7 2-6 4-4 1-4 1-7 0-7 0-4 2-4",
]


def three_doubles_laid() -> MexicanMatch:
    match = crafted_mexican(NINE, THREE, "7-8 2-3")
    # Openings; seat 0 starts the Mexican train (6); seat 1 cannot play, draws 7-8 and passes.
    apply_all(match, "run 9-5", "run 9-3", "run 9-7", "play 6-9 mexican", "draw", "pass", "play 4-7 train 2")
    assert match.view(None).trains[1].marker
    match.apply(play("play 5-5 train 0"))
    view = match.view(0)
    assert match.turn == 0 and view.open_doubles == (Train(0),)
    # Another double anywhere seat 0 may play, or a cover of the oldest; nothing covers 5, so a draw.
    assert legal_texts(match) == {"play 6-6 mexican", "play 3-3 train 1", "draw"}
    apply_all(match, "play 6-6 mexican", "play 3-3 train 1")
    assert match.view(0).open_doubles == (Train(0), MEXICAN, Train(1))
    return match


def test_three_open_doubles_are_covered_in_order_round_the_table() -> None:
    match = three_doubles_laid()
    # 0-3 would cover 3-3, but the oldest open double (5-5 on train 0) comes first.
    assert legal_texts(match) == {"draw"}
    assert refusal(match, "play 0-3 train 1") is MexicanRefusal.COVER_THE_DOUBLE
    match.apply(DRAW)  # 2-3: it fits 3-3, not the oldest
    assert legal_texts(match) == {"pass"}
    match.apply(PASS)
    view = match.view(None)
    assert view.turn == 1 and view.trains[0].marker
    assert view.open_doubles == (Train(0), MEXICAN, Train(1))
    # Seat 1 covers the oldest, then seat 2 the next, then seat 0 the last: one tile a turn.
    assert legal_texts(match) == {"play 5-8 train 0"}
    match.apply(play("play 5-8 train 0"))
    assert match.turn == 2 and match.view(2).open_doubles == (MEXICAN, Train(1))
    assert legal_texts(match) == {"play 2-6 mexican"}
    match.apply(play("play 2-6 mexican"))
    assert match.turn == 0 and match.view(0).open_doubles == (Train(1),)
    assert legal_texts(match) == {"play 0-3 train 1", "play 2-3 train 1"}
    match.apply(play("play 0-3 train 1"))
    view = match.view(1)
    assert view.turn == 1 and view.open_doubles == ()
    # Normal play again: one's own train, the Mexican train, the trains marked up.
    assert "play 2-8 train 1" not in legal_texts(match)  # train 1 shows 0 now
    assert {"play 0-8 train 1", "play 2-2 mexican"} <= legal_texts(match)


TWO = [
    "9-5 5-5 6-9 6-6 2-5 1-6 0-0 0-1 0-2",
    "9-3 3-4 4-7 7-7 7-8 5-8 1-8 1-1 2-8",
]


def test_two_doubles_then_a_cover_on_the_first_ends_the_turn() -> None:
    match = crafted_mexican(NINE, TWO)
    apply_all(match, "run 9-5", "run 9-3", "play 6-9 mexican", "play 3-4 train 1", "play 5-5 train 0")
    assert legal_texts(match) == {"play 6-6 mexican", "play 2-5 train 0"}
    match.apply(play("play 6-6 mexican"))
    assert match.turn == 0 and match.view(0).open_doubles == (Train(0), MEXICAN)
    # The tile that ends the turn goes on the oldest open double.
    assert legal_texts(match) == {"play 2-5 train 0"}
    assert refusal(match, "play 1-6 mexican") is MexicanRefusal.COVER_THE_DOUBLE
    match.apply(play("play 2-5 train 0"))
    view = match.view(1)
    assert view.turn == 1 and view.open_doubles == (MEXICAN,)
    # The next player must cover the double left open: seat 1 has no 6, so it draws.
    assert legal_texts(match) == {"draw"}


def test_two_doubles_and_no_cover_stay_open_and_the_next_players_cover_them_in_order() -> None:
    hands = ["9-5 5-5 6-9 6-6 1-6 0-0 0-1 0-2 0-3", "9-3 3-4 4-7 7-7 7-8 5-8 1-8 1-1 2-8"]
    match = crafted_mexican(NINE, hands, "2-4")
    apply_all(match, "run 9-5", "run 9-3", "play 6-9 mexican", "play 3-4 train 1",
              "play 5-5 train 0", "play 6-6 mexican")
    assert legal_texts(match) == {"draw"}
    match.apply(DRAW)  # 2-4 covers neither
    match.apply(PASS)
    view = match.view(1)
    assert view.open_doubles == (Train(0), MEXICAN) and view.trains[0].marker
    assert legal_texts(match) == {"play 5-8 train 0"}  # the oldest first
    match.apply(play("play 5-8 train 0"))
    assert match.turn == 0 and legal_texts(match) == {"play 1-6 mexican"}
    match.apply(play("play 1-6 mexican"))
    assert match.view(1).open_doubles == ()


def test_going_out_on_a_double_ends_the_round_with_doubles_open() -> None:
    rules = msgspec.structs.replace(NINE, rounds=1)
    hands = ["9-1 1-2 2-3 3-4 4-7 7-8 5-8 5-5 6-6", "0-0 0-1 0-2 0-3 0-4 0-5 0-6 0-7 0-8"]
    match = crafted_mexican(rules, hands, "6-9")
    apply_all(match, "run 9-1 1-2 2-3 3-4 4-7 7-8 8-5", "draw", "play 6-9 mexican", "play 5-5 train 0")
    assert match.view(0).open_doubles == (Train(0),)
    events = match.apply(play("play 6-6 mexican"))
    ended = [e for e in events if isinstance(e, MexicanRoundEnded)]
    assert len(ended) == 1 and ended[0].result.reason is Outcome.DOMINO
    assert ended[0].result.last_player == 0 and ended[0].result.counts[0] == 0


def test_with_the_option_one_double_a_turn_the_double_is_covered_by_the_next_tile() -> None:
    rules = msgspec.structs.replace(NINE, one_double_a_turn=True)
    match = crafted_mexican(rules, TWO)
    apply_all(match, "run 9-5", "run 9-3", "play 6-9 mexican", "play 3-4 train 1", "play 5-5 train 0")
    # As capicu played before: the double's own cover, nothing else.
    assert legal_texts(match) == {"play 2-5 train 0"}
    assert refusal(match, "play 6-6 mexican") is MexicanRefusal.COVER_THE_DOUBLE


# -- drawing: only the drawn tile (a defect: this test failed on the engine before issue 29) -----------


def test_after_a_first_turn_draw_only_the_drawn_tile_may_be_laid() -> None:
    # Issue 29's hand-built case: A draws 12-4 and starts the Mexican train (it shows 4);
    # B holds 4-9 and no 12, draws 3-5: by the rules only 3-5 may be laid, so B passes.
    hands = [
        "0-0 0-1 0-2 0-3 0-4 0-5 0-6 0-7 0-8 0-9 0-10 0-11 1-1 1-2 1-3",
        "4-9 1-4 1-5 1-6 1-7 1-8 1-9 1-10 1-11 2-2 2-3 2-4 2-5 2-6 2-7",
        "12-1 2-8 2-9 2-10 2-11 3-3 3-4 3-6 3-7 3-8 3-9 3-10 3-11 4-4 4-5",
    ]
    match = crafted_mexican(MEXICAN_TRAIN, hands, "4-12 3-5")
    assert legal_texts(match) == {"draw"}
    apply_all(match, "draw", "play 4-12 mexican")
    assert match.turn == 1 and match.view(1).trains[-1].head == 4
    assert legal_texts(match) == {"draw"}
    match.apply(DRAW)
    assert legal_texts(match) == {"pass"}
    assert refusal(match, "play 4-9 mexican") is MexicanRefusal.DRAWN_TILE_ONLY
    match.apply(PASS)
    assert match.view(None).trains[1].marker and match.turn == 2


# -- the end of a round: blocked only when nobody can lay a tile (a defect before issue 29) ------------


def nine_round(hands: list[str], stock: str) -> MexicanRound:
    tiles = tile_set(9)
    masks = [tiles.mask_of(Tile.parse(t) for t in hand.split()) for hand in hands]
    return MexicanRound(tiles, 9, masks, [tiles.index[Tile.parse(t)] for t in stock.split()], turn=0)


def lay(state: MexicanRound, tile: str, train: int) -> None:
    state.play(tile_set(9).index[Tile.parse(tile)], train)


def test_a_pass_that_opens_a_train_to_a_later_player_does_not_block_the_round() -> None:
    # Issue 29's case: A draws (one tile left) and passes; B draws the last tile and passes,
    # its marker up: A holds 3-7, which fits B's train (showing 7) that this pass opened.
    state = nine_round(["9-1 3-7 0-0", "9-7 4-4 3-3"], "5-6 5-8")
    lay(state, "9-1", 0)
    state.end_run()
    lay(state, "9-7", 1)
    state.end_run()
    state.draw()
    state.pass_turn()  # A: one tile left in the boneyard
    state.draw()
    state.pass_turn()  # B: the boneyard is empty, B's marker goes up
    assert state.boneyard == 0 and state.markers[1]
    assert state.outcome is None and state.turn == 0
    assert state.playable() == 1 << tile_set(9).index[Tile(3, 7)]


def test_the_round_is_blocked_as_soon_as_nobody_can_lay_a_tile() -> None:
    state = nine_round(["9-1 0-0", "9-7 4-4"], "")
    lay(state, "9-1", 0)
    state.end_run()
    lay(state, "9-7", 1)
    state.end_run()
    # A holds 0-0, B 4-4: nothing fits any train, even with every marker up, and nothing is left
    # to draw: the first pass ends the round.
    state.pass_turn()
    assert state.outcome is Outcome.TRANQUE




# -- properties ----------------------------------------------------------------------------------


@settings(max_examples=25, deadline=None)
@given(st.sampled_from((9, 12)), st.integers(2, 8), st.integers(0, 10**6))
def test_open_doubles_are_covered_oldest_first_and_the_drawn_tile_is_the_only_one_laid(
    max_pip: int, players: int, seed: int,
) -> None:
    rules = msgspec.structs.replace(MEXICAN_TRAIN, max_pip=max_pip, rounds=1)
    match = MexicanMatch(rules, players, seed=seed)
    rng = random.Random(seed)
    while not match.is_over:
        before = match.view(match.turn)
        action = rng.choice(match.legal_actions())
        events = match.apply(action)
        if not isinstance(action, Play) or any(isinstance(e, MexicanRoundEnded) for e in events):
            continue
        after = match.view(None)
        if before.drawn is not None:
            assert action.tile == before.drawn
        opened = before.open_doubles
        if action.tile.is_double and not (before.may_run or before.running):
            # A double laid joins the open ones, last.
            assert after.open_doubles == (*opened, action.place)
        elif opened and not before.running:
            # Any other tile laid while doubles are open covers the oldest, and only that one.
            assert action.place == opened[0] and after.open_doubles == opened[1:]
            assert after.turn != before.turn  # one cover a turn


# -- the computer players, the hint and the coach know the turn of several doubles -----------------


def test_hard_lays_its_own_double_then_another_before_the_cover_and_the_hint_says_so() -> None:
    from capicu.core.ai.mexican_hard import MexicanHardPlayer
    from capicu.core.ai.mexican_hints import MexicanHintReason, suggest_mexican

    match = crafted_mexican(NINE, TWO)
    apply_all(match, "run 9-5", "run 9-3", "play 6-9 mexican", "play 3-4 train 1")
    # Its own train's double first (it covers that one itself), then the Mexican train's while
    # 2-5 stays in hand to end the turn, then the cover: three tiles down in one turn.
    assert MexicanHardPlayer(1).choose(match.view(0)) == play("play 5-5 train 0")
    match.apply(play("play 5-5 train 0"))
    assert MexicanHardPlayer(1).choose(match.view(0)) == play("play 6-6 mexican")
    hint = suggest_mexican(match.view(0))
    assert hint.action == play("play 6-6 mexican")
    assert hint.reasons[0] == MexicanHintReason.ANOTHER_DOUBLE(tile="6-6")
    match.apply(play("play 6-6 mexican"))
    hint = suggest_mexican(match.view(0))
    assert hint.action == play("play 2-5 train 0")
    assert hint.reasons[0] == MexicanHintReason.COVERS_DOUBLE(train="train 0")


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_every_level_plays_the_seeds_rules_legally_with_the_engines_holder(level: str) -> None:
    from capicu.core.ai.mexican_players import make_mexican_player

    rules = msgspec.structs.replace(MEXICAN_TRAIN, rounds=4)
    for players in (2, 4, 8):
        match = MexicanMatch(rules, players, seed=players)
        bots = [make_mexican_player(level, seat) for seat in range(players)]
        while not match.is_over:
            seat = match.turn
            assert seat is not None
            match.apply(bots[seat].choose(match.view(seat)), seat)  # an illegal choice raises
        assert len(match.results) == 4


# -- logs of version 1 (before issue 29) ---------------------------------------------------------


def version_1_log(match: MexicanMatch) -> dict[str, object]:
    """``match``'s log as capicu wrote it before issue 29: format /1, rules without the two options
    (a reader of today gives them their defaults)."""
    log = match.log()
    return {**log, "format": "capicu-mexican-train-log/1",
            "rules": msgspec.structs.replace(log["rules"], engine_set_aside=False, one_double_a_turn=False)}


def test_a_version_1_log_replays_with_the_engine_set_aside_and_one_double_a_turn() -> None:
    from capicu.core.games import match_from_log

    rules = msgspec.structs.replace(NINE, rounds=1, engine_set_aside=True, one_double_a_turn=True)
    match = crafted_mexican(rules, TWO, "1-3 2-4")
    apply_all(match, "run 9-5", "run 9-3", "play 6-9 mexican", "play 3-4 train 1", "play 5-5 train 0",
              "play 2-5 train 0")
    again = match_from_log(version_1_log(match))
    assert isinstance(again, MexicanMatch)
    assert again.rules.engine_set_aside and again.rules.one_double_a_turn
    assert again.view(0) == match.view(0)
    # Written again, it is a log of today's format with its options said.
    assert again.log()["format"] == "capicu-mexican-train-log/2" and again.log() == match.log()


def test_a_version_1_log_that_the_rules_no_longer_allow_is_refused_naming_its_version() -> None:
    # The first-turn draw of issue 29, as the engine of version 1 allowed it: B lays 4-9 from its
    # hand after drawing 3-5.
    hands = [
        "0-0 0-1 0-2 0-3 0-4 0-5 0-6 0-7 0-8 0-9 0-10 0-11 1-1 1-2 1-3",
        "4-9 1-4 1-5 1-6 1-7 1-8 1-9 1-10 1-11 2-2 2-3 2-4 2-5 2-6 2-7",
        "12-1 2-8 2-9 2-10 2-11 3-3 3-4 3-6 3-7 3-8 3-9 3-10 3-11 4-4 4-5",
    ]
    rules = msgspec.structs.replace(MEXICAN_TRAIN, engine_set_aside=True, one_double_a_turn=True)
    match = crafted_mexican(rules, hands, "4-12 3-5")
    apply_all(match, "draw", "play 4-12 mexican", "draw")
    log = version_1_log(match)
    log["entries"] = [*match.log()["entries"], "play 4-9 mexican"]
    with pytest.raises(ValueError, match="log version 1") as refused:
        MexicanMatch.from_log(log)
    assert str(refused.value).count(".") <= 1  # one sentence
