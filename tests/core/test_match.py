"""The match: deals, leads, turns, draws, passes, round ends and every illegal-action reason."""

from __future__ import annotations

import random

import msgspec
import pytest
from capicu.core import (
    DRAW,
    PASS,
    PRESET_NAMES,
    Action,
    Bonus,
    End,
    FirstLead,
    IllegalAction,
    Match,
    MatchEnded,
    Outcome,
    Passed,
    Play,
    RoundEnded,
    RoundStarted,
    Rules,
    Tile,
    TilesDrawn,
    parse_action,
    tile_set,
)
from helpers_core import crafted_match
from hypothesis import given, settings
from hypothesis import strategies as st

PR = Rules.preset_named("puerto-rican-drawing")


def play(text: str) -> Play:
    action = parse_action(text)
    assert isinstance(action, Play)
    return action


def legal(match: Match) -> tuple[Action, ...]:
    """``match.legal_actions()`` for a loop that plays on: fails when nobody can play and
    nothing can be drawn, yet the round goes on (an engine that missed that tranque would
    have every seat pass for ever, and the loop hang instead of failing)."""
    actions = match.legal_actions()
    if actions == (PASS,):
        state = match.state
        assert state.drawable or any(state.playable(seat) for seat in range(match.players)), (
            f"round {match.round_number} is blocked and goes on"
        )
    return actions


def snapshot(match: Match) -> object:
    return (match.log(), match.view(None), [match.view(s) for s in range(match.players)])


def test_holder_of_six_six_leads_with_it() -> None:
    match = crafted_match(PR, ["0-1 0-2 0-3 0-4 0-5 0-6 1-1", "6-6 1-2 1-3 1-4 1-5 1-6 2-2"])
    assert match.turn == 1
    assert match.legal_actions() == (Play(Tile(6, 6), End.LEFT),)
    with pytest.raises(IllegalAction, match="the lead must be 6-6"):
        match.apply(play("play 2-2"))


def test_highest_double_leads_when_six_six_is_in_the_boneyard() -> None:
    match = crafted_match(
        PR, ["0-1 0-2 0-3 4-4 0-5 0-6 1-1", "5-6 1-2 1-3 1-4 1-5 1-6 2-2"], stock="6-6"
    )
    assert match.turn == 0
    assert match.legal_actions() == (Play(Tile(4, 4), End.LEFT),)


def test_no_double_dealt_means_a_new_deal() -> None:
    tiles = [t for t in Match(PR, 2).tiles.tiles if not t.is_double]
    from capicu.core import tile_set

    index = tile_set(6).index
    no_doubles = [index[t] for t in tiles[:14]] + [index[t] for t in tile_set(6).tiles if t not in tiles[:14]]
    match = Match(PR, 2, seed=4, deals=[(no_doubles, 0)])
    started = match.opening_events[0]
    assert isinstance(started, RoundStarted)
    assert started.redeals == 1
    assert started.forced_lead is not None and started.forced_lead.is_double
    assert len([e for e in match.log()["entries"] if isinstance(e, dict)]) == 2


def test_turns_go_to_the_next_seat_and_ends_follow_the_line() -> None:
    match = crafted_match(PR, ["6-6 0-6 2-3 2-4 3-3 0-0 0-1", "6-5 1-2 1-3 1-4 1-5 1-6 2-2"])
    match.apply(play("play 6-6"))
    assert match.turn == 1
    events = match.apply(play("play 5-6 right"))
    view = match.view(0)
    assert view.ends == (6, 5)
    assert view.line == ((6, 6), (6, 5))
    assert events[0].left == 6 and events[0].right == 5  # type: ignore[union-attr]
    match.apply(play("play 0-6 left"))
    assert match.view(None).line == ((0, 6), (6, 6), (6, 5))
    assert match.view(None).ends == (0, 5)


