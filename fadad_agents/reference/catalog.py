"""A catalogue entry as a GM reads it: its stats by name, nested gear inline.

``fadad catalog show weapons/broadsword`` prints the entry validated by the schema (so a
``model:`` it starts from is followed), the fields the entry sets in the schema's order,
ladder levels as words, and for a fighter the damage modifiers the engine derives.

>>> print(catalog_card("weapons/broadsword"))
Broadsword (weapons/broadsword)
  fadad bonus   3
  fudge class   2
  sharp         true
  group         medium
  hands         1
"""

from __future__ import annotations

from pydantic import BaseModel

from fadad_agents.reference.text import NotInReference, is_ladder, value_text
from fadad_agents.schema.catalog import CatalogError, default_catalog
from fadad_agents.schema.character import Creature
from fadad_agents.schema.loader import catalog_model
from fadad_agents.schema.tables import Table

__all__ = ["card_rows", "catalog_card"]

_HIDDEN = frozenset({"model", "name", "description", "kind"})


def _ladder_field(model: BaseModel, name: str) -> bool:
    info = type(model).model_fields[name]
    if is_ladder(info.metadata):
        return True
    return "_ladder_value" in repr(info.annotation)  # mapping of ladder levels (skills)


def _value(model: BaseModel, name: str) -> str:
    value = getattr(model, name)
    if isinstance(value, BaseModel):
        return _inline(value)
    if isinstance(value, dict):
        as_ladder = _ladder_field(model, name)
        return ", ".join(f"{k} {value_text(v, as_ladder=as_ladder)}" for k, v in value.items())
    return value_text(value, as_ladder=_ladder_field(model, name))


def _rows(model: BaseModel, name: str) -> list[tuple[str, str]]:
    """One row per stat; a list of gear (a ship's weapons) gets a row per item."""
    label, value = name.replace("_", " "), getattr(model, name)
    if isinstance(value, list) and value and isinstance(value[0], BaseModel):
        return [(label if i == 0 else "", _inline(v)) for i, v in enumerate(value)]
    return [(label, _value(model, name))]


def _set_fields(model: BaseModel) -> list[str]:
    chosen = model.model_fields_set - _HIDDEN
    return [n for n in type(model).model_fields if n in chosen]


def _inline(model: BaseModel) -> str:
    """A nested record on one line: ``Shortsword (weapons/shortsword): sharp true ...``."""
    title = str(getattr(model, "name", type(model).__name__))
    ref = getattr(model, "model", None)
    head = f"{title} ({ref})" if ref else title
    stats = ", ".join(f"{n.replace('_', ' ')} {_value(model, n)}" for n in _set_fields(model))
    return f"{head}: {stats}" if stats else head


def card_rows(ref: str) -> tuple[str, list[tuple[str | None, str]]]:
    """The title and the ``(label, value)`` rows of a catalogue entry's card (label None:
    a line of its own, such as the description or a table row).

    Raises:
        NotInReference: no such entry (with the nearest names).
    """
    try:
        model = catalog_model(ref)
    except CatalogError as exc:
        raise NotInReference(str(exc)) from None
    full = default_catalog().full_name(ref)
    title = f"{model.name} ({full})"
    rows: list[tuple[str | None, str]] = []
    if getattr(model, "description", ""):
        rows.append((None, model.description))
    if isinstance(model, Table):
        rows.append(("source", model.source))
        rows.extend((None, line) for line in _table(model))
        return title, rows
    for name in _set_fields(model):
        rows.extend(_rows(model, name))
    if isinstance(model, Creature):
        rows.append(("damage modifiers", _modifiers(model)))
    return title, rows


def _table(table: Table) -> list[str]:
    cells = [table.columns, *([value_text(c) for c in row] for row in table.rows)]
    widths = [max(len(row[i]) for row in cells) for i in range(len(table.columns))]
    return ["  ".join(c.rjust(w) for c, w in zip(row, widths, strict=True)) for row in cells]


def _modifiers(creature: Creature) -> str:
    odm, ddm = creature.odm(), creature.ddm
    return (
        f"ODM {odm:+d} (Strength + Scale + weapon), "
        f"DDM {ddm:+d} (Damage Capacity + Mass Scale + armour)"
    )


def catalog_card(ref: str) -> str:
    """The card as text: the title, then one indented row per stat."""
    title, rows = card_rows(ref)
    width = max((len(label) for label, _ in rows if label is not None), default=0)
    lines = [title]
    for label, value in rows:
        text = value if label is None else f"{label:<{width}}   {value}"
        lines.append(f"  {text}".rstrip())
    return "\n".join(lines)
