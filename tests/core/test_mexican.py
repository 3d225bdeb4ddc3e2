"""Mexican Train, point by point as docs/RULES.md (mexican-train) says, with deals set by hand."""

from __future__ import annotations

import random

import msgspec
import pytest
from capicu.core import DRAW, MEXICAN, PASS, Play, Rules, Run, Tile, Train, new_match, parse_action, tile_set
from capicu.core.actions import END_RUN, REDEAL, IllegalAction
from capicu.core.codes import Outcome
from capicu.core.mexican.events import (
    MexicanPassed,
    MexicanRoundEnded,
    MexicanRoundStarted,
    MexicanTilePlayed,
    RunEnded,
)
from capicu.core.mexican.match import MexicanMatch
from capicu.core.mexican.refusals import (
    CODES,
    MEXICAN_ENGLISH,
    MEXICAN_PARAMS,
    MexicanRefusal,
    why_not_mexican,
)
from capicu.core.refusals import Refusal
from capicu.core.rules import DEAL_SIZES, Game, RulesError
from helpers_core import crafted_mexican

MEXICAN_TRAIN = Rules.preset_named("mexican-train")
#: Double-nine keeps hands written by hand short: 9 tiles each with 2 or 3 players, engine 9-9.
NINE = msgspec.structs.replace(MEXICAN_TRAIN, max_pip=9)


def play(text: str) -> Play:
    action = parse_action(text)
    assert isinstance(action, Play)
    return action


def legal_texts(match: MexicanMatch) -> set[str]:
    return {str(a) for a in match.legal_actions()}


def refusal(match: MexicanMatch, text: str) -> Refusal | MexicanRefusal:
    with pytest.raises(IllegalAction) as refused:
        match.apply(parse_action(text))
    assert isinstance(refused.value.reason, Refusal | MexicanRefusal)
    assert set(refused.value.params) == refused.value.reason.params  # said with what it declares
    return refused.value.reason


# -- set, deal, engine, rounds -----------------------------------------------------------


def test_the_preset_is_mexican_train_for_two_to_eight_on_a_double_twelve() -> None:
    assert MEXICAN_TRAIN.game is Game.MEXICAN_TRAIN
    assert (MEXICAN_TRAIN.max_pip, MEXICAN_TRAIN.min_players, MEXICAN_TRAIN.max_players) == (12, 2, 8)
    assert MEXICAN_TRAIN.round_count == 13
    assert isinstance(new_match(MEXICAN_TRAIN, 8), MexicanMatch)
    with pytest.raises(RulesError):
        MEXICAN_TRAIN.check_players(9)
    with pytest.raises(RulesError):
        msgspec.structs.replace(MEXICAN_TRAIN, max_pip=6)


@pytest.mark.parametrize("max_pip", [9, 12, 15])
def test_the_deal_by_set_and_player_count_and_the_engine_set_aside(max_pip: int) -> None:
    rules = msgspec.structs.replace(MEXICAN_TRAIN, max_pip=max_pip, engine_set_aside=True)
    tile_count = (max_pip + 1) * (max_pip + 2) // 2
    for players, size in zip(range(2, 9), DEAL_SIZES[max_pip], strict=True):
        view = MexicanMatch(rules, players, seed=players).view(None)
        assert view.hand_counts == (size,) * players
        assert view.engine == Tile(max_pip, max_pip)
        # The engine is in the middle: neither in a hand nor in the boneyard.
        assert view.boneyard == tile_count - 1 - players * size
        assert all(line.tiles == () and line.head == max_pip for line in view.trains)
        assert len(view.trains) == players + 1 and view.trains[-1].train == MEXICAN


