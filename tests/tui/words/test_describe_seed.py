"""Mexican Train as seed 004 plays it, in words: who laid the engine, or that it came from the
boneyard (issue 29), in English and Spanish; the refusal of a tile not drawn."""

from __future__ import annotations

import msgspec
import pytest
from capicu.core import Rules, parse_action
from capicu.core.mexican.match import MexicanMatch
from capicu.tui.words.describe_trains import describe_train_action_refused, train_news_lines
from capicu.tui.words.messages import command_line_language
from helpers_core import crafted_mexican

NAMES = ("Ana", "Beto", "Carmen")
NINE = msgspec.structs.replace(Rules.preset_named("mexican-train"), max_pip=9)
HANDS = ["9-5 5-5 5-6 0-1 0-2 0-3 1-1 1-2 1-3", "9-3 3-4 4-7 7-7 7-8 5-8 1-8 1-4 2-8"]
NO_NINES = ["0-0 0-1 0-2 0-3 0-4 0-5 0-6 0-7 0-8", HANDS[1]]


def _opening_lines(match: MexicanMatch, me: int) -> list[str]:
    view = match.view(me)
    lines, _ = train_news_lines(list(match.opening_events), None, view, NAMES, me)
    return [str(line()) for line in lines]


def _holding(seat: int) -> MexicanMatch:
    """A three-seat match whose first deal gives ``seat`` the engine."""
    for seed in range(200):
        match = MexicanMatch(NINE, 3, seed=seed)
        if match.view(None).engine_holder == seat:
            return match
    raise AssertionError("no such deal")


@pytest.mark.parametrize(("language", "others", "mine"), [
    ("en", "Beto was dealt the engine, 9-9, and laid it.",
     "You were dealt the engine, 9-9, and laid it."),
    ("es", "A Beto le tocó la locomotora, el 9-9, y la puso.",
     "Te tocó la locomotora, el 9-9, y la pusiste."),
])
def test_everyone_is_told_who_laid_the_engine(language: str, others: str, mine: str) -> None:
    match = _holding(1)
    with command_line_language(language):
        assert others in _opening_lines(match, 0)
        assert mine in _opening_lines(match, 1)


def test_an_engine_from_the_boneyard_is_told_so_and_a_set_aside_one_is_not() -> None:
    match = crafted_mexican(NINE, HANDS)
    with command_line_language("en"):
        assert "The engine, 9-9, came from the boneyard: nobody was dealt it." in _opening_lines(match, 0)
    aside = msgspec.structs.replace(NINE, engine_set_aside=True)
    match = crafted_mexican(aside, HANDS)
    with command_line_language("en"):
        assert not any("engine, 9-9" in line for line in _opening_lines(match, 0))


def test_a_tile_not_drawn_is_refused_naming_the_drawn_one_in_both_languages() -> None:
    match = crafted_mexican(NINE, NO_NINES, "1-2")
    match.apply(parse_action("draw"))
    view = match.view(0)
    with command_line_language("en"):
        assert describe_train_action_refused(view, parse_action("play 0-1 mexican"), NAMES) == (
            "After a draw only the tile you drew may be laid: 1-2.")
    with command_line_language("es"):
        assert describe_train_action_refused(view, parse_action("play 0-1 mexican"), NAMES) == (
            "Tras robar solo puedes poner la ficha robada: 1-2.")
