"""``capicu host``: its options become a HostConfig; bad ones give one line and exit code 2."""

from __future__ import annotations

import argparse
import asyncio
import io
import signal

import msgspec
import pytest
from capicu.core import Rules
from capicu.net.host.headless import serve_headless
from capicu.net.host.server import Host, HostConfig, Limits
from capicu.net.host.table import ConfigError, ConfigProblem
from capicu.net.protocol import DEFAULT_PORT
from capicu.tui.cli.main import build_parser, main
from capicu.tui.cli.options import CliError, describe_config_problem, host_config_from_args


@pytest.fixture(autouse=True)
def _own_config(tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The command line reads the settings (their language): never the user's, another run may write them."""
    monkeypatch.setenv("CAPICU_CONFIG_DIR", str(tmp_path / "config"))


def parse(*argv: str) -> argparse.Namespace:
    return build_parser().parse_args(["host", *argv])


def test_defaults_listen_on_every_interface_on_the_documented_port_with_a_random_code() -> None:
    config = host_config_from_args(parse("--headless"))
    assert config.bind is None and config.port == DEFAULT_PORT == 7254
    assert config.code and len(config.code) == 6
    assert host_config_from_args(parse()).code != config.code


def test_options_reach_the_config(tmp_path) -> None:
    args = parse("--headless", "--players", "3", "--target", "30", "--computers", "2", "--no-code",
                 "--turn-timer", "20", "--grace", "5", "--journal", str(tmp_path / "j"), "--bind",
                 "127.0.0.1", "--port", "0", "--rate", "10", "--seed", "4", "--level", "easy")
    config = host_config_from_args(args)
    table = config.table
    assert table.rules == msgspec.structs.replace(Rules.preset_named("puerto-rican-drawing"), target=30)
    assert (table.players, table.computers, config.code) == (3, 2, None)
    assert (table.turn_timer, table.grace, table.journal) == (20, 5, tmp_path / "j")
    assert (config.bind, config.port, table.seed, table.computer_level) == ("127.0.0.1", 0, 4, "easy")
    assert (config.limits.messages_per_second, config.limits.message_burst) == (10, 20)
    assert table.next_round_delay == 20 and not config.rejoin_by_name
    assert table.max_spectators == 32
    assert host_config_from_args(parse("--max-spectators", "0")).table.max_spectators == 0


def test_the_heartbeat_reaches_the_limits_and_a_silent_player_is_dropped_after_three() -> None:
    assert host_config_from_args(parse("--headless")).limits == Limits()  # 15 s, 45 s
    limits = host_config_from_args(parse("--heartbeat", "2", "--rate", "10")).limits
    assert (limits.heartbeat, limits.idle_timeout, limits.messages_per_second) == (2, 6, 10)


def test_ssh_keeps_the_host_limit_per_address() -> None:
    # Each SSH player reaches the host under its own address (Host.connect_local): no extra room.
    for argv in (("--ssh", "2222"), ("--ssh", "2222", "--rate", "10")):
        config = host_config_from_args(parse("--headless", *argv))
        assert config.limits.connections_per_address == Limits().connections_per_address


@pytest.mark.parametrize(("text", "delay"), [("20", 20.0), ("0", 0.0), ("2.5", 2.5), ("none", None)])
def test_the_next_round_delay_reaches_the_table(text: str, delay: float | None) -> None:
    config = host_config_from_args(parse("--next-round-delay", text, "--rejoin-by-name"))
    assert config.table.next_round_delay == delay
    assert config.rejoin_by_name and config.code


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (("--players", "5"), "played by 2 to 3 players"),
        (("--computers", "3"), "more than the 2 seats"),
        (("--turn-timer", "0"), "more than 0 seconds"),
        (("--resume", "/nowhere/at/all"), "no such file"),
        (("--code", "x" * 33), "--code must be 1 to 32 letters or digits"),
        (("--rejoin-by-name", "--no-code"), "--rejoin-by-name needs a join code"),
    ],
)
def test_bad_options_say_what_is_wrong_in_one_line(
    argv: tuple[str, ...], words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["host", "--headless", *argv]) == 2
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1 and "Traceback" not in err


