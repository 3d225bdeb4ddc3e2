"""The layers point one way (docs/ARCHITECTURE.md): core/ imports nothing from net/ or tui/, net/ not tui/.

Read from the source of every module (every import statement, also those inside a
function or under ``if TYPE_CHECKING``), not from a convention.
"""

from __future__ import annotations

import ast
from pathlib import Path

import capicu.core
import capicu.net
import capicu.tui
import pytest

FOLDERS = {
    "capicu.core": Path(capicu.core.__file__).parent,
    "capicu.net": Path(capicu.net.__file__).parent,
    "capicu.tui": Path(capicu.tui.__file__).parent,
}

#: What each layer must never import (a module or anything inside it).
FORBIDDEN = {
    "capicu.core": ("capicu.net", "capicu.tui", "textual", "asyncio", "socket"),
    "capicu.net": ("capicu.tui", "textual"),
}


def module_name(package: str, folder: Path, path: Path) -> str:
    parts = path.relative_to(folder).with_suffix("").parts
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join((package, *parts))


def imports_of(package: str, folder: Path, path: Path) -> set[str]:
    """Every module ``path`` imports, relative imports made absolute."""
    name = module_name(package, folder, path)
    here = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = here.rsplit(".", node.level - 1)[0] if node.level > 1 else here
                target = f"{base}.{node.module}" if node.module else base
            else:
                target = node.module or ""
            found.add(target)
            # ``from . import x`` and ``from capicu import net`` import modules by name too.
            found.update(f"{target}.{alias.name}" for alias in node.names)
    return found


def layer_imports(package: str) -> dict[str, set[str]]:
    folder = FOLDERS[package]
    return {
        module_name(package, folder, path): imports_of(package, folder, path)
        for path in sorted(folder.rglob("*.py"))
    }


def within(module: str, prefix: str) -> bool:
    return module == prefix or module.startswith(prefix + ".")


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_a_layer_imports_nothing_above_it(package: str) -> None:
    wrong = sorted(
        f"{module} imports {target}"
        for module, targets in layer_imports(package).items()
        for target in targets
        for prefix in FORBIDDEN[package]
        if within(target, prefix)
    )
    assert not wrong, "\n".join(wrong)


def test_the_reading_sees_imports_of_every_kind() -> None:
    """The check above could fail: the same reading finds what the interface does import."""
    tui = layer_imports("capicu.tui")
    assert len(tui) > 20
    assert "capicu.net.client" in tui["capicu.tui.link"]  # absolute
    assert "capicu.tui.prefs.saved_seats" in tui["capicu.tui.link"]  # from .saved_seats import ...
    assert "capicu.tui.words.describe" in tui["capicu.tui.widgets.seat_panel"]  # from ..describe import ...
    assert any(within(target, "textual") for target in tui["capicu.tui.app"])
    net = layer_imports("capicu.net")
    assert "capicu.core" in net["capicu.net.host.server"]
