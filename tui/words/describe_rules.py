"""A game's rules in words, from the engine's rule facts (`Rules.facts`), through the catalogue.

The rules and keys screen and ``capicu rules`` both print these, so the rules a
person reads are the settings the engine plays by, in the current language.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from capicu.core import Fact, RuleFact, Rules
from capicu.core.rules import OPTIONS

from .describe import list_separator
from .messages import N_, t, tc, tn

#: One sentence for each `RuleFact` (its value); those with a count are worded in `describe_fact`.
RULE_SENTENCES: Mapping[str, str] = {
    "set": N_("Set: double-{max_pip}, {tiles} tiles; a tile is worth its pips."),
    "each-for-themselves": N_("{players} players, each for themselves; {hand_size} tiles each."),
    "partnerships": N_("{players} players, in two partnerships sitting across; {hand_size} tiles each."),
    "no-drawing": N_("The tiles not dealt are set aside: a player who cannot play passes (paso)."),
    "whole-boneyard": N_("The whole boneyard can be drawn."),
    "draw-until-fits": N_(
        "A player who cannot play draws one tile at a time until one fits; with nothing left to draw, "
        "they pass."
    ),
    "voluntary-draw": N_("A player may also draw while holding a tile that fits."),
    "no-trampa": N_("Drawing while holding a tile that fits is not allowed (trampa)."),
    "first-lead-double": N_(
        "The first round is led by the holder of {tile} with it, else by the highest double; with no "
        "double dealt, the tiles are dealt again."
    ),
    "first-lead-random": N_("The first leader is drawn at random and may lead any tile."),
    "winner-leads": N_(
        "Later rounds are led by the last round's winner, with any tile; after a tie, the highest "
        "double leads."
    ),
    "winner-leads-tie-to-leader": N_(
        "Later rounds are led by the last round's winner, with any tile; after a tie, the previous "
        "leader leads again."
    ),
    "every-round-like-first": N_("Every round is led like the first."),
    "tranque-last-player-leads": N_("After a tranque, the player who laid the last tile leads."),
    "counterclockwise": N_("Play goes counterclockwise."),
    "clockwise": N_("Play goes clockwise."),
    "lowest-count": N_(
        "The lowest count wins the round and scores the others' counts minus its own; equal lowest "
        "counts score nothing."
    ),
    "all-pips": N_(
        "The side that goes out (domino) wins the round; in a tranque, the side of the lightest single "
        "hand. The winners score every pip left in all hands."
    ),
    "domino-takes-all": N_(
        "A player who goes out scores every pip left in the other hands; in a tranque the lowest hand "
        "scores the others' pips minus its own."
    ),
    "wild-blanks": N_(
        "Blanks are wild: a blank matches any number and takes the number it touches; a blank left open "
        "is the number its player says, and the double blank is a double of the number it is laid against. "
        "A blank in hand counts 0. On the table a blank shows the number it was given with a * beside it: "
        "*4|5] is a blank given 4."
    ),
    "redeal-on-doubles": N_(
        "A player dealt {doubles} doubles or more may ask for a new deal before the first tile is laid."
    ),
    "capicu-bonus": N_("Capicú (the last tile fits both ends and is not a double): +{points}."),
    "chuchazo-bonus": N_("Chuchazo (going out with the double blank): +{points}."),
    "target": N_("The match is won by the first to reach {points} points."),
    # Mexican Train's (the round counts are worded in `describe_fact`).
    "engine": N_(
        "Before each deal the round's double, the engine, is set in the middle; every train starts from "
        "its number."
    ),
    "first-player-rotates": N_(
        "A seat drawn at random plays first in round 1; in each later round, the next seat in turn."
    ),
    "engine-dealt": N_(
        "The engine is dealt like any tile: the player dealt it lays it in the middle as their turn, and "
        "play goes on from the next player. If nobody was dealt it, it comes from the boneyard and the "
        "round begins with the player after the one who began the last round (round 1: a seat drawn at "
        "random)."
    ),
    "opening-run": N_(
        "On their first turn of a round a player may lay a run of tiles on their own train, each "
        "matching the last, ending on a tile that is not a double."
    ),
    "one-tile-start": N_("On their first turn of a round a player lays one tile on their own train."),
    "one-tile-a-turn": N_(
        "After that, a turn lays one tile on your own train, on the Mexican train, or on another player's "
        "train whose marker is up; a player who can play must play."
    ),
    "draw-one-marker": N_(
        "A player who cannot play draws one tile and may lay only that tile, if it fits; otherwise they "
        "pass and their marker goes up, opening their train to everyone, until they next lay a tile on it."
    ),
    "mexican-train-anyone": N_("Anyone may start the Mexican train and lay on it, at any turn."),
    "mexican-train-after-own": N_(
        "Only a player whose own train is started may lay on the Mexican train."
    ),
    "cover-doubles": N_(
        "A double must be covered: its player lays another tile on it in the same turn, and while it "
        "stays open every player in turn must cover it before any other play."
    ),
    "several-doubles": N_(
        "A player who lays a double plays again: another double anywhere they may play, or a tile that "
        "is not a double on the oldest open double, which ends the turn. Who cannot end it so draws one "
        "tile and lays it if it covers the oldest; otherwise their marker goes up and the doubles stay "
        "open. Open doubles are covered in the order they were laid, one tile a turn, before any other "
        "play."
    ),
    "double-plays-again": N_("A double earns another play anywhere; it need not be covered."),
    "train-round-end": N_(
        "A round ends when a player lays their last tile (a double too), or when the boneyard is empty "
        "and no player can lay a tile where they may."
    ),
    "double-blank-counts": N_(
        "Each player adds the pips left in their hand to their total; the double blank counts {points}."
    ),
    "lowest-total-wins": N_("After the last round the lowest total wins; equal totals share the win."),
    # Fives and Threes' (docs/RULES.md, fives-and-threes)
    "set-aside-knock": N_(
        "The tiles not dealt are set aside and never drawn: a player who cannot play knocks (paso)."
    ),
    "league-deal": N_("The league deal: 9 tiles each with two players, 6 each with four."),
    "lead-rotates": N_("Each later hand is led by the next player, with any tile."),
    "ends-score": N_(
        "After every tile, the lead too, the two open ends are added (a double at an end counts both "
        "halves): a multiple of 3 scores the total divided by 3, a multiple of 5 the total divided by 5, "
        "and both add (15 scores 8)."
    ),
    "go": N_(
        "Laying one's last tile scores {points} for the go and ends the hand; a blocked hand has no go."
    ),
    "go-both-partners": N_(
        "With partners the hand goes on until both partners of one side are out, and that side scores "
        "{points} for the go; a blocked hand has no go."
    ),
    "hands-count-nothing": N_("The tiles left in the hands count nothing."),
    "first-to-target": N_("The first to {points} wins at once, even in the middle of a hand."),
    "exact-finish": N_("Exact finish: a score that would pass {points} does not count."),
}


#: What each rule option (`capicu.core.rules.RULE_OPTIONS`, by name) says in the command line's help.
OPTION_HELP: Mapping[str, str] = {
    "target": N_("points that win the match (default: the preset's)"),
    "max_pip": N_(
        "the set: double-6, double-9 or double-12 (Mexican Train: double-9, double-12 or double-15)"
    ),
    "reserve": N_("boneyard tiles that can never be drawn"),
    "capicu_bonus": N_("bonus for a capicú (0: off)"),
    "chuchazo_bonus": N_("bonus for a chuchazo (0: off)"),
    "voluntary_draw": N_("allow drawing while holding a tile that fits"),
    "max_draws": N_("most tiles drawn in one turn before passing"),
    "tranque_last_player_leads": N_("after a tranque, the player who laid the last tile leads"),
    "wild_blanks": N_("a blank matches any number; left open, its player says which"),
    "draw_several": N_("who cannot play draws N tiles at once (2 or 3), then plays one or passes"),
    "redeal_on_doubles": N_("a player dealt five doubles or more may ask for a new deal"),
    "rounds": N_("play only the first 1 or 4 rounds, or all (default: all, one per double)"),
    "opening_run": N_("a first turn may lay a run of tiles on one's own train (the default)"),
    "mexican_after_own": N_(
        "only a player whose own train is started may lay on the Mexican train (default: off)"
    ),
    "cover_doubles": N_(
        "a double must be covered at once (the default); --no-cover-doubles: a double earns another play "
        "anywhere"
    ),
    "one_double_a_turn": N_(
        "one double a turn, covered by the same player's next tile (default: several doubles a turn, "
        "the turn ending on the oldest)"
    ),
    "engine_set_aside": N_(
        "the engine is taken out before the deal and the first seat rotates (default: it is dealt, and "
        "its holder lays it and begins)"
    ),
    "double_blank_points": N_("what the double blank counts in a hand at a round's end (default: 50)"),
    "partnerships": N_("four play as two partnerships, partners across (the default)"),
    "league_deal": N_("the league deal: 9 tiles each with two players, 6 each with four"),
    "drawing": N_("who cannot play draws until they can (default: the tiles not dealt are set aside)"),
    "exact_finish": N_("the league's exact finish: a score that would pass the target does not count"),
}
#: The help of an option's off flag, where it has one of its own (``--one-tile-start``).
OFF_HELP: Mapping[str, str] = {
    "opening_run": N_("a first turn lays one tile only"),
    "partnerships": N_("four play each for themselves"),
}
#: What an option's value is called in the help (`RuleOption.metavar`).
METAVARS: Mapping[str, str] = {"N": N_("N"), "POINTS": N_("POINTS")}
#: The command line's groups of rule options: every game's, the house rules, and one game's own
#: (by the game's name).
OPTION_GROUPS: Mapping[str, str] = {
    "rules": N_("rules"),
    "house": N_("house rules (the drawing games)"),
    "mexican-train": N_("Mexican Train's rules (with --preset mexican-train)"),
    "fives-and-threes": N_("Fives and Threes' rules (with --preset fives-and-threes)"),
}
#: The setup form's choices of each option it offers (`FORM_OPTIONS`), the option off first, then each
#: value it takes (ten letters at most: one game's four options share one row at 80x24).
HOUSE_CHOICES: Mapping[str, tuple[str, ...]] = {
    "wild_blanks": (N_("plain blanks"), N_("wild blanks")),
    "draw_several": (N_("draw 1 by 1"), N_("draw 2 by 2"), N_("draw 3 by 3")),
    "redeal_on_doubles": (N_("no redeal"), N_("redeal on 5")),
    "partnerships": (N_("each alone"), N_("partners")),
    "league_deal": (N_("usual deal"), N_("league")),
    "drawing": (N_("set aside"), N_("drawing")),
    "exact_finish": (N_("any finish"), N_("exact end")),
    # Mexican Train's (each option's off value first, then on).
    # TRANSLATORS: the round's engine (its double): dealt like any tile, or set aside before the deal.
    "engine_set_aside": (N_("dealt"), N_("aside")),
    "one_double_a_turn": (N_("2+ doubles"), N_("1 double")),
    # TRANSLATORS: a double laid: another play without covering it, or it must be covered.
    "cover_doubles": (N_("no cover"), N_("cover")),
    # TRANSLATORS: a player's first turn: one tile only, or a run of tiles.
    "opening_run": (N_("one tile"), N_("run")),
    # TRANSLATORS: the Mexican train: open to anyone from the start, or only once their own train is begun.
    "mexican_after_own": (N_("Mexican open"), N_("own first")),
}


def describe_rounds(rules: Rules) -> str:
    """How many rounds a match has, for the setup form ("13 rounds, one per double"); "" for a game
    without rounds. Worded from the facts the rounds option says of ``rules`` (core/rules.py), as
    `capicu rules` says them, so the form asks no game's type."""
    for fact in OPTIONS["rounds"].facts(rules, rules.min_players):
        count = fact.values.get("count")
        if not isinstance(count, int):
            continue
        if fact.code == RuleFact.ROUND_PER_DOUBLE:
            return tn("{count} round, one per double", "{count} rounds, one per double", count)
        if fact.code == RuleFact.FIRST_ROUNDS:
            return tn("the first round only", "the first {count} rounds", count)
    return ""


