"""Min-Mid-Max damage die roll (``wounds-and-healing.md`` §9, SEED 001 §4.63, A-28).

Roll 3d6 and read the lowest (Min), middle value (Mid) or highest (Max) die as the damage
number; the total damage factor and the relative degree only choose which die to read.

>>> reading(total_bonus(factor=4, rd=4))             # Archie, round 3 of EX-WND-13
('max',)
>>> minmidmax_damage((1, 4, 6), 2, all_out=True)     # Rachel, round 4: Max 6 + 1
7
"""

from __future__ import annotations

import random
from fractions import Fraction

from fadad_agents.rules.core.dice import Distribution, roll_3d6, three_d6_distribution
from fadad_agents.rules.core.wounds import (
    STANDARD,
    Thresholds,
    Wound,
    graze_wound,
    wound_for_damage,
)

__all__ = [
    "READINGS",
    "factor_bonus",
    "minmidmax_damage",
    "minmidmax_damage_outcomes",
    "minmidmax_outcomes",
    "minmidmax_wound",
    "rd_bonus",
    "reading",
    "roll_minmidmax_wound",
    "total_bonus",
]

READINGS: tuple[tuple[str, ...], ...] = (
    ("min",),  # 0 (SEED)
    ("mid",),  # +1 (SEED)
    ("max",),  # +2 (SEED)
    ("max", "min"),  # +3 (PROPOSED, A-28)
    ("max", "mid"),  # +4 (PROPOSED)
    ("max", "mid", "min"),  # +5 or more (PROPOSED)
)
"""Dice read for total bonus 0..5+."""

_INDEX = {"min": 0, "mid": 1, "max": 2}


def factor_bonus(factor: int, *, minus2: bool = False) -> int:
    """Die-reading bonus of the total damage factor: <0 -1 (-2 at -5 or worse with the
    option), 0-2 0, 3-5 +1, 6+ +2 (RECOVERED, FUDGE SRD)."""
    if factor < 0:
        return -2 if minus2 and factor <= -5 else -1
    if factor <= 2:
        return 0
    return 1 if factor <= 5 else 2


def rd_bonus(rd: int) -> int:
    """Die-reading bonus of the relative degree: 2-3 0, 4-5 +1, 6+ +2."""
    if rd <= 3:
        return 0
    return 1 if rd <= 5 else 2


def total_bonus(factor: int, rd: int, *, minus2: bool = False) -> int:
    """Factor bonus + RD bonus."""
    return factor_bonus(factor, minus2=minus2) + rd_bonus(rd)


def reading(bonus: int) -> tuple[str, ...]:
    """Which dice are read for a total bonus; empty when below 0 (no damage, no roll)."""
    if bonus < 0:
        return ()
    return READINGS[min(bonus, 5)]


def minmidmax_damage(dice: tuple[int, int, int], bonus: int, *, all_out: bool = False) -> int:
    """Damage number: the read dice (Min/Mid/Max of ``dice``) summed, +1 for an all-out
    attack; 0 when the bonus is negative."""
    read = reading(bonus)
    if not read:
        return 0
    ordered = sorted(dice)
    return sum(ordered[_INDEX[r]] for r in read) + all_out


def _wound_of(damage: int, thresholds: Thresholds, kill_above_9: bool) -> Wound:
    if kill_above_9 and damage > 9:
        return Wound.DEAD
    return wound_for_damage(damage, thresholds)


def minmidmax_wound(
    rd: int,
    factor: int,
    dice: tuple[int, int, int],
    *,
    all_out: bool = False,
    minus2: bool = False,
    thresholds: Thresholds = STANDARD,
    kill_above_9: bool = False,
) -> Wound:
    """Wound of a Min-Mid-Max hit. RD 0 or less: no hit. RD +1 is a graze read on the
    graze table (no bonus calculation, dice ignored). ``kill_above_9``: results above 9
    kill outright instead of staying Near Death (GM option)."""
    if rd <= 0:
        return Wound.UNDAMAGED
    if rd == 1:
        return graze_wound(factor)
    damage = minmidmax_damage(dice, total_bonus(factor, rd, minus2=minus2), all_out=all_out)
    return _wound_of(damage, thresholds, kill_above_9)


def roll_minmidmax_wound(
    rd: int,
    factor: int,
    rng: random.Random,
    *,
    all_out: bool = False,
    minus2: bool = False,
    thresholds: Thresholds = STANDARD,
    kill_above_9: bool = False,
) -> Wound:
    """Sample :func:`minmidmax_wound` with a fresh 3d6."""
    return minmidmax_wound(
        rd,
        factor,
        roll_3d6(rng),
        all_out=all_out,
        minus2=minus2,
        thresholds=thresholds,
        kill_above_9=kill_above_9,
    )


def minmidmax_damage_outcomes(bonus: int, *, all_out: bool = False) -> Distribution[int]:
    """Exact distribution of :func:`minmidmax_damage` over 3d6, ascending."""
    merged: dict[int, Fraction] = {}
    for dice, p in three_d6_distribution():
        k = minmidmax_damage(dice, bonus, all_out=all_out)
        merged[k] = merged.get(k, Fraction(0)) + p
    return sorted(merged.items())


def minmidmax_outcomes(
    rd: int,
    factor: int,
    *,
    all_out: bool = False,
    minus2: bool = False,
    thresholds: Thresholds = STANDARD,
    kill_above_9: bool = False,
) -> Distribution[Wound]:
    """Exact distribution of :func:`minmidmax_wound` over 3d6, ascending by wound."""
    merged: dict[Wound, Fraction] = {}
    for dice, p in three_d6_distribution():
        k = minmidmax_wound(
            rd,
            factor,
            dice,
            all_out=all_out,
            minus2=minus2,
            thresholds=thresholds,
            kill_above_9=kill_above_9,
        )
        merged[k] = merged.get(k, Fraction(0)) + p
    return sorted(merged.items())
