"""Building blocks shared by every stat block: the frozen base model, ladder fields, policies.

Every schema class derives from :class:`Record`: a frozen pydantic v2 model that forbids
unknown keys (the loader's :func:`~fadad_agents.schema.loader.unknown_field_message` turns
pydantic's ``extra_forbidden`` into a message listing the allowed fields and the nearest).

Catalogue references: a class with a ``catalog_kind`` (``"weapons"``, ``"creatures"``...)
accepts, wherever it is expected,

* a string ``"weapons/broadsword"`` (or just ``"broadsword"``), or
* a mapping ``{model: weapons/broadsword, magic_plus: 1}`` whose other keys override the
  catalogue entry's fields.

The reference is resolved against the catalogue passed in the validation context
(``{"catalog": Catalog}``) or the default catalogue (:func:`catalog.default_catalog`). The
resolved object keeps the reference in its ``model`` field, so dumping and reloading gives
the same object.

Ladder fields (:data:`Ladder`) accept ``"Great"``, ``"Great-2"``, ``"+2"``, ``2`` and store
the int (``rules/core/ladder.py``), within Terrible-17..Legendary+16.

Every value a file can hold is bounded here, so a file that validates plays in bounded
time and memory: numbers by ``ge``/``le``, text by length and by :mod:`.text` (names
hold no control characters, free text only newlines and tabs), lists and mappings by
length. ``true``/``false`` are never numbers.
"""

from __future__ import annotations

import functools
from types import UnionType
from typing import Annotated, Any, ClassVar, Union, get_args, get_origin

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    GetJsonSchemaHandler,
    ValidationInfo,
    WithJsonSchema,
    field_validator,
    model_validator,
)
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import CoreSchema, PydanticCustomError

from fadad_agents.rules.core import ladder
from fadad_agents.schema.catalog import CatalogError, default_catalog
from fadad_agents.schema.text import control_problem

__all__ = [
    "FORCE_KINDS",
    "MAX_COORDINATE",
    "MAX_ENTRIES",
    "NAME_LENGTH",
    "Boxes",
    "Coordinate",
    "Ladder",
    "Name",
    "Policies",
    "PolicyRef",
    "Position",
    "Record",
    "Ref",
    "Scalar",
    "Text",
    "exact_length",
]

FORCE_KINDS = ("character", "crew", "unit", "ship", "fae")


def _ladder_value(value: object) -> int:
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if not isinstance(value, str | int) or isinstance(value, bool):
        raise ValueError(f"{value!r} is not a ladder level (Terrible..Legendary+N)")
    return ladder.parse(value)


_LADDER_WORDS = "|".join(
    f"[{w[0]}{w[0].lower()}]{w[1:]}"
    for w in ("Terrible", "Poor", "Mediocre", "Fair", "Good", "Great", "Superb", "Legendary")
)
Ladder = Annotated[
    int,
    BeforeValidator(_ladder_value),
    Field(ge=ladder.LADDER_MIN, le=ladder.LADDER_MAX),
    WithJsonSchema(
        {
            "anyOf": [
                {"type": "integer"},
                {"type": "string", "pattern": f"^ *({_LADDER_WORDS})? *([+-] *[0-9]+)? *$"},
            ],
            "examples": ["Great", "Good-1", "+2"],
        }
    ),
]
"""A trait-ladder level stored as an int (Fair = 0); YAML may use labels."""


def _plain(allow: str) -> AfterValidator:
    def plain_text(value: str) -> str:
        problem = control_problem(value, allow)
        if problem is not None:
            raise ValueError(problem)
        return value

    return AfterValidator(plain_text)


NAME_LENGTH = 120
"""The longest name."""

Name = Annotated[str, Field(min_length=1, max_length=NAME_LENGTH), _plain("")]
"""A non-empty display name, or a key naming a skill or trait: one line of plain text."""

Ref = Annotated[str, Field(max_length=200), _plain("")]
"""A catalogue name (``weapons/broadsword``) or a reference to a name: plain text."""

Text = Annotated[str, Field(max_length=10_000), _plain("\n\t")]
"""Free text (a description): plain text, with newlines and tabs."""

MAX_ENTRIES = 100
"""Most entries a list or mapping of a stat block holds (skills, weapons, spells ...)."""

MAX_COORDINATE = 1_000_000
"""Largest map coordinate, hexes or yards either way of the centre."""

Coordinate = Annotated[int, Field(ge=-MAX_COORDINATE, le=MAX_COORDINATE)]
"""One map coordinate."""


def exact_length(n: int, what: str) -> BeforeValidator:
    """Validator: a list must have exactly ``n`` items (one clear message, not n 'missing')."""

    def check(value: Any) -> Any:
        if isinstance(value, list | tuple) and len(value) != n:
            raise ValueError(f"has {len(value)} items (needs exactly {n}: {what})")
        return value

    return BeforeValidator(check)


Position = Annotated[tuple[Coordinate, Coordinate], exact_length(2, "[q, r] or [x, y]")]
"""A map cell: axial hex coordinates or yards on open ground."""

_Box = Annotated[int, Field(ge=0, le=100)]
Boxes = Annotated[
    tuple[_Box, _Box, _Box, _Box, _Box],
    exact_length(5, "Scratch, Hurt, Very Hurt, Incapacitated, Near Death"),
]
"""Boxes per wound level (wounds-and-healing.md 6.2)."""


_MAX_SCALAR = 10**12


