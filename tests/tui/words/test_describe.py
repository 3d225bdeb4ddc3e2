"""Events, round results, refusals, hints and rules in words."""

from __future__ import annotations

import re

import msgspec
import pytest
from capicu.core import (
    DRAW,
    PASS,
    PRESET_NAMES,
    Bonus,
    End,
    Event,
    Match,
    MatchEnded,
    Outcome,
    Passed,
    Play,
    RoundEnded,
    RoundResult,
    RoundStarted,
    RuleFact,
    Rules,
    Tile,
    TilePlayed,
    TilesDrawn,
    View,
    parse_action,
)
from capicu.core.ai.hints import Hint, HintReason
from capicu.core.draw.refusals import CODES, PARAMS, DrawRefusal
from capicu.core.rules import RulesError
from capicu.net.client import LinkEnd
from capicu.net.protocol import ErrorCode
from capicu.tui.words.describe import (
    HINT_EVIDENCE,
    HINT_REASONS,
    REFUSALS,
    describe_action_refused,
    describe_event,
    describe_hint_reasons,
    describe_my_draw,
    describe_refusal,
    describe_result,
    display_text,
    seat_name,
)
from capicu.tui.words.describe_rules import RULE_SENTENCES, describe_rules
from capicu.tui.words.messages import default_language, placeholders, set_ascii, t
from helpers_core import crafted_match
from hypothesis import given
from hypothesis import strategies as st

NAMES = ["Ana", "Beto", "Carmen", "Dolo"]


def test_plays_draws_and_passes_name_the_player_or_you() -> None:
    played = TilePlayed(1, Tile(3, 5), End.LEFT, 3, 6)
    assert describe_event(played, NAMES, 0) == "Beto plays 3-5 on the left."
    assert describe_event(played, NAMES, 1) == "You play 3-5 on the left."
    assert describe_event(TilesDrawn(2, 3, 1, 4), NAMES, 0) == "Carmen drew 3 tiles."
    assert describe_event(TilesDrawn(2, 1, 1, 4), NAMES, 0) == "Carmen drew a tile."
    assert describe_event(TilesDrawn(0, 3, 1, 4), NAMES, 0) == "You drew 3 tiles."
    assert describe_event(Passed(3, 1, 4), NAMES, None) == "Dolo passes (paso)."


def test_the_drawer_is_told_which_tiles_came() -> None:
    assert describe_my_draw([Tile(3, 3)]) == "You drew 3-3."
    assert describe_my_draw([Tile(4, 5), Tile(2, 2)]) == "You drew 4-5 and 2-2."
    assert describe_my_draw([Tile(4, 5), Tile(2, 2), Tile(0, 1)]) == "You drew 4-5, 2-2 and 0-1."
    assert describe_my_draw([]) == "You drew no tile."
    # Everybody else only learns how many.
    assert describe_event(TilesDrawn(1, 2, 3, 4), ["Ana", "Pepe"], 0) == "Pepe drew 2 tiles."


#: Refusals worded with a count (their forms come from the catalogue's plural rule).
COUNTED_REFUSALS = {DrawRefusal.RESERVE_REACHED, DrawRefusal.DRAW_LIMIT}


def test_every_refusal_has_a_sentence_filled_from_its_params() -> None:
    assert set(REFUSALS) | COUNTED_REFUSALS == set(CODES)
    for reason in CODES:
        allowed = PARAMS[reason] | ({"name"} if "seat" in PARAMS[reason] else set())
        if reason in REFUSALS:
            assert placeholders(REFUSALS[reason]) <= allowed, (reason, allowed)
        params = {name: 1 if name != "tile" else "2-3" for name in PARAMS[reason]}
        if "end" in params:
            params["end"] = "left"
        text = describe_refusal(reason, params, ["Ana", "Pepe"], 0)
        assert text and "{" not in text and "<" not in text, (reason, text)


def _two_seats_after_the_lead() -> list[View]:
    match = crafted_match(Rules.preset_named("puerto-rican-drawing"),
                          ["6-6 0-1 0-2 0-3 0-4 0-6 0-0", "5-6 1-2 1-3 1-4 1-5 2-2 2-3"])
    match.apply(parse_action("play 6-6"))
    return [match.view(0), match.view(1), match.view(None)]


def test_refused_keys_say_the_engines_reason_in_words() -> None:
    mine, theirs, watching = _two_seats_after_the_lead()
    names = ["Pepe", "Ana"]
    said = describe_action_refused
    assert said(theirs, DRAW, names) == "You hold a tile that fits (5-6), so you cannot draw."
    assert said(theirs, PASS, names) == "You hold a tile that fits (5-6), so you cannot pass."
    assert said(theirs, parse_action("play 2-3"), names) == "2-3 does not fit: both ends are 6."
    assert describe_action_refused(mine, DRAW, names) == "Not your turn: Ana is playing."
    assert describe_action_refused(watching, DRAW, names) == "You are watching: spectators do not play."
    assert describe_action_refused(theirs, parse_action("play 5-6"), names) == ""


