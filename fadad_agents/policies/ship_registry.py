"""Ship policies by name: a registry of the ship decision kinds and the per-ship set.

Scenarios pick ship policies by name and parameters, on the side and on the ship, as for
personal policies (:mod:`fadad_agents.policies.registry`). The decision keys shared with
personal combat are read by both: a side's ``targeting: nearest_ship`` aims the guns of
its ships and is also a personal targeting policy of its crews (registered in both
registries by :mod:`fadad_agents.policies.ship_defaults`); ``surrender`` is the ship's
``colours`` decision here and ``retreat`` for the crews.
"""

from __future__ import annotations

import inspect
import typing
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from importlib.metadata import entry_points
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError, create_model

from fadad_agents.policies.protocols import KINDS
from fadad_agents.policies.registry import REGISTRY, PolicyError
from fadad_agents.policies.ship_protocols import (
    SHIP_KINDS,
    BoardingPolicy,
    ColoursPolicy,
    EvasionPolicy,
    FirefightingPolicy,
    GunneryPolicy,
    ManeuverPolicy,
    PursuitPolicy,
    ReloadPolicy,
)

__all__ = [
    "SHIP_ALIASES",
    "SHIP_DEFAULTS",
    "SHIP_ENTRY_POINT_GROUP",
    "SHIP_REGISTRY",
    "ShipPolicyRegistry",
    "ShipPolicySet",
    "build_ship_policies",
]

SHIP_ALIASES: dict[str, str] = {"surrender": "colours", "gunnery": "targeting", "crew": "reload"}
"""Other names scenario writers use for a ship decision."""

PERSONAL_ONLY = frozenset(KINDS) | {"defence", "multiattack", "helm"}
"""Keys a ship skips (personal decisions of the crews aboard)."""


def _params_model(name: str, factory: Callable[..., Any]) -> type[BaseModel]:
    target = factory.__init__ if inspect.isclass(factory) else factory
    hints = typing.get_type_hints(target)
    fields: dict[str, Any] = {}
    for pname, param in inspect.signature(factory).parameters.items():
        if param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD):
            continue
        default = ... if param.default is param.empty else param.default
        fields[pname] = (hints.get(pname, Any), default)
    return create_model(
        f"ship_{name}_params".replace("-", "_"),
        __config__=ConfigDict(extra="forbid", frozen=True),
        **fields,
    )


SHIP_ENTRY_POINT_GROUP = "fadad_agents.ship_policies"
"""Plug-ins register ship policies here: each entry point names ``register(registry)``."""


class ShipPolicyRegistry:
    """Factories by (ship decision kind, name), parameters validated at the boundary.

    Third-party ship policies register through the entry-point group
    :data:`SHIP_ENTRY_POINT_GROUP` (loaded the first time a name is not found)::

        [project.entry-points."fadad_agents.ship_policies"]
        corsair = "my_pkg.ships:register"   # def register(registry): registry.register(...)
    """

    __slots__ = ("_loaded", "_params", "_specs")

    def __init__(self) -> None:
        self._specs: dict[tuple[str, str], Callable[..., Any]] = {}
        self._params: dict[tuple[str, str], type[BaseModel]] = {}
        self._loaded = False

    def load_entry_points(self) -> None:
        """Import every plug-in of the ship entry-point group (once)."""
        if self._loaded:
            return
        self._loaded = True
        for ep in sorted(entry_points(group=SHIP_ENTRY_POINT_GROUP), key=lambda e: e.name):
            try:
                ep.load()(self)
            except Exception as exc:
                raise PolicyError(
                    f"entry point {ep.name} ({ep.value})", f"plug-in failed to load: {exc}"
                ) from exc

    def register(self, kind: str, name: str, factory: Callable[..., Any]) -> None:
        """Register ``factory`` as ``kind/name`` (later registrations replace earlier)."""
        if kind not in SHIP_KINDS:
            raise PolicyError(kind, f"unknown ship decision; known: {', '.join(SHIP_KINDS)}")
        self._specs[(kind, name)] = factory
        self._params[(kind, name)] = _params_model(f"{kind}_{name}", factory)

    def names(self, kind: str) -> list[str]:
        """Registered names of one ship decision kind, sorted."""
        _builtins()
        return sorted(n for k, n in self._specs if k == kind)

    def create(
        self, kind: str, name: str, params: Mapping[str, Any] | None = None, *, field: str = ""
    ) -> Any:
        """Validate ``params`` and build the policy; errors name the scenario field."""
        where = field or f"policies.{kind}"
        _builtins()
        factory = self._specs.get((kind, name))
        if factory is None:
            self.load_entry_points()
            factory = self._specs.get((kind, name))
        if factory is None:
            known = ", ".join(self.names(kind))
            raise PolicyError(
                f"{where}.name", f"unknown ship {kind} policy {name!r}; known: {known}"
            )
        model = self._params[(kind, name)]
        try:
            checked = model.model_validate(dict(params or {}))
        except ValidationError as exc:
            err = exc.errors()[0]
            loc = ".".join(str(p) for p in err["loc"])
            raise PolicyError(
                f"{where}.params.{loc}" if loc else f"{where}.params",
                f"{err['msg']} (policy {name!r} takes: {', '.join(model.model_fields) or 'none'})",
            ) from None
        try:
            return factory(**checked.model_dump())
        except ValueError as exc:
            raise PolicyError(f"{where}.params", str(exc)) from None


