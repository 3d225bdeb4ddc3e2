"""The SSH gateway (``capicu host --ssh``): a friend types ``ssh -p 2222 ana@host`` and sits down.

Nothing to install on their side: each SSH session gets its own capicu interface
(`capicu.tui.ssh.session.SessionApp`) in this process, joined to the host as an
ordinary client (through `Host.connect_local`, under the SSH player's own address,
so the host's limits per address count each player apart) and drawn through the
SSH channel, with the client's terminal type and window size (window changes follow).
A session that ends without its player quitting (the connection went, idle, the
host stopping) hangs up without a goodbye: the seat is held as for any dropped client.

Only the game is served. Entry needs the join code (as the SSH password, or at a
keyboard-interactive prompt), or a key listed in the authorized-keys file the host
names; a seat key given as the password takes that seat back. Shells, commands,
port and agent forwarding, X11 and SFTP are all refused. Wrong codes are limited per
address (`capicu.net.host.throttle.GuessLimit`, as on the game port), connections per
address and in total, a window is drawn at most `MAX_TERMINAL_SIZE` (whatever size
the client asks for), and a session with no key pressed for `GatewayConfig.idle_timeout`
is closed.

The host key is made once and kept in the config folder; its fingerprint is printed
for players to check. A player who came in with a listed key keeps the seat's token
on disk under that user name and key, so coming back the same way reclaims the seat
at once; a password-only player comes back with the seat key as the password, or the
host's approval.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import hashlib
import os
import re
import time
import warnings
from collections.abc import AsyncIterator, Callable
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

import msgspec

# cryptography 47+ deprecates DSA, and asyncssh still names its types at import: a warning about a
# library's insides that would reach the operator's terminal (and a headless host's stderr) at every start.
with warnings.catch_warnings():
    warnings.filterwarnings("ignore", message=".*DSA is deprecated")
    import asyncssh
    from asyncssh.auth import KbdIntChallenge, KbdIntResponse
    from asyncssh.misc import TermModes
from capicu.net.codes import same_code
from capicu.net.host.headless import EXIT_CANNOT_START, CannotStart, News, serve_headless
from capicu.net.host.sanitize import clean_text
from capicu.net.host.server import Host, HostConfig, HostError, HostNote, HostProblem, reachable
from capicu.net.host.throttle import GuessLimit
from capicu.net.protocol import NAME_LIMIT
from capicu.tui.cli.options import DEFAULT_SSH_PORT, CliError
from capicu.tui.game import JoinGame
from capicu.tui.prefs.saved_seats import SEATS_FILE, SeatStore
from capicu.tui.prefs.settings import config_dir, data_dir
from capicu.tui.words.messages import LOCALE_VARIABLES, Wording, later, t, tn

if TYPE_CHECKING:
    from capicu.tui.ssh.session import ChannelDriver, SessionApp

__all__ = [
    "DEFAULT_SSH_PORT", "Gateway", "GatewayConfig", "GatewayError", "gateway_config_from_args",
    "serve_headless_with_ssh",
]

#: The host key's file in the config folder (made on the first ``--ssh``).
HOST_KEY_FILE = "ssh_host_ed25519_key"
#: The folder (in the data folder) of the seats kept for each SSH user name and key.
SEATS_FOLDER = "ssh-seats"

#: A seat key as the table shows it ("K7PX-2MQR-HT4W-9C"): given as the password, it takes that seat.
_SEAT_KEY = re.compile(r"^[A-Za-z0-9]([A-Za-z0-9 -]{0,40}[A-Za-z0-9])?$")
#: A user name an ssh command line takes as it is (others are shown as NAME).
_PLAIN_USER = re.compile(r"^[A-Za-z0-9._-]{1,32}$")
#: The largest window a session is drawn in (columns, rows). The interface keeps a buffer of every
#: cell, so a pty asking for 2147483647 x 2147483647 would cost the host gigabytes: a larger window
#: gets this much of the table, and one session costs at most a few megabytes of screen.
MAX_TERMINAL_SIZE = (500, 200)


class GatewayError(Exception):
    """The gateway cannot start (the port is taken, the host key or keys file is unreadable)."""


class GatewayConfig(msgspec.Struct, frozen=True):
    """Where the gateway listens, who may come in, and how much it takes."""

    port: int = DEFAULT_SSH_PORT
    #: The address to listen on; None listens on every interface, like the game port.
    bind: str | None = None
    #: An OpenSSH authorized-keys file: its keys come in without the join code.
    authorized_keys: Path | None = None
    #: The host key's file (None: `HOST_KEY_FILE` in the config folder).
    host_key: Path | None = None
    #: The folder of the seats kept per user name and key (None: `SEATS_FOLDER` in the data folder).
    seats_folder: Path | None = None
    #: SSH connections at once, in all and from one address.
    max_sessions: int = 40
    sessions_per_address: int = 4
    #: Seconds without a key pressed before a session is closed.
    idle_timeout: float = 30 * 60.0
    #: Seconds a connection has to get in.
    login_timeout: float = 60.0
    #: Wrong join codes (or seat keys) from one address in `guess_window` seconds before it must wait.
    wrong_guesses: int = 5
    guess_window: float = 60.0
    #: Bytes queued for a client that does not read before its session is closed.
    max_unsent: int = 1 << 20

    def __post_init__(self) -> None:
        if not 0 <= self.port <= 65535:
            raise ValueError(f"an SSH port is a number from 0 to 65535, not {self.port}")
        if self.max_sessions < 1 or self.sessions_per_address < 1:
            raise ValueError("the gateway needs room for at least one session")
        if not self.idle_timeout > 0 or not self.login_timeout > 0:
            raise ValueError("the gateway's timeouts must be positive")


def gateway_config_from_args(args: argparse.Namespace) -> GatewayConfig:
    """The `GatewayConfig` ``capicu host --ssh``'s options describe; CliError names what is wrong."""
    if args.ssh == args.port and args.port != 0:
        raise CliError(t("--ssh {port} is the game's own port: give SSH another one (such as {default})",
                         port=str(args.ssh), default=str(DEFAULT_SSH_PORT)))
    keys: Path | None = args.ssh_keys
    if keys is not None and not keys.is_file():
        raise CliError(t("--ssh-keys {path}: there is no such file", path=str(keys)))
    return GatewayConfig(port=args.ssh, bind=args.bind, authorized_keys=keys,
                         max_sessions=args.ssh_max_sessions, sessions_per_address=args.ssh_per_address,
                         idle_timeout=args.ssh_idle * 60)


