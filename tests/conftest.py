"""Shared test settings: hypothesis profiles sized for CI's 2 cores."""

import os

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci", deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True
)
settings.register_profile("dev", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))


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
