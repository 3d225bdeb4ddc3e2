"""Rule settings and the named presets of docs/RULES.md.

`Rules` is an immutable value: every option that docs/RULES.md marks as one is a
field, and a preset is just a `Rules` with its fields filled in. Changing one
option of a preset is one call: ``msgspec.structs.replace(Rules.preset_named("draw"), target=200)``.

`Rules` is a frozen msgspec Struct: its types and limits are its declaration,
checked by msgspec wherever rules are read (the wire, a journal); what a
declaration cannot say (a target from 1 up, enough tiles for the hands, ...)
`Rules.__post_init__` checks, whoever makes the rules, raising `RulesError`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from enum import Enum
from types import MappingProxyType
from typing import Annotated, ClassVar

import msgspec
from msgspec import UNSET, Meta, Struct, UnsetType
from msgspec.structs import force_setattr, replace

from .codes import Code, Param, Statement
from .tiles import MAX_PIPS

#: Tiles dealt to each player, by the set's top number and the player count (2 to 8).
DEAL_SIZES: dict[int, tuple[int, ...]] = {
    9: (9, 9, 9, 7, 7, 7, 6),
    12: (15, 15, 15, 12, 12, 11, 11),
    15: (15, 15, 15, 15, 15, 13, 13),
}


class RulesProblem(Code):
    """Why a rule setting cannot be played (`RulesError.code`), with the params it is said with.

    ``option`` names a `Rules` field; ``value`` is the value refused, as Python writes it.
    """

    #: ``choices``: the preset names, separated by ", ".
    NO_PRESET = "no-preset", "name", "choices"
    #: An enum option (direction, scoring, ...) given a value that is none of its ``choices``.
    NOT_ONE_OF = "not-one-of", "option", "choices", "value"
    #: ``players`` asked of a preset played by ``low`` to ``high`` (equal: exactly that many).
    PLAYER_COUNT = "player-count", "preset", "low", "high", "players"
    HANDS_TOO_BIG = "hands-too-big", "players", "hand_size", "tiles", "max_pip"
    #: ``value``: the pip count asked for (double-6, double-9 and double-12 are played).
    SET_SIZE = "set-size", "value"
    PLAYERS_OUT_OF_RANGE = "players-out-of-range"
    #: A whole number from ``low`` up was wanted (``reserve``, a bonus, an entry of a list).
    NOT_WHOLE_FROM = "not-whole-from", "option", "low", "value"
    TARGET = "target", "value"
    #: A rule option's number above its declared most (`RuleOption.most`): ``flag`` as typed.
    TOO_BIG = "too-big", "option", "flag", "high", "value"
    MAX_DRAWS = "max-draws", "value"
    #: ``length``: the entries it must have, 0 for any number.
    NOT_A_LIST = "not-a-list", "option", "length"
    LIST_TOO_LONG = "list-too-long", "option"
    PARTNERSHIPS_NEED_FOUR = "partnerships-need-four"
    #: A house rule of the Draw family (``option``) asked of Mexican Train.
    HOUSE_RULE_NOT_FOR_GAME = "house-rule-not-for-game", "option", "preset"
    #: Drawing several at once asked of a game without drawing.
    DRAW_SEVERAL_NEEDS_DRAWING = "draw-several-needs-drawing", "preset"
    #: Drawing several at once and a limit on draws a turn together: one draw is the turn's.
    DRAW_SEVERAL_WITH_MAX_DRAWS = "draw-several-with-max-draws"
    #: ``deals`` in a row gave nobody a double, so the first round has no leader.
    NO_DOUBLE_DEALT = "no-double-dealt", "deals"
    #: No code of its own (raised with a message only): the English message says why.
    UNPLAYABLE = "unplayable"


class RulesError(ValueError):
    """A rule setting that cannot be played.

    ``code`` (a `RulesProblem`) and ``params`` say which and why, for an
    interface to word; ``str()`` is an English sentence, for programmers and logs.
    """

    def __init__(
        self, message: str, code: RulesProblem = RulesProblem.UNPLAYABLE, /, **params: Param
    ) -> None:
        super().__init__(message)
        self.code = code
        self.params: Mapping[str, Param] = MappingProxyType(code(**params).values)


class RuleFact(Code):
    """One thing a game's rules say (`Rules.facts`), with the params it is said with."""

    #: A double-``max_pip`` set of ``tiles`` tiles; a tile is worth its pips.
    SET = "set", "max_pip", "tiles"
    EACH_FOR_THEMSELVES = "each-for-themselves", "players", "hand_size"
    #: Two partnerships sitting across.
    PARTNERSHIPS = "partnerships", "players", "hand_size"
    #: The tiles not dealt are set aside: who cannot play passes (paso).
    NO_DRAWING = "no-drawing"
    #: The last ``count`` tiles of the boneyard are never drawn.
    RESERVE = "reserve", "count"
    WHOLE_BONEYARD = "whole-boneyard"
    #: Who cannot play draws one tile at a time until one fits, else passes.
    DRAW_UNTIL_FITS = "draw-until-fits"
    #: A player may draw while holding a tile that fits.
    VOLUNTARY_DRAW = "voluntary-draw"
    #: Drawing while holding a tile that fits is not allowed (trampa).
    NO_TRAMPA = "no-trampa"
    #: At most ``count`` tiles drawn in one turn, then the player passes.
    DRAW_LIMIT = "draw-limit", "count"
    #: The holder of ``tile`` leads the first round with it, else the highest double.
    FIRST_LEAD_DOUBLE = "first-lead-double", "tile"
    FIRST_LEAD_RANDOM = "first-lead-random"
    #: The last round's winner leads with any tile; after a tie, the highest double.
    WINNER_LEADS = "winner-leads"
    #: The last round's winner leads with any tile; after a tie, the previous leader.
    WINNER_LEADS_TIE_TO_LEADER = "winner-leads-tie-to-leader"
    EVERY_ROUND_LIKE_FIRST = "every-round-like-first"
    TRANQUE_LAST_PLAYER_LEADS = "tranque-last-player-leads"
    COUNTERCLOCKWISE = "counterclockwise"
    CLOCKWISE = "clockwise"
    #: How a round is scored: one fact per `Scoring`.
    LOWEST_COUNT = "lowest-count"
    ALL_PIPS = "all-pips"
    DOMINO_TAKES_ALL = "domino-takes-all"
    CAPICU_BONUS = "capicu-bonus", "points"
    CHUCHAZO_BONUS = "chuchazo-bonus", "points"
    #: A blank half matches any number (house rule).
    WILD_BLANKS = "wild-blanks"
    #: Who cannot play draws ``count`` tiles at once, then plays one or passes (house rule).
    DRAW_SEVERAL = "draw-several", "count"
    #: A player dealt ``doubles`` doubles or more may ask for a new deal (house rule).
    REDEAL_ON_DOUBLES = "redeal-on-doubles", "doubles"
    #: ``points`` for winning round 1, 2, ... of the match.
    ROUND_BONUSES = "round-bonuses", "points"
    TARGET = "target", "points"
    # -- Mexican Train's (docs/RULES.md, mexican-train) --
    #: One round per double, highest first: ``count`` rounds from ``max_pip``-``max_pip`` down.
    ROUND_PER_DOUBLE = "round-per-double", "count", "max_pip"
    #: Only the first ``count`` rounds (the highest doubles) are played.
    FIRST_ROUNDS = "first-rounds", "count", "max_pip"
    #: Each round's double (the engine) is set in the middle; every train starts from its number.
    ENGINE = "engine"
    #: Round 1 is begun by a seat drawn at random, each later round by the next seat.
    FIRST_PLAYER_ROTATES = "first-player-rotates"
    #: The engine is dealt like any tile: its holder lays it as their turn and the next seat plays;
    #: else it comes from the boneyard and the seat after the last round's beginner begins.
    ENGINE_DEALT = "engine-dealt"
    #: A first turn may lay a run on one's own train, not ending on a double.
    OPENING_RUN = "opening-run"
    #: A first turn lays one tile on one's own train (the option).
    ONE_TILE_START = "one-tile-start"
    #: Later turns: one tile on one's own train, the Mexican train or a train marked up.
    ONE_TILE_A_TURN = "one-tile-a-turn"
    #: Who cannot play draws one tile, plays it if it fits, else passes with their marker up.
    DRAW_ONE_MARKER = "draw-one-marker"
    MEXICAN_TRAIN_ANYONE = "mexican-train-anyone"
    #: The option: the Mexican train only after one's own train is started.
    MEXICAN_TRAIN_AFTER_OWN = "mexican-train-after-own"
    #: The option one double a turn: a double is covered by its player's next tile.
    COVER_DOUBLES = "cover-doubles"
    #: Several doubles a turn, the turn ending with a cover of the oldest open double; open
    #: doubles are covered oldest first, one tile a turn.
    SEVERAL_DOUBLES = "several-doubles"
    #: The option: a double earns another play anywhere, uncovered.
    DOUBLE_PLAYS_AGAIN = "double-plays-again"
    #: A round ends when a player goes out (on a double too) or nobody can play.
    TRAIN_ROUND_END = "train-round-end"
    #: Hands are counted into totals; the double blank counts ``points``.
    DOUBLE_BLANK_COUNTS = "double-blank-counts", "points"
    LOWEST_TOTAL_WINS = "lowest-total-wins"
    # -- Fives and Threes' (docs/RULES.md, fives-and-threes) --
    #: The tiles not dealt are set aside and never drawn: who cannot play knocks.
    SET_ASIDE_KNOCK = "set-aside-knock"
    #: Each later hand is led by the next seat, with any tile.
    LEAD_ROTATES = "lead-rotates"
    #: After every tile the two ends are added (a double at an end counts both halves):
    #: a multiple of 3 scores total / 3, a multiple of 5 total / 5 (15 scores 8).
    ENDS_SCORE = "ends-score"
    #: Laying one's last tile scores ``points`` for the go; a blocked hand has none.
    GO = "go", "points"
    #: With partners the hand goes on until both partners of one side are out; that side scores the go.
    GO_BOTH_PARTNERS = "go-both-partners", "points"
    #: The tiles left in hand count nothing.
    HANDS_COUNT_NOTHING = "hands-count-nothing"
    #: The first to ``points`` wins at once, even in the middle of a hand.
    FIRST_TO_TARGET = "first-to-target", "points"
    #: A score that would pass ``points`` does not count: the target is reached exactly.
    EXACT_FINISH = "exact-finish", "points"
    #: The league deal: 9 tiles each with two players, 6 with four.
    LEAGUE_DEAL = "league-deal"


