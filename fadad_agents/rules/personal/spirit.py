"""Spirit combat: damage to creatures that need magical weapons to hit.

Implements ``personal-combat.md`` section 8 (SEED FADAD 4.9) with ``CONFLICTS.md`` A-13
(options ``fadad.spirit_crit_plus`` and ``fadad.spirit_negative_cap``). A successful attack
roll is required, but its RD is not added. This module returns the damage number; read it on
the normal wound track with :func:`fadad_agents.rules.core.wounds.wound_for_damage`.

>>> spirit_damage(2, 1, 1, damage_resistance=spirit_damage_resistance(1))   # EX-PC-10
4
>>> unarmed_plus(7)
2
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Literal

from fadad_agents.rules.core.dice import Distribution, fudge_distribution, roll_4df

__all__ = [
    "CritPlus",
    "SpiritError",
    "can_hit",
    "roll_spirit_damage",
    "spirit_damage",
    "spirit_damage_outcomes",
    "spirit_damage_resistance",
    "unarmed_plus",
]

type CritPlus = Literal["once", "per_crit"]


class SpiritError(ValueError):
    """A spirit-combat input is outside what the rules allow."""


def unarmed_plus(potential: int) -> int:
    """An unarmed character's magical plus: floor(Potential / 3); touch attacks only."""
    if potential < 0:
        raise SpiritError(f"Potential must be >= 0, got {potential}")
    return potential // 3


def can_hit(weapon_plus: int, plus_needed: int) -> bool:
    """Whether a weapon's plus is enough to hit the creature at all."""
    return weapon_plus >= plus_needed


def spirit_damage_resistance(plus_needed: int, armour_class_extra: int = 0) -> int:
    """Victim's Damage Resistance: (plus needed to hit it) - 1, plus a small AC extra."""
    if plus_needed < 1:
        raise SpiritError(
            f"spirit combat is for creatures needing a +1 weapon or better, got +{plus_needed}"
        )
    return plus_needed - 1 + armour_class_extra


def _crit_bonus(plus: int, crits: int, crit_plus: str) -> int:
    if crits < 0:
        raise SpiritError(f"crits must be >= 0, got {crits}")
    if crit_plus == "once":
        return plus if crits else 0
    if crit_plus == "per_crit":
        return plus * crits
    raise SpiritError(f"unknown spirit_crit_plus {crit_plus!r}; allowed: once, per_crit")


def spirit_damage(
    plus: int,
    attunement: int,
    dice: int,
    *,
    crits: int = 0,
    damage_resistance: int = 0,
    crit_plus: str = "once",
    negative_cap: bool = True,
) -> int:
    """Spirit damage number: plus + attunement + 4dF (+ plus again on a crit) - DR.

    ``attunement`` is the ladder value of the spiritual attribute (Faith, Passion, Wisdom:
    Good = +1). With ``negative_cap`` (PROPOSED, A-13) a negative total before the dice
    leaves at most 1, as in the FADAD damage roll. RD is never added.
    """
    base = plus + attunement + _crit_bonus(plus, crits, crit_plus) - damage_resistance
    final = base + dice
    if negative_cap and base < 0:
        final = min(final, 1)
    return final


def roll_spirit_damage(
    plus: int,
    attunement: int,
    rng: random.Random,
    *,
    crits: int = 0,
    damage_resistance: int = 0,
    crit_plus: str = "once",
    negative_cap: bool = True,
) -> tuple[int, int]:
    """Roll spirit damage: returns (damage number, the 4dF total)."""
    dice = roll_4df(rng)
    damage = spirit_damage(
        plus,
        attunement,
        dice,
        crits=crits,
        damage_resistance=damage_resistance,
        crit_plus=crit_plus,
        negative_cap=negative_cap,
    )
    return damage, dice


def spirit_damage_outcomes(
    plus: int,
    attunement: int,
    *,
    crits: int = 0,
    damage_resistance: int = 0,
    crit_plus: str = "once",
    negative_cap: bool = True,
) -> Distribution[int]:
    """Exact distribution of the spirit damage number, ascending."""
    merged: dict[int, Fraction] = {}
    for dice, p in fudge_distribution(4):
        damage = spirit_damage(
            plus,
            attunement,
            dice,
            crits=crits,
            damage_resistance=damage_resistance,
            crit_plus=crit_plus,
            negative_cap=negative_cap,
        )
        merged[damage] = merged.get(damage, Fraction(0)) + p
    return sorted(merged.items())
