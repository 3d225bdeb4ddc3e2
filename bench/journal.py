"""What the default journal costs a move: the round trip with and without it, on this machine's disk.

    python bench/journal.py [--moves N] [--rounds R]

Prints one JSON line: the move round trip's p50 and p99 (microseconds) without a
journal and with one (the folder of journals, as every hosted match has now, in
a temporary folder of the current directory's disk, not a RAM disk), and their
ratios. A move is an intent sent until the mover's update has arrived, through
the real host on 127.0.0.1, one move at a time (two seats, both driven here).
The two settings alternate, ``--rounds`` times each, in the same minutes.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import tempfile
import time
from pathlib import Path

from capicu.core import make_player
from capicu.net import Client, Host, HostConfig, Limits, TableConfig, Update
from capicu.net.store.journals import JournalFolder, JournalKind

LOOPBACK = "127.0.0.1"


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


async def _moves(journals: JournalFolder | None, moves: int, seed: int) -> list[float]:
    """The round trip of ``moves`` moves (seconds), at a table journalled in ``journals`` (or not)."""
    table = TableConfig(players=2, seed=seed, next_round_delay=0)
    fast = Limits(messages_per_second=100000, message_burst=100000)
    host = Host(HostConfig(table, bind=LOOPBACK, port=0, journals=journals, limits=fast))
    _, port = await host.start()
    timings: list[float] = []
    try:
        while len(timings) < moves:
            clients = [await Client.connect(LOOPBACK, port, name=name, reconnect=False)
                       for name in ("a", "b")]
            players = [make_player("greedy", n) for n in range(2)]
            for client in clients:
                while client.view is None:
                    await client.receive(timeout=10)
            while len(timings) < moves:
                mover = next((c for c in clients if c.view is not None and c.view.is_my_turn), None)
                if mover is None or mover.view is None or mover.seat is None:
                    break  # the match is over: another one
                action = players[mover.seat].choose(mover.view)
                started = time.perf_counter()
                ref = await mover.send_action(action)
                while True:
                    message = await mover.receive(timeout=10)
                    if isinstance(message, Update) and message.ref == ref:
                        break
                timings.append(time.perf_counter() - started)
                other = clients[1 - mover.seat]
                while other.seq < mover.seq:
                    await other.receive(timeout=10)
            for client in clients:
                await client.close()
            if len(timings) < moves:
                await host.stop()
                host = Host(HostConfig(table, bind=LOOPBACK, port=0, journals=journals, limits=fast))
                _, port = await host.start()
    finally:
        await host.stop()
    return timings


async def main(moves: int, rounds: int) -> dict[str, float]:
    without: list[float] = []
    with_journal: list[float] = []
    with tempfile.TemporaryDirectory(dir=Path.cwd()) as folder:
        journals = JournalFolder(Path(folder), JournalKind.HOST)
        for round_number in range(rounds):
            without += await _moves(None, moves, round_number)
            with_journal += await _moves(journals, moves, round_number)
    result = {
        "moves": float(len(without)),
        "plain_p50_us": round(statistics.median(without) * 1e6, 1),
        "plain_p99_us": round(percentile(without, 0.99) * 1e6, 1),
        "journal_p50_us": round(statistics.median(with_journal) * 1e6, 1),
        "journal_p99_us": round(percentile(with_journal, 0.99) * 1e6, 1),
    }
    result["ratio_p50"] = round(result["journal_p50_us"] / result["plain_p50_us"], 2)
    result["ratio_p99"] = round(result["journal_p99_us"] / result["plain_p99_us"], 2)
    return result


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=200, help="moves per round and setting")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of each setting, alternating")
    options = parser.parse_args()
    print(json.dumps(asyncio.run(main(options.moves, options.rounds))))
