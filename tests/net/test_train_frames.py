"""Mexican Train's frames are the bytes of before, as the Draw family's are (tests/net/test_frames.py).

The frames of `train_messages` (a played match at 8 seats: every seat's and a
spectator's snapshot and update, the actions taken, an opening run) were
hashed on main 6d38cbf, before one snapshot and one update served every game; hashed again for
protocol version 5 (issue 29: the seed's rules play another match, and the train view, its round start
and its rules map gained fields), after which one snapshot and update still serve every game.
"""

from __future__ import annotations

import hashlib

from .test_frames import _frame, train_messages

RECORDED_COUNT = 3570
RECORDED_SHA256 = "2ef7802dad40613cb02badd1ef6815cdeed73268436d81be40ee8ab68760a95f"


def test_the_frames_of_a_played_mexican_train_match_are_the_bytes_of_before():
    frames = [_frame(side, message) for side, message in train_messages()]
    assert (len(frames), hashlib.sha256(b"".join(frames)).hexdigest()) == (RECORDED_COUNT, RECORDED_SHA256)