@pytest.mark.parametrize("max_pip", [9, 12, 15])
def test_the_engine_is_dealt_like_any_tile_and_laid_in_the_middle(max_pip: int) -> None:
    rules = msgspec.structs.replace(MEXICAN_TRAIN, max_pip=max_pip)
    tile_count = (max_pip + 1) * (max_pip + 2) // 2
    held = 0
    for players, size in zip(range(2, 9), DEAL_SIZES[max_pip], strict=True):
        view = MexicanMatch(rules, players, seed=players).view(None)
        holder = view.engine_holder
        held += holder is not None
        # Its holder laid it (one tile fewer); else it came from the boneyard (one fewer there).
        assert view.hand_counts == tuple(size - (seat == holder) for seat in range(players))
        assert view.boneyard == tile_count - players * size - (holder is None)
        assert view.turn == (view.first if holder is None else (holder + 1) % players)
        assert all(line.tiles == () and line.head == max_pip for line in view.trains)
    assert held > 0


def test_the_deal_sizes_are_the_rules_table() -> None:
    assert DEAL_SIZES == {
        12: (15, 15, 15, 12, 12, 11, 11),
        9: (9, 9, 9, 7, 7, 7, 6),
        15: (15, 15, 15, 15, 15, 13, 13),
    }


def random_match(rules: Rules, players: int, seed: int) -> MexicanMatch:
    match = MexicanMatch(rules, players, seed=seed)
    rng = random.Random(seed)
    while not match.is_over:
        match.apply(rng.choice(match.legal_actions()))
    return match


def test_thirteen_rounds_highest_double_first_and_the_first_seat_moves_on() -> None:
    match = random_match(MEXICAN_TRAIN, 4, seed=3)
    assert [r.engine for r in match.results] == [Tile(n, n) for n in range(12, -1, -1)]
    assert [r.round_number for r in match.results] == list(range(1, 14))
    starts = [e for r in [match.log()] for e in r["entries"] if isinstance(e, dict)]
    assert len(starts) == 13


def test_each_later_round_is_opened_by_the_next_seat() -> None:
    match = MexicanMatch(msgspec.structs.replace(MEXICAN_TRAIN, engine_set_aside=True), 3, seed=5)
    rng = random.Random(5)
    firsts = [match.first]
    while not match.is_over:
        for event in match.apply(rng.choice(match.legal_actions())):
            if type(event).__name__ == "MexicanRoundStarted":
                firsts.append(event.first)  # type: ignore[union-attr]
    assert firsts == [(firsts[0] + n) % 3 for n in range(13)]


def test_each_round_begins_with_the_engines_holder_else_the_seat_after_the_last_beginner() -> None:
    match = MexicanMatch(MEXICAN_TRAIN, 3, seed=5)
    rng = random.Random(5)
    starts = [match.opening_events[0]]
    while not match.is_over:
        events = match.apply(rng.choice(match.legal_actions()))
        starts += [e for e in events if isinstance(e, MexicanRoundStarted)]
    began = None
    for start in starts:
        if start.engine_holder is not None:
            began = start.engine_holder
            assert start.first == (began + 1) % 3  # the holder laid it: the next seat plays
        else:
            if began is not None:
                assert start.first == (began + 1) % 3
            began = start.first
    assert {s.engine_holder is None for s in starts} == {True, False}


@pytest.mark.parametrize("rounds", [1, 4])
def test_the_option_plays_only_the_first_rounds(rounds: int) -> None:
    match = random_match(msgspec.structs.replace(MEXICAN_TRAIN, rounds=rounds), 2, seed=rounds)
    assert [r.engine for r in match.results] == [Tile(n, n) for n in range(12, 12 - rounds, -1)]
    with pytest.raises(RulesError):
        msgspec.structs.replace(MEXICAN_TRAIN, rounds=2)


# -- the opening run -----------------------------------------------------------------------

RUNNER = "9-3 3-5 5-5 5-1 2-2 9-2 0-0 0-1 0-4"
NO_NINES = "8-8 8-1 1-2 2-3 3-4 4-6 6-7 7-7 1-6"


