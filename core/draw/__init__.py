"""The Draw family (docs/RULES.md: every preset but Mexican Train): one line of play with two ends.

Its own modules: `layout` (the line), `state` (a round on bitmasks), `match`
(the engine), `events`, `view`, `refusals` and `scoring`.
"""
