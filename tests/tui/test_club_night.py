"""A club night in the real app, against a real club host on 127.0.0.1 (issue 33).

The player's app joins the club (``capicu club --join``), is listed as people arrive,
is taken to its seat by itself when a round is drawn (no join line typed), plays its
match by keys, and comes back to the club's standings; the next draw takes it to its
next table. The organiser's app runs the club host in its own process, draws rounds
(``s``) and closes a late table (``c``, then ``y``); the final standings stay on its
screen. The other players are protocol clients (net/club/client.py) that play the
first legal action.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import msgspec
import pytest
from capicu.core import Rules
from capicu.core.club import ClubConfig, ClubFormat
from capicu.net import Limits, NextRound, Update
from capicu.net.club import ClubClient, ClubHost, ClubHostConfig
from capicu.net.protocol import ClubPhase, GameSnapshot, TableState
from capicu.tui.app import CapicuApp
from capicu.tui.game import DisplayOptions, HostClub, JoinGame
from capicu.tui.screens.club_lobby import ClubLobbyScreen
from capicu.tui.screens.club_standings import ClubStandingsScreen, StandingsOverlay, TakeSeatBackScreen
from capicu.tui.screens.draw_table import DrawTableScreen
from capicu.tui.screens.match_over import MatchOverScreen
from capicu.tui.widgets.standings_table import StandingsTable
from helpers_app import play_turn_and_wait, screen_text, summary_ready, wait_for

CODE = "K7PX2M"
WAIT = 20.0
#: Pilot steps of 20 ms: long enough for a short match of computer-fast turns.
STEPS = 1500


def _config(*, rounds: int = 2, target: int = 10) -> ClubConfig:
    rules = msgspec.structs.replace(Rules.preset_named("puerto-rican-drawing"), target=target)
    return ClubConfig(rules=rules, format=ClubFormat.SWISS, rounds=rounds, table_size=2, name="Friday")


@contextlib.asynccontextmanager
async def club_host(folder: Path, club: ClubConfig, *, grace: float = 60.0) -> AsyncIterator[ClubHost]:
    host = ClubHost(ClubHostConfig(
        club, folder, bind="127.0.0.1", port=0, code=CODE, computer_level="greedy", next_round_delay=0,
        round_delay=None, grace=grace, limits=Limits(messages_per_second=10_000, message_burst=10_000)))
    await host.start()
    try:
        yield host
    finally:
        await host.stop()


async def play_along(club: ClubClient) -> None:
    """A protocol player: the first legal action on each turn, ready at each round's end, all night."""
    while True:
        change = await club.next_change()
        if change.source != "table" or change.change is None or club.table is None:
            continue
        message = change.change.message
        if isinstance(message, NextRound):
            await club.table.ready()
        view = message.view if isinstance(message, Update | GameSnapshot) else None
        if view is not None and view.is_my_turn and view.legal:
            await club.table.send_action(view.legal[0])


@contextlib.asynccontextmanager
async def players(port: int, *names: str, play: bool = True) -> AsyncIterator[list[ClubClient]]:
    """Protocol players in the club; ``play``: they play their matches (else they sit and think)."""
    clubs = [await ClubClient.connect("127.0.0.1", port, name=name, code=CODE) for name in names]
    tasks = [asyncio.create_task(play_along(club)) for club in clubs if play]
    try:
        yield clubs
    finally:
        for task in tasks:
            task.cancel()
        for club in clubs:
            with contextlib.suppress(Exception):
                await club.close()


async def play_my_match(pilot: Any, app: CapicuApp) -> None:
    """Play the seat's match by keys to its end (ready between its rounds)."""
    for _ in range(STEPS):
        table = app.table
        view = table.view if table is not None else None
        if view is not None and view.match_over:
            return
        if isinstance(app.screen, DrawTableScreen) and view is not None and view.is_my_turn and view.legal:
            await play_turn_and_wait(pilot, app)
        elif summary_ready(app) and view is not None and not view.match_over:
            await pilot.press("enter")
        await pilot.pause(0.02)
    raise AssertionError("the match did not end")


