"""Fives and Threes' rules: the settings of docs/RULES.md's ``fives-and-threes``, every option a field.

`FivesRules` is a `Rules` of its own kind (as Mexican Train's `MexicanRules`):
the fields the Draw family shares with it keep their meaning (``partnerships``,
``drawing``, ``target``), the defaults are the preset's, and the two options of
its own are fields here (``league_deal``, ``exact_finish``). Changing an option
is one call: ``msgspec.structs.replace(FIVES_AND_THREES, exact_finish=True)``.
"""

from __future__ import annotations

from typing import ClassVar

from ..rules import (
    HOUSE_RULES,
    Direction,
    Fact,
    FirstLead,
    Game,
    RuleFact,
    Rules,
    RulesError,
    RulesProblem,
)

#: The preset's name.
PRESET = "fives-and-threes"
#: Tiles each with 2, 3 and 4 players: the usual deal, and the league's (9 and 6; 3 players are
#: dealt 5 either way, the league plays 2 or 4).
HAND_SIZES = (7, 5, 5)
LEAGUE_HAND_SIZES = (9, 5, 6)
#: What the go is worth: laying one's last tile (or, with partners, the second partner's).
GO_POINTS = 1
#: The Draw family's settings that Fives and Threes has not: set otherwise, the rules are refused.
_NOT_FOR_THIS_GAME = (*HOUSE_RULES, "voluntary_draw", "max_draws_per_turn", "capicu_bonus",
                      "chuchazo_bonus", "round_bonuses", "tranque_last_player_leads")


class FivesRules(Rules, frozen=True):
    """Every setting of Fives and Threes; the defaults are the preset's (docs/RULES.md)."""

    game: ClassVar[Game] = Game.FIVES_AND_THREES
    preset: str = PRESET
    max_players: int = 4
    hand_sizes: tuple[int, int, int] = HAND_SIZES
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
        for name in _NOT_FOR_THIS_GAME:
            if getattr(self, name):
                raise RulesError(f"{name} is a rule of the Draw family, not of {self.preset}",
                                 RulesProblem.HOUSE_RULE_NOT_FOR_GAME, option=name, preset=self.preset)
        if self.reserve:
            raise RulesError(f"{self.preset} keeps no reserve: with drawing, every tile can be drawn",
                             RulesProblem.HOUSE_RULE_NOT_FOR_GAME, option="reserve", preset=self.preset)

    def facts(self, players: int) -> tuple[Fact, ...]:
        """What these rules say (docs/RULES.md, fives-and-threes), one fact per option as it is set."""
        target = self.target_for(players)
        partners = self.sides(players) != players
        facts = [
            RuleFact.SET(max_pip=self.max_pip, tiles=self.tile_count),
            (RuleFact.PARTNERSHIPS if partners else RuleFact.EACH_FOR_THEMSELVES)(
                players=players, hand_size=self.hand_size(players)),
            RuleFact.DRAW_UNTIL_FITS() if self.drawing else RuleFact.SET_ASIDE_KNOCK(),
            RuleFact.FIRST_LEAD_RANDOM(),
            RuleFact.LEAD_ROTATES(),
            RuleFact.CLOCKWISE(),
            RuleFact.ENDS_SCORE(),
            (RuleFact.GO_BOTH_PARTNERS if partners else RuleFact.GO)(points=GO_POINTS),
            RuleFact.HANDS_COUNT_NOTHING(),
            RuleFact.FIRST_TO_TARGET(points=target),
        ]
        if self.exact_finish:
            facts.append(RuleFact.EXACT_FINISH(points=target))
        return tuple(facts)


#: The preset: double-six, 2 to 4 players (4 as two partnerships), 7 or 5 tiles each, to 61.
FIVES_AND_THREES = FivesRules()
