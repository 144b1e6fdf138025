"""Policies: one ``typing.Protocol`` per decision, defaults, a registry by name (DESIGN.md).

Scenarios choose policies by name and params; plug-ins register through the entry-point
group ``fadad_agents.policies`` (see :mod:`fadad_agents.policies.core.registry`). Importing this
package registers every built-in (personal, Fae Domains and ship), so the registry lists
every name from the start.
"""

# Imported for their registrations: the Fae and ship kinds and their built-in policies.
import fadad_agents.policies.fae.defaults
import fadad_agents.policies.ships.defaults  # noqa: F401
from fadad_agents.policies.core.policy_set import (
    GROUP_DEFAULTS,
    INDIVIDUAL_DEFAULTS,
    PolicySet,
    build_policy_set,
)
from fadad_agents.policies.core.protocols import (
    KINDS,
    BattleView,
    CombatantView,
    FirstAidPolicy,
    MoraleChoice,
    MoralePolicy,
    MultiAttackPolicy,
    RetreatPolicy,
    Stance,
    StancePolicy,
    TargetingPolicy,
)
from fadad_agents.policies.core.registry import (
    ENTRY_POINT_GROUP,
    REGISTRY,
    PolicyError,
    PolicyRegistry,
    make_policy,
    register,
)

__all__ = [
    "ENTRY_POINT_GROUP",
    "GROUP_DEFAULTS",
    "INDIVIDUAL_DEFAULTS",
    "KINDS",
    "REGISTRY",
    "BattleView",
    "CombatantView",
    "FirstAidPolicy",
    "MoraleChoice",
    "MoralePolicy",
    "MultiAttackPolicy",
    "PolicyError",
    "PolicyRegistry",
    "PolicySet",
    "RetreatPolicy",
    "Stance",
    "StancePolicy",
    "TargetingPolicy",
    "build_policy_set",
    "make_policy",
    "register",
]
