"""The history of finished matches (net/store/history.py): what it keeps, what it counts, what survives.

A hand-made history (matches written as facts, their numbers chosen so each figure is
known) checks the queries; matches played by computer players check that a log's
facts are the engine's own; a real process killed mid-write, an older schema and a
damaged file check that nothing kept is ever lost.
"""

from __future__ import annotations

import csv
import io
import signal
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from capicu.core import Rules, new_match
from capicu.core.games import game_of
from capicu.core.replay import replay
from capicu.core.rules import ALL_PRESET_NAMES
from capicu.net.store.history import (
    CSV_COLUMNS,
    FIVES_GAME,
    HISTORY_FILE,
    LINE_GAME,
    SCHEMA_VERSION,
    TRAIN_GAME,
    Figures,
    History,
    HistoryError,
    HistoryProblem,
    KeptBy,
    csv_columns,
    facts_from_log,
    facts_from_record,
    keep_in_history,
    migrate,
    open_history,
    this_year,
)
from capicu.net.store.record import MatchRecord, RecordSeat, record_of
from helpers_history import HAND_MADE, line_match, person
from helpers_process import ProcessLines

#: The figures the Draw family and Mexican Train count, by the names they had before each game
#: declared its own (`Figures`' properties).
SHAPE = ("played", "won", "rounds", "points", "train_rounds", "train_count", "capicu", "chuchazo")


def shape(kept: Figures) -> dict[str, int]:
    return {name: getattr(kept, name) for name in SHAPE}


def figures(**counts: int) -> dict[str, int]:
    return {**dict.fromkeys(SHAPE, 0), **counts}


@pytest.fixture
def history(tmp_path: Path) -> History:
    opened, problem = open_history(tmp_path)
    assert problem is None
    for facts in HAND_MADE:
        assert opened.add(facts, kept_by=KeptBy.PLAYER, me=0)
    return opened


def test_the_figures_of_all_time_and_of_a_year(history: History) -> None:
    assert shape(history.figures()) == figures(played=4, won=2, rounds=8, points=610, train_rounds=2,
                                        train_count=40, capicu=2, chuchazo=1)
    assert shape(history.figures(year=2026)) == figures(played=3, won=1, rounds=5, points=510, train_rounds=2,
                                                 train_count=40, capicu=1, chuchazo=1)
    assert history.figures(year=2025).won == 1
    assert shape(history.figures(year=2024)) == figures()
    assert history.figures().points_per_round == pytest.approx(610 / 8)
    assert history.figures().count_per_round == 20
    # By name, any case; Carla's capicú in round 3 of m3 is hers, not Ana's.
    assert shape(history.figures("carla")) == figures(played=1, won=1, rounds=3, points=500, capicu=1)
    assert shape(history.figures("Nobody")) == figures()


def test_the_figures_per_opponent_leave_partners_out(history: History) -> None:
    opponents = {(o.name, o.kind): o.figures for o in history.by_opponent()}
    assert set(opponents) == {("Beto", "person"), ("Dora", "person"), ("Uno", "computer"),
                              ("Dos", "computer")}
    assert opponents["Beto", "person"].played == 3
    assert opponents["Beto", "person"].won == 1
    assert shape(opponents["Dora", "person"]) == figures(played=1, won=0, rounds=2, points=10)
    # Carla's capicú (her partner's) is not Ana's.
    assert (opponents["Uno", "computer"].capicu, opponents["Uno", "computer"].chuchazo) == (1, 1)
    assert [o.name for o in history.by_opponent(year=2025)] == ["Beto"]


def test_the_figures_per_preset(history: History) -> None:
    presets = {p.preset: p.figures for p in history.by_preset()}
    assert shape(presets["puerto-rican-drawing"]) == figures(played=2, won=1, rounds=5, points=110, capicu=1)
    assert presets["quinientos"].chuchazo == 1
    assert shape(presets["mexican-train"]) == figures(played=1, won=0, train_rounds=2, train_count=40)
    assert [p.preset for p in history.by_preset(year=2025)] == ["puerto-rican-drawing"]


