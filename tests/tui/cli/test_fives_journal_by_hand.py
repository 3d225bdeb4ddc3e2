"""A Fives and Threes journal changed by hand (its lines' checksums made right again, as a careful
hand would) is refused by ``capicu host --resume`` in one sentence that names what is wrong, exit 2."""

from __future__ import annotations

import json
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from capicu.tui.cli.main import main

KEPT = Path(__file__).parents[2] / "net" / "store" / "data" / "v5-fives-and-threes.journal"


def _rewritten(tmp_path: Path, change: Callable[[dict[str, Any]], None]) -> Path:
    """The kept journal with its header changed by ``change``, every line's checksum right."""
    lines = [json.loads(line[9:]) for line in KEPT.read_bytes().split(b"\n") if line]
    change(lines[0])
    path = tmp_path / "edited.journal"
    with path.open("wb") as file:
        for record in lines:
            body = json.dumps(record, separators=(",", ":"), ensure_ascii=False).encode()
            file.write(b"%08x " % zlib.crc32(body) + body + b"\n")
    return path


@pytest.mark.parametrize(("change", "said"), [
    (lambda h: h.update(log_format="capicu-fives-log/7"), "its format 'capicu-fives-log/7' is none of"),
    (lambda h: h["rules"].update(target=0), "the target must be a positive whole number, not 0"),
    (lambda h: h["rules"].update(exact_finish="yes"), "rules.exact_finish must be true or false"),
    (lambda h: h["rules"].update(wild_blanks=True), "wild_blanks is a rule of the Draw family"),
    (lambda h: h.update(players=5), "played by 2 to 4 players, not 5"),
])
def test_a_journal_changed_by_hand_is_refused_in_one_sentence(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        change: Callable[[dict[str, Any]], None], said: str) -> None:
    monkeypatch.setenv("CAPICU_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("CAPICU_DATA_DIR", str(tmp_path / "data"))
    path = _rewritten(tmp_path, change)
    code = main(["host", "--headless", "--preset", "fives-and-threes", "--bind", "127.0.0.1", "--port", "0",
                 "--resume", str(path)])
    _, err = capsys.readouterr()
    assert code == 2
    assert len(err.strip().splitlines()) == 1 and said in err, err
