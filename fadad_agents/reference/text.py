"""How the reference writes types, values and suggestions, shared by every page."""

from __future__ import annotations

import types
from collections.abc import Iterable, Mapping
from typing import Annotated, Any, Literal, TypeAliasType, Union, get_args, get_origin

from pydantic import BaseModel

from fadad_agents.rules.core import ladder
from fadad_agents.schema.suggest import nearest

__all__ = ["NotInReference", "is_ladder", "not_found", "type_text", "value_text"]


class NotInReference(ValueError):
    """An unknown option prefix, decision, catalogue entry or field kind."""


def not_found(what: str, word: str, pool: Iterable[str], command: str) -> NotInReference:
    """``'fadd' is not <what> (did you mean fadad?)``, or pointing at ``command``."""
    close = nearest(word, sorted(set(pool)))
    hint = f"did you mean {' or '.join(close)}?" if close else f"see `{command}`"
    return NotInReference(f"{word!r} is not {what} ({hint})")


def is_ladder(metadata: Iterable[Any]) -> bool:
    """Whether a field's metadata makes it a trait-ladder level (``schema.base.Ladder``)."""
    return any(
        getattr(getattr(m, "func", None), "__name__", "") == "_ladder_value" for m in metadata
    )


def value_text(value: Any, *, as_ladder: bool = False) -> str:
    """A value as YAML writes it: ``true``, ``[1, 2]``, ``null``; ladder levels as words."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if as_ladder and isinstance(value, int):
        return ladder.label(value)
    if isinstance(value, tuple | list):
        return "[" + ", ".join(value_text(v, as_ladder=as_ladder) for v in value) + "]"
    if isinstance(value, dict):
        inner = ", ".join(f"{k}: {value_text(v, as_ladder=as_ladder)}" for k, v in value.items())
        return "{" + inner + "}"
    return str(value)


def type_text(annotation: Any, blocks: Mapping[type, str] | None = None) -> str:
    """A field type as a scenario writer reads it (``rolled | static``, ``whole number``);
    ``blocks`` names schema classes (``{MapSpec: "map"}`` writes ``map block``)."""
    blocks = blocks or {}

    def inner(a: Any) -> str:
        return type_text(a, blocks)

    if isinstance(annotation, TypeAliasType):
        return inner(annotation.__value__)
    origin = get_origin(annotation)
    if origin is Annotated:
        base, *extras = get_args(annotation)
        return "ladder level" if is_ladder(extras) else inner(base)
    if origin is Literal:
        return " | ".join(value_text(v) for v in get_args(annotation))
    if origin in (Union, types.UnionType):
        parts = [inner(a) for a in get_args(annotation) if a is not type(None)]
        return " | ".join(parts) + (" | null" if type(None) in get_args(annotation) else "")
    if origin is tuple:
        args = get_args(annotation)
        if len(args) == 2 and args[1] is Ellipsis:
            return f"list of {inner(args[0])}"
        return "[" + ", ".join(type_text(a) for a in args) + "]"
    if origin in (list, set, frozenset):
        return f"list of {inner(get_args(annotation)[0])}"
    if origin is dict:
        key, value = get_args(annotation)
        return f"mapping {inner(key)} -> {inner(value)}"
    names = {bool: "true | false", int: "whole number", float: "number", str: "text"}
    if annotation in names:
        return names[annotation]
    if annotation is Any:
        return "any value"
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        kind = getattr(annotation, "catalog_kind", None)
        name = f"{blocks[annotation]} block" if annotation in blocks else annotation.__name__
        return f"{name} or {kind}/<name>" if kind else name
    return getattr(annotation, "__name__", str(annotation))