def test_a_host_keeps_its_tables_standings(tmp_path: Path) -> None:
    with open_history(tmp_path)[0] as host:
        for facts in HAND_MADE[:2]:
            host.add(facts, kept_by=KeptBy.HOST)
        standings = host.standings()
        assert [(s.name, s.figures.played, s.figures.won) for s in standings] == [
            ("Ana", 2, 1), ("Beto", 2, 1), ("Dora", 1, 0)]
        assert [s.name for s in host.standings(year=2026)] == ["Beto", "Ana", "Dora"]
        # Kept by a host only: no seat is this machine's player's.
        assert shape(host.figures()) == figures()


def test_a_match_kept_twice_is_kept_once_and_learns_who_kept_it(tmp_path: Path) -> None:
    with open_history(tmp_path)[0] as shared:
        assert shared.add(HAND_MADE[0], kept_by=KeptBy.HOST, record_path="/r/m1.record")
        assert not shared.add(HAND_MADE[0], kept_by=KeptBy.PLAYER, me=1)
        assert shared.match_count() == 1
        assert shared.figures().played == 1 and shared.figures().won == 0  # seat 1, Beto's
        assert shared.standings()[0].name == "Ana"
        rows = list(csv.DictReader(io.StringIO(_csv(shared))))
        assert [(row["mine"], row["kept_by_player"], row["kept_by_host"], row["record"]) for row in rows] == [
            ("0", "1", "1", "/r/m1.record"), ("1", "1", "1", "/r/m1.record")]


def test_scores_per_round_are_kept(history: History) -> None:
    assert history.round_scores("m1") == [(1, 0, 60, (0, 5, 9)), (2, 1, 30, (0, 5, 9)), (3, 0, 40, (0, 5, 9))]
    assert history.round_scores("m4") == [(1, None, 25, (25, 0)), (2, None, 27, (15, 12))]


def test_results_over_time_are_in_the_order_matches_ended(history: History) -> None:
    assert [(r.ended[:4], r.preset, r.won) for r in history.results()] == [
        ("2025", "puerto-rican-drawing", True), ("2026", "puerto-rican-drawing", False),
        ("2026", "quinientos", True), ("2026", "mexican-train", False)]


def _csv(history: History) -> str:
    out = io.StringIO()
    history.export_csv(out)
    return out.getvalue()


def test_the_csv_export_has_one_row_per_seat_per_match(history: History) -> None:
    history.add(line_match("m5", "2026-05-01T20:00:00Z",
                           (person("=SUM(A1)", 0, 0, False), person("Ana", 1, 61, True)), ()),
                kept_by=KeptBy.PLAYER, me=1)
    rows = list(csv.reader(io.StringIO(_csv(history))))
    # Every game's declared figures (core/<game>/figures.py) after the columns of every row.
    assert tuple(rows[0]) == csv_columns() == (*CSV_COLUMNS, "points", "count", "hands", "best_play")
    assert len(rows) == 1 + 2 + 3 + 4 + 2 + 2
    by_column = [dict(zip(csv_columns(), row, strict=True)) for row in rows[1:]]
    # Each row has its game's figures, and nothing in another game's (no Capicú "0" in Mexican Train).
    for row in by_column:
        declared = {"line": ("capicu", "chuchazo", "points"), "mexican-train": ("count",),
                    "fives-and-threes": ("points", "hands", "best_play")}[row["game"]]
        assert {name for name in ("capicu", "chuchazo", "points", "count", "hands", "best_play")
                if row[name] != ""} == set(declared), row
    ana_m3 = next(row for row in by_column if row["match_id"] == "m3" and row["name"] == "Ana")
    assert (ana_m3["preset"], ana_m3["won"], ana_m3["capicu"], ana_m3["chuchazo"], ana_m3["mine"]) == (
        "quinientos", "1", "1", "1", "1")
    uno = next(row for row in by_column if row["name"] == "Uno")
    assert (uno["kind"], uno["level"], uno["side"]) == ("computer", "hard", "1")
    # A name a spreadsheet would run as a formula is written as text.
    assert any(row["name"] == "'=SUM(A1)" for row in by_column)


