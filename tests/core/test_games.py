"""The registry of games (core/games.py): one declaration per game, found by name, rules, log and view."""

from __future__ import annotations

import subprocess
import sys
from typing import get_args

import pytest
from capicu.core import Rules
from capicu.core.engine import Engine
from capicu.core.games import (
    FIVES,
    GAMES,
    LINE,
    MEXICAN_TRAIN,
    GameSpec,
    game_named,
    game_of,
    game_of_log,
    game_of_view,
    match_from_log,
    new_match,
)
from capicu.core.refusals import Refusal
from capicu.core.rules import ALL_PRESET_NAMES


@pytest.mark.parametrize("preset", ALL_PRESET_NAMES)
def test_every_preset_is_found_and_played_by_its_game(preset: str):
    rules = Rules.preset_named(preset)
    game = game_of(rules)
    assert isinstance(rules, game.rules_type)
    assert game_named(game.name) is game
    match = new_match(rules, rules.min_players, seed=3)
    assert type(match) is game.engine
    view = match.view(0)
    assert type(view) is game.view
    assert game_of_view(view) is game
    assert game_of_log(match.log()) is game
    assert all(type(event) in get_args(game.events) for event in match.opening_events)
    # A match is its log, whichever the game.
    action = match.legal_actions()[0]
    match.apply(action)
    again = match_from_log(match.log())
    assert type(again) is game.engine
    assert again.log() == match.log()
    assert type(game.parse_action(str(action))) is type(action)
    assert set(game.refusals) == {*Refusal, *game.refusal}


def test_the_refusals_every_game_shares_are_declared_once():
    assert set(LINE.refusal).isdisjoint(Refusal) and set(MEXICAN_TRAIN.refusal).isdisjoint(Refusal)
    assert not {code.value for code in LINE.refusal} & {code.value for code in MEXICAN_TRAIN.refusal}


def _preset_of(game: GameSpec) -> Rules:
    """A preset of ``game`` that seats 2 or 3."""
    return Rules.preset_named({MEXICAN_TRAIN: "mexican-train", FIVES: "fives-and-threes"}.get(game, "draw"))


def test_the_names_are_the_historys_and_the_views_tag():
    assert [game.name for game in GAMES] == ["line", "mexican-train", "fives-and-threes"]
    assert LINE.view_tag is None  # the Draw family's view is written untagged, as it always was
    assert MEXICAN_TRAIN.view.__struct_config__.tag == MEXICAN_TRAIN.view_tag == "mexican-train"
    assert FIVES.view.__struct_config__.tag == FIVES.view_tag == "fives-and-threes"
    with pytest.raises(ValueError, match="there is no game 'fives'; choose one of line, mexican-train, "):
        game_named("fives")


def test_every_engine_has_the_one_protocols_shape():
    members = {name for name in dir(Engine) if not name.startswith("_")} | set(Engine.__annotations__)
    assert len(members) == 17
    for game in GAMES:
        match = game.new_match(_preset_of(game), 2)
        assert not [name for name in members if not hasattr(match, name)], game.name


@pytest.mark.parametrize("game", GAMES, ids=lambda game: game.name)
def test_every_engine_says_how_its_match_ended(game: GameSpec):
    match = game.new_match(_preset_of(game), 2, seed=5)
    while not match.is_over:
        assert match.ending is None
        match.apply(match.legal_actions()[0])
    ending = match.ending
    assert ending is not None
    final = match.view(None)
    # Each game's own words for it (its view's totals and winner or winners) say the same.
    totals = getattr(final, "totals", None) or getattr(final, "scores", None)
    assert ending.totals == tuple(totals)
    assert ending.winners and max(ending.winners) < 2
    winner = getattr(final, "winner", None)
    assert ending.winners == (getattr(final, "winners", None) or (winner,))


@pytest.mark.parametrize("preset", ["puerto-rican-partners", "fives-and-threes"])
def test_partners_win_together(preset: str):
    rules = Rules.preset_named(preset)
    match = new_match(rules, 4, seed=5)
    while not match.is_over:
        match.apply(match.legal_actions()[0])
    ending = match.ending
    assert ending is not None and len(ending.totals) == 2
    side = rules.side_of(ending.winners[0], 4)
    assert ending.winners == tuple(seat for seat in range(4) if rules.side_of(seat, 4) == side)
    assert ending.totals[side] == max(ending.totals)


def test_a_game_refuses_the_actions_of_another():
    with pytest.raises(ValueError, match="is not an action of Mexican Train"):
        MEXICAN_TRAIN.parse_action("play 3-5 left")
    with pytest.raises(ValueError, match="is not an action of the Draw family"):
        LINE.parse_action("play 3-5 train 1")
    with pytest.raises(ValueError, match="is not an action of the Draw family"):
        LINE.parse_action("end run")


def test_computer_players_come_from_the_game():
    for game in GAMES:
        match = game.new_match(_preset_of(game), 3, seed=5)
        player = game.make_player("normal", seed=1)
        seat = match.turn
        assert seat is not None
        assert player.choose(match.view(seat)) in match.legal_actions()
        with pytest.raises(ValueError, match="computer player 'perfect'"):
            game.make_player("perfect")


def test_a_log_of_no_known_format_is_refused_as_before():
    with pytest.raises(ValueError, match="not a capicu match log"):
        match_from_log({"format": "nonsense"})
    with pytest.raises(ValueError, match="not a capicu match log"):
        match_from_log([1, 2])


def test_a_log_of_an_unknown_format_is_refused_naming_it():
    # A journal edited by hand said 'capicu-fives-log/7': refused as "expected format 'capicu-log/1'",
    # the Draw family's, which the log never claimed to be.
    with pytest.raises(ValueError) as refused:
        match_from_log({"format": "capicu-fives-log/7", "rules": {}, "players": 2, "seed": 1, "entries": []})
    assert "'capicu-fives-log/7'" in str(refused.value) and "'capicu-fives-log/1'" in str(refused.value)


def test_a_draw_family_game_never_loads_mexican_train():
    """Issue 31 item 17: the registry imports a game's modules only when that game is asked for."""
    # A match of one round (target 1): every part of a match (deal, play, the round's and the
    # match's end, the log read back), without the hard player's search for 148 moves (20 s).
    code = (
        "import sys\n"
        "import msgspec\n"
        "from capicu.core import Rules, new_match, match_from_log, game_of_view\n"
        "from capicu.core.ai import make_player\n"
        "match = new_match(msgspec.structs.replace(Rules.preset_named('draw'), target=1), 3, 1)\n"
        "player = make_player('hard', 1)\n"
        "while not match.is_over:\n"
        "    match.apply(player.choose(match.view(match.turn)))\n"
        "again = match_from_log(match.log())\n"
        "assert game_of_view(again.view(None)).name == 'line'\n"
        "print(sorted(name for name in sys.modules if 'mexican' in name))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