def test_forced_draws_stop_at_the_reserve_then_pass() -> None:
    # Seat 1 holds nothing with a 6 or a 5; the boneyard has 14, 12 can be drawn.
    match = crafted_match(
        PR,
        ["6-6 6-5 0-0 0-1 0-2 0-3 0-4", "1-1 1-2 1-3 1-4 2-2 2-3 2-4"],
        stock="3-3 3-4 4-4 1-5",
    )
    match.apply(play("play 6-6"))
    assert match.legal_actions() == (DRAW,)
    with pytest.raises(IllegalAction, match="cannot pass while tiles can be drawn"):
        match.apply(PASS)
    for _ in range(3):
        events = match.apply(DRAW)
        assert events == (TilesDrawn(1, 1, 6, 6),)
        assert match.legal_actions() == (DRAW,)
    match.apply(DRAW)  # 1-5: still no 6
    view = match.view(1)
    assert Tile(1, 5) in view.hand and view.boneyard == 10 and view.drawable == 8


def test_the_reserve_is_never_drawn() -> None:
    hands = [
        "6-6 6-5 6-4 6-3 6-2 6-1 0-6",
        "0-0 0-1 0-2 0-3 0-4 0-5 1-1",
        "1-2 1-3 1-4 1-5 2-2 2-3 2-4",
    ]
    match = crafted_match(PR, hands, stock="2-5 3-3 3-4 3-5 4-4 4-5 5-5")
    match.apply(play("play 6-6"))
    for _ in range(5):
        match.apply(DRAW)
    view = match.view(1)
    assert (view.drawable, view.boneyard, len(view.hand)) == (0, 2, 12)
    with pytest.raises(IllegalAction, match="down to its reserve of 2 tiles"):
        match.apply(DRAW)
    assert match.legal_actions() == (PASS,)
    match.apply(PASS)
    assert match.turn == 2 and match.round_number == 1


def test_drawing_while_holding_a_playable_tile_is_trampa() -> None:
    match = crafted_match(PR, ["6-6 0-1 0-2 0-3 0-4 0-5 0-0", "6-1 1-2 1-3 1-4 1-5 2-2 2-3"])
    match.apply(play("play 6-6"))
    with pytest.raises(IllegalAction, match=r"you must play a tile you hold \(1-6 fits\)"):
        match.apply(DRAW)
    with pytest.raises(IllegalAction, match="cannot pass while you hold a tile that fits"):
        match.apply(PASS)


def test_voluntary_draw_allows_drawing_with_a_playable_tile() -> None:
    rules = msgspec.structs.replace(PR, voluntary_draw=True)
    match = crafted_match(rules, ["6-6 0-1 0-2 0-3 0-4 0-5 0-0", "6-1 1-2 1-3 1-4 1-5 2-2 2-3"])
    match.apply(play("play 6-6"))
    assert DRAW in match.legal_actions()
    match.apply(DRAW)
    assert match.turn == 1


def test_each_illegal_reason_is_named_and_changes_nothing() -> None:
    match = crafted_match(PR, ["6-6 0-1 0-2 0-3 0-4 0-6 0-0", "6-1 1-2 1-3 1-4 1-5 2-2 2-3"])
    match.apply(play("play 6-6"))
    before = snapshot(match)
    cases = [
        (play("play 1-6 left"), 0, "not your turn"),
        (play("play 0-1 left"), None, "you do not hold 0-1"),
        (play("play 2-3 left"), None, "2-3 matches neither open end"),
        (play("play 9-9 left"), None, "no 9-9 in a double-6 set"),
    ]
    for action, seat, words in cases:
        with pytest.raises(IllegalAction, match=words) as info:
            match.apply(action, seat)
        assert info.value.action == action
        assert snapshot(match) == before
    match.apply(play("play 1-6 right"))
    with pytest.raises(IllegalAction, match=r"does not match the right end \(1\)"):
        match.apply(play("play 0-6 right"))
    assert play("play 0-6 left") in match.legal_actions()


