"""A solo game (or a hosted one) left unfinished is offered again: resume it, or start a new one.

The real app, with Pilot, against its real in-process host; the journal goes in the
test's own data folder. Leaving the app mid-match stops its host the way a crash
would as far as the journal is concerned: the match is not over, so its journal stays.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from capicu.core import Rules
from capicu.net import Client, Host, HostConfig, TableConfig
from capicu.net.protocol import ErrorCode, SeatKind
from capicu.net.store.journals import JournalFolder, JournalKind, Unfinished, summarize
from capicu.tui.app import CapicuApp
from capicu.tui.game import DisplayOptions, HostGame, JoinGame, make_host_config
from capicu.tui.prefs.saved_seats import SEATS_FILE, SavedSeat, SeatStore
from capicu.tui.prefs.settings import data_dir, journals_dir
from capicu.tui.screens.draw_table import DrawTableScreen
from capicu.tui.screens.resume_offer import ResumeOfferScreen
from capicu.tui.screens.table import LeaveScreen
from capicu.tui.words.describe import describe_host_error, describe_unfinished
from capicu.tui.words.messages import default_language
from helpers_app import my_turn, play_turn_and_wait, screen_text, solo_app, wait_for
from textual.widgets import Static

SIZE = (100, 30)


async def _leave_mid_match(turns: int = 2) -> tuple[tuple[object, ...], tuple[int, ...]]:
    """Play a few turns of a solo game, then close the app mid-round: my hand and the scores."""
    app = solo_app(seed=11)
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(turns):
            await wait_for(pilot, lambda: my_turn(app), what="my turn")
            await play_turn_and_wait(pilot, app)
        await wait_for(pilot, lambda: my_turn(app), what="my turn")
        assert app.table is not None and app.table.view is not None
        view = app.table.view
        app.exit()
    return tuple(view.hand), view.scores


def _unfinished() -> list[Path]:
    return sorted(journals_dir().glob("*-play-*.journal"))


async def test_an_unfinished_solo_game_is_offered_and_resumed_with_its_hand() -> None:
    hand, scores = await _leave_mid_match()
    assert len(_unfinished()) == 1
    app = solo_app(seed=99)  # another seed: what comes back is the journal's match, not a new deal
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ResumeOfferScreen), what="the offer")
        offer = screen_text(app)
        assert "Resume the Puerto Rican Drawing Game match of" in offer and "Ana" in offer
        await pilot.press("r")
        await wait_for(pilot, lambda: isinstance(app.screen, DrawTableScreen) and my_turn(app),
                       what="the table")
        assert app.table is not None and app.table.view is not None
        assert tuple(app.table.view.hand) == hand and app.table.view.scores == scores
        await wait_for(pilot, lambda: "Resumed the Puerto Rican Drawing Game match of" in screen_text(app),
                       what="the resumed notice")
        app.exit()
    assert len(_unfinished()) == 1  # still not over: still kept


async def test_starting_new_sets_the_unfinished_game_aside_with_the_finished_ones() -> None:
    await _leave_mid_match(turns=1)
    [kept] = _unfinished()
    app = solo_app(seed=5)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ResumeOfferScreen), what="the offer")
        await pilot.press("n")
        await wait_for(pilot, lambda: isinstance(app.screen, DrawTableScreen), what="a new table")
        assert "Resumed" not in screen_text(app)
        app.exit()
    assert (journals_dir() / "finished" / kept.name).exists()
    assert kept not in _unfinished()


async def test_escape_starts_nothing_and_keeps_the_game() -> None:
    await _leave_mid_match(turns=1)
    [kept] = _unfinished()
    app = solo_app()
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ResumeOfferScreen), what="the offer")
        await pilot.press("escape")
        await wait_for(pilot, lambda: not app.is_running, what="the app to end")
    assert _unfinished() == [kept]


def test_the_offer_names_the_game_the_time_every_seat_and_the_rounds_in_english_and_spanish() -> None:
    moment = time.mktime((2026, 12, 1, 17, 2, 0, 0, 0, -1))
    people = ((SeatKind.PERSON, "Ana"), (SeatKind.PERSON, "Beto"))
    kept = Unfinished(Path("m.journal"), moment, people, 3, True, "puerto-rican-drawing")
    assert describe_unfinished(kept, now=moment) == ("the Puerto Rican Drawing Game match of 17:02 "
                                                     "(Ana, Beto; 3 rounds played)")
    later_day = moment + 2 * 86400
    assert describe_unfinished(kept, now=later_day) == (
        "the Puerto Rican Drawing Game match of 2026-12-01 17:02 (Ana, Beto; 3 rounds played)")
    lobby = Unfinished(Path("m.journal"), moment, (), 0, False, "quinientos")
    assert describe_unfinished(lobby, now=moment) == "the Quinientos match of 17:02 (not dealt yet)"
    seats = ((SeatKind.PERSON, "Ana"), (SeatKind.COMPUTER, ""))
    with_computers = Unfinished(Path("m.journal"), moment, seats, 1, True, "mexican-train")
    assert describe_unfinished(with_computers, now=moment) == ("the Mexican Train match of 17:02 "
                                                               "(Ana, Computer 2; 1 round played)")
    fives = Unfinished(Path("m.journal"), moment, seats, 2, True, "fives-and-threes")
    assert describe_unfinished(fives, now=moment) == ("the Fives and Threes match of 17:02 "
                                                      "(Ana, Computer 2; 2 hands played)")  # its word
    default_language.switch("es")
    try:
        assert describe_unfinished(fives, now=moment) == (
            "la partida de Cincos y treses de 17:02 (Ana, Computadora 2; 2 manos jugadas)")
        assert describe_unfinished(kept, now=moment) == ("la partida de Robado boricua de 17:02 "
                                                         "(Ana, Beto; 3 manos jugadas)")
        assert describe_unfinished(with_computers, now=moment) == (
            "la partida de Tren mexicano de 17:02 (Ana, Computadora 2; 1 mano jugada)")
    finally:
        default_language.switch("en")


@pytest.mark.parametrize("language", ["en", "es"])
async def test_the_offer_says_the_game_every_seat_and_when_the_match_began(language: str) -> None:
    """Not when its journal was last written: a match begun at 05:29 and left at 05:31 is "of 05:29"."""
    await _leave_mid_match(turns=1)
    [kept] = _unfinished()
    summary = summarize(kept)
    assert summary is not None
    later = summary.began + 3600
    os.utime(kept, (later, later))  # played on, an hour later
    began = time.strftime("%H:%M", time.localtime(summary.began))
    assert summarize(kept) == summary
    app = CapicuApp(DisplayOptions(mouse=False, language=language), solo_app(seed=5).start_request)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ResumeOfferScreen), what="the offer")
        text = " ".join(str(line.content) for line in app.screen.query(Static))
        app.exit()
    if language == "en":
        assert f"Resume the Puerto Rican Drawing Game match of {began} (Ana, Computer 2; " in text, text
    else:
        assert f"la partida de Robado boricua de {began} (Ana, Computadora 2; " in text, text


def test_a_lost_match_is_said_to_be_lost_in_english_and_spanish() -> None:
    assert describe_host_error(ErrorCode.MATCH_GONE) == "The host restarted without this match: it is lost."
    default_language.switch("es")
    try:
        lost = describe_host_error(ErrorCode.MATCH_GONE)
        assert lost == "El anfitrión volvió a empezar sin esta partida: se perdió."
    finally:
        default_language.switch("en")


async def test_the_hosting_app_offers_an_unfinished_hosted_match() -> None:
    folder = JournalFolder(journals_dir(), JournalKind.HOST)
    host = Host(HostConfig(TableConfig(players=2), bind="127.0.0.1", port=0, journals=folder))
    _, port = await host.start()
    client = await Client.connect("127.0.0.1", port, name="Ana", reconnect=False)
    await client.drop()
    await host.stop()  # stopped in the lobby: Ana's seat is in the journal, the match not dealt
    [kept] = folder.unfinished()
    config = make_host_config(rules=Rules.preset_named("puerto-rican-drawing"), players=2, computers=0,
                              level="normal", bind="127.0.0.1", port=0, code=None, seed=None, journals=folder)
    app = CapicuApp(DisplayOptions(mouse=False), HostGame(config=config, name="Beto"))
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ResumeOfferScreen), what="the offer")
        offer = " ".join(str(line.content) for line in app.screen.query(Static))
        assert "Resume the Puerto Rican Drawing Game match of" in offer and "(Ana; not dealt yet)" in offer
        await pilot.press("r")
        # Ana's seat is kept for her: Beto takes the other one.
        await wait_for(pilot, lambda: app.table is not None and app.table.seat == 1,
                       what="Beto seated")
        assert app.table is not None and app.table.seats[0].name == "Ana"
        app.exit()
    assert folder.unfinished()[0].path == kept.path


async def test_a_solo_game_left_on_purpose_is_set_aside_not_offered() -> None:
    app = solo_app(seed=4)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: my_turn(app), what="my turn")
        await play_turn_and_wait(pilot, app)
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("y")  # "leaving ends the game"
        await wait_for(pilot, lambda: not app.is_running, what="the app to end")
    assert _unfinished() == []
    assert len(list((journals_dir() / "finished").glob("*-play-*.journal"))) == 1


@pytest.mark.parametrize("preset", ["puerto-rican-drawing", "mexican-train"])
async def test_leaving_a_solo_game_of_any_game_sets_it_aside_and_says_so(preset: str) -> None:
    """One rule for every game (README): q then y ends a game against the computer, never offered again;
    the dialog says that, not that it ends the game "for everyone" (nobody else is there)."""
    app = solo_app(seed=4, preset=preset)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: app.table is not None and app.table.view is not None
                       and app.table.view.turn is not None, what="the deal")
        await pilot.press("q")
        await wait_for(pilot, lambda: isinstance(app.screen, LeaveScreen), what="the leave dialog")
        text = " ".join(str(line.content) for line in app.screen.query(Static))
        assert "for everyone" not in text
        assert "Leaving ends this game against the computer: it will not be offered again." in text
        await pilot.press("y")
        await wait_for(pilot, lambda: not app.is_running, what="the app to end")
    assert _unfinished() == []
    assert len(list((journals_dir() / "finished").glob("*-play-*.journal"))) == 1


async def test_joining_with_a_seat_saved_for_a_match_the_host_no_longer_plays_says_it_is_lost() -> None:
    host = Host(HostConfig(TableConfig(players=2), bind="127.0.0.1", port=0))
    _, port = await host.start()
    store = SeatStore(data_dir() / SEATS_FILE)
    store.save(SavedSeat(host="127.0.0.1", port=port, table="main", match="oldmatch", token="oldmatch.secret",
                         seat_key=None, name="Ana", seat=0))
    app = CapicuApp(DisplayOptions(mouse=False), JoinGame(host="127.0.0.1", port=port, name="Ana"))
    try:
        async with app.run_test(size=SIZE, notifications=True) as pilot:
            await wait_for(pilot, lambda: app.table is not None and app.table.seat == 0, what="a new seat")
            await wait_for(pilot, lambda: any("restarted without your last match: it is lost"
                                              in note.message for note in app._notifications),
                           what="the lost-match notice")
            assert store.seats_at("127.0.0.1", port, "main")[0].match != "oldmatch"  # the new seat, only
            assert len(store.seats_at("127.0.0.1", port, "main")) == 1
            app.exit()
    finally:
        await host.stop()
