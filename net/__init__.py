"""LAN play: the wire protocol (docs/PROTOCOL.md), the sans-I/O codec, the host and the client."""

from .client import Client, ClientError, Closed, Incoming, JoinError, Reconnected, Reconnecting
from .codec import CLOSED, NEED_DATA, Codec
from .host import Host, HostConfig, HostError, Limits, RejoinRequest, new_join_code
from .protocol import (
    DEFAULT_PORT,
    PROTOCOL_VERSION,
    Chat,
    Error,
    ErrorCode,
    NextRound,
    ProtocolError,
    SeatInfo,
    Seats,
    Snapshot,
    TurnTimer,
    Update,
    Waiting,
    Welcome,
)
from .table import TableConfig

__all__ = [
    "CLOSED",
    "DEFAULT_PORT",
    "NEED_DATA",
    "PROTOCOL_VERSION",
    "Chat",
    "Client",
    "ClientError",
    "Closed",
    "Codec",
    "Error",
    "ErrorCode",
    "Host",
    "HostConfig",
    "HostError",
    "Incoming",
    "JoinError",
    "Limits",
    "NextRound",
    "ProtocolError",
    "Reconnected",
    "Reconnecting",
    "RejoinRequest",
    "SeatInfo",
    "Seats",
    "Snapshot",
    "TableConfig",
    "TurnTimer",
    "Update",
    "Waiting",
    "Welcome",
    "new_join_code",
]