#: The label of each option the setup form gives a row of its own (`FORM_ROWS`).
FORM_ROW_LABELS: Mapping[str, str] = {
    "target": N_("Points to win"),
    "rounds": N_("Rounds"),
}
#: The words of each choice of a choice option on a row of its own, from the rules it makes.
FORM_ROW_CHOICES: Mapping[str, Callable[[Rules], str]] = {
    "rounds": describe_rounds,
}


def describe_fact(fact: Fact) -> str:
    """One rule fact as a sentence ("The last 2 tiles of the boneyard can never be drawn.")."""
    values = fact.values
    count = values.get("count")
    if fact.code == RuleFact.RESERVE and isinstance(count, int):
        return tn("The last tile of the boneyard can never be drawn.",
                  "The last {count} tiles of the boneyard can never be drawn.", count)
    if fact.code == RuleFact.DRAW_SEVERAL and isinstance(count, int):
        return tn("A player who cannot play draws {count} tile at once (or as many as can still be drawn), "
                  "then plays one that fits, else passes.",
                  "A player who cannot play draws {count} tiles at once (or as many as can still be drawn), "
                  "then plays one that fits, else passes.", count)
    if fact.code == RuleFact.DRAW_LIMIT and isinstance(count, int):
        return tn("At most one tile may be drawn in one turn, then the player passes.",
                  "At most {count} tiles may be drawn in one turn, then the player passes.", count)
    if fact.code == RuleFact.ROUND_PER_DOUBLE and isinstance(count, int):
        return tn("One round per double, highest first: {count} round, from {top} down to 0-0.",
                  "One round per double, highest first: {count} rounds, from {top} down to 0-0.", count,
                  top=f"{values['max_pip']}-{values['max_pip']}")
    if fact.code == RuleFact.FIRST_ROUNDS and isinstance(count, int):
        return tn("Only the first round is played, with the highest double ({top}).",
                  "Only the first {count} rounds are played, the highest doubles first (from {top}).", count,
                  top=f"{values['max_pip']}-{values['max_pip']}")
    points = values.get("points")
    if isinstance(points, tuple):  # the first rounds' bonuses, in order
        # TRANSLATORS: {points} lists the bonuses of the first rounds in order: "100, 75, 50, 25".
        return tn("The winner of the match's first round earns a bonus: {points}.",
                  "The winner of each of the match's first rounds earns a bonus, in order: {points}.",
                  len(points), points=list_separator().join(str(p) for p in points))
    return t(RULE_SENTENCES[fact.code], **values)