def test_no_drawing_in_a_partners_game() -> None:
    rules = Rules.preset_named("puerto-rican-partners")
    hands = [
        "6-6 0-0 0-1 0-2 0-3 0-4 0-5",
        "1-1 1-2 1-3 1-4 1-5 2-2 2-3",
        "2-4 2-5 3-3 3-4 3-5 4-4 4-5",
        "5-5 0-6 1-6 2-6 3-6 4-6 5-6",
    ]
    match = crafted_match(rules, hands)
    match.apply(play("play 6-6"))
    with pytest.raises(IllegalAction, match="no drawing in this game"):
        match.apply(DRAW)
    assert match.legal_actions() == (PASS,)
    assert match.apply(PASS) == (Passed(1, 6, 6),)


def test_max_draws_per_turn_then_pass() -> None:
    rules = msgspec.structs.replace(Rules.preset_named("draw"), max_draws_per_turn=2)
    match = crafted_match(
        rules, ["6-6 0-1 0-2 0-3 0-4 0-5 0-0", "1-1 1-2 1-3 1-4 1-5 2-2 2-3"], stock="2-4 2-5 3-3"
    )
    match.apply(play("play 6-6"))
    match.apply(DRAW)
    match.apply(DRAW)
    with pytest.raises(IllegalAction, match="drawn 2 tiles this turn, the most allowed"):
        match.apply(DRAW)
    assert match.legal_actions() == (PASS,)
    match.apply(PASS)
    assert match.turn == 0


def test_domino_ends_the_round_reveals_hands_and_scores() -> None:
    rules = msgspec.structs.replace(PR, hand_sizes=(2, 2, 2), target=5)
    match = crafted_match(rules, ["6-6 6-5", "0-1 0-2"], stock="3-3 4-6")
    match.apply(play("play 6-6"))
    match.apply(DRAW)  # seat 1 holds no 6: 3-3 does not fit either
    match.apply(DRAW)
    match.apply(play("play 4-6 right"))
    ended = match.apply(play("play 5-6 left"))
    assert isinstance(ended[1], RoundEnded) and isinstance(ended[2], MatchEnded)
    first = ended[1].result
    assert (first.reason, first.last_player, first.last_tile) == (Outcome.DOMINO, 0, Tile(5, 6))
    loser_hand = (Tile(0, 1), Tile(0, 2), Tile(3, 3))
    assert first.hands == ((), loser_hand) and match.view(0).results[0].hands[1] == loser_hand
    # docs/RULES.md: the lowest count (0) scores the others' counts minus its own.
    assert first.pip_counts == (0, 9)
    assert (first.winner, first.points, first.bonuses, first.scores) == (0, 9, (), (9, 0))
    assert match.scores == [9, 0] and match.winner == 0


def test_going_out_with_a_tile_that_fits_both_ends_is_a_capicu() -> None:
    rules = msgspec.structs.replace(Rules.preset_named("quinientos"), hand_sizes=(2, 2, 2))
    match = crafted_match(rules, ["6-6 2-5", "1-6 0-0", "5-6 0-3", "1-2 0-4"])
    for text in ("play 6-6", "play 1-6 left", "play 5-6 right", "play 1-2 left"):
        match.apply(play(text))
    assert match.view(0).ends == (2, 5)
    ended = match.apply(play("play 2-5 right"))[1]
    assert isinstance(ended, RoundEnded)
    result = ended.result
    assert (result.reason, result.winner) == (Outcome.DOMINO, 0)
    assert result.bonuses == ((Bonus.CAPICU, 100), (Bonus.ROUND, 100))
    assert result.points == 0 + 3 + 4 + 200