def test_refusal_sentences_word_ends_plurals_and_hostile_params() -> None:
    names = ["Ana", "Pepe"]
    assert describe_refusal("wrong-end", {"tile": "0-6", "end": "right", "number": 1}, names) == (
        "0-6 does not fit the right end (1).")
    assert describe_refusal("fits-neither-end", {"tile": "0-0", "left": 3, "right": 5}, names) == (
        "0-0 fits neither end (3 or 5).")
    assert describe_refusal("draw-limit", {"count": 1}, names) == (
        "You have drawn a tile this turn, the most allowed.")
    assert describe_refusal("draw-limit", {"count": 2}, names) == (
        "You have drawn 2 tiles this turn, the most allowed.")
    assert describe_refusal("reserve-reached", {"reserve": 2}, names) == (
        "Only the last 2 tiles of el pozo are left, and they are never drawn.")
    assert describe_refusal("no-such-code", {}, names) == "That is not allowed now."
    assert describe_refusal("not-held", {"tile": "\x1b[2J3-5"}, names) == "You do not hold 3-5."
    assert describe_refusal("not-your-turn", {"seat": 7}, names) == "Not your turn: seat 8 is playing."


def test_the_first_tile_of_a_round_is_told_as_the_lead() -> None:
    lead = TilePlayed(2, Tile(6, 6), End.LEFT, 6, 6)
    assert describe_event(lead, NAMES, 0, lead=True) == "Carmen leads with 6-6."
    assert describe_event(lead, NAMES, 2, lead=True) == "You lead with 6-6."
    played = TilePlayed(0, Tile(6, 3), End.RIGHT, 6, 3)
    assert describe_event(played, NAMES, 0) == "You play 3-6 on the right."


def test_round_start_says_who_leads_and_a_forced_lead() -> None:
    event = RoundStarted(2, 1, (7, 7, 7), 7, Tile(6, 6), redeals=1)
    text = describe_event(event, NAMES, 0)
    assert "Round 2 starts. Beto leads." in text
    assert "Beto must lead with 6-6." in text
    assert "dealt again" in text
    assert "You must lead with 6-6." in describe_event(event, NAMES, 1)


def test_match_end_names_a_partnership_or_speaks_to_the_reader() -> None:
    partners = describe_event(MatchEnded(1, (120, 205)), NAMES, 0)
    assert partners == "Beto and Dolo win the match with 205 points."
    mine = describe_event(MatchEnded(1, (120, 205)), NAMES, 3)
    assert mine == "You and Beto win the match with 205 points!"
    assert describe_event(MatchEnded(1, (120, 205)), NAMES, None) == partners
    assert describe_event(MatchEnded(2, (1, 2, 70)), NAMES[:3], 0) == "Carmen wins the match with 70 points."
    assert describe_event(MatchEnded(2, (1, 2, 70)), NAMES[:3], 2) == "You win the match with 70 points!"


def test_names_are_cleaned_of_escape_sequences_and_controls() -> None:
    hostile = ["\x1b[2J\x1b]0;pwned\x07Eve\u202e\nX", ""]
    text = describe_event(Passed(0, 1, 2), hostile, None)
    assert text == "Eve X passes (paso)."
    assert seat_name(hostile, 1) == "seat 2"
    assert seat_name(hostile, 9) == "seat 10"
    assert display_text("a\tb\x00c\x9b31md") == "a bcd"


def _result(**changes: object) -> RoundResult:
    base = dict(
        round_number=1, reason=Outcome.DOMINO, last_player=0, last_tile=Tile(0, 0),
        hands=((), (Tile(3, 5), Tile(6, 6)), (Tile(1, 1),)), pip_counts=(0, 20, 2),
        side_counts=(0, 20, 2), winner=0, points=222, bonuses=((Bonus.CAPICU, 100), (Bonus.CHUCHAZO, 100)),
        scores=(222, 0, 0),
    )
    base.update(changes)
    return RoundResult(**base)  # type: ignore[arg-type]


def test_a_domino_names_the_player_hands_counts_bonuses_and_totals() -> None:
    rules = Rules.preset_named("puerto-rican-drawing")
    lines = describe_result(_result(), NAMES[:3], rules, 3)
    assert lines == [
        "Round 1: domino. Ana goes out with 0-0.",
        "Ana: out",
        "Beto: 3-5 6-6 = 20",
        "Carmen: 1-1 = 2",
        "Ana wins the round: 222 points.",
        "Ana has the lowest count (0) and scores the others' counts minus its own: 22.",
        "Capicú bonus: +100.",
        "Chuchazo bonus: +100.",
        "Ana: 222 in total.",
        "Beto: 0 in total.",
        "Carmen: 0 in total.",
    ]