#: A rule fact with its params.
Fact = Statement[RuleFact]


class Game(Enum):
    """Which game the rules are for: the board it is played on and the engine that runs it.

    The value is the game's name in the registry (core/games.py) and in the history.
    """

    #: The Draw family (every preset but one): one line of play with two open ends (`Match`).
    LINE_OF_PLAY = "line"
    #: Mexican Train: a train for each player and the Mexican train (`MexicanMatch`).
    MEXICAN_TRAIN = "mexican-train"
    #: Fives and Threes: the Draw family's line, points scored as tiles are laid (`FivesMatch`).
    FIVES_AND_THREES = "fives-and-threes"


#: The sets each game is played with.
SETS = {Game.LINE_OF_PLAY: (6, 9, 12), Game.MEXICAN_TRAIN: (9, 12, 15), Game.FIVES_AND_THREES: (6,)}
#: The most players each game seats.
MOST_PLAYERS = {Game.LINE_OF_PLAY: 4, Game.MEXICAN_TRAIN: 8, Game.FIVES_AND_THREES: 4}


class Direction(Enum):
    """Which way play moves round the table (seats are numbered in turn order)."""

    COUNTERCLOCKWISE = "counterclockwise"
    CLOCKWISE = "clockwise"


class FirstLead(Enum):
    """Who leads the first round of a match."""

    #: The holder of the set's top double leads with it, else the highest double;
    #: with no double dealt at all, the tiles are dealt again.
    HIGHEST_DOUBLE = "highest-double"
    #: A seat drawn at random leads, with any tile.
    RANDOM = "random"


