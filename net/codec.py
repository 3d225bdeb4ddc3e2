"""The sans-I/O codec: bytes in, messages out; messages in, bytes out (after h11).

A frame is a 4-byte big-endian unsigned length, then that many bytes holding
one msgpack map. The codec never touches a socket: the caller feeds it what
arrived with `Codec.receive_data` and asks `Codec.next_message` for messages,
and `Codec.send` turns a message into the bytes to write. Every problem with
the input raises `ProtocolError`, and after one the connection is finished.
"""

from __future__ import annotations

import struct
from enum import Enum
from typing import Any, Literal

import msgpack

from .protocol import (
    MAX_CLIENT_FRAME,
    MAX_HOST_FRAME,
    MAX_HOST_ITEMS,
    ClientMessage,
    ErrorCode,
    HostMessage,
    Message,
    ProtocolError,
    message_from_client,
    message_from_host,
    to_wire,
)
from .unpack import Flaw, UnpackLimits, Unreadable, unpack

_LENGTH = struct.Struct(">I")
HEADER_SIZE = _LENGTH.size


class Signal(Enum):
    """What `Codec.next_message` returns when it has no message to give."""

    #: The buffer holds no whole frame yet: feed more bytes.
    NEED_DATA = "need data"
    #: The peer closed the connection cleanly, between two frames.
    CLOSED = "closed"


NEED_DATA = Signal.NEED_DATA
CLOSED = Signal.CLOSED

Side = Literal["host", "client"]


#: What each flaw of a frame's body is, in the protocol's words (naming no library internals).
_FLAWS = {
    Flaw.EMPTY: "an empty frame holds no message",
    Flaw.TOO_LARGE: "the frame is larger than allowed",
    Flaw.NOT_MSGPACK: "the frame is not one msgpack value",
    Flaw.CUT_SHORT: "the frame ends inside a msgpack value",
    Flaw.EXTRA_DATA: "the frame holds more than one msgpack value",
    Flaw.NOT_UTF8: "a text in the frame is not valid UTF-8",
    Flaw.TOO_MANY_ITEMS: "a map or a list in the frame holds more than {max_items} items",
    Flaw.TOO_DEEP: "the data nests deeper than {max_depth} levels",
    Flaw.BINARY: "binary data is not used: texts are UTF-8 strings",
    Flaw.EXTENSION: "msgpack extension types are not used",
}


def decode_body(body: bytes, limits: UnpackLimits) -> Any:
    """One msgpack object from a whole frame body, under the connection's limits (net/unpack.py)."""
    try:
        return unpack(body, limits)
    except Unreadable as exc:
        problem = _FLAWS[exc.flaw].format(max_items=limits.max_items, max_depth=limits.max_depth)
        raise ProtocolError(ErrorCode.BAD_FRAME, problem) from None


def encode_frame(data: dict[str, Any]) -> bytes:
    """The frame holding ``data``: its length, then its msgpack bytes."""
    body: bytes = msgpack.packb(data, use_bin_type=True)
    return _LENGTH.pack(len(body)) + body


class Codec:
    """One end of one connection; ``side`` says which end we are.

    A host's codec reads client messages (frames of at most `MAX_CLIENT_FRAME`
    bytes); a client's reads host messages (at most `MAX_HOST_FRAME`).
    """

    def __init__(self, side: Side, *, max_frame: int | None = None) -> None:
        if side not in ("host", "client"):
            raise ValueError(f"a codec is for a 'host' or a 'client', not {side!r}")
        self.side: Side = side
        self.max_frame = max_frame or (MAX_CLIENT_FRAME if side == "host" else MAX_HOST_FRAME)
        self._limits = UnpackLimits(max_bytes=self.max_frame,
                                    max_items=64 if side == "host" else MAX_HOST_ITEMS)
        self._buffer = bytearray()
        self._eof = False
        self._error: ProtocolError | None = None

    @property
    def finished(self) -> bool:
        """True once an error was raised or the peer closed: nothing more will come."""
        return self._error is not None or (self._eof and not self._buffer)

    @property
    def buffered(self) -> int:
        """Bytes received and not yet part of a whole message (a frame begun)."""
        return len(self._buffer)

    def receive_data(self, data: bytes) -> None:
        """Buffer bytes that arrived; ``b""`` says the peer closed its side."""
        if self._eof and data:
            raise RuntimeError("data received after the end of the stream")
        if data:
            self._buffer += data
        else:
            self._eof = True

    def next_frame(self) -> Any | Signal:
        """The next frame's decoded value (unchecked by the schema), or a `Signal`."""
        if self._error is not None:
            raise self._error
        try:
            return self._next_frame()
        except ProtocolError as exc:
            self._error = exc
            raise

    def _next_frame(self) -> Any | Signal:
        buffer = self._buffer
        if len(buffer) < HEADER_SIZE:
            if self._eof:
                if buffer:
                    raise ProtocolError(ErrorCode.BAD_FRAME, "the connection ended inside a frame")
                return CLOSED
            return NEED_DATA
        (length,) = _LENGTH.unpack_from(buffer)
        # Checked before waiting for the body: a huge declared length is
        # refused at once and never buffered.
        if length > self.max_frame:
            raise ProtocolError(
                ErrorCode.BAD_FRAME,
                f"a frame of {length} bytes is larger than the {self.max_frame} allowed",
            )
        if length == 0:
            raise ProtocolError(ErrorCode.BAD_FRAME, "an empty frame holds no message")
        end = HEADER_SIZE + length
        if len(buffer) < end:
            if self._eof:
                raise ProtocolError(ErrorCode.BAD_FRAME, "the connection ended inside a frame")
            return NEED_DATA
        body = bytes(buffer[HEADER_SIZE:end])
        del buffer[:end]
        return decode_body(body, self._limits)

    def next_message(self) -> Message | Signal:
        """The next whole message, `NEED_DATA`, or `CLOSED`; bad input raises `ProtocolError`."""
        frame = self.next_frame()
        if isinstance(frame, Signal):
            return frame
        try:
            if self.side == "host":
                return message_from_client(frame)
            return message_from_host(frame)
        except ProtocolError as exc:
            self._error = exc
            raise

    def send(self, message: ClientMessage | HostMessage) -> bytes:
        """The bytes that carry ``message`` to the peer."""
        return encode_frame(to_wire(message))
