"""Mexican Train on the command line: rules (English and Spanish), simulate, its options, and
``play``, whose table this version cannot show yet (the app says so plainly, nothing crashes)."""

from __future__ import annotations

import io
from pathlib import Path

import msgspec
import pytest
from capicu.core import Rules
from capicu.core.rules import RuleFact
from capicu.tui.app import CapicuApp
from capicu.tui.cli.main import main
from capicu.tui.cli.simulate import run_simulation
from capicu.tui.game import DisplayOptions, SoloGame
from capicu.tui.screens.draw_table import DrawTableScreen
from capicu.tui.screens.mexican_table import MexicanTableScreen
from capicu.tui.words.describe_rules import describe_rules
from capicu.tui.words.messages import command_line_language
from helpers_app import wait_for

MEXICAN = Rules.preset_named("mexican-train")


@pytest.fixture(autouse=True)
def _own_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CAPICU_CONFIG_DIR", str(tmp_path / "config"))


def test_capicu_rules_says_every_rule_of_mexican_train(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "--preset", "mexican-train", "--players", "8"]) == 0
    text = capsys.readouterr().out
    assert text.startswith("mexican-train, 8 players:")
    for words in ("double-12, 91 tiles", "11 tiles each", "13 rounds, from 12-12 down to 0-0",
                  "The engine is dealt like any tile", "the player after the one who began the last round",
                  "drawn at random", "run of tiles", "draws one tile", "may lay only that tile",
                  "marker goes up", "Anyone may start the Mexican train", "another double anywhere",
                  "covered in the order they were laid", "last tile", "no player can lay a tile",
                  "double blank counts 50", "lowest total wins"):
        assert words in text, words


@pytest.mark.parametrize(
    ("options", "said", "unsaid"),
    [
        (["--rounds", "4"], "Only the first 4 rounds are played", "13 rounds"),
        (["--rounds", "1"], "Only the first round is played", "rounds are played"),
        (["--one-tile-start"], "lays one tile on their own train", "run of tiles"),
        (["--mexican-after-own"], "Only a player whose own train is started", "Anyone may start"),
        (["--no-cover-doubles"], "A double earns another play anywhere", "oldest open double"),
        (["--one-double-a-turn"], "A double must be covered: its player lays another tile", "oldest open"),
        (["--engine-set-aside"], "Before each deal the round's double", "dealt like any tile"),
        (["--double-blank-points", "0"], "the double blank counts 0", "counts 50"),
        (["--set", "9", "--players", "8"], "double-9, 55 tiles; a tile", "double-12"),
    ],
)
def test_every_mexican_train_option_is_worded(options: list[str], said: str, unsaid: str,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "--preset", "mexican-train", *options]) == 0
    text = capsys.readouterr().out
    assert said in text and unsaid not in text


def test_every_mexican_train_fact_has_a_sentence_in_english_and_spanish() -> None:
    every = [
        MEXICAN,
        msgspec.structs.replace(MEXICAN, rounds=4, opening_run=False, mexican_needs_own_train=True,
                                cover_doubles=False, double_blank_points=0),
        msgspec.structs.replace(MEXICAN, rounds=1),
        msgspec.structs.replace(MEXICAN, engine_set_aside=True, one_double_a_turn=True),
    ]
    codes = {fact.code for rules in every for fact in rules.facts(4)}
    train_codes = {code for code in RuleFact if code.value in (
        "round-per-double", "first-rounds", "engine", "first-player-rotates", "engine-dealt", "opening-run",
        "one-tile-start", "one-tile-a-turn", "draw-one-marker", "mexican-train-anyone",
        "mexican-train-after-own", "cover-doubles", "several-doubles", "double-plays-again",
        "train-round-end", "double-blank-counts", "lowest-total-wins")}
    assert train_codes <= codes
    english = [line for rules in every for line in describe_rules(rules, 4)]
    with command_line_language("es"):
        spanish = [line for rules in every for line in describe_rules(rules, 4)]
    assert len(spanish) == len(english)
    assert all(es != en for es, en in zip(spanish, english, strict=True))