class TieLead(Enum):
    """Who leads the round after one that nobody won."""

    HIGHEST_DOUBLE = "highest-double"
    PREVIOUS_LEADER = "previous-leader"


class Scoring(Enum):
    """How a round is scored (docs/RULES.md names one per preset family)."""

    #: Lowest count (a side's hands summed) wins, scoring the others' counts minus
    #: its own; equal lowest counts score nothing. (puerto-rican-drawing, drawing-game)
    LOWEST_COUNT = "lowest-count"
    #: The side that dominoes wins, or in a tranque the side of the lightest single
    #: hand; it scores every pip left in all hands. (puerto-rican-partners)
    ALL_PIPS = "all-pips"
    #: A domino scores every pip in the other hands; a tranque is scored as
    #: LOWEST_COUNT. (draw)
    DOMINO_TAKES_ALL = "domino-takes-all"


_SCORING_FACTS = {
    Scoring.LOWEST_COUNT: RuleFact.LOWEST_COUNT,
    Scoring.ALL_PIPS: RuleFact.ALL_PIPS,
    Scoring.DOMINO_TAKES_ALL: RuleFact.DOMINO_TAKES_ALL,
}

#: The most rounds a match may give a bonus for.
MAX_ROUND_BONUSES = 16

#: The presets of the Draw family, which the host and the interface play today.
PRESET_NAMES = ("puerto-rican-drawing", "drawing-game", "puerto-rican-partners", "quinientos", "draw")
#: Every preset of docs/RULES.md: the Draw family's and Mexican Train (whose table is still to come).
ALL_PRESET_NAMES = (*PRESET_NAMES, "mexican-train", "fives-and-threes")


#: The doubles a hand must hold for its player to ask for a new deal (house rule).
REDEAL_DOUBLES = 5

#: Three whole numbers: one for 2, 3 and 4 players.
PerPlayerCount = tuple[int, int, int]