def _builtins() -> None:
    """Register the built-in ship policies (a deferred import: they import this module)."""
    import fadad_agents.policies.ship_defaults  # noqa: F401


SHIP_REGISTRY = ShipPolicyRegistry()
"""The process-wide registry ships build their policies from."""

SHIP_DEFAULTS: dict[str, str] = {
    "maneuver": "close_and_board",
    "targeting": "nearest_ship",
    "reload": "guns_first",
    "firefighting": "all_hands",
    "boarding": "board_when_grappled",
    "colours": "sj_morale",
    "evasion": "run_when_clear",
    "pursuit": "pursue",
}
"""Defaults: close and board, shoot the nearest ship, man the guns, fight every fire."""


@dataclass(frozen=True, slots=True)
class ShipPolicySet:
    """One policy per ship decision."""

    maneuver: ManeuverPolicy
    targeting: GunneryPolicy
    reload: ReloadPolicy
    firefighting: FirefightingPolicy
    boarding: BoardingPolicy
    colours: ColoursPolicy
    evasion: EvasionPolicy
    pursuit: PursuitPolicy


def _ref(value: Any) -> tuple[str, Mapping[str, Any]]:
    if isinstance(value, str):
        return value, {}
    if isinstance(value, Mapping):
        return str(value.get("name")), dict(value.get("params") or {})
    return str(value.name), dict(value.params)


def build_ship_policies(
    layers: Sequence[tuple[str, Mapping[str, Any]]],
    defaults: Mapping[str, str] = SHIP_DEFAULTS,
) -> ShipPolicySet:
    """Merge policy layers (later wins) over ``defaults`` and build every ship policy.

    Keys of personal decisions (``stance``, ``morale`` ...) are the crews' and skipped.

    Raises:
        PolicyError: an unknown decision or policy name, or bad params, naming the field.
    """
    _builtins()
    chosen: dict[str, tuple[str, str, Mapping[str, Any]]] = {
        kind: (f"defaults.{kind}", name, {}) for kind, name in defaults.items()
    }
    for path, mapping in layers:
        for key, value in mapping.items():
            kind = SHIP_ALIASES.get(key, key)
            if kind not in SHIP_KINDS:
                if key in PERSONAL_ONLY:
                    continue
                known = ", ".join([*SHIP_KINDS, *SHIP_ALIASES, *sorted(PERSONAL_ONLY)])
                raise PolicyError(f"{path}.{key}", f"unknown decision {key!r}; known: {known}")
            name, params = _ref(value)
            personal = name not in SHIP_REGISTRY.names(kind) and name in REGISTRY.names(kind)
            if kind == "targeting" and personal:
                continue  # a personal targeting policy for the crews aboard
            chosen[kind] = (f"{path}.{key}", name, params)
    built = {
        kind: SHIP_REGISTRY.create(kind, name, params, field=field)
        for kind, (field, name, params) in chosen.items()
    }
    return ShipPolicySet(**built)
