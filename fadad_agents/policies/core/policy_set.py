"""The built-in policy names, and the :class:`PolicySet` one agent decides with.

A scenario sets policies per side and overrides them per force (``schema.PolicyRef``:
a name and scalar params). :func:`build_policy_set` merges the layers, fills the
defaults, validates everything through the registry and returns one frozen set.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from fadad_agents.policies.core.aims import (
    CalledShot,
    PlainBlows,
    PulledPunches,
    StunBlows,
    WeaponArmWhenAhead,
)
from fadad_agents.policies.core.defaults import (
    AllOutAttack,
    AllOutDefenceWhenHurt,
    AlwaysAttack,
    CasualtyMorale,
    DuelTargeting,
    FixedAttacks,
    FixedTargeting,
    HoldGround,
    KeepPoints,
    NearDeathFirstAid,
    NearestTargeting,
    NoFirstAid,
    NoMorale,
    RandomTargeting,
    SaveFromDeath,
    SaveFromDeathOnly,
    SideLossRetreat,
    StayBack,
    StickyTargeting,
    StrongestTargeting,
    TableMorale,
    WeakestTargeting,
    WoundRetreat,
)
from fadad_agents.policies.core.movement import CloseIn, Flee, Guard, HoldLine, Kite
from fadad_agents.policies.core.protocols import (
    AimPolicy,
    FirstAidPolicy,
    ItePointPolicy,
    MoraleChoice,
    MoralePolicy,
    MovementPolicy,
    MultiAttackPolicy,
    RetreatPolicy,
    Stance,
    StancePolicy,
    TargetingPolicy,
)
from fadad_agents.policies.core.registry import REGISTRY, PolicyError, policy_ref
from fadad_agents.policies.core.rules import RulesRetreat, RulesStance, RulesTargeting

__all__ = [
    "ALIASES",
    "GROUP_DEFAULTS",
    "INDIVIDUAL_DEFAULTS",
    "MISSILE_DEFAULTS",
    "PolicySet",
    "build_policy_set",
]


def _single() -> FixedAttacks:
    """One attack a round; the rest of the action budget defends (the FADAD example)."""
    return FixedAttacks(1)


def _all_in() -> FixedAttacks:
    """Every action attacks; incoming blows meet only the Target (A-07)."""
    return FixedAttacks(1_000)


def _casualties(at: str = "25%, 50%", on_break: str = "withdraw") -> CasualtyMorale:
    """Check morale as losses cross each threshold in ``at``; a broken group withdraws
    or surrenders."""
    try:
        levels = tuple(float(p.strip().rstrip("%")) / 100 for p in at.split(",") if p.strip())
    except ValueError:
        raise ValueError(f"at: {at!r} must list percentages like '25%, 50%'") from None
    return CasualtyMorale(levels, on_break)


def _break_at_losses(fraction: float = 0.5, on_break: str = "withdraw") -> CasualtyMorale:
    """Check morale once losses reach ``fraction`` of the group (a lone fighter: its side)."""
    return CasualtyMorale((fraction,), on_break)


_BUILTINS: tuple[tuple[str, str, Any], ...] = (
    ("targeting", "sticky", StickyTargeting),
    ("targeting", "random", RandomTargeting),
    ("targeting", "first", FixedTargeting),
    ("targeting", "weakest", WeakestTargeting),
    ("targeting", "strongest", StrongestTargeting),
    ("targeting", "rules", RulesTargeting),
    ("targeting", "nearest", NearestTargeting),
    ("targeting", "strongest_adjacent", StrongestTargeting),
    ("targeting", "stay_back", StayBack),
    ("targeting", "duel", DuelTargeting),
    ("stance", "attack", AlwaysAttack),
    ("stance", "parry", AlwaysAttack),
    ("stance", "block", AlwaysAttack),
    ("stance", "dodge", AlwaysAttack),
    ("stance", "defend_when_hurt", AllOutDefenceWhenHurt),
    ("stance", "all_out_attack", AllOutAttack),
    ("stance", "rules", RulesStance),
    ("multi_attack", "single", _single),
    ("multi_attack", "fixed", FixedAttacks),
    ("multi_attack", "all_in", _all_in),
    ("retreat", "hold", HoldGround),
    ("retreat", "wounded", WoundRetreat),
    ("retreat", "at_wound_level", WoundRetreat),
    ("retreat", "side_losses", SideLossRetreat),
    ("retreat", "rules", RulesRetreat),
    ("morale", "none", NoMorale),
    ("morale", "casualties", _casualties),
    ("morale", "break_at_losses", _break_at_losses),
    ("morale", "sj_crew_morale", _casualties),
    ("morale", "unit_morale", TableMorale),
    ("first_aid", "none", NoFirstAid),
    ("first_aid", "near_death", NearDeathFirstAid),
    ("ite_points", "save_from_death", SaveFromDeath),
    ("ite_points", "save_from_death_only", SaveFromDeathOnly),
    ("ite_points", "keep", KeepPoints),
    ("movement", "close", CloseIn),
    ("movement", "hold", HoldLine),
    ("movement", "kite", Kite),
    ("movement", "guard", Guard),
    ("movement", "flee", Flee),
    ("aim", "plain", PlainBlows),
    ("aim", "called", CalledShot),
    ("aim", "stun", StunBlows),
    ("aim", "pull_punches", PulledPunches),
    ("aim", "weapon_arm_when_ahead", WeaponArmWhenAhead),
)
for _kind, _name, _factory in _BUILTINS:
    REGISTRY.register(_kind, _name, _factory, replace=True, stateless=True)

INDIVIDUAL_DEFAULTS: dict[str, str] = {
    "targeting": "sticky",
    "stance": "attack",
    "multi_attack": "single",
    "retreat": "hold",
    "morale": "none",
    "first_aid": "none",
    "ite_points": "save_from_death",
    "movement": "close",
    "aim": "plain",
}
"""Defaults for characters: close with the target, fight to the end, one attack and one
defence a round; a player character spends an Ité point rather than die."""

MISSILE_DEFAULTS: dict[str, str] = {**INDIVIDUAL_DEFAULTS, "movement": "kite"}
"""Defaults for characters with a missile weapon: keep their distance and shoot."""

GROUP_DEFAULTS: dict[str, str] = {
    **INDIVIDUAL_DEFAULTS,
    "morale": "casualties",
    "movement": "hold",
}
"""Defaults for crews and units: morale checks at 25% and 50% losses (SJ 18)."""

ALIASES: dict[str, str] = {
    "defence": "stance",
    "surrender": "retreat",
    "multiattack": "multi_attack",
}
"""Other names scenario writers use for a decision kind."""


@dataclass(frozen=True, slots=True)
class PolicySet:
    """One policy per decision kind."""

    targeting: TargetingPolicy
    stance: StancePolicy
    multi_attack: MultiAttackPolicy
    retreat: RetreatPolicy
    morale: MoralePolicy
    first_aid: FirstAidPolicy
    ite_points: ItePointPolicy
    movement: MovementPolicy
    aim: AimPolicy
    shareable: bool = False
    """Every policy is stateless: the set may serve many agents and battles."""
    holds: bool = field(init=False)
    """The retreat policy always holds (its ``constant``): no call needed."""
    always_attacks: bool = field(init=False)
    """The stance policy always attacks (its ``constant``): no call needed."""
    attack_count: int = field(init=False)
    """The multi-attack policy's constant count, or 0: ask it each round."""
    closes: bool = field(init=False)
    """The movement policy never moves a fighter in contact with its target
    (``still_in_contact``): no call needed then."""
    aim_now: Any = field(init=False)
    """The aim policy's constant :class:`~fadad_agents.policies.core.protocols.Aim`, or
    None: ask it each round."""
    keeps_target: bool = field(init=False)
    """The targeting policy keeps a target that still fights (its ``keeps_target``): asked
    only for a new one."""
    random_in_reach: bool = field(init=False)
    """The targeting policy's new target is a random foe in reach, drawn on the actor's
    targeting stream, else the nearest (its ``random_in_reach``): the plain melee round
    (``agents.core.plain.round``) draws it without the call."""

    def __post_init__(self) -> None:
        retreat = getattr(self.retreat, "constant", None)
        stance = getattr(self.stance, "constant", None)
        count = getattr(self.multi_attack, "constant", None)
        object.__setattr__(self, "holds", retreat is MoraleChoice.HOLD)
        object.__setattr__(self, "always_attacks", stance is Stance.ATTACK)
        object.__setattr__(self, "attack_count", count if isinstance(count, int) else 0)
        closes = getattr(self.movement, "still_in_contact", False) is True
        object.__setattr__(self, "closes", closes)
        object.__setattr__(self, "aim_now", getattr(self.aim, "constant", None))
        keeps = getattr(self.targeting, "keeps_target", False) is True
        object.__setattr__(self, "keeps_target", keeps)
        # the class's own mark: a subclass choosing otherwise does not inherit it
        drawn = vars(type(self.targeting)).get("random_in_reach") is True
        object.__setattr__(self, "random_in_reach", drawn)


