"""A seat of Fives and Threes taken back: the moves the computer made for it while its person was away
are told as the computer's, with what they scored ("The computer played 3-6 for you: 9 for 3."), never
as theirs ("You play 3-6 ...").

A real host on 127.0.0.1 and the real app, as tests/tui/test_covered_moves.py does for the Draw table:
Ana takes her seat, leaves on purpose (the computer covers it at once), the computer plays for her, and
the same join command brings her back.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from capicu.core import Rules
from capicu.core.fives.events import FivesTilePlayed, Knocked
from capicu.net.host.server import Host, HostConfig
from capicu.net.host.table import TableConfig
from capicu.tui.app import CapicuApp
from capicu.tui.game import DisplayOptions, JoinGame
from capicu.tui.screens.fives_table import FivesTableScreen
from capicu.tui.widgets.event_log import EventLog
from capicu.tui.words.describe_fives import score_words
from helpers_app import wait_for

SIZE = (80, 24)


@pytest.fixture(autouse=True)
def _own_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CAPICU_CONFIG_DIR", str(tmp_path / "config"))


def _log(app: CapicuApp) -> str:
    """The log's words, each line's rows joined again where it wrapped."""
    return " ".join(strip.text.strip() for strip in app.screen.query_one(EventLog).lines)


def _my_moves(host: Host) -> int:
    """How many plays and knocks seat 0 has made in the host's match so far."""
    match = host.tables["main"].match
    assert match is not None
    return sum(1 for event in match.view(None).events
               if isinstance(event, (FivesTilePlayed, Knocked)) and event.seat == 0)


@pytest.mark.parametrize(("language", "played", "knocked"), [
    ("en", "The computer played {tile} for you: {score}.", "The computer knocked for you"),
    ("es", "La computadora jugó el {tile} por ti: {score}.", "La computadora pasó por ti"),
])
async def test_the_computers_moves_for_an_absent_player_are_told_as_the_computers(
    language: str, played: str, knocked: str
) -> None:
    table = TableConfig(rules=Rules.preset_named("fives-and-threes"), players=3, computers=2,
                        computer_level="easy", computer_delay=0.4, seed=7)
    host = Host(HostConfig(table, bind="127.0.0.1", port=0, code=None))
    _, port = await host.start()
    try:
        away = CapicuApp(DisplayOptions(mouse=False, language=language), JoinGame("127.0.0.1", port, "Ana"))
        async with away.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: isinstance(away.screen, FivesTableScreen) and away.table is not None
                           and away.table.view is not None, what="the table")
            assert away.table is not None and away.table.seat == 0
            await away.leave_game()  # on purpose: the seat is held and the computer plays it at once
        for _ in range(200):  # the computer plays for her (at 0.4 s a move, the hand is still on after)
            if _my_moves(host) >= 1:
                break
            await asyncio.sleep(0.05)
        back = CapicuApp(DisplayOptions(mouse=False, language=language), JoinGame("127.0.0.1", port, "Ana"))
        async with back.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: isinstance(back.screen, FivesTableScreen) and back.table is not None
                           and back.table.view is not None, what="the seat back")
            model = back.table
            assert model is not None and model.seat == 0
            view = model.view
            assert view is not None
            mine = [event for event in view.events
                    if isinstance(event, (FivesTilePlayed, Knocked)) and event.seat == 0]
            assert mine, "the computer made no move for Ana before she came back"
            await pilot.pause()
            log = _log(back)
            for event in mine:  # every one made while she was away (words in the app's language)
                if isinstance(event, FivesTilePlayed):
                    said = played.format(tile=event.tile, score=score_words(
                        event.total, event.points, event.scored, view.target))
                else:
                    said = knocked
                assert said in log, log
            for own in ("You lead", "You play", "You knock", "Juegas", "Sales", "Pasas"):
                assert own not in log, log
    finally:
        await host.stop()