def _record(preset: str, players: int, seed: int) -> MatchRecord:
    rules = Rules.preset_named(preset)
    match = new_match(rules, players, seed)
    bots = [game_of(rules).make_player("easy", seed * 10 + seat) for seat in range(players)]
    while not match.is_over:
        seat = match.turn
        assert seat is not None
        match.apply(bots[seat].choose(match.view(seat)), seat)
    seats = [RecordSeat("Ana", "person"), *(RecordSeat(f"CPU {seat}", "computer", "easy")
                                            for seat in range(1, players))]
    return record_of(match, seats, match_id=f"{preset}-{seed}", started="2026-12-01T18:00:00Z",
                     ended="2026-12-01T19:30:00Z")


@pytest.mark.parametrize("preset", ALL_PRESET_NAMES)
def test_a_records_facts_are_the_engines_own(tmp_path: Path, preset: str) -> None:
    rules = Rules.preset_named(preset)
    players = rules.max_players if preset != "mexican-train" else 4
    record = _record(preset, players, 3)
    facts = facts_from_record(record)
    assert (facts.match_id, facts.started, facts.preset) == (record.match_id, record.started, preset)
    assert facts.game == game_of(rules).name
    assert facts.game == {"line": LINE_GAME, "mexican-train": TRAIN_GAME}.get(facts.game, FIVES_GAME)
    assert tuple(seat for seat, kept in enumerate(facts.seats) if kept.won) == record.winners
    assert [kept.score for kept in facts.seats] == [record.total_of(seat) for seat in range(players)]
    assert [kept.side for kept in facts.seats] == list(record.sides)
    if rules.is_mexican_train:
        assert [seat.score for seat in facts.seats] == [sum(r.counts[s] for r in facts.rounds)
                                                        for s in range(players)]
    elif facts.game == FIVES_GAME:
        # Every side scores as it lays: a hand's counts are each side's points.
        for seat in facts.seats:
            assert seat.score == sum(r.counts[seat.side] for r in facts.rounds)
    else:
        # Every round's points went to its side: the sides' final scores.
        for seat in facts.seats:
            assert seat.score == sum(r.points for r in facts.rounds if r.winner_side == seat.side)
    assert keep_in_history(tmp_path, record, kept_by=KeptBy.PLAYER, me=0, record_path="/r/x") is None
    with open_history(tmp_path)[0] as history:
        assert history.figures("Ana").played == 1
        assert history.figures().won == (0 in record.winners)
        assert len(history.round_scores(facts.match_id)) == len(facts.rounds)


def _fives_best_plays(record: MatchRecord) -> list[int]:
    """Each seat's most valuable single play in ``record``'s match, read from its events again."""
    from capicu.core.fives import FivesTilePlayed

    best = [0] * len(record.seats)
    for position in replay(record.match_log()).positions:
        for event in position.events:
            if isinstance(event, FivesTilePlayed):
                best[event.seat] = max(best[event.seat], event.points)
    return best


