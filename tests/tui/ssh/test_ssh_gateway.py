"""The SSH gateway over real SSH on 127.0.0.1: asyncssh's client, and OpenSSH's ``ssh`` where installed.

The host, the gateway and every session's interface run in the test's event loop;
an asyncssh client asks for a pseudo-terminal and reads what it is sent through a
terminal emulator (pyte), as a person's terminal would show it. OpenSSH's tests
run the gateway in its own process (``capicu host --headless --ssh``), since the
pseudo-terminal they read blocks. Every wait is bounded; nothing sleeps to synchronise.
"""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import subprocess
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

asyncssh = pytest.importorskip("asyncssh")

import pyte  # noqa: E402
from capicu.core import make_player  # noqa: E402
from capicu.net.client import Client, Closed, Error, JoinError, Reconnecting, Update  # noqa: E402
from capicu.net.host.server import Host, HostConfig, Limits  # noqa: E402
from capicu.net.host.table import TableConfig  # noqa: E402
from capicu.tui.ssh.gateway import Gateway, GatewayConfig  # noqa: E402
from helpers_process import ProcessLines  # noqa: E402
from helpers_terminal import Terminal, capicu_env  # noqa: E402

WAIT = 20.0
CODE = "KQ7RTM"
#: A deal in which seat 1 (the first to sit) holds the double six and leads: its first move is Enter.
LEAD_SEED = 4
KEYS = {"enter": b"\r", "left": b"\x1b[D", "right": b"\x1b[C", "escape": b"\x1b"}
YOU_MOVED = re.compile(r"You (play|lead)")


class SshScreen(asyncssh.SSHClientSession):  # type: ignore[misc]
    """An SSH client's terminal: what the session sends, drawn by a terminal emulator."""

    def __init__(self, columns: int = 80, rows: int = 24) -> None:
        self.screen = pyte.Screen(columns, rows)
        self.stream = pyte.ByteStream(self.screen)
        self.received = b""
        self.closed = False
        self._changed = asyncio.Event()

    def data_received(self, data: bytes, datatype: Any) -> None:
        self.received += data
        self.stream.feed(data)
        self._changed.set()

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed = True
        self._changed.set()

    def text(self) -> str:
        return "\n".join(self.screen.display)

    def resize(self, columns: int, rows: int) -> None:
        self.screen.resize(rows, columns)

    async def wait_for(self, check: Callable[[str], object], what: str) -> str:
        """The screen once ``check(text)`` holds; fails after `WAIT` seconds or if the session ends."""
        try:
            async with asyncio.timeout(WAIT):
                while True:
                    text = self.text()
                    if check(text):
                        return text
                    if self.closed:
                        raise AssertionError(f"the session ended before {what}:\n{text}")
                    self._changed.clear()
                    await self._changed.wait()
        except TimeoutError:
            raise AssertionError(f"timed out waiting for {what}; the screen shows:\n{self.text()}") from None

    async def wait_closed(self) -> str:
        return await self.wait_for(lambda _: self.closed, "the session to end")


@dataclass
class Session:
    conn: Any
    chan: Any
    screen: SshScreen

    def press(self, *keys: str) -> None:
        for key in keys:
            self.chan.write(KEYS.get(key, key.encode()))

    async def play_first_move(self) -> str:
        """Wait for our turn and play the tile under the cursor, by keys; the screen after."""
        await self.screen.wait_for(lambda text: "Enter plays it" in text, "our turn")
        self.press("enter")
        text = await self.screen.wait_for(lambda text: YOU_MOVED.search(text) or "fits both ends" in text,
                                          "our move")
        if not YOU_MOVED.search(text):
            self.press("left")
            text = await self.screen.wait_for(lambda text: YOU_MOVED.search(text), "our move")
        return text


@dataclass
class Table:
    host: Host
    gateway: Gateway
    game_port: int
    ssh_port: int
    #: A client key listed in the gateway's authorized keys, and one that is not.
    listed_key: Any
    stranger_key: Any

    async def ssh(self, username: str = "ana", **options: Any) -> Session:
        return await ssh_session(self.ssh_port, username, **options)

    async def connect(self, username: str = "ana", **options: Any) -> Any:
        return await ssh_connect(self.ssh_port, username, **options)


async def ssh_connect(port: int, username: str, *, password: str | None = CODE, key: Any = None,
                      **options: Any) -> Any:
    """An SSH connection that got in, with no session open yet."""
    options.setdefault("agent_path", None)
    return await asyncio.wait_for(asyncssh.connect(
        "127.0.0.1", port, username=username, password=None if key else password,
        client_keys=[key] if key else None, known_hosts=None,
        preferred_auth="publickey" if key else "password", **options,
    ), WAIT)


