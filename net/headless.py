"""A host with no interface (``capicu host --headless``): serve a table until told to stop.

The command line (tui/) turns its options into a `HostConfig`; this runs it, prints
how to join, and stops cleanly on Ctrl-C or SIGTERM.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import sys
from collections.abc import Callable, Sequence
from contextlib import AbstractAsyncContextManager
from typing import TextIO

from .host import Host, HostConfig, HostError

#: The exit code of a host that cannot start (the port is taken, the journal unreadable).
EXIT_CANNOT_START = 2

#: What runs beside the host while it serves (the SSH gateway), given the running host:
#: entered once the host is up, it yields more lines on how to join, and is left before
#: the host stops. `HostError` on entering: it cannot start, and neither does the host.
Beside = Callable[[Host], AbstractAsyncContextManager[Sequence[str]]]


async def serve_headless(config: HostConfig, out: TextIO | None = None, *,
                         beside: Beside | None = None) -> int:
    """Run a host until Ctrl-C or SIGTERM, after printing how to join; the exit code."""
    out = out or sys.stdout
    host = Host(config)
    try:
        address, port = await host.start()
    except HostError as exc:
        print(f"capicu: {exc}", file=sys.stderr)
        return EXIT_CANNOT_START
    alongside = contextlib.AsyncExitStack()
    more: Sequence[str] = ()
    try:
        if beside is not None:
            more = await alongside.enter_async_context(beside(host))
    except HostError as exc:
        await host.stop()
        print(f"capicu: {exc}", file=sys.stderr)
        return EXIT_CANNOT_START
    try:
        print(f"capicu host: listening on {address} port {port}", file=out)
        print(f"capicu host: join code {config.code}" if config.code else "capicu host: no join code",
              file=out)
        print(f"capicu host: to join, give {host.join_line()}", file=out)
        print(f"capicu host: or type: {host.join_command()}", file=out)
        for line in more:
            print(f"capicu host: {line}", file=out)
        out.flush()
        await _stop_signal()
    finally:
        await alongside.aclose()
        await host.stop()
    print("capicu host: stopped", file=out, flush=True)
    return 0


async def _stop_signal() -> None:
    """Return on Ctrl-C or SIGTERM."""
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
