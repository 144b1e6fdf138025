"""Load scenario and catalogue files; report every problem as one actionable line.

Files are read and parsed by :mod:`~fadad_agents.schema.source`: regular files within the
runner's size limit, plain YAML only, nothing in a file can import or run code. The loader
records the line of every node so a pydantic error location becomes
``file:line field.path: what is wrong (what is allowed)``::

    scenarios/duel.yaml:14 sides[0].forces[2].skill: 'Grate' is not a ladder level
    (Terrible..Legendary+N)

(one line). :class:`ScenarioError` (a ``ValueError``) carries the lines in ``problems``;
it is the one exception a bad scenario raises, from loading through ``run`` and ``sweep``
(:func:`problem_at` words the problems found later, such as an unknown policy, the same
way).

Public functions: :func:`load_scenario`, :func:`load_entry`, :func:`load_record`,
:func:`validate_path`, :func:`dump_scenario`, :func:`scenario_json_schema`,
:func:`problem_at`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from types import UnionType
from typing import Annotated, Any, Union, get_args, get_origin

import yaml
from pydantic import BaseModel, Tag, ValidationError

from fadad_agents.schema.base import FORCE_KINDS, Record
from fadad_agents.schema.catalog import KINDS, Catalog, CatalogError, default_catalog, gm_folders
from fadad_agents.schema.character import Creature
from fadad_agents.schema.equipment import Armour, Shield, ShipWeapon, Weapon
from fadad_agents.schema.fae import FaeGear
from fadad_agents.schema.forces import Crew, Ship, Unit
from fadad_agents.schema.limits import DEFAULT_LIMITS, Limits
from fadad_agents.schema.scenario import FORCE_CLASSES, Scenario
from fadad_agents.schema.source import (
    Loc,
    MarkedLoader,
    ScenarioError,
    field_path,
    is_text,
    one_line,
    parse_yaml,
    read_source,
    settled_stamp,
)
from fadad_agents.schema.suggest import did_you_mean, nearest
from fadad_agents.schema.tables import Table

__all__ = [
    "KIND_CLASSES",
    "MarkedLoader",
    "ScenarioError",
    "catalog_model",
    "dump_scenario",
    "expand_paths",
    "is_catalogue_entry",
    "load_entry",
    "load_record",
    "load_scenario",
    "parse_yaml",
    "problem_at",
    "scenario_json_schema",
    "validate_path",
]

KIND_CLASSES: dict[str, type[Record]] = {
    "weapons": Weapon,
    "armour": Armour,
    "shields": Shield,
    "big-weapons": ShipWeapon,
    "ships": Ship,
    "creatures": Creature,
    "crews": Crew,
    "units": Unit,
    "tables": Table,
    "fae": FaeGear,
}
"""Schema class of each catalogue folder."""

_MAX_INPUT = 40


def _validate[M: BaseModel](
    cls: type[M],
    data: Any,
    lines: dict[Loc, int],
    filename: str,
    catalog: Catalog | None,
    limits: Limits = DEFAULT_LIMITS,
) -> M:
    if data is None:
        need = ", ".join(n for n, f in cls.model_fields.items() if f.is_required())
        raise ScenarioError([f"{filename}:1 (document): the file is empty (needs {need})"])
    context = {"catalog": catalog or default_catalog(), "limits": limits}
    try:
        model = cls.model_validate(data, context=context)
    except ValidationError as exc:
        raise ScenarioError(_problems(exc, lines, filename, cls)) from None
    except RecursionError:
        raise ScenarioError([f"{filename}:1 (document): nested too deeply"]) from None
    if isinstance(model, Scenario):
        model.set_source(filename, lines)
    return model


def load_scenario(
    source: str | Path | Mapping[str, Any],
    *,
    catalog: Catalog | None = None,
    limits: Limits | None = None,
) -> Scenario:
    """Load a scenario from a path, YAML text or a mapping of its fields.

    Args:
        source: a path (``str`` or ``Path``), YAML text (a string with a line break or one
            ``{...}`` flow mapping), or the parsed mapping.
        catalog: the catalogue ``model:`` names resolve against (default: the shipped one).
        limits: how large a battle and file may be (default: :data:`DEFAULT_LIMITS`).

    Returns:
        the validated scenario; the same object again for the same file name, text and
        limits (with the shipped catalogue), so a loop over a file validates it once.

    Raises:
        ScenarioError: one ``file:line field.path: what is wrong (what is allowed)`` line
            per problem in ``problems``.
    """
    limits = limits or DEFAULT_LIMITS
    if isinstance(source, Mapping):
        catalog = catalog or _gm_catalog(None)
        return _validate(Scenario, dict(source), {}, "<mapping>", catalog, limits)
    if not isinstance(source, str | Path):
        raise ScenarioError(
            [
                f"<{type(source).__name__}>:1 (document): not a scenario (give a path, YAML text "
                "or a mapping)"
            ]
        )
    path = None if is_text(source) else str(source)
    stamp = None if path is None else settled_stamp(path)  # before the read: see _SETTLED
    if catalog is None:  # the GM's folders, if any (read afresh: not cached)
        catalog = _gm_catalog(path)
    if catalog is None and stamp is not None:
        known = _SETTLED.get((stamp, limits))
        if known is not None:
            return known
    text, filename = read_source(source, limits)
    key = (filename, text, limits)
    scenario = _LOADED.get(key) if catalog is None else None
    if scenario is None:
        data, lines = parse_yaml(text, filename)
        scenario = _validate(Scenario, data, lines, filename, catalog, limits)
    if catalog is None:
        _keep(_LOADED, key, scenario)
        if stamp is not None:
            _keep(_SETTLED, (stamp, limits), scenario)
    return scenario


def _keep[K](cache: dict[K, Scenario], key: K, scenario: Scenario) -> None:
    """Keep ``scenario`` under ``key`` in ``cache``, dropping the oldest past
    :data:`_LOADED_MAX`."""
    if key not in cache and len(cache) >= _LOADED_MAX:
        cache.pop(next(iter(cache)), None)
    cache[key] = scenario


def _gm_catalog(scenario: str | None) -> Catalog | None:
    """The built-in catalogue with the GM's folders over it, or None when there are none."""
    try:
        folders = gm_folders(scenario)
        return Catalog.merged(folders) if folders else None
    except (CatalogError, OSError) as exc:
        raise ScenarioError([str(exc)]) from None