def test_capicu_rules_in_spanish(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--lang", "es", "rules", "--preset", "mexican-train", "--players", "5",
                 "--mexican-after-own"]) == 0
    text = capsys.readouterr().out
    assert text.startswith("tren mexicano, 5 jugadores:")
    assert "locomotora" in text and "tren mexicano" in text and "marcador" in text
    assert "Solo quien ya empezó su propio tren puede jugar en el tren mexicano." in text
    assert "players" not in text and "train" not in text


@pytest.mark.parametrize(
    ("options", "words"),
    [
        (["--preset", "mexican-train", "--target", "100"], "--target is not an option of mexican-train"),
        (["--preset", "draw", "--rounds", "4"], "--rounds is not an option of draw"),
        (["--preset", "draw", "--one-tile-start"], "--opening-run is not an option of draw"),
        (["--preset", "mexican-train", "--set", "6"], "double-9, double-12, double-15"),
        (["--preset", "draw", "--set", "15"], "double-6, double-9, double-12"),
        (["--preset", "mexican-train", "--players", "9"], "2 to 8 players, not 9"),
    ],
)
def test_options_of_the_other_game_are_refused(options: list[str], words: str,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", *options]) == 2
    assert words in capsys.readouterr().err


def test_simulate_prints_a_mexican_train_match_deal_by_deal() -> None:
    out = io.StringIO()
    rules = msgspec.structs.replace(MEXICAN, rounds=4)
    assert run_simulation(rules, 4, seed=3, level="normal", out=out) == 0
    text = out.getvalue()
    assert text.startswith("mexican-train: 4 players, double-12, 4 rounds, seed 3")
    for number, engine in enumerate(("12-12", "11-11", "10-10", "9-9"), 1):
        assert f"Round {number}: the engine is {engine}" in text
    assert "seat 1: " in text and "the boneyard: " in text and "plays first" in text
    assert "on their own train" in text and "on the Mexican train" in text and "it shows" in text
    assert "draws a tile" in text and "passes: their marker is up" in text
    assert "totals: " in text and text.count("totals: ") == 4
    assert "with the lowest total" in text.splitlines()[-1]


def test_simulate_from_the_command_line_in_both_languages(capsys: pytest.CaptureFixture[str]) -> None:
    match = ["--preset", "mexican-train", "--players", "8", "--rounds", "1", "--seed", "2"]
    assert main(["simulate", *match]) == 0
    english = capsys.readouterr().out
    assert "8 players" in english and "Round 1: the engine is 12-12" in english
    assert main(["--lang", "es", "simulate", *match]) == 0
    spanish = capsys.readouterr().out
    assert "8 jugadores" in spanish and "Ronda 1: la locomotora es el 12-12" in spanish
    assert len(spanish.splitlines()) == len(english.splitlines())  # the same match


async def test_play_mexican_train_opens_its_table() -> None:
    # As `capicu play --preset mexican-train --players 4`: the app hosts and joins, gets a train
    # view, and opens Mexican Train's table (never a line-of-play screen on it).
    request = SoloGame(MEXICAN, 4, "normal", seed=3, name="Ana", pace=0.0)
    app = CapicuApp(DisplayOptions(mouse=False), request)
    async with app.run_test(size=(100, 32)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, MexicanTableScreen), what="the train table")
        assert not any(isinstance(screen, DrawTableScreen) for screen in app.screen_stack)
    assert app.failure is None


def test_every_level_plays_mexican_train_and_one_it_lacks_is_refused_plainly(
        capsys: pytest.CaptureFixture[str]) -> None:
    from capicu.core import LEVELS
    from capicu.tui.cli.options import CliError, check_level

    for level in LEVELS:  # easy, normal and hard: each has a Mexican Train player
        check_level(MEXICAN, level)
    assert main(["simulate", "--preset", "mexican-train", "--level", "hard", "--rounds", "1",
                 "--players", "3"]) == 0
    assert "with the lowest total" in capsys.readouterr().out
    # The benchmarks' levels are the Draw family's alone.
    with pytest.raises(CliError, match="no computer level greedy for mexican-train"):
        check_level(MEXICAN, "greedy")
    check_level(Rules.preset_named("draw"), "greedy")
