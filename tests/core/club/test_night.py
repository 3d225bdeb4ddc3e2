"""ClubNight: joining, leaving, rounds, results and the log it is rebuilt from."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec
import pytest
from capicu.core import Rules
from capicu.core.club import (
    ByeRule,
    ClubConfig,
    ClubError,
    ClubFormat,
    ClubNight,
    ClubProblem,
    MatchResult,
    Phase,
)
from capicu.net.host.sanitize import names_look_alike
from helpers_club import nights
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st


def night_of(names: str, **config: object) -> ClubNight:
    night = ClubNight.open(ClubConfig(rules=Rules(), **config))  # type: ignore[arg-type]
    for name in names.split():
        night = night.join(name)
    return night


def test_a_night_plays_its_rounds_and_is_over() -> None:
    night = night_of("Ana Bea Cruz Dani", rounds=2)
    assert night.phase is Phase.GATHERING
    for round in (1, 2):
        night = night.start_round(seed=round)
        assert night.phase is Phase.PLAYING and night.round == round
        for table in night.draws[-1].tables:
            night = night.close_table(round, table.number, (10, 3))
    assert night.phase is Phase.OVER
    with pytest.raises(ClubError) as error:
        night.start_round(seed=3)
    assert error.value.code is ClubProblem.NIGHT_OVER


def test_names_are_clean_and_unique() -> None:
    night = night_of("Ana")
    for name, code in [("ana", ClubProblem.NAME_TAKEN), ("ANA", ClubProblem.NAME_TAKEN),
                       ("", ClubProblem.NAME_EMPTY), ("x" * 25, ClubProblem.NAME_TOO_LONG),
                       ("A\x1b[2Jb", ClubProblem.NAME_NOT_CLEAN), (" Bea", ClubProblem.NAME_NOT_CLEAN),
                       ("Be\u200ba", ClubProblem.NAME_NOT_CLEAN)]:
        with pytest.raises(ClubError) as error:
            night.join(name)
        assert error.value.code is code, name


def test_a_name_that_reads_as_one_taken_is_refused_by_the_host_s_test() -> None:
    night = night_of("Observer")
    cyrillic = "\u041ebserver"  # a Cyrillic O
    assert night.join(cyrillic).entrants[-1].name == cyrillic  # core alone: another name
    with pytest.raises(ClubError) as error:
        night.join(cyrillic, alike=names_look_alike)
    assert error.value.code is ClubProblem.NAME_TAKEN and error.value.params["name"] == "Observer"


def test_a_result_that_does_not_fit_its_table_is_refused() -> None:
    night = night_of("Ana Bea").start_round(seed=1)
    table = night.draws[-1].tables[0]
    good = MatchResult(round=1, table=1, seats=table.seats, sides=((0,), (1,)), points=(100, 20),
                       winners=(0,))
    for bad in (msgspec.structs.replace(good, seats=(table.seats[1], table.seats[0])),
                msgspec.structs.replace(good, points=(100,)),
                msgspec.structs.replace(good, winners=(2,))):
        with pytest.raises(ClubError) as error:
            night.record(bad)
        assert error.value.code is ClubProblem.BAD_RESULT
    night = night.record(good)
    with pytest.raises(ClubError) as error:
        night.record(good)
    assert error.value.code in (ClubProblem.ALREADY_RECORDED, ClubProblem.NO_TABLE)


def test_the_log_rebuilds_the_night_from_plain_data() -> None:
    night = night_of("Ana Bea Cruz Dani Eva", bye=ByeRule.WIN, format=ClubFormat.SWISS, rounds=3)
    night = night.start_round(seed=5)
    for table in night.draws[-1].tables:
        night = night.close_table(1, table.number, (7, 9))
    night = night.leave(2).join("Flor").start_round(seed=6)
    plain = msgspec.json.decode(msgspec.json.encode(night.log()))
    assert ClubNight.from_log(plain) == night
    assert ClubNight.from_log(night.log()) == night


def test_a_damaged_log_is_refused_naming_the_event() -> None:
    night = night_of("Ana Bea").start_round(seed=1)
    plain = msgspec.json.decode(msgspec.json.encode(night.log()))
    plain["events"][2]["draw"]["tables"][0]["seats"] = [0, 0]
    with pytest.raises(ClubError) as error:
        ClubNight.from_log(plain)
    assert error.value.code is ClubProblem.BAD_LOG
    assert "event 3" in str(error.value)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(nights(most=10))
def test_any_night_s_log_rebuilds_it_exactly(night: ClubNight) -> None:
    plain = msgspec.json.decode(msgspec.json.encode(night.log()))
    again = ClubNight.from_log(plain)
    assert again == night
    assert again.standings() == night.standings() and again.phase is night.phase


@pytest.mark.parametrize("damage", [
    lambda log: log.update(format="capicu-club/9"),
    lambda log: log.update(game="chess"),
    lambda log: log["config"].update(table_size=9),
    lambda log: log["events"].append({"type": "left", "entrant": 99}),
    lambda log: log["events"].append({"type": "dance"}),
    lambda log: log["events"].insert(0, {"type": "result", "result": {}}),
])
def test_bad_logs_are_refused_with_a_clear_error(damage: Callable[[dict[str, Any]], None]) -> None:
    night = night_of("Ana Bea Cruz").start_round(seed=1)
    plain = msgspec.json.decode(msgspec.json.encode(night.log()))
    damage(plain)
    with pytest.raises(ClubError) as error:
        ClubNight.from_log(plain)
    assert error.value.code is ClubProblem.BAD_LOG


@st.composite
def walks(draw: st.DrawFn) -> tuple[ClubNight, int]:
    """A night after any steps, good or bad: each bad one refused with a ClubError, the night unchanged."""
    night = draw(nights(most=8))
    refused = 0
    for _ in range(draw(st.integers(0, 12))):
        step = draw(st.sampled_from(["join", "leave", "start", "finish", "close", "record-bad"]))
        before = night
        try:
            if step == "join":
                night = night.join(draw(st.sampled_from(["Ana", "ana", "Zoe", "P1", "", " x", "Lu"])))
            elif step == "leave":
                night = night.leave(draw(st.integers(-1, len(night.entrants))))
            elif step == "start":
                night = night.start_round(draw(st.integers(0, 2**32)))
            elif step in ("finish", "close"):
                table = draw(st.integers(1, 4))
                drawn = night.draws[-1].table(table) if night.draws else None
                sides = len(night.config.sides_of_table(len(drawn.seats))) if drawn else 2
                points = draw(st.lists(st.integers(0, 300), min_size=sides, max_size=sides))
                if step == "finish":
                    night = night.finish_table(night.round, table, points, (points.index(max(points)),))
                else:
                    night = night.close_table(night.round, table, points)
            else:
                night = night.record(MatchResult(round=night.round or 1, table=1, seats=(0,), sides=((0,),),
                                                 points=(1,), winners=()))
        except ClubError:
            assert night is before
            refused += 1
    return night, refused


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(walks())
def test_any_steps_good_or_bad_leave_a_night_its_log_rebuilds(walk: tuple[ClubNight, int]) -> None:
    night, _ = walk
    plain = msgspec.json.decode(msgspec.json.encode(night.log()))
    assert ClubNight.from_log(plain) == night
    seated = [a for drawn in night.draws for a in (*drawn.seated, *drawn.byes)]
    for drawn in night.draws:
        assert len(set(drawn.seated) | set(drawn.byes)) == len(drawn.seated) + len(drawn.byes)
    assert all(0 <= a < len(night.entrants) for a in seated)


def test_a_draw_made_beforehand_is_the_round_start_round_draws() -> None:
    # (A host makes the draw in a worker thread, then takes it: the same night either way.)
    night = night_of("Ana Bea Cruz Dani Eva", rounds=2)
    made = night.next_draw(7)
    assert night.start_round(7, drawn=made) == night.start_round(7)
    later = night.start_round(7)
    with pytest.raises(ClubError) as refused:
        later.next_draw(8)  # round 1 is being played
    assert refused.value.code is ClubProblem.ROUND_NOT_DONE
    with pytest.raises(ClubError) as refused:
        later.start_round(8, drawn=made)
    assert refused.value.code is ClubProblem.ROUND_NOT_DONE
