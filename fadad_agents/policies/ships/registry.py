"""Ship decisions in the one policy registry, and the per-ship :class:`ShipPolicySet`.

The ship decision kinds join :data:`~fadad_agents.policies.core.registry.REGISTRY` here, so
scenarios pick ship policies by name and parameters, on the side and on the ship, as for
personal policies, and plug-ins register them through the same entry-point group
``fadad_agents.policies`` (``registry.register("maneuver", "corsair", Corsair)``).

Scenario keys shared with personal combat are read by both: a side's ``targeting:
nearest_ship`` aims the guns of its ships (the registry kind ``gunnery``, since the kind
``targeting`` is the crews') and is also a personal targeting policy of its crews
(registered as both by :mod:`fadad_agents.policies.ships.defaults`); ``surrender`` is the
ship's ``colours`` decision here and ``retreat`` for the crews.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from fadad_agents.policies.core.protocols import KINDS
from fadad_agents.policies.core.registry import (
    REGISTRY,
    PolicyError,
    PolicyRegistry,
    PolicySpec,
    policy_ref,
)
from fadad_agents.policies.ships.protocols import (
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
    "SHIP_REGISTRY",
    "SHIP_REGISTRY_KINDS",
    "ShipDecisions",
    "ShipPolicySet",
    "build_ship_policies",
]

SHIP_ALIASES: dict[str, str] = {"surrender": "colours", "gunnery": "targeting", "crew": "reload"}
"""Other names scenario writers use for a ship decision."""

SHIP_REGISTRY_KINDS: dict[str, str] = {
    decision: "gunnery" if decision == "targeting" else decision for decision in SHIP_KINDS
}
"""The registry kind of each ship decision (ship targeting is ``gunnery``)."""

REGISTRY.add_kinds(
    {SHIP_REGISTRY_KINDS[d]: protocol for d, protocol in SHIP_KINDS.items()},
    labels={SHIP_REGISTRY_KINDS[d]: f"ship {d}" for d in SHIP_KINDS},
)


class ShipDecisions:
    """The ship decisions of a :class:`PolicyRegistry`, keyed as scenarios key them.

    Not a second registry: a view translating the ship decision (``targeting``) to its
    registry kind (``gunnery``); everything is stored in, and loaded by, ``registry``.
    """

    __slots__ = ("registry",)

    def __init__(self, registry: PolicyRegistry) -> None:
        self.registry = registry

    def register(
        self,
        decision: str,
        name: str,
        factory: Callable[..., Any],
        *,
        replace: bool = True,
        stateless: bool = False,
    ) -> PolicySpec:
        """Register ``factory`` for a ship decision (a later registration replaces);
        ``stateless`` as :meth:`PolicyRegistry.register` has it."""
        return self.registry.register(
            _kind(decision), name, factory, replace=replace, stateless=stateless
        )

    def names(self, decision: str) -> list[str]:
        """Registered names of one ship decision, sorted."""
        return self.registry.names(_kind(decision))

    def create(
        self,
        decision: str,
        name: str,
        params: Mapping[str, Any] | None = None,
        *,
        field: str = "",
    ) -> Any:
        """Validate ``params`` and build the policy; errors name the scenario field."""
        return self.registry.create(
            _kind(decision), name, params, field=field or f"policies.{decision}"
        )


def _kind(decision: str) -> str:
    kind = SHIP_REGISTRY_KINDS.get(SHIP_ALIASES.get(decision, decision))
    if kind is None:
        known = ", ".join(SHIP_KINDS)
        raise PolicyError(decision, f"unknown ship decision; known: {known}")
    return kind


SHIP_REGISTRY = ShipDecisions(REGISTRY)
"""The ship decisions of :data:`REGISTRY` (by decision name: ``targeting``, not ``gunnery``)."""

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
    shareable: bool = False
    """Every policy is stateless: the set may serve many battles (a recycled one)."""


def build_ship_policies(
    layers: Sequence[tuple[str, Mapping[str, Any]]],
    defaults: Mapping[str, str] = SHIP_DEFAULTS,
) -> ShipPolicySet:
    """Merge policy layers (later wins) over ``defaults`` and build every ship policy.

    Keys of personal decisions (``stance``, ``morale`` ...) are the crews' and skipped; so
    is a ``targeting`` name that only the crews know (``sticky``): the guns keep theirs.

    Raises:
        PolicyError: an unknown decision or policy name, or bad params, naming the field.
    """
    chosen: dict[str, tuple[str, str, Mapping[str, Any]]] = {
        decision: (f"defaults.{decision}", name, {}) for decision, name in defaults.items()
    }
    for path, mapping in layers:
        for key, value in mapping.items():
            decision = SHIP_ALIASES.get(key, key)
            if decision not in SHIP_KINDS:
                if key in _personal_only():
                    continue
                known = ", ".join([*SHIP_KINDS, *SHIP_ALIASES, *sorted(_personal_only())])
                raise PolicyError(f"{path}.{key}", f"unknown decision {key!r}; known: {known}")
            name, params = policy_ref(value)
            if decision == "targeting" and _crews_only(name):
                continue  # a personal targeting policy for the crews aboard
            chosen[decision] = (f"{path}.{key}", name, params)
    built = {
        decision: SHIP_REGISTRY.create(decision, name, params, field=field)
        for decision, (field, name, params) in chosen.items()
    }
    shareable = all(
        REGISTRY.spec(_kind(decision), name).stateless for decision, (_, name, _) in chosen.items()
    )
    return ShipPolicySet(**built, shareable=shareable)


def _crews_only(name: str) -> bool:
    """``name`` is a personal targeting policy and no gunnery one."""
    return name not in REGISTRY.names("gunnery") and name in REGISTRY.names("targeting")


def _personal_only() -> frozenset[str]:
    """Scenario keys a ship skips: personal and Fae decisions of the crews aboard."""
    ship = set(SHIP_KINDS) | set(SHIP_REGISTRY_KINDS.values()) | set(SHIP_ALIASES)
    others = {k for k in REGISTRY.kinds if k not in ship}
    return frozenset(others | set(KINDS) | {"defence", "multiattack", "helm"})
