"""FADAD ship critical hits: triggers, the 6dF table, firing likelihood, crew damage, coma.

Implements ``ships-fadad.md`` section 6 with ``CONFLICTS.md`` C-03 (results expressed in
the shared effect vocabulary of :mod:`fadad_agents.rules.ships.effects`), C-22 (FADAD
Spelljammer shock), A-23 (coma 3 + 1dF days), A-39 (triggers), A-40 (firing likelihood),
A-41 (crew damage) and A-42 (MC repair takes one ship round).

The exact distributions stand beside the samplers: :func:`crit_outcomes` /
:func:`resolve_crit`, :func:`coma_days_outcomes` / :func:`roll_coma_days`,
:func:`ignition_probability` / :func:`stores_ignite`.

>>> [str(crit_for_roll(r)) for r in (5, 0, -6)]
['fire', 'ship_shaken', 'interior_crew_hit']
>>> crew_damage(22, 1, 0)     # EX-SHF-02's hit: (22 + 1 + 0) - 20
3
>>> dict(crit_outcomes())[FadadCrit.SHIP_SHAKEN]
Fraction(47, 243)
"""

from __future__ import annotations

import random
from collections.abc import Collection
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

from fadad_agents.rules.core.dice import (
    Distribution,
    fudge_distribution,
    roll_4df,
    roll_6df,
    roll_ndf,
)
from fadad_agents.rules.core.ladder import FAIR, GOOD, GREAT, MEDIOCRE, POOR
from fadad_agents.rules.ships.effects import (
    FADAD_SHIP_ROUND_SECONDS,
    Check,
    CrewHitKind,
    DeckCrew,
    Fire,
    HelmShock,
    HullHoled,
    InteriorCrew,
    ManeuverLoss,
    Shaken,
    ShipEffect,
    SpeedLoss,
    WeaponDamaged,
)
from fadad_agents.rules.ships.fadad_combat import ShipRulesError
from fadad_agents.rules.ships.fadad_damage import ShipDamage

__all__ = [
    "COMA_BASE_DAYS",
    "CREW_DAMAGE_OFFSET",
    "FADAD_TRIGGERS",
    "FIRING_LIKELIHOOD",
    "CritRoll",
    "FadadCrit",
    "coma_days_outcomes",
    "crew_damage",
    "crew_hit_kind",
    "crit_count",
    "crit_effects",
    "crit_for_roll",
    "crit_ignition_outcomes",
    "crit_outcomes",
    "ignition_probability",
    "resolve_crit",
    "roll_coma_days",
    "stores_ignite",
]


class FadadCrit(StrEnum):
    """The results of the FADAD 6dF ship critical table (section 6)."""

    FIRE = "fire"
    SPELLJAMMER_SHOCK = "spelljammer_shock"
    SR_LOSS = "sr_loss"
    HULL_HOLED = "hull_holed"
    SHIP_SHAKEN = "ship_shaken"
    DECK_CREW_HIT = "deck_crew_hit"
    SHIP_WEAPON_HIT = "ship_weapon_hit"
    MC_LOSS = "mc_loss"
    INTERIOR_CREW_HIT = "interior_crew_hit"


_BY_ROLL: dict[int, FadadCrit] = {
    **dict.fromkeys((4, 5, 6), FadadCrit.FIRE),
    3: FadadCrit.SPELLJAMMER_SHOCK,
    2: FadadCrit.SR_LOSS,
    1: FadadCrit.HULL_HOLED,
    0: FadadCrit.SHIP_SHAKEN,
    -1: FadadCrit.DECK_CREW_HIT,
    -2: FadadCrit.SHIP_WEAPON_HIT,
    -3: FadadCrit.MC_LOSS,
    **dict.fromkeys((-4, -5, -6), FadadCrit.INTERIOR_CREW_HIT),
}

FIRING_LIKELIHOOD: dict[FadadCrit, int | None] = {
    FadadCrit.FIRE: GREAT,
    FadadCrit.SPELLJAMMER_SHOCK: POOR,
    FadadCrit.SR_LOSS: POOR,
    FadadCrit.HULL_HOLED: POOR,
    FadadCrit.SHIP_SHAKEN: MEDIOCRE,
    FadadCrit.DECK_CREW_HIT: None,
    FadadCrit.SHIP_WEAPON_HIT: None,
    FadadCrit.MC_LOSS: None,
    FadadCrit.INTERIOR_CREW_HIT: POOR,
}
"""Ladder level a Situation roll must not exceed to ignite volatile stores; ``None`` = never."""

