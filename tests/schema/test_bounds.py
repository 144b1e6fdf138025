"""Every value a file can hold is bounded (issue 20): numbers, text, lists and mappings.

A file that validates must play in bounded time and memory, so the schema walks every
field reachable from a scenario or a catalogue entry (rules options included) and
requires a bound on each: numbers ``ge``/``le``, text a length and a plain-text check,
lists and mappings a length. A field added without one fails here, naming it.
"""

from __future__ import annotations

from types import UnionType
from typing import Annotated, Any, Literal, TypeAliasType, Union, get_args, get_origin

import annotated_types as at
import pytest
from pydantic import BaseModel
from pydantic.fields import FieldInfo

from fadad_agents.schema import Scenario, ScenarioError, load_scenario
from fadad_agents.schema.loader import KIND_CLASSES

TEXT_CHECKS = {"plain_text", "identifier", "_dice_text"}
"""Validators that keep control characters out of text (schema.text, identifiers, dice)."""


def _metadata(items: list[Any]) -> list[Any]:
    out: list[Any] = []
    for item in items:
        out.extend(_metadata(item.metadata) if isinstance(item, FieldInfo) else [item])
    return out


def _checks(meta: list[Any]) -> set[str]:
    return {getattr(getattr(m, "func", None), "__name__", "") for m in meta}


def _problems(tp: Any, where: str, meta: list[Any], seen: set[type]) -> list[str]:
    meta = _metadata(meta)
    while get_origin(tp) is Annotated or isinstance(tp, TypeAliasType):
        if isinstance(tp, TypeAliasType):
            tp = tp.__value__
            continue
        tp, *more = get_args(tp)
        meta += _metadata(more)
    origin = get_origin(tp)
    if origin in (Union, UnionType):
        members = [m for m in get_args(tp) if m is not type(None)]
        return [p for m in members for p in _problems(m, where, meta, seen)]
    if origin is Literal or tp is bool:
        return []
    if isinstance(tp, type) and issubclass(tp, BaseModel):
        return _model_problems(tp, seen)
    low = any(isinstance(m, at.Ge | at.Gt) for m in meta)
    high = any(isinstance(m, at.Le | at.Lt) for m in meta)
    longest = any(isinstance(m, at.MaxLen) for m in meta)
    if tp in (int, float):
        return [] if low and high else [f"{where}: a number without a lower and upper bound"]
    if tp is str:
        ok = longest and _checks(meta) & TEXT_CHECKS
        return [] if ok else [f"{where}: text without a length bound and a plain-text check"]
    if tp is Any:
        return [] if "_scalar" in _checks(meta) else [f"{where}: an unchecked value"]
    if origin in (list, tuple, dict):
        args = [a for a in get_args(tp) if a is not Ellipsis]
        variable = origin is not tuple or Ellipsis in get_args(tp)
        found = [] if longest or not variable else [f"{where}: a {origin.__name__} unbounded"]
        for i, arg in enumerate(args):
            part = "key" if origin is dict and i == 0 else "item"
            found += _problems(arg, f"{where}[{part}]", [], seen)
        return found
    return [f"{where}: a {tp!r} the bounds check does not know"]


def _model_problems(cls: type[BaseModel], seen: set[type]) -> list[str]:
    if cls in seen:
        return []
    seen.add(cls)
    return [
        problem
        for name, field in cls.model_fields.items()
        for problem in _problems(field.annotation, f"{cls.__name__}.{name}", field.metadata, seen)
    ]


def test_every_field_a_file_can_hold_is_bounded() -> None:
    """No number, text, list or mapping of a scenario or catalogue entry is unbounded."""
    seen: set[type] = set()
    problems = _model_problems(Scenario, seen)
    for cls in KIND_CLASSES.values():
        problems += _model_problems(cls, seen)
    assert problems == []
    assert len(seen) > 30  # the walk reached the rules options and every stat block


DUEL = """name: x
sides:
  - name: A
    forces: [{name: a, skills: {Sword: Fair}, attack_skill: Sword}]
  - name: B
    forces: [{name: b}]
"""


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        (
            "Sword: Fair",
            "Sword: Legendary+1000000",
            "<text>:4 sides[0].forces[0].skills.Sword: 'Legendary+1000000' is beyond the ladder's "
            "range (Terrible-17..Legendary+16, -20..+20)",
        ),
        (
            "{name: b}",
            "{name: b, count: true}",
            "<text>:6 sides[1].forces[0].count: true is not a whole number "
            "(expected a whole number)",
        ),
        (
            "{name: b}",
            "{name: b, position: [0, 10000000]}",
            "<text>:6 sides[1].forces[0].position[1]: 10000000 is too large (maximum 1000000)",
        ),
    ],
)
def test_a_value_beyond_its_bound_is_one_line(old: str, new: str, message: str) -> None:
    """Ladder levels, counts given as true/false and map cells are refused in one line."""
    with pytest.raises(ScenarioError) as info:
        load_scenario(DUEL.replace(old, new))
    assert info.value.problems == [message]
