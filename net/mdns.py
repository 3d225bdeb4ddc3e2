"""Tables announced and found on the local network: multicast DNS through python-zeroconf.

The thin asyncio side of net/discovery.py, which decides what the records say:
`Announcer` keeps one table's service registered (updated as its seats fill,
withdrawn with a goodbye when the host stops), `TableWatch` follows the tables on
the network as they appear, change and go, and `look_for_tables` listens for a
while and returns what it heard. Import this module only when announcing or
looking: python-zeroconf is loaded with it (a game against the computer never pays
for it). Multicast DNS reaches the local network segment only (RFC 6762): a router
does not pass it on, and some networks (guest Wi-Fi) drop it.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import logging
from collections.abc import Callable, Sequence

import ifaddr
from zeroconf import IPVersion, ServiceStateChange, Zeroconf
from zeroconf.asyncio import AsyncServiceBrowser, AsyncServiceInfo, AsyncZeroconf

from .discovery import (
    SERVICE_TYPE,
    Ad,
    AdError,
    Found,
    ad_from_txt,
    ad_to_txt,
    choose_address,
    instance_label,
)

__all__ = ["Announcer", "TableWatch", "look_for_tables", "own_addresses"]

#: Milliseconds to wait for a table's details (its TXT, address and port) once its name is heard.
RESOLVE_MS = 3000
#: Seconds a goodbye may take when the host stops (a host never hangs on its announcement).
GOODBYE_TIMEOUT = 2.0

log = logging.getLogger(__name__)


def own_addresses() -> list[str]:
    """This machine's IPv4 interfaces as ``address/prefix``, the loopback left out."""
    found = []
    for adapter in ifaddr.get_adapters():
        for ip in adapter.ips:
            if isinstance(ip.ip, str) and not ipaddress.ip_address(ip.ip).is_loopback:
                found.append(f"{ip.ip}/{ip.network_prefix}")
    return found


def _only(bind: str | None) -> str | None:
    """The one IPv4 address a host listens on (None: every interface, or an IPv6 address)."""
    if bind is None:
        return None
    try:
        address = ipaddress.ip_address(bind)
    except ValueError:
        return None
    return bind if address.version == 4 and not address.is_unspecified else None


def _zeroconf(bind: str | None) -> AsyncZeroconf:
    """A zeroconf instance on every interface (IPv4), or on ``bind``'s alone when it is one IPv4 address.

    OSError or RuntimeError (python-zeroconf's) when there is no interface to use.
    """
    only = _only(bind)
    if only is not None:
        return AsyncZeroconf(interfaces=[only], ip_version=IPVersion.V4Only)
    return AsyncZeroconf(ip_version=IPVersion.V4Only)


class Announcer:
    """One table's announcement, kept up to date: `show` the newest `Ad`, `close` to withdraw it.

    ``bind``: the address the host listens on (None: every interface, each of whose
    addresses is announced). Registering happens in the background; the host never
    waits for the network (the first announcement takes about a second of probing
    for a unique name, RFC 6762 section 8).
    """

    def __init__(self, port: int, bind: str | None = None) -> None:
        self.port = port
        self.bind = bind
        self._ad: Ad | None = None
        self._changed = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._zeroconf: AsyncZeroconf | None = None
        self._info: AsyncServiceInfo | None = None

    def show(self, ad: Ad) -> None:
        """Announce ``ad`` (the first time) or replace what is announced with it (when it differs)."""
        if ad == self._ad:
            return
        self._ad = ad
        self._changed.set()
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run(), name="capicu-announce")

    async def _run(self) -> None:
        try:
            self._zeroconf = _zeroconf(self.bind)
        except (OSError, RuntimeError) as exc:  # no interface to announce on: the host serves all the same
            log.warning("capicu: the table cannot be announced: %s", exc)
            return
        while True:
            await self._changed.wait()
            self._changed.clear()
            ad = self._ad
            assert ad is not None
            try:
                await self._publish(self._zeroconf, ad)
            except Exception as exc:  # the network said no (an interface gone): the next change tries again
                log.warning("capicu: the table's announcement failed: %s", exc)

    async def _publish(self, zeroconf: AsyncZeroconf, ad: Ad) -> None:
        bind = self.bind
        if bind is not None and bind not in ("0.0.0.0", "::", ""):
            addresses = [bind]
        else:
            addresses = [own.split("/")[0] for own in own_addresses()]
        name = self._info.name if self._info is not None else f"{instance_label(ad.name)}.{SERVICE_TYPE}"
        server = self._info.server if self._info is not None else None
        info = AsyncServiceInfo(SERVICE_TYPE, name, port=self.port, properties=ad_to_txt(ad),
                                parsed_addresses=addresses, server=server)
        if self._info is None:
            # allow_name_change: a second table of the same name becomes "Name (2)" on the wire;
            # its record still says its name, which the list shows with its address.
            await (await zeroconf.async_register_service(info, allow_name_change=True))
        else:
            await (await zeroconf.async_update_service(info))
        self._info = info

    async def close(self) -> None:
        """Withdraw the announcement (a goodbye to every listener) and let go of the sockets."""
        task, self._task = self._task, None
        if task is None:
            return
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        zeroconf, self._zeroconf = self._zeroconf, None
        if zeroconf is None:
            return
        try:
            async with asyncio.timeout(GOODBYE_TIMEOUT):
                if self._info is not None:
                    await (await zeroconf.async_unregister_service(self._info))
        except (TimeoutError, OSError) as exc:
            log.warning("capicu: the table's goodbye was not sent: %s", exc)
        finally:
            await zeroconf.async_close()