def test_the_readers_own_round_speaks_to_them() -> None:
    rules = Rules.preset_named("puerto-rican-drawing")
    lines = describe_result(_result(), NAMES[:3], rules, 3, my_seat=0)
    assert lines[0] == "Round 1: domino. You go out with 0-0."
    assert "You: out" in lines
    assert "You win the round: 222 points." in lines
    assert "You have the lowest count (0) and score the others' counts minus yours: 22." in lines
    assert "You: 222 in total." in lines
    assert not any("You has" in line or "by You" in line or "You wins" in line for line in lines)


def test_another_seats_round_is_told_to_the_reader_in_the_third_person() -> None:
    rules = Rules.preset_named("puerto-rican-drawing")
    lines = describe_result(_result(), NAMES[:3], rules, 3, my_seat=1)
    assert lines[0] == "Round 1: domino. Ana goes out with 0-0."
    assert "You: 3-5 6-6 = 20" in lines
    assert "Ana wins the round: 222 points." in lines
    assert lines[-2] == "You: 0 in total."


def test_a_tranque_by_the_reader_and_the_hands_left_out() -> None:
    rules = Rules.preset_named("puerto-rican-drawing")
    result = _result(reason=Outcome.TRANQUE, last_player=2, last_tile=Tile(4, 6), winner=2, points=27,
                     bonuses=(), pip_counts=(9, 20, 2), side_counts=(9, 20, 2), scores=(0, 0, 27))
    lines = describe_result(result, NAMES[:3], rules, 3, my_seat=2, hands=False)
    assert lines[:3] == [
        "Round 1: tranque. You laid the last tile, 4-6.",
        "You win the round: 27 points.",
        "You have the lowest count (2) and score the others' counts minus yours: 27.",
    ]
    assert describe_event(RoundEnded(result), NAMES[:3], 2) == "Tranque! You blocked the game with 4-6."
    assert describe_event(RoundEnded(result), NAMES[:3], 0) == "Tranque! Carmen blocked the game with 4-6."


def test_a_tie_says_nobody_scores() -> None:
    rules = Rules.preset_named("puerto-rican-drawing")
    result = _result(reason=Outcome.TRANQUE, last_player=2, winner=None, points=0, bonuses=(),
                     side_counts=(5, 5, 9), scores=(0, 0, 0))
    for reader in (None, 0, 2):
        lines = describe_result(result, NAMES[:3], rules, 3, my_seat=reader)
        assert "Tie at 5: nobody scores this round." in lines
        assert not any("wins" in line or "win the" in line for line in lines)
    assert describe_result(result, NAMES[:3], rules, 3)[0] == (
        "Round 1: tranque. Carmen laid the last tile, 0-0.")
    assert describe_result(result, NAMES[:3], rules, 3, my_seat=2)[0] == (
        "Round 1: tranque. You laid the last tile, 0-0.")


def _partners_domino(**changes: object) -> RoundResult:
    base: dict[str, object] = dict(
        hands=((), (Tile(3, 5),), (Tile(1, 1),), (Tile(2, 2),)), pip_counts=(0, 8, 2, 4),
        last_tile=Tile(1, 3),
        side_counts=(2, 12), winner=0, points=114, bonuses=((Bonus.ROUND, 100),), scores=(114, 0),
    )
    base.update(changes)
    return _result(**base)


def test_partners_are_counted_and_scored_as_a_side() -> None:
    rules = Rules.preset_named("quinientos")
    lines = describe_result(_partners_domino(), NAMES, rules, 4)
    assert lines[0] == "Round 1: domino. Ana goes out with 1-3."
    assert "Ana and Carmen count 2." in lines and "Beto and Dolo count 12." in lines
    assert "Ana and Carmen win the round: 114 points." in lines
    assert "Ana and Carmen take the pips left in every hand: 14." in lines
    assert "Bonus for winning round 1: +100." in lines
    assert lines[-2:] == ["Ana and Carmen: 114 in total.", "Beto and Dolo: 0 in total."]


def test_partners_speak_to_the_reader_and_their_partner() -> None:
    rules = Rules.preset_named("quinientos")
    for reader, partner in ((0, "Carmen"), (2, "Ana")):
        lines = describe_result(_partners_domino(), NAMES, rules, 4, my_seat=reader)
        assert f"You and {partner} count 2." in lines
        assert f"You and {partner} win the round: 114 points." in lines
        assert f"You and {partner} take the pips left in every hand: 14." in lines
        assert lines[-2] == f"You and {partner}: 114 in total."
    opponents = describe_result(_partners_domino(), NAMES, rules, 4, my_seat=1)
    assert "You and Dolo count 12." in opponents
    assert "Ana and Carmen win the round: 114 points." in opponents
    assert opponents[-1] == "You and Dolo: 0 in total."