class Rules(Struct, frozen=True):
    """Every rule setting of one game; see docs/RULES.md for what each means."""

    preset: Annotated[str, Meta(min_length=1, max_length=40)] = "puerto-rican-drawing"
    #: Which game these rules are for (the engine `new_match` makes of them): a class
    #: setting, so that the Draw family's rules are written as they always were;
    #: `MexicanRules` is Mexican Train's.
    game: ClassVar[Game] = Game.LINE_OF_PLAY
    max_pip: int = 6
    min_players: int = 2
    max_players: int = 3
    #: Tiles dealt to each player, for 2, 3 and 4 players.
    hand_sizes: PerPlayerCount = (7, 7, 7)
    #: Tiles of the boneyard that can never be drawn.
    reserve: int = 2
    #: False when the undealt tiles are set aside and a player who cannot play passes.
    drawing: bool = True
    #: A player may draw while holding a playable tile (while tiles can be drawn).
    voluntary_draw: bool = False
    #: Most tiles one turn may draw before the player must pass (None: no limit).
    max_draws_per_turn: int | None = None
    partnerships: bool = False
    direction: Direction = Direction.COUNTERCLOCKWISE
    first_lead: FirstLead = FirstLead.HIGHEST_DOUBLE
    #: The round's winner leads the next one with any tile; False: every round
    #: is led as the first one.
    winner_leads: bool = True
    tie_lead: TieLead = TieLead.HIGHEST_DOUBLE
    #: After a tranque the player who laid the last tile leads (seed 000's variation).
    tranque_last_player_leads: bool = False
    scoring: Scoring = Scoring.LOWEST_COUNT
    #: Match target for 2, 3 and 4 players; `target` overrides all three.
    targets: PerPlayerCount = (100, 61, 61)
    target: int | None = None
    capicu_bonus: int = 0
    chuchazo_bonus: int = 0
    #: Bonus to the side that wins round 1, 2, ... of the match.
    round_bonuses: Annotated[tuple[int, ...], Meta(max_length=MAX_ROUND_BONUSES)] = ()
    # The house rules of docs/RULES.md, each off by default. Off is UNSET, which
    # msgspec leaves out of what it writes: rules without them are written byte
    # for byte as before (tests/net/test_frames.py). UNSET is false, so
    # ``if rules.wild_blanks`` reads as it says; False is taken as UNSET.
    #: A blank half matches any number; a blank left open is given one by its player.
    wild_blanks: bool | UnsetType = UNSET
    #: Who cannot play draws this many tiles at once (2 or 3), then plays one or passes.
    draw_several: Annotated[int, Meta(ge=2, le=3)] | UnsetType = UNSET
    #: A player dealt `REDEAL_DOUBLES` doubles or more may ask for a new deal.
    redeal_on_doubles: bool | UnsetType = UNSET

    def __post_init__(self) -> None:
        for name in ("wild_blanks", "redeal_on_doubles"):
            if getattr(self, name) is False:
                force_setattr(self, name, UNSET)
        self._check()

    # -- construction -----------------------------------------------------

    @classmethod
    def preset_named(cls, name: str) -> Rules:
        """The rules of a named preset of docs/RULES.md."""
        try:
            return _PRESETS[name]
        except KeyError:
            choices = ", ".join(ALL_PRESET_NAMES)
            raise RulesError(f"there is no preset {name!r}; choose one of {choices}", RulesProblem.NO_PRESET,
                             name=str(name), choices=choices) from None

    # -- derived ----------------------------------------------------------

    @property
    def tile_count(self) -> int:
        return (self.max_pip + 1) * (self.max_pip + 2) // 2

    @property
    def is_mexican_train(self) -> bool:
        return self.game is Game.MEXICAN_TRAIN

    def hand_size(self, players: int) -> int:
        self.check_players(players)
        return self._dealt(players)

    def _dealt(self, players: int) -> int:
        """Tiles dealt to each of ``players``."""
        return self.hand_sizes[players - 2]

    def target_for(self, players: int) -> int:
        """The score that wins the match."""
        self.check_players(players)
        return self.target if self.target is not None else self.targets[players - 2]

    def sides(self, players: int) -> int:
        """How many scoring sides: teams with partnerships, else players."""
        return 2 if self.partnerships and players == 4 else players

    def side_of(self, seat: int, players: int) -> int:
        return seat % 2 if self.partnerships and players == 4 else seat

    def check_players(self, players: int) -> None:
        if not isinstance(players, int) or not self.min_players <= players <= self.max_players:
            if self.min_players == self.max_players:
                allowed = f"exactly {self.min_players}"
            else:
                allowed = f"{self.min_players} to {self.max_players}"
            raise RulesError(f"{self.preset} is played by {allowed} players, not {players!r}",
                             RulesProblem.PLAYER_COUNT, preset=self.preset, low=self.min_players,
                             high=self.max_players,
                             players=players if isinstance(players, int) else repr(players))
        dealt = self._dealt(players)
        if dealt * players > self.tile_count:
            raise RulesError(
                f"{players} hands of {dealt} need more than the "
                f"{self.tile_count} tiles of a double-{self.max_pip} set", RulesProblem.HANDS_TOO_BIG,
                players=players, hand_size=dealt, tiles=self.tile_count,
                max_pip=self.max_pip,
            )

    # -- checks -----------------------------------------------------------

    def _check(self) -> None:
        """What the declaration cannot say: the values' ranges and how they fit together.

        The types are the declaration's, checked where rules are read (msgspec).
        """
        sets = SETS[self.game]
        if self.max_pip not in sets:
            choices = ", ".join(f"double-{n}" for n in sets[:-1]) + f" or double-{sets[-1]}"
            if len(sets) == 1:
                choices = f"double-{sets[0]}"
            raise RulesError(f"the set must be {choices}, not double-{self.max_pip!r}",
                             RulesProblem.SET_SIZE, value=repr(self.max_pip))
        if not 2 <= self.min_players <= self.max_players <= MOST_PLAYERS[self.game]:
            raise RulesError(f"a game is for 2 to {MOST_PLAYERS[self.game]} players",
                             RulesProblem.PLAYERS_OUT_OF_RANGE)
        _check_counts("hand_sizes", self.hand_sizes, 3, low=1)
        _check_counts("targets", self.targets, 3, low=1)
        _check_counts("round_bonuses", self.round_bonuses, None, low=0)
        for name in ("reserve", "capicu_bonus", "chuchazo_bonus"):
            value = getattr(self, name)
            if value < 0:
                raise RulesError(f"{name} must be a whole number from 0 up, not {value!r}",
                                 RulesProblem.NOT_WHOLE_FROM, option=name, low=0, value=repr(value))
        if self.target is not None and self.target < 1:
            raise RulesError(f"the target must be a positive whole number, not {self.target!r}",
                             RulesProblem.TARGET, value=repr(self.target))
        if self.max_draws_per_turn is not None and self.max_draws_per_turn < 1:
            raise RulesError(
                "max_draws_per_turn must be a positive whole number or none, "
                f"not {self.max_draws_per_turn!r}",
                RulesProblem.MAX_DRAWS, value=repr(self.max_draws_per_turn),
            )
        if max(self.targets) > MOST_TARGET:  # the presets' targets, as a rules file may give them
            raise RulesError(f"targets must be at most {MOST_TARGET}, not {max(self.targets)!r}",
                             RulesProblem.TOO_BIG, option="targets", flag="--target", high=MOST_TARGET,
                             value=repr(max(self.targets)))
        for option in RULE_OPTIONS:
            value = getattr(self, option.field, None)  # a field of another game's rules: None
            if option.most is not None and isinstance(value, int) and value > option.most:
                raise RulesError(f"{option.field} must be at most {option.most}, not {value!r}",
                                 RulesProblem.TOO_BIG, option=option.field, flag=option.flag,
                                 high=option.most, value=repr(value))
        if self.partnerships and self.max_players < 4:
            raise RulesError("partnerships need four players", RulesProblem.PARTNERSHIPS_NEED_FOUR)
        self._check_house_rules()

    def _check_house_rules(self) -> None:
        """The house rules are the Draw family's; drawing several needs drawing and no draw limit."""
        chosen = [name for name in HOUSE_RULES if getattr(self, name)]
        if chosen and self.is_mexican_train:
            raise RulesError(f"{chosen[0]} is a house rule of the Draw family, not of {self.preset}",
                             RulesProblem.HOUSE_RULE_NOT_FOR_GAME, option=chosen[0], preset=self.preset)
        if self.draw_several:
            if self.draw_several not in (2, 3):
                raise RulesError(f"draw_several must be 2, 3 or none, not {self.draw_several!r}",
                                 RulesProblem.NOT_ONE_OF, option="draw_several", choices="2, 3, none",
                                 value=repr(self.draw_several))
            if not self.drawing:
                raise RulesError(f"{self.preset} has no drawing, so nobody can draw several tiles",
                                 RulesProblem.DRAW_SEVERAL_NEEDS_DRAWING, preset=self.preset)
            if self.max_draws_per_turn is not None:
                raise RulesError("drawing several tiles at once and a limit on draws a turn cannot "
                                 "both be set: the one draw is the turn's",
                                 RulesProblem.DRAW_SEVERAL_WITH_MAX_DRAWS)

    @property
    def draws_at_once(self) -> int:
        """How many tiles one draw takes: `draw_several`'s count, else 1."""
        return self.draw_several or 1

    def facts(self, players: int) -> tuple[Fact, ...]:
        """What these rules say, for ``players`` players, as facts an interface words.

        Mexican Train's are its section of docs/RULES.md, one fact per option (`MexicanRules.facts`).
        """
        said = _said(self, players)
        facts = [
            *said("max_pip"),
            (RuleFact.PARTNERSHIPS if self.sides(players) != players else RuleFact.EACH_FOR_THEMSELVES)(
                players=players, hand_size=self.hand_size(players)
            ),
        ]
        if not self.drawing:
            facts.append(RuleFact.NO_DRAWING())
        else:
            facts += [*said("reserve"), *said("draw_several"), *said("voluntary_draw"), *said("max_draws")]
        facts += [*said("wild_blanks"), *said("redeal_on_doubles")]
        if self.first_lead is FirstLead.HIGHEST_DOUBLE:
            facts.append(RuleFact.FIRST_LEAD_DOUBLE(tile=f"{self.max_pip}-{self.max_pip}"))
        else:
            facts.append(RuleFact.FIRST_LEAD_RANDOM())
        if not self.winner_leads:
            facts.append(RuleFact.EVERY_ROUND_LIKE_FIRST())
        elif self.tie_lead is TieLead.HIGHEST_DOUBLE:
            facts.append(RuleFact.WINNER_LEADS())
        else:
            facts.append(RuleFact.WINNER_LEADS_TIE_TO_LEADER())
        facts += said("tranque_last_player_leads")
        facts.append(
            RuleFact.CLOCKWISE() if self.direction is Direction.CLOCKWISE else RuleFact.COUNTERCLOCKWISE()
        )
        facts.append(_SCORING_FACTS[self.scoring]())
        facts += [*said("capicu_bonus"), *said("chuchazo_bonus")]
        if self.round_bonuses:
            facts.append(RuleFact.ROUND_BONUSES(points=self.round_bonuses))
        facts += said("target")
        return tuple(facts)


