"""The Fives and Threes hint (core/ai/fives_hints.py): the tile, the points it scores, and the easy score
it would give the next player, in codes; and those codes in words (tui/words/describe_fives.py)."""

from __future__ import annotations

from capicu.core import PASS, End, Play, Tile
from capicu.core.ai.fives_hints import EASY, FivesHint, FivesHintReason, Reply, best_reply, suggest_fives
from capicu.core.fives import FIVES_AND_THREES, FivesMatch
from capicu.tui.words.describe_fives import describe_fives_hint
from capicu.tui.words.messages import default_language
from helpers_fives import crafted_fives

NAMES = ["Ana", "Beto"]


def _lead_position() -> FivesMatch:
    # Ana leads; Beto holds 3-6 (unseen to Ana): a 6-6 lead leaves 12 and 3-6 makes it 15 for 8.
    return crafted_fives(FIVES_AND_THREES, ["6-6 1-1 0-2 2-4 4-5 0-1 1-2", "3-6 0-0 0-3 1-3 2-2 2-3 3-3"])


def test_the_reply_a_lead_leaves_is_read_from_the_unseen_tiles() -> None:
    match = _lead_position()
    view = match.view(0)
    reply = best_reply(view, Play(Tile(6, 6), End.LEFT))
    # 6-6 led counts 12; a 3-6 on it makes 12 + 3 = 15, and 15 scores 8 (6-3 is unseen to Ana).
    assert reply == Reply(seat=1, tile=Tile(3, 6), total=15, points=8)
    assert reply.points >= EASY


def test_the_hint_names_its_tile_and_points_and_warns_of_an_easy_score() -> None:
    match = _lead_position()
    view = match.view(0)
    hint = suggest_fives(view, seed=1, clock=lambda: 0.0)  # a still clock: the same hint on a busy machine
    assert isinstance(hint.action, Play) and hint.tile == hint.action.tile
    codes = [reason.code for reason in hint.reasons]
    assert codes[0] in (FivesHintReason.SCORES, FivesHintReason.NO_SCORE)
    if codes[0] is FivesHintReason.SCORES:
        assert hint.reasons[0].values == {"total": hint.total, "points": hint.points}
    if hint.tile == Tile(6, 6):
        # Leading the double six scores 4 and gives Beto 15 for 8 if he holds a 3-6 or 6-3: said.
        assert FivesHintReason.GIVES_EASY in codes
    else:
        # Anything else that scores less than the 6-6 says why the 6-6 was passed over.
        assert FivesHintReason.AVOIDS in codes or hint.points >= 4


def test_a_player_who_cannot_play_is_told_to_knock() -> None:
    match = crafted_fives(FIVES_AND_THREES, ["6-6 5-6 4-6 3-6 2-6 1-6 0-6", "0-0 0-1 1-1 0-2 1-2 2-2 0-3"])
    match.apply(Play(Tile(6, 6), End.LEFT))
    view = match.view(1)
    assert view.legal == (PASS,)
    hint = suggest_fives(view)
    assert hint.action == PASS and hint.tile is None
    assert [reason.code for reason in hint.reasons] == [FivesHintReason.MUST_KNOCK]
    assert describe_fives_hint(hint, view, NAMES) == \
        "Hint: knock: nothing you hold fits and nothing can be drawn"


def test_the_hint_in_words() -> None:
    match = _lead_position()
    view = match.view(0)
    hint = FivesHint(Play(Tile(6, 6), End.LEFT), Tile(6, 6), End.LEFT, 12, 4, Reply(1, Tile(3, 6), 15, 8), (
        FivesHintReason.SCORES(total=12, points=4),
        FivesHintReason.GIVES_EASY(seat=1, tile="3-6", total=15, points=8),
    ))
    assert describe_fives_hint(hint, view, NAMES) == (
        "Hint: lead 6-6: 12 for 4 (but it gives Beto an easy score: 3-6 would make 15 for 8)")
    avoided = FivesHint(Play(Tile(4, 5), End.LEFT), Tile(4, 5), End.LEFT, 9, 3, None, (
        FivesHintReason.SCORES(total=9, points=3),
        FivesHintReason.AVOIDS(tile="6-6", points=4, seat=1, reply_tile="3-6", total=15, reply=8),
    ))
    assert describe_fives_hint(avoided, view, NAMES) == (
        "Hint: lead 4-5: 9 for 3 (6-6 scores 4, but would give Beto 15 for 8 with 3-6)")
    safe = FivesHint(Play(Tile(4, 5), End.LEFT), Tile(4, 5), End.LEFT, 9, 3, None, (
        FivesHintReason.SCORES(total=9, points=3), FivesHintReason.SAFE(seat=1, points=0)))
    assert describe_fives_hint(safe, view, NAMES) == (
        "Hint: lead 4-5: 9 for 3 (it leaves Beto nothing to score)")


def test_the_points_a_hint_leaves_come_after_the_name_with_their_word() -> None:
    # A computer's name ends in a digit: "it leaves Computer 2 2 at most" read as one name.
    view = _lead_position().view(0)
    names = ["Ana", "Computer 2"]
    for points, words in ((2, "at most 2 points"), (1, "at most 1 point")):
        safe = FivesHint(Play(Tile(4, 5), End.LEFT), Tile(4, 5), End.LEFT, 9, 3, None, (
            FivesHintReason.SCORES(total=9, points=3), FivesHintReason.SAFE(seat=1, points=points)))
        said = describe_fives_hint(safe, view, names)
        assert said == f"Hint: lead 4-5: 9 for 3 (it leaves Computer 2 {words})"
    default_language.switch("es")
    try:
        assert describe_fives_hint(safe, view, ["Ana", "Computadora 2"]).endswith(
            "(a Computadora 2 le deja como mucho 1 punto)")
    finally:
        default_language.switch("en")