async def ssh_session(port: int, username: str, *, size: tuple[int, int] = (80, 24),
                      **options: Any) -> Session:
    """An SSH session with a pseudo-terminal of ``size``, as a person's ``ssh`` would open."""
    conn = await ssh_connect(port, username, **options)
    chan, screen = await conn.create_session(lambda: SshScreen(*size), term_type="xterm-256color",
                                             term_size=size, encoding=None)
    return Session(conn, chan, screen)


@pytest.fixture
def folders(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A config folder of the test's own (settings, themes, the host key, the seats kept)."""
    monkeypatch.setenv("CAPICU_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.delenv("CAPICU_DATA_DIR", raising=False)
    return tmp_path


@pytest.fixture
async def open_table(folders: Path) -> AsyncIterator[Callable[..., Awaitable[Table]]]:
    """Start a host and its gateway on 127.0.0.1 (any free ports); both stop after the test."""
    started: list[Table] = []
    listed = asyncssh.generate_private_key("ssh-ed25519")
    stranger = asyncssh.generate_private_key("ssh-ed25519")
    keys_file = folders / "authorized_keys"
    keys_file.write_bytes(listed.export_public_key())

    async def start(players: int = 2, computers: int = 1, seed: int = LEAD_SEED, code: str | None = CODE,
                    **gateway: Any) -> Table:
        table = TableConfig(players=players, computers=computers, seed=seed)
        host = Host(HostConfig(table, bind="127.0.0.1", port=0, code=code,
                               limits=Limits(messages_per_second=1000, message_burst=1000)))
        _, game_port = await host.start()
        config = GatewayConfig(port=0, bind="127.0.0.1", authorized_keys=keys_file, **gateway)
        door = Gateway(config, code)
        ssh_port = await door.start(host)
        table = Table(host, door, game_port, ssh_port, listed, stranger)
        started.append(table)
        return table

    yield start
    for table in started:
        await table.gateway.stop()
        await table.host.stop()


async def seats_seen(port: int, until: Callable[[list[Any]], bool] = lambda _: True) -> list[Any]:
    """The seats as a spectator joining over TCP is told them, once ``until(seats)`` holds."""
    client = await asyncio.wait_for(Client.connect("127.0.0.1", port, name="watcher", code=CODE,
                                                   spectate=True), WAIT)
    try:
        async with asyncio.timeout(WAIT):
            while not (client.model.seats and until(list(client.model.seats))):
                await client.receive()
        return list(client.model.seats)
    finally:
        await client.close()


# -- playing ----------------------------------------------------------------------


async def test_an_ssh_player_sees_the_lobby_joins_and_plays_by_keys(open_table: Any) -> None:
    table = await open_table(players=3, computers=1)
    ana = await table.ssh("ana")
    lobby = await ana.screen.wait_for(lambda text: "Lobby" in text and "ana (you)" in text, "the lobby")
    assert "2 of 3" in lobby
    assert ana.screen.screen.lines == 24 and ana.screen.screen.columns == 80

    beto = await table.ssh("beto")  # a second SSH player: the same table, and the match starts
    await beto.screen.wait_for(lambda text: "Lobby" in text or "beto" in text, "beto's lobby")
    text = await ana.play_first_move()
    assert "beto" in text, "the table should name the second SSH player"
    seats = await seats_seen(table.game_port)
    assert [(s.name, s.kind) for s in seats[:2]] == [("ana", "person"), ("beto", "person")]


async def test_a_session_speaks_the_ssh_clients_language(open_table: Any) -> None:
    table = await open_table(players=3, computers=0)
    ana = await table.ssh("ana", env={"LANG": "es_PR.UTF-8"})
    beto = await table.ssh("beto")
    await beto.screen.wait_for(lambda text: "Lobby" in text, "beto's lobby, in English")
    spanish = await ana.screen.wait_for(lambda text: "beto" in text, "ana's lobby, with beto")
    assert "Sala de espera" in spanish and "Lobby" not in spanish, spanish


async def test_a_resize_reaches_the_app(open_table: Any) -> None:
    table = await open_table(players=3)
    ana = await table.ssh("ana")
    await ana.screen.wait_for(lambda text: "Palette" in text.splitlines()[23], "the footer on row 24")
    ana.screen.resize(100, 30)
    ana.chan.change_terminal_size(100, 30)
    text = await ana.screen.wait_for(lambda text: "Palette" in text.splitlines()[29], "the footer on row 30")
    assert text.splitlines()[29].rstrip().endswith("Palette"), "the footer should reach column 100"


async def test_a_terminal_size_is_clamped_at_500_by_200(open_table: Any) -> None:
    """A pty asking for 2^31-1 squared cells (gigabytes of buffers) is drawn at 500x200; so is a resize."""
    table = await open_table(players=3)
    conn = await table.connect("ana")
    huge = 2147483647
    _, screen = await conn.create_session(lambda: SshScreen(500, 200), term_type="xterm",
                                          term_size=(huge, huge), encoding=None)
    text = await screen.wait_for(lambda text: "Palette" in text.splitlines()[199], "the footer on row 200")
    assert text.splitlines()[199].rstrip().endswith("Palette"), "the footer should reach column 500"

    beto = await table.ssh("beto", size=(80, 24))
    await beto.screen.wait_for(lambda text: "Palette" in text.splitlines()[23], "the footer on row 24")
    beto.screen.resize(500, 200)
    beto.chan.change_terminal_size(50000, 50000)
    text = await beto.screen.wait_for(lambda text: "Palette" in text.splitlines()[199], "row 200's footer")
    assert text.splitlines()[199].rstrip().endswith("Palette")


# -- who may come in -------------------------------------------------------------------


async def test_a_wrong_code_is_refused_and_too_many_wait(open_table: Any) -> None:
    table = await open_table(wrong_guesses=3)
    for _ in range(3):
        with pytest.raises(asyncssh.PermissionDenied):
            await table.ssh("ana", password="WRONG1")
    # A fourth guess, even the right code, waits out the window (said in the refusal).
    with pytest.raises(asyncssh.PermissionDenied, match="too many wrong join codes"):
        await table.ssh("ana", password=CODE)
    assert not table.gateway.sessions


async def test_a_listed_key_comes_in_without_the_code_and_a_stranger_key_does_not(open_table: Any) -> None:
    table = await open_table()
    ana = await table.ssh("ana", key=table.listed_key)
    await ana.screen.wait_for(lambda text: "ana" in text, "the table")
    with pytest.raises(asyncssh.PermissionDenied):
        await table.ssh("eve", key=table.stranger_key)


async def test_sessions_are_limited_per_address_and_in_all(open_table: Any) -> None:
    table = await open_table(players=3, computers=0, sessions_per_address=2, max_sessions=3)
    kept = [await table.ssh(name) for name in ("ana", "beto")]
    with pytest.raises(asyncssh.DisconnectError, match="already has 2 SSH sessions open"):
        await table.ssh("cruz")
    await kept[0].screen.wait_for(lambda text: "beto" in text, "the lobby")
    kept[0].press("q")
    await asyncio.wait_for(kept[0].conn.wait_closed(), WAIT)  # the game over, the gateway hangs up
    third = await table.ssh("cruz")  # a place came free
    await third.screen.wait_for(lambda text: "cruz (you)" in text, "cruz's lobby")


async def test_an_idle_session_is_closed(open_table: Any) -> None:
    table = await open_table(players=3, idle_timeout=0.5)
    ana = await table.ssh("ana")
    text = await ana.screen.wait_closed()
    assert "without a key pressed" in text


async def test_an_open_table_lets_anybody_in_and_a_key_still_reclaims(open_table: Any) -> None:
    table = await open_table(code=None)
    first = await table.ssh("ana", key=table.stranger_key)
    await first.play_first_move()
    first.conn.abort()
    await seats_seen(table.game_port, until=lambda seats: not seats[0].connected)
    back = await table.ssh("ana", key=table.stranger_key)
    await back.screen.wait_for(lambda text: "Seat key" in text and "Lobby" not in text, "the table again")
    guest = await table.ssh("beto", password="anything")
    await guest.screen.wait_for(lambda text: "You are watching" in text, "beto watching")


async def test_a_session_without_a_terminal_is_told_to_ask_for_one(open_table: Any) -> None:
    table = await open_table()
    conn = await table.connect("ana")
    _, screen = await conn.create_session(SshScreen, encoding=None)  # no pseudo-terminal asked for
    await screen.wait_closed()
    assert b"capicu needs a terminal" in screen.received, screen.received


async def test_only_the_game_is_served(open_table: Any) -> None:
    table = await open_table()
    conn = await table.connect("ana")
    with pytest.raises(asyncssh.ChannelOpenError, match="request failed"):
        await asyncio.wait_for(conn.run("cat /etc/passwd"), WAIT)
    with pytest.raises(asyncssh.ChannelOpenError):
        await conn.create_connection(asyncssh.SSHTCPSession, "127.0.0.1", table.game_port)
    with pytest.raises(asyncssh.ChannelListenError):
        await conn.forward_remote_port("127.0.0.1", 0, "127.0.0.1", table.game_port)
    with pytest.raises((asyncssh.ChannelOpenError, asyncssh.SFTPError)):
        await asyncio.wait_for(conn.start_sftp_client(), WAIT)
    # The game itself is still served on the same connection, once.
    _, screen = await conn.create_session(SshScreen, term_type="xterm", term_size=(80, 24), encoding=None)
    await screen.wait_for(lambda text: "ana" in text, "the table")
    with pytest.raises(asyncssh.ChannelOpenError):
        await conn.create_session(SshScreen, term_type="xterm", term_size=(80, 24), encoding=None)


@pytest.mark.skipif(shutil.which("ssh-agent") is None, reason="needs OpenSSH's ssh-agent")
async def test_agent_forwarding_is_refused(open_table: Any, tmp_path: Path) -> None:
    table = await open_table()
    socket = tmp_path / "agent.sock"
    agent = subprocess.Popen(["ssh-agent", "-D", "-a", str(socket)], stdout=subprocess.DEVNULL)
    try:
        async with asyncio.timeout(WAIT):
            while not socket.exists():
                await asyncio.sleep(0.02)  # polling for the agent's socket, bounded
        session = await table.ssh("ana", agent_path=str(socket), agent_forwarding=True)
        await session.screen.wait_for(lambda text: "ana" in text, "the table")
        (served,) = table.gateway.sessions
        assert served.chan is not None and served.chan.get_agent_path() is None
    finally:
        agent.terminate()
        agent.wait(WAIT)


# -- seats that survive a dropped session ----------------------------------------------------


async def test_a_dropped_session_reclaims_its_seat_with_the_same_key(open_table: Any) -> None:
    table = await open_table()
    first = await table.ssh("ana", key=table.listed_key)
    await first.play_first_move()
    first.conn.abort()  # the network goes: no goodbye
    await seats_seen(table.game_port, until=lambda seats: not seats[0].connected)

    # A password-only "ana" is not given the seat: it is held for the key's owner.
    other = await table.ssh("ana")
    refused = await other.screen.wait_closed()
    assert "held" in refused and "seat's key given as the password" in refused

    back = await table.ssh("ana", key=table.listed_key)
    text = await back.screen.wait_for(lambda text: "Seat key" in text and "ana" in text, "the table again")
    assert "Lobby" not in text
    seats = await seats_seen(table.game_port)
    assert (seats[0].name, seats[0].connected) == ("ana", True)


async def test_a_cut_connection_holds_the_seat_where_quitting_gives_it_up(open_table: Any) -> None:
    table = await open_table(players=3, computers=0)
    ana = await table.ssh("ana", key=table.listed_key)
    beto = await table.ssh("beto")
    await ana.screen.wait_for(lambda text: "beto" in text, "ana's lobby, with beto")
    # Beto's lobby must be up to be told the news (under load his app may still be starting).
    await beto.screen.wait_for(lambda text: re.search(r"\bana +person +connected", text),
                               "beto's lobby, with ana")
    ana.conn.abort()  # the network goes before the match starts: no goodbye
    seats = await seats_seen(table.game_port, until=lambda seats: not seats[0].connected)
    held = seats[0]
    assert (held.name, held.kind, held.left, held.covered) == ("ana", "person", False, False)
    await beto.screen.wait_for(lambda text: "ana lost the connection; the seat is held" in text
                               and re.search(r"\bana +person +away", text), "ana away in beto's lobby")

    back = await table.ssh("ana", key=table.listed_key)  # the same key: the same seat, at once
    await back.screen.wait_for(lambda text: "ana (you)" in text, "ana's lobby again")
    seats = await seats_seen(table.game_port, until=lambda seats: seats[0].connected)
    assert seats[0].name == "ana"

    beto.press("q")  # quitting is leaving on purpose: before the match, the seat is given up
    await beto.screen.wait_closed()
    seats = await seats_seen(table.game_port, until=lambda seats: seats[1].kind != "person")
    assert seats[1].kind == "open"


async def test_a_password_player_takes_the_seat_back_with_its_seat_key(open_table: Any) -> None:
    table = await open_table()
    first = await table.ssh("ana")
    await first.play_first_move()
    first.press("k")
    shown = await first.screen.wait_for(lambda text: re.search(r"\b[0-9A-Z]{4}(-[0-9A-Z]{2,4}){2,}\b", text),
                                        "the seat key")
    seat_key = re.search(r"\b[0-9A-Z]{4}(-[0-9A-Z]{2,4}){2,}\b", shown)
    assert seat_key is not None
    # The way back is the ssh line, the seat key as the password (no capicu join to install).
    assert f"ssh -p {table.ssh_port} ana@127.0.0.1, with the seat key as the password" in shown, shown
    assert "capicu join" not in shown
    # Nor the hint for capicu join players (the same command on this machine would not bring it back).
    assert "From this machine" not in shown, shown
    first.conn.abort()
    await seats_seen(table.game_port, until=lambda seats: not seats[0].connected)

    back = await table.ssh("ana", password=seat_key.group(0))
    await back.screen.wait_for(lambda text: "Seat key" in text and "Lobby" not in text, "the table again")
    seats = await seats_seen(table.game_port)
    assert (seats[0].name, seats[0].connected) == ("ana", True)


async def test_a_wrong_seat_key_is_refused_in_the_ssh_clients_language(open_table: Any) -> None:
    table = await open_table()
    guess = await table.ssh("eve", password="ZZZZ-ZZZZ-ZZZZ-ZZ", env={"LANG": "es_PR.UTF-8"}, size=(160, 24))
    refused = await guess.screen.wait_closed()
    # The table was reached: it refused (not "could not reach the table").
    assert "La mesa no te dejó entrar" in refused and "No se pudo llegar" not in refused, refused
    assert "por SSH, la llave de un asiento dada como contraseña recupera ese asiento" in refused, refused
    assert "over SSH" not in refused and "password" not in refused, refused


async def test_wrong_seat_keys_from_one_ssh_address_never_cost_another_its_seat(open_table: Any) -> None:
    table = await open_table()
    first = await table.ssh("ana", key=table.listed_key, local_addr=("127.0.0.3", 0))
    await first.play_first_move()
    first.conn.abort()
    await seats_seen(table.game_port, until=lambda seats: not seats[0].connected)
    # Eve guesses seat keys over SSH from 127.0.0.2: the host counts them against 127.0.0.2 alone.
    eve = ("127.0.0.2", 0)
    for number in range(5):
        guess = await table.ssh(f"eve{number}", password=f"ZZZZ-ZZZZ-ZZZZ-Z{number}", local_addr=eve)
        assert "not held" in await guess.screen.wait_closed()
    with pytest.raises(asyncssh.PermissionDenied, match=r"too many wrong join codes from 127\.0\.0\.2"):
        await table.ssh("eve", password="ZZZZ-ZZZZ-ZZZZ-ZZ", local_addr=eve)
    now = asyncio.get_running_loop().time()
    guesses = table.host.machine.secret_guesses
    assert guesses.wait("127.0.0.2", now) > 0, "the host should have seen eve's own address"
    assert guesses.wait("127.0.0.1", now) == 0 and guesses.wait("127.0.0.3", now) == 0

    back = await table.ssh("ana", key=table.listed_key, local_addr=("127.0.0.3", 0))
    await back.screen.wait_for(lambda text: "Seat key" in text and "Lobby" not in text, "the table again")
    # The game port's own limits are as they were: wrong codes over TCP from 127.0.0.1 wait there.
    for _ in range(5):
        with pytest.raises(JoinError, match="join code"):
            await Client.connect("127.0.0.1", table.game_port, name="tcp", code="WRONG1", reconnect=False)
    with pytest.raises(JoinError, match=r"too many wrong join codes from 127\.0\.0\.1"):
        await Client.connect("127.0.0.1", table.game_port, name="tcp", code=CODE, reconnect=False)
    guest = await table.ssh("cruz", local_addr=("127.0.0.4", 0))  # and SSH from elsewhere still comes in
    await guest.screen.wait_for(lambda text: "You are watching" in text, "cruz watching")


async def test_tcp_players_are_unaffected_while_ssh_sessions_come_and_go(open_table: Any) -> None:
    table = await open_table(players=2, computers=1, seed=7)
    client = await asyncio.wait_for(Client.connect("127.0.0.1", table.game_port, name="tcp", code=CODE), WAIT)
    player = make_player("greedy", 0)

    async def visitors() -> int:
        """SSH spectators (the table is full) who arrive, look and leave, one after another."""
        count = 0
        for name in ("v1", "v2", "v3", "v4"):
            visitor = await table.ssh(name)
            await visitor.screen.wait_for(lambda text: "tcp" in text, "the table")
            visitor.conn.abort() if count % 2 else visitor.press("q", "y")
            await visitor.screen.wait_closed()
            count += 1
        return count

    visiting = asyncio.create_task(visitors())
    moves, problems, pending = 0, [], None
    async with asyncio.timeout(WAIT * 2):
        while not visiting.done() or moves < 4:
            view = client.view
            if view is not None and view.is_my_turn and pending is None:
                pending = await client.send_action(player.choose(view))
                moves += 1
            message = await client.receive(timeout=WAIT)
            if isinstance(message, Error | Reconnecting | Closed):
                problems.append(message)
            if isinstance(message, Update) and message.ref == pending:
                pending = None
            if isinstance(message, Update) and message.view is not None and message.view.match_over:
                break
    assert await visiting == 4
    assert moves >= 4 and problems == []
    await client.close()
    # The last visitor's network went: its session ends on the gateway's side too.
    await asyncio.wait_for(asyncio.gather(*(s.finished for s in table.gateway.sessions)), WAIT)
    assert not table.gateway.sessions


async def test_hosting_in_a_terminal_starts_the_gateway_beside_the_table(folders: Path) -> None:
    from capicu.tui.game import DisplayOptions, HostGame
    from capicu.tui.screens.draw_table import DrawTableScreen
    from capicu.tui.ssh.session import HostingApp
    from helpers_app import screen_text, wait_for

    config = HostConfig(TableConfig(players=3), bind="127.0.0.1", port=0, code=CODE)
    gateway = Gateway(GatewayConfig(port=0, bind="127.0.0.1"), CODE)
    app = HostingApp(DisplayOptions(mouse=False), HostGame(config=config, name="Host"), gateway)
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await wait_for(pilot, lambda: "SSH on port" in screen_text(app), what="the host told how to join")
        beto = await ssh_session(gateway.port, "beto")
        await beto.screen.wait_for(lambda text: "beto (you)" in text and "Host" in text, "beto's lobby")
        await wait_for(pilot, lambda: app.table is not None
                       and any(s.name == "beto" for s in app.table.seats), what="beto in the host's lobby")
        # How to join stands in the lobby, never in a notice that would linger over the host's hand.
        assert not any("SSH on port" in n.message for n in app._notifications)
        await pilot.press("s")  # the open seat to a computer: the deal comes
        await wait_for(pilot, lambda: isinstance(app.screen, DrawTableScreen), what="the host's table")
        await wait_for(pilot, lambda: "press j" in screen_text(app) or "j How to join" in screen_text(app),
                       what="the table says where to look")
        assert "SSH on port" not in screen_text(app)
        await pilot.press("j")
        await wait_for(pilot, lambda: "SSH on port" in screen_text(app), what="j shows how to join")
        assert "fingerprint" in screen_text(app)
    assert not gateway.running


@pytest.mark.parametrize(("language", "said"), [
    ("en", "capicu: cannot listen for SSH on 127.0.0.1 port {port}"),
    ("es", "capicu: no se puede escuchar SSH en 127.0.0.1 puerto {port}: "),
])
async def test_a_headless_host_whose_ssh_port_is_taken_does_not_start(
    folders: Path, capsys: pytest.CaptureFixture[str], language: str, said: str
) -> None:
    """Exit 2 with the reason in the operator's language, and nothing said of a host that did not start."""
    from capicu.tui.cli.commands import tell_operator
    from capicu.tui.ssh.gateway import serve_headless_with_ssh
    from capicu.tui.words.messages import command_line_language

    taken = await asyncio.start_server(lambda r, w: None, "127.0.0.1", 0)
    try:
        port = taken.sockets[0].getsockname()[1]
        host, ssh = HostConfig(bind="127.0.0.1", port=0), GatewayConfig(port=port, bind="127.0.0.1")
        with command_line_language(language):
            code = await asyncio.wait_for(serve_headless_with_ssh(host, ssh, tell=tell_operator), WAIT)
    finally:
        taken.close()
    printed = capsys.readouterr()
    assert code == 2 and printed.out == ""
    assert printed.err.startswith(said.format(port=port)), printed.err


def test_a_headless_host_with_ssh_speaks_spanish(folders: Path) -> None:
    """A real ``capicu --lang es host --headless --ssh 0`` on 127.0.0.1: all its lines in Spanish."""
    argv = [sys.executable, "-m", "capicu.tui", "--lang", "es", "host", "--headless", "--bind", "127.0.0.1",
            "--port", "0", "--code", CODE, "--ssh", "0"]
    process = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               env=capicu_env(folders / "config"))
    try:
        lines = ProcessLines(process.stdout, WAIT).first(6)
        assert len(lines) == 6, lines
        port = lines[0].rsplit(" ", 1)[1]
        assert lines[:4] == [
            f"capicu host: escuchando en 127.0.0.1 puerto {port}",
            f"capicu host: código de entrada {CODE}",
            f"capicu host: para unirse, da la dirección 127.0.0.1, puerto {port}, código de entrada {CODE}",
            f"capicu host: o escribe: capicu join 127.0.0.1:{port} --code {CODE}",
        ]
        assert re.fullmatch(r"capicu host: SSH en el puerto \d+: escribe ssh -p \d+ NAME@127\.0\.0\.1 "
                            r"\(el código de entrada como contraseña\)", lines[4]), lines[4]
        assert re.fullmatch(r"capicu host: Huella de la llave SSH del anfitrión \(creada ahora\): SHA256:\S+",
                            lines[5]), lines[5]
        process.terminate()
        out, err = process.communicate(timeout=WAIT)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
    assert (process.returncode, out.decode(), err.decode()) == (0, "capicu host: detenido\n", "")


# -- OpenSSH's own client, against capicu host --headless --ssh ----------------------------------

OPENSSH = shutil.which("ssh")


class SshHost:
    """``capicu host --headless --ssh 0`` as a process; what it prints, read line by line (bounded)."""

    def __init__(self, *options: str, env: dict[str, str]) -> None:
        argv = [sys.executable, "-m", "capicu.tui", "host", "--headless", "--bind", "127.0.0.1",
                "--port", "0", "--ssh", "0", *options]
        self.process = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env,
                                        start_new_session=True)
        self.output = ProcessLines(self.process.stdout, WAIT)
        self.ssh_port = int(self.output.matching(r"SSH on port (\d+)").group(1))
        self.fingerprint_line = self.output.matching(r"fingerprint.*: (SHA256:\S+)")
        self.fingerprint = self.fingerprint_line.group(1)
        self.key_file = Path()

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(WAIT)


