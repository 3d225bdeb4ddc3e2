"""Shared test settings: hypothesis profiles sized for CI's 2 cores, and the files' order."""

import os
import sys
import tempfile
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

# Where PYTHONDONTWRITEBYTECODE is set (as on the CI machine), the session's processes still keep
# what they compile, in a folder of the system's temporary files (never beside the sources, as the
# variable asks): else each of the hundreds of capicu processes the tests start (and each xdist
# worker) compiles capicu from source again, 0.1-0.15 s of CPU every time. Set here, before xdist
# starts its workers: they and every process a test starts inherit it.
if os.environ.pop("PYTHONDONTWRITEBYTECODE", None):
    os.environ.setdefault("PYTHONPYCACHEPREFIX", str(Path(tempfile.gettempdir()) / "capicu-tests-pycache"))
    sys.pycache_prefix = os.environ["PYTHONPYCACHEPREFIX"]
    sys.dont_write_bytecode = False

settings.register_profile(
    "ci", deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True
)
settings.register_profile("dev", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))

#: The files that take longest (20 to 70 s each in a whole run with 4 workers on 2 cores, longest
#: first; a path starting so). xdist hands a worker a whole file at a time (``--dist loadfile``),
#: in the order the tests are collected: these go first, so that none begins last and keeps one
#: worker busy while the others stand idle. (xdist's own order, most tests first, sent the few-test
#: long files last: the suite ended with one worker on test_club_processes.py for a minute and a
#: half.) Add a file here when it grows past ~20 s (``--durations=0``, summed by file).
LONG_FILES = (
    "tests/tui/test_app.py",
    "tests/tui/test_fives_snapshots.py",
    "tests/tui/test_train_snapshots.py",
    "tests/tui/ssh/test_ssh_gateway.py",
    "tests/tui/test_setup_form_looks.py",
    "tests/net/test_lan.py",
    "tests/tui/test_replay_snapshots.py",
    "tests/tui/test_train_table.py",
    "tests/tui/test_contrast.py",
    "tests/tui/test_club_night_processes",
    "tests/tui/test_club_processes",
    "tests/core/test_properties.py",
    "tests/tui/test_app_snapshots.py",
    "tests/core/ai/test_ai.py",
    "tests/tui/test_table_screen.py",
    "tests/tui/test_table_edges.py",
    "tests/tui/test_edges_of_the_link.py",
    "tests/tui/test_fives_table.py",
    "tests/net/test_play.py",
    "tests/tui/test_replay_coach.py",
    "tests/tui/test_history_screen.py",
    "tests/tui/test_club_night.py",
    "tests/core/test_fives_properties.py",
    "tests/tui/test_train_processes.py",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """`LONG_FILES` first, in that order; then the rest, most tests first (xdist's own order, which
    ``--no-loadscope-reorder`` in pyproject.toml leaves to this). A file's tests keep their order."""
    files = Counter(item.nodeid.partition("::")[0] for item in items)

    def rank(item: pytest.Item) -> tuple[int, int, str]:
        file = item.nodeid.partition("::")[0]
        long = next((n for n, start in enumerate(LONG_FILES) if file.startswith(start)), len(LONG_FILES))
        return long, -files[file], file

    items.sort(key=rank)


@pytest.fixture(autouse=True)
def private_user_folders(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every test (and every process it starts) has a config folder (and so a data folder) of its own.

    Without this, a test that saves settings wrote the real ~/.config/capicu of the
    machine, and the next run on that machine read them (a name, a language).
    A test that sets its own folders overrides these.
    """
    folders = tmp_path_factory.mktemp("user")
    # No announcing or looking for tables on the machine's real network (tests/net/test_lan.py
    # builds a LAN of its own and lets its processes use it).
    monkeypatch.setenv("CAPICU_NO_LAN", "1")
    monkeypatch.setenv("CAPICU_CONFIG_DIR", str(folders / "config"))
    for variable in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME"):
        monkeypatch.setenv(variable, str(folders / variable.lower()))
