"""The interface's command line: one line and exit code 2 for bad input, colours before Textual."""

from __future__ import annotations

import subprocess
import sys

import pytest
from capicu.tui.cli import CliError, main
from capicu.tui.commands import parse_address


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
        "from capicu.tui.cli import build_parser\n"
        "from capicu.tui.commands import prepare_terminal\n"
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

    assert main(["rules", "--preset", "draw", "--players", "3"]) == 0
    out = capsys.readouterr().out
    for line in Rules.preset_named("draw").describe(3):
        assert line in out


def test_the_collector_paused_for_the_start_works_again_afterwards() -> None:
    import gc

    from capicu.tui.app import resume_collector
    from capicu.tui.commands import _loading

    assert gc.isenabled()
    try:
        with _loading():
            assert not gc.isenabled()
        assert not gc.isenabled()  # still paused while the first screen is built
        resume_collector()
        assert gc.isenabled()
        resume_collector()  # a second call (the app's timer, then the command) changes nothing
        assert gc.isenabled()
        with pytest.raises(ValueError), _loading():
            raise ValueError("the app could not be made")
        assert gc.isenabled()
    finally:
        gc.enable()