def load_host_key(path: Path) -> tuple[asyncssh.SSHKey, bool]:
    """The host key kept at ``path``, made there (mode 0600) when missing; (key, made now)."""
    if path.exists():
        try:
            return asyncssh.read_private_key(path), False
        except (OSError, ValueError, asyncssh.KeyImportError) as exc:
            raise GatewayError(t("cannot read the SSH host key {path}: {problem}", path=str(path),
                                 problem=str(exc))) from None
    key = asyncssh.generate_private_key("ssh-ed25519")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(descriptor, "wb") as handle:
            handle.write(key.export_private_key())
    except OSError as exc:
        raise GatewayError(t("cannot keep the SSH host key in {path}: {problem}", path=str(path),
                             problem=str(exc.strerror or exc))) from None
    return key, True


def load_authorized_keys(path: Path) -> asyncssh.SSHAuthorizedKeys:
    try:
        return asyncssh.read_authorized_keys(str(path))
    except OSError as exc:
        raise GatewayError(t("cannot read the authorized keys {path}: {problem}", path=str(path),
                             problem=str(exc.strerror or exc))) from None
    except (ValueError, asyncssh.KeyImportError) as exc:
        raise GatewayError(t("{path} is not an authorized-keys file: {problem}", path=str(path),
                             problem=str(exc))) from None


