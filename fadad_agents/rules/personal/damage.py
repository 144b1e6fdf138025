"""Damage factors and the damage number (``wounds-and-healing.md`` §3-§5, §7, §11).

Offensive and defensive damage modifiers from their components, weapon and armour
values (FADAD table, FUDGE/Anna classes, Anna's weapon/armour groups), and the damage
number of every FUDGE ``wound_model`` / ``fudge.damage_roll`` variant (the FADAD number,
shared with FADAD ship hits, is :mod:`fadad_agents.rules.core.damage`). Pure functions take the
rolled dice as inputs (so the seed examples are exact); ``roll_*`` samplers take an rng;
``*_outcomes`` give exact distributions. Min-Mid-Max (§9) lives in
:mod:`~fadad_agents.rules.personal.minmidmax`;
:mod:`~fadad_agents.rules.personal.wound_models` dispatches on the options for the engine.

>>> limited_4df_damage(calc=2, roll=4)           # roll capped at the calculated damage
4
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Literal

from fadad_agents.rules.core.damage import push_distribution
from fadad_agents.rules.core.dice import Distribution, fudge_distribution, roll_1df, roll_4df
from fadad_agents.rules.core.wounds import Wound, graze_wound

__all__ = [
    "ARMOUR",
    "ARMOUR_CLASSES",
    "FADAD_WEAPONS",
    "FUDGE_WEAPON_CLASSES",
    "ScalePiercing",
    "apply_weapon_groups",
    "armour_group",
    "damage_1df_level",
    "defensive_factor",
    "freeform_wound",
    "fudge_calculated_damage",
    "fudge_weapon_value",
    "graze_wound",  # re-exported from wounds
    "group_multiplier",
    "is_even",
    "limited_4df_damage",
    "limited_4df_outcomes",
    "offensive_factor",
    "parity_adjustment",
    "parity_outcomes",
    "pierced_scale",
    "roll_1df_factor",
    "roll_limited_4df_damage",
    "roll_unlimited_4df_damage",
    "total_factor",
    "unlimited_4df_damage",
    "unlimited_4df_outcomes",
    "weapon_group",
    "with_1df_factor",
    "with_1df_factor_outcomes",
    "with_1df_level_outcomes",
]

# --- weapon and armour values (§4) ------------------------------------------------------

FADAD_WEAPONS: dict[str, int] = {
    "punch": -1,
    "gauntlet": 0,
    "thrown rock": 0,
    "kick": 0,
    "dagger": 1,
    "billy club": 1,
    "armoured boot": 1,
    "sling bullet": 1,
    "shortsword": 2,
    "spear (1h)": 2,
    "mace": 2,
    "hatchet": 2,
    "arrow": 2,
    "broadsword": 3,
    "spear (2h)": 3,
    "war maul (2h)": 3,
    "battleaxe": 3,
    "morningstar": 3,
    "quarterstaff": 3,
    "greatsword (2h)": 4,
    "battleaxe (2h)": 4,
}
"""FADAD weapon bonuses (SEED 000 §4.5.4)."""

FUDGE_WEAPON_CLASSES: dict[str, int] = {
    "none_untrained": -1,  # no weapon, without an Unarmed Fighting skill
    "unarmed_or_small": 0,  # Unarmed Fighting, blackjack, knife, sling, thick boots
    "medium_impact_or_small_edged": 1,  # mace, shortsword, bodkin arrow, narrow spear
    "larger_impact_or_medium_edged": 2,  # longsword, axe, broad spear, poleaxe, broadhead
    "larger_edged_or_very_heavy_impact": 3,  # two-handed sword, battleaxe
}
"""FUDGE / Anna muscle-powered weapon classes before sharpness (SEED 001 §4.54)."""

ARMOUR_CLASSES: dict[str, int] = {
    "none": 0,
    "light_nonmetal": 1,
    "heavy_nonmetal": 2,
    "light_metal": 2,
    "medium_metal": 3,
    "heavy_metal": 4,
}
"""Armour value by class (A-15 PROPOSED for FADAD; SEED for FUDGE)."""

ARMOUR: dict[str, int] = {
    "none": 0,
    "leather": 1,
    "heavy cloth": 1,
    "heavy leather": 2,
    "hard leather": 2,
    "scale": 2,
    "cuir-bouilli": 2,
    "chain mail": 2,
    "coat of plates": 3,
    "plate": 4,
}
"""Armour value by name (§4.2, §4.3)."""


def fudge_weapon_value(weapon_class: int, *, sharp: bool = False, less_lethal: bool = False) -> int:
    """Weapon factor from a FUDGE class (-1..+3), +1 if sharp; less-lethal subtracts 1 from
    the class but not from sharpness (SEED 001 §4.54). Broadsword: class 2, sharp -> +3."""
    return weapon_class - less_lethal + sharp


def offensive_factor(
    strength: int,
    strength_scale: int = 0,
    weapon: int = 0,
    magic: int = 0,
    *,
    weapon_strength: int | None = None,
) -> int:
    """ODM / offensive factor: Strength + Strength Scale + weapon + magic plus (§4.1, §4.3).

    For guns, crossbows and beams pass ``weapon_strength`` (the GM-assigned Strength level,
    A-19): it replaces the wielder's Strength and the wielder's Scale is not added.
    """
    if weapon_strength is not None:
        return weapon_strength + weapon + magic
    return strength + strength_scale + weapon + magic


def pierced_scale(
    mass_scale: int, rd: int, piercing: ScalePiercing = "none", min_rd: int = 3
) -> int:
    """Defender's Mass Scale after a scale-piercing weapon (§11): on RD >= ``min_rd``
    (PROPOSED 3) halve it (toward zero) or ignore it. Negative Scales are not pierced."""
    if piercing == "none" or rd < min_rd or mass_scale <= 0:
        return mass_scale
    return mass_scale // 2 if piercing == "halve" else 0


type ScalePiercing = Literal["none", "halve", "ignore"]


def defensive_factor(
    damage_capacity: int,
    mass_scale: int = 0,
    armour: int = 0,
    magic: int = 0,
    *,
    widespread: bool = False,
) -> int:
    """DDM / defensive factor: Damage Capacity + Mass Scale + armour + magic plus (§4.2).

    Against widespread attacks the Mass Scale counts a third, rounded toward zero (A-11).
    """
    scale = int(mass_scale / 3) if widespread else mass_scale
    return damage_capacity + scale + armour + magic


def total_factor(offensive: int, defensive: int) -> int:
    """Total damage factor = offensive - defensive."""
    return offensive - defensive


# --- Anna's weapon/armour groups (§4.4, A-18, PROPOSED table) ----------------------------


def weapon_group(weapon_class: int) -> int:
    """Group of a weapon from its FUDGE class before sharpness: 0 none, 1 Light, 2 Medium,
    3 Heavy."""
    return max(0, min(weapon_class, 3))


def armour_group(armour: int) -> int:
    """Group of an armour value: 0 unarmoured, 1 Light, 2 Medium, 3 Heavy (+3/+4)."""
    return max(0, min(armour, 3))


def group_multiplier(w_group: int, a_group: int, *, critical: bool = False) -> Fraction:
    """Full damage against armour of the weapon's group or lighter, half one group heavier,
    none two or more heavier; a critical hit always does full damage."""
    gap = a_group - w_group
    if critical or gap <= 0:
        return Fraction(1)
    return Fraction(1, 2) if gap == 1 else Fraction(0)


def apply_weapon_groups(damage: int, w_group: int, a_group: int, *, critical: bool = False) -> int:
    """Final damage under the groups rule, halving rounded down (A-18)."""
    if damage <= 0:
        return damage
    m = group_multiplier(w_group, a_group, critical=critical)
    return int(damage * m)


# --- FADAD (§5.1) -----------------------------------------------------------------------


# --- FUDGE numeric (§5.2, §5.4, §7) -----------------------------------------------------


def fudge_calculated_damage(rd: int, factor: int, *, double_rd: bool = False) -> int:
    """Calculated damage RD + factor, or 2*RD + factor with ``fudge.double_rd`` (A-21)."""
    return (2 * rd if double_rd else rd) + factor


def with_1df_factor(calc: int, die: int) -> int:
    """``1dF_factor``: add one Fudge die to the damage number (0 or less: no damage)."""
    return max(calc + die, 0)


def with_1df_factor_outcomes(calc: int) -> Distribution[int]:
    """Exact distribution of :func:`with_1df_factor`."""
    return push_distribution(fudge_distribution(1), lambda d: with_1df_factor(calc, d))


def damage_1df_level(wound: int, die: int) -> Wound:
    """``1dF_level``: move a wound one level up or down (Undamaged..Near Death); no wound
    stays no wound (PROPOSED)."""
    if wound <= 0:
        return Wound.UNDAMAGED
    return Wound(max(0, min(wound + die, Wound.NEAR_DEATH)))


def with_1df_level_outcomes(wound: int) -> Distribution[Wound]:
    """Exact distribution of :func:`damage_1df_level`."""
    merged: dict[Wound, Fraction] = {}
    for d, p in fudge_distribution(1):
        k = damage_1df_level(wound, d)
        merged[k] = merged.get(k, Fraction(0)) + p
    return sorted(merged.items())


def is_even(dice_total: int) -> bool:
    """Whether a Fudge dice total is even (-4, -2, 0, +2, +4)."""
    return dice_total % 2 == 0


def parity_adjustment(attacker_dice: int, defender_dice: int) -> int:
    """``parity``: +1 if the attacker's dice total was even, -1 if the defender's was
    (defensive factor +1); both even cancel (EX-WND-11)."""
    return int(attacker_dice % 2 == 0) - int(defender_dice % 2 == 0)


def parity_outcomes() -> Distribution[int]:
    """Exact distribution of :func:`parity_adjustment` for two independent 4dF rolls."""
    even = sum((p for v, p in fudge_distribution(4) if v % 2 == 0), Fraction(0))
    odd = 1 - even
    return [(-1, odd * even), (0, even * even + odd * odd), (1, even * odd)]


def limited_4df_damage(calc: int, roll: int) -> int:
    """``4dF_limited`` (§7, A-26): L1 a positive calculated damage caps the roll at itself;
    L2 a positive calculated damage never drops below 1; L3 a calculated damage of 0 or
    less never exceeds 1. Negative finals are 0 (no damage)."""
    if calc > 0:
        return max(calc + min(roll, calc), 1)
    return max(min(calc + roll, 1), 0)


def roll_limited_4df_damage(calc: int, rng: random.Random) -> int:
    """Sample :func:`limited_4df_damage`."""
    return limited_4df_damage(calc, roll_4df(rng))


def limited_4df_outcomes(calc: int) -> Distribution[int]:
    """Exact distribution of :func:`limited_4df_damage`."""
    return push_distribution(fudge_distribution(4), lambda r: limited_4df_damage(calc, r))


def unlimited_4df_damage(calc: int, roll: int) -> int:
    """``4dF_unlimited``: add -4..+4 with no limits (0 or less: no damage)."""
    return max(calc + roll, 0)


def roll_unlimited_4df_damage(calc: int, rng: random.Random) -> int:
    """Sample :func:`unlimited_4df_damage`."""
    return unlimited_4df_damage(calc, roll_4df(rng))


def unlimited_4df_outcomes(calc: int) -> Distribution[int]:
    """Exact distribution of :func:`unlimited_4df_damage`."""
    return push_distribution(fudge_distribution(4), lambda r: unlimited_4df_damage(calc, r))


def roll_1df_factor(calc: int, rng: random.Random) -> int:
    """Sample :func:`with_1df_factor`."""
    return with_1df_factor(calc, roll_1df(rng))


# --- freeform (§5.3, A-30) --------------------------------------------------------------


def freeform_wound(
    gm_level: int, situational_roll: int, *, situational_levels: bool = True
) -> Wound:
    """The GM's judged wound moved by a hidden Situational 4dF (A-30): +3 adds one level,
    +4 two (capped at Near Death); any other roll, or no judged wound, changes nothing."""
    if not situational_levels or gm_level <= 0 or situational_roll < 3:
        return Wound(max(0, min(gm_level, Wound.DEAD)))
    return Wound(min(gm_level + situational_roll - 2, Wound.NEAR_DEATH))
