"""HandView driven by keys in a tiny app: cursor, legal highlights from the engine, TileChosen."""

from __future__ import annotations

from capicu.core import DRAW, End, Play, Tile
from capicu.tui.widgets.hand_view import HandView
from capicu.tui.widgets.tiles import TileStyle
from widget_harness import SIZE, WidgetApp, played_view

HAND = (Tile(1, 2), Tile(1, 4), Tile(2, 2), Tile(3, 3), Tile(4, 6))
# What an engine would say with open ends 2 and 4: never computed here, only passed in.
LEGAL = (
    Play(Tile(1, 2), End.LEFT),
    Play(Tile(1, 4), End.RIGHT),
    Play(Tile(2, 2), End.LEFT),
    Play(Tile(4, 6), End.RIGHT),
)


def hand_app() -> tuple[WidgetApp, HandView]:
    hand = HandView()
    return WidgetApp(lambda: [hand]), hand


async def test_cursor_moves_with_arrows_home_and_end() -> None:
    app, hand = hand_app()
    async with app.run_test(size=SIZE) as pilot:
        hand.update_hand(HAND, LEGAL)
        hand.focus()
        await pilot.press("right", "right")
        assert hand.selected == Tile(2, 2)
        await pilot.press("end")
        assert hand.selected == Tile(4, 6)
        await pilot.press("right")
        assert hand.cursor == 4
        await pilot.press("home", "left")
        assert hand.selected == Tile(1, 2)


async def test_enter_posts_the_tile_with_its_legal_plays() -> None:
    app, hand = hand_app()
    both = (Play(Tile(1, 4), End.LEFT), Play(Tile(1, 4), End.RIGHT))
    async with app.run_test(size=SIZE) as pilot:
        hand.update_hand(HAND, (*both, DRAW))
        hand.focus()
        await pilot.press("right", "enter")
        await pilot.pause()
        chosen = app.posted[-1]
        assert isinstance(chosen, HandView.TileChosen)
        assert chosen.tile == Tile(1, 4)
        assert chosen.actions == both
        await pilot.press("right", "enter")
        await pilot.pause()
        assert app.posted[-1].tile == Tile(2, 2)  # type: ignore[attr-defined]
        assert app.posted[-1].actions == ()  # type: ignore[attr-defined]


async def test_the_cursor_stays_on_its_tile_when_the_hand_changes() -> None:
    app, hand = hand_app()
    async with app.run_test(size=SIZE) as pilot:
        hand.update_hand(HAND, LEGAL)
        hand.focus()
        await pilot.press("right", "right", "right")
        assert hand.selected == Tile(3, 3)
        hand.update_hand((Tile(0, 0), *HAND[1:]), ())
        assert hand.selected == Tile(3, 3)
        hand.update_hand((Tile(0, 0),), ())
        assert hand.selected == Tile(0, 0)
        hand.update_hand((), ())
        assert hand.selected is None
        await pilot.press("right", "enter")
        await pilot.pause()
        assert app.posted == []


async def test_legal_tiles_are_highlighted_and_the_others_dimmed() -> None:
    app, hand = hand_app()
    async with app.run_test(size=SIZE) as pilot:
        hand.update_hand(HAND, LEGAL)
        hand.focus()
        await pilot.press("right")  # cursor on 1-4, away from the tiles checked below
        legal = hand.get_component_rich_style("hand--legal")
        dimmed = hand.get_component_rich_style("hand--dimmed")
        assert legal != dimmed
        rows, regions = hand._layout(hand.content_size.width)
        styles = {}
        for tile, region in zip(HAND, regions, strict=True):
            text = rows[region.y]
            styles[tile] = text.get_style_at_offset(app.console, region.x)
        assert styles[Tile(1, 2)] == legal and styles[Tile(4, 6)] == legal
        assert styles[Tile(3, 3)] == dimmed
        # Not this seat's turn (no legal actions): no tile is dimmed.
        hand.update_hand(HAND, ())
        rows, regions = hand._layout(hand.content_size.width)
        plain = hand.get_component_rich_style("hand--tile")
        assert rows[regions[3].y].get_style_at_offset(app.console, regions[3].x) == plain


async def test_a_real_view_is_shown_and_a_big_hand_wraps() -> None:
    view = played_view(seed=3, moves=14)
    app, hand = hand_app()
    async with app.run_test(size=SIZE) as pilot:
        hand.update_from_view(view)
        await pilot.pause()
        assert hand.hand == view.hand
        many = tuple(Tile(a, b) for a in range(7) for b in range(a, 7))[:20]
        hand.update_hand(many, ())
        await pilot.pause()
        rows, _ = hand._layout(hand.content_size.width)
        assert len(rows) == 4  # two rows of tiles, each with its cursor row
        assert all(row.cell_len <= hand.content_size.width for row in rows)
        assert hand.size.height == 4


async def test_a_click_chooses_the_tile_under_the_mouse() -> None:
    app, hand = hand_app()
    async with app.run_test(size=SIZE) as pilot:
        hand.update_hand(HAND, LEGAL)
        await pilot.pause()
        _, regions = hand._layout(hand.content_size.width)
        region = regions[4]
        await pilot.click(HandView, offset=(region.x + hand.gutter.left + 1, region.y))
        await pilot.pause()
        assert hand.selected == Tile(4, 6)
        assert app.posted[-1].actions == (LEGAL[3],)  # type: ignore[attr-defined]


async def test_ascii_hand_draws_only_ascii() -> None:
    hand = HandView(ascii=True)
    app = WidgetApp(lambda: [hand])
    async with app.run_test(size=SIZE) as pilot:
        hand.update_hand(HAND, LEGAL)
        await pilot.pause()
        assert hand.render().plain.isascii()
        assert "^^^^^" in hand.render().plain


async def test_a_spectator_has_no_hand() -> None:
    view = played_view(seat=None)
    app, hand = hand_app()
    async with app.run_test(size=SIZE) as pilot:
        hand.update_from_view(view)
        await pilot.pause()
        assert hand.render().plain == "You are watching: no hand."


async def test_big_tiles_give_way_when_the_hand_would_take_too_much_room() -> None:
    many = tuple(Tile(a, b) for a in range(7) for b in range(a, 7))[:10]
    hand = HandView(tile_style=TileStyle.PIPS)
    app = WidgetApp(lambda: [hand])
    async with app.run_test(size=SIZE) as pilot:
        hand.update_hand(many, ())
        await pilot.pause()
        assert hand.outer_size.height <= SIZE[1] * 0.4
        assert "┌─┬─┐" in hand.render().plain  # boxed digits, not the pip grid
    big = HandView(tile_style=TileStyle.PIPS)
    app = WidgetApp(lambda: [big])
    async with app.run_test(size=(160, 60)) as pilot:
        big.update_hand(many[:5], ())
        await pilot.pause()
        assert "●" in big.render().plain  # room enough for pips


async def test_a_new_deal_puts_the_cursor_on_the_first_tile() -> None:
    first = played_view(seed=3, moves=4)
    app, hand = hand_app()
    async with app.run_test(size=SIZE) as pilot:
        hand.update_from_view(first)
        hand.focus()
        await pilot.press("end")
        assert hand.cursor == len(first.hand) - 1
        hand.update_from_view(first)  # the same round: the cursor stays
        assert hand.cursor == len(first.hand) - 1
        hand.update_hand(HAND, (), new_deal=True)
        assert hand.cursor == 0
