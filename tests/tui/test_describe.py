"""Events and round results in words."""

from __future__ import annotations

from capicu.core import (
    End,
    Event,
    Match,
    MatchEnded,
    Passed,
    Play,
    RoundEnded,
    RoundResult,
    RoundStarted,
    Rules,
    Tile,
    TilePlayed,
    TilesDrawn,
)
from capicu.tui.describe import describe_event, describe_events, describe_result, display_text, seat_name
from capicu.tui.messages import set_ascii, t
from hypothesis import given
from hypothesis import strategies as st

NAMES = ["Ana", "Beto", "Carmen", "Dolo"]


def test_plays_draws_and_passes_name_the_player_or_you() -> None:
    played = TilePlayed(1, Tile(3, 5), End.LEFT, 3, 6)
    assert describe_event(played, NAMES, 0) == "Beto plays 3-5 on the left."
    assert describe_event(played, NAMES, 1) == "You play 3-5 on the left."
    assert describe_event(TilesDrawn(2, 3, 1, 4), NAMES, 0) == "Carmen draws 3 tiles from el pozo."
    assert describe_event(TilesDrawn(2, 1, 1, 4), NAMES, 0) == "Carmen draws a tile from el pozo."
    assert describe_event(TilesDrawn(0, 3, 1, 4), NAMES, 0) == "You drew 3 tiles."
    assert describe_event(Passed(3, 1, 4), NAMES, None) == "Dolo passes (paso)."


def test_the_first_tile_of_a_round_is_told_as_the_lead() -> None:
    events: list[Event] = [
        RoundStarted(1, 2, (7, 7, 7), 7, Tile(6, 6)),
        TilePlayed(2, Tile(6, 6), End.LEFT, 6, 6),
        TilePlayed(0, Tile(6, 3), End.RIGHT, 6, 3),
    ]
    lines = describe_events(events, NAMES, 0)
    assert lines[1:] == ["Carmen leads with 6-6.", "You play 3-6 on the right."]
    assert describe_event(events[1], NAMES, 2, lead=True) == "You lead with 6-6."


def test_round_start_says_who_leads_and_a_forced_lead() -> None:
    event = RoundStarted(2, 1, (7, 7, 7), 7, Tile(6, 6), redeals=1)
    text = describe_event(event, NAMES, 0)
    assert "Round 2 starts. Beto leads." in text
    assert "Beto must lead with 6-6." in text
    assert "dealt again" in text
    assert "You must lead with 6-6." in describe_event(event, NAMES, 1)


def test_match_end_names_a_partnership() -> None:
    partners = describe_event(MatchEnded(1, (120, 205)), NAMES, 0)
    assert partners == "Team Beto & Dolo wins the match with 205 points."
    assert describe_event(MatchEnded(1, (120, 205)), NAMES, 3).startswith("You win")
    assert describe_event(MatchEnded(2, (1, 2, 70)), NAMES[:3], 0) == "Carmen wins the match with 70 points."


def test_names_are_cleaned_of_escape_sequences_and_controls() -> None:
    hostile = ["\x1b[2J\x1b]0;pwned\x07Eve\u202e\nX", ""]
    text = describe_event(Passed(0, 1, 2), hostile, None)
    assert text == "Eve X passes (paso)."
    assert seat_name(hostile, 1) == "seat 2"
    assert seat_name(hostile, 9) == "seat 10"
    assert display_text("a\tb\x00c\x9b31md") == "a bcd"


def _result(**changes: object) -> RoundResult:
    base = dict(
        round_number=1, reason="domino", last_player=0, last_tile=Tile(0, 0),
        hands=((), (Tile(3, 5), Tile(6, 6)), (Tile(1, 1),)), pip_counts=(0, 20, 2),
        side_counts=(0, 20, 2), winner=0, points=222, bonuses=(("capicú", 100), ("chuchazo", 100)),
        scores=(222, 0, 0),
    )
    base.update(changes)
    return RoundResult(**base)  # type: ignore[arg-type]


def test_a_domino_names_the_player_hands_counts_bonuses_and_totals() -> None:
    rules = Rules.preset_named("puerto-rican-drawing")
    lines = describe_result(_result(), NAMES[:3], rules, 3)
    assert lines[0] == "Round 1: domino by Ana with 0-0."
    assert "Ana: out" in lines
    assert "Beto: 3-5 6-6 = 20" in lines
    assert "Ana has the lowest count (0) and scores the others' counts minus it: 22." in lines
    assert "Bonus capicú: +100." in lines and "Bonus chuchazo: +100." in lines
    assert lines[-3:] == ["Ana: 222 in total.", "Beto: 0 in total.", "Carmen: 0 in total."]


def test_a_tie_says_nobody_scores() -> None:
    rules = Rules.preset_named("puerto-rican-drawing")
    result = _result(reason="tranque", last_player=2, winner=None, points=0, bonuses=(),
                     side_counts=(5, 5, 9), scores=(0, 0, 0))
    lines = describe_result(result, NAMES[:3], rules, 3)
    assert lines[0] == "Round 1: tranque. Carmen laid the last tile, 0-0."
    assert "Tie at 5: nobody scores this round." in lines


def test_partners_are_counted_and_scored_as_a_side() -> None:
    rules = Rules.preset_named("quinientos")
    result = _result(
        hands=((), (Tile(3, 5),), (Tile(1, 1),), (Tile(2, 2),)), pip_counts=(0, 8, 2, 4),
        side_counts=(2, 12), winner=0, points=114, bonuses=(("round 1", 100),), scores=(114, 0),
    )
    lines = describe_result(result, NAMES, rules, 4)
    assert "Team Ana & Carmen counts 2." in lines
    assert "Ana went out, so Team Ana & Carmen takes every pip left on the table: 14." in lines
    assert "Bonus round 1: +100." in lines


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
    assert text == "Domino! Ana goes out. ¡Capicú! ¡Chuchazo!"


def test_ascii_mode_transliterates_sentences_and_names() -> None:
    set_ascii(True)
    try:
        text = describe_event(RoundEnded(_result()), ["José", "Beto", "Zoë"], 1)
        assert text == "Domino! Jose goes out. Capicu! Chuchazo!"
        rules = Rules.preset_named("puerto-rican-drawing")
        lines = describe_result(_result(), ["José", "Beto", "Zoë"], rules, 3)
        assert all(line.isascii() for line in lines)
        assert t("line.left_end", number=3).isascii()
    finally:
        set_ascii(False)
    assert "ú" in describe_event(RoundEnded(_result()), NAMES[:3], 1)


_tiles = st.lists(st.builds(Tile, st.integers(0, 12), st.integers(0, 12)), max_size=4).map(tuple)
_ints = st.lists(st.integers(-5, 500), max_size=5).map(tuple)


@given(
    st.builds(
        RoundResult,
        round_number=st.integers(-1, 99),
        reason=st.sampled_from(["domino", "tranque", "???"]),
        last_player=st.integers(-2, 6),
        last_tile=st.builds(Tile, st.integers(0, 12), st.integers(0, 12)),
        hands=st.lists(_tiles, max_size=5).map(tuple),
        pip_counts=_ints,
        side_counts=_ints,
        winner=st.none() | st.integers(-2, 6),
        points=st.integers(-5, 500),
        bonuses=st.lists(st.tuples(st.text(max_size=12), st.integers(0, 200)), max_size=3).map(tuple),
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