async def test_a_player_is_taken_to_each_seat_by_itself_and_back_to_the_standings(tmp_path: Path) -> None:
    async with club_host(tmp_path / "night", _config()) as host:
        port = host.port
        assert port is not None
        app = CapicuApp(DisplayOptions(mouse=False, ascii=True),
                        JoinGame("127.0.0.1", port, name="Ana", code=CODE, club=True))
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_for(pilot, lambda: isinstance(app.screen, ClubLobbyScreen), what="the club's lobby")
            async with players(port, "Beto", "Cruz", "Dani"):
                await wait_for(pilot, lambda: "4 players have joined" in screen_text(app),
                               what="the roster as people arrive")
                text = screen_text(app)
                assert "Ana (you)" in text and "Beto" in text and "Dani" in text
                await host.start_round()
                # No join line: the draw alone takes the app to its seat.
                await wait_for(pilot, lambda: isinstance(app.screen, DrawTableScreen), steps=STEPS,
                               what="the seat of round 1")
                assert app.club is not None and app.game is not None
                first = app.club.model.club_draw
                assert first is not None and first.round == 1
                assert app.game.table.seat == first.seat
                await wait_for(pilot, lambda: "Round 1: you sit at table" in screen_text(app),
                               what="the notice")
                # The standings, live during the round, one key away from the table.
                await pilot.press("f2")
                await wait_for(pilot, lambda: isinstance(app.screen, StandingsOverlay), what="the standings")
                await wait_for(pilot, lambda: "Standings: round 1 of 2" in screen_text(app)
                               and "Dani" in screen_text(app), what="the standings")
                await pilot.press("escape")
                await wait_for(pilot, lambda: isinstance(app.screen, DrawTableScreen), what="the table again")
                await play_my_match(pilot, app)
                await wait_for(pilot, lambda: summary_ready(app), steps=STEPS, what="the match's end")
                await pilot.press("enter")  # the final score
                await wait_for(pilot, lambda: isinstance(app.screen, MatchOverScreen), what="the final score")
                await pilot.press("escape")  # back to the club
                await wait_for(pilot, lambda: isinstance(app.screen, ClubStandingsScreen),
                               what="the standings")
                await wait_for(pilot, lambda: app.club is not None and app.club.phase == ClubPhase.BETWEEN,
                               steps=STEPS, what="every table of round 1 done")
                board = app.screen.query_one(StandingsTable)
                await wait_for(pilot, lambda: all(row.played == 1 for row in board.rows_shown),
                               what="round 1 counted")
                told = app.club.model.standings
                assert told is not None and board.rows_shown == told.rows
                assert [row.entrant for row in told.rows] == [s.entrant for s in host.night.standings()]
                await wait_for(pilot, lambda: "Standings: round 1 of 2" in screen_text(app), what="the title")
                await host.start_round()
                await wait_for(pilot, lambda: isinstance(app.screen, DrawTableScreen), steps=STEPS,
                               what="the seat of round 2")
                drawn = app.club.model.club_draw
                assert drawn is not None and drawn.round == 2 and app.game.table.seat == drawn.seat


