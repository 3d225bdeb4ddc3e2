"""LAN play: the wire protocol (docs/PROTOCOL.md), the sans-I/O codec, the host and the client."""

from capicu.net.host.server import Host, HostConfig, HostError, HostNote, Limits, RejoinRequest, new_join_code
from capicu.net.host.table import ConfigError, ConfigProblem, TableConfig

from .client import Client, ClientError, Closed, Incoming, JoinError, Reconnected, Reconnecting, Update
from .codec import CLOSED, NEED_DATA, Codec
from .model import Change, TableModel
from .protocol import (
    DEFAULT_PORT,
    PROTOCOL_VERSION,
    ActedBy,
    Chat,
    Error,
    ErrorCode,
    NextRound,
    ProtocolError,
    Seat,
    SeatKind,
    Seats,
    Snapshot,
    StateUpdate,
    TurnTimer,
    Waiting,
    Welcome,
)

__all__ = [
    "CLOSED",
    "DEFAULT_PORT",
    "NEED_DATA",
    "PROTOCOL_VERSION",
    "ActedBy",
    "Change",
    "Chat",
    "Client",
    "ClientError",
    "Closed",
    "Codec",
    "ConfigError",
    "ConfigProblem",
    "Error",
    "ErrorCode",
    "Host",
    "HostConfig",
    "HostError",
    "HostNote",
    "Incoming",
    "JoinError",
    "Limits",
    "NextRound",
    "ProtocolError",
    "Reconnected",
    "Reconnecting",
    "RejoinRequest",
    "Seat",
    "SeatKind",
    "Seats",
    "Snapshot",
    "StateUpdate",
    "TableConfig",
    "TableModel",
    "TurnTimer",
    "Update",
    "Waiting",
    "Welcome",
    "new_join_code",
]
