"""Stat-block and scenario fields with their meaning, read from the schema classes.

``fadad fields character`` lists what a character entry in a scenario may hold: each
field's name, type, default and description, from the pydantic model the loader validates
with, so the list cannot drift from what a file may say.

>>> [f.name for f in field_docs("stop")]
['max_rounds', 'max_seconds', 'when_side']
"""

from __future__ import annotations

from dataclasses import dataclass

from pydantic import BaseModel
from pydantic.fields import FieldInfo
from pydantic_core import PydanticUndefined

from fadad_agents.reference.text import is_ladder, not_found, type_text, value_text
from fadad_agents.rules.options import RulesOptions
from fadad_agents.schema.base import PolicyRef
from fadad_agents.schema.character import Character, Creature, ShipSpell
from fadad_agents.schema.equipment import Armour, Shield, ShipWeapon, Weapon
from fadad_agents.schema.fae import FaeAttributes, FaeCharacter, FaeGear, FaeMount
from fadad_agents.schema.forces import Crew, GravityWell, Ship, Unit
from fadad_agents.schema.scenario import MapSpec, Obstacle, Scenario, Side, StopConditions
from fadad_agents.schema.tables import Table

__all__ = ["FIELD_KINDS", "FieldDoc", "field_docs", "field_kind"]

FIELD_KINDS: dict[str, type[BaseModel]] = {
    "scenario": Scenario,
    "side": Side,
    "map": MapSpec,
    "obstacle": Obstacle,
    "stop": StopConditions,
    "policy": PolicyRef,
    "character": Character,
    "creature": Creature,
    "crew": Crew,
    "unit": Unit,
    "ship": Ship,
    "gravity-well": GravityWell,
    "spell": ShipSpell,
    "fae": FaeCharacter,
    "fae-attributes": FaeAttributes,
    "fae-mount": FaeMount,
    "fae-gear": FaeGear,
    "weapon": Weapon,
    "armour": Armour,
    "shield": Shield,
    "big-weapon": ShipWeapon,
    "table": Table,
}
"""Each kind of block a scenario or catalogue file holds, by the name ``fadad fields`` takes."""

_PLURALS = {"weapons": "weapon", "shields": "shield", "big-weapons": "big-weapon"}
_PLURALS |= {"ships": "ship", "creatures": "creature", "crews": "crew", "units": "unit"}
_PLURALS |= {"tables": "table", "sides": "side", "forces": "character", "policies": "policy"}


@dataclass(frozen=True, slots=True)
class FieldDoc:
    """One field: name, type, default (``required`` if none) and meaning."""

    name: str
    type: str
    default: str
    description: str


def field_kind(kind: str) -> type[BaseModel]:
    """The schema class of a field kind (catalogue plurals accepted: ``weapons``).

    Raises:
        NotInReference: an unknown kind (with the nearest names).
    """
    cls = FIELD_KINDS.get(_PLURALS.get(kind, kind))
    if cls is None:
        raise not_found("a kind of block", kind, [*FIELD_KINDS, *_PLURALS], "fadad fields")
    return cls


def _default(info: FieldInfo) -> str:
    if info.is_required():
        return "required"
    if info.default_factory is not None:
        value = info.default_factory()  # type: ignore[call-arg]
        return "empty" if value in ({}, []) else _short(value)
    return "null" if info.default is PydanticUndefined else _short(info.default, info)


def _short(value: object, info: FieldInfo | None = None) -> str:
    if isinstance(value, BaseModel):
        return "see below" if value.model_fields_set else "defaults"
    return value_text(value, as_ladder=info is not None and is_ladder(info.metadata))


def _type(info: FieldInfo) -> str:
    if is_ladder(info.metadata):
        return "ladder level"
    blocks: dict[type, str] = {cls: kind for kind, cls in FIELD_KINDS.items()}
    return type_text(info.annotation, blocks | {RulesOptions: "rules"})


def field_docs(kind: str) -> list[FieldDoc]:
    """The fields of one kind of block, in the order the schema declares them."""
    cls = field_kind(kind)
    return [
        FieldDoc(name, _type(info), _default(info), " ".join((info.description or "").split()))
        for name, info in cls.model_fields.items()
    ]
