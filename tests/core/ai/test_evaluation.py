"""The learned evaluation of Draw-family positions: its features, its weights file, its training."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import msgspec
import pytest
from capicu.core import Match, Rules
from capicu.core.ai.evaluation import (
    SEAT_FEATURES,
    TABLE_FEATURES,
    EvaluationFileError,
    LearnedPlayout,
    Model,
    evaluation_for,
    feature_names,
    features,
    parse_weights,
    shipped_models,
)
from capicu.core.ai.search import Budget, HardPlayer
from capicu.core.draw.state import RoundState
from capicu.core.tiles import Tile, tile_set

ROOT = Path(__file__).resolve().parents[3]
SHIPPED = ROOT / "core" / "ai" / "draw_eval.json"


def _state(hands_text: list[list[str]], ends: tuple[int, int] | None, turn: int,
           stock: tuple[str, ...] = ()) -> RoundState:
    tiles = tile_set(6)
    hands = [sum(1 << tiles.index[Tile.parse(x)] for x in hand) for hand in hands_text]
    st = RoundState(tiles, hands, [tiles.index[Tile.parse(x)] for x in stock], turn=turn, reserve=0)
    if ends is not None:
        st.left, st.right = ends
    return st


def _named(state: RoundState, seat: int) -> dict[str, float]:
    return dict(zip(feature_names(state.players), features(state, seat), strict=True))


# -- features, on positions made by hand ----------------------------------------------


def test_features_count_each_seat_in_turn_order_from_the_seat_valued() -> None:
    st = _state([["6-6", "1-6", "0-0"], ["2-3"], ["4-5", "5-5"], ["1-2", "3-3", "0-6", "2-2"]],
                ends=(6, 1), turn=1, stock=("0-1", "0-2", "0-3"))
    seen = _named(st, 2)
    assert seen["bias"] == 1.0 and seen["drawable"] == 3.0 and seen["same_ends"] == 0.0
    # seat0 is seat 2 itself, seat1 the next seat (3), then 0 and 1.
    assert [seen[f"seat{r}.tiles"] for r in range(4)] == [2.0, 4.0, 3.0, 1.0]
    assert [seen[f"seat{r}.pips"] for r in range(4)] == [19.0, 19.0, 19.0, 5.0]
    assert [seen[f"seat{r}.doubles"] for r in range(4)] == [1.0, 2.0, 2.0, 0.0]
    # Open 6 and 1: seat 2 fits nothing, seat 3 fits 1-2 and 0-6, seat 0 all but 0-0.
    assert [seen[f"seat{r}.fitting"] for r in range(4)] == [0.0, 2.0, 2.0, 0.0]
    assert [seen[f"seat{r}.blocked"] for r in range(4)] == [1.0, 0.0, 0.0, 1.0]
    assert [seen[f"seat{r}.numbers"] for r in range(4)] == [2.0, 5.0, 3.0, 2.0]
    assert [seen[f"seat{r}.last_tile"] for r in range(4)] == [0.0, 0.0, 0.0, 1.0]
    assert [seen[f"seat{r}.on_turn"] for r in range(4)] == [0.0, 0.0, 0.0, 1.0]
    # From seat 1, the same seats come in another order.
    assert _named(st, 1)["seat0.last_tile"] == 1.0 and _named(st, 1)["seat1.tiles"] == 2.0


def test_features_of_a_lead_and_of_equal_ends() -> None:
    lead = _state([["6-6", "1-6"], ["2-3", "0-0"]], ends=None, turn=0)
    assert _named(lead, 0)["seat0.fitting"] == 2.0  # any tile leads
    lead.forced_lead = tile_set(6).index[Tile(6, 6)]
    assert _named(lead, 0)["seat0.fitting"] == 1.0 and _named(lead, 0)["seat1.blocked"] == 1.0
    same = _state([["6-6"], ["2-3"]], ends=(3, 3), turn=0)
    assert _named(same, 0)["same_ends"] == 1.0


def test_the_evaluation_does_not_change_the_position() -> None:
    st = _state([["6-6", "1-6"], ["2-3"], ["4-5"], ["1-2"]], ends=(6, 1), turn=0)
    before = (list(st.hands), st.left, st.right, st.turn)
    model = shipped_models()["puerto-rican-partners/4"]
    model(st, 0)
    assert (list(st.hands), st.left, st.right, st.turn) == before


def test_the_shipped_model_sees_a_won_round_coming() -> None:
    # Seat 0 is about to lay its last tile (it fits); the others hold heavy hands.
    st = _state([["1-6"], ["5-5", "4-6", "6-6"], ["4-5", "5-6", "3-3"], ["3-6", "2-2", "4-4"]],
                ends=(6, 2), turn=0)
    model = shipped_models()["puerto-rican-partners/4"]
    points, result = model.outlook(st, 0)
    assert points > 0 and result > 0
    assert model(st, 2) == model.value(st, 2) > 0  # the partner's side is the same side
    assert model(st, 1) < 0 and model(st, 3) < 0


# -- the weights file ----------------------------------------------------------------


def test_the_shipped_weights_load_and_serve_the_presets_they_were_trained_for() -> None:
    models = shipped_models()
    assert {"puerto-rican-partners/4", "puerto-rican-drawing/2", "puerto-rican-drawing/3"} <= set(models)
    partners = Rules.preset_named("puerto-rican-partners")
    assert evaluation_for(partners, 4) is models["puerto-rican-partners/4"]
    assert evaluation_for(Rules.preset_named("puerto-rican-drawing"), 3) is models["puerto-rican-drawing/3"]
    # No model for a preset it was not trained for, nor for house rules that change one.
    assert evaluation_for(Rules.preset_named("quinientos"), 4) is None
    changed = msgspec.structs.replace(Rules.preset_named("puerto-rican-drawing"), wild_blanks=True)
    assert evaluation_for(changed, 3) is None


def _shipped() -> dict[str, object]:
    data = json.loads(SHIPPED.read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def _damaged(change: str) -> str:
    data = _shipped()
    model = data["models"]["puerto-rican-partners/4"]  # type: ignore[index]
    if change == "format":
        data["format"] = "something-else"
    elif change == "version":
        data["version"] = 99
    elif change == "no models":
        data["models"] = {}
    elif change == "short":
        model["points"] = model["points"][:-1]
    elif change == "not finite":
        model["result"][3] = float("nan")
    elif change == "text":
        model["points"][0] = "1.5"
    elif change == "features":
        model["features"] = list(reversed(model["features"]))
    elif change == "players":
        model["players"] = 3
    return json.dumps(data)


@pytest.mark.parametrize(
    "change,reason",
    [
        ("format", "format is 'something-else'"),
        ("version", "version 99; this code reads version 1"),
        ("no models", "holds no models"),
        ("short", "needs 35 points weights"),
        ("not finite", "result weight for seat0.tiles is not a finite number: nan"),
        ("text", "points weight for bias is not a finite number: '1.5'"),
        ("features", "trained on other features than this code computes"),
        ("players", "not named for its 3 players"),
    ],
)
def test_a_damaged_weights_file_is_refused_with_its_reason(change: str, reason: str) -> None:
    with pytest.raises(EvaluationFileError, match=re.escape(reason)):
        parse_weights(_damaged(change))


def test_a_weights_file_that_is_not_json_is_refused() -> None:
    with pytest.raises(EvaluationFileError, match="not JSON"):
        parse_weights(SHIPPED.read_text(encoding="utf-8")[:-40])
    with pytest.raises(EvaluationFileError, match="not a JSON object"):
        parse_weights("[1, 2]")


# -- the hard player with the evaluation -------------------------------------------


def _round_with(evaluation: Model | LearnedPlayout, seed: int) -> list[str]:
    rules = Rules.preset_named("puerto-rican-partners")
    match = Match(rules, 4, seed)
    budget = Budget(iterations=40, cap_seconds=None, evaluate=evaluation, evaluate_after=3)
    players = [HardPlayer(seed * 10 + s, budget) for s in range(4)]
    moves = []
    while not match.results:
        seat = match.turn
        assert seat is not None
        view = match.view(seat)
        action = players[seat].choose(view)
        assert action in view.legal
        match.apply(action, seat)
        moves.append(str(action))
    return moves


@pytest.mark.parametrize("kind", ["model", "rollout", "blind"])
def test_hard_with_the_evaluation_plays_legal_moves_and_repeats_itself_for_a_seed(kind: str) -> None:
    rules = Rules.preset_named("puerto-rican-partners")
    model = evaluation_for(rules, 4)
    assert model is not None
    evaluation = model if kind == "model" else LearnedPlayout(model, rules, sees_hands=kind == "rollout")
    first = _round_with(evaluation, seed=3)
    assert _round_with(evaluation, seed=3) == first


# -- the training script ----------------------------------------------------------


def test_the_training_script_runs_on_a_tiny_budget_and_repeats_itself(tmp_path: Path) -> None:
    outs = [tmp_path / "a.json", tmp_path / "b.json"]
    for out in outs:
        done = subprocess.run(
            [sys.executable, str(ROOT / "bench" / "train_draw_eval.py"), "--tiny", "--seed", "3",
             "--models", "puerto-rican-partners:4", "puerto-rican-drawing:2", "--out", str(out)],
            capture_output=True, text=True, timeout=120, check=False,
        )
        assert done.returncode == 0, done.stderr
        assert json.loads(done.stdout)["puerto-rican-partners/4"]["positions"] > 0
    assert outs[0].read_bytes() == outs[1].read_bytes()
    models = parse_weights(outs[0].read_text(encoding="utf-8"))
    assert set(models) == {"puerto-rican-partners/4", "puerto-rican-drawing/2"}
    assert outs[0].read_bytes() != SHIPPED.read_bytes()


# -- the model's own play-outs ---------------------------------------------------------


def _moves_after(st: RoundState, playable: int) -> list[tuple[int, bool, RoundState]]:
    out = []
    for tile in range(playable.bit_length()):
        if not playable >> tile & 1:
            continue
        ends = [False] if st.left < 0 else [
            on_right for on_right in (False, True) if st.far[tile][st.right if on_right else st.left] >= 0]
        for on_right in ends:
            after = st.copy()
            after.play(tile, on_right)
            out.append((tile, on_right, after))
    return out


@pytest.mark.parametrize("preset,players", [("puerto-rican-partners", 4), ("puerto-rican-drawing", 2),
                                            ("puerto-rican-drawing", 3)])
def test_the_model_plays_the_move_after_which_it_likes_the_position_best(preset: str, players: int) -> None:
    # `LearnedPlayout.choose` works out only what a move changes; it must pick what valuing
    # every position after a move in full picks (a move that goes out first of all).
    rules = Rules.preset_named(preset)
    model = evaluation_for(rules, players)
    assert model is not None
    rollout = LearnedPlayout(model, rules)
    checked = 0
    for seed in range(6):
        st = Match(rules, players, seed).state.copy()
        while st.outcome is None:
            playable = st.playable(st.turn)
            if not playable:
                if st.may_draw():
                    st.draw()
                else:
                    st.pass_turn()
                continue
            mover = st.turn
            moves = _moves_after(st, playable)
            tile, on_right = rollout.choose(st, playable)
            chosen = next(after for t, r, after in moves if (t, r) == (tile, on_right))
            ended = [rollout.points(after, mover) for _, _, after in moves if after.outcome is not None]
            if any(points > 0 for points in ended):  # a move that wins the round is played
                assert chosen.outcome is not None and rollout.points(chosen, mover) > 0
            elif chosen.outcome is None:  # else the best-liked position, a lost tranque avoided
                best = max(model.value(after, mover) for _, _, after in moves if after.outcome is None)
                assert model.value(chosen, mover) >= best - 1e-9
                checked += 1
            else:
                assert len(ended) == len(moves)
            st.play(tile, on_right)
    assert checked > 50


def test_a_learned_playout_finishes_the_round_and_scores_it_for_the_side() -> None:
    rules = Rules.preset_named("puerto-rican-partners")
    model = evaluation_for(rules, 4)
    assert model is not None
    rollout = LearnedPlayout(model, rules)
    st = Match(rules, 4, 11).state.copy()
    before = list(st.hands)
    values = [rollout(st, seat) for seat in range(4)]
    assert st.hands == before and st.outcome is None  # the position asked about is left alone
    assert values[0] == values[2] == -values[1] == -values[3]
    done = st.copy()
    rollout.finish(done)
    assert done.outcome is not None
    assert rollout.points(done, 0) == values[0]
    # Seat 0 about to lay its last tile: the round is its side's, every pip left.
    won = _state([["1-6"], ["5-5", "4-6"], ["4-5"], ["3-6", "2-2"]], ends=(6, 2), turn=0)
    assert rollout(won, 2) == 10 + 10 + 9 + 9 + 4 and rollout(won, 1) < 0


def test_a_blind_learned_playout_weighs_the_movers_own_hand_only() -> None:
    # sees_hands=False: the choice is the one a model with no weight on the other seats makes.
    rules = Rules.preset_named("puerto-rican-partners")
    model = evaluation_for(rules, 4)
    assert model is not None
    kept = len(TABLE_FEATURES) + len(SEAT_FEATURES)  # the table's and the mover's own
    own = [w if i < kept else 0.0 for i, w in enumerate(model.points)]
    mine_only = Model(model.key, 4, tuple(own), model.result)
    blind = LearnedPlayout(model, rules, sees_hands=False)
    alike = LearnedPlayout(mine_only, rules)
    compared = 0
    for seed in range(6):
        st = Match(rules, 4, seed).state.copy()
        while st.outcome is None:
            playable = st.playable(st.turn)
            if not playable:
                st.pass_turn()
                continue
            choice = blind.choose(st, playable)
            if all(after.outcome is None for _, _, after in _moves_after(st, playable)):
                assert choice == alike.choose(st, playable)
                compared += 1
            st.play(*choice)
    assert compared > 50
    # Seeing the hands changes some choices.
    seeing = LearnedPlayout(model, rules)
    assert any(seeing(Match(rules, 4, seed).state, 0) != blind(Match(rules, 4, seed).state, 0)
               for seed in range(10))