async def test_the_organiser_draws_rounds_closes_a_late_table_and_keeps_the_final_standings(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CAPICU_DATA_DIR", str(tmp_path / "data"))
    request = HostClub(club=_config(rounds=1), bind="127.0.0.1", port=0, code=CODE,
                       round_delay=None, name="Olga")
    app = CapicuApp(DisplayOptions(mouse=False), request)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ClubLobbyScreen) and app.hosted_at is not None,
                       what="the organiser's lobby")
        hosting = app.hosted_at
        assert hosting is not None and hosting.club
        line = f"capicu club --join 127.0.0.1:{hosting.port} --code {CODE}"
        await wait_for(pilot, lambda: line in screen_text(app), what="how to join")
        # Leaving says what it does to the night (not a table's host's words), and n stays.
        await pilot.press("escape")
        await wait_for(pilot, lambda: "You run this club night: leaving stops it for everyone"
                       in " ".join(screen_text(app).split()), what="the organiser's question")
        assert "You host this table" not in screen_text(app) and "Leave the club night?" in screen_text(app)
        await pilot.press("n")
        await wait_for(pilot, lambda: isinstance(app.screen, ClubLobbyScreen), what="the lobby again")
        # The players think for ever: the table is still being played when the organiser closes it.
        async with players(hosting.port, "Beto", "Cruz", play=False):
            await wait_for(pilot, lambda: "Cruz" in screen_text(app), what="the roster")
            await wait_for(pilot, lambda: "Beto joined the club." in screen_text(app), what="the news")
            await pilot.press("s")
            await wait_for(pilot, lambda: isinstance(app.screen, ClubStandingsScreen), what="the draw")
            await wait_for(pilot, lambda: "Beto" in screen_text(app) and "playing" in screen_text(app),
                           what="the round's table")
            await pilot.press("c")
            await wait_for(pilot, lambda: "Close this table?" in screen_text(app), what="the question")
            await pilot.press("y")
            await wait_for(pilot, lambda: app.club is not None and app.club.phase == ClubPhase.OVER,
                           steps=STEPS, what="the night's end")
            await wait_for(pilot, lambda: "Final standings" in screen_text(app), what="the final standings")
            roster = app.club.model.club
            assert roster is not None and roster.tables[0].state == TableState.CLOSED
            board = app.screen.query_one(StandingsTable)
            assert [row.name for row in board.rows_shown] == [s.name for s in app.club.model.standings.rows]
            assert sorted(row.played for row in board.rows_shown) == [1, 1]
        # The players gone, the final standings stay until the organiser leaves.
        await pilot.pause(0.2)
        assert isinstance(app.screen, ClubStandingsScreen) and "Final standings" in screen_text(app)


async def test_the_organiser_reads_their_own_key_and_that_the_night_draws_its_next_round_by_itself(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CAPICU_DATA_DIR", str(tmp_path / "data"))
    request = HostClub(club=_config(rounds=2), bind="127.0.0.1", port=0, code=CODE,
                       round_delay=600.0, name="Olga")
    app = CapicuApp(DisplayOptions(mouse=False), request)

    def said() -> str:
        return " ".join(screen_text(app).split())

    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ClubLobbyScreen) and app.hosted_at is not None,
                       what="the organiser's lobby")
        hosting = app.hosted_at
        assert hosting is not None
        async with players(hosting.port, "Beto", "Cruz", play=False):
            await wait_for(pilot, lambda: "2 players have joined: press s to draw round 1 once everybody "
                           "is here." in said(), what="the organiser's own line")
            assert "the organiser starts" not in said()
            await pilot.press("s")
            await wait_for(pilot, lambda: isinstance(app.screen, ClubStandingsScreen)
                           and "playing" in screen_text(app), what="round 1's table")
            await pilot.press("c")
            await wait_for(pilot, lambda: "Close this table?" in screen_text(app), what="the question")
            await pilot.press("y")
            await wait_for(pilot, lambda: "Round 1 of 2 is over: round 2 is drawn by itself 600 seconds "
                           "after the last table ended, or now if you press s." in said(), steps=STEPS,
                           what="the night's own draw, said")
            assert "the organiser draws" not in said()


async def test_the_menu_leads_to_the_organisers_form_which_says_what_is_wrong(
) -> None:
    from capicu.tui.screens.club_setup import ClubSetupScreen
    from textual.widgets import Input, Select

    app = CapicuApp(DisplayOptions(mouse=False))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("c")
        await wait_for(pilot, lambda: isinstance(app.screen, ClubSetupScreen), what="the organiser's form")
        form = app.screen
        text = screen_text(app)
        for label in ("Game", "Players a table", "Format", "Night's rounds", "Points to win", "Byes",
                      "Join code", "Port"):
            assert label in text
        # Every field and the Start button in view at 80x24, above the footer.
        assert form.query_one("#start").region.bottom <= 23
        form.query_one("#format", Select).value = "rotating-partners"
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: "rotating partners is for a partners' game" in str(
            [n.message for n in app._notifications]), what="the refusal")
        assert isinstance(app.screen, ClubSetupScreen)
        form.query_one("#format", Select).value = "swiss"
        form.query_one("#club-rounds", Input).value = "40"
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: "a night has 1 to 30 rounds" in str(
            [n.message for n in app._notifications]), what="the refusal of the rounds")
        form.query_one("#club-rounds", Input).value = "2"
        form.query_one("#port", Input).value = "0"
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: "The port must be a number" in str(
            [n.message for n in app._notifications]), what="the refusal of the port")
        form.query_one("#port", Input).value = "7300"
        form.query_one("#night-name", Input).value = "Friday"
        # (Not started here: the form's night listens on every interface, and tests keep to the loopback.)
        request = form.request()
        assert request is not None and (request.port, request.bind) == (7300, None)
        club = request.club
        assert (club.format, club.rounds, club.table_size, club.name) == (ClubFormat.SWISS, 2, 2, "Friday")
        assert club.rules == Rules.preset_named("puerto-rican-drawing")


