"""The sizes the protocol and the files made from it hold to (docs/PROTOCOL.md, section 1).

Declared here, apart from the messages (net/protocol.py re-exports them), so that
a module the messages carry (the match record, net/store/record.py) shares them without
importing the messages.
"""

from __future__ import annotations

#: The largest frame body a host accepts from a client: intents are tiny.
MAX_CLIENT_FRAME = 16 * 1024
#: The largest frame body a client accepts from a host: a snapshot of a long
#: match (every round's result) stays far below this.
MAX_HOST_FRAME = 4 * 1024 * 1024
#: The most items a list or a map in a host's message may hold (a client's hold at most 64):
#: a finished match's record lists every deal and action in one list.
MAX_HOST_ITEMS = 16_384
#: The most events one update carries (as many as a view holds).
MAX_EVENTS = 4096
#: How deeply maps and lists may nest in one message.
MAX_DEPTH = 12

NAME_LIMIT = 24
#: The longest table name announced or shown, in characters (a host's name with "'s table").
TABLE_NAME_LIMIT = 40
MATCH_ID_LIMIT = 32

#: The most seats a table has (Mexican Train's 8).
MOST_SEATS = 8
