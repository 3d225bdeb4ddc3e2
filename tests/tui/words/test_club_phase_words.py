"""A club night's phase line says what is true for its reader: the organiser is told their key and
whether the night draws its next round by itself (``--round-delay``); a player, who is not told the
night's settings, reads a line that holds either way."""

from __future__ import annotations

import msgspec
import pytest
from capicu.core import Rules
from capicu.net.protocol import ClubEntrant, ClubPhase, ClubRoster
from capicu.tui.words.describe_club import phase_line
from capicu.tui.words.messages import default_language


def _roster(phase: str, round: int) -> ClubRoster:
    entrants = tuple(ClubEntrant(id=i, name=name, active=True, connected=True)
                     for i, name in enumerate(("Ana", "Beto", "Cruz")))
    return ClubRoster(name="Friday", rules=Rules.preset_named("puerto-rican-drawing"), format="swiss",
                      rounds=3, round=round, phase=phase, you=0, entrants=entrants)


GATHERING = _roster(ClubPhase.GATHERING, 0)
BETWEEN = _roster(ClubPhase.BETWEEN, 1)


def test_the_lobby_tells_the_organiser_their_key_and_players_who_starts() -> None:
    assert phase_line(GATHERING) == ("3 players have joined; the organiser starts round 1 when "
                                     "everybody is here.")
    organiser = phase_line(GATHERING, organiser=True, round_delay=60.0)
    assert organiser == "3 players have joined: press s to draw round 1 once everybody is here."


def test_between_rounds_each_reader_is_told_who_draws_the_next_round_and_when() -> None:
    player = phase_line(BETWEEN)
    assert player == "Round 1 of 3 is over: waiting for round 2 to be drawn."
    assert phase_line(BETWEEN, organiser=True, round_delay=None) == \
        "Round 1 of 3 is over: press s to draw round 2."
    assert phase_line(BETWEEN, organiser=True, round_delay=60.0) == (
        "Round 1 of 3 is over: round 2 is drawn by itself 60 seconds after the last table ended, "
        "or now if you press s.")
    assert "1 second after" in phase_line(BETWEEN, organiser=True, round_delay=0.5)
    for line in (player, phase_line(BETWEEN, organiser=True, round_delay=60.0)):
        assert "the organiser draws" not in line


@pytest.mark.parametrize("roster", [GATHERING, BETWEEN, msgspec.structs.replace(BETWEEN, round=2)])
def test_each_phase_line_is_spanish_in_spanish(roster: ClubRoster) -> None:
    default_language.switch("es")
    try:
        lines = [phase_line(roster), phase_line(roster, organiser=True, round_delay=None),
                 phase_line(roster, organiser=True, round_delay=60.0)]
    finally:
        default_language.switch("en")
    english = [phase_line(roster), phase_line(roster, organiser=True, round_delay=None),
               phase_line(roster, organiser=True, round_delay=60.0)]
    for spanish, said in zip(lines, english, strict=True):
        assert spanish != said and "{" not in spanish
