"""The policy registry: decision kind + name -> validated factory.

Scenarios pick policies by name and parameters, never by import path (DESIGN.md). Every
factory's keyword parameters are turned into a pydantic model once, at registration, so a
scenario's ``params`` are validated at the boundary and the policy itself runs on plain
attributes. Third-party packages register through the entry-point group
``fadad_agents.policies``: each entry point names a callable taking the registry::

    # pyproject.toml of a plug-in
    [project.entry-points."fadad_agents.policies"]
    berserk = "my_pkg.policies:register"

    # my_pkg/policies.py
    def register(registry):
        registry.register("stance", "berserk", Berserk)

One registry holds every decision kind: the personal ones (``protocols.KINDS``), the ship
ones (:mod:`fadad_agents.policies.ships.registry`; ship targeting is the kind ``gunnery``)
and the Fae Domains ones (:mod:`fadad_agents.policies.fae.defaults`); each subsystem adds its kinds
with :meth:`PolicyRegistry.add_kinds`. Importing
:mod:`fadad_agents.policies` registers every built-in, so :meth:`PolicyRegistry.names` lists
them all from the start.

Unknown names and bad parameters raise :class:`PolicyError` (a ``ValueError``) whose
``field`` is the dotted scenario path (``sides.0.policies.targeting.params.reach``).
"""

from __future__ import annotations

import inspect
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from importlib.metadata import entry_points
from types import MappingProxyType
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError, create_model

from fadad_agents.policies.core.protocols import KINDS

__all__ = [
    "ENTRY_POINT_GROUP",
    "REGISTRY",
    "PolicyError",
    "PolicyRegistry",
    "PolicySpec",
    "make_policy",
    "policy_ref",
    "register",
]

ENTRY_POINT_GROUP = "fadad_agents.policies"


def policy_ref(value: Any) -> tuple[str, Mapping[str, Any]]:
    """(name, params) of a scenario's policy choice: a ``PolicyRef``, a mapping with
    ``name`` and ``params``, or a bare name."""
    if isinstance(value, str):
        return value, {}
    if isinstance(value, Mapping):
        return str(value.get("name")), dict(value.get("params") or {})
    return str(value.name), dict(value.params)


