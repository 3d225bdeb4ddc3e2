"""A ``capicu host --headless`` with no journal flags journals its match; killed, it is resumed.

Real processes, real clients over 127.0.0.1: the host keeps its journal in its own
data folder (``CAPICU_DATA_DIR``), a SIGKILL mid-round loses nothing, the next
``capicu host`` says the match is kept, ``--resume`` goes on with it, and the
players come back with their hands and scores. A host that starts another match
instead tells a returning player the truth: ``match_gone``.
"""

from __future__ import annotations

import asyncio
import os
import re
import signal
import sys
from pathlib import Path

import pytest
from capicu.core import make_player
from capicu.net import Client, Error, Update
from capicu.net.client import Closed, JoinError, Reconnecting
from capicu.net.protocol import ErrorCode

from ..conftest import LOOPBACK, WAIT


def _env(home: Path) -> dict[str, str]:
    return {**os.environ, "PYTHONUNBUFFERED": "1", "CAPICU_CONFIG_DIR": str(home / "config"),
            "CAPICU_DATA_DIR": str(home / "data"), "LC_ALL": "C.UTF-8"}


_HOST = ("host", "--headless", "--bind", LOOPBACK, "--port", "0", "--no-code", "--rate", "100000")


async def _start(home: Path, *options: str) -> tuple[asyncio.subprocess.Process, int, list[str]]:
    """``capicu host --headless`` with ``options``: the process, its port, and the lines up to the port."""
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "capicu.tui", *_HOST, *options,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE, env=_env(home),
    )
    assert process.stdout is not None
    lines = []
    async with asyncio.timeout(WAIT):
        while True:
            line = (await process.stdout.readline()).decode()
            if not line:
                error = await process.stderr.read() if process.stderr else b""
                raise AssertionError(f"the host did not start: {error.decode()}")
            lines.append(line)
            found = re.search(r"listening on \S+ port (\d+)", line)
            if found:
                lines.append((await process.stdout.readline()).decode())
                return process, int(found.group(1)), lines


async def _run(home: Path, *options: str) -> tuple[int, str, str]:
    """``capicu host --headless`` with ``options``, expected to stop by itself: code, stdout, stderr."""
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "capicu.tui", *_HOST, *options,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE, env=_env(home),
    )
    out, err = await asyncio.wait_for(process.communicate(), WAIT)
    assert process.returncode is not None
    return process.returncode, out.decode(), err.decode()


async def _stop(process: asyncio.subprocess.Process) -> None:
    if process.returncode is None:
        process.send_signal(signal.SIGTERM)
        try:
            await asyncio.wait_for(process.wait(), WAIT)
        finally:
            if process.returncode is None:
                process.kill()


async def _catch_up(client: Client, seq: int) -> None:
    while client.seq < seq or client.view is None:
        message = await client.receive(timeout=WAIT)
        assert not isinstance(message, Error), message


async def _play(clients: list[Client], moves: int) -> None:
    """Play ``moves`` moves, each answered to its mover and seen by everybody before the next."""
    await asyncio.gather(*(_catch_up(c, 1) for c in clients))
    players = [make_player("greedy", seed) for seed in range(len(clients))]
    for _ in range(moves):
        mover = next(c for c in clients if c.view is not None and c.view.is_my_turn)
        assert mover.seat is not None and mover.view is not None
        ref = await mover.send_action(players[mover.seat].choose(mover.view))
        while True:
            message = await mover.receive(timeout=WAIT)
            assert not isinstance(message, Error), message
            if isinstance(message, Update) and message.ref == ref:
                break
        await asyncio.gather(*(_catch_up(c, mover.seq) for c in clients))


def _journals(home: Path) -> list[Path]:
    return sorted((home / "data" / "journals").glob("*.journal"))