async def test_the_organisers_form_offers_the_games_house_rules_as_the_tables_form_does() -> None:
    from capicu.tui.screens.club_setup import ClubSetupScreen
    from textual.widgets import Select

    app = CapicuApp(DisplayOptions(mouse=False, ascii=True))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("c")
        await wait_for(pilot, lambda: isinstance(app.screen, ClubSetupScreen), what="the organiser's form")
        form = app.screen
        assert "House rules" in screen_text(app)
        # The row and the Start button on screen at 80x24, above the footer.
        for bottom in ("#house-rules", "#start"):
            assert form.query_one(bottom).region.bottom <= 23, bottom
        for shown in ("plain blanks", "draw 1 by 1", "no redeal"):
            assert shown in screen_text(app)
        form.query_one("#wild-blanks", Select).value = True
        form.query_one("#draw-several", Select).value = 2
        request = form.request()
        assert request is not None
        rules = request.club.rules
        assert (rules.wild_blanks, rules.draw_several, bool(rules.redeal_on_doubles)) == (True, 2, False)
        # What cannot combine is refused in one notice, and nothing starts.
        form.query_one("#preset", Select).value = "puerto-rican-partners"
        await pilot.pause()
        form.query_one("#table-size", Select).value = 4
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: "has no drawing" in str([n.message for n in app._notifications]),
                       what="the refusal")
        assert isinstance(app.screen, ClubSetupScreen)
        # Another game: its own options, at its preset's values.
        form.query_one("#preset", Select).value = "mexican-train"
        await wait_for(pilot, lambda: "Options" in screen_text(app) and "House rules" not in screen_text(app),
                       what="Mexican Train's options")
        assert not form.query_one("#wild-blanks", Select).display
        assert form.query_one("#house-rules").region.bottom <= 23
        request = form.request()
        assert request is not None and request.club.rules == Rules.preset_named("mexican-train")


async def test_a_player_who_leaves_the_table_goes_to_the_standings_and_may_go_back_to_the_seat(
    tmp_path: Path,
) -> None:
    async with club_host(tmp_path / "night", _config()) as host:
        port = host.port
        assert port is not None
        app = CapicuApp(DisplayOptions(mouse=False),
                        JoinGame("127.0.0.1", port, name="Ana", code=CODE, club=True))
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_for(pilot, lambda: isinstance(app.screen, ClubLobbyScreen), what="the club's lobby")
            async with players(port, "Beto", play=False):
                seat = await to_the_seat_of_round_1(pilot, app, host)
                await pilot.press("escape")
                await wait_for(pilot, lambda: "Leave the table?" in screen_text(app), what="the question")
                await pilot.press("y")
                await wait_for(pilot, lambda: isinstance(app.screen, ClubStandingsScreen),
                               what="the standings")
                assert app.game is None and app.club is not None
                await wait_for(pilot, lambda: "Back to my table" in screen_text(app), what="the key back")
                await pilot.press("t")
                await wait_for(pilot, lambda: isinstance(app.screen, DrawTableScreen), steps=STEPS,
                               what="the seat again")
                await wait_for(pilot, lambda: app.table is not None and app.table.view is not None,
                               what="the table's view")
                assert app.table is not None and app.table.seat == seat


def covered_at(club: ClubClient, name: str) -> bool:
    """``club``'s table shows the seat of ``name`` played by the computer."""
    table = club.table
    return table is not None and any(seat.covered for seat in table.model.seats if seat.name == name)