class MexicanRules(Rules, frozen=True):
    """Mexican Train's rules: every setting of `Rules` and the options of docs/RULES.md's mexican-train.

    A `Rules` of its own kind rather than more fields on `Rules`, so that the
    Draw family's rules stay written as they were (on the wire, in journals).
    """

    game: ClassVar[Game] = Game.MEXICAN_TRAIN
    #: A player's first turn of a round may lay a run of tiles on their own train
    #: (False: one tile only).
    opening_run: bool = True
    #: Only a player whose own train is started may lay on the Mexican train.
    mexican_needs_own_train: bool = False
    #: A double laid must be covered (False: it earns another play anywhere).
    cover_doubles: bool = True
    #: One double a turn, covered by the same player's next tile (False: several doubles a
    #: turn, the turn ending with a cover of the oldest open one: seed 004).
    one_double_a_turn: bool = False
    #: The engine is taken out before the deal and the first seat rotates (False: the engine
    #: is dealt like any tile and its holder lays it: seed 004).
    engine_set_aside: bool = False
    #: What the double blank counts in a hand at the end of a round (50, or 0).
    double_blank_points: int = 50
    #: Play only the first N rounds (1 or 4); None: a round for every double, highest first.
    rounds: int | None = None

    @property
    def round_count(self) -> int:
        """How many rounds the match has: one per double, or the first `rounds`."""
        return self.rounds if self.rounds is not None else self.max_pip + 1

    def _dealt(self, players: int) -> int:
        """Tiles dealt to each of ``players``: docs/RULES.md's table (`DEAL_SIZES`)."""
        return DEAL_SIZES[self.max_pip][players - 2]

    def target_for(self, players: int) -> int:
        """0: a match of Mexican Train is its rounds (no target)."""
        self.check_players(players)
        return 0

    def facts(self, players: int) -> tuple[Fact, ...]:
        return _mexican_facts(self, players)

    def _check(self) -> None:
        super()._check()
        if self.double_blank_points < 0:
            value = self.double_blank_points
            raise RulesError(f"double_blank_points must be a whole number from 0 up, not {value!r}",
                             RulesProblem.NOT_WHOLE_FROM, option="double_blank_points", low=0,
                             value=repr(value))
        if self.rounds is not None and self.rounds not in (1, 4):
            raise RulesError(f"rounds must be 1, 4 or none (all), not {self.rounds!r}",
                             RulesProblem.NOT_ONE_OF, option="rounds", choices="1, 4, none",
                             value=repr(self.rounds))


#: Fives and Threes' tiles each with 2, 3 and 4 players: the usual deal, and the league's (9 and
#: 6; 3 players are dealt 5 either way, the league plays 2 or 4).
FIVES_HAND_SIZES = (7, 5, 5)
LEAGUE_HAND_SIZES = (9, 5, 6)
#: What the go is worth in Fives and Threes: laying one's last tile (with partners, the second partner's).
GO_POINTS = 1
#: The Draw family's settings that Fives and Threes has not: set otherwise, its rules are refused.
_NOT_FOR_FIVES = ("voluntary_draw", "max_draws_per_turn", "capicu_bonus", "chuchazo_bonus", "round_bonuses",
                  "tranque_last_player_leads")


class FivesRules(Rules, frozen=True):
    """Fives and Threes' rules (docs/RULES.md, fives-and-threes): the defaults are the preset's.

    A `Rules` of its own kind (as `MexicanRules`): the fields the Draw family shares
    with it keep their meaning (``partnerships``, ``drawing``, ``target``); the two
    options of its own are fields here (``league_deal``, ``exact_finish``).
    """

    game: ClassVar[Game] = Game.FIVES_AND_THREES
    preset: str = "fives-and-threes"
    max_players: int = 4
    hand_sizes: tuple[int, int, int] = FIVES_HAND_SIZES
    #: Never drawn: the tiles not dealt are set aside (``drawing``: they form a boneyard instead).
    reserve: int = 0
    #: Option: a player who cannot play draws one tile at a time until they can, leaving none.
    drawing: bool = False
    #: Four play as two partnerships, partners opposite (option: each for themselves).
    partnerships: bool = True
    direction: Direction = Direction.CLOCKWISE
    #: The first hand is led by a seat drawn at random; each later hand by the next seat.
    first_lead: FirstLead = FirstLead.RANDOM
    winner_leads: bool = False
    #: The first to 61 wins at once, even in the middle of a hand (option: `target`, any).
    targets: tuple[int, int, int] = (61, 61, 61)
    #: Option, the league deal: 9 tiles each with 2 players, 6 each with 4.
    league_deal: bool = False
    #: Option, the league's exact finish: a score that would pass the target does not count.
    exact_finish: bool = False

    def _dealt(self, players: int) -> int:
        return (LEAGUE_HAND_SIZES if self.league_deal else self.hand_sizes)[players - 2]

    def _check(self) -> None:
        super()._check()
        for name in (*HOUSE_RULES, *_NOT_FOR_FIVES):
            if getattr(self, name):
                raise RulesError(f"{name} is a rule of the Draw family, not of {self.preset}",
                                 RulesProblem.HOUSE_RULE_NOT_FOR_GAME, option=name, preset=self.preset)
        if self.reserve:
            raise RulesError(f"{self.preset} keeps no reserve: with drawing, every tile can be drawn",
                             RulesProblem.HOUSE_RULE_NOT_FOR_GAME, option="reserve", preset=self.preset)

    def facts(self, players: int) -> tuple[Fact, ...]:
        """What these rules say (docs/RULES.md, fives-and-threes), each option's facts as it is set."""
        said = _said(self, players)
        partners = self.sides(players) != players
        return (
            *said("max_pip"),
            *said("partnerships"),
            *said("league_deal"),
            *said("drawing"),
            RuleFact.FIRST_LEAD_RANDOM(),
            RuleFact.LEAD_ROTATES(),
            RuleFact.CLOCKWISE(),
            RuleFact.ENDS_SCORE(),
            (RuleFact.GO_BOTH_PARTNERS if partners else RuleFact.GO)(points=GO_POINTS),
            RuleFact.HANDS_COUNT_NOTHING(),
            *said("target"),
            *said("exact_finish"),
        )