def test_going_out_with_the_lead_is_no_capicu() -> None:
    # The lead has no open end to choose between, whatever tile it is.
    rules = msgspec.structs.replace(
        PR, hand_sizes=(1, 1, 1), first_lead=FirstLead.RANDOM, capicu_bonus=50, target=200
    )
    match = crafted_match(rules, ["2-5", "0-1"])
    ended = match.apply(play("play 2-5"))[1]
    assert isinstance(ended, RoundEnded)
    assert (ended.result.reason, ended.result.winner, ended.result.bonuses) == (Outcome.DOMINO, 0, ())


@pytest.mark.parametrize(
    ("second_hand", "last", "ends", "bonuses"),
    [
        # A double on equal ends fits "both" of them, but docs/RULES.md: a capicú is not a double.
        ("2-3 3-4 5-6", "4-4", (4, 4), ()),
        # Any other tile that could go on either end is one, equal ends or not.
        ("2-3 3-4 5-6", "4-5", (4, 4), ((Bonus.CAPICU, 100),)),
        ("2-3 3-5 6-6", "4-5", (4, 5), ((Bonus.CAPICU, 100),)),
        # A tile that fits one end only is not.
        ("2-3 0-3 5-6", "4-5", (4, 0), ()),
    ],
)
def test_capicu_is_found_in_play(
    second_hand: str, last: str, ends: tuple[int, int], bonuses: tuple[tuple[Bonus, int], ...]
) -> None:
    rules = msgspec.structs.replace(
        PR, hand_sizes=(3, 3, 3), first_lead=FirstLead.RANDOM, capicu_bonus=100, target=500
    )
    match = crafted_match(rules, [f"1-2 1-4 {last}", second_hand])
    second = second_hand.split()
    for text in ("play 1-2", f"play {second[0]} right", "play 1-4 left", f"play {second[1]} right"):
        match.apply(play(text))
    assert match.view(0).ends == ends
    ended = match.apply(play(f"play {last} left"))[1]
    assert isinstance(ended, RoundEnded)
    result = ended.result
    assert (result.reason, result.winner, result.bonuses) == (Outcome.DOMINO, 0, bonuses)
    left_over = Tile.parse(second[2]).pips
    assert result.points == left_over + sum(points for _, points in bonuses) == match.scores[0]


def test_tranque_is_declared_as_soon_as_nobody_can_play() -> None:
    # Nothing can be drawn and nobody holds a 6 after the lead: the round is
    # blocked at once, without waiting for each forced pass.
    rules = msgspec.structs.replace(PR, hand_sizes=(2, 2, 2), drawing=False, target=50)
    match = crafted_match(rules, ["6-6 0-1", "2-3 4-5"])
    events = match.apply(play("play 6-6"))
    ended = events[1]
    assert isinstance(ended, RoundEnded)
    result = ended.result
    assert (result.reason, result.last_player, result.last_tile) == (Outcome.TRANQUE, 0, Tile(6, 6))
    assert result.pip_counts == (1, 14)
    assert (result.winner, result.points) == (0, 13)
    assert match.round_number == 2


def test_no_tranque_while_tiles_can_be_drawn_even_on_a_closed_line() -> None:
    # The default preset: seven 6s laid, both ends 6, nobody holds a tile that fits, and the
    # boneyard still has 12 tiles that can be drawn. docs/RULES.md: no tranque until they are.
    match = crafted_match(PR, ["6-6 0-1 2-6 3-6 4-5 0-0 1-1", "1-6 0-6 2-3 4-6 5-6 2-2 3-3"])
    plays = ["play 6-6", "play 1-6 left", "play 0-1 left", "play 0-6 left", "play 2-6 right",
             "play 2-3 right", "play 3-6 right", "play 4-6 right", "play 4-5 right", "play 5-6 right"]
    for text in plays:
        assert len(match.apply(play(text))) == 1
    assert match.view(None).ends == (6, 6) and match.view(None).drawable == 12
    for drawable in range(12, 1, -1):
        assert (match.turn, match.legal_actions(), match.view(None).drawable) == (0, (DRAW,), drawable)
        assert match.apply(DRAW) == (TilesDrawn(0, 1, 6, 6),)
    ended = match.apply(DRAW)
    assert isinstance(ended[1], RoundEnded)
    result = ended[1].result
    assert (result.reason, result.last_player, result.last_tile) == (Outcome.TRANQUE, 1, Tile(5, 6))
    assert len(result.hands[0]) == 14 and result.hands[1] == (Tile(2, 2), Tile(3, 3))
    assert (result.winner, result.points) == (1, result.pip_counts[0] - 10)