class TableWatch:
    """The tables on the local network, as they appear, change and go.

    ``changed`` is called on the event loop with every table heard so far (in no
    order: `discovery.listings` sorts them) each time that changes. A record that is
    not a capicu table's announcement is left out (and logged).
    """

    def __init__(self, changed: Callable[[list[Found]], None] | None = None) -> None:
        self._changed = changed
        self.tables: dict[str, Found] = {}
        self._zeroconf: AsyncZeroconf | None = None
        self._browser: AsyncServiceBrowser | None = None
        self._resolving: set[asyncio.Task[None]] = set()
        self._own: list[str] = []

    async def start(self) -> None:
        self._own = own_addresses()
        self._zeroconf = _zeroconf(None)
        self._browser = AsyncServiceBrowser(self._zeroconf.zeroconf, SERVICE_TYPE, handlers=[self._heard])

    async def close(self) -> None:
        for task in list(self._resolving):
            task.cancel()
        if self._browser is not None:
            await self._browser.async_cancel()
        if self._zeroconf is not None:
            await self._zeroconf.async_close()
        self._browser = self._zeroconf = None

    def _heard(self, zeroconf: Zeroconf, service_type: str, name: str,
               state_change: ServiceStateChange) -> None:
        if state_change is ServiceStateChange.Removed:
            if self.tables.pop(name, None) is not None:
                self._tell()
            return
        task = asyncio.get_running_loop().create_task(self._resolve(zeroconf, name))
        self._resolving.add(task)
        task.add_done_callback(self._resolving.discard)

    async def _resolve(self, zeroconf: Zeroconf, name: str) -> None:
        info = AsyncServiceInfo(SERVICE_TYPE, name)
        if not await info.async_request(zeroconf, RESOLVE_MS) or info.port is None:
            return
        try:
            ad = ad_from_txt(info.text or b"")
        except AdError as exc:
            log.info("capicu: %r is not a table's announcement: %s", name, exc)
            return
        address = choose_address(info.parsed_addresses(), self._own)
        if address is None:
            return
        found = Found(ad, address, info.port, name)
        if self.tables.get(name) != found:
            self.tables[name] = found
            self._tell()

    def _tell(self) -> None:
        if self._changed is not None:
            self._changed(list(self.tables.values()))


async def look_for_tables(seconds: float,
                          enough: Callable[[Sequence[Found]], bool] | None = None) -> list[Found]:
    """The tables heard in ``seconds`` (sooner once ``enough`` of what was heard says so)."""
    done = asyncio.Event()

    def changed(tables: list[Found]) -> None:
        if enough is not None and enough(tables):
            done.set()

    watch = TableWatch(changed)
    await watch.start()
    try:
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(seconds):
                await done.wait()
        return list(watch.tables.values())
    finally:
        await watch.close()
