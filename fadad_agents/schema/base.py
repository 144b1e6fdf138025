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
the int (``rules/ladder.py``).
"""

from __future__ import annotations

from typing import Annotated, Any, ClassVar

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    GetJsonSchemaHandler,
    ValidationInfo,
    WithJsonSchema,
    model_validator,
)
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import CoreSchema, PydanticCustomError

from fadad_agents.rules.core import ladder
from fadad_agents.schema.catalog import CatalogError, default_catalog

__all__ = [
    "FORCE_KINDS",
    "Boxes",
    "Ladder",
    "Name",
    "Policies",
    "PolicyRef",
    "Position",
    "Record",
    "Scalar",
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

Name = Annotated[str, Field(min_length=1, max_length=120)]
"""A non-empty display name."""


def exact_length(n: int, what: str) -> BeforeValidator:
    """Validator: a list must have exactly ``n`` items (one clear message, not n 'missing')."""

    def check(value: Any) -> Any:
        if isinstance(value, list | tuple) and len(value) != n:
            raise ValueError(f"has {len(value)} items (needs exactly {n}: {what})")
        return value

    return BeforeValidator(check)


Position = Annotated[tuple[int, int], exact_length(2, "[q, r] or [x, y]")]
"""A map cell: axial hex coordinates or yards on open ground."""

Boxes = Annotated[
    tuple[int, int, int, int, int],
    exact_length(5, "Scratch, Hurt, Very Hurt, Incapacitated, Near Death"),
]
"""Boxes per wound level (wounds-and-healing.md 6.2)."""


def _scalar(value: Any) -> Any:
    if value is None or isinstance(value, str | int | float | bool):
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

    def check(value: str) -> str:
        if not value or not value[0].isalpha() or not set(value) <= allowed:
            extra = ", . and -" if dots else ""
            raise ValueError(
                f"{value!r} is not a {what} (lower-case letters, digits and _{extra}; "
                f"e.g. {example})"
            )
        return value

    return AfterValidator(check)


class Record(BaseModel):
    """Frozen, strict-keyed base of every schema class; resolves catalogue references."""

    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=False)

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


class PolicyRef(Record):
    """A policy chosen by registry name with parameters, never by import path.

    YAML: ``targeting: nearest`` or ``targeting: {name: focus_fire, params: {k: 2}}``.
    """

    name: Annotated[str, _identifier("policy name", "focus_fire", dots=True)] = Field(
        description="Registry name."
    )
    params: dict[str, Scalar] = Field(
        default_factory=dict, description="Keyword arguments for the policy factory."
    )

    @classmethod
    def _string_form(cls) -> str | None:
        return "Policy name with default parameters."

    @model_validator(mode="before")
    @classmethod
    def _from_name(cls, data: Any) -> Any:
        return {"name": data} if isinstance(data, str) else data


Policies = Annotated[
    dict[
        Annotated[str, _identifier("decision name", "targeting", dots=False)],
        PolicyRef,
    ],
    Field(
        default_factory=dict,
        description="Decision (targeting, defence, reload, morale, maneuver, boarding, "
        "retreat, surrender ...) -> policy.",
    ),
]
"""Policies keyed by the decision they make."""
