"""The project's own documents: every preset has its rules page, and the code cites only files it holds."""

from __future__ import annotations

import re
from pathlib import Path

from capicu.core import PRESET_NAMES, Rules
from capicu.core.rules import ALL_PRESET_NAMES

ROOT = Path(__file__).resolve().parents[1]
RULES_PAGE = (ROOT / "docs" / "RULES.md").read_text(encoding="utf-8")


def test_every_preset_the_engine_plays_has_its_rules_on_the_rules_page():
    parts = re.split(r"^#{2,3} (?:\d+\. )?`([a-z-]+)`.*$", RULES_PAGE, flags=re.M)
    sections = dict(zip(parts[1::2], parts[2::2], strict=True))
    assert sorted(sections) == sorted(ALL_PRESET_NAMES)
    for name, section in sections.items():
        rules = Rules.preset_named(name)
        # Each section says who plays it, and how a match ends: the drawing games' target,
        # Mexican Train's round per double (13 with double-twelve).
        ends = str(rules.targets[0]) if name in PRESET_NAMES else "13 rounds"
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


def test_the_record_page_reads_a_record_with_msgpack_alone(tmp_path, capsys):
    """docs/RECORD.md's example, run on a record capicu wrote: what it prints is the record's match."""
    import msgspec
    from capicu.core import new_match
    from capicu.core.ai import make_player
    from capicu.core.replay import replay
    from capicu.net.store.record import RecordSeat, read_record, record_of, write_record

    page = (ROOT / "docs" / "RECORD.md").read_text(encoding="utf-8")
    (example,) = re.findall(r"```python\n(.*?)```", page, flags=re.S)
    assert "capicu" not in example.replace('"capicu-record"', "").replace("a capicu match record", "")
    rules = msgspec.structs.replace(Rules.preset_named("puerto-rican-drawing"), target=40)
    match = new_match(rules, 2, 6, pause_between_rounds=True)
    players = [make_player("normal", seat) for seat in range(2)]
    while not match.is_over:
        if match.awaiting_deal:
            match.deal_next_round()
        else:
            match.apply(players[match.turn].choose(match.view(match.turn)), match.turn)
    seats = [RecordSeat("Ana", "person"), RecordSeat("Computer 2", "computer", "normal")]
    path = write_record(tmp_path, record_of(match, seats, match_id="docs", started=0.0, ended=60.0))
    exec(compile(example, "docs/RECORD.md", "exec"), {"path": str(path)})
    lines = capsys.readouterr().out.splitlines()
    record = read_record(path)
    assert lines[0] == (f"puerto-rican-drawing on 1970-01-01T00:00:00Z: {record.winner_names[0]} won, "
                        f"totals {list(record.totals)}")
    first_hand = " ".join(str(tile) for tile in replay(record.match_log()).positions[0].views[0].hand)
    assert lines[2] == f"Ana was first dealt {first_hand}"