def test_round_and_match_end_events() -> None:
    rules = msgspec.structs.replace(PR, target=1)
    match = Match(rules, 2, seed=11)
    events: list[object] = []
    last_legal: tuple[object, ...] = ()
    while not match.is_over:
        last_legal = legal(match)
        events.extend(match.apply(legal(match)[0]))
    for action in last_legal:  # what was legal a moment ago is not legal now
        with pytest.raises(IllegalAction, match="the match is over"):
            match.apply(action)  # type: ignore[arg-type]
    assert isinstance(events[-1], MatchEnded)
    assert isinstance(events[-2], RoundEnded)
    with pytest.raises(IllegalAction, match="the match is over"):
        match.apply(DRAW)
    assert match.legal_actions() == ()
    assert match.view(0).turn is None


def test_winner_leads_next_round_with_any_tile() -> None:
    match = Match(PR, 3, seed=2)
    while match.round_number == 1:
        match.apply(legal(match)[-1])
    result = match.results[0]
    started = match.view(None).events[0]
    assert isinstance(started, RoundStarted)
    assert result.winner is not None  # (this seed's round has a winner)
    assert (started.leader, started.forced_lead) == (result.winner, None)
    assert len(match.legal_actions()) > 2  # any tile, on the empty line


def _first_round_tied_and_led_elsewhere(players: int, reason: Outcome, seeds: range) -> Match:
    """A default-preset match whose first round, ended by ``reason``, nobody won, and whose next
    holder of the highest double is neither that round's leader nor its last player (so no
    other rule would give that seat the lead)."""
    for seed in seeds:
        match = Match(PR, players, seed=seed)
        first_leader = match.leader
        while match.round_number == 1 and not match.is_over:
            match.apply(legal(match)[0])
        if match.is_over:
            continue
        result = match.results[0]
        if (result.winner, result.reason) == (None, reason) and match.leader not in (
            first_leader, result.last_player
        ):
            return match
    pytest.fail(f"no such tied round in seeds {seeds}")


# A domino ties too: the player who went out counts 0, and so does a hand holding only 0-0.
@pytest.mark.parametrize(
    ("players", "reason"), [(2, Outcome.TRANQUE), (2, Outcome.DOMINO), (3, Outcome.TRANQUE)]
)
def test_after_a_tie_the_highest_double_leads_with_it(players: int, reason: Outcome) -> None:
    match = _first_round_tied_and_led_elsewhere(players, reason, range(1500))
    tied = match.results[0]
    assert tied.pip_counts.count(min(tied.pip_counts)) > 1
    assert tied.points == 0 and match.scores == [0] * players
    hands = [set(match.tiles.tiles_in(hand)) for hand in match.state.hands]
    double = next(Tile(n, n) for n in range(6, -1, -1) if any(Tile(n, n) in hand for hand in hands))
    holder = next(seat for seat, hand in enumerate(hands) if double in hand)
    started = match.view(None).events[0]
    assert isinstance(started, RoundStarted) and started.round_number == 2
    assert (started.leader, started.forced_lead, match.turn) == (holder, double, holder)
    assert match.legal_actions() == (Play(double, End.LEFT),)


def test_tranque_last_player_leads_option() -> None:
    rules = msgspec.structs.replace(PR, tranque_last_player_leads=True)
    for seed in range(60):
        match = Match(rules, 3, seed=seed)
        while match.round_number == 1:
            match.apply(legal(match)[0])
        if match.results[0].reason is Outcome.TRANQUE:
            assert match.leader == match.results[0].last_player
            return
    pytest.fail("no tranque in 60 seeded rounds")