async def to_the_seat_of_round_1(pilot: Any, app: CapicuApp, host: ClubHost) -> int | None:
    """Once two are in the club, the host draws round 1 and the app is taken to its seat: that seat."""
    await wait_for(pilot, lambda: "2 players have joined" in screen_text(app), what="the roster")
    await host.start_round()
    await wait_for(pilot, lambda: isinstance(app.screen, DrawTableScreen), steps=STEPS,
                   what="the seat of round 1")
    assert app.game is not None
    return app.game.table.seat


async def seated_then_hung_up(host: ClubHost, join: JoinGame) -> int | None:
    """The seat ``join``'s app is taken to when the host draws round 1 (with one other player in the
    club); then its terminal hangs up: a drop, no goodbye."""
    app = CapicuApp(DisplayOptions(mouse=False), join)
    async with app.run_test(size=(80, 24)) as pilot:
        seat = await to_the_seat_of_round_1(pilot, app, host)
        app.terminal_gone()
    return seat


async def test_a_player_who_dropped_is_asked_before_taking_the_seat_back_from_the_computer(
    tmp_path: Path,
) -> None:
    # No grace period: the computer covers a dropped seat at once.
    async with club_host(tmp_path / "night", _config(), grace=0) as host:
        port = host.port
        assert port is not None
        join = JoinGame("127.0.0.1", port, name="Ana", code=CODE, club=True)
        async with players(port, "Beto", play=False) as (beto,):
            seat = await seated_then_hung_up(host, join)

            def ana_here() -> bool:
                roster = beto.model.club
                return roster is not None and any(e.connected for e in roster.entrants if e.name == "Ana")

            async with asyncio.timeout(WAIT):
                while ana_here() or not covered_at(beto, "Ana"):
                    await asyncio.sleep(0.02)
            drawn = beto.model.club_draw
            assert drawn is not None
            roster = beto.model.club
            assert roster is not None
            ana = next(entrant.id for entrant in roster.entrants if entrant.name == "Ana")
            number = next(table.number for table in drawn.tables if ana in table.seats)
            question = f"Your seat at table {number} is being played by the computer."
            # n: the computer plays on, and t takes the seat later; the player drops again, then y.
            await come_back(join, question, "n", seat)
            async with asyncio.timeout(WAIT):
                while ana_here():
                    await asyncio.sleep(0.02)
            await come_back(join, question, "y", seat)


@pytest.mark.parametrize(("language", "back", "seated"), [
    ("en", "You are back at table 1, seat {seat}", "you sit at table"),
    ("es", "Vuelves a la mesa 1, asiento {seat}", "te sientas en la mesa"),
])
async def test_a_player_back_within_the_grace_period_simply_has_the_seat_again(
    tmp_path: Path, language: str, back: str, seated: str,
) -> None:
    # The seat is only held (nobody plays it for her): no question, she sits at it again, and the
    # screen says she is back (not "Round 1: you sit at table 1", as if newly drawn).
    async with club_host(tmp_path / "night", _config()) as host:
        port = host.port
        assert port is not None
        join = JoinGame("127.0.0.1", port, name="Ana", code=CODE, club=True)
        async with players(port, "Beto", play=False) as (beto,):
            seat = await seated_then_hung_up(host, join)
            async with asyncio.timeout(WAIT):
                while not (beto.table is not None and any(
                        s.name == "Ana" and not s.connected for s in beto.table.model.seats)):
                    await asyncio.sleep(0.02)
            assert not covered_at(beto, "Ana")
            app = CapicuApp(DisplayOptions(mouse=False, language=language), join)
            async with app.run_test(size=(80, 24)) as pilot:
                await wait_for(pilot, lambda: isinstance(app.screen, DrawTableScreen)
                               and app.table is not None and app.table.view is not None, steps=STEPS,
                               what="the seat again")
                assert app.table is not None and app.table.seat == seat and seat is not None
                assert not any(isinstance(screen, TakeSeatBackScreen) for screen in app.screen_stack)
                assert "being played by the computer" not in screen_text(app)
                said = back.format(seat=seat + 1)
                await wait_for(pilot, lambda: said in screen_text(app), what="the return, said")
                assert seated not in screen_text(app)
                async with asyncio.timeout(WAIT):
                    while beto.table is None or not any(s.name == "Ana" and s.connected
                                                        for s in beto.table.model.seats):
                        await pilot.pause(0.02)
                assert not covered_at(beto, "Ana")