def test_fives_and_threes_counts_as_a_game_of_its_own(tmp_path: Path) -> None:
    """Its points per hand, matches won and highest single play, as its declaration says
    (core/fives/figures.py); none of them added to another game's figures."""
    records = [_record("fives-and-threes", 4, 3), _record("fives-and-threes", 2, 8), _record("draw", 2, 5)]
    facts = facts_from_record(records[0])
    assert [dict(seat.figures) for seat in facts.seats] == [
        {"hands": len(facts.rounds), "points": seat.score, "best_play": best}
        for seat, best in zip(facts.seats, _fives_best_plays(records[0]), strict=True)]
    for record in records:
        assert keep_in_history(tmp_path, record, kept_by=KeptBy.PLAYER, me=0) is None
    hands = [len(facts_from_record(record).rounds) for record in records[:2]]
    points = [record.total_of(0) for record in records[:2]]
    with open_history(tmp_path)[0] as history:
        kept = history.figures()
        won = sum(0 in record.winners for record in records[:2])
        assert kept.played == 3 and kept.played_by_game[FIVES_GAME] == (2, won)
        assert kept.of(FIVES_GAME, "hands") == sum(hands) and kept.of(FIVES_GAME, "points") == sum(points)
        assert kept.per(FIVES_GAME, "points", "hands") == pytest.approx(sum(points) / sum(hands))
        # The best of both matches, not their sum.
        assert kept.of(FIVES_GAME, "best_play") == max(_fives_best_plays(records[0])[0],
                                                       _fives_best_plays(records[1])[0]) > 0
        # The Draw family's points are its own.
        assert kept.points == records[2].total_of(0)
        assert kept.rounds == len(facts_from_record(records[2]).rounds)
        by_preset = {p.preset: p.figures for p in history.by_preset()}
        assert set(by_preset["fives-and-threes"].played_by_game) == {FIVES_GAME}
        assert by_preset["fives-and-threes"].of(FIVES_GAME, "hands") == sum(hands)
        assert by_preset["draw"].of(FIVES_GAME, "hands") == 0
        # Its opponents, the computers, have their own bests.
        opponents = {o.name: o.figures for o in history.by_opponent()}
        assert opponents["CPU 1"].played == 3


def test_an_unfinished_match_is_not_kept() -> None:
    match = new_match(Rules.preset_named("draw"), 2, 1)
    with pytest.raises(ValueError, match="finished"):
        facts_from_log("x", "2026-01-01T00:00:00Z", "2026-01-01T00:00:00Z",
                       [RecordSeat("A", "person"), RecordSeat("B", "person")], match.log())


def test_this_year_is_the_year_of_the_clock_given() -> None:
    from datetime import UTC, datetime, timedelta, timezone

    assert this_year(datetime(2026, 12, 31, 23, 0, tzinfo=UTC)) == 2026
    # 00:30 on New Year's Day two hours east of Greenwich is still the old year in UTC.
    assert this_year(datetime(2027, 1, 1, 0, 30, tzinfo=timezone(timedelta(hours=2)))) == 2026


# -- what survives --------------------------------------------------------------------------

_WRITER = textwrap.dedent("""
    import sys
    from pathlib import Path
    from capicu.net.store.history import KeptBy, MatchFacts, RoundFacts, SeatFacts, open_history

    history, _ = open_history(Path(sys.argv[1]))
    line = (("rounds", 39), ("points", 100), ("capicu", 0), ("chuchazo", 0))
    seats = (SeatFacts("Ana", "person", None, 0, 100, True, line),
             SeatFacts("Beto", "person", None, 1, 7, False, line))
    rounds = tuple(RoundFacts(n, "domino", 0, 0, 10, (0, 7), ()) for n in range(1, 40))
    number = 0
    while True:
        number += 1
        match_id = f"match-{number}"
        history.add(MatchFacts(match_id, "2026-01-01T00:00:00Z", "2026-01-01T01:00:00Z", "draw", "line",
                               seats, rounds), kept_by=KeptBy.PLAYER, me=0)
        print(match_id, flush=True)
""")