_LOADED: dict[tuple[str, str, Limits], Scenario] = {}
"""Scenarios read from a file or text, by name, text and limits: a loop of
``run("fight.yaml", seed=s)`` reads the small file each time but validates it once, and
plays one Scenario object (the engine keeps its set-up per object). Scenarios are frozen,
so sharing one is safe; a file edited between runs is read afresh (its text differs)."""
_LOADED_MAX = 32

_SETTLED: dict[tuple[tuple[str, int, int, int, int, int], Limits], Scenario] = {}
"""The same scenarios by the ``stat`` of a settled file (:func:`~fadad_agents.schema.
source.settled_stamp`, taken before its read) and limits: a loop over an unchanged file
looks at it without opening it (a read is four system calls, half of a ``load``'s cost).
A file changed since its read has a newer stamp, so it is read again; a file changed in
the 2 s before a look is always read."""


def problem_at(scenario: Scenario, field: str, message: str) -> str:
    """A problem found after loading (an unknown policy, a force no engine plays) as the
    loader words one: ``file:line field.path: message``. ``field`` is dotted
    (``sides.0.forces.2.policies.targeting.name``)."""
    filename, lines = scenario.source
    loc = tuple(p for p in field.split(".") if p)
    return one_line(f"{filename}:{_line(loc, lines)} {field_path(loc)}: {message}")


