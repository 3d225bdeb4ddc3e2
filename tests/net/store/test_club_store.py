"""A club night kept: its journal (resumed after a crash), the nights in SQLite, the standings printed."""

from __future__ import annotations

import csv
import io
import sqlite3
from pathlib import Path

import pytest
from capicu.core import Rules
from capicu.core.club import ByeRule, ClubConfig, ClubFormat, ClubNight
from capicu.net.store.club import (
    CSV_COLUMNS,
    ClubHistoryError,
    ClubJournal,
    KeptNight,
    PageWords,
    clubs_path,
    keep_night,
    open_club_history,
    read_club_journal,
    standings_files,
    standings_html,
    write_standings,
    write_standings_csv,
)
from capicu.net.store.journal import JournalChanged
from capicu.net.store.keeping import HistoryProblem

STARTED = "2026-12-04T19:00:00Z"
HOSTILE = ("=HYPERLINK(\"http://x\")", "+1+2", "-3", "@SUM(A1)", "<script>alert(1)</b>",
           "Bea & \"Cruz\"", "Ñandú 'ok'")
WORDS = PageWords(language="en", title="Friday <night>", subtitle="3 rounds & more",
                  columns=("#", "Name", "Played", "Won", "Diff", "For", "Against", "Byes", "Computer",
                           "Buchholz", "H2H", "Opponents"), left="left")


def played_night(names: tuple[str, ...] = ("Ana", "Bea", "Cruz", "Dani", "Eva"), rounds: int = 2,
                 config: ClubConfig | None = None) -> ClubNight:
    night = ClubNight.open(config or ClubConfig(rules=Rules(), rounds=rounds, bye=ByeRule.WIN, name="Friday"))
    for name in names:
        night = night.join(name)
    for round in range(1, rounds + 1):
        night = night.start_round(seed=round)
        for table in night.draws[-1].tables:
            night = night.finish_table(round, table.number, (100, 10 * table.number), (0,),
                                       record=f"r{round}-t{table.number}.json")
    return night


# -- the journal -------------------------------------------------------------------------------------


async def test_the_journal_gives_the_night_back_event_by_event(tmp_path: Path) -> None:
    path = tmp_path / "night.club-journal"
    night = ClubNight.open(ClubConfig(rules=Rules.preset_named("puerto-rican-partners"), table_size=4,
                                      format=ClubFormat.ROTATING, rounds=3, name="Viernes"))
    night = night.join("Ana").join("Bea")
    journal, written = ClubJournal.begin(path, night, night_id="n1", started=STARTED)
    await written
    for name in ("Cruz", "Dani", "Eva", "Flor", "Gil", "Hugo"):
        night = night.join(name)
        await journal.write_night(night)
    night = night.start_round(seed=11)
    await journal.write_night(night)
    await journal.write_host({"tokens": {"Ana": "secret"}})
    night = night.close_table(1, 1, (120, 80))
    await journal.write_night(night)
    await journal.close()
    assert path.stat().st_mode & 0o777 == 0o600
    recovered = read_club_journal(path)
    assert recovered.night == night and recovered.damage is None
    assert recovered.header.night == "n1" and recovered.header.started == STARTED
    assert recovered.host == [{"tokens": {"Ana": "secret"}}]


async def test_a_journal_cut_by_a_crash_resumes_from_its_last_whole_line(tmp_path: Path) -> None:
    path = tmp_path / "night.club-journal"
    night = played_night(rounds=1)
    journal, written = ClubJournal.begin(path, night, night_id="n2", started=STARTED)
    await written
    await journal.close()
    whole = path.read_bytes()
    path.write_bytes(whole[:-7])  # the last event (a result) cut short
    resumed, recovered = ClubJournal.resume(path)
    assert recovered.damage is not None and "cut short" in recovered.damage
    assert recovered.night.events == night.events[:-1]
    assert resumed.kept_as is not None and resumed.kept_as.read_bytes() == whole[:-7]
    again = recovered.night.record(night.results[-1])
    await resumed.write_night(again)
    await resumed.close()
    assert read_club_journal(path).night == night


async def test_a_journal_changed_in_the_middle_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "night.club-journal"
    journal, written = ClubJournal.begin(path, played_night(rounds=1), night_id="n3", started=STARTED)
    await written
    await journal.close()
    lines = path.read_bytes().split(b"\n")
    lines[2] = lines[2].replace(b"Bea", b"Bob")
    path.write_bytes(b"\n".join(lines))
    with pytest.raises(JournalChanged):
        read_club_journal(path)


# -- the nights kept ---------------------------------------------------------------------------------


