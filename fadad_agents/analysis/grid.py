"""Parameter grids: vary crews, weapons, policies or rules options of one scenario.

A grid maps a *path* into the scenario to the values it takes::

    {"rules.fadad.initiative": ["rolled", "static"],
     "sides[Snorri].forces[0].skills.Sword": ["Good", "Great"]}

and expands to the cartesian product of its values (here four variants), in the order
the paths and values are given. Every variant is played on the same replicate seeds, so
two policies are compared on common random numbers.

Path syntax (one path names one field of the scenario file):

* ``a.b.c`` - mapping keys, as written in the YAML file (``rules.fadad.initiative``);
* ``key[i]`` - item ``i`` (0-based) of a list (``sides[0]``, ``forces[2]``);
* ``key[Name]`` - the list item whose ``name`` is ``Name`` (``sides[Snorri]``), or the
  mapping key ``Name`` (``skills[Melee Weapon]``, for keys with dots or spaces).

A value is anything the scenario file takes there: a ladder word, a number, a catalogue
reference (``weapons/club``) or a mapping (``{name: break_at_losses, params: ...}``).
Every variant is re-validated by the scenario schema; a bad path or value raises
:class:`GridError` naming the path, the value and what is allowed, in one line.
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import yaml

from fadad_agents.schema.limits import Limits
from fadad_agents.schema.loader import ScenarioError, dump_scenario, load_scenario
from fadad_agents.schema.scenario import Scenario
from fadad_agents.schema.suggest import nearest

__all__ = [
    "GridError",
    "Variant",
    "expand_grid",
    "label_value",
    "parse_grid_option",
    "parse_path",
    "set_path",
]

_SEGMENT = re.compile(r"([^.\[\]]*)((?:\[[^\[\]]*\])*)")
_INDEX = re.compile(r"\[([^\[\]]*)\]")


class GridError(ValueError):
    """A parameter grid names a path or a value the scenario cannot take."""


@dataclass(frozen=True)
class Variant:
    """One point of a parameter grid: the scenario with the grid's values set.

    Attributes:
        index: position in the grid (0 for a sweep without a grid).
        label: ``path=value, path=value`` (``"base"`` without a grid).
        values: the grid value of each path (in grid order).
        scenario: the variant's scenario, validated (what replicates play).
    """

    index: int
    label: str
    values: tuple[tuple[str, Any], ...]
    scenario: Scenario

    @cached_property
    def text(self) -> str:
        """The variant's scenario as YAML text (written on first use: a sweep needs none)."""
        return dump_scenario(self.scenario)


def parse_path(path: str) -> tuple[str | int, ...]:
    """Split a grid path into mapping keys (str) and list indices or names.

    >>> parse_path("sides[0].forces[Snorri].skills.Sword")
    ('sides', 0, 'forces', '[Snorri]', 'skills', 'Sword')

    A bracketed name is kept in brackets (``'[Snorri]'``) so :func:`set_path` can tell a
    list item chosen by name from a mapping key.
    """
    if not isinstance(path, str) or not path.strip():
        raise GridError(f"grid path {path!r} is empty (e.g. rules.fadad.initiative)")
    parts: list[str | int] = []
    for raw in path.split("."):
        match = _SEGMENT.fullmatch(raw)
        if match is None or (not match.group(1) and not match.group(2)):
            raise GridError(
                f"grid path {path!r}: bad segment {raw!r} "
                "(use key, key[0] or key[Name], joined by dots)"
            )
        if match.group(1):
            parts.append(match.group(1))
        for inner in _INDEX.findall(match.group(2)):
            inner = inner.strip()
            if not inner:
                raise GridError(f"grid path {path!r}: empty brackets [] (use [0] or [Name])")
            parts.append(int(inner) if inner.lstrip("-").isdigit() else f"[{inner}]")
    return tuple(parts)


def _describe(node: Any) -> str:
    if isinstance(node, dict):
        return "keys: " + (", ".join(str(k) for k in node) or "none")
    if isinstance(node, list):
        names = [str(item["name"]) for item in node if isinstance(item, dict) and "name" in item]
        extra = f"; names: {', '.join(names)}" if names else ""
        return f"{len(node)} items, 0..{len(node) - 1}{extra}"
    return f"a single value {node!r}"


def _where(parts: Sequence[str | int]) -> str:
    """``sides[0].forces[Snorri]`` for the parts walked so far."""
    text = ""
    for part in parts:
        if isinstance(part, int):
            text += f"[{part}]"
        elif part.startswith("["):
            text += part
        else:
            text += f".{part}" if text else part
    return text or "the scenario"


def _child(node: Any, part: str | int, path: str, where: str) -> tuple[Any, str | int]:
    """The container key/index of ``part`` in ``node`` (it must exist)."""
    if isinstance(part, int):
        if not isinstance(node, list) or not -len(node) <= part < len(node):
            raise GridError(f"grid path {path!r}: {where} has no item {part} ({_describe(node)})")
        return node[part], part
    if part.startswith("["):
        name = part[1:-1]
        if isinstance(node, list):
            for i, item in enumerate(node):
                if isinstance(item, dict) and item.get("name") == name:
                    return item, i
            raise GridError(
                f"grid path {path!r}: {where} has no item named {name!r} ({_describe(node)})"
            )
        part = name
    if not isinstance(node, dict) or part not in node:
        close = nearest(part, [str(k) for k in node]) if isinstance(node, dict) else []
        hint = f"; did you mean {close[0]!r}?" if close else ""
        raise GridError(f"grid path {path!r}: {where} has no {part!r} ({_describe(node)}){hint}")
    return node[part], part


