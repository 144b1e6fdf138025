"""The FADAD damage number (``wounds-and-healing.md`` 5.1), shared by personal blows and
FADAD ship hits (``ships-fadad.md`` 5).

>>> fadad_damage(rd=1, factor=3, roll=-2)        # Snorri, round 2 (EX-WND-02)
2
>>> fadad_damage(rd=1, factor=-3, roll=4)        # negative base: capped at 1
1
"""

from __future__ import annotations

import random
from collections.abc import Callable
from fractions import Fraction

from fadad_agents.rules.core.dice import Distribution, fudge_distribution, roll_4df

__all__ = ["fadad_damage", "fadad_damage_outcomes", "push_distribution", "roll_fadad_damage"]


def push_distribution(dist: Distribution[int], f: Callable[[int], int]) -> Distribution[int]:
    """Push an integer distribution through ``f``, merged and sorted by outcome."""
    merged: dict[int, Fraction] = {}
    for v, p in dist:
        k = f(v)
        merged[k] = merged.get(k, Fraction(0)) + p
    return sorted(merged.items())


def fadad_damage(rd: int, factor: int, roll: int) -> int:
    """FADAD damage number: RD + (ODM - DDM) + 4dF; a negative base caps the final at 1;
    0 or less is no damage (returned as 0). A base of exactly 0 is not capped (A-16)."""
    base = rd + factor
    final = base + roll
    if base < 0 and final > 1:
        final = 1
    return final if final > 0 else 0


def roll_fadad_damage(rd: int, factor: int, rng: random.Random) -> int:
    """Sample :func:`fadad_damage` with a fresh 4dF."""
    return fadad_damage(rd, factor, roll_4df(rng))


def fadad_damage_outcomes(rd: int, factor: int) -> Distribution[int]:
    """Exact distribution of :func:`fadad_damage` (0 = no damage), ascending."""
    return push_distribution(fudge_distribution(4), lambda r: fadad_damage(rd, factor, r))
