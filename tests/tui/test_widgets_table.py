"""The table's other widgets: seat panels, el pozo, the event log, chat (the line: test_line_of_play)."""

from __future__ import annotations

import pytest
from capicu.core import Direction, Passed, RoundStarted, TilesDrawn
from capicu.tui.widgets.boneyard_info import BoneyardInfo
from capicu.tui.widgets.chat_panel import ChatPanel
from capicu.tui.widgets.event_log import EventLog
from capicu.tui.widgets.hand_view import HandView
from capicu.tui.widgets.line_of_play import LineOfPlay
from capicu.tui.widgets.seat_panel import Position, SeatPanel, SeatView, table_positions
from capicu.tui.words.messages import default_language, set_ascii
from textual.widget import Widget
from textual.widgets import Input, RichLog
from widget_harness import SIZE, WidgetApp, played_view, styled_app


def test_seats_sit_in_turn_order_by_direction() -> None:
    ccw = table_positions(4, 1, Direction.COUNTERCLOCKWISE)
    assert ccw == [(1, Position.BOTTOM), (2, Position.RIGHT), (3, Position.TOP), (0, Position.LEFT)]
    cw = dict(table_positions(4, 1, Direction.CLOCKWISE))
    assert cw[2] is Position.LEFT and cw[0] is Position.RIGHT
    assert dict(table_positions(2, 0, Direction.CLOCKWISE))[1] is Position.TOP
    assert dict(table_positions(3, None, Direction.COUNTERCLOCKWISE)) == {
        0: Position.BOTTOM, 1: Position.RIGHT, 2: Position.LEFT
    }


async def test_a_seat_panel_shows_name_tiles_score_state_and_timer() -> None:
    panel = SeatPanel()
    app = WidgetApp(lambda: [panel])
    async with app.run_test(size=SIZE) as pilot:
        panel.update_seat(SeatView(seat=1, name="Beto", tiles=1, score=23, turn=True))
        await pilot.pause()
        lines = panel.render().plain.splitlines()
        assert lines[0].split() == ["▶", "Beto", "to", "play"]
        assert lines[1].strip() == "1 tile, 23 pts"
        assert lines[2].strip() == "connected"
        assert panel.has_class("-turn")
        panel.timer = 12
        await pilot.pause()
        assert "12s left" in panel.render().plain
        panel.update_seat(SeatView(seat=1, name="Beto", tiles=5, score=23, covered=True, connected=False))
        await pilot.pause()
        assert "away, computer plays" in panel.render().plain
        assert not panel.has_class("-turn") and panel.has_class("-away")
        panel.timer = None
        panel.update_seat(SeatView(seat=1, name="Beto", tiles=5, score=23, computer=True))
        assert "computer" in panel.render().plain


@pytest.mark.parametrize(("language", "one", "many"), [("en", "1 tile, 1 pt", "2 tiles, 0 pts"),
                                                        ("es", "1 ficha, 1 pto", "2 fichas, 0 ptos")])
async def test_a_seat_panels_score_agrees_with_its_number(language: str, one: str, many: str) -> None:
    panel = SeatPanel()
    app = WidgetApp(lambda: [panel])
    default_language.switch(language)
    try:
        async with app.run_test(size=SIZE) as pilot:
            panel.update_seat(SeatView(seat=1, name="Beto", tiles=1, score=1))
            await pilot.pause()
            assert panel.render().plain.splitlines()[1].strip() == one
            panel.update_seat(SeatView(seat=1, name="Beto", tiles=2, score=0))
            await pilot.pause()
            assert panel.render().plain.splitlines()[1].strip() == many
    finally:
        default_language.switch("en")


def test_seat_info_from_a_view_uses_the_sides_score() -> None:
    view = played_view(seed=5, moves=6, players=4, preset="puerto-rican-partners", seat=0)
    info = SeatView.from_view(view, 2, ["Ana", "Beto", "Carmen", "Dolo"])
    assert info.partner and not info.me
    assert info.tiles == view.hand_counts[2]
    assert info.score == view.scores[0]
    assert info.turn == (view.turn == 2)
    assert SeatView.from_view(view, 0, ["Ana"]).me


async def test_el_pozo_counts_tiles_and_how_many_can_be_drawn() -> None:
    pozo = BoneyardInfo()
    app = WidgetApp(lambda: [pozo])
    async with app.run_test(size=SIZE) as pilot:
        pozo.update_boneyard(7, 5)
        await pilot.pause()
        assert pozo.render().plain == "7 tiles in el pozo, 5 can be drawn"
        pozo.update_boneyard(7, 0, drawing=False)
        assert pozo.render().plain == "7 tiles set aside (no drawing)"
        pozo.update_boneyard(0, 0, drawing=False)
        assert pozo.render().plain == "All tiles dealt (no drawing)"
        pozo.short = True
        assert pozo.render().plain == "All tiles dealt"
        pozo.update_boneyard(9, 7)
        assert pozo.render().plain == "pozo 9 (7 drawable)"
        pozo.short = False
        pozo.update_from_view(played_view())
        assert "el pozo" in pozo.render().plain


def _log_text(log: RichLog) -> list[str]:
    return [strip.text.rstrip() for strip in log.lines]


