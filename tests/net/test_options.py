"""``capicu host``: its options become a HostConfig; bad ones give one line and exit code 2."""

from __future__ import annotations

import argparse
import asyncio
import io

import pytest
from capicu.core import Rules
from capicu.net.host import HostConfig
from capicu.net.options import (
    OptionsError,
    add_host_command,
    host_config_from_args,
    run_host_command,
    serve_headless,
)
from capicu.net.protocol import DEFAULT_PORT


def _rule_arguments(parser: argparse.ArgumentParser) -> None:
    """The shape of the command line's shared rule options (a few of them)."""
    parser.add_argument("--preset", default="puerto-rican-drawing")
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--target", type=int, default=None)


def parse(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="capicu", exit_on_error=False)
    add_host_command(parser.add_subparsers(dest="command"), _rule_arguments)
    return parser.parse_args(["host", *argv])


def test_defaults_listen_on_every_interface_on_the_documented_port_with_a_random_code():
    config = host_config_from_args(parse("--headless"))
    assert config.bind is None and config.port == DEFAULT_PORT == 7254
    assert config.code and len(config.code) == 6
    assert host_config_from_args(parse()).code != config.code


def test_options_reach_the_config(tmp_path):
    args = parse("--headless", "--players", "3", "--target", "30", "--computers", "2", "--no-code",
                 "--turn-timer", "20", "--grace", "5", "--journal", str(tmp_path / "j"), "--bind",
                 "127.0.0.1", "--port", "0", "--rate", "10", "--seed", "4", "--level", "random")
    config = host_config_from_args(args)
    assert config.rules == Rules.preset_named("puerto-rican-drawing").replace(target=30)
    assert (config.players, config.computers, config.code) == (3, 2, None)
    assert (config.turn_timer, config.grace, config.journal) == (20, 5, tmp_path / "j")
    assert (config.bind, config.port, config.seed, config.computer_level) == ("127.0.0.1", 0, 4, "random")
    assert config.limits.messages_per_second == 10
    assert config.next_round_delay == 20 and not config.rejoin_by_name


@pytest.mark.parametrize(("text", "delay"), [("20", 20.0), ("0", 0.0), ("2.5", 2.5), ("none", None)])
def test_the_next_round_delay_reaches_the_table(text, delay):
    config = host_config_from_args(parse("--next-round-delay", text, "--rejoin-by-name"))
    assert config.next_round_delay == delay and config.table_config().next_round_delay == delay
    assert config.rejoin_by_name and config.code


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (("--players", "5"), "played by 2 to 3 players"),
        (("--computers", "3"), "more than the 2 seats"),
        (("--turn-timer", "0"), "more than 0 seconds"),
        (("--resume", "/nowhere/at/all"), "no such file"),
        (("--level", "genius"), "no computer player 'genius'"),
        (("--rejoin-by-name", "--no-code"), "--rejoin-by-name needs a join code"),
    ],
)
def test_bad_options_say_what_is_wrong_in_one_line(argv, words, capsys):
    assert run_host_command(parse("--headless", *argv)) == 2
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1 and "Traceback" not in err


def test_bad_values_are_refused_by_the_parser():
    for argv in (("--port", "70000"), ("--grace", "soon"), ("--computers", "-1"), ("--rate", "0"),
                 ("--next-round-delay", "-1"), ("--next-round-delay", "soon")):
        with pytest.raises((argparse.ArgumentError, SystemExit)):
            parse(*argv)


def test_resume_and_a_different_journal_conflict(tmp_path):
    journal = tmp_path / "j"
    journal.write_text("x")
    with pytest.raises(OptionsError, match="leave out --journal"):
        host_config_from_args(parse("--resume", str(journal), "--journal", str(tmp_path / "k")))


async def test_headless_prints_how_to_join_and_a_busy_port_is_one_clear_line(capsys):
    taken = await asyncio.start_server(lambda r, w: None, "127.0.0.1", 0)
    port = taken.sockets[0].getsockname()[1]
    code = await serve_headless(HostConfig(bind="127.0.0.1", port=port), out=io.StringIO())
    assert code == 2
    assert "cannot listen on 127.0.0.1 port" in capsys.readouterr().err
    taken.close()


async def test_the_join_command_is_exact():
    from capicu.net.host import Host

    host = Host(HostConfig(bind="127.0.0.1", port=0, code="ABC123"))
    _, port = await host.start()
    try:
        assert host.join_command() == f"capicu join 127.0.0.1:{port} --code ABC123"
    finally:
        await host.stop()
    open_host = Host(HostConfig(bind="127.0.0.1", port=0, code=None))
    _, port = await open_host.start()
    try:
        assert open_host.join_command() == f"capicu join 127.0.0.1:{port}"
    finally:
        await open_host.stop()
