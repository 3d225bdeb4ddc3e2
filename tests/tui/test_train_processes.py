"""Mexican Train with real processes: a headless host with 8 seats, two players joining by keys.

A headless Mexican Train host runs as its own process (6 computer seats); two
``capicu join`` run in 80x24 pseudo-terminals, read through a terminal emulator,
and play the whole first round by keys, answering their status lines (Enter lays
the tile under the cursor, Enter ends the opening run, a refused tile moves the
cursor on, d draws, p passes). Both say they are ready; in the second round one
joiner is killed with SIGKILL and started again with the same command: it is
back in its seat with its hand.
"""

from __future__ import annotations

import re
import sys
import time
from pathlib import Path

import pytest
from helpers_terminal import HeadlessHost, Terminal, capicu_env

CODE = "TREN42"
_TILE = re.compile(r"\[ ?(\d{1,2})\| ?(\d{1,2})\]")

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals")


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


@pytest.fixture
def host(tmp_path: Path) -> HeadlessHost:
    host = HeadlessHost("--preset", "mexican-train", "--players", "8", "--computers", "6", "--code", CODE,
                        "--grace", "600", "--level", "easy", "--seed", "7", env=capicu_env(tmp_path / "host"))
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
    ("must be covered", b"\r"),
    # A refusal: the tile under the cursor does not go there; try the next one.
    ("does not fit", b"\x1b[C\r"),
    ("not open to you", b"\x1b[C\r"),
    ("covered first", b"\x1b[C\r"),
    ("Start your own", b"\x1b[C\r"),
    ("You must play", b"\x1b[C\r"),
]


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


def test_two_joiners_play_a_mexican_train_round_by_keys_and_one_comes_back_after_sigkill(
    host: HeadlessHost, tmp_path: Path
) -> None:
    ana = _join(host.port, tmp_path / "ana", "Ana")
    try:  # every process this test starts is killed, whatever fails first
        pepe = _join(host.port, tmp_path / "pepe", "Pepe")
        try:
            for terminal in (ana, pepe):
                terminal.wait_for(_whole_hand, "the table with my hand")
            players = [Player(ana), Player(pepe)]
            _play_round(players, timeout=30)
            assert all(player.turns >= 2 for player in players), [p.turns for p in players]
            for terminal in (ana, pepe):
                text = terminal.text()
                assert "round 1 of 13" in text
                # Both trains were started by keys: each joiner's lane shows tiles.
                lane = next(row for row in text.splitlines() if re.match(r"^. ?.?You\s", row))
                assert _TILE.search(lane), text
            # Ready (Enter) on both: the second round is dealt; its engine is 11-11.
            for terminal in (ana, pepe):
                terminal.send(b"\r")
            for terminal in (ana, pepe):
                terminal.wait_for(lambda s: "round 2 of 13" in s and _whole_hand(s) and not _round_over(s),
                                  "the second round")
            # Pepe stays away from the keyboard: once it is not his turn his hand stays as it is.
            until = time.monotonic() + 20
            while not ("is playing..." in _status(pepe.text()) and _whole_hand(pepe.text())):
                assert time.monotonic() < until, pepe.text()
                players[0].step()
                pepe._read(0.05)
            hand = _hand(pepe.text())
        finally:
            pepe.kill()

        again = _join(host.port, tmp_path / "pepe", "Pepe")
        try:
            text = again.wait_for(lambda s: _whole_hand(s) and "back in your seat" in s, "my seat again")
            assert "round 2 of 13" in text
            assert sorted(_hand(text)) == sorted(hand)
            assert "watching" not in text
        finally:
            again.kill()
    finally:
        ana.kill()