def unknown_field_message(cls: type[BaseModel], key: str) -> str:
    """Why ``key`` is refused on ``cls``: the allowed fields and the nearest one, or, for a
    field that belongs to another kind of force, which ``kind:`` to set."""
    if "kind" in cls.model_fields:
        owners = [kind for kind, other in FORCE_CLASSES.items() if key in other.model_fields]
        if owners:
            return (
                f"'{key}' is not a field of {cls.__name__} (it is a field of "
                f"{', '.join(owners)}: set kind: {owners[0]})"
            )
    allowed = list(cls.model_fields)
    return (
        f"'{key}' is not a field of {cls.__name__} (allowed: {', '.join(allowed)})"
        f"{did_you_mean(key, allowed)}"
    )


def load_entry(source: str | Path, kind: str, *, catalog: Catalog | None = None) -> Record:
    """Load one catalogue entry of ``kind`` (``weapons``, ``ships`` ...) from a file or text."""
    if kind not in KIND_CLASSES:
        raise ScenarioError([f"{source}:1 (kind): {kind!r} is not one of {', '.join(KINDS)}"])
    text, filename = read_source(source, DEFAULT_LIMITS)
    data, lines = parse_yaml(text, filename)
    return _validate(KIND_CLASSES[kind], data, lines, filename, catalog)


def load_record[M: BaseModel](source: str | Path, cls: type[M]) -> M:
    """Load a file (or YAML/JSON text) of any schema class ``cls`` (a campaign's state file
    ...), its problems worded as a scenario's: ``file:line field.path: what is wrong``."""
    text, filename = read_source(source, DEFAULT_LIMITS)
    data, lines = parse_yaml(text, filename)
    return _validate(cls, data, lines, filename, None)


def catalog_model(ref: str, kind: str | None = None, *, catalog: Catalog | None = None) -> Any:
    """The validated model of catalogue entry ``ref`` (class by kind, see ``KIND_CLASSES``).

    >>> catalog_model("weapons/axe").name
    'Axe'
    """
    catalog = catalog or default_catalog()
    full = catalog.full_name(ref, kind)
    cls = KIND_CLASSES[full.split("/")[0]]
    return cls.model_validate({"model": full}, context={"catalog": catalog})


def is_catalogue_entry(path: str | Path) -> bool:
    """Whether ``path`` is a catalogue file (``models/<kind>/<name>.yaml``), not a scenario."""
    path = Path(path)
    return path.parent.name in KIND_CLASSES and path.parent.parent.name in ("models", "_models")


def validate_path(
    path: str | Path, *, catalog: Catalog | None = None, limits: Limits | None = None
) -> list[str]:
    """Problems of a scenario or catalogue file (a file in ``models/<kind>/`` is an entry)."""
    path = Path(path)
    try:
        if is_catalogue_entry(path):
            load_entry(path, path.parent.name, catalog=catalog)
        else:
            load_scenario(path, catalog=catalog, limits=limits)
    except ScenarioError as exc:
        return exc.problems
    return []


def expand_paths(paths: list[Path]) -> list[Path]:
    """Files to validate: each file as given, each folder's ``*.yaml``/``*.yml`` recursively."""
    out: list[Path] = []
    for path in paths:
        if path.is_dir():
            out.extend(sorted(p for p in path.rglob("*") if p.suffix in (".yaml", ".yml")))
        else:
            out.append(path)
    return out


def dump_scenario(scenario: Scenario) -> str:
    """YAML text that :func:`load_scenario` turns back into an equal scenario."""
    data = scenario.model_dump(mode="json")
    text = yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100)
    if yaml.safe_load(text) != data:  # PyYAML mangles NEL/LS/PS when writing raw unicode
        text = yaml.safe_dump(data, sort_keys=False, allow_unicode=False, width=100)
    return text


