"""A host with no interface (``capicu host --headless``): serve a table until told to stop.

The command line (tui/) turns its options into a `HostConfig`; this runs it, tells
its operator how to join, and stops cleanly on Ctrl-C or SIGTERM. What the operator
is told goes to ``tell`` as values (`CannotStart`, `Serving`, `Noted`, `Stopped`), which
the interface words in its language; without one, `print_in_english` prints them.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from pathlib import Path
from typing import TextIO

import msgspec
from capicu.core.codes import Statement
from capicu.net.host.server import Host, HostConfig, HostError, HostNote, HostProblem, reachable
from capicu.net.host.table import Phase

#: The exit code of a host that cannot start (the port is taken, the journal unreadable).
EXIT_CANNOT_START = 2

#: What runs beside the host while it serves (the SSH gateway), given the running host:
#: entered once the host is up, it yields more lines on how to join, and is left before
#: the host stops. `HostError` on entering: it cannot start, and neither does the host.
Beside = Callable[[Host], AbstractAsyncContextManager[Sequence[str]]]


class CannotStart(msgspec.Struct, frozen=True):
    """The host (or what runs beside it) could not start: the `HostError`'s code, params and English."""

    code: HostProblem
    params: Mapping[str, str | int]
    english: str

    @classmethod
    def of(cls, error: HostError) -> CannotStart:
        return cls(error.code, error.params, str(error))


class Serving(msgspec.Struct, frozen=True):
    """The host is up: where it listens, and what the other players need to join."""

    address: str
    port: int
    code: str | None
    #: The address to give the other players (this machine's on the LAN when it listens everywhere).
    reach: str
    #: The exact ``capicu join ...`` command (a command, never translated).
    command: str
    #: The lines of what runs beside the host (worded by whoever made them).
    more: Sequence[str] = ()
    #: The name the table is announced by on the local network (None: not announced).
    announced: str | None = None


class Noted(msgspec.Struct, frozen=True):
    """Something the running host tells its operator (a journal line dropped, a peer cut off)."""

    note: Statement[HostNote]


class Stopped(msgspec.Struct, frozen=True):
    """The host has stopped (Ctrl-C or SIGTERM)."""

    #: The journal of the unfinished match, kept to be resumed (None: no journal, or the match is over).
    kept: Path | None = None


#: What a headless host tells its operator, in order: `CannotStart`, or `Serving` then `Stopped`,
#: with `Noted` at any time from the start on.
News = CannotStart | Serving | Noted | Stopped


async def serve_headless(config: HostConfig, out: TextIO | None = None, *,
                         beside: Beside | None = None, tell: Callable[[News], None] | None = None) -> int:
    """Run a host until Ctrl-C or SIGTERM, after telling how to join; the exit code.

    ``tell`` hears the `News` (an interface words it); without one, it is printed
    in English to ``out`` (stdout) and, for `CannotStart`, to stderr.
    """
    if tell is None:
        tell = print_in_english(out or sys.stdout)
    host = Host(config, report=lambda note: tell(Noted(note)))
    try:
        address, port = await host.start()
    except HostError as exc:
        tell(CannotStart.of(exc))
        return EXIT_CANNOT_START
    alongside = contextlib.AsyncExitStack()
    more: Sequence[str] = ()
    try:
        if beside is not None:
            more = await alongside.enter_async_context(beside(host))
    except HostError as exc:
        await host.stop()
        tell(CannotStart.of(exc))
        return EXIT_CANNOT_START
    try:
        with _stop_signal() as stop:  # listened for before anyone is told the host is up
            reach = reachable(address)
            tell(Serving(address, port, config.code, reach, host.join_command(), tuple(more),
                         announced=host.announced))
            await stop.wait()
    finally:
        await alongside.aclose()
        # Stopped by its operator. A match a restart can resume (journalled, not over) is only
        # paused: its players' clients keep trying, and come back to ``--resume``. Any other is
        # closed on purpose: a `bye` tells its players not to wait for it (docs/PROTOCOL.md).
        await host.stop(closing=not any(table.resumable for table in host.tables.values()))
    path = host.journal_path
    table = host.tables.get(config.table.name)
    unfinished = table is not None and table.journal is not None and table.phase is not Phase.OVER
    tell(Stopped(path if unfinished and path is not None and path.exists() else None))
    return 0


def print_in_english(out: TextIO) -> Callable[[News], None]:
    """The news as English lines on ``out`` (a problem on stderr): for a caller with no interface."""

    def tell(news: News) -> None:
        if isinstance(news, CannotStart):
            print(f"capicu: {news.english}", file=sys.stderr)
            return
        if isinstance(news, Stopped):
            print("capicu host: stopped", file=out, flush=True)
            return
        if isinstance(news, Noted):  # no interface to word it: its code and params, for a log
            params = ", ".join(f"{name}={value!r}" for name, value in news.note.params)
            print(f"capicu host: {news.note.code}: {params}", file=sys.stderr, flush=True)
            return
        code = f"join code {news.code}" if news.code else "no join code"
        print(f"capicu host: listening on {news.address} port {news.port}", file=out)
        print(f"capicu host: {code}", file=out)
        print(f"capicu host: to join, give address {news.reach}, port {news.port}, {code}", file=out)
        print(f"capicu host: or type: {news.command}", file=out)
        if news.announced is not None:
            print(f"capicu host: announced on the local network as {news.announced}", file=out)
        for line in news.more:
            print(f"capicu host: {line}", file=out)
        out.flush()

    return tell


@contextlib.contextmanager
def _stop_signal() -> Iterator[asyncio.Event]:
    """An event set by Ctrl-C or SIGTERM while this lasts."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    signals = (signal.SIGINT, signal.SIGTERM)
    for sig in signals:
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(sig, stop.set)
    try:
        yield stop
    finally:
        for sig in signals:
            with contextlib.suppress(NotImplementedError, RuntimeError):
                loop.remove_signal_handler(sig)
