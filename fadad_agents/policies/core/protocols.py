"""One ``typing.Protocol`` per decision an agent delegates, and the views they read.

DESIGN.md (Agents and policies): agents hold state and delegate every decision to their
policies. Policies sit below agents in the layering, so they see agents and the battle
only through the small read-only views defined here (:class:`CombatantView`,
:class:`BattleView`); the agent and engine classes satisfy them structurally.

Decisions (personal-combat.md section 1.2, mass-combat.md section 1.3):

* targeting: whom to attack (:class:`TargetingPolicy`);
* stance: attack, or spend every action on defence (:class:`StancePolicy`);
* multi-attack: how much of the action budget goes to attacks (:class:`MultiAttackPolicy`);
* retreat and surrender: leave the fight by choice (:class:`RetreatPolicy`);
* morale: when a group checks morale and what a broken group does (:class:`MoralePolicy`);
* first aid: whom to tend instead of fighting (:class:`FirstAidPolicy`);
* Ité points: whether a player character spends one on a deadly blow
  (:class:`ItePointPolicy`).
* movement: where to stand this round (:class:`MovementPolicy`, personal-combat.md 5).
* aim: how to strike: a called location, a stun blow, a pulled punch (:class:`AimPolicy`,
  personal-combat.md 4, wounds-and-healing.md 8).

A policy whose answer never depends on the situation may say so with an attribute
``constant`` holding that answer: ``HoldGround`` always holds,
``AlwaysAttack`` always attacks, ``FixedAttacks`` always asks for its count. The agent
may then use the answer without the call (:class:`~fadad_agents.policies.PolicySet`
reads it once); the outcome is the same either way.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Protocol, runtime_checkable

__all__ = [
    "KINDS",
    "PLAIN",
    "Aim",
    "AimPolicy",
    "BattleView",
    "CombatantView",
    "FirstAidPolicy",
    "ItePointPolicy",
    "MoraleChoice",
    "MoralePolicy",
    "Move",
    "MovementPolicy",
    "MultiAttackPolicy",
    "RetreatPolicy",
    "Stance",
    "StancePolicy",
    "TargetingPolicy",
]


class Stance(StrEnum):
    """What a combatant does with its actions this round."""

    ATTACK = "attack"
    ALL_OUT_ATTACK = "all_out_attack"
    """+1 to hit; no defence that round unless ``fadad.all_out_attack_defends``."""
    ALL_OUT_DEFENCE = "all_out_defence"


class MoraleChoice(StrEnum):
    """Stay in the fight, leave it, or give up."""

    HOLD = "hold"
    WITHDRAW = "withdraw"
    SURRENDER = "surrender"


@dataclass(frozen=True, slots=True)
class Aim:
    """How a fighter means its blows this round, announced before it rolls.

    Attributes:
        location: the body part of a called shot (``leg``, ``arm``, ``head``, ``eye``;
            personal-combat.md 4), or None for an ordinary blow.
        stun: a stun blow (flat of the blade, fists): figured normally, recorded on the
            stun track (wounds-and-healing.md 8).
        pulled_to: a pulled punch: the most the blow may do, a wound level (int), or None.
    """

    location: str | None = None
    stun: bool = False
    pulled_to: int | None = None


PLAIN = Aim()
"""An ordinary blow at full force, at no particular place."""


type Move = tuple[tuple[float, float], int]
"""Where a fighter heads this round (yards) and the most movement actions it spends."""


class CombatantView(Protocol):
    """What a policy may read about a combatant (agents satisfy this structurally)."""

    @property
    def name(self) -> str: ...
    @property
    def side(self) -> int: ...
    @property
    def wound(self) -> int:
        """Current wound level as an int (``rules.wounds.Wound``)."""
        ...

    @property
    def fighting(self) -> bool:
        """Still in the fight (not out, withdrawn, routed or surrendered)."""
        ...

    @property
    def headcount(self) -> int:
        """Members still standing (1 for an individual)."""
        ...

    @property
    def initial_headcount(self) -> int: ...
    @property
    def target(self) -> CombatantView | None: ...
    @property
    def position(self) -> tuple[float, float] | None:
        """Where it stands: yards on the field of a personal battle (a hex on a ship map);
        None where the battle has no field."""
        ...

    @property
    def memory(self) -> dict[str, Any]:
        """Per-agent notes a policy may keep between rounds (policies hold no agent state)."""
        ...


class BattleView(Protocol):
    """What a policy may read about the battle."""

    @property
    def round(self) -> int: ...
    def foes(self, side: int) -> Sequence[CombatantView]:
        """Active enemies of ``side`` (a live list: do not mutate, do not keep)."""
        ...

    def friends(self, side: int) -> Sequence[CombatantView]:
        """Active members of ``side`` (a live list)."""
        ...

    def side_fraction(self, side: int) -> float:
        """Share of ``side``'s starting headcount still fighting, 0..1."""
        ...

    def downed(self, side: int) -> Sequence[CombatantView]:
        """Members of ``side`` taken out of the fight, in the order they fell."""
        ...

    def foes_in_reach(self, actor: CombatantView) -> Sequence[CombatantView]:
        """Active enemies the actor can attack where it stands: in melee contact, or
        within its missile weapon's range (every foe where the battle has no field)."""
        ...

    def nearest_foe(self, actor: CombatantView) -> CombatantView | None:
        """The nearest active enemy (by a spatial index, never a scan of every foe);
        None where the battle has no field."""
        ...

    def engage_point(
        self, actor: CombatantView, target: CombatantView
    ) -> tuple[float, float] | None:
        """The nearest point from which the actor's melee reach touches ``target``; None
        if it touches already (or either is off the field)."""
        ...


