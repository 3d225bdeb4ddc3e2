"""A small LAN inside this machine: network namespaces joined by a bridge, each one a "machine".

Each machine is a network namespace with one veth link to a bridge, which lives in a
namespace of its own (the "switch"), so nothing of this LAN touches the root
namespace's interfaces: its addresses (`SUBNET`) exist only inside these namespaces,
and multicast goes out on the veth link (a route for 224.0.0.0/4 there). Programs run
on a machine with ``ip netns exec``. Names are unique per LAN (the process id and a
counter), so parallel runs do not collide; `Lan.close` deletes every namespace, which
takes its links and the bridge with it, and is safe to call twice.

Needs root and the ``ip`` command (iproute2). Standard library only, so that bench/
loads it too.
"""

from __future__ import annotations

import asyncio
import ctypes
import itertools
import os
import re
import shutil
import subprocess
import threading
from collections.abc import Callable, Coroutine
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any, TypeVar

T = TypeVar("T")

#: setns(2)'s flag for a network namespace.
_CLONE_NEWNET = 0x40000000

#: The test LAN's addresses: a private /24 that exists only inside the namespaces made here.
SUBNET = "10.231.0"
PREFIX = 24

_lans = itertools.count()


def lan_unavailable() -> str | None:
    """Why a LAN cannot be built here (None: it can)."""
    if os.geteuid() != 0:
        return "the LAN tests need root (network namespaces): run them as root, as .ci/run does"
    if shutil.which("ip") is None:
        return "the LAN tests need the ip command (iproute2) for network namespaces"
    return None


def _sweep_stale() -> None:
    """Delete the namespaces an earlier run left behind (killed before it could): ours are named
    after their process, and only those whose process is gone are touched."""
    try:
        names = os.listdir("/run/netns")
    except OSError:
        return
    for name in names:
        found = re.fullmatch(r"cap(\d+)x\d+(?:sw|m\d+)", name)
        if found is None or int(found.group(1)) == os.getpid():
            continue
        try:
            os.kill(int(found.group(1)), 0)
        except ProcessLookupError:
            subprocess.run(["ip", "netns", "delete", name], capture_output=True, timeout=10)
        except PermissionError:
            continue


def _libc() -> ctypes.CDLL:
    return ctypes.CDLL(None, use_errno=True)


def _ip(*args: str) -> None:
    subprocess.run(["ip", *args], check=True, capture_output=True, timeout=10)


@dataclass
class Machine:
    """One namespace on the LAN: its name (for ``ip netns exec``), its link and its address."""

    namespace: str
    link: str
    address: str

    def command(self, *argv: str) -> list[str]:
        """``argv`` run on this machine."""
        return ["ip", "netns", "exec", self.namespace, *argv]

    def run(self, make: Callable[[], Coroutine[Any, Any, T]]) -> Future[T]:
        """Run ``make()``'s coroutine on this machine: in a thread of its own that joined this
        namespace (setns(2) moves only the calling thread), with an event loop of its own.

        Every socket the coroutine opens (a protocol client, zeroconf's) is this machine's.
        The result comes in the future; wait for it with a timeout.
        """
        done: Future[T] = Future()

        def body() -> None:
            try:
                descriptor = os.open(f"/run/netns/{self.namespace}", os.O_RDONLY)
                try:
                    if _libc().setns(descriptor, _CLONE_NEWNET) != 0:
                        error = ctypes.get_errno()
                        raise OSError(error, os.strerror(error))
                finally:
                    os.close(descriptor)
                done.set_result(asyncio.run(make()))
            except BaseException as exc:
                done.set_exception(exc)

        threading.Thread(target=body, name=f"on-{self.namespace}", daemon=True).start()
        return done

    def link_down(self) -> None:
        """Pull this machine's cable out (its link goes down; its address stays)."""
        _ip("-n", self.namespace, "link", "set", self.link, "down")

    def cut_connections(self, port: int) -> None:
        """Drop this machine's TCP connections on ``port`` (ss -K), as a system that gave up on them would.

        Nothing is sent while its link is down; a peer hears of it (a reset) when it next writes.
        """
        subprocess.run(self.command("ss", "-K", "state", "established", f"( sport = :{port} )"),
                       check=True, capture_output=True, timeout=10)

    def link_up(self) -> None:
        """Put the cable back (and the multicast route, which went with the link)."""
        _ip("-n", self.namespace, "link", "set", self.link, "up")
        subprocess.run(["ip", "-n", self.namespace, "route", "replace", "224.0.0.0/4", "dev", self.link],
                       check=True, capture_output=True, timeout=10)


@dataclass
class Lan:
    """A bridge and the machines on it; `add` one more, `close` to take it all down."""

    tag: str = field(default_factory=lambda: f"cap{os.getpid()}x{next(_lans)}")
    machines: list[Machine] = field(default_factory=list)
    _namespaces: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        _sweep_stale()
        self.switch = f"{self.tag}sw"
        self._make_namespace(self.switch)
        _ip("-n", self.switch, "link", "add", "br0", "type", "bridge")
        _ip("-n", self.switch, "link", "set", "br0", "up")

    def _make_namespace(self, name: str) -> None:
        _ip("netns", "add", name)
        self._namespaces.append(name)
        _ip("-n", name, "link", "set", "lo", "up")

    def add(self) -> Machine:
        """A new machine on the LAN, with the next address (10.231.0.1, .2, ...)."""
        number = len(self.machines) + 1
        namespace = f"{self.tag}m{number}"
        self._make_namespace(namespace)
        port = f"p{number}"
        # The veth pair is made straight into the two namespaces: it never exists in the root one.
        _ip("link", "add", "eth0", "netns", namespace, "type", "veth",
            "peer", "name", port, "netns", self.switch)
        _ip("-n", self.switch, "link", "set", port, "master", "br0")
        _ip("-n", self.switch, "link", "set", port, "up")
        address = f"{SUBNET}.{number}"
        _ip("-n", namespace, "addr", "add", f"{address}/{PREFIX}", "dev", "eth0")
        _ip("-n", namespace, "link", "set", "eth0", "up", "multicast", "on")
        _ip("-n", namespace, "route", "add", "224.0.0.0/4", "dev", "eth0")
        machine = Machine(namespace, "eth0", address)
        self.machines.append(machine)
        return machine

    def close(self) -> None:
        """Delete every namespace made (their links and the bridge go with them)."""
        while self._namespaces:
            name = self._namespaces.pop()
            subprocess.run(["ip", "netns", "delete", name], capture_output=True, timeout=10)
