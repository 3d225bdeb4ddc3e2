"""A learned evaluation of a Draw-family position: what the rest of a round is worth to a side.

The `hard` player's search values an action by playing sampled deals to the
round's end (`playout`). An evaluation lets a play-out stop early: after a few
moves, the position (every hand known: it is a sampled deal) is valued by a
linear model of a few features of it, seen from one seat:

- for each seat, in turn order from that seat (itself, the next seat, ...): the
  tiles it holds, their pips, its doubles, how many fit the open ends now,
  whether none does (it must draw or pass), how many numbers it shows, whether
  it holds one tile only, and whether it is its turn;
- the tiles still drawable, and whether both open ends show one number.

The model has two heads fitted to the same features: the points the round is
expected to bring the seat's side (signed: a side that loses a round of two
sides gives the points away; with more sides, its share of them), and its
expected result (1 for a win, the same share taken off for a loss, 0 for no
winner). It is fitted by least squares on positions from the search's own
play-outs, the target being the average of several play-outs from each: the
model stands in for the rest of a play-out, nothing more. The training script
is bench/train_draw_eval.py (standard library only; the same seed writes the
same file, byte for byte).

Two ways to hand it to the search (`search.Budget.evaluate`, after
`Budget.evaluate_after` play-out moves): a `Model` values the position itself;
a `LearnedPlayout` plays the round out with the model choosing every move (a
one-move look-ahead for each seat) and returns the points it ends with. What
each gave against the hard player without them is in bench/train_draw_eval.py.

The weights ship in the package, ``draw_eval.json`` next to this module, one
model per preset and number of players (the scoring differs between presets;
house rules that change them get no model). The file is read once, through
importlib.resources, and checked: its format tag and version, the feature
names the code computes, and a finite number for every weight; a damaged file
is refused with an `EvaluationFileError` that names the problem (`evaluation_for`
raises it: nothing falls back silently). The hard player reads the file only
when its `Budget` is given an evaluation, which it is not by default, so a
damaged file cannot stop an ordinary game.
"""

from __future__ import annotations

import json
import math
from functools import cache
from importlib import resources
from typing import Any

import msgspec

from ..codes import Outcome
from ..draw.scoring import score_round
from ..draw.state import RoundState
from ..rules import Rules

#: The weights file's name, in this package.
WEIGHTS_FILE = "draw_eval.json"
#: What the file says it is, and the layout of it this code reads.
FORMAT = "capicu-draw-evaluation"
VERSION = 1

#: The features of each seat, in turn order from the seat the position is valued for.
SEAT_FEATURES = ("tiles", "pips", "doubles", "fitting", "blocked", "numbers", "last_tile", "on_turn")
#: The features of the position as a whole (``bias`` is always 1).
TABLE_FEATURES = ("bias", "drawable", "same_ends")


class EvaluationFileError(ValueError):
    """The weights file is missing or damaged; the message names the problem."""


def feature_names(players: int) -> tuple[str, ...]:
    """The names of the features for a game of ``players``, in the order `features` gives them."""
    seat_names = tuple(f"seat{r}.{name}" for r in range(players) for name in SEAT_FEATURES)
    return TABLE_FEATURES + seat_names


def model_key(preset: str, players: int) -> str:
    """The name of the model for a preset played by ``players``."""
    return f"{preset}/{players}"


def features(state: RoundState, seat: int) -> list[float]:
    """The features of ``state`` seen from ``seat`` (every hand known), as `feature_names` lists them."""
    tiles = state.tiles
    hands = state.hands
    players = state.players
    suit = state.suit
    doubles = _doubles_mask(state)
    left = state.left
    if left < 0:
        fitting_mask = tiles.full_mask if state.forced_lead < 0 else 1 << state.forced_lead
        same_ends = 0.0
    else:
        fitting_mask = state.fit[left][state.right]
        same_ends = 1.0 if left == state.right else 0.0
    out = [1.0, float(state.drawable), same_ends]
    pips_in = tiles.pips_in
    for r in range(players):
        s = seat + r
        if s >= players:
            s -= players
        hand = hands[s]
        count = hand.bit_count()
        fitting = (hand & fitting_mask).bit_count()
        numbers = 0
        for mask in suit:
            if hand & mask:
                numbers += 1
        out += (
            float(count),
            float(pips_in(hand)),
            float((hand & doubles).bit_count()),
            float(fitting),
            1.0 if fitting == 0 else 0.0,
            float(numbers),
            1.0 if count == 1 else 0.0,
            1.0 if s == state.turn else 0.0,
        )
    return out


@cache
def _doubles_mask_of(max_pip: int, double_of: tuple[int, ...]) -> int:
    mask = 0
    for index in double_of:
        mask |= 1 << index
    return mask