@runtime_checkable
class TargetingPolicy(Protocol):
    """Choose whom to attack; ``None`` when no foe can be attacked."""

    def choose_target(
        self, actor: CombatantView, battle: BattleView, rng: random.Random
    ) -> CombatantView | None: ...


@runtime_checkable
class StancePolicy(Protocol):
    """Attack this round, or spend every action on defence."""

    def choose_stance(
        self, actor: CombatantView, target: CombatantView, battle: BattleView
    ) -> Stance: ...


@runtime_checkable
class MultiAttackPolicy(Protocol):
    """How many of ``budget`` actions go to attacks (the rest are kept for defence)."""

    def attacks(
        self, actor: CombatantView, target: CombatantView, battle: BattleView, budget: int
    ) -> int: ...


@runtime_checkable
class RetreatPolicy(Protocol):
    """Leave the fight by choice (no roll): hold, withdraw or surrender."""

    def decide(self, actor: CombatantView, battle: BattleView) -> MoraleChoice: ...


@runtime_checkable
class MoralePolicy(Protocol):
    """When a group must check morale, and what it does when the check fails."""

    def check_reason(self, actor: CombatantView, battle: BattleView) -> str | None:
        """Why a morale check is due at the end of this round, or ``None``."""
        ...

    def on_break(self, actor: CombatantView, battle: BattleView) -> MoraleChoice: ...


@runtime_checkable
class FirstAidPolicy(Protocol):
    """A friend to tend this round instead of fighting, or ``None``."""

    def patient(self, actor: CombatantView, battle: BattleView) -> CombatantView | None: ...


@runtime_checkable
class ItePointPolicy(Protocol):
    """Whether a player character spends an Ité (Fudge) point to take a blow that would
    leave it at ``blow`` (Near Death or Dead) as Incapacitated instead (FADAD 4.5.9,
    A-29). Asked only when the character has a point left and ``pc_death.point_spend``
    is on."""

    def spend(self, actor: CombatantView, blow: int, battle: BattleView) -> bool: ...


@runtime_checkable
class MovementPolicy(Protocol):
    """Where to head this round and the most movement actions to spend, or ``None``."""

    def destination(
        self, actor: CombatantView, target: CombatantView | None, battle: BattleView
    ) -> Move | None: ...


@runtime_checkable
class AimPolicy(Protocol):
    """How to strike ``target`` this round (:class:`Aim`). ``edge`` is the actor's attack
    skill less the target's defence skill, before wounds: what a called shot's minimum RD
    must be weighed against."""

    def aim(
        self, actor: CombatantView, target: CombatantView, battle: BattleView, edge: int
    ) -> Aim: ...


KINDS: dict[str, type] = {
    "targeting": TargetingPolicy,
    "stance": StancePolicy,
    "multi_attack": MultiAttackPolicy,
    "retreat": RetreatPolicy,
    "morale": MoralePolicy,
    "first_aid": FirstAidPolicy,
    "ite_points": ItePointPolicy,
    "movement": MovementPolicy,
    "aim": AimPolicy,
}
"""The personal decision kinds, with the protocol a policy of that kind satisfies.

The registry also holds the ship and Fae Domains kinds (``REGISTRY.kinds`` lists all)."""