def describe_rules(rules: Rules, players: int) -> list[str]:
    """The rules of a game for ``players`` players, one sentence a fact."""
    return [describe_fact(fact) for fact in rules.facts(players)]


def game_title(preset: str) -> str:
    """The title of the game a preset is, in words, as a table's header shows it ("Fives and Threes").

    Each preset core declares (`capicu.core.rules.ALL_PRESET_NAMES`, its `Rules.preset`) has one; a game
    of one preset is titled as the registry names it (`capicu.core.games.GameSpec.title`).
    """
    titles = {
        # TRANSLATORS: the titles of the games, as a table's header shows them.
        "puerto-rican-drawing": tc("title of a game", "Puerto Rican Drawing Game"),
        "drawing-game": tc("title of a game", "Drawing Game"),
        "puerto-rican-partners": tc("title of a game", "Puerto Rican partners"),
        "quinientos": tc("title of a game", "Quinientos"),
        "draw": tc("title of a game", "Draw Game"),
        "mexican-train": tc("title of a game", "Mexican Train"),
        "fives-and-threes": tc("title of a game", "Fives and Threes"),
    }
    return titles.get(preset, preset)


def preset_title(preset: str) -> str:
    """A preset's name as the command line writes it (in English; another language words it)."""
    titles = {
        # TRANSLATORS: the names of the games, as `--preset` writes them; translate them as names.
        "puerto-rican-drawing": tc("name of a game", "puerto-rican-drawing"),
        "drawing-game": tc("name of a game", "drawing-game"),
        "puerto-rican-partners": tc("name of a game", "puerto-rican-partners"),
        "quinientos": tc("name of a game", "quinientos"),
        "draw": tc("name of a game", "draw"),
        "mexican-train": tc("name of a game", "mexican-train"),
        "fives-and-threes": tc("name of a game", "fives-and-threes"),
    }
    return titles.get(preset, preset)
