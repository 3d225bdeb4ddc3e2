"""The house rules in words and on the command line: each option, its facts, its events and refusals."""

from __future__ import annotations

import argparse

import msgspec
import pytest
from capicu.core import REDEAL, IllegalAction, RoundStarted, Rules, TilePlayed, parse_action
from capicu.tui.cli.main import build_parser, main
from capicu.tui.cli.options import rules_from_args
from capicu.tui.words.describe import describe_event, describe_refusal
from capicu.tui.words.describe_rules import describe_rules
from capicu.tui.words.messages import default_language

from tests.helpers_core import crafted_match


@pytest.fixture(autouse=True)
def _own_config(tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CAPICU_CONFIG_DIR", str(tmp_path / "config"))


def parse(*argv: str) -> argparse.Namespace:
    return build_parser().parse_args(["play", *argv])


def test_the_house_rules_reach_the_rules_from_the_command_line() -> None:
    rules, _ = rules_from_args(parse("--preset", "draw", "--wild-blanks", "--draw-several", "3",
                                     "--redeal-on-doubles"))
    assert rules == msgspec.structs.replace(Rules.preset_named("draw"), wild_blanks=True, draw_several=3,
                                            redeal_on_doubles=True)
    plain, _ = rules_from_args(parse("--preset", "draw", "--no-wild-blanks"))
    assert plain == Rules.preset_named("draw")


def test_draw_several_takes_two_or_three(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        parse("--draw-several", "4")
    assert "--draw-several" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (("--preset", "draw", "--draw-several", "2", "--max-draws", "2"), "cannot go together"),
        (("--preset", "puerto-rican-partners", "--players", "4", "--draw-several", "2"), "has no drawing"),
    ],
)
def test_house_rules_that_cannot_combine_are_one_line(
    argv: tuple[str, ...], words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["rules", *argv]) == 2
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1


def test_capicu_rules_words_each_house_rule_in_english_and_spanish() -> None:
    rules = msgspec.structs.replace(Rules.preset_named("draw"), wild_blanks=True, draw_several=2,
                                    redeal_on_doubles=True)
    english = " ".join(describe_rules(rules, 2))
    assert "Blanks are wild" in english and "draws 2 tiles at once" in english
    assert "a blank shows the number it was given with a * beside it: *4|5]" in english
    assert "5 doubles or more may ask for a new deal" in english
    default_language.switch("es")
    try:
        spanish = " ".join(describe_rules(rules, 2))
    finally:
        default_language.switch("en")
    assert "Las blancas son comodines" in spanish and "roba 2 fichas a la vez" in spanish
    assert "con un * al lado: *4|5]" in spanish
    assert "5 dobles o más" in spanish


def test_the_others_read_who_asked_for_a_new_deal_and_the_number_a_blank_was_given() -> None:
    asked = RoundStarted(round_number=1, leader=0, hand_counts=(7, 7), boneyard=14, forced_lead=None,
                         asked_by=1, doubles=5)
    assert describe_event(asked, ["Ana", "Pepe"], 0).startswith("Pepe asked for a new deal (5 doubles).")
    assert describe_event(asked, ["Ana", "Pepe"], 1).startswith("You asked for a new deal (5 doubles).")
    played = TilePlayed(0, parse_action("play 0-5").tile, parse_action("play 0-5").place, 3, 5, blank=3)
    assert describe_event(played, ["Ana", "Pepe"], 1) == "Ana plays 0-5 on the left. Its blank is 3."
    default_language.switch("es")
    try:
        assert describe_event(asked, ["Ana", "Pepe"], 0).startswith("Pepe pidió un nuevo reparto (5 dobles).")
        assert describe_event(played, ["Ana", "Pepe"], 1).endswith("Su blanca es 3.")
    finally:
        default_language.switch("en")


def test_a_refused_redeal_and_blank_are_worded() -> None:
    rules = msgspec.structs.replace(Rules(), redeal_on_doubles=True, wild_blanks=True, hand_sizes=(7, 7, 7))
    match = crafted_match(rules, ["6-6 5-6 4-6 3-6 2-6 1-6 0-6", "0-0 1-1 2-2 3-3 0-4 0-1 0-2"])
    with pytest.raises(IllegalAction) as refused:
        match.apply(REDEAL, 1)
    assert describe_refusal(refused.value.reason, refused.value.params, ["Ana", "Pepe"], 1) == (
        "A new deal needs 5 doubles in hand; you hold 4.")
    match.apply(parse_action("play 6-6"))
    with pytest.raises(IllegalAction) as refused:
        match.apply(parse_action("play 0-4 right as 9"))
    assert describe_refusal(refused.value.reason, refused.value.params, ["Ana", "Pepe"], 1) == (
        "A blank can be given a number from 0 to 6, not 9.")


async def test_the_setup_form_plays_the_house_rules_chosen_and_refuses_what_cannot_combine() -> None:
    from capicu.tui.app import CapicuApp
    from capicu.tui.game import DisplayOptions
    from capicu.tui.screens.draw_table import DrawTableScreen
    from capicu.tui.screens.host_setup import HostSetupScreen
    from capicu.tui.screens.menu import MainMenuScreen
    from helpers_app import wait_for
    from textual.widgets import Select

    app = CapicuApp(DisplayOptions(mouse=False))
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, MainMenuScreen), what="the menu")
        await pilot.press("p")
        await wait_for(pilot, lambda: isinstance(app.screen, HostSetupScreen), what="the setup")
        screen = app.screen
        assert screen.query_one("#house-rules").region.bottom <= 24  # on screen at 80x24
        screen.query_one("#preset", Select).value = "puerto-rican-partners"
        await pilot.pause()
        screen.query_one("#draw-several", Select).value = 2
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: any("has no drawing" in n.message for n in app._notifications),
                       what="the notice")
        assert app.screen is screen
        screen.query_one("#preset", Select).value = "draw"
        screen.query_one("#wild-blanks", Select).value = True
        screen.query_one("#redeal-on-doubles", Select).value = True
        await pilot.pause()
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: isinstance(app.screen, DrawTableScreen) and app.table.view is not None,
                       what="the table")
        view = app.table.view
        assert view is not None
        rules = view.rules
        assert (rules.wild_blanks, rules.draw_several, rules.redeal_on_doubles) == (True, 2, True)