def test_a_night_kept_after_each_round_is_one_night_with_its_standings(tmp_path: Path) -> None:
    night = played_night(rounds=1)
    assert keep_night(tmp_path, night, night_id="n1", started=STARTED) is None
    later = played_night(rounds=2)
    assert keep_night(tmp_path, later, night_id="n1", started=STARTED, ended="2026-12-04T23:00:00Z") is None
    assert keep_night(tmp_path, played_night(("Zoë", "Ana")), night_id="n2", started="2026-12-11T19:00:00Z") \
        is None
    history, problem = open_club_history(tmp_path)
    with history:
        assert problem is None
        kept = history.nights()
        assert [k.night_id for k in kept] == ["n1", "n2"]
        assert kept[0].night == later and kept[0].ended == "2026-12-04T23:00:00Z"
        assert kept[0].standings == later.standings()
        assert [k.night_id for k in history.nights(player="ZOË")] == ["n2"]
        assert [k.night_id for k in history.nights(player="ana")] == ["n1", "n2"]
        assert history.nights(player="Zoe") == []
        last = history.night()
        assert last is not None and last.night_id == "n2"
        first = history.night(kept[0].number)
        assert first is not None and first.name == "Friday" and first.preset == "puerto-rican-drawing"
        assert history.night(999) is None
        ana = first.night.entrant_named("Ana")
        assert ana is not None
        matches = first.matches_of(ana.id)
        assert [m.round for m in matches] == [1, 2]


def test_a_damaged_file_is_set_aside_and_a_new_one_begun(tmp_path: Path) -> None:
    clubs_path(tmp_path).write_bytes(b"not a database at all" * 100)
    history, problem = open_club_history(tmp_path)
    with history:
        assert problem is not None and problem.code is HistoryProblem.SET_ASIDE
        assert history.nights() == []


def test_a_file_from_a_newer_capicu_is_left_alone(tmp_path: Path) -> None:
    connection = sqlite3.connect(clubs_path(tmp_path))
    connection.execute("PRAGMA user_version = 99")
    connection.close()
    with pytest.raises(ClubHistoryError) as error:
        open_club_history(tmp_path)
    assert error.value.problem.code is HistoryProblem.TOO_NEW
    assert keep_night(tmp_path, played_night(rounds=1), night_id="n", started=STARTED) is not None


# -- the standings printed ---------------------------------------------------------------------------


def kept_hostile(tmp_path: Path) -> KeptNight:
    night = played_night(HOSTILE, rounds=2)
    night = night.leave(night.entrants[4].id)
    keep_night(tmp_path, night, night_id="h", started=STARTED)
    history, _ = open_club_history(tmp_path)
    with history:
        kept = history.night()
    assert kept is not None
    return kept


def test_the_csv_defuses_formulas_and_keeps_every_name(tmp_path: Path) -> None:
    kept = kept_hostile(tmp_path)
    out = io.StringIO(newline="")
    assert write_standings_csv(kept, out) == len(HOSTILE)
    rows = list(csv.reader(io.StringIO(out.getvalue())))
    assert tuple(rows[0]) == CSV_COLUMNS
    names = [row[2] for row in rows[1:]]
    texts = [CSV_COLUMNS.index(column) for column in ("night", "name", "opponents", "partners")]
    for row in rows[1:]:
        for column in texts:
            assert row[column][:1] not in ("=", "+", "-", "@"), row
    assert sorted(n.lstrip("'") for n in names) == sorted(HOSTILE)
    assert "'=HYPERLINK(\"http://x\")" in names and "'-3" in names
    assert [row[1] for row in rows[1:]] == [str(n) for n in range(1, len(HOSTILE) + 1)]
    left = next(row for row in rows[1:] if row[2].lstrip("'") == HOSTILE[4])
    assert left[3] == "yes"


def test_the_page_escapes_every_text_and_prints(tmp_path: Path) -> None:
    kept = kept_hostile(tmp_path)
    page = standings_html(kept, WORDS)
    assert "<script>" not in page and "&lt;script&gt;alert(1)&lt;/b&gt;" in page
    assert "Friday &lt;night&gt;" in page and "3 rounds &amp; more" in page
    assert "Bea &amp; &quot;Cruz&quot;" in page and "@media print" in page
    assert page.count("<tr>") == len(HOSTILE) + 1
    assert '<html lang="en">' in page


def test_standings_are_written_as_file_csv_and_file_html(tmp_path: Path) -> None:
    kept = kept_hostile(tmp_path)
    assert standings_files(tmp_path / "wall.html") == (tmp_path / "wall.csv", tmp_path / "wall.html")
    csv_path, html_path = write_standings(kept, tmp_path / "wall", WORDS)
    assert csv_path.read_text(encoding="utf-8").startswith(",".join(CSV_COLUMNS))
    assert html_path.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    written = sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("wall"))
    assert written == ["wall.csv", "wall.html"]


async def test_a_journal_cut_anywhere_reads_back_up_to_its_last_whole_line(tmp_path: Path) -> None:
    path = tmp_path / "night.club-journal"
    night = played_night(rounds=2)
    journal, written = ClubJournal.begin(path, night, night_id="n4", started=STARTED)
    await written
    await journal.close()
    whole = path.read_bytes()
    ends = [i + 1 for i, byte in enumerate(whole) if byte == ord("\n")]
    cuts = sorted({cut for end in ends for cut in (end - 3, end - 1, end, end + 2)
                   if ends[0] <= cut <= len(whole)})
    for cut in cuts:
        path.write_bytes(whole[:cut])
        recovered = read_club_journal(path)
        lines = whole[:cut].count(b"\n") - 1  # whole event lines (the header is the first)
        assert recovered.night.events == night.events[:lines], cut
        assert (recovered.damage is None) == (cut in ends)
        assert recovered.good_size == ends[lines]