def _mexican_facts(rules: MexicanRules, players: int) -> tuple[Fact, ...]:
    """Mexican Train's facts (docs/RULES.md, mexican-train), each option's as it is set."""
    said = _said(rules, players)
    return (
        *said("max_pip"),
        RuleFact.EACH_FOR_THEMSELVES(players=players, hand_size=rules.hand_size(players)),
        RuleFact.WHOLE_BONEYARD(),
        *said("rounds"),
        *said("engine_set_aside"),
        RuleFact.CLOCKWISE(),
        *said("opening_run"),
        RuleFact.ONE_TILE_A_TURN(),
        RuleFact.DRAW_ONE_MARKER(),
        *said("mexican_after_own"),
        *said("cover_doubles"),
        RuleFact.TRAIN_ROUND_END(),
        *said("double_blank_points"),
        RuleFact.LOWEST_TOTAL_WINS(),
    )


def _check_counts(name: str, values: tuple[int, ...], length: int | None, *, low: int) -> None:
    if length is not None and len(values) != length:
        raise RulesError(f"{name} must be a list of {length} whole numbers", RulesProblem.NOT_A_LIST,
                         option=name, length=length)
    if len(values) > MAX_ROUND_BONUSES:
        raise RulesError(f"{name} is too long", RulesProblem.LIST_TOO_LONG, option=name)
    for v in values:
        if v < low:
            raise RulesError(f"{name} must hold whole numbers from {low} up, not {v!r}",
                             RulesProblem.NOT_WHOLE_FROM, option=name, low=low, value=repr(v))


# -- the rule options a person may set, declared once ---------------------------------


class OptionKind(Enum):
    """What values a rule option takes."""

    #: A whole number from 0 up.
    WHOLE = "whole"
    #: A whole number from 1 up.
    POSITIVE = "positive"
    #: On or off (``--x`` / ``--no-x``).
    SWITCH = "switch"
    #: One of its `RuleOption.choices`.
    CHOICE = "choice"
    #: On or off as two flags of their own (``--opening-run`` / ``--one-tile-start``).
    PAIR = "pair"


#: What an option says in `Rules.facts`: the facts it adds for these rules and players.
SaysFacts = Callable[["Rules", int], "tuple[Fact, ...]"]


class RuleOption(msgspec.Struct, frozen=True):
    """One rule option a person may set: its flag, values, games and fact, declared once.

    The command line's options (tui/cli/options.py), the setup form's house rules
    (tui/screens/host_setup.py) and ``capicu rules``' facts are made from these
    (as Harlequin makes its click options and widgets from one declaration); the
    interface words each by its ``name`` (tui/words/describe_rules.py).
    """

    #: Its name in code (the command line's ``dest``), e.g. ``max_draws``.
    name: str
    #: The `Rules` field it sets, e.g. ``max_draws_per_turn``.
    field: str
    #: Its flag as typed, e.g. ``--max-draws`` (a `PAIR`'s on flag).
    flag: str
    #: The games it belongs to.
    games: frozenset[Game]
    kind: OptionKind
    #: A `CHOICE`'s values, each as typed and as the field holds it.
    choices: tuple[tuple[str, object], ...] = ()
    #: A `PAIR`'s off flag.
    off_flag: str = ""
    #: What its value is called in the help ("N", "POINTS"); "" for none.
    metavar: str = ""
    #: A house rule of docs/RULES.md: off by default, offered on the setup form.
    house: bool = False
    #: A game's own option offered on the setup form too (a house rule always is), among its options.
    on_form: bool = False
    #: Offered on the setup form on a labelled row of its own, for the games it belongs to: how long
    #: the match is (the points to win, or Mexican Train's rounds).
    form_row: bool = False
    #: The facts it says in `capicu rules` (None: it says none).
    says: SaysFacts | None = None
    #: A number's most (`WHOLE`, `POSITIVE`): a larger one is refused (`RulesProblem.TOO_BIG`).
    most: int | None = None

    def value_of(self, typed: object) -> object:
        """The field's value for what the command line gave (a `CHOICE`'s text, or the value)."""
        if self.kind is OptionKind.CHOICE and isinstance(typed, str):
            return dict(self.choices)[typed]
        return typed

    def facts(self, rules: Rules, players: int) -> tuple[Fact, ...]:
        return () if self.says is None else self.says(rules, players)


_LINE, _BOTH = frozenset({Game.LINE_OF_PLAY}), frozenset(Game)
_MEXICAN = frozenset({Game.MEXICAN_TRAIN})
_FIVES = frozenset({Game.FIVES_AND_THREES})
#: The most points a match may be played to. Matches are played to 100 or 200 (Fives and Threes to
#: 61, a long evening's to 500); 10000 leaves room for any house's marathon and refuses a slip of the
#: keyboard (99999999999) that would make a match nobody could finish.
MOST_TARGET = 10_000
#: The most a bonus may be worth: the usual ones are 25 to 100 points, 1000 is ten times a match's target.
MOST_BONUS = 1000
#: The most tiles a reserve may keep back, or a turn draw: the tiles of the largest set (double-12).
MOST_TILES = 91
#: A target is set in every game scored to one (Mexican Train is its rounds).
_TO_A_TARGET = _LINE | _FIVES