def test_partners_tie_gives_the_lead_to_the_previous_leader() -> None:
    rules = Rules.preset_named("puerto-rican-partners")
    for seed in range(300):
        match = Match(rules, 4, seed=seed)
        first_leader = match.leader
        while match.round_number == 1:
            match.apply(legal(match)[0])
        if match.results[0].winner is None:
            assert match.leader == first_leader
            assert match.view(None).forced_lead is None
            return
    pytest.fail("no tied round in 300 seeded rounds")


def test_parse_action_round_trips_and_rejects_nonsense() -> None:
    for text in ("play 3-5 left", "play 3-5 right", "draw", "pass"):
        assert str(parse_action(text)) == text
    assert parse_action("play 5-3") == Play(Tile(3, 5), End.LEFT)
    for bad in ("", "play", "play 3-5 up", "dance", "play x-y", "play 3-5-1", "a" * 100):
        with pytest.raises(ValueError):
            parse_action(bad)


@pytest.mark.parametrize("text", [
    "play 0-6 left as \u0663",  # an Arabic-Indic three
    "run \uff11\uff12-\uff11 \uff11-\uff12",  # fullwidth 12-1 1-2
    "play \u0663-5 left", "play 3-5 train \u0663", "play 3-5 left as \u00b2", "play 3-\u2075",
])
def test_an_action_is_written_with_ascii_digits_only(text: str) -> None:
    with pytest.raises(ValueError):
        parse_action(text)
    for tile in ("\uff11\uff12-\uff11", "\u0663-5", "3-\u2075"):
        with pytest.raises(ValueError):
            Tile.parse(tile)


