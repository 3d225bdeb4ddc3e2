"""The board seam: one fit rule (core/tiles.py), asked by every layout; places in actions."""

from __future__ import annotations

import pytest
from capicu.core import MEXICAN, End, Play, Run, Tile, Train, parse_action, tile_set
from capicu.core.draw.layout import line_of
from capicu.core.tiles import far_ends


@pytest.mark.parametrize("max_pip", [6, 9, 12])
def test_the_fit_rule_is_a_tile_showing_the_open_number(max_pip: int) -> None:
    tiles = tile_set(max_pip)
    far = far_ends(tiles)
    for index, tile in enumerate(tiles.tiles):
        for n in range(max_pip + 1):
            assert (far[index][n] >= 0) == tile.has(n)
            if tile.has(n):
                assert far[index][n] == tile.other(n)


def test_the_line_answers_where_a_tile_goes_and_what_is_left_open() -> None:
    line = line_of(6)
    assert line.tile_places(Tile(3, 5), None) == (End.LEFT,)  # the lead starts the line
    assert line.tile_places(Tile(3, 5), (3, 5)) == (End.LEFT, End.RIGHT)
    assert line.tile_places(Tile(3, 5), (1, 5)) == (End.RIGHT,)
    assert line.tile_places(Tile(3, 5), (1, 2)) == ()
    assert line.tile_after(Tile(3, 5), End.RIGHT, (1, 5)) == (1, 3)
    assert line.tile_after(Tile(5, 5), End.LEFT, (5, 1)) == (5, 1)
    assert line.tile_after(Tile(2, 4), End.LEFT, None) == (2, 4)


def test_the_line_fitting_mask_is_every_tile_showing_an_end() -> None:
    tiles = tile_set(6)
    line = line_of(6)
    assert line.fitting(-1, -1) == tiles.full_mask
    for left in range(7):
        for right in range(7):
            assert line.fitting(left, right) == tiles.suit_mask[left] | tiles.suit_mask[right]


@pytest.mark.parametrize(
    ("text", "action", "printed"),
    [
        ("play 3-5 left", Play(Tile(3, 5), End.LEFT), "play 3-5 left"),
        ("play 3-5", Play(Tile(3, 5), End.LEFT), "play 3-5 left"),
        ("play 3-5 right", Play(Tile(3, 5), End.RIGHT), "play 3-5 right"),
        ("play 12-5 train 2", Play(Tile(5, 12), Train(2)), "play 5-12 train 2"),
        ("play 5-5 mexican", Play(Tile(5, 5), MEXICAN), "play 5-5 mexican"),
        ("run 12-5 5-3 3-9", Run((Tile(12, 5), Tile(5, 3), Tile(3, 9))), "run 5-12 3-5 3-9"),
    ],
)
def test_an_action_names_its_place_and_reads_back(text: str, action: object, printed: str) -> None:
    assert parse_action(text) == action
    assert str(action) == printed
    assert parse_action(printed) == action


def test_a_play_on_a_train_has_no_end() -> None:
    assert Play(Tile(3, 5), End.RIGHT).end is End.RIGHT
    with pytest.raises(AttributeError):
        _ = Play(Tile(3, 5), MEXICAN).end


@pytest.mark.parametrize("text", ["play 3-5 up", "play 3-5 train", "play 3-5 train x", "run", "run 3-5 up"])
def test_a_bad_place_or_run_is_refused(text: str) -> None:
    with pytest.raises(ValueError):
        parse_action(text)


def test_a_tile_leaves_its_other_number_or_does_not_fit() -> None:
    from capicu.core.tiles import tile_leaves

    assert tile_leaves(Tile(12, 5), 12, 12) == 5
    assert tile_leaves(Tile(5, 5), 5, 12) == 5
    assert tile_leaves(Tile(3, 4), 5, 12) == -1
    assert tile_leaves(Tile(13, 15), 15, 12) == -1  # not a tile of the set
