"""The house keeps its shape: no import circles, small modules and folders, every room
documented, and the diagram in docs/architecture.md drawn from the code as it is."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from tests.architecture import (
    DOC,
    PACKAGE,
    cycles,
    documented_block,
    generated_block,
    import_graph,
    modules,
    room,
    room_edges,
    rooms,
)

MAX_LINES = 500
MAX_MODULES_PER_FOLDER = 15
SYSTEM_ROOMS = {"personal", "ships", "mass", "fae"}


def test_no_import_circle_anywhere_in_the_package() -> None:
    """No module reaches itself through imports, deferred and type-checking ones included."""
    found = cycles(import_graph())
    assert not found, "import circles:\n" + "\n".join(" -> ".join(c) for c in found)


def test_the_cycle_finder_names_a_circle(tmp_path: Path) -> None:
    """A deferred import that closes a loop is found and named (the check can fail)."""
    pkg = tmp_path / "fadad_agents"
    (pkg / "inner").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "inner" / "__init__.py").write_text("")
    (pkg / "inner" / "a.py").write_text("from fadad_agents.inner import b\n")
    (pkg / "inner" / "b.py").write_text("def f():\n    from fadad_agents.inner.a import x\n")
    (pkg / "c.py").write_text("from typing import TYPE_CHECKING\n")
    assert cycles(import_graph(pkg)) == [
        ["fadad_agents.inner.a", "fadad_agents.inner.b", "fadad_agents.inner.a"]
    ]


def test_no_module_is_over_500_lines() -> None:
    """Modules stay short enough to read in one sitting (DESIGN.md)."""
    long = {
        name: n
        for name, path in modules().items()
        if (n := len(path.read_text().splitlines())) > MAX_LINES
    }
    assert not long, f"modules over {MAX_LINES} lines: {long}"


def test_no_folder_holds_more_than_15_modules() -> None:
    """A folder of more than about 15 modules hides the rooms inside it (DESIGN.md)."""
    per_folder = Counter(
        path.parent.relative_to(PACKAGE.parent)
        for path in PACKAGE.rglob("*.py")
        if path.name != "__init__.py"
    )
    crowded = {str(k): v for k, v in per_folder.items() if v > MAX_MODULES_PER_FOLDER}
    assert not crowded, f"folders over {MAX_MODULES_PER_FOLDER} modules: {crowded}"


def test_rule_systems_import_only_the_core_of_their_layer() -> None:
    """Inside a layer a rule system's room imports its layer's core, never another rule
    system's room (the import-linter contracts say the same, with indirect imports)."""
    crossing = sorted(
        (a, b)
        for a, b in room_edges(import_graph())
        if a.partition(".")[0] == b.partition(".")[0]
        and a.partition(".")[2] in SYSTEM_ROOMS
        and b.partition(".")[2] in SYSTEM_ROOMS
    )
    assert not crossing


def test_cores_know_no_rule_system_of_their_layer() -> None:
    """A layer's core imports none of its layer's rule-system rooms."""
    leaks = sorted(
        (a, b)
        for a, b in room_edges(import_graph())
        if a.endswith(".core") and b.partition(".")[0] == a.partition(".")[0]
    )
    assert not leaks


@pytest.mark.parametrize("name", rooms())
def test_every_room_has_its_paragraph_in_the_architecture_doc(name: str) -> None:
    """docs/architecture.md says what lives in each room and what it may import."""
    heading = f"### `{name.replace('.', '/')}/`" if name != "cli" else "### `cli`"
    assert heading in DOC.read_text()


def test_the_diagram_is_drawn_from_the_code() -> None:
    """The generated diagram matches the imports (rewrite: python -m tests.architecture
    --write)."""
    assert documented_block() == generated_block()


def test_rooms_are_read_from_the_folders() -> None:
    """A module's room is its layer's sub-package, or the layer where it has none."""
    assert room("fadad_agents.rules.ships.crew") == "rules.ships"
    assert room("fadad_agents.engine.core.build") == "engine.core"
    assert room("fadad_agents.schema.loader") == "schema"
    assert room("fadad_agents.cli") == "cli"
    assert {"rules.core", "agents.fae", "engine.ships", "hexmap"} <= set(rooms())