def test_same_seed_same_match_and_log_rebuilds_it() -> None:
    def run(seed: int) -> Match:
        match = Match(Rules.preset_named("drawing-game"), 4, seed=seed)
        while not match.is_over:
            actions = legal(match)
            match.apply(actions[len(actions) // 2])
        return match

    a, b = run(7), run(7)
    assert a.log() == b.log()
    assert Match.from_log(a.log()).log() == a.log()
    assert run(8).log() != a.log()


def test_damaged_logs_are_refused_with_a_reason() -> None:
    match = Match(PR, 2, seed=3)
    match.apply(match.legal_actions()[0])
    log = match.log()
    bad_action = {**log, "entries": [*log["entries"], "play 9-9 left"]}
    with pytest.raises(ValueError, match="entry"):
        Match.from_log(bad_action)
    bad_deal = {**log, "entries": [{"deal": [0, 0, 0], "seat": 0}, *log["entries"][1:]]}
    with pytest.raises(ValueError, match="not a shuffle"):
        Match.from_log(bad_deal)
    # A players count changed by hand: the deal's leader is no seat of the match, said so.
    led_by_third = next(seed for seed in range(50)
                        if Match(PR, 3, seed=seed).log()["entries"][0]["seat"] == 2)
    three = Match(PR, 3, seed=led_by_third)
    with pytest.raises(ValueError, match=r"deal 1 of the log is led by seat 3, but the match has 2 players"):
        Match.from_log({**three.log(), "players": 2})
    for junk in (None, {}, {"format": "capicu-log/1"}, {**log, "rules": {"target": -1}}):
        with pytest.raises(ValueError):
            Match.from_log(junk)


# -- pausing between rounds ------------------------------------------------------


def _to_round_end(match: Match, pick: int = 0) -> tuple[object, ...]:
    """Play until an action ends the round; that action's events."""
    while True:
        actions = legal(match)
        events = match.apply(actions[pick % len(actions)])
        if any(isinstance(e, RoundEnded) for e in events):
            return events


def test_a_paused_match_shows_the_finished_round_until_the_next_deal() -> None:
    match = Match(PR, 3, seed=4, pause_between_rounds=True)
    twin = Match(PR, 3, seed=4)
    events = _to_round_end(match)
    twin_events = _to_round_end(twin)
    assert isinstance(events[-1], RoundEnded)
    assert twin_events[: len(events)] == events and isinstance(twin_events[-1], RoundStarted)
    assert match.awaiting_deal and not match.is_over and not twin.awaiting_deal
    assert match.turn is None and match.legal_actions() == ()
    result = events[-1].result
    for seat in (0, 1, None):
        view = match.view(seat)
        assert view.between_rounds and not twin.view(seat).between_rounds
        assert (view.turn, view.winner, view.legal) == (None, None, ())
        assert view.round_number == 1 and view.events[-1] == events[-1]
        assert isinstance(view.events[0], RoundStarted)
        assert view.hand_counts == tuple(len(h) for h in result.hands)
        assert view.line and view.ends == (view.line[0][0], view.line[-1][1])
        assert view.results == (result,)
    assert match.view(0).hand == result.hands[0]
    for action in (DRAW, PASS, *twin.legal_actions()):
        before = match.log()
        for seat in (None, 0, 1, 2):
            with pytest.raises(IllegalAction):
                match.apply(action, seat)
        assert match.log() == before
    dealt = match.deal_next_round()
    assert dealt == twin_events[len(events):]
    assert not match.awaiting_deal and match.turn == twin.turn == match.leader
    assert match.view(1) == twin.view(1)
    with pytest.raises(RuntimeError, match="no round awaits its deal"):
        match.deal_next_round()


def test_the_round_that_ends_the_match_does_not_pause() -> None:
    match = Match(msgspec.structs.replace(PR, target=1), 2, seed=11, pause_between_rounds=True)
    while not match.is_over:
        if match.awaiting_deal:
            match.deal_next_round()
        else:
            match.apply(legal(match)[0])
    assert not match.awaiting_deal and match.view(0).turn is None
    assert not match.view(0).between_rounds and match.view(0).match_over


def test_the_log_records_the_pause_and_replays_a_log_cut_during_a_break() -> None:
    assert "pause_between_rounds" not in Match(PR, 2, seed=1).log()
    match = Match(PR, 2, seed=1, pause_between_rounds=True)
    _to_round_end(match)
    log = match.log()
    assert log["pause_between_rounds"] is True
    cut = Match.from_log(log)
    assert cut.awaiting_deal and cut.log() == log and cut.view(0) == match.view(0)
    match.deal_next_round()
    cut.deal_next_round()
    assert cut.log() == match.log()
    match.apply(match.legal_actions()[0])
    replayed = Match.from_log(match.log())
    assert not replayed.awaiting_deal and replayed.view(1) == match.view(1)
    # Without its deal, an action after the round's end cannot be replayed.
    entries = log["entries"]
    no_deal = {**log, "entries": [*entries, match.log()["entries"][-1]]}
    with pytest.raises(ValueError, match="cannot be replayed"):
        Match.from_log(no_deal)
    with pytest.raises(ValueError, match="pause_between_rounds"):
        Match.from_log({**log, "pause_between_rounds": "yes"})


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**31), picks=st.lists(st.integers(0, 50), min_size=1, max_size=30),
       preset=st.sampled_from(["puerto-rican-drawing", "drawing-game", "puerto-rican-partners"]))
def test_pausing_changes_only_when_the_next_deal_comes(seed: int, picks: list[int], preset: str) -> None:
    rules = msgspec.structs.replace(Rules.preset_named(preset), target=60)
    players = 4 if preset != "puerto-rican-drawing" else 3
    plain = Match(rules, players, seed=seed)
    paused = Match(rules, players, seed=seed, pause_between_rounds=True)
    plain_events, paused_events = list(plain.opening_events), list(paused.opening_events)
    step = 0
    while not plain.is_over:
        actions = legal(plain)
        action = actions[picks[step % len(picks)] % len(actions)]
        step += 1
        plain_events.extend(plain.apply(action))
        paused_events.extend(paused.apply(action))
        if paused.awaiting_deal:
            assert isinstance(paused_events[-1], RoundEnded) and paused.view(None).between_rounds
            paused_events.extend(paused.deal_next_round())
        assert paused_events == plain_events and paused.view(0) == plain.view(0)
    assert paused.is_over and paused.scores == plain.scores
    assert Match.from_log(paused.log()).log() == paused.log()
    assert paused.log()["entries"] == plain.log()["entries"]