def _doubles_mask(state: RoundState) -> int:
    return _doubles_mask_of(state.tiles.max_pip, state.tiles.double_of)


class Model(msgspec.Struct, frozen=True):
    """One preset's weights: the two heads, each a weight per feature."""

    key: str
    players: int
    #: Expected points to the side (without any win bonus).
    points: tuple[float, ...]
    #: Expected result to the side: 1 a win, minus a share for a loss, 0 no winner.
    result: tuple[float, ...]

    def value(self, state: RoundState, seat: int) -> float:
        """The points the rest of ``state``'s round is expected to bring ``seat``'s side."""
        return sum(w * x for w, x in zip(self.points, features(state, seat), strict=True))

    def outlook(self, state: RoundState, seat: int) -> tuple[float, float]:
        """Both heads at once: (expected points, expected result) to ``seat``'s side."""
        xs = features(state, seat)
        return (
            sum(w * x for w, x in zip(self.points, xs, strict=True)),
            sum(w * x for w, x in zip(self.result, xs, strict=True)),
        )

    def __call__(self, state: RoundState, seat: int) -> float:
        """The search's `Evaluation`: the same as `value`."""
        return self.value(state, seat)


class LearnedPlayout:
    """The search's `Evaluation` that finishes the round by the model's own choice of moves.

    Every seat, on its turn, lays the tile (and end) after which the model values the
    position best for its own side: a greedy one-move look-ahead with the points head.
    Only what a move changes is worked out again (the mover's pips, doubles and numbers;
    every seat's tiles that fit the new ends), so a move costs a few microseconds per
    candidate. A seat with nothing that fits draws, or passes, as the rules say. The
    round's end is scored as the rules score it (the first rounds' bonuses left out:
    the search's win bonus already rewards winning); the value is the points to the
    side of the seat asked about, as `Model.value` counts them. Deterministic: ties
    go to the first tile in set order, left end before right.
    """

    __slots__ = ("_index", "_model", "_round_number", "_rules", "_seen")

    def __init__(self, model: Model, rules: Rules, *, sees_hands: bool = True) -> None:
        self._model = model
        #: With ``sees_hands`` False a seat weighs its own hand only (and the new ends), as a
        #: person could: the other seats' terms of the model are left out of its choice.
        self._seen = model.players if sees_hands else 1
        self._rules = rules
        self._round_number = len(rules.round_bonuses) + 1
        per_seat = len(SEAT_FEATURES)
        base = len(TABLE_FEATURES)
        w = model.points

        def at(r: int, name: str) -> float:
            return w[base + r * per_seat + SEAT_FEATURES.index(name)]

        players = model.players
        self._index = (
            at(0, "pips"),
            at(0, "doubles"),
            at(0, "numbers"),
            w[TABLE_FEATURES.index("same_ends")],
            tuple(at(r, "fitting") for r in range(players)),
            tuple(at(r, "blocked") for r in range(players)),
        )

    def __call__(self, state: RoundState, seat: int) -> float:
        st = state.copy()
        self.finish(st)
        return self.points(st, seat)

    def finish(self, st: RoundState) -> None:
        """Plays ``st`` to the round's end, every seat by the model's choice."""
        while st.outcome is None:
            playable = st.playable(st.turn)
            if playable:
                st.play(*self.choose(st, playable))
            elif st.may_draw():
                st.draw()
            else:
                st.pass_turn()

    def choose(self, st: RoundState, playable: int) -> tuple[int, bool]:
        """The (tile, on_right) the seat on turn lays, of the ``playable`` ones (a mask)."""
        w_pips, w_doubles, w_numbers, w_same, w_fit, w_blocked = self._index
        fit = st.fit
        far = st.far
        pips = st.tiles.pips
        suit = st.suit
        hands = st.hands
        players = st.players
        seen = self._seen
        mover = st.turn
        hand = hands[mover]
        left, right = st.left, st.right
        best = -math.inf
        choice = (-1, False)
        while playable:
            low = playable & -playable
            playable ^= low
            tile = low.bit_length() - 1
            rest = hand ^ low
            if not rest:  # going out: nothing is better
                return tile, left >= 0 and far[tile][right] >= 0
            a, b = st.ends_of[tile]
            numbers = 0
            for mask in suit:
                if rest & mask:
                    numbers += 1
            own = -w_pips * pips[tile] - (w_doubles if a == b else 0.0) + w_numbers * numbers
            if left < 0:
                options: tuple[tuple[int, int, bool], ...] = ((a, b, False),)
            else:
                options = tuple(
                    (new_left, new_right, on_right)
                    for new_left, new_right, on_right in (
                        (far[tile][left], right, False), (left, far[tile][right], True))
                    if new_left >= 0 and new_right >= 0
                )
            for new_left, new_right, on_right in options:
                open_mask = fit[new_left][new_right]
                score = own + (w_same if new_left == new_right else 0.0)
                blocked = 0
                for r in range(seen):
                    s = mover + r
                    if s >= players:
                        s -= players
                    fitting = ((rest if r == 0 else hands[s]) & open_mask).bit_count()
                    if fitting:
                        score += w_fit[r] * fitting
                    else:
                        score += w_blocked[r]
                        blocked += 1
                if blocked == seen == players and not st.drawable:
                    # A tranque: taken when it wins the round for the mover's side, else avoided.
                    if self._tranque_won(st, tile, on_right):
                        return tile, on_right
                    score = -math.inf
                if score > best or choice[0] < 0:
                    best, choice = score, (tile, on_right)
        return choice

    def _tranque_won(self, st: RoundState, tile: int, on_right: bool) -> bool:
        after = st.copy()
        after.play(tile, on_right)
        return self.points(after, st.turn) > 0

    def points(self, st: RoundState, seat: int) -> float:
        """A finished round's points to ``seat``'s side (negative: another side's), by the rules."""
        rules = self._rules
        players = st.players
        score = score_round(
            rules,
            st.pip_counts(),
            reason=st.outcome or Outcome.TRANQUE,
            last_player=st.last_player,
            last_tile=st.tiles.tiles[st.last_tile],
            capicu=st.capicu,
            round_number=self._round_number,
        )
        if score.winner is None:
            return 0.0
        if score.winner == rules.side_of(seat, players):
            return float(score.points)
        return -score.points / (rules.sides(players) - 1)