async def test_the_log_tells_events_chat_and_notices_in_one_time_order() -> None:
    log = EventLog()
    app = WidgetApp(lambda: [log])
    names = ["Ana", "Beto", "Carmen"]
    async with app.run_test(size=SIZE) as pilot:
        view = played_view(seed=7, moves=3)
        for event in view.events:
            log.add_event(event, names, 0)
        await pilot.pause()
        lines = _log_text(log)
        assert len(lines) == len(view.events)
        assert lines[0].startswith("Round 1 starts.")
        assert " leads with " in lines[1]
        # Single draws by one seat are one line once the run ends.
        log.add_event(TilesDrawn(1, 1, 1, 1), names, 0)
        log.add_event(TilesDrawn(1, 1, 1, 1), names, 0)
        log.add_chat("Beto", "ay bendito")
        log.add_event(Passed(1, 1, 1), names, 0)
        log.add_notice("\x1b[31mred\x1b[0m")
        log.add_notice("Carmen is back.")
        log.add_event(RoundStarted(2, 1, (7, 7, 7), 7, None), names, 0)
        await pilot.pause()
        assert _log_text(log)[-6:] == ["Beto drew 2 tiles.", "Beto: ay bendito", "Beto passes (paso).",
                                       "red", "Carmen is back.", "Round 2 starts. Beto leads."]
        # The drawer's own run is told in the drawer's words.
        log.add_event(TilesDrawn(0, 1, 1, 1), names, 0)
        assert log.drawing() == 0
        log.end_draws(lambda: "You drew 4-5.")
        await pilot.pause()
        assert _log_text(log)[-1] == "You drew 4-5."
        assert log.drawing() is None


async def test_chat_sends_what_was_typed_and_the_log_shows_lines_cleaned() -> None:
    chat = ChatPanel()
    log = EventLog()
    app = WidgetApp(lambda: [log, chat])
    async with app.run_test(size=SIZE) as pilot:
        chat.query_one(Input).focus()
        await pilot.press(*"hola mesa", "enter")
        await pilot.pause()
        sent = app.posted[-1]
        assert isinstance(sent, ChatPanel.Send) and sent.text == "hola mesa"
        assert chat.query_one(Input).value == ""
        await pilot.press("space", "enter")
        await pilot.pause()
        assert len(app.posted) == 1  # nothing said, nothing sent
        log.add_chat("Eve\x1b]0;title\x07", "\x1b[2Jhi\x07 there\nfriend")
        await pilot.pause()
        assert _log_text(log)[-1] == "Eve: hi there friend"


async def test_ascii_panels_stay_ascii_when_names_are_cut() -> None:
    panel = SeatPanel(ascii=True)
    pozo = BoneyardInfo()
    app = styled_app(lambda: [panel, pozo], "SeatPanel { width: 16; } BoneyardInfo { width: 12; }")
    async with app.run_test(size=SIZE) as pilot:
        panel.update_seat(SeatView(1, "Bartolomé de las Casas", 12, 100, turn=True, covered=True))
        panel.timer = 30
        pozo.update_boneyard(12, 10)
        await pilot.pause()
        text = panel.render().plain.replace("é", "e")
        assert text.isascii() and ">" in text
        assert pozo.render().plain.isascii()


async def test_in_ascii_mode_the_whole_table_of_widgets_is_ascii() -> None:
    view = played_view(seed=3, moves=9)
    names = ["José", "Zoë", "Ñico"]

    def widgets() -> list[Widget]:
        return [
            SeatPanel(SeatView.from_view(view, 1, names), ascii=True),
            LineOfPlay(ascii=True),
            BoneyardInfo(),
            HandView(ascii=True),
            EventLog(),
            ChatPanel(),
        ]

    set_ascii(True)
    try:
        # Borders and scrollbars are the app stylesheet's business in ASCII mode.
        app = styled_app(widgets, "* { scrollbar-size: 0 0; } Input { border: none; }")
        async with app.run_test(size=SIZE) as pilot:
            app.query_one(LineOfPlay).update_line(view.line, view.ends)
            app.query_one(HandView).update_from_view(view)
            app.query_one(HandView).focus()
            app.query_one(BoneyardInfo).update_from_view(view)
            for event in view.events:
                app.query_one(EventLog).add_event(event, names, 0)
            app.query_one(EventLog).add_chat("Ñico", "¡Capicú, pana!")
            app.query_one(SeatPanel).timer = 9
            await pilot.pause()
            screen = [strip.text for strip in app.screen._compositor.render_strips()]
            assert all(line.isascii() for line in screen), [line for line in screen if not line.isascii()]
            assert any("Capicu, pana!" in line for line in screen)
    finally:
        set_ascii(False)


async def test_a_narrow_log_wraps_long_sentences_instead_of_cutting_them() -> None:
    log = EventLog()
    app = styled_app(lambda: [log], "EventLog { width: 30; }")
    async with app.run_test(size=SIZE) as pilot:
        log.add_notice("Computer 2 plays 3-6 on the right, and then some more words.")
        await pilot.pause()
        lines = _log_text(log)
        assert len(lines) >= 2 and all(len(line) <= 30 for line in lines)
        assert "words." in " ".join(lines)