FADAD_TRIGGERS: tuple[str, ...] = ("rd_4", "heavy_damage", "crippling")
"""FADAD crit triggers as ``ship.crit_triggers`` names (A-39); ``"dice_4"`` is the other
reading of "a hit with a +4": all four attack dice +, on a hit."""

CREW_DAMAGE_OFFSET = 20
"""Crew hit by a crit take the ship's damage - 20 (SEED, A-41)."""

COMA_BASE_DAYS = 3
"""Spelljammer shock: coma for 3 + dF days (A-23: one Fudge die)."""


def crit_for_roll(roll: int) -> FadadCrit:
    """The table entry for a 6dF total -6..+6."""
    try:
        return _BY_ROLL[roll]
    except KeyError:
        raise ShipRulesError(f"6dF total {roll} is impossible; it must be -6..+6") from None


def crit_outcomes() -> Distribution[FadadCrit]:
    """Exact distribution of the table's results, in table order (Fire first)."""
    merged: dict[FadadCrit, Fraction] = {}
    for roll, p in reversed(fudge_distribution(6)):
        crit = _BY_ROLL[roll]
        merged[crit] = merged.get(crit, Fraction(0)) + p
    return list(merged.items())


# --- triggers (A-39) --------------------------------------------------------------------


def crit_count(
    *,
    rd: int | None = None,
    attack_dice: int | None = None,
    damage: ShipDamage | None = None,
    triggers: Collection[str] = FADAD_TRIGGERS,
    rd_for_crit: int = 4,
) -> int:
    """Ship crits caused by one hit: at most one from the attack and one from damage (A-39).

    Attack trigger: ``"rd_4"`` the hit had RD >= 4 (``rd_for_crit``: 3 against a poorly
    maintained ship, whose crit chance "increases by 1", SJ 17, PROPOSED); or ``"dice_4"``
    all four attack dice came up + on a hit. Damage triggers (together at most one):
    ``"heavy_damage"`` the damage number is 5 or more; ``"crippling"`` Crippling damage
    was taken or lesser damage was promoted to Crippled. Names not listed in ``triggers``
    are off; ``rd=None`` (a ram, a fire) has no attack trigger.
    """
    hit = rd is not None and rd >= 1
    from_attack = hit and (
        ("rd_4" in triggers and rd is not None and rd >= rd_for_crit)
        or ("dice_4" in triggers and attack_dice == 4)
    )
    from_damage = damage is not None and (
        ("heavy_damage" in triggers and damage.damage >= 5)
        or ("crippling" in triggers and damage.crippling)
    )
    return int(from_attack) + int(from_damage)


# --- firing likelihood (A-40) -----------------------------------------------------------


def stores_ignite(crit: FadadCrit, situation_roll: int) -> bool:
    """Volatile stores (wildfire, smoke powder) ignite: Situation 4dF <= firing likelihood."""
    level = FIRING_LIKELIHOOD[crit]
    return level is not None and situation_roll <= level


def ignition_probability(crit: FadadCrit) -> Fraction:
    """Exact chance that ``crit`` ignites volatile stores (0 for results with no level)."""
    return sum((p for r, p in fudge_distribution(4) if stores_ignite(crit, r)), Fraction(0))


# --- crew damage, coma, effects (A-23, A-41, A-42, C-22) --------------------------------


def crew_damage(weapon_damage: int, rd: int, damage_roll: int) -> int:
    """Personal damage number for crew caught by a crit: (weapon + RD + roll) - 20 (A-41).

    The victims' own defensive modifiers are not subtracted again; 0 or less harms no one
    (returned as 0).
    """
    return max(0, weapon_damage + rd + damage_roll - CREW_DAMAGE_OFFSET)


def crew_hit_kind(weapon_kind: str) -> CrewHitKind:
    """Ballista bolts pick one victim (``"bolt"``); stones, shot, fire and rams blast an area."""
    return "bolt" if weapon_kind == "ballista" else "blast"


def roll_coma_days(rng: random.Random, dice: int = 1) -> int:
    """Days of coma after Spelljammer shock: 3 + ``dice``dF (A-23: one die), at least 1."""
    return max(1, COMA_BASE_DAYS + roll_ndf(rng, dice))


def coma_days_outcomes(dice: int = 1) -> Distribution[int]:
    """Exact distribution of :func:`roll_coma_days`."""
    merged: dict[int, Fraction] = {}
    for v, p in fudge_distribution(dice):
        days = max(1, COMA_BASE_DAYS + v)
        merged[days] = merged.get(days, Fraction(0)) + p
    return sorted(merged.items())


_BOLT_DODGE = Check("dodge", FAIR, "ladder", modifier=-2)