@pytest.mark.parametrize("language", ["en", "es"])
async def test_a_plain_join_at_a_club_nights_address_joins_the_club_night(tmp_path: Path,
                                                                         language: str) -> None:
    """``capicu join HOST:PORT`` (a table's join, not ``capicu club --join``) at a club night's address: the
    host has no table "main", only its club, so the person is taken into the club's lobby, not told
    "the host has no such table"."""
    async with club_host(tmp_path / "night", _config()) as host:
        port = host.port
        assert port is not None
        app = CapicuApp(DisplayOptions(mouse=False, language=language),
                        JoinGame("127.0.0.1", port, name="Ana", code=CODE))
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_for(pilot, lambda: isinstance(app.screen, ClubLobbyScreen), what="the club's lobby")
            you = "Ana (you)" if language == "en" else "Ana (tú)"
            await wait_for(pilot, lambda: you in screen_text(app), what="Ana in the club")
            assert [entrant.name for entrant in host.night.entrants] == ["Ana"]
            assert app.failure is None and app.is_running
            # One lobby: the table's, left for the club's (Esc leaves the club, not into an empty lobby).
            assert sum(isinstance(screen, ClubLobbyScreen) for screen in app.screen_stack) == 1
            assert len(app.screen_stack) == 2, app.screen_stack
            async with players(port, "Beto", play=False):
                await wait_for(pilot, lambda: len(host.night.entrants) == 2, what="Beto in the club")
                await host.start_round()
                await wait_for(pilot, lambda: isinstance(app.screen, DrawTableScreen), steps=STEPS,
                               what="the seat of round 1")


@pytest.mark.parametrize(("language", "said"), [
    ("en", "This club night needs a join code: add --code CODE."),
    ("es", "Esta noche de club pide un código de entrada: añade --code CÓDIGO."),
])
async def test_a_club_night_joined_without_its_code_is_said_to_need_one(tmp_path: Path, language: str,
                                                                      said: str) -> None:
    """``capicu club --join HOST:PORT`` with no ``--code``: the night, not "this table", needs a code."""
    async with club_host(tmp_path / "night", _config()) as host:
        port = host.port
        assert port is not None
        app = CapicuApp(DisplayOptions(mouse=False, language=language),
                        JoinGame("127.0.0.1", port, name="Ana", club=True))
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_for(pilot, lambda: app.failure is not None, what="the refusal")
        assert app.failure == said
        assert host.night.entrants == ()


async def test_a_seat_key_at_a_club_nights_address_is_refused_not_taken_to_the_club(tmp_path: Path) -> None:
    # A seat key is for one table's seat: the club is not joined with it (and nothing loops).
    async with club_host(tmp_path / "night", _config()) as host:
        port = host.port
        assert port is not None
        app = CapicuApp(DisplayOptions(mouse=False),
                        JoinGame("127.0.0.1", port, name="Ana", seat_key="K7PX-2MQR-HT4W-9C"))
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_for(pilot, lambda: not app.is_running, what="the app to end")
        assert app.failure is not None and "no such table" in app.failure, app.failure
        assert host.night.entrants == ()


async def come_back(join: JoinGame, question: str, answer: str, seat: int | None) -> None:
    """The player's app comes back to the club during the round, and answers the question."""
    app = CapicuApp(DisplayOptions(mouse=False), join)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: question in screen_text(app), what="the question")
        assert app.link is None  # nothing taken before the answer
        await pilot.press(answer)
        if answer == "n":
            await wait_for(pilot, lambda: isinstance(app.screen, ClubStandingsScreen), what="the standings")
            await wait_for(pilot, lambda: "Back to my table" in screen_text(app), what="the key")
            assert app.link is None and app.game is None
            assert "The computer plays your seat at table" in screen_text(app)
            # Her own table (the round's only one) is hers to go back to, not one to watch.
            await pilot.press("tab")
            await pilot.pause(0.05)
            assert "Watch table" not in screen_text(app) and "Back to my table" in screen_text(app)
            await pilot.press("w")
            await pilot.pause(0.05)
            assert isinstance(app.screen, ClubStandingsScreen) and app.link is None
            app.terminal_gone()
            return
        await wait_for(pilot, lambda: isinstance(app.screen, DrawTableScreen), steps=STEPS,
                       what="the seat again")
        await wait_for(pilot, lambda: app.table is not None and app.table.view is not None,
                       what="the table's view")
        assert app.table is not None and app.table.seat == seat and seat is not None
        # Taken back from the computer: a return, not a new seating.
        await wait_for(pilot, lambda: f"You are back at table 1, seat {seat + 1}" in screen_text(app),
                       what="the return, said")
        assert "you sit at table" not in screen_text(app)