def test_a_process_killed_mid_write_keeps_every_match_saved_before(tmp_path: Path) -> None:
    writer = subprocess.Popen([sys.executable, "-c", _WRITER, str(tmp_path)], stdout=subprocess.PIPE)
    try:
        lines = ProcessLines(writer.stdout)
        saved = lines.first(40)
        assert len(saved) == 40, f"the writer saved only {saved}"
        writer.send_signal(signal.SIGKILL)
    finally:
        writer.kill()
        writer.wait(timeout=30)
    assert writer.returncode == -signal.SIGKILL
    saved.extend(lines.first(10_000, timeout=5))  # what it said before the kill reached it
    with open_history(tmp_path)[0] as history:
        kept = history.match_ids()
        assert set(saved) <= set(kept)
        # Whole matches only: the one being written when the process died is all there or not at all.
        assert history.figures("Ana").rounds == 39 * len(kept)
    database = sqlite3.connect(tmp_path / HISTORY_FILE)
    try:
        assert database.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    finally:
        database.close()


def test_an_older_schema_is_migrated_and_keeps_its_matches(tmp_path: Path) -> None:
    # A version-1 file, as the first capicu with a history wrote it (no keepers yet).
    old = sqlite3.connect(tmp_path / HISTORY_FILE, isolation_level=None)
    migrate(old, target=1)
    old.execute("INSERT INTO matches (match_id, started, ended, preset, game, players, rounds,"
                " record_path, me) VALUES ('old-1', '2025-05-05T10:00:00Z', '2025-05-05T11:00:00Z',"
                " 'draw', 'line', 2, 1, NULL, 0)")
    old.execute("INSERT INTO seats VALUES (1, 0, 'Ana', 'person', NULL, 0, 61, 1)")
    old.execute("INSERT INTO seats VALUES (1, 1, 'Beto', 'person', NULL, 1, 0, 0)")
    old.execute("INSERT INTO rounds VALUES (1, 1, 'domino', 0, 0, 61)")
    old.execute("INSERT INTO bonuses VALUES (1, 1, 'capicú', 20)")
    assert old.execute("PRAGMA user_version").fetchone()[0] == 1
    old.close()

    with open_history(tmp_path)[0] as history:
        assert shape(history.figures()) == figures(played=1, won=1, rounds=1, points=61, capicu=1)
        assert history.figures("Beto").played == 1
        rows = list(csv.DictReader(io.StringIO(_csv(history))))
        assert rows[0]["kept_by_player"] == "1" and rows[0]["kept_by_host"] == "0"
        history.add(HAND_MADE[1], kept_by=KeptBy.HOST)
        assert history.match_count() == 2
    again = sqlite3.connect(tmp_path / HISTORY_FILE)
    assert again.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    again.close()


def test_a_fives_and_threes_match_kept_before_its_figures_were_declared_keeps_its_hands_and_points(
        tmp_path: Path) -> None:
    # A version-2 file (before each game declared its figures) holding a Fives and Threes match.
    old = sqlite3.connect(tmp_path / HISTORY_FILE, isolation_level=None)
    migrate(old, target=2)
    old.execute("INSERT INTO matches (match_id, started, ended, preset, game, players, rounds, record_path,"
                " me, by_player) VALUES ('f-1', '2026-05-05T10:00:00Z', '2026-05-05T11:00:00Z',"
                " 'fives-and-threes', 'fives-and-threes', 2, 5, NULL, 0, 1)")
    old.execute("INSERT INTO seats VALUES (1, 0, 'Ana', 'person', NULL, 0, 61, 1)")
    old.execute("INSERT INTO seats VALUES (1, 1, 'Beto', 'person', NULL, 1, 40, 0)")
    old.close()
    with open_history(tmp_path)[0] as history:
        kept = history.figures()
        assert (kept.played, kept.won, kept.rounds, kept.points) == (1, 1, 0, 0)
        assert (kept.of(FIVES_GAME, "hands"), kept.of(FIVES_GAME, "points")) == (5, 61)
        assert kept.of(FIVES_GAME, "best_play") == 0  # not kept then: none
        assert history.figures("Beto").of(FIVES_GAME, "points") == 40


