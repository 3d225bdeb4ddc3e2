"""Mexican Train with real processes: a headless host with 8 seats, two joiners and one SSH player by keys.

A headless Mexican Train host runs as its own process with its SSH gateway (5
computer seats); two ``capicu join`` and one OpenSSH ``ssh`` (key authentication)
run in 80x24 pseudo-terminals, read through a terminal emulator, and play the
whole first round by keys, answering their status lines (Enter lays the tile
under the cursor, Enter ends the opening run, a refused tile moves the cursor on,
d draws, p passes). The seed deals a round in which a seat lays two doubles in
one turn (seed 004's rule), read back from the host's journal. All three say
they are ready; in the second round one joiner is killed with SIGKILL and
started again with the same command: it is back in
its seat with its hand.
"""

from __future__ import annotations

import contextlib
import itertools
import re
import shutil
import sys
import time
from pathlib import Path

import pytest
from helpers_terminal import HeadlessHost, Terminal, capicu_env

asyncssh = pytest.importorskip("asyncssh", reason="the SSH player needs capicu[ssh]")

CODE = "TREN42"
#: A deal whose first round holds a turn of two doubles (a computer's: normal lays a double it can).
SEED = "1"
_TILE = re.compile(r"\[ ?(\d{1,2})\| ?(\d{1,2})\]")

pytestmark = [
    pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals"),
    pytest.mark.skipif(shutil.which("ssh") is None, reason="the SSH player needs OpenSSH's ssh client"),
]


def _join(port: int, config: Path, name: str) -> Terminal:
    argv = [sys.executable, "-m", "capicu.tui", "join", f"127.0.0.1:{port}", "--name", name, "--code", CODE,
            "--no-mouse"]
    return Terminal(argv, capicu_env(config))


def _hand(text: str) -> list[str]:
    """My hand's tiles: the rows below the lanes that begin with a tile (lanes have a '│')."""
    rows = text.splitlines()
    return [f"{a}-{b}" for row in rows if row.lstrip().startswith("[") and "│" not in row
            for a, b in _TILE.findall(row)]


def _seated(text: str) -> bool:
    return "Mexican" in text and len(_hand(text)) >= 5


def _ssh(port: int, key_file: Path, config: Path, name: str) -> Terminal:
    """OpenSSH's ``ssh`` to the host's gateway with a listed key, as a player would type it."""
    argv = ["ssh", "-p", str(port), "-F", "/dev/null", "-i", str(key_file), "-o", "BatchMode=yes",
            "-o", "IdentitiesOnly=yes", "-o", "StrictHostKeyChecking=no",
            "-o", "UserKnownHostsFile=/dev/null", "-o", "LogLevel=ERROR", f"{name}@127.0.0.1"]
    return Terminal(argv, capicu_env(config))


@pytest.fixture
def key_file(tmp_path: Path) -> Path:
    """A client key, listed in ``authorized_keys`` beside it (the gateway lets it in without the code)."""
    key = asyncssh.generate_private_key("ssh-ed25519")
    private = tmp_path / "id_ed25519"
    private.write_bytes(key.export_private_key())
    private.chmod(0o600)
    (tmp_path / "authorized_keys").write_bytes(key.export_public_key())
    return private


@pytest.fixture
def host(tmp_path: Path, key_file: Path) -> HeadlessHost:
    host = HeadlessHost("--preset", "mexican-train", "--players", "8", "--computers", "5", "--code", CODE,
                        "--grace", "600", "--level", "normal", "--seed", SEED,
                        "--ssh", "0", "--ssh-keys", str(tmp_path / "authorized_keys"),
                        env=capicu_env(tmp_path / "host"))
    yield host
    host.stop()


#: What the status line asks on my turn, and the keys that answer it (the first tile that fits).
_ANSWERS: list[tuple[str, bytes]] = [
    ("press p", b"p"),
    ("press d", b"d"),
    ("which train?", b"\r"),
    ("Run of", b"\r"),  # the opening run: one tile is a run; Enter ends it
    ("may not end on a double", b" "),
    ("Your opening run", b"\r"),
    ("Your turn", b"\r"),
    ("Your doubles", b"\r"),  # a turn of doubles under way: the tile under the cursor, another or the cover
    ("must be covered", b"\r"),
    # A refusal: the tile under the cursor does not go there; try the next one.
    ("does not fit", b"\x1b[C\r"),
    ("not open to you", b"\x1b[C\r"),
    ("covered first", b"\x1b[C\r"),
    ("Start your own", b"\x1b[C\r"),
    ("You must play", b"\x1b[C\r"),
]


def _turns_of_two_doubles(config: Path) -> list[tuple[int, str, str]]:
    """Each turn of the host's match so far (its journal) in which a seat laid two doubles in a row:
    the seat and the two doubles. (Nothing comes between the doubles of one turn: after a double
    the seat lays another or the cover, and a draw then may only cover.)"""
    from capicu.core.mexican.events import MexicanTilePlayed
    from capicu.core.mexican.match import MexicanMatch
    from capicu.net.store.journal import read_journal

    (path,) = (config / "journals").glob("*.journal")
    told: list[object] = []
    MexicanMatch.from_log(read_journal(path).match_log(), lambda _m, _a, _s, events: told.extend(events))
    return [(a.seat, str(a.tile), str(b.tile)) for a, b in itertools.pairwise(told)
            if isinstance(a, MexicanTilePlayed) and isinstance(b, MexicanTilePlayed)
            and a.seat == b.seat and a.tile.is_double and b.tile.is_double]