def test_the_opening_run_is_laid_tile_by_tile_and_may_not_end_on_a_double() -> None:
    match = crafted_mexican(NINE, [RUNNER, NO_NINES])
    # The first turn starts one's own train: only tiles showing the engine's 9.
    assert legal_texts(match) == {"play 3-9 train 0", "play 2-9 train 0"}
    match.apply(play("play 3-9 train 0"))
    assert match.turn == 0 and legal_texts(match) == {"play 3-5 train 0", "end run"}
    match.apply(play("play 3-5 train 0"))
    # 5-5 may go down: 5-1 can follow it.
    assert legal_texts(match) == {"play 5-5 train 0", "play 1-5 train 0", "end run"}
    match.apply(play("play 5-5 train 0"))
    assert legal_texts(match) == {"play 1-5 train 0"}  # not ended on a double
    assert refusal(match, "end run") is MexicanRefusal.RUN_ENDS_ON_DOUBLE
    match.apply(play("play 1-5 train 0"))
    events = match.apply(END_RUN)
    assert events == (RunEnded(0),) and match.turn == 1
    assert match.view(1).trains[0].tiles == ((9, 3), (3, 5), (5, 5), (5, 1))


def test_a_double_with_nothing_to_follow_it_is_not_offered_in_the_run() -> None:
    match = crafted_mexican(NINE, [RUNNER, NO_NINES])
    match.apply(play("play 2-9 train 0"))
    # 2-2 would end the run on a double: nothing else held shows a 2.
    assert legal_texts(match) == {"end run"}
    assert refusal(match, "play 2-2 train 0") is MexicanRefusal.RUN_CANNOT_GO_ON


def test_a_whole_run_is_one_action_all_or_nothing() -> None:
    match = crafted_mexican(NINE, [RUNNER, NO_NINES], "7-8")
    assert refusal(match, "run 9-3 3-5 5-5") is MexicanRefusal.RUN_ENDS_ON_DOUBLE
    assert refusal(match, "run 9-3 5-1") is MexicanRefusal.DOES_NOT_FIT
    assert refusal(match, "run 9-3 3-8") is Refusal.NOT_HELD
    assert match.view(0).trains[0].tiles == ()  # nothing laid by a refused run
    events = match.apply(Run(tuple(Tile.parse(t) for t in ["9-3", "3-5", "5-5", "5-1", "1-0"])))
    assert [type(e) for e in events] == [MexicanTilePlayed] * 5 + [RunEnded]
    assert match.turn == 1 and match.view(1).hand_counts == (4, 9)
    match.apply(DRAW)
    match.apply(PASS)
    # A run is the first play of a first turn only.
    assert refusal(match, "run 0-4") is MexicanRefusal.NO_RUN_NOW


def test_with_the_option_the_opening_is_one_tile() -> None:
    match = crafted_mexican(msgspec.structs.replace(NINE, opening_run=False), [RUNNER, NO_NINES])
    assert refusal(match, "run 9-3 3-5") is MexicanRefusal.ONE_TILE_ONLY
    match.apply(play("play 3-9 train 0"))
    assert match.turn == 1 and "end run" not in legal_texts(match)


# -- draw one, then play or pass; markers ---------------------------------------------------


def test_who_cannot_start_draws_one_and_lays_it_on_their_train_or_the_mexican() -> None:
    match = crafted_mexican(NINE, [RUNNER, NO_NINES], "6-9")
    match.apply(parse_action("run 9-3"))
    assert match.legal_actions() == (DRAW,)
    match.apply(DRAW)
    # Anyone may start the Mexican train.
    assert legal_texts(match) == {"play 6-9 train 1", "play 6-9 mexican"}
    match.apply(play("play 6-9 mexican"))
    assert match.view(None).trains[-1].tiles == ((9, 6),) and match.turn == 0


def test_with_the_option_the_mexican_train_waits_for_ones_own() -> None:
    rules = msgspec.structs.replace(NINE, mexican_needs_own_train=True)
    match = crafted_mexican(rules, [RUNNER, NO_NINES], "6-9")
    match.apply(parse_action("run 9-3"))
    match.apply(DRAW)
    assert legal_texts(match) == {"play 6-9 train 1"}
    assert refusal(match, "play 6-9 mexican") is MexicanRefusal.START_YOUR_TRAIN