def player_name(username: str) -> str:
    """The SSH user name as a name at the table (control characters gone, cut to the limit)."""
    name = clean_text(username, limit=NAME_LIMIT)
    return name or "player"


class _Entry(msgspec.Struct):
    """How one connection got in: the key that proves who it is, or a seat key typed as the password."""

    address: str
    username: str = ""
    #: The address the client reached the gateway at (what it would type again).
    reached: str = ""
    key_fingerprint: str | None = None
    seat_key: str | None = None


class Gateway(msgspec.Struct):
    """The SSH listener beside a host's game port (see the module docstring)."""

    config: GatewayConfig
    #: The host's join code (None: the table is open, and so is the gateway).
    code: str | None
    #: The host runs a club night: each SSH player joins the club (and the draws seat them).
    club: bool = False
    report: Callable[[str], None] = lambda _: None
    #: The host the sessions' apps join (in this process), and its game port (the saved seats name it).
    host: Host | None = None
    game_port: int = 0
    port: int = 0
    fingerprint: str = ""
    #: Whether the host key was made by this start (printed so).
    made_host_key: bool = False
    #: Whether the gateway listened at some time (players could come in by SSH).
    served: bool = False
    sessions: set[_Session] = msgspec.field(default_factory=set)
    _connections: dict[str, int] = msgspec.field(default_factory=dict)
    _server: asyncssh.SSHAcceptor | None = None
    _host_key: asyncssh.SSHKey | None = None
    _authorized: asyncssh.SSHAuthorizedKeys | None = None
    #: Made from the config's `wrong_guesses` and `guess_window` (`guesses`).
    _guesses: GuessLimit | None = None

    def __post_init__(self) -> None:
        self._guesses = GuessLimit(self.config.wrong_guesses, self.config.guess_window)

    @property
    def guesses(self) -> GuessLimit:
        """Wrong join codes (and seat keys) per address."""
        assert self._guesses is not None  # made by __post_init__
        return self._guesses

    @property
    def running(self) -> bool:
        return self._server is not None

    def prepare(self) -> None:
        """Read (or make) the host key and read the authorized keys: the fingerprint is known after."""
        if self._host_key is not None:
            return
        path = self.config.host_key or config_dir() / HOST_KEY_FILE
        self._host_key, self.made_host_key = load_host_key(path)
        self.fingerprint = self._host_key.get_fingerprint("sha256")
        if self.config.authorized_keys is not None:
            self._authorized = load_authorized_keys(self.config.authorized_keys)

    async def start(self, host: Host) -> int:
        """Listen for SSH beside ``host`` (running, in this process); the SSH port.

        Each session joins ``host`` through `Host.connect_local`, which tells the host the
        SSH player's own address: its limits per address count each player apart.
        """
        self.prepare()
        # Only now may Textual load (the command line set the colour mode first).
        from capicu.tui.ssh import session  # noqa: F401

        if host.port is None:
            raise GatewayError(t("the game's host is not running"))
        self.host, self.game_port = host, host.port
        config = self.config
        try:
            self._server = await asyncssh.create_server(
                lambda: _Door(self), config.bind or "", config.port,
                server_host_keys=[self._host_key], encoding=None, line_editor=False,
                agent_forwarding=False, x11_forwarding=False, allow_scp=False, sftp_factory=None,
                login_timeout=config.login_timeout, keepalive_interval=30, keepalive_count_max=4,
                reuse_address=True,
            )
        except OSError as exc:
            where = config.bind or t("every interface")
            raise GatewayError(t("cannot listen for SSH on {address} port {port}: {problem}", address=where,
                                 port=str(config.port), problem=str(exc.strerror or exc))) from None
        sockets = self._server.sockets
        self.port = int(sockets[0].getsockname()[1]) if sockets else config.port
        self.served = True
        return self.port

    async def stop(self) -> None:
        """Close every session (their seats held, as for a dropped connection) and stop listening."""
        server, self._server = self._server, None
        if server is None:
            return
        server.close()
        for session in list(self.sessions):
            session.end(later("the host is shutting down"))
        sessions = [s.finished for s in self.sessions]
        if sessions:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.gather(*sessions, return_exceptions=True), 5)
        with contextlib.suppress(Exception):
            await asyncio.wait_for(server.wait_closed(), 2)

    def join_command(self, address: str, user: str = "NAME") -> str:
        shown = f"[{address}]" if ":" in address else address
        port = "" if self.port == 22 else f"-p {self.port} "
        return f"ssh {port}{user}@{shown}"

    def ssh_line(self, entry: _Entry) -> str:
        """The ssh line that brings ``entry``'s player back to this table."""
        user = entry.username if _PLAIN_USER.match(entry.username) else "NAME"
        return self.join_command(reachable(entry.reached), user)

    def return_line(self, entry: _Entry) -> Wording:
        """How ``entry``'s player takes its seat back from another machine (the seat-key dialog)."""
        # TRANSLATORS: {command} is an ssh command line, such as "ssh -p 2222 ana@192.168.1.20".
        return later("{command}, with the seat key as the password", command=self.ssh_line(entry))

    def welcome_lines(self, address: str) -> list[str]:
        """What the host prints: how to join by SSH, and the fingerprint to check."""
        address = reachable(address)
        how = t("the join code as the password") if self.code else t("no password")
        if self._authorized is not None:
            how = t("{way}, or a key in {path}", way=how, path=str(self.config.authorized_keys))
        command, fingerprint = self.join_command(address), self.fingerprint
        return [
            t("SSH on port {port}: type {command} ({how})", port=str(self.port), command=command, how=how),
            t("SSH host key fingerprint (made now): {fingerprint}", fingerprint=fingerprint)
            if self.made_host_key else t("SSH host key fingerprint: {fingerprint}", fingerprint=fingerprint),
        ]

    # -- what the doors ask ---------------------------------------------------------

    def admit(self, address: str) -> tuple[str | None, bool]:
        """Count a new connection: why it is refused (None: it is not), and whether to cut it at once.

        A connection over the limits is told why once the keys are exchanged (an SSH client
        shows the reason then); one far over them is cut before, costing nothing more.
        """
        here = self._connections.get(address, 0)
        total = sum(self._connections.values())
        self._connections[address] = here + 1
        config = self.config
        if total >= config.max_sessions:
            reason = tn("the table is full: {count} SSH player is connected",
                        "the table is full: {count} SSH players are connected", config.max_sessions)
        elif here >= config.sessions_per_address:
            reason = tn("{address} already has {count} SSH session open, the most from one address",
                        "{address} already has {count} SSH sessions open, the most from one address",
                        here, address=address)
        else:
            return None, False
        return reason, total >= 2 * config.max_sessions or here >= 2 * config.sessions_per_address

    def gone(self, address: str) -> None:
        left = self._connections.get(address, 1) - 1
        if left > 0:
            self._connections[address] = left
        else:
            self._connections.pop(address, None)

    def check_secret(self, entry: _Entry, secret: str) -> bool:
        """Whether ``secret`` (a password or a prompt's answer) lets ``entry`` in; wrong ones count."""
        now = time.monotonic()
        wait = self.guesses.wait(entry.address, now)
        if wait > 0:
            seconds = max(1, round(wait))
            raise asyncssh.PermissionDenied(tn(
                "too many wrong join codes from {address}: try again in {count} second",
                "too many wrong join codes from {address}: try again in {count} seconds",
                seconds, address=entry.address))
        secret = secret.strip()
        entry.key_fingerprint = None
        entry.seat_key = None
        if self.code is None or same_code(secret, self.code):
            return True
        if _SEAT_KEY.match(secret) and sum(c.isalnum() for c in secret) >= 8:
            # The host checks it when the session joins, and counts a wrong one for this address.
            entry.seat_key = secret
            return True
        self.guesses.wrong(entry.address, now)
        return False

    def seat_key_failed(self, entry: _Entry) -> None:
        """A seat key given as the password did not take a seat: a wrong guess at the door too."""
        self.guesses.wrong(entry.address, time.monotonic())

    def key_listed(self, key: asyncssh.SSHKey, entry: _Entry) -> bool:
        """Whether ``key`` may come in: a listed one, or any at an open table (it says who comes back)."""
        authorized = self._authorized
        listed = None if authorized is None else authorized.validate(key, entry.address, entry.address)
        if listed is not None:  # the key's options from the file ({} for none) when it is listed
            return True
        return self.code is None

    def seat_store(self, entry: _Entry) -> SeatStore | None:
        """Where the seats of ``entry``'s user name and key are kept (none without a key)."""
        if entry.key_fingerprint is None:
            return None
        identity = f"{entry.username}\n{entry.key_fingerprint}".encode()
        folder = self.config.seats_folder or data_dir() / SEATS_FOLDER
        return SeatStore(folder / hashlib.sha256(identity).hexdigest()[:32] / SEATS_FILE)