@pytest.mark.parametrize("argv", [("--port", "70000"), ("--grace", "soon"), ("--computers", "-1"),
                                  ("--level", "genius"), ("--level", "greedy"), ("--max-spectators", "-1"),
                                  ("--rate", "0"), ("--heartbeat", "0"), ("--next-round-delay", "-1"),
                                  ("--next-round-delay", "soon")])
def test_bad_values_are_refused_by_the_parser(
    argv: tuple[str, ...], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_:
        parse(*argv)
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("capicu: ") and argv[0] in err and err.count("\n") == 1


def test_resume_and_a_different_journal_conflict(tmp_path) -> None:
    journal = tmp_path / "j"
    journal.write_text("x")
    with pytest.raises(CliError, match="leave out --journal"):
        host_config_from_args(parse("--resume", str(journal), "--journal", str(tmp_path / "k")))


async def test_headless_prints_how_to_join_and_a_busy_port_is_one_clear_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    taken = await asyncio.start_server(lambda r, w: None, "127.0.0.1", 0)
    port = taken.sockets[0].getsockname()[1]
    try:
        code = await serve_headless(HostConfig(bind="127.0.0.1", port=port), out=io.StringIO())
    finally:
        taken.close()
    assert code == 2
    err = capsys.readouterr().err
    assert "cannot listen on 127.0.0.1 port" in err and err.count("\n") == 1


async def test_headless_serves_until_stopped_and_says_how_to_join() -> None:
    out = io.StringIO()
    serving = asyncio.create_task(serve_headless(HostConfig(bind="127.0.0.1", port=0, code="ABC123"), out))
    for _ in range(200):  # bounded: the host prints its four lines as soon as it listens
        if out.getvalue().count("\n") >= 4:
            break
        await asyncio.sleep(0.01)
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("capicu host: listening on 127.0.0.1 port ")
    assert lines[1] == "capicu host: join code ABC123"
    assert "--code ABC123" in lines[3]
    signal.raise_signal(signal.SIGTERM)  # as `kill` would: the host stops and says so
    assert await asyncio.wait_for(serving, 10) == 0
    assert out.getvalue().splitlines()[-1] == "capicu host: stopped"


async def test_the_join_command_is_exact() -> None:
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


@pytest.mark.parametrize("problem", list(ConfigProblem))
def test_every_config_problem_is_worded_for_the_command_line(problem: ConfigProblem) -> None:
    params = {"computers": 3, "players": 2, "level": "genius", "seconds": -1, "field": "grace", "name": "",
              "spectators": -1, "port": 70000, "join_code": "-", "journal": "a", "resume": "b", "threads": 0,
              "processes": 0}
    declared = {name: value for name, value in params.items() if name in problem.params}
    text = describe_config_problem(ConfigError("in English", problem, **declared))
    assert text and "{" not in text and "in English" not in text


def test_a_config_error_carries_only_its_declared_params() -> None:
    with pytest.raises(ValueError, match="is said with"):
        ConfigError("in English", ConfigProblem.PORT, port=70000, seconds=3)


def test_a_negative_delay_names_its_option() -> None:
    error = ConfigError("in English", ConfigProblem.NEGATIVE_SECONDS, field="next_round_delay", seconds=-1)
    assert describe_config_problem(error) == "--next-round-delay must be 0 seconds or more"


def test_every_host_this_terminal_runs_keeps_its_records_in_the_players_data_folder() -> None:
    from capicu.tui.game import SoloGame, solo_host_config
    from capicu.tui.prefs.settings import data_dir, records_dir

    assert records_dir() == data_dir() / "records"
    assert host_config_from_args(parse("--headless")).records == records_dir()
    # A solo game: the host and the player keep the record in one folder, so it is one file.
    assert solo_host_config(SoloGame(Rules(), 2)).records == records_dir()