async def test_a_host_with_no_journal_flags_killed_mid_round_is_resumed_with_hands_and_scores(tmp_path):
    process, port, _ = await _start(tmp_path, "--players", "2", "--seed", "5", "--target", "300",
                                    "--next-round-delay", "0")
    try:
        clients = [await Client.connect(LOOPBACK, port, name=name, reconnect=False)
                   for name in ("Ana", "Beto")]
        await _play(clients, 30)
        before = [(c.seat, c.view.hand, c.view.scores, c.view.line, c.seq) for c in clients if c.view]
        tokens = [c.token for c in clients]
        keys = [c.seat_key for c in clients]
        assert all(c.view is not None and not c.view.match_over for c in clients)
        process.kill()  # SIGKILL, mid-round: nothing is flushed on the way out
        await asyncio.wait_for(process.wait(), WAIT)
    finally:
        if process.returncode is None:
            process.kill()
    for client in clients:
        await client.drop()
    kept = _journals(tmp_path)
    assert len(kept) == 1 and "-host-" in kept[0].name

    # Started again the same way: it says the match is kept, and does not start another.
    code, out, err = await _run(tmp_path, "--players", "2")
    assert code == 2, (out, err)
    assert "is unfinished and kept in" in err and str(kept[0]) in err and "--resume" in err
    assert "Ana, Beto" in err
    assert _journals(tmp_path) == kept and kept[0].stat().st_size > 0

    process, port, lines = await _start(tmp_path, "--resume")
    try:
        assert "resuming the Puerto Rican Drawing Game match of" in lines[-1], lines
        assert str(kept[0]) in lines[-1], lines
        back = [await Client.connect(LOOPBACK, port, name="x", token=t, reconnect=False) for t in tokens]
        await asyncio.gather(*(_catch_up(c, 1) for c in back))
        after = [(c.seat, c.view.hand, c.view.scores, c.view.line, c.seq) for c in back if c.view]
        assert after == before
        await _play(back, 2)  # and the match goes on
        for client in back:
            await client.close()
    finally:
        await _stop(process)
    assert process.stdout is not None
    said = (await asyncio.wait_for(process.stdout.read(), WAIT)).decode()
    assert f"the unfinished match is kept: capicu host --resume {kept[0]} goes on with it" in said
    assert _journals(tmp_path) == kept  # still unfinished: still kept

    # Another match instead (--new): the old one is set aside, and a returning player hears it is lost.
    process, port, lines = await _start(tmp_path, "--new")
    try:
        assert any("is set aside in" in line for line in lines), lines
        with pytest.raises(JoinError) as refused:
            await Client.connect(LOOPBACK, port, name="x", token=tokens[0], reconnect=False)
        assert refused.value.code == ErrorCode.MATCH_GONE
        # The seat key (typed on another machine) says the same: it names no match, but the host
        # knows the keys of the matches it set aside.
        with pytest.raises(JoinError) as refused:
            await Client.connect(LOOPBACK, port, name="x", seat_key=keys[1].lower(), reconnect=False)
        assert refused.value.code == ErrorCode.MATCH_GONE
        with pytest.raises(JoinError) as refused:
            await Client.connect(LOOPBACK, port, name="x", seat_key="AAAA-BBBB-CCCC-DD", reconnect=False)
        assert refused.value.code == ErrorCode.BAD_TOKEN
    finally:
        await _stop(process)
    assert _journals(tmp_path) == []  # nobody sat at the new match: no file left
    assert [p.name for p in (tmp_path / "data" / "journals" / "finished").iterdir()] == [kept[0].name]


async def test_no_journal_writes_no_file(tmp_path):
    process, port, _ = await _start(tmp_path, "--no-journal", "--players", "2")
    try:
        clients = [await Client.connect(LOOPBACK, port, name=name, reconnect=False)
                   for name in ("Ana", "Beto")]
        await _play(clients, 2)
        process.kill()
        await asyncio.wait_for(process.wait(), WAIT)
    finally:
        if process.returncode is None:
            process.kill()
    for client in clients:
        await client.drop()
    assert not (tmp_path / "data" / "journals").exists()
    code, _, err = await _run(tmp_path, "--resume")
    assert code == 2 and "there is no unfinished match" in err


async def test_a_match_never_dealt_does_not_stop_a_headless_host_from_starting_again(tmp_path):
    """A lobby with a seat taken, the host stopped: nothing was dealt, so nothing is lost, and the next
    headless host starts (setting that lobby aside, and saying so) instead of refusing."""
    process, port, _ = await _start(tmp_path, "--players", "3")
    try:
        ana = await Client.connect(LOOPBACK, port, name="Ana", reconnect=False)
        await ana.close()
    finally:
        await _stop(process)
    kept = _journals(tmp_path)
    assert len(kept) == 1 and kept[0].stat().st_size > 0  # the lobby's seats were journalled

    process, port, lines = await _start(tmp_path, "--players", "2")
    try:
        said = "".join(lines)
        assert "not dealt yet" in said and "is set aside in" in said, said
        ana = await Client.connect(LOOPBACK, port, name="Ana", reconnect=False)
        await ana.close()
    finally:
        await _stop(process)
    assert [p.name for p in (tmp_path / "data" / "journals" / "finished").iterdir()] == [kept[0].name]


@pytest.mark.parametrize(("journal", "stop"), [(False, signal.SIGTERM), (False, signal.SIGINT),
                                               (True, signal.SIGTERM)])
async def test_a_headless_host_stopped_says_bye_when_no_restart_can_resume_its_match(tmp_path, journal, stop):
    """SIGTERM (or Ctrl-C) to a headless host with ``--no-journal``: its match cannot come back, so the
    players are told the table closed (``bye``, not resumable) instead of trying to reconnect for ever.
    With a journal the match is only paused: no ``bye``, and the clients keep trying."""
    options = () if journal else ("--no-journal",)
    process, port, _ = await _start(tmp_path, "--players", "2", "--computers", "1", *options)
    try:
        ana = await Client.connect(LOOPBACK, port, name="Ana")
        await _catch_up(ana, 1)
        process.send_signal(stop)  # as the operator's Ctrl-C, or a service manager's SIGTERM
        async with asyncio.timeout(WAIT):
            while not isinstance(message := await ana.receive(), Reconnecting | Closed):
                pass
        await ana.close()
    finally:
        await _stop(process)
    if journal:
        assert isinstance(message, Reconnecting) and ana.model.host_bye is None
    else:
        assert isinstance(message, Closed), message
        bye = ana.model.host_bye
        assert bye is not None and (bye.reason, bye.name, bye.resumable) == ("closed", None, False)