def test_a_partners_tranque_names_the_lightest_hand() -> None:
    rules = Rules.preset_named("puerto-rican-partners")
    result = _partners_domino(reason=Outcome.TRANQUE, last_player=1, winner=1, bonuses=(), points=14,
                              pip_counts=(5, 3, 2, 4), side_counts=(7, 7), scores=(0, 14))
    lines = describe_result(result, NAMES, rules, 4, my_seat=0)
    assert "Carmen holds the lightest hand (2)." not in lines  # Carmen is not on the winning side
    assert "Beto holds the lightest hand (3)." in lines
    assert "Beto and Dolo take the pips left in every hand: 14." in lines
    mine = describe_result(result, NAMES, rules, 4, my_seat=1)
    assert "You hold the lightest hand (3)." in mine
    assert "You and Dolo take the pips left in every hand: 14." in mine


def test_domino_takes_all_says_what_it_counts_alone_and_in_teams() -> None:
    rules = Rules.preset_named("draw")
    result = _result(bonuses=(), points=22, scores=(22, 0, 0))
    assert "Ana takes every pip left in the other hands: 22." in describe_result(result, NAMES[:3], rules, 3)
    assert "You take every pip left in the other hands: 22." in describe_result(
        result, NAMES[:3], rules, 3, my_seat=0)
    teams = msgspec.structs.replace(rules, partnerships=True)
    result = _partners_domino(bonuses=(), points=12, scores=(12, 0))
    assert "Ana and Carmen take the pips left in the other team's hands: 12." in describe_result(
        result, NAMES, teams, 4)
    assert "You and Ana take the pips left in the other team's hands: 12." in describe_result(
        result, NAMES, teams, 4, my_seat=2)


def test_lowest_count_in_teams_says_the_other_teams_count() -> None:
    rules = Rules.preset_named("drawing-game")
    result = _partners_domino(reason=Outcome.TRANQUE, bonuses=(), points=10, side_counts=(2, 12),
                              scores=(10, 0))
    assert ("Ana and Carmen have the lower count (2) and score the other team's count minus theirs: 10."
            in describe_result(result, NAMES, rules, 4))
    assert ("You and Carmen have the lower count (2) and score the other team's count minus yours: 10."
            in describe_result(result, NAMES, rules, 4, my_seat=0))


def test_the_bonuses_of_quinientos_are_named() -> None:
    rules = Rules.preset_named("quinientos")
    result = _partners_domino(last_tile=Tile(0, 0), points=314, round_number=2,
                              bonuses=((Bonus.CAPICU, 100), (Bonus.CHUCHAZO, 100), (Bonus.ROUND, 75)))
    lines = describe_result(result, NAMES, rules, 4, my_seat=0)
    assert lines[lines.index("You and Carmen take the pips left in every hand: 39."):][1:4] == [
        "Capicú bonus: +100.", "Chuchazo bonus: +100.", "Bonus for winning round 2: +75."]
    assert describe_event(RoundEnded(result), NAMES, 0) == "Domino! You go out with 0-0. ¡Capicú! ¡Chuchazo!"


def test_every_real_event_and_result_of_whole_matches_reads_as_words() -> None:
    for preset, players in (("puerto-rican-drawing", 3), ("quinientos", 4), ("draw", 2), ("drawing-game", 4)):
        rules = Rules.preset_named(preset)
        match = Match(rules, players, seed=11)
        events = list(match.opening_events)
        while not match.is_over:
            legal = match.legal_actions()
            plays = [a for a in legal if isinstance(a, Play)]
            events += match.apply(plays[-1] if plays else legal[0])
        assert isinstance(events[-1], MatchEnded)
        for event in events:
            text = describe_event(event, NAMES[:players], 0)
            assert text and "{" not in text and "<" not in text, (event, text)
            if isinstance(event, RoundEnded):
                for line in describe_result(event.result, NAMES[:players], rules, players):
                    assert line and "{" not in line and "<" not in line, line


def test_a_capicu_is_shouted() -> None:
    text = describe_event(RoundEnded(_result()), NAMES[:3], 1)
    assert text == "Domino! Ana goes out with 0-0. ¡Capicú! ¡Chuchazo!"


