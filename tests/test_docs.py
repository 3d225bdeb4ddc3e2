"""The project's own documents: every preset has its rules page, and the code cites only files it holds."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from capicu.core import Rules
from capicu.core.rules import ALL_PRESET_NAMES

ROOT = Path(__file__).resolve().parents[1]
RULES_PAGE = (ROOT / "docs" / "RULES.md").read_text(encoding="utf-8")


def test_every_preset_the_engine_plays_has_its_rules_on_the_rules_page():
    parts = re.split(r"^#{2,3} (?:\d+\. )?`([a-z-]+)`.*$", RULES_PAGE, flags=re.M)
    sections = dict(zip(parts[1::2], parts[2::2], strict=True))
    assert sorted(sections) == sorted(ALL_PRESET_NAMES)
    for name, section in sections.items():
        rules = Rules.preset_named(name)
        # Each section says who plays it, and how a match ends: a target (the drawing games', Fives
        # and Threes'), or Mexican Train's round per double (13 with double-twelve).
        ends = "13 rounds" if rules.is_mexican_train else str(rules.targets[0])
        assert ends in section.split("\n## ", 1)[0], name
        assert str(rules.max_players) in section, name


def test_the_rules_page_lists_every_rule_option_of_the_command_line():
    import argparse

    from capicu.tui.cli.options import add_rule_arguments

    parser = argparse.ArgumentParser()
    add_rule_arguments(parser)
    options = {flag for action in parser._actions for flag in action.option_strings
               if flag.startswith("--") and flag not in ("--help", "--preset")}
    table = RULES_PAGE.split("## 4. Options", 1)[1].split("\n## ", 1)[0]
    missing = sorted(option for option in options if f"`{option}" not in table)
    assert options and not missing, missing


def test_the_code_cites_documents_the_repository_holds():
    cited = set()
    for folder in ("core", "net", "tui", "tests", "bench"):
        for source in (ROOT / folder).rglob("*.py"):
            text = source.read_text("utf-8")
            for found in re.finditer(r"(?<![\w/.\"'-])((?:docs/)?[A-Z][A-Z_]*\.md)\b", text):
                cited.add((found.group(1), source.relative_to(ROOT)))
    assert cited
    # As written: a bare "RULES.md" is not docs/RULES.md (it named a file outside the repository).
    missing = sorted((name, str(where)) for name, where in cited if not (ROOT / name).is_file())
    assert not missing, missing


@pytest.mark.parametrize(("preset", "players", "league_deal"), [
    ("puerto-rican-drawing", 2, False), ("mexican-train", 4, False), ("mexican-train", 6, False),
    ("mexican-train", 8, False), ("fives-and-threes", 2, False), ("fives-and-threes", 2, True),
    ("fives-and-threes", 4, True)])
def test_the_record_page_reads_a_record_with_msgpack_alone(tmp_path, capsys, preset, players, league_deal):
    """docs/RECORD.md's example, run on a record capicu wrote: what it prints is the record's match
    (its first hand too, which Mexican Train deals from its own table, for 5 to 8 players as well, and
    Fives and Threes from the league deal's sizes when it is on)."""
    import msgspec
    from capicu.core import new_match
    from capicu.core.games import game_of
    from capicu.core.replay import replay
    from capicu.net.store.record import RecordSeat, read_record, record_of, write_record

    page = (ROOT / "docs" / "RECORD.md").read_text(encoding="utf-8")
    (example,) = re.findall(r"```python\n(.*?)```", page, flags=re.S)
    without_our_names = example
    for ours in ('"capicu-record"', "a capicu match record", '"capicu-mexican-train-log/2"',
                 '"capicu-mexican-train-log/1"', '"capicu-fives-log/1"'):
        without_our_names = without_our_names.replace(ours, "")
    assert "capicu" not in without_our_names  # nothing of capicu's is imported
    rules = Rules.preset_named(preset)
    if preset == "mexican-train":
        rules = msgspec.structs.replace(rules, rounds=1)
    elif preset == "fives-and-threes":
        rules = msgspec.structs.replace(rules, league_deal=league_deal)
    else:
        rules = msgspec.structs.replace(rules, target=40)
    match = new_match(rules, players, 6, pause_between_rounds=True)
    bots = [game_of(rules).make_player("normal", seat) for seat in range(players)]
    while not match.is_over:
        if match.awaiting_deal:
            match.deal_next_round()
        else:
            match.apply(bots[match.turn].choose(match.view(match.turn)), match.turn)
    seats = [RecordSeat("Ana", "person")] + [RecordSeat(f"Computer {n}", "computer", "normal")
                                             for n in range(2, players + 1)]
    path = write_record(tmp_path, record_of(match, seats, match_id="docs", started=0.0, ended=60.0))
    exec(compile(example, "docs/RECORD.md", "exec"), {"path": str(path)})
    lines = capsys.readouterr().out.splitlines()
    record = read_record(path)
    assert lines[0] == (f"{preset} on 1970-01-01T00:00:00Z: {' and '.join(record.winner_names)} won, "
                        f"totals {list(record.totals)}")
    first_hand = " ".join(str(tile) for tile in replay(record.match_log()).positions[0].views[0].hand)
    assert lines[2] == f"Ana was first dealt {first_hand}"


def test_the_quick_start_says_how_to_run_capicu_once_installed():
    """The quick start installs into .venv, whose bin/ is not on PATH: it says once how to type
    the plain ``capicu`` every later line uses (the venv's own path, or activating it)."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    quick_start = readme.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    assert ".venv/bin/pip install" in quick_start
    prose = re.sub(r"```.*?```", "", quick_start, flags=re.S)
    assert "`.venv/bin/capicu`" in prose and "`source .venv/bin/activate`" in prose
    assert "`capicu`" in prose
