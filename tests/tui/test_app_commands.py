"""The interface's command line: one line and exit code 2 for bad input, colours before Textual."""

from __future__ import annotations

import subprocess
import sys

import pytest
from capicu.tui.app import CapicuApp
from capicu.tui.cli.main import CliError, main
from capicu.tui.cli.options import parse_address
from capicu.tui.game import DisplayOptions
from capicu.tui.screens.menu import MainMenuScreen
from helpers_app import wait_for


@pytest.mark.parametrize(
    "argv",
    [
        ["play", "--players", "9"],
        ["play", "--level", "grandmaster"],
        ["play", "--preset", "nope"],
        ["join"],
        ["join", "host:99999"],
        ["join", "a b"],
        ["--colors", "99"],
        ["play", "--tile-style", "fancy"],
    ],
)
def test_bad_arguments_get_one_line_and_exit_code_2(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    try:
        code = main(argv)
    except SystemExit as exc:  # argparse's own errors exit; ours return
        code = int(exc.code or 0)
    err = capsys.readouterr().err
    assert code == 2
    assert err.startswith("capicu: ") and err.count("\n") == 1, err


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("192.168.1.20", ("192.168.1.20", 7254)),
        ("mesa.local:7000", ("mesa.local", 7000)),
        ("[::1]:7001", ("::1", 7001)),
        ("fe80::1", ("fe80::1", 7254)),
    ],
)
def test_addresses(text: str, expected: tuple[str, int]) -> None:
    assert parse_address(text) == expected


def test_a_bad_address_is_a_cli_error() -> None:
    with pytest.raises(CliError):
        parse_address("")


def test_colours_are_chosen_before_textual_loads() -> None:
    code = (
        "import sys\n"
        "from capicu.tui.cli.main import build_parser\n"
        "from capicu.tui.cli.commands import prepare_terminal\n"
        "args = build_parser().parse_args(['play', '--colors', '16'])\n"
        "prepare_terminal(args)\n"
        "assert 'textual' not in sys.modules\n"
        "import textual.constants\n"
        "print(textual.constants.COLOR_SYSTEM)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "standard"


def test_rules_prints_the_engine_s_own_sentences(capsys: pytest.CaptureFixture[str]) -> None:
    from capicu.core import Rules
    from capicu.tui.words.describe_rules import describe_rules

    assert main(["rules", "--preset", "draw", "--players", "3"]) == 0
    out = capsys.readouterr().out
    for line in describe_rules(Rules.preset_named("draw"), 3):
        assert line in out


async def test_the_collector_paused_for_the_start_works_again_once_the_first_screen_is_up() -> None:
    import gc

    app = CapicuApp(DisplayOptions(mouse=False))
    gc.disable()  # as `commands.run_app` starts it
    try:
        async with app.run_test() as pilot:
            await wait_for(pilot, lambda: isinstance(app.screen, MainMenuScreen), what="the menu")
            await wait_for(pilot, gc.isenabled, what="the collector")
    finally:
        gc.enable()