def test_ascii_mode_transliterates_sentences_and_names() -> None:
    set_ascii(True)
    try:
        text = describe_event(RoundEnded(_result()), ["José", "Beto", "Zoë"], 1)
        assert text == "Domino! Jose goes out with 0-0. Capicu! Chuchazo!"
        rules = Rules.preset_named("puerto-rican-drawing")
        lines = describe_result(_result(), ["José", "Beto", "Zoë"], rules, 3)
        assert all(line.isascii() for line in lines)
        assert t("Capicú bonus: +{points}.", points=3).isascii()
    finally:
        set_ascii(False)
    assert "ú" in describe_event(RoundEnded(_result()), NAMES[:3], 1)


_tiles = st.lists(st.builds(Tile, st.integers(0, 12), st.integers(0, 12)), max_size=4).map(tuple)
_ints = st.lists(st.integers(-5, 500), max_size=5).map(tuple)


@given(
    st.builds(
        RoundResult,
        round_number=st.integers(-1, 99),
        reason=st.sampled_from(list(Outcome)),
        last_player=st.integers(-2, 6),
        last_tile=st.builds(Tile, st.integers(0, 12), st.integers(0, 12)),
        hands=st.lists(_tiles, max_size=5).map(tuple),
        pip_counts=_ints,
        side_counts=_ints,
        winner=st.none() | st.integers(-2, 6),
        points=st.integers(-5, 500),
        bonuses=st.lists(st.tuples(st.sampled_from(list(Bonus)), st.integers(0, 200)), max_size=3).map(tuple),
        scores=_ints,
    ),
    st.sampled_from(["puerto-rican-drawing", "quinientos", "draw"]),
    st.lists(st.text(max_size=10), max_size=5),
)
def test_a_malformed_result_from_a_host_is_still_told_without_error(
    result: RoundResult, preset: str, names: list[str]
) -> None:
    rules = Rules.preset_named(preset)
    players = 4 if rules.partnerships else 3
    lines = describe_result(result, names, rules, players)
    assert lines and all(isinstance(line, str) for line in lines)
    assert describe_event(RoundEnded(result), names, 0)


_seat = st.integers(-3, 8)
_events = st.one_of(
    st.builds(RoundStarted, st.integers(-1, 99), _seat, _ints, st.integers(-1, 30),
              st.none() | st.builds(Tile, st.integers(0, 12), st.integers(0, 12)), st.integers(0, 5)),
    st.builds(TilePlayed, _seat, st.builds(Tile, st.integers(0, 12), st.integers(0, 12)),
              st.sampled_from(list(End)), st.integers(-1, 12), st.integers(-1, 12)),
    st.builds(TilesDrawn, _seat, st.integers(-1, 30), st.integers(-1, 12), st.integers(-1, 12)),
    st.builds(Passed, _seat, st.integers(-1, 12), st.integers(-1, 12)),
    st.builds(MatchEnded, _seat, _ints),
)


@given(_events, st.lists(st.text(max_size=10), max_size=5), st.none() | _seat, st.booleans())
def test_any_event_from_a_host_is_told_without_error(
    event: Event, names: list[str], my_seat: int | None, lead: bool
) -> None:
    assert describe_event(event, names, my_seat, lead=lead)


# -- the catalogue has a sentence for every code the engine speaks in -------------


def test_every_rule_fact_has_a_sentence_with_its_params() -> None:
    # The facts that count are worded with their plural forms in describe_fact.
    counted = {RuleFact.RESERVE, RuleFact.DRAW_LIMIT, RuleFact.DRAW_SEVERAL, RuleFact.ROUND_BONUSES,
               RuleFact.ROUND_PER_DOUBLE, RuleFact.FIRST_ROUNDS}
    assert set(RULE_SENTENCES) | counted == set(RuleFact)
    for code, sentence in RULE_SENTENCES.items():
        assert placeholders(sentence) == RuleFact(code).params, code


def test_every_hint_reason_has_a_phrase_with_its_params() -> None:
    assert set(HINT_REASONS) == set(HintReason)
    for code in HintReason:
        # A seat is named, not numbered.
        expected = {"name" if param == "seat" else param for param in code.params}
        # The advice may leave its figures out; asked again (the evidence), it gives them all.
        assert placeholders(HINT_REASONS[code]) <= expected, code
        assert placeholders(HINT_EVIDENCE.get(code, HINT_REASONS[code])) == expected, code