def test_with_the_option_an_unstarted_train_keeps_one_off_the_mexican() -> None:
    rules = msgspec.structs.replace(NINE, mexican_needs_own_train=True)
    runner = "9-5 5-4 0-0 0-1 0-2 0-3 1-1 0-5 0-6"
    match = crafted_mexican(rules, [runner, NO_NINES], "2-8 6-9")
    match.apply(parse_action("run 9-5"))
    match.apply(DRAW)
    match.apply(PASS)  # 2-8 fits nothing: seat 1's marker goes up
    match.apply(play("play 4-5 train 0"))
    match.apply(DRAW)  # 6-9
    assert legal_texts(match) == {"play 6-9 train 1"}
    view = match.view(1)
    refused = why_not_mexican(view, play("play 6-9 mexican"))
    assert refused is not None and refused.reason is MexicanRefusal.MEXICAN_NEEDS_OWN
    # Without the option, the same player may start the Mexican train.
    match = crafted_mexican(NINE, [runner, NO_NINES], "2-8 6-9")
    for text in ("run 9-5", "draw", "pass", "play 4-5 train 0", "draw"):
        match.apply(parse_action(text))
    assert legal_texts(match) == {"play 6-9 train 1", "play 6-9 mexican"}


def test_a_pass_puts_the_marker_up_and_the_owner_takes_it_down() -> None:
    match = crafted_mexican(NINE, [RUNNER, NO_NINES], "7-8")
    match.apply(parse_action("run 9-3 3-5 5-5 5-1"))
    match.apply(DRAW)
    assert match.legal_actions() == (PASS,)  # 7-8 fits nothing
    events = match.apply(PASS)
    assert events == (MexicanPassed(1),)
    assert match.view(0).trains[1].marker is True
    # Train 1 is now open to seat 0 as well as its own and the Mexican train: one tile a turn.
    assert legal_texts(match) == {"play 0-1 train 0", "play 2-9 train 1", "play 2-9 mexican"}
    match.apply(play("play 2-9 train 1"))
    assert match.turn == 1
    match.apply(play("play 1-2 train 1"))
    assert match.view(0).trains[1].marker is False  # its owner laid on it
    assert match.view(0).trains[1].tiles == ((9, 2), (2, 1))


def test_another_players_train_with_its_marker_down_is_closed() -> None:
    match = crafted_mexican(NINE, [RUNNER, "9-8 8-1 1-2 2-3 3-4 4-6 6-7 7-7 1-6"])
    match.apply(parse_action("run 9-3"))
    match.apply(parse_action("run 9-8"))
    assert refusal(match, "play 2-9 train 1") is MexicanRefusal.DOES_NOT_FIT
    assert "play 2-9 mexican" in legal_texts(match)
    assert why_not_mexican(match.view(0), play("play 8-8 train 1")) is not None


def test_a_player_who_can_play_must_play() -> None:
    match = crafted_mexican(NINE, [RUNNER, NO_NINES])
    assert refusal(match, "draw") is Refusal.MUST_PLAY
    assert refusal(match, "pass") is Refusal.PASS_WHILE_FITS


# -- doubles ----------------------------------------------------------------------------

COVER = [
    "9-5 5-5 0-0 0-1 0-2 0-3 1-1 1-2 1-3",
    "9-6 6-6 2-2 2-3 2-4 3-3 3-4 4-4 0-4",
    "9-7 7-7 6-7 6-8 7-8 8-8 0-6 0-7 0-8",
]


def test_a_double_is_laid_and_covered_in_the_same_turn() -> None:
    hands = ["9-5 5-5 5-6 0-1 0-2 0-3 1-1 1-2 1-3", *COVER[1:]]
    match = crafted_mexican(NINE, hands)
    for text in ("run 9-5", "run 9-6", "run 9-7"):
        match.apply(parse_action(text))
    match.apply(play("play 5-5 train 0"))
    view = match.view(0)
    assert match.turn == 0 and view.open_double == Train(0)
    assert legal_texts(match) == {"play 5-6 train 0"}  # the cover, nothing else
    match.apply(play("play 5-6 train 0"))
    assert match.turn == 1 and match.view(1).open_double is None


