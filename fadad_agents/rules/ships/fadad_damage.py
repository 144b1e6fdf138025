"""FADAD ship damage: damage number, levels Scratched..Wrecked, rams, wildfire, repair.

Implements ``ships-fadad.md`` sections 4, 5.1, 3.1 (wildfire) and 7 with ``CONFLICTS.md``
C-02 (FADAD damage levels), C-08 (fire), C-21 (repair), A-38 (ship wound track and the
negative-damage cap), A-43 (repair workforce) and A-44 (ram resolution). Hitting the
ship is :mod:`fadad_agents.rules.ships.fadad_combat`; critical hits are
:mod:`fadad_agents.rules.ships.fadad_crits`.

The ship track reuses the character wound track of :mod:`fadad_agents.rules.core.wounds`
(boxes 3/1/1/1/1, A-38); its levels read as :class:`ShipLevel`.

>>> ship_damage(1, 22, 0, 1, 17)                              # EX-SHF-02
5
>>> ship_level_for_damage(5).label
'Heavily Damaged'
>>> ram_damage_base(18, 3, ram_takes_brunt=True), ram_damage_base(16, 3)  # EX-SHF-04 (see tests)
(19, 21)
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from enum import IntEnum
from fractions import Fraction
from typing import Literal

from fadad_agents.rules.core import actions
from fadad_agents.rules.core.damage import fadad_damage
from fadad_agents.rules.core.dice import Distribution, fudge_distribution, roll_4df
from fadad_agents.rules.core.ladder import TERRIBLE
from fadad_agents.rules.core.wounds import (
    Overflow,
    WoundTrack,
    custom_track,
    landing,
    record,
    wound_for_damage,
)
from fadad_agents.rules.ships.fadad_combat import ShipRulesError, attack_outcomes

__all__ = [
    "GP_PER_WORKER_WEEK",
    "REPAIR_FRACTION",
    "SHIP_TRACK_BOXES",
    "WILDFIRE_DAMAGE",
    "RamAttempt",
    "ShipDamage",
    "ShipLevel",
    "crippled_mc",
    "fire_damage_number",
    "fire_value",
    "level_from_hull_fraction",
    "max_safe_sr",
    "new_ship_track",
    "ram_attempt_outcomes",
    "ram_damage",
    "ram_damage_base",
    "record_ship_damage",
    "repair_cost",
    "repair_weeks",
    "repair_worker_weeks",
    "resolve_ram_attempt",
    "roll_entangled",
    "ship_damage",
    "ship_damage_outcomes",
    "ship_level",
    "ship_level_for_damage",
    "shot_damage_outcomes",
    "wildfire_ignites",
]

# --- ship damage and damage levels (section 4, A-38, C-02) -----------------------------


class ShipLevel(IntEnum):
    """Ship damage levels (section 4), indexed like the character wound levels."""

    UNDAMAGED = 0
    SCRATCHED = 1
    LIGHTLY_DAMAGED = 2
    HEAVILY_DAMAGED = 3
    CRIPPLED = 4
    WRECKED = 5
    DESTROYED = 6

    @property
    def label(self) -> str:
        """Display name: ``"Heavily Damaged"``."""
        return self.name.replace("_", " ").title()


SHIP_TRACK_BOXES: tuple[int, int, int, int, int] = (3, 1, 1, 1, 1)
"""A-38 (PROPOSED): boxes per level Scratched..Wrecked, the standard character track."""


def ship_damage(
    rd: int,
    weapon_damage: int,
    roll: int,
    armour: int,
    mass_scale: int,
    *,
    negative_cap: bool = True,
) -> int:
    """The ship damage number: RD + weapon damage + 4dF - armour - Mass Scale (section 4).

    With ``negative_cap`` (``ship.fadad_negative_cap``, A-38) a negative base caps the
    result at 1, as for characters. 0 or less is no damage (returned as 0).
    """
    factor = weapon_damage - armour - mass_scale
    if negative_cap:
        return fadad_damage(rd, factor, roll)
    return max(0, rd + factor + roll)


def ship_damage_outcomes(
    rd: int, weapon_damage: int, armour: int, mass_scale: int, *, negative_cap: bool = True
) -> Distribution[int]:
    """Exact distribution of :func:`ship_damage` over the 4dF roll, ascending."""
    merged: dict[int, Fraction] = {}
    for roll, p in fudge_distribution(4):
        d = ship_damage(rd, weapon_damage, roll, armour, mass_scale, negative_cap=negative_cap)
        merged[d] = merged.get(d, Fraction(0)) + p
    return sorted(merged.items())


def shot_damage_outcomes(
    skill: int,
    target: int,
    ms: int | None,
    penalty: int,
    weapon_damage: int,
    armour: int,
    mass_scale: int,
    *,
    negative_cap: bool = True,
) -> Distribution[int]:
    """Exact distribution of one shot's damage number, a miss counting as 0 (ascending).

    Combines :func:`~fadad_agents.rules.ships.fadad_combat.attack_outcomes` (gunner 4dF against
    the ship's dodge 4dF) with the damage roll's 4dF.
    """
    merged: dict[int, Fraction] = {}
    for rd, p in attack_outcomes(skill, target, ms, penalty):
        if rd < 1:
            merged[0] = merged.get(0, Fraction(0)) + p
            continue
        for dmg, q in ship_damage_outcomes(
            rd, weapon_damage, armour, mass_scale, negative_cap=negative_cap
        ):
            merged[dmg] = merged.get(dmg, Fraction(0)) + p * q
    return sorted(merged.items())


def ship_level_for_damage(damage: int) -> ShipLevel:
    """Level of one damage number: 1-2 Scratched .. 9+ Wrecked; 0 or less Undamaged."""
    return ShipLevel(int(wound_for_damage(damage)))


def new_ship_track(boxes: tuple[int, int, int, int, int] = SHIP_TRACK_BOXES) -> WoundTrack:
    """An undamaged ship's track (boxes Scratched..Wrecked)."""
    return custom_track(boxes)


def ship_level(track: WoundTrack) -> ShipLevel:
    """The ship's current level: its highest marked box, or Destroyed after overflow."""
    return _SHIP_LEVELS[track.level]  # ShipLevel(track.level), without the enum's call


_SHIP_LEVELS = tuple(ShipLevel(value) for value in range(len(ShipLevel)))
"""The levels by value (read by every SR, MS and hull look-up)."""


@dataclass(frozen=True, slots=True)
class ShipDamage:
    """The result of recording one damage number on a ship's track.

    Attributes:
        damage: the damage number.
        severity: the level the number itself reads as.
        landed: the box it was marked in (promoted if full); ``UNDAMAGED`` = no mark,
            ``DESTROYED`` = overflow past Wrecked.
        before: the ship's level before the hit.
        track: the track after the hit.
    """

    damage: int
    severity: ShipLevel
    landed: ShipLevel
    before: ShipLevel
    track: WoundTrack

    @property
    def level(self) -> ShipLevel:
        """The ship's level after the hit."""
        return ship_level(self.track)

    @property
    def crippling(self) -> bool:
        """Crippling damage was taken or lesser damage was promoted to Crippled."""
        return ShipLevel.CRIPPLED in (self.severity, self.landed)


def record_ship_damage(
    track: WoundTrack,
    damage: int,
    *,
    overflow: Literal["destroyed", "stay_wrecked"] = "destroyed",
) -> ShipDamage:
    """Mark one damage number on the ship's track (section 4; recording as for characters).

    A full level promotes the hit to the next level with an open box; past Wrecked the
    ship is destroyed (``ship.overflow_past_wrecked``, PROPOSED) or stays Wrecked.
    """
    severity = ship_level_for_damage(damage)
    rule: Overflow = "dead" if overflow == "destroyed" else "stay_near_death"
    landed = ShipLevel(landing(track, severity, overflow_past_near_death=rule))
    after = record(track, severity, overflow_past_near_death=rule)
    return ShipDamage(damage, severity, landed, ship_level(track), after)


def level_from_hull_fraction(lost: int, total: int) -> ShipLevel:
    """C-02 bridge (PROPOSED): Spelljammer hull-point loss read as a FADAD level.

    0 lost Undamaged; up to 10% Scratched; up to 25% Lightly; up to 50% Heavily (the d20
    "crit above 50%" meets FADAD's crit at Heavy/Crippling); under 100% Crippled; all
    Wrecked.
    """
    if total < 1 or lost < 0:
        raise ShipRulesError(f"hull points lost {lost} of {total}: need total >= 1, lost >= 0")
    frac = Fraction(min(lost, total), total)
    for top, level in _HULL_BANDS:
        if frac <= top:
            return level
    return ShipLevel.CRIPPLED if frac < 1 else ShipLevel.WRECKED


_HULL_BANDS: tuple[tuple[Fraction, ShipLevel], ...] = (
    (Fraction(0), ShipLevel.UNDAMAGED),
    (Fraction(1, 10), ShipLevel.SCRATCHED),
    (Fraction(1, 4), ShipLevel.LIGHTLY_DAMAGED),
    (Fraction(1, 2), ShipLevel.HEAVILY_DAMAGED),
)


def crippled_mc(mc: int, level: int) -> int:
    """A Crippled (or worse) ship's MC becomes Terrible (section 4)."""
    return TERRIBLE if level >= ShipLevel.CRIPPLED else mc


def max_safe_sr(sr: int, level: int) -> int:
    """Highest safe speed: SR 1 once Crippled, 0 once Wrecked (it is breaking up)."""
    if level >= ShipLevel.WRECKED:
        return 0
    return min(sr, 1) if level >= ShipLevel.CRIPPLED else sr


# --- ramming (section 5.1, A-44) -------------------------------------------------------


def ram_damage_base(
    other_mass_scale: int,
    relative_sr: int,
    *,
    ram_takes_brunt: bool = False,
    other_ram_piercing: bool = False,
) -> int:
    """Ram damage one ship takes before its own armour, Mass Scale and 4dF (SEED).

    The other ship's Mass Scale + relative speed in SR + 2; -4 if this ship's ramming
    device takes the brunt; +1 if the other ship's ram is a piercing ram.
    """
    if relative_sr < 0:
        raise ShipRulesError(f"relative speed {relative_sr} SR must be 0 or more")
    return other_mass_scale + relative_sr + 2 - 4 * ram_takes_brunt + other_ram_piercing


def ram_damage(
    base: int, roll: int, armour: int, mass_scale: int, *, negative_cap: bool = True
) -> int:
    """A rammed ship's damage number: base + 4dF - own armour - own Mass Scale (A-44).

    No RD is added; the FADAD negative-base cap applies as for artillery (A-38).
    """
    return ship_damage(0, base, roll, armour, mass_scale, negative_cap=negative_cap)


@dataclass(frozen=True, slots=True)
class RamAttempt:
    """An opposed Maneuvering Skill roll to ram (A-44): ``rd >= 1`` rams."""

    rammer: int
    target: int
    rd: int

    @property
    def rams(self) -> bool:
        """The rammer made contact."""
        return self.rd >= 1


def resolve_ram_attempt(rammer_ms: int, target_ms: int, rng: random.Random) -> RamAttempt:
    """Roll rammer MS + 4dF against target MS + 4dF; the target wins ties."""
    a = rammer_ms + roll_4df(rng)
    d = target_ms + roll_4df(rng)
    return RamAttempt(a, d, a - d)


def ram_attempt_outcomes(rammer_ms: int, target_ms: int) -> Distribution[int]:
    """Exact distribution of the ram attempt's RD, ascending (RD >= 1 rams)."""
    return actions.rd_distribution(rammer_ms, target_ms)


def roll_entangled(rng: random.Random, pct: int = 50) -> bool:
    """Whether a piercing ram leaves the ships entangled (A-44: ``pct`` %, PROPOSED 50)."""
    if not 0 <= pct <= 100:
        raise ShipRulesError(f"entanglement chance {pct}% must be 0..100")
    return int(rng.random() * 100) < pct


# --- wildfire and crit fires (section 3.1, section 6, C-08) -----------------------------

WILDFIRE_DAMAGE = 16
"""A wildfire projector's first-round fire damage (SEED)."""


def fire_value(initial: int, round_number: int) -> int:
    """A fire's damage in its ``round_number``-th round (1 = the round it starts).

    Unless put out each round does the previous round's damage + 1: wildfire 16, 17, 18
    (EX-SHF-05); a crit fire 0, 1, 2.
    """
    if round_number < 1:
        raise ShipRulesError(f"fire round {round_number} must be 1 or more (1 = first round)")
    return initial + round_number - 1


def wildfire_ignites(*, envelopes_overlap: bool, hits_open_flame: bool = False) -> bool:
    """A wildfire hit sets the target on fire, unless the two ships' air envelopes do not
    overlap; then it ignites only if it strikes an open flame (SEED)."""
    return envelopes_overlap or hits_open_flame


def fire_damage_number(
    value: int,
    roll: int,
    mass_scale: int,
    fireproof_armour: int = 0,
    *,
    scale: Literal["weapon_damage", "damage_number"] = "weapon_damage",
    negative_cap: bool = True,
) -> int:
    """The ship damage number of one round of fire whose value is ``value`` (PROPOSED).

    ``weapon_damage`` (wildfire always; crit fires with ``fire.fadad_crit_fire_scale =
    "weapon_damage"``): the value is weapon damage like the table's other entries, so
    value + 4dF - fireproof armour - Mass Scale, with the negative cap; only fireproof
    armour protects. ``damage_number`` (crit fires by default): the value *is* the damage
    number (0 the first round, 1 the next ...), ``roll`` and armour unused.
    """
    if scale == "damage_number":
        return max(0, value)
    if scale == "weapon_damage":
        return ship_damage(0, value, roll, fireproof_armour, mass_scale, negative_cap=negative_cap)
    raise ShipRulesError(f"fire scale {scale!r} unknown; use 'weapon_damage' or 'damage_number'")


# --- repair (section 7, A-43, C-21) -----------------------------------------------------

REPAIR_FRACTION: dict[ShipLevel, Fraction] = {
    ShipLevel.UNDAMAGED: Fraction(0),
    ShipLevel.SCRATCHED: Fraction(5, 100),
    ShipLevel.LIGHTLY_DAMAGED: Fraction(20, 100),
    ShipLevel.HEAVILY_DAMAGED: Fraction(35, 100),
    ShipLevel.CRIPPLED: Fraction(60, 100),
}
"""Repair cost as a fraction of the ship's cost by damage level (SEED)."""

GP_PER_WORKER_WEEK = 20


def repair_cost(ship_cost: int, level: int) -> Fraction:
    """Repair bill in gp for a ship at ``level`` (Wrecked ships cannot be repaired)."""
    try:
        return ship_cost * REPAIR_FRACTION[ShipLevel(level)]
    except (KeyError, ValueError):
        raise ShipRulesError(
            f"no repair cost for level {level}; only Undamaged..Crippled ships can be repaired"
        ) from None


def repair_worker_weeks(cost_gp: Fraction | int) -> Fraction:
    """Work needed: 1 worker-week per 20 gp of repairs (SEED)."""
    return Fraction(cost_gp) / GP_PER_WORKER_WEEK


def repair_weeks(
    worker_weeks: Fraction | int,
    volume_tons: int,
    *,
    workers: int | None = None,
    shifts: int = 1,
    workers_per_ton: int = 1,
) -> int:
    """Whole weeks to finish: at most ``workers_per_ton`` workers per ton per shift (A-43).

    ``workers=None`` uses the most the ship allows.
    """
    cap = volume_tons * workers_per_ton
    crew = cap if workers is None else min(workers, cap)
    if crew < 1 or shifts < 1:
        raise ShipRulesError(f"need at least one worker and one shift (got {crew}, {shifts})")
    return math.ceil(Fraction(worker_weeks) / (crew * shifts))