def test_the_rules_of_every_preset_read_as_sentences() -> None:
    for preset in PRESET_NAMES:
        rules = Rules.preset_named(preset)
        for players in range(rules.min_players, rules.max_players + 1):
            lines = describe_rules(rules, players)
            assert len(lines) == len(rules.facts(players))
            assert all(line and "{" not in line and "<" not in line for line in lines), lines
    lines = describe_rules(Rules.preset_named("quinientos"), 4)
    assert "Capicú (the last tile fits both ends and is not a double): +100." in lines
    assert "The winner of each of the match's first rounds earns a bonus, in order: 100, 75, 50, 25." in lines
    assert "The match is won by the first to reach 500 points." in lines
    plain = describe_rules(msgspec.structs.replace(Rules(), reserve=1, max_draws_per_turn=1, target=150), 2)
    assert "The last tile of the boneyard can never be drawn." in plain
    assert "At most one tile may be drawn in one turn, then the player passes." in plain
    assert "The match is won by the first to reach 150 points." in plain
    no_reserve = msgspec.structs.replace(Rules(), reserve=0)
    assert "The whole boneyard can be drawn." in describe_rules(no_reserve, 2)


def test_a_hint_reason_names_the_seat_it_is_about() -> None:
    hint = Hint(DRAW, (HintReason.KEEPS_SUIT(number=5), HintReason.BLOCKS_SEAT(seat=2, number=3)))
    assert describe_hint_reasons(hint, NAMES, 0) == "keeps your 5s; Carmen could not match 3"
    assert describe_hint_reasons(Hint(DRAW, (HintReason.MUST_DRAW(left=1, right=4),)), NAMES) == (
        "nothing you hold fits 1 or 4: draw")


def test_every_host_error_is_worded_from_its_code() -> None:
    from capicu.tui.words.describe import HOST_ERRORS, describe_host_error, describe_link_end

    assert set(HOST_ERRORS) == set(ErrorCode)
    assert describe_host_error(ErrorCode.BAD_CODE) == "That is not this table's join code."
    assert describe_host_error("from_a_newer_host") == "The host refused (from_a_newer_host)."
    # The client's reason when the host refused us carries the code, worded here.
    assert describe_link_end(LinkEnd.REFUSED, {"code": ErrorCode.NAME_TAKEN}) == (
        "Somebody at this table already has that name: choose another.")


def test_every_way_a_link_ends_is_worded_with_its_detail() -> None:
    from capicu.tui.words.describe import LINK_ENDS, describe_link_end

    assert set(LINK_ENDS) | {LinkEnd.REFUSED, LinkEnd.GAVE_UP, LinkEnd.HOST_BYE} == set(LinkEnd)
    assert describe_link_end(LinkEnd.HOST_SILENT) == "The host stopped answering."
    assert describe_link_end(LinkEnd.HOST_BYE, {"reason": "closed", "name": "Ana", "resumable": 0}) == (
        "Ana closed the table.")
    assert describe_link_end(LinkEnd.HOST_BYE, {"reason": "closed", "name": "", "resumable": 1}).startswith(
        "The host closed the table. Your seat is saved")
    assert describe_link_end(LinkEnd.UNREACHABLE, {"problem": "connection refused"}) == (
        "The host cannot be reached (connection refused).")
    assert describe_link_end(LinkEnd.UNREACHABLE, {"problem": ""}) == (
        "The host cannot be reached (no answer).")
    gave_up = {"seconds": 300, "last": LinkEnd.UNREACHABLE.value, "problem": "connection refused"}
    assert describe_link_end(LinkEnd.GAVE_UP, gave_up) == (
        "Gave up after 300 seconds of trying to reconnect. The host cannot be reached (connection refused).")
    assert describe_link_end("from_a_newer_client") == "The connection to the host was lost."
    default_language.switch("es")
    try:
        assert describe_link_end(LinkEnd.GAVE_UP, gave_up) == (
            "Se dejó de intentar volver tras 300 segundos. "
            "No se puede llegar al anfitrión (connection refused).")
    finally:
        default_language.switch("en")


def test_every_rules_problem_has_its_sentence_with_the_params_it_is_said_with() -> None:
    from capicu.core.rules import RulesProblem
    from capicu.tui.words.describe import RULES_PROBLEMS, describe_rules_problem

    assert set(RULES_PROBLEMS) | {RulesProblem.PLAYER_COUNT} == set(RulesProblem)
    for code, sentence in RULES_PROBLEMS.items():
        assert placeholders(sentence) <= RulesProblem(code).params, code
    with pytest.raises(RulesError) as refused:
        msgspec.structs.replace(Rules(), reserve=-1)
    worded = describe_rules_problem(refused.value.code, refused.value.params)
    assert worded == "reserve must be a whole number from 0 up, not -1."
    default_language.switch("es")
    try:
        assert describe_rules_problem(refused.value.code, refused.value.params) == (
            "reserve tiene que ser un número entero desde 0, no -1.")
        assert describe_rules_problem(RulesProblem.PLAYER_COUNT, {
            "preset": "quinientos", "low": 4, "high": 4, "players": 2}) == (
            "quinientos se juega con 4 jugadores exactos, no 2")
        assert describe_rules_problem(RulesProblem.NO_DOUBLE_DEALT, {"deals": 1001}) == (
            "Ningún reparto le dio un doble a nadie (1001 repartos seguidos): nadie puede salir en la "
            "primera mano.")
    finally:
        default_language.switch("en")


