"""A host with no interface (``capicu host --headless``): serve a table until told to stop.

The command line (tui/) turns its options into a `HostConfig`; this runs it, prints
how to join, and stops cleanly on Ctrl-C or SIGTERM.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import sys
from typing import TextIO

from .host import Host, HostConfig, HostError

#: The exit code of a host that cannot start (the port is taken, the journal unreadable).
EXIT_CANNOT_START = 2


async def serve_headless(config: HostConfig, out: TextIO | None = None) -> int:
    """Run a host until Ctrl-C or SIGTERM, after printing how to join; the exit code."""
    out = out or sys.stdout
    host = Host(config)
    try:
        address, port = await host.start()
    except HostError as exc:
        print(f"capicu: {exc}", file=sys.stderr)
        return EXIT_CANNOT_START
    print(f"capicu host: listening on {address} port {port}", file=out)
    print(f"capicu host: join code {config.code}" if config.code else "capicu host: no join code",
          file=out)
    print(f"capicu host: to join, give {host.join_line()}", file=out)
    print(f"capicu host: or type: {host.join_command()}", file=out, flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    signals = (signal.SIGINT, signal.SIGTERM)
    for sig in signals:
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(sig, stop.set)
    try:
        await stop.wait()
    finally:
        for sig in signals:
            with contextlib.suppress(NotImplementedError, RuntimeError):
                loop.remove_signal_handler(sig)
        await host.stop()
    print("capicu host: stopped", file=out, flush=True)
    return 0