def build_policy_set(
    layers: Sequence[tuple[str, Mapping[str, Any]]],
    defaults: Mapping[str, str] = INDIVIDUAL_DEFAULTS,
    *,
    ignore: frozenset[str] = frozenset(),
) -> PolicySet:
    """Merge policy layers (later wins) over ``defaults`` and build every policy.

    Args:
        layers: ``(field_path, {decision: PolicyRef | name | {name, params}})``, e.g.
            ``("sides.0.policies", side.policies)`` then the force's own.
        defaults: policy name per decision when no layer sets it.
        ignore: decision keys other subsystems own (``reload``, ``maneuver`` ...): skipped.

    Raises:
        PolicyError: an unknown decision or policy name, or bad params, naming the field.
    """
    chosen: dict[str, tuple[str, str, Mapping[str, Any]]] = {
        kind: (f"defaults.{kind}", name, {}) for kind, name in defaults.items()
    }
    for path, mapping in layers:
        for key, value in mapping.items():
            kind = ALIASES.get(key, key)
            if kind not in REGISTRY.kinds:
                if key in ignore:
                    continue
                known = ", ".join([*REGISTRY.kinds, *ALIASES])
                raise PolicyError(f"{path}.{key}", f"unknown decision {key!r}; known: {known}")
            if kind not in PolicySet.__dataclass_fields__:  # a decision of another subsystem
                if key in ignore:
                    continue
                raise PolicyError(
                    f"{path}.{key}", f"decision {key!r} does not apply to this kind of force"
                )
            name, params = policy_ref(value)
            chosen[kind] = (f"{path}.{key}", name, params)
    built = {
        kind: REGISTRY.create(kind, name, params, field=field)
        for kind, (field, name, params) in chosen.items()
    }
    shareable = all(REGISTRY.spec(kind, name).stateless for kind, (_, name, _) in chosen.items())
    return PolicySet(**built, shareable=shareable)
