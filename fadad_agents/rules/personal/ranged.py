"""Ranged and widespread attacks: range Target, unaware and aware targets, readying, areas.

Implements ``personal-combat.md`` section 6 (SEED FADAD 4.4) and section 7 (widespread
attacks, SEED 4.4.1), with ``CONFLICTS.md`` A-02 (``range.extreme_literal``), A-11
(``range.widespread_scale_rounding``, ``range.volume_scale_rounding``), A-12 and A-14 (the
range Difficulty Level is the Target of an aware defender).

>>> range_target(-3, "medium")                 # EX-PC-09: human at Medium range
1
>>> volume_scale(33_510), widespread_ddm(24, armour=1, victim_volume_scale=28,
...                                       attack_volume_scale=23)   # EX-PC-08
(23, 14)
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from fadad_agents.rules.core.actions import Opposed, opposed, opposed_outcomes, roll_opposed
from fadad_agents.rules.core.dice import Distribution
from fadad_agents.rules.core.ladder import GOOD, TERRIBLE

__all__ = [
    "CONCENTRATION_BONUS",
    "FIRE_ACTIONS",
    "PROJECTILE_DEFENCE_PENALTY",
    "RANGE_BANDS",
    "RANGE_TARGET_MODIFIER",
    "READY_ACTIONS",
    "VOLUME_SCALE_0_FT3",
    "RangeBand",
    "RangedError",
    "Widespread",
    "aware_target",
    "projectile_defence_penalty",
    "range_band",
    "range_target",
    "range_target_modifier",
    "ranged_skill_modifier",
    "ready_actions",
    "readying_dexterity_dl",
    "roll_widespread",
    "shots_per_round",
    "unaware_difficulty",
    "volume_scale",
    "widespread",
    "widespread_damages",
    "widespread_ddm",
    "widespread_outcomes",
    "widespread_scale",
]

type RangeBand = Literal["melee", "point_blank", "short", "medium", "long", "extreme"]

RANGE_BANDS: tuple[RangeBand, ...] = ("melee", "point_blank", "short", "medium", "long", "extreme")
RANGE_TARGET_MODIFIER: dict[RangeBand, int] = {
    "melee": 0,
    "point_blank": 2,
    "short": 3,
    "medium": 4,
    "long": 5,
    "extreme": 7,
}
"""Target modifier by range band (SEED table section 4.4)."""

_EXTREME_LITERAL = 8  # printed typical Target Legendary+1 (+5) over Terrible (-3), A-02

CONCENTRATION_BONUS = 2
"""+2 to skill for an attacker who concentrates on shooting and does nothing else."""

PROJECTILE_DEFENCE_PENALTY: dict[str, int] = {
    "none": 0,
    "hand": -1,  # rock, throwing knife
    "mechanical": -2,  # arrow, quarrel, sling bullet
    "too_fast": -3,  # gunpowder bullet, magical bolt
}
"""Penalty to every defence against fast projectiles except a shield block."""

READY_ACTIONS: dict[str, int] = {
    "throwing_dagger": 1,  # 0 when conveniently placed
    "sling": 1,
    "bow": 1,
    "light_crossbow": 2,
    "heavy_crossbow": 3,
}
"""Actions to ready a missile weapon (draw, nock, span...), SEED table section 4.4."""

FIRE_ACTIONS = 1
"""Aiming and firing take one action after readying."""

VOLUME_SCALE_0_FT3 = 3.09
"""Volume Scale 0 is 3.09 cubic feet; each step is 1.5 times the last (SEED 4.4.1)."""


class RangedError(ValueError):
    """A ranged-combat input is outside what the rules allow."""


def _band(band: str) -> RangeBand:
    for known in RANGE_BANDS:
        if band == known:
            return known
    raise RangedError(f"unknown range band {band!r}; allowed: {', '.join(RANGE_BANDS)}")


def range_band(
    yards: float, bands: tuple[int, int, int, int], extreme_multiple: float = 2.0
) -> RangeBand | None:
    """The range band of a shot ``yards`` long: ``bands`` are the upper bounds of
    point-blank, short, medium and long range; Extreme reaches ``extreme_multiple`` times
    the long range (PROPOSED, ``range.extreme_multiple``); beyond it, None (out of range).

    >>> range_band(8, (10, 50, 100, 210)), range_band(150, (10, 50, 100, 210))
    ('point_blank', 'long')
    >>> range_band(400, (10, 50, 100, 210)), range_band(421, (10, 50, 100, 210))
    ('extreme', None)
    """
    for band, upper in zip(RANGE_BANDS[1:5], bands, strict=True):
        if yards <= upper:
            return band
    if yards <= bands[3] * extreme_multiple:
        return "extreme"
    return None


def range_target_modifier(band: str, *, extreme_literal: bool = False) -> int:
    """Target modifier of a range band; Extreme is +7, or +8 with ``extreme_literal`` (A-02)."""
    checked = _band(band)
    if checked == "extreme" and extreme_literal:
        return _EXTREME_LITERAL
    return RANGE_TARGET_MODIFIER[checked]


def range_target(base_target: int, band: str, *, extreme_literal: bool = False) -> int:
    """Target of a shot: the Scale Target (``melee.scale_target``) plus the range modifier.

    A human-sized target gives the printed typical Targets: Terrible at melee range ...
    Great at Long, Legendary at Extreme (Legendary+1 with ``extreme_literal``).
    """
    return base_target + range_target_modifier(band, extreme_literal=extreme_literal)


def unaware_difficulty(
    base_target: int, band: str, *, conditions: int = 0, extreme_literal: bool = False
) -> int:
    """Difficulty Level of a shot at an unaware target (section 6.1, unopposed).

    Built from Target and range plus ``conditions`` (the GM's lighting and cover
    adjustments); the attacker's skill is not modified for range or cover.
    """
    return range_target(base_target, band, extreme_literal=extreme_literal) + conditions


def aware_target(
    base_target: int, band: str, *, conditions: int = 0, extreme_literal: bool = False
) -> int:
    """Target of an aware defender (A-14): the same range Difficulty Level as the Target.

    Pass it as ``target`` to :func:`fadad_agents.rules.core.actions.opposed`.
    """
    return unaware_difficulty(
        base_target, band, conditions=conditions, extreme_literal=extreme_literal
    )


def ranged_skill_modifier(
    *, concentrating: bool = False, equipment: int = 0, wound_penalty: int = 0
) -> int:
    """Modifier to a ranged attack skill: +2 concentrating, equipment (magic), wounds."""
    return (CONCENTRATION_BONUS if concentrating else 0) + equipment + wound_penalty


def projectile_defence_penalty(projectile: str, defence: str) -> int:
    """Penalty to a defence against a projectile; a ``"shield_block"`` is never penalised.

    ``projectile`` is one of ``none``, ``hand``, ``mechanical``, ``too_fast``.
    """
    try:
        penalty = PROJECTILE_DEFENCE_PENALTY[projectile]
    except KeyError:
        allowed = ", ".join(PROJECTILE_DEFENCE_PENALTY)
        raise RangedError(f"unknown projectile {projectile!r}; allowed: {allowed}") from None
    return 0 if defence == "shield_block" else penalty


def ready_actions(weapon: str, *, conveniently_placed: bool = False) -> int:
    """Actions to ready a missile weapon; a conveniently placed throwing dagger needs none."""
    try:
        actions = READY_ACTIONS[weapon]
    except KeyError:
        allowed = ", ".join(READY_ACTIONS)
        raise RangedError(f"unknown missile weapon {weapon!r}; allowed: {allowed}") from None
    if weapon == "throwing_dagger" and conveniently_placed:
        return 0
    return actions


def shots_per_round(
    weapon: str, actions_per_round: int = 2, *, conveniently_placed: bool = False
) -> Fraction:
    """Sustained shots per round: actions per round / (ready + fire). Bow: 1; heavy xbow: 1/2."""
    per_shot = ready_actions(weapon, conveniently_placed=conveniently_placed) + FIRE_ACTIONS
    return Fraction(actions_per_round, per_shot)


def readying_dexterity_dl(actions_in_round: int) -> int | None:
    """DL of the Dexterity roll to ready a weapon when taking more than two actions a round.

    Good for a sharpshooter attempting a third action or more; ``None`` when not needed.
    """
    return GOOD if actions_in_round > 2 else None


# --- widespread attacks (section 7) ---------------------------------------------------


def widespread_damages(attack_rolled: int) -> bool:
    """A widespread attack does damage if placed at Terrible or better, even with RD < 0."""
    return attack_rolled >= TERRIBLE


@dataclass(frozen=True, slots=True)
class Widespread:
    """A widespread attack on one victim: the opposed result and whether it damages.

    ``result.rd`` still enters the damage sum when ``damages`` is true.
    """

    result: Opposed
    damages: bool


def widespread(
    attack_rolled: int,
    defence_rolled: int | None,
    target: int | None,
    *,
    attack_dice: int = 0,
    mode: str = "effective_opposition",
) -> Widespread:
    """Resolve a widespread attack on one victim; a trapped victim passes ``None`` (Target only)."""
    result = opposed(attack_rolled, defence_rolled, target, attack_dice=attack_dice, mode=mode)
    return Widespread(result, widespread_damages(attack_rolled))


def widespread_outcomes(
    attack_trait: int,
    defence_trait: int | None,
    target: int | None,
    *,
    attack_modifier: int = 0,
    defence_modifier: int = 0,
    mode: str = "effective_opposition",
) -> Distribution[Widespread]:
    """Exact distribution of :func:`roll_widespread`."""
    dist = opposed_outcomes(
        attack_trait,
        defence_trait,
        target,
        attack_modifier=attack_modifier,
        defence_modifier=defence_modifier,
        mode=mode,
    )
    return [(Widespread(o, widespread_damages(o.attack_rolled)), p) for o, p in dist]


def roll_widespread(
    attack_trait: int,
    defence_trait: int | None,
    target: int | None,
    rng: random.Random,
    *,
    attack_modifier: int = 0,
    defence_modifier: int = 0,
    mode: str = "effective_opposition",
) -> Widespread:
    """Roll a widespread attack on one victim (same draws as ``actions.roll_opposed``)."""
    result, _, _ = roll_opposed(
        attack_trait,
        defence_trait,
        target,
        rng,
        attack_modifier=attack_modifier,
        defence_modifier=defence_modifier,
        mode=mode,
    )
    return Widespread(result, widespread_damages(result.attack_rolled))


def _round(value: Fraction | float, rounding: str) -> int:
    if rounding == "toward_zero":
        return math.trunc(value)
    if rounding == "floor":
        return math.floor(value)
    if rounding == "ceil":
        return math.ceil(value)
    if rounding == "nearest":  # half away from zero, not banker's rounding
        magnitude = math.floor(abs(Fraction(value)) + Fraction(1, 2))
        return magnitude if value >= 0 else -magnitude
    raise RangedError(f"unknown rounding {rounding!r}; allowed: toward_zero, floor, ceil, nearest")


def widespread_scale(scale: int, rounding: str = "toward_zero") -> int:
    """Scale counts one third against widespread attacks (A-11 rounding, default toward zero).

    >>> widespread_scale(24), widespread_scale(-5), widespread_scale(-5, "floor")
    (8, -1, -2)
    """
    return _round(Fraction(scale, 3), rounding)


def volume_scale(volume_ft3: float, rounding: str = "nearest") -> int:
    """Volume Scale of a volume in cubic feet: log1.5(V / 3.09), rounded (A-11)."""
    if volume_ft3 <= 0:
        raise RangedError(f"a volume must be positive, got {volume_ft3} cubic feet")
    return _round(math.log(volume_ft3 / VOLUME_SCALE_0_FT3) / math.log(1.5), rounding)


def widespread_ddm(
    mass_scale: int,
    *,
    armour: int = 0,
    other: int = 0,
    victim_volume_scale: int | None = None,
    attack_volume_scale: int | None = None,
    rounding: str = "toward_zero",
) -> int:
    """Defensive damage modifier against a widespread attack (section 7).

    Mass Scale / 3 + armour + ``other`` (e.g. Damage Capacity), plus, for a victim bigger
    than the area of effect, (victim volume Scale - attack volume Scale).
    """
    ddm = widespread_scale(mass_scale, rounding) + armour + other
    if victim_volume_scale is not None and attack_volume_scale is not None:
        ddm += max(0, victim_volume_scale - attack_volume_scale)
    return ddm