def scenario_json_schema() -> str:
    """JSON Schema of a scenario file, for editor completion."""
    schema = _any_of(Scenario.model_json_schema())
    # rules also take dotted keys (``fadad.initiative: static``), see Scenario._dotted_rules.
    schema["$defs"]["RulesOptions"]["patternProperties"] = {r"^[a-z_]+\.[a-z_0-9]+$": {}}
    return json.dumps(schema, indent=2, sort_keys=True)


def _any_of(node: Any) -> Any:
    """oneOf -> anyOf: a partial ``{name, model}`` force may match several kinds' schemas,
    the ``kind``/``model`` discriminator (not the schema) decides between them."""
    if isinstance(node, dict):
        return {("anyOf" if k == "oneOf" else k): _any_of(v) for k, v in node.items()}
    if isinstance(node, list):
        return [_any_of(v) for v in node]
    return node


def _problems(
    exc: ValidationError, lines: dict[Loc, int], filename: str, root: type[BaseModel]
) -> list[str]:
    found: list[tuple[int, str]] = []
    for err in _expand(exc.errors(include_url=False)):
        ctx: dict[str, Any] = dict(err.get("ctx") or {})
        loc = _clean_loc(err["loc"], str(ctx.get("where", "")))
        if err["type"] == "bad_kind":
            loc = (*loc, "kind")
        line = _line(loc, lines)
        if err["type"] == "extra_forbidden":
            owner = _model_at(root, err["loc"][:-1])
            key = str(err["loc"][-1])
            message = unknown_field_message(owner, key) if owner else f"'{key}' is not allowed"
        else:
            message = _message(err, ctx)
        text = f"{filename}:{line} {field_path(loc)}: {message}"
        if all(text != seen for _, seen in found):
            found.append((line, text))
    found.sort(key=lambda item: item[0])  # stable: same-line problems keep pydantic's order
    return [text for _, text in found]


def _expand(errors: list[Any]) -> list[Any]:
    """Split errors that carry further problems (``ctx["more"]``) into one error each."""
    out: list[Any] = []
    for err in errors:
        ctx = dict(err.get("ctx") or {})
        more = ctx.pop("more", None) or []
        out.append({**err, "ctx": ctx})
        for where, message in more:
            out.append({**err, "msg": message, "ctx": {"where": where, "msg": message}})
    return out


def _model_at(root: type[BaseModel], loc: tuple[int | str, ...]) -> type[BaseModel] | None:
    """The model class validating the node at a pydantic error ``loc`` (tags included)."""
    tp: Any = root
    i = 0
    while True:
        tp, tags = _unwrap(tp)
        if i < len(loc) and str(loc[i]) in tags:
            tp, i = tags[str(loc[i])], i + 1
            continue
        if i == len(loc):
            return tp if isinstance(tp, type) and issubclass(tp, BaseModel) else None
        part = loc[i]
        if isinstance(tp, type) and issubclass(tp, BaseModel):
            field = tp.model_fields.get(str(part))
            if field is None:
                return None
            tp = field.annotation
        elif get_origin(tp) in (list, tuple) and get_args(tp):
            tp = get_args(tp)[0]
        elif get_origin(tp) is dict:
            tp = get_args(tp)[1]
        else:
            return None
        i += 1


def _unwrap(tp: Any) -> tuple[Any, dict[str, Any]]:
    """Strip Annotated and Optional; a tagged union gives its members by tag."""
    while get_origin(tp) is Annotated:
        tp = get_args(tp)[0]
    if get_origin(tp) in (Union, UnionType):
        members = [m for m in get_args(tp) if m is not type(None)]
        tags: dict[str, Any] = {}
        for member in members:
            for meta in getattr(member, "__metadata__", ()):
                if isinstance(meta, Tag):
                    tags[meta.tag] = get_args(member)[0]
        if tags:
            return tp, tags
        if len(members) == 1:
            return _unwrap(members[0])
    return tp, {}


