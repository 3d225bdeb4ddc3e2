"""The games capicu plays: one declaration each, found by name, by rules, by log or by view.

After python-chess's variants (a ``Board`` subclass per variant, found by
name): a `GameSpec` names everything that is one game's own, under the one
`Engine` protocol (core/engine.py) that every engine satisfies:

    game = game_of(rules)                  # or game_named("line"), game_of_log(log), game_of_view(view)
    match = game.new_match(rules, players, seed)    # an Engine: legal_actions, apply, view, log...
    game.engine, game.view, game.events    # its match engine, view type, events (a union)
    game.refusal, game.refusals            # its own refusal codes; with every game's `Refusal`
    game.why_not                           # the one definition of when each is given
    game.make_player(level, seed)          # a computer player of ``level`` (game.levels)
    game.figures                           # what a player's history counts of it (core/figures.py)
    new_match(rules, players, seed)        # the same, in one call; match_from_log(log) too

Code above core asks the registry and never chooses a game with `isinstance`.

A game's modules are imported only when that game is asked for: a Draw-family
game never loads Mexican Train's (the eager fields here are plain values and
the shared types of core/rules.py and core/actions.py). Adding a game is its
own package (core/<game>/: layout, state, match, events, view, refusals), its
`Rules` subclass, `Game` member and `RuleOption`s (core/rules.py), and one `GameSpec` in `GAMES`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import cached_property
from importlib import import_module
from typing import TYPE_CHECKING, Any, TypeAlias

import msgspec

from .actions import Action, Draw, End, EndRun, Pass, Play, Redeal, Run, Train, parse_action
from .codes import Code
from .engine import Engine, OnEntry
from .rules import FivesRules, Game, MexicanRules, Rules

if TYPE_CHECKING:  # only named: a game's modules load when it is asked for
    from .draw.match import Match
    from .figures import GameFigures  # (with a game's figures, when a history counts them)
    from .mexican.match import MexicanMatch

#: The engines there are, for callers that still tell them apart by type (the module-level
#: `new_match` and `match_from_log` give one); `GameSpec.new_match` gives an `Engine`.
AnyMatch: TypeAlias = "Match | MexicanMatch"


class GameSpec(msgspec.Struct, frozen=True, eq=False, dict=True):
    """One game: its rules type, its engine, its view, events, actions and refusal codes.

    The fields are plain values known without importing the game; the
    properties below (`engine`, `view`, ...) import the game's modules the
    first time they are asked for.
    """

    #: The `Game` its rules name (``type(rules).game``).
    game: Game
    #: The English name, for programmers and logs ("the Draw family", "Mexican Train").
    title: str
    #: Its rules type (a `Rules`, or a subclass of it).
    rules_type: type[Rules]
    #: The format its match logs declare (``log["format"]``): how a journal or a record names it.
    log_format: str
    #: Its view's tag on the wire (``game: "mexican-train"``); None: the view is written untagged
    #: (the Draw family's, as it always was).
    view_tag: str | None
    #: The kinds of action its players take (`parse_action` reads every game's).
    action_types: tuple[type[Action], ...]
    #: Where its tiles go: an `End` of the line, or a `Train`.
    place_type: type[End] | type[Train]
    #: Where its own things live: "module:name" under capicu.core, imported when first asked for.
    where: Mapping[str, str]
    #: The formats of its logs written by earlier versions, still read (its engine's `from_log`
    #: says how, or refuses one in a sentence naming its version).
    old_log_formats: tuple[str, ...] = ()

    @property
    def name(self) -> str:
        """Its name, as the history stores it and `game_named` finds it ("line", "mexican-train")."""
        return self.game.value

    def _load(self, what: str) -> Any:
        module, _, name = self.where[what].partition(":")
        return getattr(import_module(f"{__package__}.{module}"), name)

    # -- its own modules, loaded when first asked for --------------------------------

    @cached_property
    def engine(self) -> type[Engine[Any, Any]]:
        """Its match engine: ``engine(rules, players, seed, pause_between_rounds=...)``, and ``from_log``."""
        engine: type[Engine[Any, Any]] = self._load("engine")
        return engine

    @cached_property
    def view(self) -> type[Any]:
        """Its view type: what one seat (or a spectator) may know, a frozen msgspec Struct."""
        view: type[Any] = self._load("view")
        return view

    @cached_property
    def events(self) -> Any:
        """Its events: a union of frozen msgspec Structs told apart by their ``type`` tag."""
        return self._load("events")

    @cached_property
    def result(self) -> type[Any]:
        """How one of its rounds ended (a view's ``results`` hold them)."""
        result: type[Any] = self._load("result")
        return result

    @cached_property
    def refusal(self) -> type[Code]:
        """Its own refusal codes (`IllegalAction.reason`; every game's shared ones are core/refusals.py's)."""
        refusal: type[Code] = self._load("refusal")
        return refusal

    @cached_property
    def refusals(self) -> tuple[Code, ...]:
        """Every code it refuses an action with: every game's `Refusal`, then its own."""
        codes: tuple[Code, ...] = self._load("refusals")
        return codes

    @cached_property
    def why_not(self) -> Callable[[Any, object], Any]:
        """Why an action is refused in a view of this game (an `IllegalAction`), None when legal."""
        why_not: Callable[[Any, object], Any] = self._load("why_not")
        return why_not

    @cached_property
    def players(self) -> Mapping[str, Callable[[int], Any]]:
        """Its computer players by level ("easy", "normal", "hard"): each made from a seed."""
        players: Mapping[str, Callable[[int], Any]] = self._load("players")
        return players

    @cached_property
    def figures(self) -> GameFigures:
        """What its history counts: its figures, a seat's values of them, its rounds (core/figures.py)."""
        figures: GameFigures = self._load("figures")
        return figures

    @property
    def levels(self) -> tuple[str, ...]:
        """The levels of its computer players."""
        return tuple(self.players)

    # -- using it ------------------------------------------------------------------------

    def new_match(
        self, rules: Rules, players: int, seed: int = 0, *, pause_between_rounds: bool = False
    ) -> Engine[Any, Any]:
        """A match of this game (the rules must be its `rules_type`'s)."""
        return self.engine(rules, players, seed, pause_between_rounds=pause_between_rounds)  # type: ignore[call-arg]

    def from_log(self, data: Any, on_entry: OnEntry | None = None) -> Engine[Any, Any]:
        """The match of this game a log describes (ValueError when it is damaged)."""
        match: Engine[Any, Any] = self.engine.from_log(data, on_entry)  # type: ignore[attr-defined]
        return match

    def make_player(self, level: str, seed: int = 0) -> Any:
        """A computer player of ``level``: ``choose(view)`` gives its action. ValueError: no such level."""
        factory = self.players.get(level)
        if factory is None:
            raise ValueError(f"there is no {self.title} computer player {level!r}; "
                             f"choose one of {', '.join(self.players)}")
        return factory(seed)

    def parse_action(self, text: str) -> Action:
        """An action of this game written as text (`parse_action`); ValueError for another game's."""
        action = parse_action(text)
        if type(action) not in self.action_types or (
            isinstance(action, Play) and not isinstance(action.place, self.place_type)
        ):
            raise ValueError(f"{text!r} is not an action of {self.title}")
        return action


#: The Draw family (every preset but Mexican Train): one line of play with two open ends.
LINE = GameSpec(
    game=Game.LINE_OF_PLAY,
    title="the Draw family",
    rules_type=Rules,
    log_format="capicu-log/1",
    view_tag=None,
    action_types=(Play, Draw, Pass, Redeal),
    place_type=End,
    where={
        "engine": "draw.match:Match",
        "view": "draw.view:View",
        "events": "draw.events:Event",
        "result": "draw.events:RoundResult",
        "refusal": "draw.refusals:DrawRefusal",
        "refusals": "draw.refusals:CODES",
        "why_not": "draw.refusals:why_not",
        "players": "ai.players:PLAYERS",
        "figures": "draw.figures:HISTORY_FIGURES",
    },
)

#: Mexican Train: a train for each player and the Mexican train.
MEXICAN_TRAIN = GameSpec(
    game=Game.MEXICAN_TRAIN,
    title="Mexican Train",
    rules_type=MexicanRules,
    log_format="capicu-mexican-train-log/2",
    old_log_formats=("capicu-mexican-train-log/1",),
    view_tag="mexican-train",
    action_types=(Play, Run, EndRun, Draw, Pass),
    place_type=Train,
    where={
        "engine": "mexican.match:MexicanMatch",
        "view": "mexican.view:MexicanView",
        "events": "mexican.events:MexicanEvent",
        "result": "mexican.events:MexicanRoundResult",
        "refusal": "mexican.refusals:MexicanRefusal",
        "refusals": "mexican.refusals:CODES",
        "why_not": "mexican.refusals:why_not_mexican",
        "players": "ai.mexican_players:MEXICAN_PLAYERS",
        "figures": "mexican.figures:HISTORY_FIGURES",
    },
)

#: Fives and Threes: the Draw family's line, points scored as the tiles are laid.
FIVES = GameSpec(
    game=Game.FIVES_AND_THREES,
    title="Fives and Threes",
    rules_type=FivesRules,
    log_format="capicu-fives-log/1",
    view_tag="fives-and-threes",
    action_types=(Play, Draw, Pass),
    place_type=End,
    where={
        "engine": "fives.match:FivesMatch",
        "view": "fives.view:FivesView",
        "events": "fives.events:FivesEvent",
        "result": "fives.events:FivesRoundResult",
        # Played on the Draw family's line, it refuses with that line's codes (four of them:
        # the lead goes left, a tile that fits neither end or not that end, no drawing).
        "refusal": "draw.refusals:DrawRefusal",
        "refusals": "draw.refusals:CODES",
        "why_not": "fives.refusals:why_not_fives",
        "players": "ai.fives_players:FIVES_PLAYERS",
        "figures": "fives.figures:HISTORY_FIGURES",
    },
)

#: Every game, the Draw family first (a log of no known format is read as its).
GAMES: tuple[GameSpec, ...] = (LINE, MEXICAN_TRAIN, FIVES)

_BY_GAME = {spec.game: spec for spec in GAMES}
_BY_NAME = {spec.name: spec for spec in GAMES}
_BY_FORMAT = {fmt: spec for spec in GAMES for fmt in (spec.log_format, *spec.old_log_formats)}
_BY_TAG = {spec.view_tag: spec for spec in GAMES}


def game_named(name: str) -> GameSpec:
    """The game of this name ("line", "mexican-train"); ValueError naming the choices."""
    try:
        return _BY_NAME[name]
    except (KeyError, TypeError):
        raise ValueError(f"there is no game {name!r}; choose one of {', '.join(_BY_NAME)}") from None


def game_of(rules: Rules) -> GameSpec:
    """The game these rules are for (their type's `Game`)."""
    return _BY_GAME[rules.game]


def game_of_log(data: Any) -> GameSpec:
    """The game a match log is of, by its format (the Draw family's when it names none known)."""
    fmt = data.get("format") if isinstance(data, dict) else None
    return _BY_FORMAT.get(fmt, LINE) if isinstance(fmt, str) else LINE


def game_of_view(view: Any) -> GameSpec:
    """The game a view is of, by its type's wire tag."""
    config = getattr(type(view), "__struct_config__", None)
    spec = _BY_TAG.get(getattr(config, "tag", None))
    if spec is None:
        raise ValueError(f"{type(view).__name__} is no game's view")
    return spec


def new_match(
    rules: Rules, players: int, seed: int = 0, *, pause_between_rounds: bool = False
) -> AnyMatch:
    """A match of the rules' game (`GameSpec.new_match`)."""
    match: AnyMatch = game_of(rules).new_match(  # type: ignore[assignment]
        rules, players, seed, pause_between_rounds=pause_between_rounds)
    return match


def match_from_log(data: Any, on_entry: OnEntry | None = None) -> AnyMatch:
    """The match a log of any game describes (told apart by its format); ValueError when damaged."""
    fmt = data.get("format") if isinstance(data, dict) else None
    if isinstance(fmt, str) and fmt not in _BY_FORMAT:
        # Said as it is: a format no game has (a newer capicu's, or a hand's edit), not the Draw family's
        # "expected format 'capicu-log/1'" for a log that never claimed to be one.
        known = ", ".join(repr(spec.log_format) for spec in GAMES)
        raise ValueError(f"not a capicu match log: its format {fmt[:40]!r} is none of {known}")
    match: AnyMatch = game_of_log(data).from_log(data, on_entry)  # type: ignore[assignment]
    return match


__all__ = [
    "FIVES",
    "GAMES",
    "LINE",
    "MEXICAN_TRAIN",
    "AnyMatch",
    "GameSpec",
    "game_named",
    "game_of",
    "game_of_log",
    "game_of_view",
    "match_from_log",
    "new_match",
]