def _status(text: str) -> str:
    """The status line: the row below the chat line."""
    rows = text.splitlines()
    for index, row in enumerate(rows[:-1]):
        if "c to chat" in row:
            return rows[index + 1].strip()
    return ""


def _held(text: str) -> int | None:
    """How many tiles my lane row says I hold ("1 You  11 ...")."""
    match = re.search(r"^. ?.?You\s+(\d+)", text, re.MULTILINE)
    return int(match.group(1)) if match else None


def _whole_hand(text: str) -> bool:
    return _seated(text) and _held(text) == len(_hand(text))


class Player:
    """A joiner at the keyboard: reads its status line and answers it with keys."""

    def __init__(self, terminal: Terminal) -> None:
        self.terminal = terminal
        self.answered = ""
        self.turns = 0  # turns played to the end: my prompts answered, then another seat's turn

    def step(self) -> None:
        self.terminal._read(0.05)
        status = _status(self.terminal.text())
        if status == self.answered:
            return  # answered: wait for the table to change
        for prompt, keys in _ANSWERS:
            if prompt in status:
                self.terminal.send(keys)
                self.answered = status
                return
        if self.answered and "is playing..." in status:
            self.turns += 1
        self.answered = ""  # not my turn: the same prompt next turn is a new question


def _ready_said(text: str) -> bool:
    """Ready said: "You are ready. Waiting for ...", "Everyone is ready", or the next round dealt."""
    status = _status(text)
    return ("ready" in status and "press Enter" not in status) or "round 2 of 13" in text


def _say_ready(terminal: Terminal) -> None:
    """Enter until the status line says I am ready (an Enter just after a round ends is not taken as
    "ready": it was meant for the last tile), so that the next deal does not wait for its countdown."""
    until = time.monotonic() + 10
    while True:
        terminal.send(b"\r")
        try:
            terminal.wait_for(_ready_said, "ready said", timeout=0.5)
            return
        except AssertionError:
            assert time.monotonic() < until, terminal.text()


def _round_over(text: str) -> bool:
    return "Round over" in _status(text)


def _play_round(players: list[Player], timeout: float) -> None:
    """Both players answer their status lines until the round is over on both screens."""
    until = time.monotonic() + timeout
    while not all(_round_over(player.terminal.text()) for player in players):
        texts = "\n\n".join(player.terminal.text() for player in players)
        assert time.monotonic() < until, f"the round did not end; the screens show:\n{texts}"
        for player in players:
            player.step()


def test_two_joiners_and_an_ssh_player_play_a_mexican_train_round_by_keys_and_one_comes_back_after_sigkill(
    host: HeadlessHost, key_file: Path, tmp_path: Path
) -> None:
    assert host.ssh_port is not None
    with contextlib.ExitStack() as started:  # every process this test starts is killed, whatever fails first
        ana = _join(host.port, tmp_path / "ana", "Ana")
        started.callback(ana.kill)
        pepe = _join(host.port, tmp_path / "pepe", "Pepe")
        started.callback(pepe.kill)
        rosa = _ssh(host.ssh_port, key_file, tmp_path / "rosa", "Rosa")
        started.callback(rosa.kill)
        terminals = [ana, pepe, rosa]
        for terminal in terminals:
            terminal.wait_for(_whole_hand, "the table with my hand")
        assert "Rosa" in ana.text() and "Ana" in rosa.text()
        players = [Player(terminal) for terminal in terminals]
        _play_round(players, timeout=45)
        assert all(player.turns >= 2 for player in players), [p.turns for p in players]
        # Seed 1: a seat laid two doubles in one turn this round (and the round went on).
        doubles = _turns_of_two_doubles(tmp_path / "host")
        assert doubles, "no turn of two doubles in round 1"
        for terminal in terminals:
            text = terminal.text()
            assert "round 1 of 13" in text
            # Every train was started by keys: each player's own lane shows tiles.
            lane = next(row for row in text.splitlines() if re.match(r"^. ?.?You\s", row))
            assert _TILE.search(lane), text
        # Ready (Enter) on all three: the second round is dealt; its engine is 11-11.
        for terminal in terminals:
            _say_ready(terminal)
        for terminal in terminals:
            terminal.wait_for(lambda s: "round 2 of 13" in s and _whole_hand(s) and not _round_over(s),
                              "the second round")
        # Pepe stays away from the keyboard: once it is not his turn his hand stays as it is. (The
        # second round may begin with him, the seat after round 1's beginner: he plays that turn.)
        until = time.monotonic() + 20
        while not ("is playing..." in _status(pepe.text()) and _whole_hand(pepe.text())):
            assert time.monotonic() < until, pepe.text()
            for player in players:
                player.step()
            pepe._read(0.05)
        hand = _hand(pepe.text())
        pepe.kill()

        again = _join(host.port, tmp_path / "pepe", "Pepe")
        started.callback(again.kill)
        text = again.wait_for(lambda s: _whole_hand(s) and "back in your seat" in s, "my seat again")
        assert "round 2 of 13" in text
        assert sorted(_hand(text)) == sorted(hand)
        assert "watching" not in text