def _clean_loc(loc: tuple[int | str, ...], where: str) -> Loc:
    parts = [str(p) for p in loc if p != "[key]"]
    # Drop the discriminator tags pydantic inserts after a force's list index.
    kept = [
        p for i, p in enumerate(parts) if not (p in FORCE_KINDS and i and parts[i - 1].isdigit())
    ]
    if where:
        kept.extend(where.split("."))
    return tuple(kept)


def _line(loc: Loc, lines: dict[Loc, int]) -> int:
    """Line of the deepest written node on ``loc``; dotted keys (``fadad.x: 1``) match too."""
    best, depth = lines.get((), 1), 0
    frontier: list[tuple[Loc, int]] = [((), 0)]
    while frontier:
        path, used = frontier.pop()
        if path in lines and used >= depth:
            best, depth = lines[path], used
        for take in range(1, len(loc) - used + 1):
            candidate = (*path, ".".join(loc[used : used + take]))
            if candidate in lines:
                frontier.append((candidate, used + take))
    return best


def _short(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"  # as YAML writes it
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list) and len(repr(value)) > _MAX_INPUT:
        return f"a list of {len(value)} items"
    text = repr(value)
    return text if len(text) <= _MAX_INPUT else text[: _MAX_INPUT - 3] + "..."


_TYPE_WORDS = {
    "int_type": "a whole number",
    "int_parsing": "a whole number",
    "int_from_float": "a whole number",
    "float_type": "a number",
    "float_parsing": "a number",
    "bool_type": "true or false",
    "bool_parsing": "true or false",
    "string_type": "text",
    "list_type": "a list",
    "tuple_type": "a list",
    "dict_type": "a mapping",
    "model_type": "a mapping",
    "model_attributes_type": "a mapping",
    "none_required": "null",
}

_BOUNDS = {
    "greater_than_equal": ("too small", "minimum {ge}"),
    "greater_than": ("too small", "must be > {gt}"),
    "less_than_equal": ("too large", "maximum {le}"),
    "less_than": ("too large", "must be < {lt}"),
}


def _message(err: Any, ctx: dict[str, Any]) -> str:
    kind: str = err["type"]
    value = err.get("input")
    if kind == "missing":
        return "missing (this field is required)"
    if kind in _TYPE_WORDS:
        return f"{_short(value)} is not {_TYPE_WORDS[kind]} (expected {_TYPE_WORDS[kind]})"
    if kind in _BOUNDS:
        what, allowed = _BOUNDS[kind]
        return f"{_short(value)} is {what} ({allowed.format(**ctx)})"
    if kind == "literal_error":
        expected = str(ctx.get("expected", ""))
        words = [w.strip(" '") for w in expected.replace(" or ", ", ").split(",")]
        close = nearest(str(value), words, n=1)
        hint = f"; did you mean '{close[0]}'?" if close else ""
        return f"{_short(value)} is not allowed (allowed: {expected}){hint}"
    if kind == "bad_kind":
        tag = value.get("kind") if isinstance(value, dict) else value
        return f"{_short(tag)} is {err['msg']}"
    if kind in ("too_short", "too_long"):
        bound = "at least {min_length}" if kind == "too_short" else "at most {max_length}"
        count = ctx.get("actual_length")
        if count is None and hasattr(value, "__len__"):
            count = len(value)  # pydantic leaves it out for mappings
        return f"has {count} items (needs {bound.format(**ctx)})"
    if kind == "finite_number":
        return f"{_short(value)} is not a finite number (expected a number)"
    if kind == "string_too_short":
        return "must not be empty (write some text)"
    if kind == "string_too_long":
        return f"is too long (at most {ctx.get('max_length')} characters)"
    if kind == "string_pattern_mismatch":
        return f"{_short(value)} has the wrong form (must match {ctx.get('pattern')})"
    if kind == "value_error":
        return str(err["msg"]).removeprefix("Value error, ")
    return str(err["msg"])
