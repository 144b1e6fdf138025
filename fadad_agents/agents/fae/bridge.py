"""Bridges between a FADAD (4dF ladder) fighter and a Fae Domains (d100) one in one scene.

``CONFLICTS.md`` C-04 (``fae.ladder_bridge``): a ladder skill acts as a percentile
``P(skill + 4dF >= Fair)`` and back (nearest level). C-18 (``fae.size_bridge``): Mass
Scale from Fae Size. Everything else here is PROPOSED by this module (no seed rule
covers mixed damage), and says so:

* a Fae combatant as a kernel ``Fighter`` (:class:`FadadFace`): attack/defence from its
  chances (C-04 inverse), DDM = Stamina level + Scale + round(armour DR / 6), where an
  attribute's level is round((value - 50) / 15); ODM = Strength level + Scale, which no
  rule reads (a Fae blow on a FADAD body lands by the Fae damage sequence, below);
* a FADAD blow's wound level on a Fae body: a fraction of its Wound Points
  (:data:`WOUND_FRACTION`);
* a Fae blow's damage on a FADAD body: a fraction of bridged Wound Points
  ``fae.bridge_wound_points (40) x 1.5 ** (Damage Capacity + Mass Scale)`` read back as a
  wound level (:func:`wound_for_fraction`); FADAD armour counts as DR
  ``fae.bridge_armour_dr (6) x armour``.

Every number above is an option of ``FaeOptions`` (``fae.bridge_wound_percent``,
``fae.bridge_attribute_step``, ``fae.bridge_wound_points``, ``fae.bridge_armour_dr``); the
functions take them as arguments with the defaults.

>>> percentile_to_ladder(62), percentile_to_ladder(81), attribute_level(80)
(0, 1, 2)
>>> fadad_wound_from_damage(20, 40)
3
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from fadad_agents.agents.core.base import Arena
from fadad_agents.rules.core.wounds import WoundTrack, new_track
from fadad_agents.rules.fae.attack import FaeHealth, apply_damage
from fadad_agents.rules.fae.checks import fae_size_to_mass_scale, ladder_to_percentile
from fadad_agents.rules.fae.options import FaeOptions
from fadad_agents.rules.personal import combat
from fadad_agents.schema.fae import FaeCharacter as FaeStats

__all__ = [
    "FADAD_ARMOUR_DR",
    "WOUND_FRACTION",
    "WOUND_PERCENT",
    "FadadFace",
    "attribute_level",
    "fadad_wound_from_damage",
    "fadad_wound_points",
    "fae_wounds_from_level",
    "percentile_to_ladder",
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


class FadadFace:
    """The kernel face a Fae combatant shows FADAD fighters in a mixed scene (C-04):
    the Fighter their blows are resolved against, a defence from its margin, and their
    wound levels read back as Fae Wounds. Mixed into the Fae agent."""

    stats: FaeStats
    opts: FaeOptions
    armour_dr: int
    health: FaeHealth
    name: str

    @property
    def fighter(self) -> combat.Fighter:
        """This combatant as a kernel Fighter (PROPOSED, the module docstring)."""
        a = self.stats.attributes
        o = self.opts
        scale = fae_size_to_mass_scale(a.size) if o.size_bridge else 0
        armour = round(self.armour_dr / max(1, o.bridge_armour_dr))
        step = o.bridge_attribute_step
        return combat.Fighter(
            name=self.name,
            attack=percentile_to_ladder(self.chance("attack")),  # type: ignore[attr-defined]
            defence=percentile_to_ladder(
                max(self.chance("dodge"), self.chance("block"))  # type: ignore[attr-defined]
            ),
            odm=attribute_level(a.strength, step) + scale,
            ddm=attribute_level(a.stamina, step) + scale + armour,
            scale=scale,
            armour=armour,
        )

    def use_defence(self) -> bool:
        """Meet a FADAD blow with a dodge or block: a short action (-25) if one is left."""
        if not self.has_action or self.margin is None:  # type: ignore[attr-defined]
            return False
        self.spend("short")  # type: ignore[attr-defined]
        return True

    def melee_track(self) -> WoundTrack:
        """A fresh track: the blow's own wound level is what converts to Fae Wounds."""
        return new_track("standard")

    def absorb(self, result: Any, arena: Arena) -> None:
        """A FADAD hit: its wound level becomes a share of Wound Points (PROPOSED)."""
        if not result.hit:
            return
        amount = fae_wounds_from_level(
            int(result.wound), self.stats.wound_points, self.opts.bridge_wound_percent
        )
        self.health = apply_damage(self.health, amount)
        if self.health.dead:
            arena.take_out(self, "dead")  # type: ignore[arg-type]