class PolicyError(ValueError):
    """An unknown policy or decision, or bad parameters; ``field`` is the scenario path."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.reason = message


@dataclass(frozen=True, slots=True)
class PolicySpec:
    """A registered policy: its kind, name, factory and parameter model."""

    kind: str
    name: str
    factory: Callable[..., Any]
    params: type[BaseModel]
    summary: str
    stateless: bool = False


def _params_model(kind: str, name: str, factory: Callable[..., Any]) -> type[BaseModel]:
    target = factory.__init__ if inspect.isclass(factory) else factory
    hints = typing.get_type_hints(target)
    fields: dict[str, Any] = {}
    for pname, param in inspect.signature(factory).parameters.items():
        if param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD):
            continue
        default = ... if param.default is param.empty else param.default
        fields[pname] = (hints.get(pname, Any), default)
    model_name = f"{kind}_{name}_params".replace(".", "_").replace("-", "_")
    return create_model(model_name, __config__=ConfigDict(extra="forbid", frozen=True), **fields)


def _qualname(cls: type) -> str:
    return f"{cls.__module__}.{cls.__qualname__}"


def _freeze(params: Mapping[str, Any] | None) -> tuple[tuple[str, Any], ...]:
    items = sorted((params or {}).items())
    return tuple(
        (k, v if isinstance(v, str | int | float | bool | None) else repr(v)) for k, v in items
    )


def _summary(factory: Callable[..., Any]) -> str:
    doc = inspect.getdoc(factory) or ""
    return doc.splitlines()[0] if doc else ""


class PolicyRegistry:
    """Factories by (decision kind, name), with entry-point plug-ins loaded on demand.

    Args:
        kinds: the decision kinds known from the start, each with the protocol its
            policies satisfy (default: the personal :data:`KINDS`).
    """

    __slots__ = ("_instances", "_kinds", "_labels", "_loaded", "_specs")

    def __init__(self, kinds: Mapping[str, type] | None = None) -> None:
        self._specs: dict[tuple[str, str], PolicySpec] = {}
        self._instances: dict[tuple[str, str, tuple[tuple[str, Any], ...]], Any] = {}
        self._kinds: dict[str, type] = dict(KINDS if kinds is None else kinds)
        self._labels: dict[str, str] = {}
        self._loaded = False

    @property
    def kinds(self) -> Mapping[str, type]:
        """Every decision kind, in the order added, with its protocol (read-only view)."""
        return MappingProxyType(self._kinds)

    def add_kinds(self, kinds: Mapping[str, type], labels: Mapping[str, str] | None = None) -> None:
        """Add decision kinds (a subsystem's protocols); ``labels`` name them in messages.

        Re-adding a kind with the same protocol (same qualified name) is a no-op.

        Raises:
            PolicyError: a kind already stands for another protocol.
        """
        for kind, protocol in kinds.items():
            known = self._kinds.get(kind)
            if known is not None and _qualname(known) != _qualname(protocol):
                raise PolicyError(kind, f"decision kind already taken by {known.__name__}")
            self._kinds[kind] = protocol
        self._labels.update(labels or {})

    def label(self, kind: str) -> str:
        """How messages name ``kind`` (``ship targeting`` for ``gunnery``)."""
        return self._labels.get(kind, kind)

    def register(
        self,
        kind: str,
        name: str,
        factory: Callable[..., Any],
        *,
        replace: bool = False,
        stateless: bool = False,
    ) -> PolicySpec:
        """Register ``factory`` (a class or function taking keyword params) as ``kind/name``.

        ``stateless=True`` promises the policy keeps nothing between calls (per-agent notes
        go in ``actor.memory``), so one instance per (name, params) may serve every agent
        and battle; otherwise each :meth:`create` builds a new one.
        """
        if kind not in self._kinds:
            raise PolicyError(kind, f"unknown decision kind; known: {', '.join(self._kinds)}")
        if (kind, name) in self._specs and not replace:
            raise PolicyError(f"{kind}.{name}", "already registered (pass replace=True)")
        params = _params_model(kind, name, factory)
        spec = PolicySpec(kind, name, factory, params, _summary(factory), stateless)
        self._specs[(kind, name)] = spec
        self._instances = {k: v for k, v in self._instances.items() if k[:2] != (kind, name)}
        return spec

    def load_entry_points(self) -> None:
        """Import every plug-in of the ``fadad_agents.policies`` entry-point group (once)."""
        if self._loaded:
            return
        self._loaded = True
        for ep in sorted(entry_points(group=ENTRY_POINT_GROUP), key=lambda e: e.name):
            try:
                hook = ep.load()
                hook(self)
            except Exception as exc:
                raise PolicyError(
                    f"entry point {ep.name} ({ep.value})", f"plug-in failed to load: {exc}"
                ) from exc

    def names(self, kind: str) -> list[str]:
        """Registered names of one decision kind, sorted."""
        self.load_entry_points()
        return sorted(n for k, n in self._specs if k == kind)

    def spec(self, kind: str, name: str, *, field: str = "") -> PolicySpec:
        """The spec of ``kind/name``; :class:`PolicyError` naming ``field`` if unknown."""
        where = field or f"policies.{kind}"
        if kind not in self._kinds:
            known = ", ".join(self._kinds)
            raise PolicyError(where, f"unknown decision {kind!r}; known: {known}")
        found = self._specs.get((kind, name))
        if found is None:
            self.load_entry_points()
            found = self._specs.get((kind, name))
        if found is None:
            known = ", ".join(self.names(kind))
            label = self.label(kind)
            raise PolicyError(f"{where}.name", f"unknown {label} policy {name!r}; known: {known}")
        return found

    def create(
        self, kind: str, name: str, params: Mapping[str, Any] | None = None, *, field: str = ""
    ) -> Any:
        """Validate ``params`` and build the policy; errors name the scenario field."""
        where = field or f"policies.{kind}"
        key = (kind, name, _freeze(params))
        shared = self._instances.get(key)
        if shared is not None:
            return shared
        spec = self.spec(kind, name, field=where)
        try:
            checked = spec.params.model_validate(dict(params or {}))
        except ValidationError as exc:
            err = exc.errors()[0]
            loc = ".".join(str(p) for p in err["loc"])
            allowed = ", ".join(spec.params.model_fields) or "none"
            raise PolicyError(
                f"{where}.params.{loc}" if loc else f"{where}.params",
                f"{err['msg']} (policy {name!r} takes: {allowed})",
            ) from None
        try:
            policy = spec.factory(**checked.model_dump())
        except ValueError as exc:
            raise PolicyError(f"{where}.params", str(exc)) from None
        if not isinstance(policy, self._kinds[kind]):
            label = self.label(kind)
            raise PolicyError(f"{where}.name", f"{name!r} does not implement the {label} decision")
        if spec.stateless:
            self._instances[key] = policy
        return policy


REGISTRY = PolicyRegistry()
"""The process-wide registry the engine builds scenario policies from."""


def register(kind: str, name: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Decorator form of :meth:`PolicyRegistry.register` on :data:`REGISTRY`."""

    def deco(factory: Callable[..., Any]) -> Callable[..., Any]:
        REGISTRY.register(kind, name, factory)
        return factory

    return deco


def make_policy(
    kind: str, name: str, params: Mapping[str, Any] | None = None, *, field: str = ""
) -> Any:
    """Build a policy from :data:`REGISTRY` (see :meth:`PolicyRegistry.create`)."""
    return REGISTRY.create(kind, name, params, field=field)