def test_every_reason_a_host_cannot_start_is_worded_with_its_detail() -> None:
    from capicu.net.host.server import HostProblem
    from capicu.tui.words.describe import HOST_PROBLEMS, describe_host_problem

    assert set(HOST_PROBLEMS) | {HostProblem.BESIDE} == set(HostProblem)
    listen = {"address": "127.0.0.1", "port": 7254, "problem": "Address already in use"}
    assert describe_host_problem(HostProblem.CANNOT_LISTEN, listen) == (
        "Cannot listen on 127.0.0.1 port 7254 (Address already in use).")
    assert describe_host_problem(HostProblem.CANNOT_LISTEN, {**listen, "address": ""}) == (
        "Cannot listen on every interface, port 7254 (Address already in use).")
    assert describe_host_problem(HostProblem.BESIDE, {"problem": "the SSH port is taken"}) == (
        "the SSH port is taken")
    default_language.switch("es")
    try:
        damaged = {"path": "m.jsonl", "problem": "line 3 is damaged"}
        assert describe_host_problem(HostProblem.JOURNAL, damaged) == (
            "No se puede leer el diario m.jsonl: line 3 is damaged")
    finally:
        default_language.switch("en")


async def test_a_headless_host_whose_port_is_taken_says_so_in_spanish(
    capsys: pytest.CaptureFixture[str],
) -> None:
    import asyncio

    from capicu.net import HostConfig
    from capicu.net.host.headless import serve_headless
    from capicu.tui.cli.commands import tell_operator
    from capicu.tui.words.messages import command_line_language

    taken = await asyncio.start_server(lambda r, w: None, "127.0.0.1", 0)
    try:
        port = taken.sockets[0].getsockname()[1]
        with command_line_language("es"):
            code = await asyncio.wait_for(
                serve_headless(HostConfig(bind="127.0.0.1", port=port), tell=tell_operator), 20
            )
    finally:
        taken.close()
    printed = capsys.readouterr()
    assert code == 2 and printed.out == ""
    assert printed.err.startswith(f"capicu: No se puede escuchar en 127.0.0.1, puerto {port} ("), printed.err


def test_the_error_codes_are_codes_whose_wire_values_are_the_protocol_pages() -> None:
    from pathlib import Path

    from capicu.core.codes import Code
    from capicu.tui.words.describe import HOST_ERRORS

    page = (Path(__file__).resolve().parents[3] / "docs" / "PROTOCOL.md").read_text(encoding="utf-8")
    table = page.split("## 7. Error codes", 1)[1].split("\n## ", 1)[0]
    listed = set(re.findall(r"^\| `([a-z_]+)` \|", table, re.M))
    assert {code.value for code in ErrorCode} == listed
    # Codes like the engine's: an interface words each from its code alone (none needs params).
    assert all(isinstance(code, Code) and code.params == frozenset() for code in ErrorCode)
    assert ErrorCode.SEAT_HELD() == ErrorCode.SEAT_HELD()
    assert set(HOST_ERRORS) == set(ErrorCode)


#: A value for every param a host's note is said with.
NOTE_PARAMS: dict[str, object] = {
    "address": "10.0.0.7", "unsent": 70_000, "path": "match.journal", "entries": 12, "line": 14,
    "dropped": 31, "lost": 2, "round": 3, "copy": "match.journal.torn-1",
    "seat": 2, "problem": "ValueError('no action')", "table": "main",
    "text": "an SSH session of 10.0.0.9 failed", "name": "Ana",
    # A history problem: its code (worded, not shown), the history's file and where it was set aside.
    "history": "set_aside", "file": "records/history.sqlite3", "detail": "records/history.damaged-1.sqlite3",
}


@pytest.mark.parametrize("language", ["en", "es"])
def test_every_note_of_a_running_host_is_worded_with_its_params(language: str) -> None:
    from capicu.net.host.server import HostNote
    from capicu.tui.words.describe import describe_host_note

    worded = {}
    default_language.switch(language)
    try:
        for code in HostNote:
            note = code(**{name: NOTE_PARAMS[name] for name in code.params})  # type: ignore[arg-type]
            sentence = describe_host_note(note.code, note.values)
            worded[code] = sentence
            assert "{" not in sentence and sentence, (code, sentence)
            for name, value in note.params:
                if name == "seat":
                    assert str(int(value) + 1) in sentence, (code, sentence)  # type: ignore[call-overload]
                elif name not in ("unsent", "entries", "history"):
                    assert str(value) in sentence, (code, name, sentence)
        assert "1 byte unsent" not in describe_host_note(HostNote.CUT_OFF, {"address": "x", "unsent": 2})
    finally:
        default_language.switch("en")
    if language == "es":
        assert "No se" not in worded[HostNote.CUT_OFF] and "cut off" not in worded[HostNote.CUT_OFF]
        assert "recuperad" in worded[HostNote.JOURNAL_CUT_SHORT], worded[HostNote.JOURNAL_CUT_SHORT]
    # A note from a newer host is shown as it came, not dropped.
    assert "later_note" in describe_host_note("later_note", {"seat": 1})