def test_a_double_nobody_covers_sends_markers_up_round_the_table() -> None:
    match = crafted_mexican(NINE, COVER, "1-4 2-6 3-6 5-6")
    for text in ("run 9-5", "run 9-6", "run 9-7"):
        match.apply(parse_action(text))
    match.apply(play("play 5-5 train 0"))
    for seat in (0, 1, 2):
        assert match.turn == seat
        assert match.legal_actions() == (DRAW,)  # nothing covers: draw one
        match.apply(DRAW)
        assert match.legal_actions() == (PASS,)
        match.apply(PASS)
        view = match.view(None)
        assert view.trains[seat].marker is True and view.open_double == Train(0)
    # Seat 1, seat 2 and seat 0 again each had to cover before any other play.
    assert match.turn == 0
    match.apply(DRAW)  # 5-6
    assert legal_texts(match) == {"play 5-6 train 0"}
    match.apply(play("play 5-6 train 0"))
    view = match.view(None)
    assert view.open_double is None and view.trains[0].marker is False
    assert [line.marker for line in view.trains] == [False, True, True, True]


def test_someone_else_may_cover_a_double_on_a_train_closed_to_them() -> None:
    hands = [COVER[0], "9-6 6-6 2-2 2-3 2-4 3-3 3-4 4-4 4-5", COVER[2]]
    match = crafted_mexican(NINE, hands, "1-4")
    for text in ("run 9-5", "run 9-6", "run 9-7", "play 5-5 train 0", "draw", "pass"):
        match.apply(parse_action(text))
    assert legal_texts(match) == {"play 4-5 train 0"}
    assert refusal(match, "play 6-6 train 1") is MexicanRefusal.COVER_THE_DOUBLE


def test_with_the_option_a_double_earns_another_play_anywhere() -> None:
    rules = msgspec.structs.replace(NINE, cover_doubles=False)
    hands = ["9-5 5-5 9-3 0-1 0-2 0-3 1-1 1-2 1-3", *COVER[1:]]
    match = crafted_mexican(rules, hands)
    for text in ("run 9-5", "run 9-6", "run 9-7"):
        match.apply(parse_action(text))
    match.apply(play("play 5-5 train 0"))
    assert match.turn == 0 and match.view(0).open_double is None
    assert legal_texts(match) == {"play 3-9 mexican"}
    match.apply(play("play 3-9 mexican"))
    assert match.turn == 1


# -- the end of a round, scoring and the match ------------------------------------------------

OUT_ON_A_DOUBLE = "9-8 8-7 7-6 6-5 5-4 4-3 3-2 2-1 1-1"
BLANKS = "0-0 0-1 0-2 0-3 0-4 0-5 0-6 0-7 0-8"  # 36 pips, and the double blank


def test_going_out_on_a_double_ends_the_round_and_the_double_blank_counts_fifty() -> None:
    match = crafted_mexican(msgspec.structs.replace(NINE, rounds=1), [OUT_ON_A_DOUBLE, BLANKS])
    events = match.apply(parse_action("run " + OUT_ON_A_DOUBLE))
    ended = [e for e in events if isinstance(e, MexicanRoundEnded)]
    assert len(ended) == 1 and not any(isinstance(e, RunEnded) for e in events)
    result = ended[0].result
    assert (result.reason, result.last_player) == (Outcome.DOMINO, 0)
    assert result.counts == (0, 36 + 50)
    assert match.is_over and match.winners == (0,) and match.totals == [0, 86]


def test_with_the_option_the_double_blank_counts_nothing() -> None:
    rules = msgspec.structs.replace(NINE, rounds=1, double_blank_points=0)
    match = crafted_mexican(rules, [OUT_ON_A_DOUBLE, BLANKS])
    match.apply(parse_action("run " + OUT_ON_A_DOUBLE))
    assert match.results[0].counts == (0, 36)


def test_going_out_on_a_double_tile_by_tile() -> None:
    match = crafted_mexican(msgspec.structs.replace(NINE, rounds=1), [OUT_ON_A_DOUBLE, BLANKS])
    for tile in OUT_ON_A_DOUBLE.split()[:-1]:
        match.apply(play(f"play {tile} train 0"))
    # The run may end here, or go out on the double: the last tile may be one.
    assert legal_texts(match) == {"play 1-1 train 0", "end run"}
    match.apply(play("play 1-1 train 0"))
    assert match.is_over


