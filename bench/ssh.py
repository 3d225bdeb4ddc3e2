"""The SSH gateway's costs: how fast the lobby comes, bytes per cursor move, memory per session.

Runs ``capicu host --headless --ssh`` as its own process and OpenSSH's ``ssh`` (key
authentication) in 80x24 pseudo-terminals, as a player would, and prints one JSON line:

- ``connect_to_lobby_s``: from starting ``ssh`` until the lobby is on its screen;
- ``connect_to_lobby_s_tcp``: the same for ``capicu join`` over TCP, in the same run
  (goal: the SSH figure within 3x of it);
- ``cursor_move_bytes_ssh``: the bytes the SSH connection carries (encrypted, counted on
  the wire by a relay in this process) for one cursor move in the hand;
  ``cursor_move_bytes_local``: what ``capicu join`` writes to its terminal for the same
  move at the same table, in the same run (goal: SSH at most 1.5x; no SSH compression);
  ``cursor_move_payload_bytes_ssh``: what reaches the SSH client's terminal;
- ``pss_per_session_mb``: the proportional set size each session adds to the gateway's
  process, from 1 to 10 sessions at the table (goal: at most 30 MB), with
  ``pss_mb_1_session`` and ``pss_mb_10_sessions``;
- ``pss_per_process_mb_pty``: what a pseudo-terminal and a child process per player
  (``capicu join`` each) would cost instead, 10 at once (their PSS shares split among them);
- ``table_*``: a whole table by SSH, every seat an OpenSSH ``ssh`` in its own 80x24
  pseudo-terminal, each through its own counting relay: ``table_mexican_*`` for Mexican
  Train with 8 sessions at once (8 players, no computers), ``table_draw_*`` for the Draw
  family with 4 (the most it seats). ``*_cursor_move_bytes``: what the wire carries to the
  player whose turn it is for one cursor move in the hand; ``*_opponent_move_bytes``: what
  it carries to the next player while another plays a tile (ending on the next player's
  turn, as bench/tui.py's opponent move does); ``*_watched_move_bytes``: what the same move
  costs each of the other seats (their median); ``table_mexican_*_ratio``: Mexican Train over
  the Draw family (goal: at most 1.5). The medians of ``--runs`` runs (a new host each).

Each timing is the median of ``--runs`` runs after a warm-up. A burst of output is what is
written until the terminal has been quiet for ``QUIET`` seconds.

    python bench/ssh.py [--runs 5] [--tables-only]

``--tables-only`` measures only the ``table_*`` figures. Needs pyte (the test extras) to read
the screens of the table's sessions.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import importlib.util
import json
import os
import select
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import asyncssh
import pyte

# The pseudo-terminal and the environment of bench/tui.py, measured the same way.
_spec = importlib.util.spec_from_file_location("bench_tui", Path(__file__).with_name("tui.py"))
assert _spec is not None and _spec.loader is not None
bench_tui = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bench_tui)
Terminal = bench_tui.Terminal
RIGHT, LEFT = bench_tui.RIGHT, bench_tui.LEFT
# The reader of a headless host's lines that the tests use (standard library only).
_spec = importlib.util.spec_from_file_location(
    "helpers_process", Path(__file__).parents[1] / "tests" / "helpers_process.py")
assert _spec is not None and _spec.loader is not None
helpers_process = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(helpers_process)

CODE = "BENCH7"
#: A deal in which the first to sit leads: the table opens on that player's turn.
SEED = 4
WAIT = 30.0


class Host:
    """``capicu host --headless --ssh 0`` as a process: its game and SSH ports.

    It keeps no journal: every host here starts a match of its own, and one stopped
    mid-match must not stand in the way of the next (nothing here is resumed).
    """

    def __init__(self, env: dict[str, str], keys: Path, *options: str) -> None:
        argv = [sys.executable, "-m", "capicu.tui", "host", "--headless", "--bind", "127.0.0.1",
                "--port", "0", "--ssh", "0", "--ssh-keys", str(keys), "--code", CODE, "--no-journal",
                *options]
        self.process = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env)
        output = helpers_process.ProcessLines(self.process.stdout, WAIT)
        self.game_port = int(output.matching(r"listening on \S+ port (\d+)").group(1))
        self.ssh_port = int(output.matching(r"SSH on port (\d+)").group(1))

    def pss_mb(self) -> float:
        return pss_mb(self.process.pid)

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(5)
        except subprocess.TimeoutExpired:
            self.process.kill()


def pss_mb(pid: int) -> float:
    """A process's proportional set size (its shared pages split among their users), in MB."""
    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
        if line.startswith("Pss:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError(f"no Pss in /proc/{pid}/smaps_rollup")


class Relay:
    """A TCP relay on 127.0.0.1 that counts the bytes flowing from the server to the client."""

    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.downstream = 0
        self._lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        with contextlib.suppress(OSError):
            while True:
                client, _ = self.listener.accept()
                server = socket.create_connection(("127.0.0.1", self.target_port))
                threading.Thread(target=self._pipe, args=(client, server, False), daemon=True).start()
                threading.Thread(target=self._pipe, args=(server, client, True), daemon=True).start()

    def _pipe(self, source: socket.socket, target: socket.socket, count: bool) -> None:
        with contextlib.suppress(OSError):
            while data := source.recv(65536):
                if count:
                    with self._lock:
                        self.downstream += len(data)
                target.sendall(data)
        with contextlib.suppress(OSError):
            target.shutdown(socket.SHUT_WR)

    def counted(self) -> int:
        with self._lock:
            return self.downstream

    def close(self) -> None:
        self.listener.close()


def ssh_argv(port: int, key: Path, user: str) -> list[str]:
    return ["ssh", "-p", str(port), "-i", str(key), "-F", "/dev/null", "-o", "BatchMode=yes",
            "-o", "IdentitiesOnly=yes", "-o", "StrictHostKeyChecking=no",
            "-o", "UserKnownHostsFile=/dev/null", "-o", "LogLevel=ERROR", "-o", "Compression=no",
            f"{user}@127.0.0.1"]


def join_argv(port: int, user: str) -> list[str]:
    return [sys.executable, "-m", "capicu.tui", "join", f"127.0.0.1:{port}", "--code", CODE,
            "--name", user, "--colors", "256", "--no-mouse"]


def time_to_lobby(argv: list[str], env: dict[str, str]) -> float:
    """Seconds from starting ``argv`` until the lobby shows; then it leaves (its seat freed)."""
    term = Terminal(argv, env)
    try:
        seconds = term.wait_for(rb"Lobby", WAIT)
        term.wait_for(rb"of 3", WAIT)  # the seats are drawn: the lobby is up
        term.send(b"q")
        with contextlib.suppress(subprocess.TimeoutExpired):
            term.process.wait(2)
        if term.process.poll() is None:  # it asks first
            term.send(b"y")
            term.process.wait(5)
        return seconds
    finally:
        term.close()


def cursor_move(term: Any, wire: Relay | None = None) -> tuple[int, int]:
    """(bytes the terminal got, bytes on the wire) for one cursor step in the hand on our turn."""
    term.wait_for(rb"Enter plays it", WAIT)
    term.drain()
    before = wire.counted() if wire else 0
    term.send(RIGHT)
    burst = term.burst(first_wait=2.0)
    if not burst:  # the cursor was on the hand's last tile
        term.send(LEFT)
        burst = term.burst(first_wait=2.0)
    term.drain()
    return len(burst), (wire.counted() - before) if wire else 0


class _Watcher(asyncssh.SSHClientSession):  # type: ignore[misc]
    """An SSH client's session that notes when its table (or lobby) has been drawn."""

    def __init__(self) -> None:
        self.seen = bytearray()
        self.drawn = asyncio.Event()

    def data_received(self, data: bytes, datatype: Any) -> None:
        self.seen.extend(data)
        if b"pozo" in self.seen or b"Lobby" in self.seen:
            self.drawn.set()


async def _sessions(port: int, key: asyncssh.SSHKey, count: int, opened: list[Any]) -> None:
    """``count`` more SSH sessions (asyncssh clients) that stay open, each until its table is drawn."""
    for _ in range(count):
        conn = await asyncssh.connect("127.0.0.1", port, username=f"guest{len(opened) + 1}",
                                      client_keys=[key], known_hosts=None, agent_path=None)
        _, watcher = await conn.create_session(_Watcher, term_type="xterm-256color", term_size=(80, 24),
                                               encoding=None)
        await asyncio.wait_for(watcher.drawn.wait(), WAIT)
        opened.append(conn)


def memory(env: dict[str, str], keys: Path, key_file: Path) -> dict[str, float]:
    """PSS of the gateway with 1 session and with 10, and of 10 ``capicu join`` processes."""
    key = asyncssh.read_private_key(key_file)
    host = Host(env, keys, "--players", "2", "--computers", "1", "--seed", str(SEED),
                "--ssh-per-address", "20")
    opened: list[Any] = []

    async def measure() -> tuple[float, float]:
        await _sessions(host.ssh_port, key, 1, opened)
        await asyncio.sleep(1.0)  # the sessions' screens settle (timers, caches) before measuring
        one = host.pss_mb()
        await _sessions(host.ssh_port, key, 9, opened)
        await asyncio.sleep(1.0)
        ten = host.pss_mb()
        for conn in opened:
            conn.close()
        return one, ten

    try:
        one, ten = asyncio.run(measure())
        # The alternative: a child process per player in its own pseudo-terminal.
        terms = [Terminal([*join_argv(host.game_port, f"pty{n}"), "--spectate"], env) for n in range(10)]
        try:
            for term in terms:
                term.wait_for(rb"watching", WAIT)
            time.sleep(1.0)
            pty_each = sum(pss_mb(term.process.pid) for term in terms) / len(terms)
        finally:
            for term in terms:
                term.close()
    finally:
        host.stop()
    return {"pss_mb_1_session": round(one, 1), "pss_mb_10_sessions": round(ten, 1),
            "pss_per_session_mb": round((ten - one) / 9, 2), "pss_per_process_mb_pty": round(pty_each, 1)}



#: Where a player's status line asks for a tile (the Draw family's and Mexican Train's wording).
_MY_TURN = ("Enter plays it", "Enter lays a tile")


class Seat:
    """One player at a table by SSH: OpenSSH's ``ssh`` in a pseudo-terminal, through a counting relay."""

    def __init__(self, ssh_port: int, key_file: Path, user: str, env: dict[str, str]) -> None:
        self.relay = Relay(ssh_port)
        self.term = Terminal(ssh_argv(self.relay.port, key_file, user), env)
        self.screen = pyte.Screen(bench_tui.COLUMNS, bench_tui.ROWS)
        self.stream = pyte.ByteStream(self.screen)

    def read(self, data: bytes) -> None:
        self.stream.feed(data)

    def status(self) -> str:
        """The status line: the row below the chat line."""
        rows = self.screen.display
        for index, row in enumerate(rows[:-1]):
            if "c to chat" in row:
                return rows[index + 1].strip()
        return ""

    def text(self) -> str:
        return "\n".join(self.screen.display)

    def cursor(self) -> tuple[int, int] | None:
        """Where the hand's cursor mark (the ``▔`` under the tile) is drawn: (row, column)."""
        for row, line in enumerate(self.screen.display):
            if "\u2594" in line:
                return row, line.index("\u2594")
        return None

    def close(self) -> None:
        self.term.close()
        self.relay.close()


class SshTable:
    """Every seat of a headless host's table taken by SSH; their output read all together."""

    def __init__(self, host: Host, key_file: Path, players: int, env: dict[str, str]) -> None:
        self.seats: list[Seat] = []
        for n in range(players):
            self.seats.append(Seat(host.ssh_port, key_file, f"p{n + 1}", env))
            self.settle(lambda: True, 0.0)  # read as they come: a full terminal would hold the wire up

    def pump(self, timeout: float) -> bool:
        """Read whatever any seat's terminal has, waiting at most ``timeout``; False if none had any."""
        by_master = {seat.term.master: seat for seat in self.seats}
        ready, _, _ = select.select(list(by_master), [], [], timeout)
        for master in ready:
            seat = by_master[master]
            try:
                data = os.read(master, 65536)
            except OSError:
                continue
            seat.term.seen += data
            seat.read(data)
        return bool(ready)

    def settle(self, done: Any, timeout: float = WAIT) -> None:
        """Read until ``done()`` holds and every terminal has been quiet for ``QUIET`` seconds."""
        deadline = time.monotonic() + timeout
        while self.pump(bench_tui.QUIET) or not done():
            if time.monotonic() > deadline:
                if done():
                    return  # never quiet (a timer repaints), but what was asked is there
                raise TimeoutError("the table never settled: " + " | ".join(s.status() for s in self.seats))

    def to_play(self) -> Seat | None:
        """The seat whose status line asks it for a tile, if any."""
        return next((seat for seat in self.seats if any(ask in seat.status() for ask in _MY_TURN)), None)

    def counted(self) -> list[int]:
        return [seat.relay.counted() for seat in self.seats]

    def close(self) -> None:
        for seat in self.seats:
            seat.close()


def _lay(table: SshTable, seat: Seat) -> None:
    """The tile under the cursor, played by keys (ended as a run of one, or on the first lane offered)."""
    seat.term.send(b"\r")
    table.settle(lambda: not any(ask in seat.status() for ask in _MY_TURN))
    status = seat.status()
    if "fits both ends" in status:
        seat.term.send(LEFT)
    elif "Run of" in status or "which train?" in status:
        seat.term.send(b"\r")
    elif "is playing" not in status:
        raise RuntimeError(f"the tile under the cursor was not played: {status}\n{seat.text()}")
    table.settle(lambda: "is playing" in seat.status())


def _pass_the_turn(table: SshTable) -> None:
    """Whoever's turn it is with no tile to play draws or passes, until a seat is asked for a tile."""
    for _ in range(40):
        if table.to_play() is not None:
            return
        for seat in table.seats:
            status = seat.status()
            if "press d" in status:
                seat.term.send(b"d")
            elif "press p" in status:
                seat.term.send(b"p")
        table.settle(lambda: True)
    raise RuntimeError("no seat was asked for a tile")


def table_moves(env: dict[str, str], keys: Path, key_file: Path, options: list[str],
                players: int) -> tuple[int, int, int]:
    """Bytes on the wire at a table of ``players`` SSH sessions: (cursor move, opponent move, the same
    move as the other seats see it, their median)."""
    host = Host(env, keys, "--players", str(players), "--computers", "0",
                "--ssh-per-address", str(players),
                *options)
    table = SshTable(host, key_file, players, env)
    try:
        table.settle(lambda: table.to_play() is not None or any("press" in s.status() for s in table.seats),
                     timeout=120)
        _pass_the_turn(table)
        mover = table.to_play()
        assert mover is not None
        index = table.seats.index(mover)
        before, mark = table.counted()[index], mover.cursor()
        mover.term.send(RIGHT)
        table.settle(lambda: True)
        cursor = table.counted()[index] - before
        # Told by the cursor's mark, not by the bytes: a late repaint of the table under load would
        # pass for a move.
        if mover.cursor() == mark:  # it was on the hand's last tile (nothing to draw): step left instead
            before = table.counted()[index]
            mover.term.send(LEFT)
            table.settle(lambda: True)
            cursor = table.counted()[index] - before
            mover.term.send(RIGHT)
        else:
            mover.term.send(LEFT)
        table.settle(lambda: True)
        before_all = table.counted()
        _lay(table, mover)
        # The next player: the seat now asked (or told to draw), else the first seat not the mover's.
        after = table.counted()
        asked = [n for n, seat in enumerate(table.seats)
                 if n != index and not seat.status().endswith("is playing...")]
        following = asked[0] if asked else (index + 1) % players
        others = [after[n] - before_all[n] for n in range(players) if n not in (index, following)]
        return cursor, after[following] - before_all[following], int(statistics.median(others))
    finally:
        table.close()
        host.stop()


def tables(env: dict[str, str], keys: Path, key_file: Path, runs: int) -> dict[str, Any]:
    """The ``table_*`` figures: Mexican Train with 8 SSH sessions, the Draw family with 4, alternated."""
    mexican: list[tuple[int, int, int]] = []
    draw: list[tuple[int, int, int]] = []
    for run in range(runs):
        seed = str(SEED + run)
        draw.append(table_moves(env, keys, key_file, ["--preset", "draw", "--seed", seed], 4))
        mexican.append(table_moves(env, keys, key_file, ["--preset", "mexican-train", "--seed", seed], 8))
    figures: dict[str, Any] = {}
    for name, moves in (("draw", draw), ("mexican", mexican)):
        figures[f"table_{name}_cursor_move_bytes"] = int(statistics.median(m[0] for m in moves))
        figures[f"table_{name}_opponent_move_bytes"] = int(statistics.median(m[1] for m in moves))
        figures[f"table_{name}_watched_move_bytes"] = int(statistics.median(m[2] for m in moves))
    for move in ("cursor", "opponent", "watched"):
        figures[f"table_mexican_{move}_move_ratio"] = round(
            figures[f"table_mexican_{move}_move_bytes"] / max(figures[f"table_draw_{move}_move_bytes"], 1), 2)
    figures.update(table_mexican_sessions=8, table_draw_sessions=4,
                   table_runs_bytes={"draw": draw, "mexican": mexican})
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--tables-only", action="store_true", help="only the table_* figures")
    args = parser.parse_args()
    if shutil.which("ssh") is None:
        print("bench/ssh.py needs OpenSSH's ssh client", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        env = bench_tui.environment(str(root / "config"), str(root / "pycache"))
        env.pop("SSH_CONNECTION", None)
        key = asyncssh.generate_private_key("ssh-ed25519")
        key_file = root / "id_ed25519"
        key_file.write_bytes(key.export_private_key())
        key_file.chmod(0o600)
        keys = root / "authorized_keys"
        keys.write_bytes(key.export_public_key())
        if args.tables_only:
            print(json.dumps({**tables(env, keys, key_file, args.runs), "runs": args.runs}))
            return 0

        # The lobby: a table of three with open seats, joined and left again and again.
        host = Host(env, keys, "--players", "3")
        try:
            time_to_lobby(ssh_argv(host.ssh_port, key_file, "warm"), env)  # the gateway loads Textual
            time_to_lobby(join_argv(host.game_port, "warm"), env)
            ssh_times, tcp_times = [], []
            for run in range(args.runs):
                ssh_times.append(time_to_lobby(ssh_argv(host.ssh_port, key_file, f"s{run}"), env))
                tcp_times.append(time_to_lobby(join_argv(host.game_port, f"t{run}"), env))
        finally:
            host.stop()

        # One cursor move, at the same table (the same seed) over SSH and in a local terminal.
        ssh_bytes, wire_bytes, local_bytes = [], [], []
        for _ in range(args.runs):
            host = Host(env, keys, "--players", "2", "--computers", "1", "--seed", str(SEED))
            relay = Relay(host.ssh_port)
            try:
                term = Terminal(ssh_argv(relay.port, key_file, "ana"), env)
                try:
                    payload, wire = cursor_move(term, relay)
                finally:
                    term.close()
            finally:
                relay.close()
                host.stop()
            host = Host(env, keys, "--players", "2", "--computers", "1", "--seed", str(SEED))
            try:
                term = Terminal(join_argv(host.game_port, "ana"), env)
                try:
                    local, _ = cursor_move(term)
                finally:
                    term.close()
            finally:
                host.stop()
            ssh_bytes.append(payload)
            wire_bytes.append(wire)
            local_bytes.append(local)

        figures = memory(env, keys, key_file)
        figures.update(tables(env, keys, key_file, args.runs))

    lobby_ssh, lobby_tcp = statistics.median(ssh_times), statistics.median(tcp_times)
    wire, local = statistics.median(wire_bytes), statistics.median(local_bytes)
    print(json.dumps({
        "connect_to_lobby_s": round(lobby_ssh, 3),
        "connect_to_lobby_s_tcp": round(lobby_tcp, 3),
        "lobby_ratio": round(lobby_ssh / lobby_tcp, 2),
        "cursor_move_bytes_ssh": int(wire),
        "cursor_move_bytes_local": int(local),
        "cursor_move_payload_bytes_ssh": int(statistics.median(ssh_bytes)),
        "cursor_move_ratio": round(wire / local, 2) if local else None,
        **figures,
        "runs": args.runs,
    }))
    return 0


if __name__ == "__main__":
    sys.exit(main())
