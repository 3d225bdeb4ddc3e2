"""A host's settings are declared once (`TableConfig` inside `HostConfig`) and checked once, each
refusal a `ConfigProblem` with its params."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from capicu.core import RulesError
from capicu.net import Client, ConfigError, ConfigProblem, ErrorCode, Host, HostConfig, JoinError, TableConfig

from ..conftest import LOOPBACK, WAIT


@pytest.mark.parametrize(("options", "code", "params"), [
    ({"players": 2, "computers": 3}, ConfigProblem.COMPUTERS, {"computers": 3, "players": 2}),
    ({"computers": -1}, ConfigProblem.COMPUTERS, {"computers": -1, "players": 2}),
    ({"computer_level": "genius"}, ConfigProblem.LEVEL, {"level": "genius"}),
    ({"turn_timer": 0}, ConfigProblem.TURN_TIMER, {"seconds": 0}),
    ({"grace": -1}, ConfigProblem.NEGATIVE_SECONDS, {"field": "grace", "seconds": -1}),
    ({"computer_delay": -2}, ConfigProblem.NEGATIVE_SECONDS, {"field": "computer_delay", "seconds": -2}),
    ({"next_round_delay": -0.5}, ConfigProblem.NEGATIVE_SECONDS,
     {"field": "next_round_delay", "seconds": -0.5}),
    ({"name": ""}, ConfigProblem.TABLE_NAME, {"name": ""}),
    ({"name": "x" * 33}, ConfigProblem.TABLE_NAME, {"name": "x" * 33}),
    ({"max_spectators": -1}, ConfigProblem.SPECTATORS, {"spectators": -1}),
])
def test_a_table_setting_that_cannot_be_used_is_refused_with_its_code(
    options: dict[str, Any], code: ConfigProblem, params: dict[str, Any]
) -> None:
    with pytest.raises(ConfigError) as caught:
        TableConfig(**options)
    assert (caught.value.code, caught.value.params) == (code, params)
    assert str(caught.value)  # and in English for a library's user


def test_the_player_count_is_the_rules_to_check() -> None:
    with pytest.raises(RulesError):
        TableConfig(players=9)


@pytest.mark.parametrize(("options", "code"), [
    ({"port": 70000}, ConfigProblem.PORT),
    ({"port": -1}, ConfigProblem.PORT),
    ({"code": "- -"}, ConfigProblem.JOIN_CODE),
    ({"code": "x" * 33}, ConfigProblem.JOIN_CODE),
    ({"rejoin_by_name": True, "code": None}, ConfigProblem.REJOIN_NEEDS_CODE),
    ({"resume": Path("a.journal"), "table": TableConfig(journal=Path("b.journal"))},
     ConfigProblem.RESUME_ELSEWHERE),
    ({"computer_threads": 0}, ConfigProblem.WORKERS),
    ({"computer_processes": -1}, ConfigProblem.WORKERS),
])
def test_a_host_setting_that_cannot_be_used_is_refused_with_its_code(
    options: dict[str, Any], code: ConfigProblem
) -> None:
    with pytest.raises(ConfigError) as caught:
        HostConfig(**options)
    assert caught.value.code is code


def test_resuming_may_name_the_same_journal_for_the_table() -> None:
    path = Path("match.journal")
    assert HostConfig(TableConfig(journal=path), resume=path).resume == path


async def test_max_spectators_is_set_through_the_host_config() -> None:
    host = Host(HostConfig(TableConfig(players=2, max_spectators=1), bind=LOOPBACK, port=0),
                report=lambda text: None)
    _, port = await host.start()
    try:
        eve = await asyncio.wait_for(Client.connect(LOOPBACK, port, name="eve", spectate=True), WAIT)
        with pytest.raises(JoinError) as caught:
            await asyncio.wait_for(Client.connect(LOOPBACK, port, name="zed", spectate=True), WAIT)
        assert caught.value.code == ErrorCode.TABLE_FULL
        await eve.close()
    finally:
        await host.stop()


async def test_any_port_on_every_interface_is_one_port_that_the_loopback_answers() -> None:
    # Without a bind address the system would give the IPv4 and the IPv6 sockets a port each.
    host = Host(HostConfig(TableConfig(players=2), bind=None, port=0), report=lambda text: None)
    _, port = await host.start()
    try:
        assert host._server is not None
        assert {socket.getsockname()[1] for socket in host._server.sockets} == {port}
        ana = await asyncio.wait_for(Client.connect(LOOPBACK, port, name="ana"), WAIT)
        await ana.close()
    finally:
        await host.stop()
