"""Mexican Train (docs/RULES.md, ``mexican-train``): a train for each seat and the Mexican train.

Its own modules, as the Draw family's (core/draw/): `layout` (the trains),
`state` (a round on bitmasks), `match` (the engine), `events`, `view` and
`refusals`. Nothing is imported here, so that a Draw-family game never loads
Mexican Train's modules.
"""
