"""The one limited msgpack reader: the codec's frames and the match records refuse the same bytes.

The codec's own fuzz tests (tests/net/test_codec.py) and the record's
(tests/net/store/test_record.py) cover each reader's words; here, that what one
refuses the other refuses too, for the same flaw.
"""

from __future__ import annotations

import struct

import msgpack
import pytest
from capicu.net.codec import Codec
from capicu.net.limits import MAX_DEPTH, MAX_HOST_FRAME, MAX_HOST_ITEMS
from capicu.net.protocol import ErrorCode, ProtocolError
from capicu.net.store.record import RecordError, decode_record
from capicu.net.unpack import Flaw, UnpackLimits, Unreadable, unpack
from hypothesis import given, settings
from hypothesis import strategies as st

#: A client's codec reads a host's frames with the limits a record is read with.
_HOST_LIMITS = UnpackLimits(max_bytes=MAX_HOST_FRAME, max_items=MAX_HOST_ITEMS)


def _packed(value: object) -> bytes:
    return msgpack.packb(value, use_bin_type=True)


def _nested(levels: int) -> object:
    value: object = 0
    for _ in range(levels):
        value = [value]
    return value


def _record_like(**fields: object) -> dict[str, object]:
    return {"format": "capicu-record", "version": 1, **fields}


#: (bytes, the flaw): each breaks one limit.
HOSTILE = [
    (b"\xc1", Flaw.NOT_MSGPACK),
    (_packed({1: 2}), Flaw.NOT_MSGPACK),
    (_packed(_record_like(x="abc"))[:-2], Flaw.CUT_SHORT),
    (_packed(_record_like()) + b"\x00", Flaw.EXTRA_DATA),
    (b"\x81\xa1x\xa2\xff\xfe", Flaw.NOT_UTF8),
    (b"\x81\xa1x\xdd" + (2**31).to_bytes(4, "big"), Flaw.TOO_MANY_ITEMS),
    (_packed(_record_like(x=_nested(MAX_DEPTH))), Flaw.TOO_DEEP),
    (b"\x91" * 2000 + b"\x00", Flaw.TOO_DEEP),  # deeper than msgpack's own stack
    (_packed(_record_like(x=b"\x00" * 8)), Flaw.BINARY),
    (_packed(_record_like(x=b"")), Flaw.BINARY),  # an empty binary gets past msgpack's own limit
    (_packed(b"bytes"), Flaw.BINARY),
    (_packed(_record_like(x=msgpack.ExtType(1, b"x"))), Flaw.EXTENSION),
]


@pytest.mark.parametrize(("data", "flaw"), HOSTILE, ids=lambda item: getattr(item, "value", None))
def test_the_reader_names_the_flaw(data, flaw):
    with pytest.raises(Unreadable) as refused:
        unpack(data, _HOST_LIMITS)
    assert refused.value.flaw is flaw


@pytest.mark.parametrize(("data", "flaw"), HOSTILE, ids=lambda item: getattr(item, "value", None))
def test_what_the_codec_refuses_the_record_refuses(data, flaw):
    codec = Codec("client")
    codec.receive_data(struct.pack(">I", len(data)) + data)
    with pytest.raises(ProtocolError) as frame_refused:
        codec.next_message()
    assert frame_refused.value.code is ErrorCode.BAD_FRAME
    with pytest.raises(RecordError):
        decode_record(data)


def test_the_limits_are_the_callers():
    assert unpack(_packed([[1]]), UnpackLimits(max_bytes=10, max_items=1, max_depth=2)) == [[1]]
    for data, limits, flaw in [
        (_packed([[1]]), UnpackLimits(max_bytes=10, max_items=1, max_depth=1), Flaw.TOO_DEEP),
        (_packed([1, 2]), UnpackLimits(max_bytes=10, max_items=1), Flaw.TOO_MANY_ITEMS),
        (_packed("x" * 20), UnpackLimits(max_bytes=10, max_items=1), Flaw.TOO_LARGE),
        (b"", UnpackLimits(max_bytes=10, max_items=1), Flaw.EMPTY),
    ]:
        with pytest.raises(Unreadable) as refused:
            unpack(data, limits)
        assert refused.value.flaw is flaw


def _reads_as_frame(data: bytes) -> bool:
    codec = Codec("client")
    codec.receive_data(struct.pack(">I", len(data)) + data)
    try:
        codec.next_frame()
    except ProtocolError:
        return False
    return True


def _record_refuses(data: bytes) -> bool:
    try:
        decode_record(data, replay=False)
    except RecordError:
        return True
    return False


_plain = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**40), 2**40) | st.text(max_size=8) | st.binary(max_size=4),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=30,
)


@settings(max_examples=300, deadline=None)
@given(st.binary(min_size=1, max_size=200))
def test_any_bytes_are_read_alike_by_both(data):
    try:
        unpack(data, _HOST_LIMITS)
    except Unreadable:
        assert not _reads_as_frame(data)
        assert _record_refuses(data)
    else:
        assert _reads_as_frame(data)


@settings(max_examples=300, deadline=None)
@given(_plain)
def test_any_shape_is_read_alike_by_both(value):
    data = _packed(_record_like(x=value))
    try:
        unpack(data, _HOST_LIMITS)
    except Unreadable:
        assert not _reads_as_frame(data)
        assert _record_refuses(data)
    else:
        assert _reads_as_frame(data)
