"""The host's memory after many connections that each end in a fatal error.

    python bench/net_fatal_memory.py [--connections 100000]

A real host runs in its own process on 127.0.0.1; this process opens the
connections (50 at a time), each sends a frame that is not MessagePack, reads
the host's fatal ``bad_frame`` and its hang-up. The host's resident memory
(VmRSS) is read before and after every tenth of them. Prints one JSON line:
rss_mb at each step, and the connections a second (the pauses between
steps, for the host to see the last hang-ups, included).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import time
from multiprocessing.connection import Connection as Pipe

from capicu.net import Host, HostConfig, Limits

LOOPBACK = "127.0.0.1"
GARBAGE = b"\x00\x00\x00\x02\xc1\xc1"


def _serve(pipe: Pipe) -> None:
    async def main() -> None:
        # Room for the benchmark's connections: one address opens them all.
        limits = Limits(connections_per_address=1000)
        host = Host(HostConfig(bind=LOOPBACK, port=0, limits=limits), report=lambda _: None)
        _, port = await host.start()
        pipe.send(port)
        await asyncio.get_running_loop().run_in_executor(None, pipe.recv)
        await host.stop()

    asyncio.run(main())


def rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return round(int(line.split()[1]) / 1024, 1)
    raise RuntimeError("no VmRSS")


async def _one(port: int) -> None:
    reader, writer = await asyncio.open_connection(LOOPBACK, port)
    writer.write(GARBAGE)
    try:
        while await reader.read(65536):
            pass
    except ConnectionError:
        pass
    writer.close()


async def _hammer(port: int, count: int, at_once: int = 50) -> None:
    left = count

    async def worker() -> None:
        nonlocal left
        while left > 0:
            left -= 1
            await _one(port)

    await asyncio.gather(*(worker() for _ in range(at_once)))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--connections", type=int, default=100_000)
    args = parser.parse_args()
    ours, theirs = multiprocessing.Pipe()
    server = multiprocessing.get_context("spawn").Process(target=_serve, args=(theirs,))
    server.start()
    port = ours.recv()
    pid = server.pid
    assert pid is not None
    steps = {0: rss_mb(pid)}
    start = time.perf_counter()
    tenth = max(1, args.connections // 10)
    done = 0
    while done < args.connections:
        batch = min(tenth, args.connections - done)
        asyncio.run(_hammer(port, batch))
        done += batch
        time.sleep(0.5)  # let the host see the last hang-ups
        steps[done] = rss_mb(pid)
    elapsed = time.perf_counter() - start
    ours.send("stop")
    server.join(30)
    rate = round(args.connections / elapsed)
    print(json.dumps({"connections": args.connections, "rss_mb": steps, "connections_per_s": rate}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