def _crew_hit(damage: int, kind: CrewHitKind) -> DeckCrew:
    return DeckCrew(damage, kind, 5, _BOLT_DODGE if kind == "bolt" else None)


def crit_effects(
    crit: FadadCrit,
    *,
    crew_damage: int = 0,
    crew_hit_kind: CrewHitKind = "blast",
    coma_days: int = COMA_BASE_DAYS,
) -> tuple[ShipEffect, ...]:
    """The shared-vocabulary effects of one FADAD crit result (section 6, C-03).

    Args:
        crit: the table result (rolled or chosen by the GM).
        crew_damage: personal damage number for crew hits (:func:`crew_damage`).
        crew_hit_kind: ``"bolt"`` for ballista hits, else ``"blast"``.
        coma_days: rolled coma length for Spelljammer shock.
    """
    rnd = FADAD_SHIP_ROUND_SECONDS
    crew_hit = _crew_hit(crew_damage, crew_hit_kind)
    match crit:
        case FadadCrit.FIRE:
            return (Fire(points=0, growth=1),)
        case FadadCrit.SPELLJAMMER_SHOCK:
            save = Check("rete", GREAT, "ladder")
            return (HelmShock(save, coma_days, helmless_inoperative=True),)
        case FadadCrit.SR_LOSS:
            recovery = Check("spelljamming", GREAT, "ladder")
            return (SpeedLoss(sr=1, rounds=None, round_seconds=rnd, recovery=recovery),)
        case FadadCrit.HULL_HOLED:
            return (HullHoled(),)
        case FadadCrit.SHIP_SHAKEN:
            return (Shaken(Check("dexterity", GOOD, "ladder")),)
        case FadadCrit.DECK_CREW_HIT:
            return (crew_hit,)
        case FadadCrit.SHIP_WEAPON_HIT:
            return (WeaponDamaged(may_be_destroyed=True, crew_hit=crew_hit),)
        case FadadCrit.MC_LOSS:
            # one ship round of work, then a Great roll by the repair crew.
            repair = Check("repair", GREAT, "ladder")
            return (ManeuverLoss(classes=1, rounds=None, round_seconds=rnd, repair=repair),)
        case FadadCrit.INTERIOR_CREW_HIT:
            return (InteriorCrew(crew_hit.damage, crew_hit.kind, 5, crew_hit.bystander_save),)


@dataclass(frozen=True, slots=True)
class CritRoll:
    """One rolled FADAD crit.

    Attributes:
        roll: the 6dF total.
        crit: the table result.
        situation: the Situation 4dF for volatile stores, ``None`` if not rolled.
        stores_ignited: the stores caught fire (an extra crit fire, PROPOSED).
        effects: everything the engine must apply, in order.
    """

    roll: int
    crit: FadadCrit
    situation: int | None
    stores_ignited: bool
    effects: tuple[ShipEffect, ...]


def resolve_crit(
    rng: random.Random,
    *,
    crew_damage: int = 0,
    crew_hit_kind: CrewHitKind = "blast",
    volatile_stores: bool = False,
    coma_dice: int = 1,
) -> CritRoll:
    """Roll 6dF on the table, the coma length if needed, and the stores' Situation roll.

    A ship carrying volatile stores rolls 4dF after a result with a firing likelihood;
    at or below it the stores ignite, adding a crit ``Fire`` (0, +1 a round; PROPOSED).
    """
    roll = roll_6df(rng)
    crit = _BY_ROLL[roll]
    coma = roll_coma_days(rng, coma_dice) if crit is FadadCrit.SPELLJAMMER_SHOCK else 0
    effects = crit_effects(
        crit, crew_damage=crew_damage, crew_hit_kind=crew_hit_kind, coma_days=coma
    )
    situation = None
    ignited = False
    if volatile_stores and FIRING_LIKELIHOOD[crit] is not None:
        situation = roll_4df(rng)
        ignited = stores_ignite(crit, situation)
        if ignited:
            effects = (*effects, Fire(points=0, growth=1))
    return CritRoll(roll, crit, situation, ignited, effects)


def crit_ignition_outcomes(volatile_stores: bool = True) -> Distribution[tuple[FadadCrit, bool]]:
    """Exact joint distribution of (result, stores ignited) for :func:`resolve_crit`."""
    out: Distribution[tuple[FadadCrit, bool]] = []
    for crit, p in crit_outcomes():
        q = ignition_probability(crit) if volatile_stores else Fraction(0)
        if q:
            out.append(((crit, True), p * q))
        if q != 1:
            out.append(((crit, False), p * (1 - q)))
    return out