def test_counts_add_up_and_the_lowest_total_wins_equal_totals_share() -> None:
    match = crafted_mexican(msgspec.structs.replace(NINE, rounds=1), [OUT_ON_A_DOUBLE, BLANKS])
    match.totals = [86, 0]  # as if an earlier round had gone the other way
    match.apply(parse_action("run " + OUT_ON_A_DOUBLE))
    assert match.totals == [86, 86] and match.winners == (0, 1)


def can_lay_somewhere(view_: object, hands: list[int], max_pip: int) -> bool:
    """Some hand holds a tile for the oldest open double, or (none open) for any train."""
    from capicu.core.mexican.view import MexicanView

    assert isinstance(view_, MexicanView)
    heads = {line.head for line in view_.trains}
    if view_.open_double is not None:
        heads = {view_.train_of(view_.open_double).head}
    tiles = tile_set(max_pip)
    return any(hand & tiles.suit_mask[n] for hand in hands for n in heads)


def test_a_round_is_blocked_exactly_when_the_boneyard_is_empty_and_nobody_can_lay_a_tile() -> None:
    """RULES.md: blocked when the boneyard is empty and no player can lay a tile where they may;
    a pass that puts a marker up may give a later player a play (issue 29: the old reading,
    every seat in turn passing, blocked rounds that could go on)."""
    blocked = going_on = 0
    for seed in range(40):
        match = MexicanMatch(NINE, 4, seed=seed)
        rng = random.Random(seed)
        while not match.is_over:
            action = rng.choice(match.legal_actions())
            before = match.view(None)
            events = match.apply(action)
            if action != PASS or before.boneyard:
                continue
            ended = [e for e in events if isinstance(e, MexicanRoundEnded)]
            if ended:
                assert ended[0].result.reason is Outcome.TRANQUE
                blocked += 1
                hands = [tile_set(9).mask_of(hand) for hand in ended[0].result.hands]
                assert not can_lay_somewhere(before, hands, 9)
            else:
                going_on += 1
                assert can_lay_somewhere(match.view(None), match.state.hands, 9)
    assert blocked > 0 and going_on > 0


def test_every_refusal_has_its_english_with_exactly_its_declared_params() -> None:
    from string import Formatter

    assert set(MEXICAN_ENGLISH) == set(CODES)
    for reason, sentence in MEXICAN_ENGLISH.items():
        assert {field for _, field, _, _ in Formatter().parse(sentence) if field} == MEXICAN_PARAMS[reason]


def test_a_spectator_and_a_seat_out_of_turn_are_refused() -> None:
    match = crafted_mexican(NINE, [RUNNER, NO_NINES])
    refused = why_not_mexican(match.view(None), play("play 3-9 train 0"))
    assert refused is not None and refused.reason is Refusal.SPECTATOR
    with pytest.raises(IllegalAction) as wrong_seat:
        match.apply(DRAW, seat=1)
    assert wrong_seat.value.reason is Refusal.NOT_YOUR_TURN
    assert refusal(match, "play 3-5 left") is Refusal.NOT_AN_ACTION
    # Refused in the action's own words, never as a Python value ("Redeal()").
    redeal = why_not_mexican(match.view(0), REDEAL)
    assert redeal is not None and redeal.params == {"action": "redeal"}
    assert str(redeal) == "redeal: redeal is not an action of Mexican Train"


def test_the_rules_game_picks_the_engine_and_either_log_replays() -> None:
    from capicu.core import Match
    from capicu.core.games import match_from_log

    trains = new_match(MEXICAN_TRAIN, 3, seed=2)
    line = new_match(Rules(), 2, seed=2)
    assert isinstance(trains, MexicanMatch) and isinstance(line, Match)
    for match in (trains, line):
        match.apply(match.legal_actions()[0])
        again = match_from_log(match.log())
        assert type(again) is type(match) and again.log() == match.log()
    with pytest.raises(ValueError):
        MexicanMatch(Rules(), 2)
    with pytest.raises(ValueError):
        Match(MEXICAN_TRAIN, 2)
