"""Fae Domains facing: the front arc, the sides and the rear of a fighter (section 3.1).

"Blindside attack: If your character is attacking the target from the side, add 15 to the
skill test. This will not apply if the character has the wide angle vision trait. Rear
attack: Attacking someone from the rear where they have no chance to see it coming adds 20
... If the target has the all around vision trait, your character will not get this bonus."

The seed names the arcs, not their widths. PROPOSED (``fae.front_arc``, ``fae.rear_arc``):
a front arc of 120 degrees centred on the facing (what one watches), a rear arc of 90
degrees centred behind (what one cannot see coming), the sides between. The arc is read
from where the attacker is, in three dimensions: a foe straight overhead is on the side.
Distance plays no part: the seed ties the bonuses to direction only (range has its own
modifier). The vision traits' exceptions are applied by
:func:`~fadad_agents.rules.fae.attack.attack_modifier`.

>>> attack_arc((1.0, 0.0), (0.0, 0.0, 0.0), (5.0, 1.0, 0.0))
'front'
>>> attack_arc((1.0, 0.0), (0.0, 0.0, 0.0), (0.0, 3.0, 0.0))
'side'
>>> attack_arc((1.0, 0.0), (0.0, 0.0, 0.0), (-60.0, -5.0, 0.0))
'rear'
"""

from __future__ import annotations

import math
from typing import Literal

from fadad_agents.rules.fae.checks import FaeError

__all__ = ["Arc", "attack_arc", "heading_from_degrees", "unit"]

type Arc = Literal["front", "side", "rear"]

_EPS = 1e-9


def unit(dx: float, dy: float) -> tuple[float, float] | None:
    """The horizontal unit vector along (dx, dy); None for no direction at all."""
    n = math.hypot(dx, dy)
    return None if n == 0 else (dx / n, dy / n)


def heading_from_degrees(degrees: float) -> tuple[float, float]:
    """A facing given in degrees counter-clockwise from +x, as a unit vector."""
    r = math.radians(degrees)
    return math.cos(r), math.sin(r)


def attack_arc(
    heading: tuple[float, float],
    target: tuple[float, float, float],
    attacker: tuple[float, float, float],
    front_arc: int = 120,
    rear_arc: int = 90,
) -> Arc:
    """The arc of the target (at ``target``, facing ``heading``) the attacker strikes from.

    ``front_arc`` and ``rear_arc`` are whole widths in degrees; an attacker on a boundary
    counts in the front (or the side, not the rear). An attacker at the target's own place
    has no direction and counts as in front.
    """
    if not 0 <= front_arc <= 360 or not 0 <= rear_arc <= 360 or front_arc + rear_arc > 360:
        raise FaeError(f"arcs of {front_arc} and {rear_arc} degrees do not fit in a circle")
    v = (attacker[0] - target[0], attacker[1] - target[1], attacker[2] - target[2])
    n = math.sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2])
    if n == 0:
        return "front"
    cos = (heading[0] * v[0] + heading[1] * v[1]) / n
    if cos >= math.cos(math.radians(front_arc / 2)) - _EPS:
        return "front"
    if cos < math.cos(math.radians(180 - rear_arc / 2)) - _EPS:
        return "rear"
    return "side"