def _on_off(field: str, on: RuleFact, off: RuleFact | None = None) -> SaysFacts:
    """Says ``on`` when the field is set, else ``off`` (or nothing)."""
    def says(rules: Rules, players: int) -> tuple[Fact, ...]:
        if getattr(rules, field):
            return (on(),)
        return () if off is None else (off(),)
    return says


def _count(field: str, fact: RuleFact, param: str, *, otherwise: RuleFact | None = None,
           always: bool = False) -> SaysFacts:
    """Says ``fact`` with the field's value as ``param`` when set (or ``always``), else ``otherwise``."""
    def says(rules: Rules, players: int) -> tuple[Fact, ...]:
        value = getattr(rules, field)
        if value or always:
            return (fact(**{param: value}),)
        return () if otherwise is None else (otherwise(),)
    return says


def _target(rules: Rules, players: int) -> tuple[Fact, ...]:
    # Fives and Threes is won the moment the target is reached, even in the middle of a hand.
    fact = RuleFact.FIRST_TO_TARGET if isinstance(rules, FivesRules) else RuleFact.TARGET
    return (fact(points=rules.target_for(players)),)


def _set(rules: Rules, players: int) -> tuple[Fact, ...]:
    return (RuleFact.SET(max_pip=rules.max_pip, tiles=rules.tile_count),)


def _redeal(rules: Rules, players: int) -> tuple[Fact, ...]:
    return (RuleFact.REDEAL_ON_DOUBLES(doubles=REDEAL_DOUBLES),) if rules.redeal_on_doubles else ()


def _engine(rules: Rules, players: int) -> tuple[Fact, ...]:
    if getattr(rules, "engine_set_aside", False):
        return (RuleFact.ENGINE(), RuleFact.FIRST_PLAYER_ROTATES())
    return (RuleFact.ENGINE_DEALT(),)


def _doubles(rules: Rules, players: int) -> tuple[Fact, ...]:
    """What a double laid asks: several a turn (the seed's), one a turn, or none covered."""
    if not getattr(rules, "cover_doubles", True):
        return (RuleFact.DOUBLE_PLAYS_AGAIN(),)
    if getattr(rules, "one_double_a_turn", False):
        return (RuleFact.COVER_DOUBLES(),)
    return (RuleFact.SEVERAL_DOUBLES(),)


def _seating(rules: Rules, players: int) -> tuple[Fact, ...]:
    """Two partnerships across, or each for themselves (with four, the option says which), and the deal."""
    seating = RuleFact.PARTNERSHIPS if rules.sides(players) != players else RuleFact.EACH_FOR_THEMSELVES
    return (seating(players=players, hand_size=rules.hand_size(players)),)


def _exact_finish(rules: Rules, players: int) -> tuple[Fact, ...]:
    if not (isinstance(rules, FivesRules) and rules.exact_finish):
        return ()
    return (RuleFact.EXACT_FINISH(points=rules.target_for(players)),)


def _rounds(rules: Rules, players: int) -> tuple[Fact, ...]:
    if not isinstance(rules, MexicanRules):
        return ()
    rounds = RuleFact.ROUND_PER_DOUBLE if rules.rounds is None else RuleFact.FIRST_ROUNDS
    return (rounds(count=rules.round_count, max_pip=rules.max_pip),)


