"""The command line's display options go before or after every command, and a bad option names its command."""

from __future__ import annotations

import pytest
from capicu.tui.cli.main import main


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        code = main(list(argv))
    except SystemExit as exit:
        code = int(exit.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize(
    ("command", "spanish"),
    [
        (["rules"], "robado boricua, 2 jugadores:"),
        (["history"], "Aún no hay ninguna partida terminada"),
        (["simulate", "--target", "20", "--seed", "2"], "gana la partida"),
    ],
)
def test_display_options_after_every_command(
    capsys: pytest.CaptureFixture[str], command: list[str], spanish: str
) -> None:
    """README: display options go before or after the command (``capicu rules --lang es``)."""
    before = _run(capsys, "--lang", "es", *command)
    after = _run(capsys, *command, "--lang", "es", "--ascii", "--colors", "16", "--no-mouse",
                 "--tile-style", "compact", "--theme", "felt")
    assert before[0] == 0 and spanish in before[1], before
    assert after == before


@pytest.mark.parametrize("command", ["play", "join", "host", "replay", "rules", "history", "simulate"])
def test_an_unknown_option_points_at_its_commands_help(
    capsys: pytest.CaptureFixture[str], command: str
) -> None:
    code, _, err = _run(capsys, *_words(command), "--frobnicate")
    assert code == 2
    assert err == f"capicu: unrecognized arguments: --frobnicate (see capicu {command} --help)\n"
    code, _, err = _run(capsys, "--lang", "es", *_words(command), "--frobnicate")
    assert code == 2 and err.endswith(f"(mira capicu {command} --help)\n"), err


def test_an_unknown_option_before_a_command_points_at_the_top(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = _run(capsys, "--frobnicate")
    assert (code, err) == (2, "capicu: unrecognized arguments: --frobnicate (see capicu --help)\n")


def _words(command: str) -> list[str]:
    """The command with what it needs before an option (join: an address)."""
    return [command, "127.0.0.1"] if command == "join" else [command]
