"""Mexican Train's frames are the bytes of before, as the Draw family's are (tests/net/test_frames.py).

The frames of `train_messages` (a played match at 8 seats: every seat's and a
spectator's snapshot and update, the actions taken, an opening run) were
hashed on main 6d38cbf, before one snapshot and one update served every game.
"""

from __future__ import annotations

import hashlib

from .test_frames import _frame, train_messages

RECORDED_COUNT = 4000
RECORDED_SHA256 = "aa25b7d93d80918a2c2434626974c5bf37f1694cee9e6bf6751f9b9374c0acda"


def test_the_frames_of_a_played_mexican_train_match_are_the_bytes_of_before():
    frames = [_frame(side, message) for side, message in train_messages()]
    assert (len(frames), hashlib.sha256(b"".join(frames)).hexdigest()) == (RECORDED_COUNT, RECORDED_SHA256)
