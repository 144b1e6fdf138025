"""Bridges between a FADAD (4dF ladder) fighter and a Fae Domains (d100) one in one scene.

``CONFLICTS.md`` C-04 (``fae.ladder_bridge``): a ladder skill acts as a percentile
``P(skill + 4dF >= Fair)`` and back (nearest level). C-18 (``fae.size_bridge``): Mass
Scale from Fae Size. Everything else here is PROPOSED by this module (no seed rule
covers mixed damage), and says so:

* a Fae combatant as a kernel ``Fighter``: attack/defence from its chances (C-04 inverse),
  ODM = Strength level + Scale + round(base damage / 30), DDM = Stamina level + Scale +
  round(armour DR / 6), where an attribute's level is round((value - 50) / 15);
* a FADAD blow's wound level on a Fae body: a fraction of its Wound Points
  (:data:`WOUND_FRACTION`);
* a Fae blow's damage on a FADAD body: a fraction of bridged Wound Points
  ``fae.bridge_wound_points (40) x 1.5 ** (Damage Capacity + Mass Scale)`` read back as a
  wound level (:func:`wound_for_fraction`); FADAD armour counts as DR
  ``fae.bridge_armour_dr (6) x armour``.

Every number above is an option of ``FaeOptions`` (``fae.bridge_wound_percent``,
``fae.bridge_attribute_step``, ``fae.bridge_weapon_divisor``, ``fae.bridge_wound_points``,
``fae.bridge_armour_dr``); the functions take them as arguments with the defaults.

>>> percentile_to_ladder(62), percentile_to_ladder(81), attribute_level(80)
(0, 1, 2)
>>> fadad_wound_from_damage(20, 40)
3
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction

from fadad_agents.rules.fae.checks import ladder_to_percentile

__all__ = [
    "FADAD_ARMOUR_DR",
    "WOUND_FRACTION",
    "WOUND_PERCENT",
    "attribute_level",
    "fadad_wound_from_damage",
    "fadad_wound_points",
    "fae_wounds_from_level",
    "percentile_to_ladder",
    "weapon_bonus",
    "wound_for_fraction",
]

_LEVELS = range(-3, 5)
_MAX_LEVELS = 200
FADAD_ARMOUR_DR = 6
"""PROPOSED: Defense Rating per point of FADAD armour DDM (default of ``fae.bridge_armour_dr``)."""

WOUND_PERCENT: tuple[int, ...] = (0, 10, 25, 50, 75, 100, 150)
"""PROPOSED: percent of Wound Points a FADAD wound level 0..6 of one blow does to a Fae body
(default of ``fae.bridge_wound_percent``)."""

WOUND_FRACTION: dict[int, Fraction] = {lv: Fraction(p, 100) for lv, p in enumerate(WOUND_PERCENT)}
"""The default table as fractions of Wound Points."""


def _shares(percents: Sequence[int]) -> list[Fraction]:
    return [Fraction(max(0, p), 100) for p in percents]


def percentile_to_ladder(chance: int) -> int:
    """C-04 inverse: the ladder level whose percentile is nearest ``chance`` (lower on ties)."""
    return min(_LEVELS, key=lambda lv: (abs(ladder_to_percentile(lv) - chance), lv))


def attribute_level(value: int, step: int = 15) -> int:
    """PROPOSED: a Fae attribute (50 = human average) as a ladder level, Terrible..Legendary:
    round((value - 50) / step) half up (``fae.bridge_attribute_step``)."""
    return max(-3, min(4, math.floor(Fraction(value - 50, step) + Fraction(1, 2))))


def weapon_bonus(base_damage: int, divisor: int = 30) -> int:
    """PROPOSED: FADAD weapon bonus of a Fae weapon: base / divisor half up (longsword 80 -> +3;
    ``fae.bridge_weapon_divisor``)."""
    return math.floor(Fraction(base_damage, divisor) + Fraction(1, 2))


def fae_wounds_from_level(
    level: int, wound_points: int, percents: Sequence[int] = WOUND_PERCENT
) -> int:
    """PROPOSED: Fae Wounds a FADAD blow of wound ``level`` (0..6) does (half up)."""
    share = _shares(percents)[max(0, min(6, level))]
    return math.floor(share * wound_points + Fraction(1, 2))


def fadad_wound_points(damage_capacity: int, mass_scale: int, base: int = 40) -> int:
    """PROPOSED: Wound Points of a FADAD fighter seen by a Fae weapon: base x 1.5^(DC+Scale)
    (``fae.bridge_wound_points`` is the base).

    The power is taken within +-200 levels (1.5**200 is about 10**35, beyond any blow), so
    no Damage Capacity and Scale overflow a float.
    """
    levels = max(-_MAX_LEVELS, min(_MAX_LEVELS, damage_capacity + mass_scale))
    return max(1, round(base * 1.5**levels))


def wound_for_fraction(share: Fraction, percents: Sequence[int] = WOUND_PERCENT) -> int:
    """PROPOSED: a share of Wound Points as a FADAD wound level (inverse of the table)."""
    if share <= 0:
        return 0
    shares = _shares(percents)
    for level in (6, 5, 4, 3, 2):
        if share >= shares[level]:
            return level
    return 1


def fadad_wound_from_damage(
    damage: int, wound_points: int, percents: Sequence[int] = WOUND_PERCENT
) -> int:
    """The FADAD wound level of ``damage`` Fae points on a body of ``wound_points``."""
    return wound_for_fraction(Fraction(max(0, damage), max(1, wound_points)), percents)