def _scalar(value: Any) -> Any:
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, int | float):
        if not abs(value) <= _MAX_SCALAR:  # also refuses nan
            raise ValueError(f"{value!r} is not a number from -10**12 to 10**12")
        return value
    if isinstance(value, str):
        if len(value) > 200:
            raise ValueError("is too long (at most 200 characters)")
        problem = control_problem(value)
        if problem is not None:
            raise ValueError(problem)
        return value
    raise ValueError(f"{value!r} is not a single value (expected text, a number, true/false)")


Scalar = Annotated[
    Any,
    BeforeValidator(_scalar),
    WithJsonSchema({"type": ["string", "number", "boolean", "null"]}),
]
"""One plain YAML value: text, number, boolean or null."""


def _identifier(what: str, example: str, dots: bool) -> AfterValidator:
    allowed = set("abcdefghijklmnopqrstuvwxyz0123456789_" + (".-" if dots else ""))

    def identifier(value: str) -> str:
        if not value or not value[0].isalpha() or not set(value) <= allowed:
            extra = ", . and -" if dots else ""
            raise ValueError(
                f"{value!r} is not a {what} (lower-case letters, digits and _{extra}; "
                f"e.g. {example})"
            )
        return value

    return AfterValidator(identifier)


class Record(BaseModel):
    """Frozen, strict-keyed base of every schema class; resolves catalogue references."""

    model_config = ConfigDict(
        frozen=True, extra="forbid", populate_by_name=False, allow_inf_nan=False
    )

    catalog_kind: ClassVar[str | None] = None

    @classmethod
    def __get_pydantic_json_schema__(
        cls, core_schema: CoreSchema, handler: GetJsonSchemaHandler
    ) -> JsonSchemaValue:
        """Catalogue kinds also accept a ``kind/name`` string, and a mapping with ``model:``
        needs no other field (the catalogue entry supplies them)."""
        schema = handler(core_schema)
        short = cls._string_form()
        if short is None:
            return schema
        if cls.catalog_kind is not None:
            handler.resolve_ref_schema(schema).pop("required", None)
        return {"anyOf": [{"type": "string", "description": short}, schema]}

    @classmethod
    def _string_form(cls) -> str | None:
        """What a plain string means where this model is expected (None: not allowed)."""
        if cls.catalog_kind is None:
            return None
        return f"Catalogue name, e.g. {cls.catalog_kind}/<name> (fadad catalog)."

    @model_validator(mode="before")
    @classmethod
    def _resolve(cls, data: Any, info: ValidationInfo) -> Any:
        if cls.catalog_kind is not None:
            data = _resolve_reference(cls.catalog_kind, data, info)
        return data

    @field_validator("*", mode="before")
    @classmethod
    def _no_truth_numbers(cls, value: Any, info: ValidationInfo) -> Any:
        """``count: true`` is not 1: a number field takes numbers only."""
        if value.__class__ is bool and info.field_name in _number_fields(cls):
            raise PydanticCustomError("int_type", "not a number")
        return value


@functools.cache
def _number_fields(cls: type[BaseModel]) -> frozenset[str]:
    """Fields of ``cls`` that hold a number (int or float, or None)."""
    return frozenset(
        name for name, field in cls.model_fields.items() if _is_number(field.annotation)
    )


def _is_number(tp: Any) -> bool:
    while get_origin(tp) is Annotated:
        tp = get_args(tp)[0]
    if get_origin(tp) in (Union, UnionType):
        return any(_is_number(m) for m in get_args(tp) if m is not type(None))
    return tp in (int, float)


def _resolve_reference(kind: str, data: Any, info: ValidationInfo) -> Any:
    """Replace a ``kind/name`` string or ``{model: ...}`` mapping by the catalogue entry."""
    where = "model"
    if isinstance(data, str):
        data, where = {"model": data}, ""
    if not isinstance(data, dict) or "model" not in data or data["model"] is None:
        return data
    ref = data["model"]
    if not isinstance(ref, str):
        raise PydanticCustomError(
            "bad_reference",
            "model: {value} is not a catalogue name (expected '{kind}/<name>')",
            {"where": where, "value": repr(ref), "kind": kind},
        )
    catalog = (info.context or {}).get("catalog") or default_catalog()
    try:
        full, entry = catalog.resolved(ref, kind)
    except CatalogError as exc:
        raise PydanticCustomError(
            "bad_reference", "{msg}", {"where": where, "msg": str(exc)}
        ) from None
    merged = dict(entry)
    merged.update({k: v for k, v in data.items() if k != "model"})
    merged["model"] = full
    return merged


_PolicyName = Annotated[str, Field(max_length=60), _identifier("policy name", "focus_fire", True)]
_ParamName = Annotated[str, Field(max_length=60), _identifier("parameter name", "fraction", False)]
_DecisionName = Annotated[
    str, Field(max_length=60), _identifier("decision name", "targeting", False)
]


class PolicyRef(Record):
    """A policy chosen by registry name with parameters, never by import path.

    YAML: ``targeting: nearest`` or ``targeting: {name: focus_fire, params: {k: 2}}``.
    """

    name: _PolicyName = Field(description="Registry name.")
    params: dict[_ParamName, Scalar] = Field(
        default_factory=dict, max_length=32, description="Keyword arguments for the policy factory."
    )

    @classmethod
    def _string_form(cls) -> str | None:
        return "Policy name with default parameters."

    @model_validator(mode="before")
    @classmethod
    def _from_name(cls, data: Any) -> Any:
        return {"name": data} if isinstance(data, str) else data


Policies = Annotated[
    dict[_DecisionName, PolicyRef],
    Field(
        default_factory=dict,
        max_length=32,
        description="Decision (targeting, defence, reload, morale, maneuver, boarding, "
        "retreat, surrender ...) -> policy.",
    ),
]
"""Policies keyed by the decision they make."""
