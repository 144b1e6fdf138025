"""What the liveness registry must cover, and where a registered test lives.

Every rules option (a dotted key of :class:`~fadad_agents.rules.options.RulesOptions`, as
``CONFLICTS.md`` writes it: ``fadad.initiative``, ``wound_model``) and every field of a
stat block a file may hold (``Shield.attackers``; a field inherited from another stat
block is listed once, under the class that declares it: ``Creature.strength``) is a key
of :data:`tests.liveness_registry.REGISTRY`. ``tests/test_liveness.py`` holds the two
together.
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

from pydantic import BaseModel

from fadad_agents.rules.options import RulesOptions
from fadad_agents.schema.character import Character, Creature, ShipSpell
from fadad_agents.schema.equipment import Armour, Shield, ShipWeapon, Weapon
from fadad_agents.schema.fae import FaeAttributes, FaeCharacter, FaeGear, FaeMount
from fadad_agents.schema.forces import Crew, GravityWell, Ship, Unit

__all__ = [
    "ENGINE_LEVEL",
    "ROOT",
    "STAT_BLOCKS",
    "field_keys",
    "names_a_test",
    "option_keys",
]

ROOT = Path(__file__).resolve().parent.parent

STAT_BLOCKS: tuple[type[BaseModel], ...] = (
    Weapon,
    Armour,
    Shield,
    ShipWeapon,
    Creature,
    Character,
    ShipSpell,
    Crew,
    Unit,
    Ship,
    GravityWell,
    FaeGear,
    FaeAttributes,
    FaeMount,
    FaeCharacter,
)
"""Every record a scenario or catalogue file describes a fighter, a ship or their gear with
(the catalogue's reference tables and the scenario's own frame are not stat blocks)."""

ENGINE_LEVEL = ("tests/engine/", "tests/interfaces/")
"""Folders of tests that play battles through the engine (a kernel test does not count)."""


def _walk(section: BaseModel, prefix: str = "") -> list[str]:
    keys: list[str] = []
    for name in type(section).model_fields:
        value = getattr(section, name)
        if isinstance(value, BaseModel):
            keys += _walk(value, f"{prefix}{name}.")
        else:
            keys.append(prefix + name)
    return keys


def option_keys() -> list[str]:
    """Every rules option as its dotted key, in declaration order."""
    return _walk(RulesOptions())


def field_keys() -> list[str]:
    """Every stat-block field as ``Class.field``, under the stat block that declares it."""
    keys: list[str] = []
    for block in STAT_BLOCKS:
        for name in block.model_fields:
            owners = [b for b in block.__mro__ if b in STAT_BLOCKS and name in b.model_fields]
            if owners[-1] is block:
                keys.append(f"{block.__name__}.{name}")
    return keys


@cache
def _tests_in(path: Path) -> frozenset[str]:
    """``name`` and ``Class::name`` of every test function in a test file."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            found.add(node.name)
        elif isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef):
                    found.add(f"{node.name}::{item.name}")
    return frozenset(n for n in found if n.rpartition("::")[2].startswith("test"))


def names_a_test(test_id: str) -> bool:
    """Whether ``path::[Class::]test_name`` names a test function that pytest collects
    (a parametrised id's ``[...]`` is ignored)."""
    path, sep, name = test_id.partition("::")
    file = ROOT / path
    if not sep or not file.name.startswith("test_") or not file.is_file():
        return False
    return name.partition("[")[0] in _tests_in(file)