class _Door(asyncssh.SSHServer):
    """One SSH connection: who may come in, and what they may open (a game session only)."""

    def __init__(self, gateway: Gateway) -> None:
        self.gateway = gateway
        self.entry = _Entry("?")
        self.counted = False
        #: Why this connection is not let in (over the limits), said once the keys are exchanged.
        self.refused: str | None = None
        self.conn: asyncssh.SSHServerConnection | None = None
        self.session: _Session | None = None

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self.conn = conn
        peer, here = conn.get_extra_info("peername"), conn.get_extra_info("sockname")
        self.entry = _Entry(str(peer[0]) if isinstance(peer, tuple) else str(peer),
                            reached=str(here[0]) if isinstance(here, tuple) else "")
        self.refused, cut = self.gateway.admit(self.entry.address)
        self.counted = True
        if cut:
            conn.disconnect(asyncssh.DISC_TOO_MANY_CONNECTIONS, self.refused or "")

    def connection_lost(self, exc: Exception | None) -> None:
        if self.counted:
            self.counted = False
            self.gateway.gone(self.entry.address)
        if self.session is not None:
            self.session.end(None)

    def begin_auth(self, username: str) -> bool:
        if self.refused is not None:
            raise asyncssh.DisconnectError(asyncssh.DISC_TOO_MANY_CONNECTIONS, self.refused)
        self.entry.username = username
        # Asked even at an open table (no join code): a key then still says who comes back,
        # and a client without one gets in at the first method it tries.
        return True

    def password_auth_supported(self) -> bool:
        return True

    def validate_password(self, username: str, password: str) -> bool:
        return self.gateway.check_secret(self.entry, password)

    def kbdint_auth_supported(self) -> bool:
        return True

    def get_kbdint_challenge(self, username: str, lang: str, submethods: str) -> KbdIntChallenge:
        if self.gateway.code is None:
            return True
        # Before the session, the client's locale is not known: its own language tag, else the host's.
        return ("capicu", t("This table asks for its join code (or your seat key)."), "",
                [(t("Join code: "), False)])

    def validate_kbdint_response(self, username: str,
                                 responses: KbdIntResponse) -> KbdIntChallenge:
        if len(responses) == 1 and self.gateway.check_secret(self.entry, responses[0]):
            return True
        # Asked again, saying why: a bare prompt again reads as if nothing was typed. (Wrong
        # guesses still count: past the limit, `check_secret` refuses and the door closes.)
        return ("capicu", t("That is not this table's join code (nor a seat key). Try again."), "",
                [(t("Join code: "), False)])

    def public_key_auth_supported(self) -> bool:
        return True

    def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        if not self.gateway.key_listed(key, self.entry):
            return False
        # asyncssh checks the signature before letting it in; a password later replaces this.
        self.entry.key_fingerprint = key.get_fingerprint("sha256")
        self.entry.seat_key = None
        return True

    def session_requested(self) -> _Session | bool:
        if self.session is not None and self.session.started:
            return False  # one game per connection
        self.session = _Session(self.gateway, self.entry)
        return self.session

    # Everything else an SSH client may ask for is refused (asyncssh's defaults, said here).

    def connection_requested(self, dest_host: str, dest_port: int, orig_host: str,
                             orig_port: int) -> bool:
        return False

    def server_requested(self, listen_host: str, listen_port: int) -> bool:
        return False

    def unix_connection_requested(self, dest_path: str) -> bool:
        return False

    def unix_server_requested(self, listen_path: str) -> bool:
        return False


