"""Validated stat blocks, the catalogue and scenario files (see DESIGN.md, issue 3).

Models (pydantic v2, frozen, unknown keys rejected):

* equipment: :class:`Weapon`, :class:`Armour`, :class:`Shield`, :class:`ShipWeapon`;
* fighters: :class:`Creature` (species template), :class:`Character`;
* bulk forces and ships: :class:`Crew`, :class:`Unit`, :class:`Ship`;
* battles: :class:`Scenario` with :class:`Side`, :class:`MapSpec`, :class:`StopConditions`,
  :class:`PolicyRef`; reference data: :class:`Table`.

Loading: :func:`load_scenario` (a path, YAML text or a mapping) raises :class:`ScenarioError`
whose ``problems`` are ``file:line field.path: what is wrong (what is allowed)`` lines; every
value is bounded, and the whole battle within the runner's :class:`Limits`.
Catalogue: :class:`Catalog` / :func:`default_catalog` over ``models/``.

A scenario file (ladder levels as labels, catalogue entries by name with overrides)::

    name: Snorri vs Brynhild
    rules: {fadad.initiative: static}
    sides:
      - name: Snorri
        forces:
          - name: Snorri
            strength: Good
            damage_capacity: Good
            skills: {Sword: Great}
            attack_skill: Sword
            weapon: {model: weapons/broadsword, magic_plus: 1}
            armour: armour/heavy-leather
      - name: Brynhild
        forces:
          - {name: Brynhild, model: creatures/human, weapon: weapons/axe}

Loaded, Snorri's ``odm()`` is 5 and his ``ddm`` 3 (EX-PC-01).
"""

from fadad_agents.schema.base import Ladder, PolicyRef, Record
from fadad_agents.schema.catalog import KINDS, Catalog, CatalogError, default_catalog
from fadad_agents.schema.character import Character, Creature
from fadad_agents.schema.equipment import Armour, Shield, ShipWeapon, Weapon
from fadad_agents.schema.forces import Crew, Ship, Unit
from fadad_agents.schema.limits import DEFAULT_LIMITS, Limits
from fadad_agents.schema.loader import (
    KIND_CLASSES,
    ScenarioError,
    dump_scenario,
    load_entry,
    load_scenario,
    scenario_json_schema,
    validate_path,
)
from fadad_agents.schema.scenario import Force, MapSpec, Scenario, Side, StopConditions
from fadad_agents.schema.tables import Table

__all__ = [
    "DEFAULT_LIMITS",
    "KINDS",
    "KIND_CLASSES",
    "Armour",
    "Catalog",
    "CatalogError",
    "Character",
    "Creature",
    "Crew",
    "Force",
    "Ladder",
    "Limits",
    "MapSpec",
    "PolicyRef",
    "Record",
    "Scenario",
    "ScenarioError",
    "Shield",
    "Ship",
    "ShipWeapon",
    "Side",
    "StopConditions",
    "Table",
    "Unit",
    "Weapon",
    "default_catalog",
    "dump_scenario",
    "load_entry",
    "load_scenario",
    "scenario_json_schema",
    "validate_path",
]