def test_lists_and_partners_are_joined_as_the_language_joins_them() -> None:
    from capicu.tui.words.describe import and_list, side_name

    assert and_list(["Ana", "Beto", "Carmen"]) == "Ana, Beto and Carmen"
    assert side_name(0, NAMES, 2, 4) == "Ana and Carmen"
    default_language.switch("es")
    try:
        assert and_list(["Ana", "Beto", "Carmen"]) == "Ana, Beto y Carmen"
        assert and_list(["Ana", "Beto"]) == "Ana y Beto"
        # The catalogue's own list joiner for a team, one form for labels and sentences.
        assert side_name(0, NAMES, 2, 4) == "Ana y Carmen"
        assert side_name(1, NAMES, 2, 4, my_seat=1) == "Tú y Dolo"
    finally:
        default_language.switch("en")


@pytest.mark.parametrize("language", ["en", "es"])
def test_every_reason_a_host_cannot_start_is_a_code_worded_with_its_declared_params(language: str) -> None:
    from capicu.core.codes import Code
    from capicu.net.host.server import HostError, HostProblem
    from capicu.tui.words.describe import describe_host_problem

    values = {"path": "m.journal", "problem": "Address already in use", "address": "10.0.0.7", "port": 7254}
    default_language.switch(language)
    try:
        for code in HostProblem:
            assert isinstance(code, Code) and code.params
            error = HostError("in English", code, **{name: values[name] for name in code.params})
            sentence = describe_host_problem(error.code, error.params)
            assert "{" not in sentence, sentence
            if "problem" in code.params:  # (another host holding the journal has no detail to give)
                assert "Address already in use" in sentence, sentence
    finally:
        default_language.switch("en")
    with pytest.raises(ValueError, match="problem"):
        HostError("in English", HostProblem.JOURNAL, path="m.journal")  # its problem left out


def test_a_hint_says_lead_on_an_empty_table_and_no_end_when_both_ends_match() -> None:
    from capicu.core import End, Play, Tile
    from capicu.tui.screens.draw_table import describe_action

    match = crafted_match(Rules.preset_named("puerto-rican-drawing"),
                          ["6-6 0-1 0-2 0-3 0-4 0-6 0-0", "5-6 1-2 1-3 1-4 1-5 2-2 2-3"])
    empty = match.view(0)
    assert describe_action(Play(Tile.parse("6-6"), End.LEFT), empty) == "lead 6-6"
    match.apply(parse_action("play 6-6"))
    both_six = match.view(1)
    # Either end is the same game: the hint names no end, so it cannot disagree with the Enter that plays it.
    assert describe_action(Play(Tile.parse("5-6"), End.RIGHT), both_six) == "play 5-6"


def test_a_hints_odds_are_said_plainly_and_the_figures_only_when_asked_again() -> None:
    hint = Hint(DRAW, (HintReason.BEST_ODDS(samples=667),))
    assert describe_hint_reasons(hint, NAMES) == "it gives the best chances"
    assert "667" in describe_hint_reasons(hint, NAMES, evidence=True)
    default_language.switch("es")
    try:
        plain = describe_hint_reasons(hint, NAMES)
        assert "667" not in plain and "muestra" not in plain
    finally:
        default_language.switch("en")


def test_a_mexican_train_winner_is_said_with_what_the_total_means_in_english_and_spanish() -> None:
    """Issue 31: "You win the match with 0." read as winning with nothing."""
    from capicu.tui.words.describe_trains import describe_train_winners

    assert describe_train_winners((0,), (0, 31), ["Ana", "Pepe"], 0) == (
        "You win the match with the lowest total: 0 points counted against you.")
    assert describe_train_winners((1,), (31, 1), ["Ana", "Pepe"], 0) == (
        "Pepe wins the match with the lowest total: 1 point counted against them.")
    default_language.switch("es")
    try:
        assert describe_train_winners((0,), (0, 31), ["Ana", "Pepe"], 0) == (
            "Ganas la partida con el total más bajo: 0 puntos en tu contra.")
    finally:
        default_language.switch("en")