def window_size(columns: int, rows: int) -> tuple[int, int] | None:
    """The size a session is drawn at for a window the SSH client gave (None: no size given)."""
    if columns <= 0 or rows <= 0:
        return None
    return min(columns, MAX_TERMINAL_SIZE[0]), min(rows, MAX_TERMINAL_SIZE[1])


class _Session(asyncssh.SSHServerSession[bytes]):
    """One SSH session: a pseudo-terminal's size and type, and the app drawn in it."""

    def __init__(self, gateway: Gateway, entry: _Entry) -> None:
        self.gateway = gateway
        self.entry = entry
        self.chan: asyncssh.SSHServerChannel[bytes] | None = None
        self.term_type = ""
        self.size = (80, 24)
        self.driver: ChannelDriver | None = None
        self.finished: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._app: SessionApp | None = None
        self._task: asyncio.Task[None] | None = None
        self._last_key = time.monotonic()
        self._idle: asyncio.TimerHandle | None = None
        #: Why the gateway ends this session, worded in the session's language when said.
        self._ending: Wording | None = None
        #: The game began in this session (a refused command or subsystem never starts one).
        self.started = False

    # -- asyncssh.SSHServerSession ------------------------------------------------

    def connection_made(self, chan: asyncssh.SSHServerChannel[bytes]) -> None:
        self.chan = chan

    def pty_requested(self, term_type: str, term_size: tuple[int, int, int, int],
                      term_modes: TermModes) -> bool:
        self.term_type = term_type or "xterm"
        self.size = window_size(term_size[0], term_size[1]) or self.size
        return True

    def shell_requested(self) -> bool:
        return True

    def exec_requested(self, command: str) -> bool:
        return False  # only the game: no commands

    def subsystem_requested(self, subsystem: str) -> bool:
        return False  # no SFTP, nor anything else

    def session_started(self) -> None:
        assert self.chan is not None
        self.started = True
        self.gateway.sessions.add(self)
        if self.chan.get_terminal_type() is None:
            self._goodbye(later("capicu needs a terminal: connect with ssh -t"), 2)
            return
        self._task = asyncio.get_running_loop().create_task(self._run())
        self._arm_idle()

    def data_received(self, data: bytes, datatype: asyncssh.DataType) -> None:
        self._last_key = time.monotonic()
        if self.driver is not None:
            self.driver.feed(data)

    def eof_received(self) -> bool:
        self.end(None)
        return False

    def terminal_size_changed(self, width: int, height: int, pixwidth: int, pixheight: int) -> None:
        size = window_size(width, height)
        if size is not None:
            self.size = size
            if self.driver is not None:
                self.driver.resize(*size)

    def connection_lost(self, exc: Exception | None) -> None:
        chan, self.chan = self.chan, None
        self.end(None)
        if chan is not None and self.started:
            # One game per connection: the game over, the connection goes too (and frees its place).
            chan.get_connection().close()

    # -- the session's app ---------------------------------------------------------

    def write(self, data: bytes) -> None:
        chan = self.chan
        if chan is None or chan.is_closing():
            return
        chan.write(data)
        if chan.get_write_buffer_size() > self.gateway.config.max_unsent:
            self.end(later("your connection is too slow to keep up with the table"))

    async def _run(self) -> None:
        from capicu.tui.ssh.session import SessionApp, SessionRequest

        gateway, entry = self.gateway, self.entry
        assert self.chan is not None
        environment = {"TERM": self.term_type}
        sent = self.chan.get_environment()
        for name in ("COLORTERM", *LOCALE_VARIABLES):
            value = sent.get(name)
            if isinstance(value, str):
                environment[name] = value
        assert gateway.host is not None
        join = JoinGame(host="127.0.0.1", port=gateway.game_port, name=player_name(entry.username),
                        code=gateway.code, seat_key=entry.seat_key, return_line=gateway.return_line(entry),
                        ssh_line=gateway.ssh_line(entry), club=gateway.club)
        dial = partial(gateway.host.connect_local, entry.address)
        app = SessionApp(self, SessionRequest(join, gateway.seat_store(entry), environment, dial))
        self._app = app
        status = 0
        try:
            await app.run_async(mouse=False)
            if app.failure is not None:
                status = app.failure_code
                if entry.seat_key is not None and (app.table is None or app.table.view is None):
                    gateway.seat_key_failed(entry)
            # Worded by the app as it closed, in the session's language.
            for line in app.last_words:
                self._say(line)
        except Exception as exc:  # one player's failure never reaches the others
            gateway.report(t("an SSH session of {address} failed: {problem}", address=entry.address,
                             problem=repr(exc)))
            status = 1
        finally:
            self._app = None
        self._goodbye(None if app.last_words else self._ending, status)

    def _say(self, text: str) -> None:
        chan = self.chan
        if chan is not None and not chan.is_closing():
            chan.write((text.replace("\n", "\r\n") + "\r\n").encode("utf-8", "replace"))

    def _goodbye(self, reason: Wording | None, status: int) -> None:
        if reason is not None:
            self._say(t("capicu: {problem}", problem=reason()))
        chan = self.chan
        if chan is not None and not chan.is_closing():
            chan.exit(status)
        self._done()

    def end(self, reason: Wording | None) -> None:
        """Close the session's app (reason: said to the player, if still there).

        The player did not leave (they would have quit the app): the seat is held for them
        as for any dropped connection, and their key or seat key takes it back.
        """
        if self._ending is None and reason is not None:
            self._ending = reason
        if self._app is not None:
            self._app.drop(self._ending)
        elif self._task is None or self._task.done():
            self._goodbye(reason, 0)

    def _done(self) -> None:
        if self._idle is not None:
            self._idle.cancel()
            self._idle = None
        self.gateway.sessions.discard(self)
        if not self.finished.done():
            self.finished.set_result(None)

    def _arm_idle(self) -> None:
        """Close the session once no key has been pressed for the idle timeout."""
        timeout = self.gateway.config.idle_timeout
        left = self._last_key + timeout - time.monotonic()
        if left <= 0:
            self._idle = None
            minutes = max(1, round(timeout / 60))
            self.end(later("closed after {minutes} minutes without a key pressed", minutes=minutes))
            return
        self._idle = asyncio.get_running_loop().call_later(left, self._arm_idle)


async def serve_headless_with_ssh(config: HostConfig, ssh: GatewayConfig, *,
                                  tell: Callable[[News], None]) -> int:
    """``capicu host --headless --ssh``: the host and its SSH gateway until Ctrl-C or SIGTERM.

    ``tell`` hears the operator's news as `serve_headless` gives it (the command line words it).
    """
    gateway = Gateway(ssh, config.code)
    try:
        gateway.prepare()
    except GatewayError as exc:
        tell(CannotStart.of(HostError(str(exc), HostProblem.BESIDE, problem=str(exc))))
        return EXIT_CANNOT_START

    @contextlib.asynccontextmanager
    async def beside(host: Host) -> AsyncIterator[list[str]]:
        gateway.report = lambda text: host.report(HostNote.BESIDE(text=text))
        try:
            await gateway.start(host)
        except GatewayError as exc:
            raise HostError(str(exc), HostProblem.BESIDE, problem=str(exc)) from None
        try:
            yield gateway.welcome_lines(ssh.bind or host.address or "")
        finally:
            await gateway.stop()

    return await serve_headless(config, beside=beside, tell=tell)