# -- a log cut anywhere (a journal torn by a crash) ------------------------------


def test_a_log_cut_right_after_a_round_ends_replays_with_the_seeds_next_deal() -> None:
    match = Match(PR, 2, seed=5)
    _to_round_end(match)
    entries = match.log()["entries"]
    assert isinstance(entries[-1], dict)  # the next round's deal, written after the action
    cut = {**match.log(), "entries": entries[:-1]}
    resumed = Match.from_log(cut)
    assert resumed.log() == match.log() and resumed.view(0) == match.view(0)
    action = match.legal_actions()[0]
    assert resumed.apply(action) == match.apply(action)


def _shuffles(rng: random.Random, count: int, tile_count: int) -> list[tuple[list[int], int]]:
    """Deals for a log that did not come from its seed; the first has no double in the hands
    of a double-leading preset, so the log starts with a deal dealt again."""
    doubles = set(tile_set(6).double_of)
    deals = []
    for _ in range(count):
        order = list(range(tile_count))
        rng.shuffle(order)
        deals.append((order, rng.randrange(4)))
    first = deals[0][0]
    deals[0] = ([t for t in first if t not in doubles] + [t for t in first if t in doubles], deals[0][1])
    return deals


RESUMED_GAMES = [
    (name, players)
    for name in PRESET_NAMES
    for players in range(Rules.preset_named(name).min_players, Rules.preset_named(name).max_players + 1)
]


@settings(max_examples=30, deadline=None)
@given(game=st.sampled_from(RESUMED_GAMES), seed=st.integers(0, 2**32), pause=st.booleans(),
       logged_deals=st.booleans(), picks=st.lists(st.integers(0, 50), min_size=1, max_size=20))
def test_a_log_cut_anywhere_resumes(
    game: tuple[str, int], seed: int, pause: bool, logged_deals: bool, picks: list[int]
) -> None:
    name, players = game
    rules = msgspec.structs.replace(Rules.preset_named(name), target=40)
    rng = random.Random(seed)
    deals = _shuffles(rng, 6, rules.tile_count) if logged_deals else None
    if deals:
        deals = [(order, seat % players) for order, seat in deals]
    match = Match(rules, players, seed, deals=deals, pause_between_rounds=pause)
    step = 0
    while not match.is_over and len(match.results) < 3:
        if match.awaiting_deal:
            match.deal_next_round()
        else:
            actions = legal(match)
            match.apply(actions[picks[step % len(picks)] % len(actions)])
            step += 1
    whole = match.log()
    entries = whole["entries"]
    for cut in range(len(entries) + 1):
        resumed = Match.from_log({**whole, "entries": entries[:cut]})
        replayed = resumed.log()["entries"]
        # The prefix as it was, then only the deals a round that has started needs.
        assert replayed[:cut] == entries[:cut]
        assert all(isinstance(entry, dict) for entry in replayed[cut:])
        if not logged_deals:  # every deal follows from the seed: the same match, cut
            assert replayed == entries[: len(replayed)]
        # The resumed match plays on.
        if resumed.is_over:
            assert cut == len(entries) and match.is_over
        elif resumed.awaiting_deal:
            assert isinstance(resumed.deal_next_round()[0], RoundStarted)
        else:
            resumed.apply(resumed.legal_actions()[-1])
        assert Match.from_log(resumed.log()).log() == resumed.log()