def test_a_failed_migration_step_leaves_the_file_at_the_version_before(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    database = sqlite3.connect(tmp_path / HISTORY_FILE, isolation_level=None)
    migrate(database, target=1)
    import capicu.net.store.history as module

    monkeypatch.setattr(module, "MIGRATIONS", (*module.MIGRATIONS[:1],
                                               "ALTER TABLE matches ADD COLUMN x INTEGER; NOT SQL;"))
    with pytest.raises(sqlite3.OperationalError):
        migrate(database, target=2)
    assert database.execute("PRAGMA user_version").fetchone()[0] == 1
    columns = [row[1] for row in database.execute("PRAGMA table_info(matches)")]
    assert "x" not in columns
    database.close()


def _pages_overwritten(path: Path) -> bytes:
    """A real history whose pages after the first are overwritten: its header still says SQLite."""
    with open_history(path.parent)[0] as history:
        for facts in HAND_MADE:
            history.add(facts, kept_by=KeptBy.PLAYER, me=0)
    data = bytearray(path.read_bytes())
    data[4096:] = b"\xa5" * (len(data) - 4096)
    return bytes(data)


def test_two_keepers_opening_a_new_history_at_once_apply_each_step_once(tmp_path: Path) -> None:
    # The second one read version 0 before the first migrated the file: it finds the steps done.
    late = sqlite3.connect(tmp_path / HISTORY_FILE, isolation_level=None)
    assert late.execute("PRAGMA user_version").fetchone()[0] == 0
    with open_history(tmp_path)[0] as first:
        first.add(HAND_MADE[0], kept_by=KeptBy.HOST)
    migrate(late)
    assert late.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    late.close()
    with open_history(tmp_path)[0] as history:
        assert history.match_count() == 1


@pytest.mark.parametrize("damage", ["not a database", "pages overwritten"])
def test_a_damaged_file_is_set_aside_and_a_new_history_begun(tmp_path: Path, damage: str) -> None:
    path = tmp_path / HISTORY_FILE
    damaged = b"this is not a database, only some text" * 100 if damage == "not a database" else (
        _pages_overwritten(path))
    path.write_bytes(damaged)
    history, problem = open_history(tmp_path)
    with history:
        assert problem is not None and problem.code is HistoryProblem.SET_ASIDE
        kept = Path(str(problem.values["kept"]))
        assert kept.read_bytes() == damaged
        assert history.match_count() == 0
        history.add(HAND_MADE[0], kept_by=KeptBy.PLAYER, me=0)
    # The next one opens the new file as it is.
    again, problem = open_history(tmp_path)
    with again:
        assert problem is None and again.match_count() == 1


def test_a_file_written_by_a_newer_capicu_is_left_alone(tmp_path: Path) -> None:
    with open_history(tmp_path)[0]:
        pass
    newer = sqlite3.connect(tmp_path / HISTORY_FILE)
    newer.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    newer.commit()
    newer.close()
    with pytest.raises(HistoryError) as raised:
        open_history(tmp_path)
    assert raised.value.problem.code is HistoryProblem.TOO_NEW
    problem = keep_in_history(tmp_path, _record("draw", 2, 1), kept_by=KeptBy.HOST)
    assert problem is not None and problem.code is HistoryProblem.TOO_NEW


def test_keep_in_history_opens_adds_and_closes(tmp_path: Path) -> None:
    record = _record("draw", 2, 5)
    folder = tmp_path / "new folder"
    assert keep_in_history(folder, record, kept_by=KeptBy.HOST) is None
    assert keep_in_history(folder, record, kept_by=KeptBy.PLAYER, me=0) is None
    with open_history(folder)[0] as history:
        assert history.match_count() == 1 and history.figures().played == 1
        assert [(s.name, s.kind) for s in history.standings()] == [("Ana", "person"), ("CPU 1", "computer")]