@pytest.fixture
def ssh_host(folders: Path) -> Any:
    """``capicu host --headless --ssh 0`` as a process, with a listed key; its ports and key file."""
    key = asyncssh.generate_private_key("ssh-ed25519")
    key_file = folders / "id_ed25519"
    key_file.write_bytes(key.export_private_key())
    key_file.chmod(0o600)
    (folders / "authorized_keys").write_bytes(key.export_public_key())
    env = capicu_env(folders / "config")
    host = SshHost("--code", CODE, "--ssh-keys", str(folders / "authorized_keys"),
                   "--players", "2", "--computers", "1", "--seed", str(LEAD_SEED), env=env)
    host.key_file = key_file
    yield host
    host.stop()


def openssh(host: Any, *extra: str, user: str = "ana") -> list[str]:
    """OpenSSH's ``ssh`` to the gateway, with the listed key (the first value of an option wins)."""
    return [OPENSSH or "ssh", "-p", str(host.ssh_port), "-F", "/dev/null", *extra, "-i", str(host.key_file),
            "-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null", "-o", "BatchMode=yes",
            "-o", "IdentitiesOnly=yes", "-o", "LogLevel=ERROR", f"{user}@127.0.0.1"]


@pytest.mark.skipif(OPENSSH is None, reason="OpenSSH's ssh is not installed")
def test_openssh_plays_by_keys_and_is_refused_the_rest(ssh_host: Any, folders: Path) -> None:
    env = capicu_env(folders / "config")
    term = Terminal(openssh(ssh_host), env)
    try:
        term.wait_for(lambda text: "Enter plays it" in text, "our turn")
        term.send(b"\r")
        text = term.wait_for(lambda text: YOU_MOVED.search(text) or "fits both ends" in text, "our move")
        if not YOU_MOVED.search(text):
            term.send(KEYS["left"])
            term.wait_for(lambda text: YOU_MOVED.search(text), "our move")
    finally:
        term.close()

    # Without a key, OpenSSH asks for the join code at the gateway's keyboard-interactive prompt
    # (answered here by an askpass program, which notes the prompt: the test's terminal is not
    # the program's controlling terminal, so OpenSSH cannot ask on it).
    prompts = folders / "prompts"
    askpass = folders / "askpass"
    askpass.write_text(f'#!/bin/sh\necho "$1" >> {prompts}\necho {CODE}\n')
    askpass.chmod(0o700)
    asking = {**env, "SSH_ASKPASS": str(askpass), "SSH_ASKPASS_REQUIRE": "force"}
    asked = Terminal(openssh(ssh_host, "-o", "PubkeyAuthentication=no", "-o", "BatchMode=no", user="beto"),
                     asking)
    try:
        asked.wait_for(lambda text: "You are watching" in text, "the table, watched (its seats are taken)")
    finally:
        asked.close()
    asked_for = prompts.read_text().splitlines()
    assert len(asked_for) == 1 and asked_for[0].endswith("Join code: "), asked_for

    def run(*extra: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(openssh(ssh_host, *extra), capture_output=True, text=True, timeout=WAIT,
                              stdin=subprocess.DEVNULL, env=env)

    command = run("-T", "cat", "/etc/passwd")
    assert command.returncode != 0 and "root:" not in command.stdout
    forward = run("-N", "-o", "ExitOnForwardFailure=yes", "-R", "0:127.0.0.1:9")
    assert forward.returncode != 0 and "forward" in forward.stderr.lower()
    sftp = subprocess.run(
        ["sftp", "-P", str(ssh_host.ssh_port), "-i", str(ssh_host.key_file), "-F", "/dev/null",
         "-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null", "-o", "BatchMode=yes",
         "-b", "-", "ana@127.0.0.1"],
        input="ls\n", capture_output=True, text=True, timeout=WAIT, env=env)
    assert sftp.returncode != 0


def test_the_host_key_is_kept_and_its_fingerprint_printed(ssh_host: Any, folders: Path) -> None:
    kept = asyncssh.read_private_key(folders / "config" / "ssh_host_ed25519_key")
    assert ssh_host.fingerprint == kept.get_fingerprint("sha256")
    assert any("made now" in line for line in ssh_host.output.lines)
    assert (folders / "config" / "ssh_host_ed25519_key").stat().st_mode & 0o077 == 0
    ssh_host.stop()
    again = SshHost(env=capicu_env(folders / "config"))
    try:
        assert again.fingerprint == ssh_host.fingerprint and "made now" not in again.fingerprint_line.string
    finally:
        again.stop()


def test_without_asyncssh_ssh_says_what_to_install(folders: Path) -> None:
    blocked = "import sys; sys.modules['asyncssh'] = None; from capicu.tui.cli.main import main; " \
              "sys.exit(main(['host', '--headless', '--ssh', '--port', '0']))"
    result = subprocess.run([sys.executable, "-c", blocked], capture_output=True, text=True, timeout=WAIT,
                            env={**os.environ, "CAPICU_CONFIG_DIR": str(folders / "config")})
    assert result.returncode == 2
    assert "pip install 'capicu[ssh]'" in result.stderr


# -- at the door and on the way out (issue 20) -------------------------------------------


class _Typist(asyncssh.SSHClient):  # type: ignore[misc]
    """A person at the keyboard-interactive prompt: types each answer in turn, and reads what is asked."""

    def __init__(self, answers: list[str]) -> None:
        self.answers = answers
        self.asked: list[str] = []

    def kbdint_auth_requested(self) -> str:
        return ""

    def kbdint_challenge_received(self, name: str, instructions: str, lang: str,
                                  prompts: list[tuple[str, bool]]) -> list[str] | None:
        self.asked.append(instructions)
        if not prompts:
            return []
        return [self.answers.pop(0)] if self.answers else None


async def test_a_wrong_code_at_the_prompt_is_said_wrong_before_it_is_asked_again(open_table: Any) -> None:
    table = await open_table()
    typist = _Typist(["WRONG1", CODE])
    conn, _ = await asyncio.wait_for(asyncssh.create_connection(
        lambda: typist, "127.0.0.1", table.ssh_port, username="ana", known_hosts=None, agent_path=None,
        client_keys=None, password=None, preferred_auth="keyboard-interactive"), WAIT)
    try:
        assert len(typist.asked) == 2, typist.asked
        assert "join code" in typist.asked[0] and "not this table's join code" not in typist.asked[0]
        assert "That is not this table's join code" in typist.asked[1]
    finally:
        conn.close()


async def test_leaving_over_ssh_shows_the_way_back_and_it_works(open_table: Any) -> None:
    table = await open_table()
    ana = await table.ssh("ana")
    await ana.play_first_move()
    ana.press("q")
    key_pattern = re.compile(r"\b[0-9A-Z]{4}(-[0-9A-Z]{2,4}){2,}\b")
    shown = await ana.screen.wait_for(lambda text: "Leave the table?" in text and key_pattern.search(text),
                                      "the leave dialog with the seat key")
    flat = " ".join(shown.replace("│", " ").split())
    # Not "the same join command" (the join code would find the seat held): the ssh line and the key.
    assert "same join command" not in flat, shown
    assert f"type ssh -p {table.ssh_port} ana@127.0.0.1 and give your seat key as the password" in flat, shown
    seat_key = key_pattern.search(shown)
    assert seat_key is not None
    ana.press("y")
    await ana.screen.wait_closed()
    await seats_seen(table.game_port, until=lambda seats: seats[0].left)

    back = await table.ssh("ana", password=seat_key.group(0))  # exactly what the dialog said
    await back.screen.wait_for(lambda text: "Seat key" in text and "Lobby" not in text, "the table again")
    seats = await seats_seen(table.game_port, until=lambda seats: seats[0].connected)
    assert (seats[0].name, seats[0].left) == ("ana", False)


def _free_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.mark.parametrize("ssh_free", [False, True])
def test_a_hosting_terminal_prints_the_fingerprint_only_if_ssh_was_on(folders: Path, ssh_free: bool) -> None:
    """``capicu host --ssh PORT`` playing in its terminal, with PORT taken: SSH is off (the screen says
    so), and the way out prints no fingerprint to check (issue 31); with PORT free, it does."""
    import socket

    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    ssh_port = _free_port() if ssh_free else taken.getsockname()[1]
    argv = [sys.executable, "-m", "capicu.tui", "host", "--bind", "127.0.0.1", "--port", str(_free_port()),
            "--no-code", "--name", "Ana", "--ssh", str(ssh_port)]
    term = Terminal(argv, capicu_env(folders / "config"))
    try:
        term.wait_for(lambda text: "Lobby" in text, "the lobby")
        if not ssh_free:
            term.wait_for(lambda text: "SSH is off" in text, "SSH is off")
        else:
            term.wait_for(lambda text: "ssh -p" in text, "the ssh line in the lobby")
        term.send(b"\x11")  # Ctrl+Q
        assert term.wait_exit() == 0
    finally:
        term.close()
        taken.close()
    assert (b"fingerprint" in term.seen) is ssh_free, term.seen[-400:]
