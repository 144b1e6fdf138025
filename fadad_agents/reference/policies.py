"""Every registered policy with its parameters, read from the policy registry.

A decision is named as the registry names it (``targeting``, ``gunnery`` for a ship's
guns) or as a scenario writes it (``defence``, ``surrender``); plug-in policies registered
through entry points are listed as the built-ins are.

>>> names = [p.name for p in policy_docs("multi_attack")]
>>> names
['all_in', 'fixed', 'single']
"""

from __future__ import annotations

from dataclasses import dataclass

import fadad_agents.policies as policies
from fadad_agents.policies.core.policy_set import ALIASES, GROUP_DEFAULTS
from fadad_agents.policies.fae.defaults import FAE_DEFAULTS
from fadad_agents.policies.ships.registry import SHIP_ALIASES, SHIP_DEFAULTS, SHIP_REGISTRY_KINDS
from fadad_agents.reference.text import not_found, type_text, value_text

__all__ = ["ParamDoc", "PolicyDoc", "decision_kinds", "policy_docs"]

_REGISTRY = policies.REGISTRY


@dataclass(frozen=True, slots=True)
class ParamDoc:
    """One parameter of a policy: name, type, default (``required`` if none)."""

    name: str
    type: str
    default: str


@dataclass(frozen=True, slots=True)
class PolicyDoc:
    """One registered policy.

    Attributes:
        kind: the registry's decision kind (``gunnery``).
        label: how messages and scenarios name the decision (``ship targeting``).
        name: the policy's registry name.
        summary: the first line of its docstring.
        params: its parameters.
        default: what the default is (``characters``, ``crews and units``, ``ships``,
            ``Fae combatants``), or empty when it is not a default.
    """

    kind: str
    label: str
    name: str
    summary: str
    params: tuple[ParamDoc, ...]
    default: str


def _defaults() -> dict[tuple[str, str], str]:
    marks: dict[tuple[str, str], list[str]] = {}
    for kind, name in policies.INDIVIDUAL_DEFAULTS.items():
        marks.setdefault((kind, name), []).append("characters")
    for kind, name in GROUP_DEFAULTS.items():
        marks.setdefault((kind, name), []).append("crews and units")
    for decision, name in SHIP_DEFAULTS.items():
        marks.setdefault((SHIP_REGISTRY_KINDS[decision], name), []).append("ships")
    for kind, name in FAE_DEFAULTS.items():
        marks.setdefault((kind, name), []).append("Fae combatants")
    return {key: ", ".join(dict.fromkeys(who)) for key, who in marks.items()}


def decision_kinds() -> dict[str, str]:
    """Every decision kind with the label scenarios and messages give it."""
    return {kind: _REGISTRY.label(kind) for kind in _REGISTRY.kinds}


def _kinds(decision: str) -> list[str]:
    """The registry kinds a decision name stands for: ``surrender`` is a character's
    ``retreat`` and a ship's ``colours``; ``targeting`` is also a ship's ``gunnery``."""
    kinds = decision_kinds()
    found = [decision] if decision in kinds else []
    found += [kind for kind, label in kinds.items() if label == decision]
    if decision in ALIASES:
        found.append(ALIASES[decision])
    ship = SHIP_ALIASES.get(decision, decision)
    if ship in SHIP_REGISTRY_KINDS:
        found.append(SHIP_REGISTRY_KINDS[ship])
    if found:
        return list(dict.fromkeys(found))
    raise not_found("a decision", decision, [*kinds, *ALIASES, *SHIP_ALIASES], "fadad policies")


def _params(kind: str, name: str) -> tuple[ParamDoc, ...]:
    model = _REGISTRY.spec(kind, name).params
    return tuple(
        ParamDoc(
            pname,
            type_text(info.annotation),
            "required" if info.is_required() else value_text(info.default),
        )
        for pname, info in model.model_fields.items()
    )


def policy_docs(decision: str | None = None) -> list[PolicyDoc]:
    """Every policy of every decision kind, or of one (by kind, label or alias).

    Raises:
        NotInReference: an unknown decision (with the nearest names).
    """
    kinds = decision_kinds()
    chosen = list(kinds) if not decision else _kinds(decision)
    defaults = _defaults()
    return [
        PolicyDoc(
            kind,
            kinds[kind],
            name,
            _REGISTRY.spec(kind, name).summary,
            _params(kind, name),
            defaults.get((kind, name), ""),
        )
        for kind in chosen
        for name in _REGISTRY.names(kind)
    ]