#: Every rule option, in the order the command line lists them.
RULE_OPTIONS: tuple[RuleOption, ...] = (
    RuleOption(
        "target", "target", "--target", _TO_A_TARGET, OptionKind.POSITIVE,
        metavar="POINTS",
        form_row=True,
        says=_target,
        most=MOST_TARGET,
    ),
    RuleOption(
        "max_pip", "max_pip", "--set", _BOTH, OptionKind.CHOICE,
        choices=tuple((str(n), n) for n in MAX_PIPS),
        says=_set,
    ),
    RuleOption(
        "reserve", "reserve", "--reserve", _LINE, OptionKind.WHOLE,
        metavar="N",
        says=_count("reserve", RuleFact.RESERVE, "count", otherwise=RuleFact.WHOLE_BONEYARD),
        most=MOST_TILES,
    ),
    RuleOption(
        "capicu_bonus", "capicu_bonus", "--capicu-bonus", _LINE, OptionKind.WHOLE,
        metavar="POINTS",
        says=_count("capicu_bonus", RuleFact.CAPICU_BONUS, "points"),
        most=MOST_BONUS,
    ),
    RuleOption(
        "chuchazo_bonus", "chuchazo_bonus", "--chuchazo-bonus", _LINE, OptionKind.WHOLE,
        metavar="POINTS",
        says=_count("chuchazo_bonus", RuleFact.CHUCHAZO_BONUS, "points"),
        most=MOST_BONUS,
    ),
    RuleOption(
        "voluntary_draw", "voluntary_draw", "--voluntary-draw", _LINE, OptionKind.SWITCH,
        says=_on_off("voluntary_draw", RuleFact.VOLUNTARY_DRAW, RuleFact.NO_TRAMPA),
    ),
    RuleOption(
        "max_draws", "max_draws_per_turn", "--max-draws", _LINE, OptionKind.POSITIVE,
        metavar="N",
        says=_count("max_draws_per_turn", RuleFact.DRAW_LIMIT, "count"),
        most=MOST_TILES,
    ),
    RuleOption(
        "tranque_last_player_leads", "tranque_last_player_leads", "--tranque-last-player-leads", _LINE,
        OptionKind.SWITCH,
        says=_on_off("tranque_last_player_leads", RuleFact.TRANQUE_LAST_PLAYER_LEADS),
    ),
    RuleOption(
        "wild_blanks", "wild_blanks", "--wild-blanks", _LINE, OptionKind.SWITCH,
        house=True,
        says=_on_off("wild_blanks", RuleFact.WILD_BLANKS),
    ),
    RuleOption(
        "draw_several", "draw_several", "--draw-several", _LINE, OptionKind.CHOICE,
        choices=(("2", 2), ("3", 3)),
        metavar="N",
        house=True,
        says=_count("draw_several", RuleFact.DRAW_SEVERAL, "count", otherwise=RuleFact.DRAW_UNTIL_FITS),
    ),
    RuleOption(
        "redeal_on_doubles", "redeal_on_doubles", "--redeal-on-doubles", _LINE, OptionKind.SWITCH,
        house=True,
        says=_redeal,
    ),
    RuleOption(
        "rounds", "rounds", "--rounds", _MEXICAN, OptionKind.CHOICE,
        choices=(("1", 1), ("4", 4), ("all", None)),
        form_row=True,
        says=_rounds,
    ),
    RuleOption(
        "opening_run", "opening_run", "--opening-run", _MEXICAN, OptionKind.PAIR,
        off_flag="--one-tile-start",
        on_form=True,
        says=_on_off("opening_run", RuleFact.OPENING_RUN, RuleFact.ONE_TILE_START),
    ),
    RuleOption(
        "mexican_after_own", "mexican_needs_own_train", "--mexican-after-own", _MEXICAN, OptionKind.SWITCH,
        on_form=True,
        says=_on_off("mexican_needs_own_train", RuleFact.MEXICAN_TRAIN_AFTER_OWN,
                     RuleFact.MEXICAN_TRAIN_ANYONE),
    ),
    RuleOption(
        "cover_doubles", "cover_doubles", "--cover-doubles", _MEXICAN, OptionKind.SWITCH,
        on_form=True,
        says=_doubles,
    ),
    RuleOption(
        "one_double_a_turn", "one_double_a_turn", "--one-double-a-turn", _MEXICAN, OptionKind.SWITCH,
        on_form=True,
        says=_doubles,
    ),
    RuleOption(
        "engine_set_aside", "engine_set_aside", "--engine-set-aside", _MEXICAN, OptionKind.SWITCH,
        on_form=True,
        says=_engine,
    ),
    RuleOption(
        "double_blank_points", "double_blank_points", "--double-blank-points", _MEXICAN, OptionKind.WHOLE,
        metavar="POINTS",
        says=_count("double_blank_points", RuleFact.DOUBLE_BLANK_COUNTS, "points", always=True),
        most=MOST_BONUS,
    ),
    # -- Fives and Threes' (docs/RULES.md, fives-and-threes) --
    RuleOption(
        "partnerships", "partnerships", "--partnerships", _FIVES, OptionKind.PAIR,
        off_flag="--each-for-themselves",
        on_form=True,
        says=_seating,
    ),
    RuleOption(
        "league_deal", "league_deal", "--league-deal", _FIVES, OptionKind.SWITCH,
        on_form=True,
        says=_on_off("league_deal", RuleFact.LEAGUE_DEAL),
    ),
    RuleOption(
        "drawing", "drawing", "--drawing", _FIVES, OptionKind.SWITCH,
        on_form=True,
        says=_on_off("drawing", RuleFact.DRAW_UNTIL_FITS, RuleFact.SET_ASIDE_KNOCK),
    ),
    RuleOption(
        "exact_finish", "exact_finish", "--exact-finish", _FIVES, OptionKind.SWITCH,
        on_form=True,
        says=_exact_finish,
    ),
)
#: The options by name.
OPTIONS: Mapping[str, RuleOption] = MappingProxyType({option.name: option for option in RULE_OPTIONS})
#: The house rules' fields, in the order `capicu rules` says them.
HOUSE_RULES = tuple(option.field for option in RULE_OPTIONS if option.house)
#: The options the setup form offers on its options row (tui/screens/host_setup.py), each for the
#: games it belongs to.
FORM_OPTIONS = tuple(option for option in RULE_OPTIONS if option.house or option.on_form)
#: The options the setup form offers on a row of their own, each for the games it belongs to.
FORM_ROWS = tuple(option for option in RULE_OPTIONS if option.form_row)


def _said(rules: Rules, players: int) -> Callable[[str], tuple[Fact, ...]]:
    """What the option of this name says of ``rules`` (`RuleOption.says`)."""
    return lambda name: OPTIONS[name].facts(rules, players)


_PR_PARTNERS = Rules(
    preset="puerto-rican-partners",
    min_players=4,
    max_players=4,
    hand_sizes=(7, 7, 7),
    reserve=0,
    drawing=False,
    partnerships=True,
    tie_lead=TieLead.PREVIOUS_LEADER,
    scoring=Scoring.ALL_PIPS,
    targets=(200, 200, 200),
)

_PRESETS: dict[str, Rules] = {
    # docs/RULES.md, fives-and-threes: double-six, 2 to 4 (4 as two partnerships), 7 or 5 tiles, to 61.
    "fives-and-threes": FivesRules(),
    "mexican-train": MexicanRules(
        preset="mexican-train",
        max_pip=12,
        max_players=8,
        reserve=0,
        direction=Direction.CLOCKWISE,
        first_lead=FirstLead.RANDOM,
    ),
    "puerto-rican-drawing": Rules(),
    "drawing-game": Rules(
        preset="drawing-game",
        max_players=4,
        hand_sizes=(7, 7, 6),
        partnerships=True,
        direction=Direction.CLOCKWISE,
        first_lead=FirstLead.RANDOM,
        tie_lead=TieLead.PREVIOUS_LEADER,
        voluntary_draw=True,
    ),
    "puerto-rican-partners": _PR_PARTNERS,
    "quinientos": replace(
        _PR_PARTNERS,
        preset="quinientos",
        targets=(500, 500, 500),
        capicu_bonus=100,
        chuchazo_bonus=100,
        round_bonuses=(100, 75, 50, 25),
    ),
    "draw": Rules(
        preset="draw",
        max_players=4,
        hand_sizes=(7, 5, 5),
        reserve=0,
        direction=Direction.CLOCKWISE,
        winner_leads=False,
        scoring=Scoring.DOMINO_TAKES_ALL,
        targets=(100, 100, 100),
    ),
}
