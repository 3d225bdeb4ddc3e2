"""The built package holds every sub-package: setuptools installs only those pyproject.toml lists.

An editable install finds every folder anyway, so a missing entry shows only to a user who
runs ``pip install capicu`` (it did once: capicu.core.ai was left out and the game would not start).
"""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TOP_FOLDERS = ("core", "net", "tui", "themes")


def installed_name(folder: Path) -> str:
    return "capicu." + ".".join(folder.relative_to(ROOT).parts)


def test_every_folder_with_code_is_a_listed_package() -> None:
    setuptools = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    folders = {
        init.parent for top in TOP_FOLDERS for init in (ROOT / top).rglob("__init__.py")
    }
    expected = {installed_name(folder) for folder in folders}
    assert set(setuptools["packages"]) == expected
    for folder in folders:
        assert setuptools["package-dir"][installed_name(folder)] == folder.relative_to(ROOT).as_posix()