async def test_a_persons_first_arrival_at_a_drawn_table_is_sitting_down_and_a_return_is_coming_back(
    tmp_path: Path,
) -> None:
    async with club_host(tmp_path / "night", _config()) as host:
        port = host.port
        assert port is not None
        app = CapicuApp(DisplayOptions(mouse=False),
                        JoinGame("127.0.0.1", port, name="Ana", code=CODE, club=True))
        async with app.run_test(size=(120, 40)) as pilot:
            await wait_for(pilot, lambda: isinstance(app.screen, ClubLobbyScreen), what="the club's lobby")
            beto = await ClubClient.connect("127.0.0.1", port, name="Beto", code=CODE, follow=False)
            try:
                await wait_for(pilot, lambda: "2 players have joined" in screen_text(app), what="the roster")
                await host.start_round()
                await wait_for(pilot, lambda: isinstance(app.screen, DrawTableScreen)
                               and app.table is not None and app.table.view is not None, steps=STEPS,
                               what="the seat of round 1")
                assert app.table is not None and app.table.awaited  # Beto's seat waits for him
                async with asyncio.timeout(WAIT):
                    while beto.model.club_draw is None:
                        await asyncio.sleep(0.02)
                assert await beto.take_seat()
                await wait_for(pilot, lambda: "Beto sat down." in screen_text(app), what="Beto's arrival")
                assert "Beto is back." not in screen_text(app) and not app.table.awaited
                assert beto.table is not None
                await beto.table.drop()
                await wait_for(pilot, lambda: "Beto lost the connection" in screen_text(app), what="the drop")
                await beto.take_seat()
                await wait_for(pilot, lambda: "Beto is back." in screen_text(app), what="Beto's return")
            finally:
                await beto.close()


async def test_anybody_in_the_club_watches_a_table_of_the_round_and_esc_goes_back_to_the_standings(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from textual.widgets import DataTable

    monkeypatch.setenv("CAPICU_DATA_DIR", str(tmp_path / "data"))
    request = HostClub(club=_config(rounds=1), bind="127.0.0.1", port=0, code=CODE,
                       round_delay=None, name="Olga")
    app = CapicuApp(DisplayOptions(mouse=False), request)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ClubLobbyScreen) and app.hosted_at is not None,
                       what="the organiser's lobby")
        hosting = app.hosted_at
        assert hosting is not None
        # The players think for ever: both tables are still being played while she watches.
        async with players(hosting.port, "Beto", "Cruz", "Dani", "Eva", play=False):
            await wait_for(pilot, lambda: "Eva" in screen_text(app), what="the roster")
            await pilot.press("s")
            await wait_for(pilot, lambda: isinstance(app.screen, ClubStandingsScreen)
                           and app.club is not None and app.club.model.club is not None
                           and len(app.club.model.club.tables) == 2, what="the round's tables")
            await wait_for(pilot, lambda: "Watch table" in screen_text(app), what="the key")
            await pilot.press("tab")  # the round's tables
            await wait_for(pilot, lambda: isinstance(app.focused, DataTable)
                           and app.focused.id == "club-tables", what="the tables' list")
            await pilot.press("down")  # table 2
            await pilot.press("w")
            await wait_for(pilot, lambda: isinstance(app.screen, DrawTableScreen) and app.table is not None
                           and app.table.view is not None, steps=STEPS, what="table 2, watched")
            assert app.table is not None and app.table.seat is None and app.table.table == "r1-t2"
            roster = app.club.model.club
            assert roster is not None
            names = {entrant.id: entrant.name for entrant in roster.entrants}
            seated = [names[who] for who in roster.tables[1].seats if who is not None]
            assert all(name in screen_text(app) for name in seated)
            await pilot.press("escape")
            await wait_for(pilot, lambda: isinstance(app.screen, ClubStandingsScreen),
                           what="the standings again")
            assert app.link is None and app.game is None and app.club is not None