def set_path(data: dict[str, Any], path: str, value: Any) -> None:
    """Set ``path`` in the plain scenario mapping ``data`` (in place).

    Every segment must exist, except that a policy (``policies.morale``) or a policy
    parameter (``params.fraction``) not set yet may be added; the schema and the policy
    registry then check it.
    """
    parts = parse_path(path)
    node: Any = data
    for depth, part in enumerate(parts[:-1]):
        node, _ = _child(node, part, path, _where(parts[:depth]))
    where = _where(parts[:-1])
    last = parts[-1]
    if isinstance(last, int) or (isinstance(node, list) and isinstance(last, str)):
        _, key = _child(node, last, path, where)
        node[key] = value
        return
    if not isinstance(node, dict):
        raise GridError(f"grid path {path!r}: {where} is {_describe(node)}, not a mapping")
    key = last[1:-1] if last.startswith("[") else last
    if key not in node and parts[-2:-1] not in (("policies",), ("params",)):
        _child(node, key, path, where)  # raises: a typo must not add an unused field
    node[key] = value


def label_value(value: Any) -> str:
    """A grid value as text: strings as they are, anything else as compact JSON."""
    if isinstance(value, str):
        return value
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def _check_grid(grid: Mapping[str, Sequence[Any]]) -> list[tuple[str, list[Any]]]:
    if not isinstance(grid, Mapping):
        raise GridError(f"a grid is a mapping path -> list of values, got {type(grid).__name__}")
    items: list[tuple[str, list[Any]]] = []
    for path, values in grid.items():
        parse_path(path)
        if isinstance(values, (str, bytes, Mapping)) or not isinstance(values, Iterable):
            raise GridError(f"grid path {path!r}: give a list of values, got {values!r}")
        listed = list(values)
        if not listed:
            raise GridError(f"grid path {path!r}: the list of values is empty")
        items.append((path, listed))
    return items


def _variant(base: dict[str, Any], values: tuple[tuple[str, Any], ...], limits: Limits) -> Scenario:
    data = json.loads(json.dumps(base))  # a deep copy of plain JSON data
    for path, value in values:
        set_path(data, path, value)
    try:
        return load_scenario(data, limits=limits)
    except ScenarioError as exc:
        setting = ", ".join(f"{p}={label_value(v)}" for p, v in values)
        problem = exc.problems[0].split(" ", 1)[-1] if exc.problems else str(exc)
        raise GridError(f"grid {setting}: {problem}") from None


def expand_grid(scenario: Scenario, grid: Mapping[str, Sequence[Any]] | None) -> list[Variant]:
    """The variants of ``scenario`` under ``grid`` (one ``"base"`` variant without a grid).

    Raises:
        GridError: a path that does not exist in the scenario, an empty list of values, or
            a value the schema rejects (the message names the path and the value).
    """
    if not grid:
        return [Variant(0, "base", (), scenario)]
    base = scenario.model_dump(mode="json")
    items = _check_grid(grid)
    variants = []
    combos = itertools.product(*(values for _, values in items))
    for index, combo in enumerate(combos):
        values = tuple((path, value) for (path, _), value in zip(items, combo, strict=True))
        label = ", ".join(f"{p}={label_value(v)}" for p, v in values)
        variants.append(Variant(index, label, values, _variant(base, values, scenario.limits)))
    return variants


def parse_grid_option(text: str) -> tuple[str, list[Any]]:
    """``PATH=V1,V2`` (or ``PATH=[V1, V2]`` in YAML) from the command line.

    Each value is read as YAML, so ``2`` is a number and ``{name: nearest}`` a mapping
    (use the bracketed list form for values that contain commas).

    >>> parse_grid_option("rules.fadad.initiative=rolled,static")
    ('rules.fadad.initiative', ['rolled', 'static'])
    >>> parse_grid_option("sides[0].forces[1].count=[10, 20]")
    ('sides[0].forces[1].count', [10, 20])
    """
    path, eq, values = text.partition("=")
    path, values = path.strip(), values.strip()
    if not eq or not path or not values:
        raise GridError(
            f"--grid {text!r}: write PATH=V1,V2 (e.g. rules.fadad.initiative=rolled,static)"
        )
    parse_path(path)
    try:
        if values.startswith("["):
            listed = yaml.safe_load(values)
        else:
            listed = [yaml.safe_load(v) if v.strip() else "" for v in values.split(",")]
    except yaml.YAMLError as exc:
        raise GridError(
            f"--grid {text!r}: values are not valid YAML ({exc.__class__.__name__})"
        ) from None
    if not isinstance(listed, list) or not listed:
        raise GridError(f"--grid {text!r}: give at least one value (PATH=V1,V2)")
    return path, listed