def parse_weights(text: str) -> dict[str, Model]:
    """The models of a weights file's text, checked; `EvaluationFileError` names what is wrong."""
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise EvaluationFileError(f"the weights file is not JSON: {exc}") from None
    if not isinstance(data, dict):
        raise EvaluationFileError("the weights file is not a JSON object")
    if data.get("format") != FORMAT:
        raise EvaluationFileError(f"the weights file's format is {data.get('format')!r}, not {FORMAT!r}")
    if data.get("version") != VERSION:
        raise EvaluationFileError(
            f"the weights file is version {data.get('version')!r}; this code reads version {VERSION}"
        )
    models = data.get("models")
    if not isinstance(models, dict) or not models:
        raise EvaluationFileError("the weights file holds no models")
    return {key: _parse_model(key, entry) for key, entry in models.items()}


def _parse_model(key: str, entry: Any) -> Model:
    if not isinstance(entry, dict):
        raise EvaluationFileError(f"model {key!r} is not a JSON object")
    players = entry.get("players")
    if not isinstance(players, int) or isinstance(players, bool) or not 2 <= players <= 8:
        raise EvaluationFileError(f"model {key!r} has no number of players from 2 to 8: {players!r}")
    if not key.endswith(f"/{players}"):
        raise EvaluationFileError(f"model {key!r} is not named for its {players} players")
    names = feature_names(players)
    if entry.get("features") != list(names):
        raise EvaluationFileError(
            f"model {key!r} was trained on other features than this code computes"
            f" (expected {len(names)}: {', '.join(names[:4])}, ...)"
        )
    heads = []
    for head in ("points", "result"):
        weights = entry.get(head)
        if not isinstance(weights, list) or len(weights) != len(names):
            raise EvaluationFileError(f"model {key!r} needs {len(names)} {head} weights")
        for i, w in enumerate(weights):
            if isinstance(w, bool) or not isinstance(w, int | float) or not math.isfinite(w):
                raise EvaluationFileError(
                    f"model {key!r}'s {head} weight for {names[i]} is not a finite number: {w!r}"
                )
        heads.append(tuple(float(w) for w in weights))
    return Model(key, players, heads[0], heads[1])


def _read_weights_text() -> str:
    """The shipped weights file's text (the only file core/ reads: its own package data)."""
    try:
        return resources.files(__package__).joinpath(WEIGHTS_FILE).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise EvaluationFileError(f"the weights file {WEIGHTS_FILE} cannot be read: {exc}") from None


@cache
def shipped_models() -> dict[str, Model]:
    """The models of the shipped weights file, read and checked once."""
    return parse_weights(_read_weights_text())


def evaluation_for(rules: Rules, players: int) -> Model | None:
    """The learned evaluation for ``rules`` played by ``players``, or None when none was trained
    for them (another preset or player count, or house rules that change a preset)."""
    key = model_key(rules.preset, players)
    models = shipped_models()
    if key not in models:
        return None
    try:
        preset = Rules.preset_named(rules.preset)
    except ValueError:
        return None
    return models[key] if preset == rules else None
