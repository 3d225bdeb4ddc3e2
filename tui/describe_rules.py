"""A game's rules in words, from the engine's rule facts (`Rules.facts`), through the catalogue.

The rules and keys screen and ``capicu rules`` both print these, so the rules a
person reads are the settings the engine plays by, in the current language.
"""

from __future__ import annotations

from capicu.core import Fact, RuleFact, Rules

from .messages import add_messages, t

add_messages({
    # One sentence for each `RuleFact`; "_one" is the form for a count of 1.
    "rule.set": "Set: double-{max_pip}, {tiles} tiles; a tile is worth its pips.",
    "rule.each-for-themselves": "{players} players, each for themselves; {hand_size} tiles each.",
    "rule.partnerships": "{players} players, in two partnerships sitting across; {hand_size} tiles each.",
    "rule.no-drawing": "The tiles not dealt are set aside: a player who cannot play passes (paso).",
    "rule.reserve": "The last {count} tiles of the boneyard can never be drawn.",
    "rule.reserve_one": "The last tile of the boneyard can never be drawn.",
    "rule.whole-boneyard": "The whole boneyard can be drawn.",
    "rule.draw-until-fits": (
        "A player who cannot play draws one tile at a time until one fits; with nothing left to draw, "
        "they pass."
    ),
    "rule.voluntary-draw": "A player may also draw while holding a tile that fits.",
    "rule.no-trampa": "Drawing while holding a tile that fits is not allowed (trampa).",
    "rule.draw-limit": "At most {count} tiles may be drawn in one turn, then the player passes.",
    "rule.draw-limit_one": "At most one tile may be drawn in one turn, then the player passes.",
    "rule.first-lead-double": (
        "The first round is led by the holder of {tile} with it, else by the highest double; with no "
        "double dealt, the tiles are dealt again."
    ),
    "rule.first-lead-random": "The first leader is drawn at random and may lead any tile.",
    "rule.winner-leads": (
        "Later rounds are led by the last round's winner, with any tile; after a tie, the highest "
        "double leads."
    ),
    "rule.winner-leads-tie-to-leader": (
        "Later rounds are led by the last round's winner, with any tile; after a tie, the previous "
        "leader leads again."
    ),
    "rule.every-round-like-first": "Every round is led like the first.",
    "rule.tranque-last-player-leads": "After a tranque, the player who laid the last tile leads.",
    "rule.counterclockwise": "Play goes counterclockwise.",
    "rule.clockwise": "Play goes clockwise.",
    "rule.lowest-count": (
        "The lowest count wins the round and scores the others' counts minus its own; equal lowest "
        "counts score nothing."
    ),
    "rule.all-pips": (
        "The side that goes out (domino) wins the round; in a tranque, the side of the lightest single "
        "hand. The winners score every pip left in all hands."
    ),
    "rule.domino-takes-all": (
        "A player who goes out scores every pip left in the other hands; in a tranque the lowest hand "
        "scores the others' pips minus its own."
    ),
    "rule.capicu-bonus": "Capicú (the last tile fits both ends and is not a double): +{points}.",
    "rule.chuchazo-bonus": "Chuchazo (going out with the double blank): +{points}.",
    "rule.round-bonuses": "The winner of each of the match's first rounds earns a bonus, in order: {points}.",
    "rule.round-bonuses_one": "The winner of the match's first round earns a bonus: {points}.",
    "rule.target": "The match is won by the first to reach {points} points.",
})

#: Facts with a singular form, by the param that counts.
_COUNTED = {RuleFact.RESERVE: "count", RuleFact.DRAW_LIMIT: "count"}


def describe_fact(fact: Fact) -> str:
    """One rule fact as a sentence ("The last 2 tiles of the boneyard can never be drawn.")."""
    values = fact.values
    key = f"rule.{fact.code}"
    counted = _COUNTED.get(fact.code)
    if counted is not None and values[counted] == 1:
        key += "_one"
    points = values.get("points")
    if isinstance(points, tuple):  # the first rounds' bonuses, in order
        values["points"] = t("word.list_separator").join(str(p) for p in points)
        if len(points) == 1:
            key += "_one"
    return t(key, **values)


def describe_rules(rules: Rules, players: int) -> list[str]:
    """The rules of a game for ``players`` players, one sentence a fact."""
    return [describe_fact(fact) for fact in rules.facts(players)]