async def test_the_lobbys_roster_shows_long_names_whole_in_spanish_at_80x24(tmp_path: Path) -> None:
    # The roster is remade at each change; a paint before Textual's idle measuring once kept its rows
    # cut to the headings' widths ("Eva (t", "conectad"): the columns are sized with their rows.
    from textual.widgets import DataTable

    async with club_host(tmp_path / "night", _config()) as host:
        port = host.port
        assert port is not None
        app = CapicuApp(DisplayOptions(mouse=False, language="es"),
                        JoinGame("127.0.0.1", port, name="Eva", code=CODE, club=True))
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_for(pilot, lambda: "Eva (tú)" in screen_text(app), what="the club's lobby")
            async with players(port, "Bartolomé Esteban Muri", "María de los Ángeles", play=False):
                await wait_for(pilot, lambda: "3 jugadores" in screen_text(app), what="the roster")
                screen = app.screen
                assert isinstance(screen, ClubLobbyScreen)
                screen.show_club()
                roster = screen.query_one("#club-roster", DataTable)
                for y in range(4):
                    roster.render_line(y)  # painted before the table is idle
                await pilot.pause()
                lines = screen_text(app).splitlines()
                for whole in ("Eva (tú)", "Bartolomé Esteban Muri", "María de los Ángeles", "conectado"):
                    assert any(whole in line for line in lines), (whole, lines)


@pytest.mark.parametrize("screen", ["close", "take"])
async def test_the_clubs_yes_no_questions_take_the_readers_yes_as_leaving_does(screen: str) -> None:
    from capicu.tui.screens.club_standings import CloseTableScreen

    app = CapicuApp(DisplayOptions(mouse=False, language="es"))
    answers: list[bool | None] = []
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        question = CloseTableScreen("Mesa 1: Ana - Beto") if screen == "close" else TakeSeatBackScreen(1)
        app.push_screen(question, answers.append)
        asked = "Pulsa s para cerrarla" if screen == "close" else "recuperas? s/n"
        await wait_for(pilot, lambda: app.screen is question and asked in screen_text(app),
                       what="the question")
        # The footer's key for yes is the reader's.
        await wait_for(pilot, lambda: " s " in screen_text(app).splitlines()[-1], what="the footer")
        await pilot.press("s")
        await wait_for(pilot, lambda: answers == [True], what="yes")


async def test_a_seat_that_cannot_be_reached_is_said_and_t_is_offered(tmp_path: Path) -> None:
    # Two connections from an address: Ana's club's and Beto's. Ana's seat's is refused (each try
    # the club's client makes), so she is told, and t on the standings tries again.
    host = ClubHost(ClubHostConfig(
        _config(), tmp_path / "night", bind="127.0.0.1", port=0, code=CODE, computer_level="greedy",
        next_round_delay=0, round_delay=None,
        limits=Limits(messages_per_second=10_000, message_burst=10_000, connections_per_address=2)))
    await host.start()
    try:
        port = host.port
        assert port is not None
        join = JoinGame("127.0.0.1", port, name="Ana", code=CODE, club=True)
        app = CapicuApp(DisplayOptions(mouse=False), join)
        async with app.run_test(size=(80, 24), notifications=True) as pilot:
            await wait_for(pilot, lambda: isinstance(app.screen, ClubLobbyScreen), what="the club's lobby")
            beto = await ClubClient.connect("127.0.0.1", port, name="Beto", code=CODE, follow=False)
            try:
                await wait_for(pilot, lambda: "2 players have joined" in screen_text(app), what="the roster")
                await host.start_round()
                await wait_for(pilot, lambda: "Your table cannot be reached now" in str(
                    [n.message for n in app._notifications]), steps=STEPS, what="the notice")
                assert app.link is None and isinstance(app.screen, ClubStandingsScreen)
                await wait_for(pilot, lambda: "Back to my table" in screen_text(app), what="the key")
            finally:
                await beto.close()
    finally:
        await host.stop()
