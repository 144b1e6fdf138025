"""The package's import graph and the rooms of the house, read from the source with ``ast``.

Used by ``tests/test_architecture.py`` (no import circles, file and folder sizes, the
rooms documented) and to write the generated diagram in ``docs/architecture.md``::

    python -m tests.architecture --write     # after adding or removing a room or an import

Every import counts, wherever it stands (module level, inside a function, under
``if TYPE_CHECKING``): a deferred import still ties two modules together.
"""

from __future__ import annotations

import ast
import sys
from collections import defaultdict
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "fadad_agents"
DOC = ROOT / "docs" / "architecture.md"

LAYERS = (
    "cli",
    "dashboard",
    "analysis",
    "reference",
    "table",
    "campaign",
    "engine",
    "agents",
    "policies",
    "schema",
    "rules",
    "hexmap",
)
"""Top to bottom, as the import-linter ``layers`` contract orders them."""
SYSTEMS = ("core", "personal", "ships", "mass", "fae")
"""The rooms inside a layer: the shared core, then one per rule system."""

BEGIN = "<!-- BEGIN GENERATED: python -m tests.architecture --write -->"
END = "<!-- END GENERATED -->"


def modules(package: Path = PACKAGE) -> dict[str, Path]:
    """Every module of the package by dotted name (a package by its ``__init__``)."""
    found = {}
    for path in sorted(package.rglob("*.py")):
        parts = list(path.relative_to(package.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def _resolve(name: str, known: dict[str, Path]) -> str | None:
    while name and name not in known:
        name = name.rpartition(".")[0]
    return name or None


def import_graph(package: Path = PACKAGE) -> dict[str, set[str]]:
    """Module -> the package modules it imports (``from pkg import sub`` names ``pkg.sub``)."""
    known = modules(package)
    graph: dict[str, set[str]] = defaultdict(set)
    for name, path in known.items():
        graph[name]
        here = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parts = here.split(".")[: len(here.split(".")) - node.level + 1]
                    base = ".".join([*parts, base] if base else parts)
                targets = [
                    f"{base}.{a.name}" if f"{base}.{a.name}" in known else base for a in node.names
                ]
            for target in targets:
                resolved = _resolve(target, known) if target.startswith("fadad_agents") else None
                if resolved and resolved != name:
                    graph[name].add(resolved)
    return dict(graph)


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Each import circle (strongly connected component of two or more modules), as a path
    that starts and ends at the same module."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:  # Tarjan's algorithm
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(_circle(sorted(component), graph))

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def _circle(component: list[str], graph: dict[str, set[str]]) -> list[str]:
    """A shortest circle through the component's first module (breadth-first)."""
    start, members = component[0], set(component)
    paths = {start: [start]}
    frontier = [start]
    while frontier:
        nxt = []
        for v in frontier:
            for w in sorted(graph.get(v, set()) & members):
                if w == start:
                    return [*paths[v], start]
                if w not in paths:
                    paths[w] = [*paths[v], w]
                    nxt.append(w)
        frontier = nxt
    return component


def room(module: str) -> str:
    """The room a module lives in: ``rules.ships``, ``engine.core``, ``cli`` ..."""
    parts = module.split(".")[1:]
    if not parts:
        return "fadad_agents"
    if len(parts) >= 2 and parts[1] in SYSTEMS and (PACKAGE / parts[0] / parts[1]).is_dir():
        return f"{parts[0]}.{parts[1]}"
    return parts[0]


def rooms(package: Path = PACKAGE) -> list[str]:
    """Every room, layer by layer from the top, cores first. A layer split into rooms is
    not a room itself (its ``__init__`` only gathers the rooms' public names)."""
    found = {room(m) for m in modules(package)} - {"fadad_agents"}
    found -= {r.partition(".")[0] for r in found if "." in r}

    def order(r: str) -> tuple[int, int]:
        layer, _, system = r.partition(".")
        return LAYERS.index(layer), SYSTEMS.index(system) if system else -1

    return sorted(found, key=order)


def room_edges(graph: dict[str, set[str]]) -> set[tuple[str, str]]:
    """Which room imports which; a layer's ``__init__`` stands for the whole layer."""
    edges = set()
    for source, targets in graph.items():
        a = room(source)
        for target in targets:
            b = room(target)
            if a != b and "fadad_agents" not in (a, b) and not b.startswith(a + "."):
                edges.add((a, b))
    return edges


def _node(r: str) -> str:
    """A room's Mermaid id; a layer split into rooms is its box."""
    return r.replace(".", "_") if "." in r or not (PACKAGE / r / "core").is_dir() else f"{r}_layer"


def _layer_rooms(all_rooms: Iterable[str]) -> dict[str, list[str]]:
    by_layer: dict[str, list[str]] = {}
    for r in all_rooms:
        by_layer.setdefault(r.partition(".")[0], []).append(r)
    return by_layer


def diagram(package: Path = PACKAGE) -> str:
    """The house as a Mermaid flowchart: one box per layer, one node per room, an arrow
    for each room that imports another (read from the code)."""
    graph = import_graph(package)
    edges = room_edges(graph)
    lines = ["```mermaid", "flowchart TB"]
    for layer, members in _layer_rooms(rooms(package)).items():
        if members == [layer]:
            lines.append(f"    {layer}[{layer}/]")
            continue
        lines.append(f"    subgraph {layer}_layer [{layer}/]")
        lines.append("        direction LR")
        lines.extend(f"        {_node(r)}[{r.partition('.')[2]}]" for r in members)
        lines.append("    end")
    for a, b in sorted(edges):
        lines.append(f"    {_node(a)} --> {_node(b)}")
    lines.append("```")
    return "\n".join(lines)


def generated_block(package: Path = PACKAGE) -> str:
    """The generated part of ``docs/architecture.md``, markers included."""
    return f"{BEGIN}\n{diagram(package)}\n{END}"


def documented_block(doc: Path = DOC) -> str:
    """The generated part as it stands in the document."""
    text = doc.read_text()
    start, end = text.index(BEGIN), text.index(END) + len(END)
    return text[start:end]


def write(doc: Path = DOC) -> None:
    """Replace the generated part of the document with the house as the code builds it."""
    text = doc.read_text()
    doc.write_text(text.replace(documented_block(doc), generated_block()))


if __name__ == "__main__":
    if sys.argv[1:] == ["--write"]:
        write()
    else:
        print(generated_block())
