"""Fae Domains attacks: modifiers, range, aim, damage by margin, defences, wounds, called shots.

Implements ``fae-domains.md`` section 3.1-3.3 (attack modifiers, range penalty, aiming,
the damage sequence, stun attacks, called shots), section 7 (special called shots with
their delayed deaths) and section 8 (equipment damage and barriers), with ``CONFLICTS.md``
A-63 (damage rounds half up), A-64 (dodge, then block + armour), A-65 (half thresholds),
A-67 (armour and shields wear by the excess), C-24 (stun to Fatigue) and C-25 (Fae
called shots).

>>> damage_from_margin(100, 25)
25
>>> equipment_damage(85, 90)
EquipmentHit(excess=5, dr_after=80, broken=False)
>>> range_penalty(25, range_rating=10)
-10
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Literal

from fadad_agents.rules.fae.checks import FaeCheck, FaeError, check_result
from fadad_agents.rules.fae.options import FaeOptions

__all__ = [
    "AIM_KEEPERS",
    "ATTACK_MODIFIERS",
    "BARRIER_DR",
    "CALLED_SHOT_MARGIN",
    "DROP_DAMAGE",
    "AttackSituation",
    "Barrier",
    "DamageResult",
    "Defences",
    "EquipmentHit",
    "FaeHealth",
    "ShotEffect",
    "acrobatic_dodge",
    "acrobatic_dodge_move",
    "aim_bonus",
    "aim_cap",
    "aim_kept",
    "apply_damage",
    "attack_modifier",
    "block_bonus",
    "called_shot_modifier",
    "damage_from_margin",
    "damage_sequence",
    "delayed_death_outcomes",
    "delayed_death_seconds",
    "disarm_kept",
    "dodge_move_feet",
    "effective_margin",
    "equipment_damage",
    "new_barrier",
    "range_penalty",
    "resolve_delayed_death",
    "special_shot_effect",
    "strike_barrier",
    "stun_modifier",
    "unarmed_block_dr",
    "useful_aim_actions",
]

type WeaponKind = Literal["blunt", "slashing", "piercing"]
type SpecialShot = Literal[
    "disarm", "item_break", "head", "limb", "chest", "abdomen", "nerve_center"
]

ATTACK_MODIFIERS: dict[str, int] = {
    "offhand": -10,
    "large_weapon": -20,
    "two_handed": 20,
    "blindside": 15,
    "rear": 20,
    "blinded": -60,
    "prone": -10,
    "kneeling_melee": -5,
    "kneeling_missile": 5,
    "per_range_increment": -5,
}
"""The attack test modifiers table (``fae-domains.md`` 3.1), in percent."""

CALLED_SHOT_MARGIN = 20
"""A called shot that hits adds 20 to the margin."""

DROP_DAMAGE = 10
"""Base damage a dropped fragile item takes from the fall (free action Drop)."""

BARRIER_DR: dict[str, int] = {
    "loose_earth": 10,
    "wood": 50,
    "treated_wood": 70,
    "stone": 90,
    "steel": 100,
    "dwarven_steel": 120,
}
"""Defense Rating per inch of barrier (RECOVERED, *General Information*)."""


# --- the attack test ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class AttackSituation:
    """What applies to one attack test; each flag maps to a row of the modifiers table."""

    offhand: bool = False
    ambidextrous: bool = False
    large_weapon: bool = False
    two_handed: bool = False
    blindside: bool = False
    target_wide_angle_vision: bool = False
    rear: bool = False
    target_all_around_vision: bool = False
    blinded: bool = False
    prone: bool = False
    kneeling: bool = False
    missile: bool = False


def attack_modifier(s: AttackSituation) -> int:
    """Sum of the table's modifiers with their exceptions (3.1).

    Ambidextrous attackers ignore offhand; blindside fails against wide-angle vision and
    rear against all-around vision. A two-handed grip's +20 cancels a large weapon's -20.
    """
    m = ATTACK_MODIFIERS
    total = 0
    total += m["offhand"] if s.offhand and not s.ambidextrous else 0
    total += m["large_weapon"] if s.large_weapon else 0
    total += m["two_handed"] if s.two_handed else 0
    total += m["blindside"] if s.blindside and not s.target_wide_angle_vision else 0
    total += m["rear"] if s.rear and not s.target_all_around_vision else 0
    total += m["blinded"] if s.blinded else 0
    total += m["prone"] if s.prone else 0
    if s.kneeling:
        total += m["kneeling_missile"] if s.missile else m["kneeling_melee"]
    return total


def range_penalty(distance: int, range_rating: int, max_range: int | None = None) -> int | None:
    """-5% per full range increment; None beyond the weapon's maximum range (cannot hit)."""
    if range_rating < 1 or distance < 0:
        raise FaeError("range rating must be >= 1 yard and distance >= 0")
    if max_range is not None and distance > max_range:
        return None
    return ATTACK_MODIFIERS["per_range_increment"] * (distance // range_rating)


def aim_cap(skill: int) -> int:
    """Most a character can gain by aiming: half the weapon skill, rounded down."""
    return max(0, skill) // 2


def aim_bonus(aim_actions: int, skill: int) -> int:
    """+5% per short Take Aim action, capped at half the weapon skill (40% -> +20)."""
    return min(5 * max(0, aim_actions), aim_cap(skill))


def useful_aim_actions(skill: int) -> int:
    """Aim actions that still add something (Bow 40% -> 4)."""
    return -(-aim_cap(skill) // 5)


AIM_KEEPERS = frozenset({"take_aim", "attack", "delay"})
"""Actions that keep an aim bonus; any other action loses it."""


def aim_kept(action: str) -> bool:
    """Whether an accumulated aim bonus survives ``action`` (aim, attack or hold/delay)."""
    return action in AIM_KEEPERS


def called_shot_modifier(very_small: bool = False) -> int:
    """-20% to the base chance of a called shot, -40% for a very small item."""
    return -40 if very_small else -20


def stun_modifier(weapon: WeaponKind) -> int:
    """Attacking to stun: blunt weapons 0, slashing or piercing (the flat) -10%."""
    return 0 if weapon == "blunt" else -10


# --- damage ---------------------------------------------------------------------------


def damage_from_margin(base: int, margin: int, rounding: str = "half_up") -> int:
    """Damage = Base Damage x Margin% (A-63: nearest, half up): 100 x 25% -> 25."""
    if margin <= 0 or base <= 0:
        return 0
    exact = Fraction(base * margin, 100)
    return int(exact) if rounding == "down" else int(exact + Fraction(1, 2))


def effective_margin(attack_margin: int, dodge_margin: int | None) -> int:
    """Attack margin after a dodge (A-64); 0 or less means the attack is sidestepped."""
    return attack_margin - (dodge_margin or 0)


def dodge_move_feet(dodge_margin: int) -> int:
    """Feet a dodger may move away: half the dodge margin, rounded down (35 -> 17)."""
    return max(0, dodge_margin) // 2


def acrobatic_dodge(
    dodge_mcs: int, acrobatics: FaeCheck, dodge_roll: int, options: FaeOptions | None = None
) -> FaeCheck | None:
    """An acrobatic dodge: None if the Acrobatics test failed, else the dodge outcome.

    The Acrobatics margin is added to the dodge test's chance (default) or to its margin
    (``fae.acrobatic_bonus``).
    """
    opts = options or FaeOptions()
    if not acrobatics.success:
        return None
    if opts.acrobatic_bonus == "to_chance":
        return check_result(dodge_mcs + acrobatics.margin, dodge_roll, opts)
    dodge = check_result(dodge_mcs, dodge_roll, opts)
    return replace(dodge, margin=dodge.margin + acrobatics.margin) if dodge.success else dodge


def acrobatic_dodge_move(dodge_margin: int) -> tuple[int, int]:
    """(horizontal, vertical) feet an acrobatic dodger may move: margin and half of it."""
    m = max(0, dodge_margin)
    return m, m // 2


def block_bonus(block_margin: int, item_dr: int, rounding: str = "half_up") -> int:
    """Armour added by a block: margin% x the item's DR (40% of DR 30 -> 12)."""
    return damage_from_margin(item_dr, block_margin, rounding)


def unarmed_block_dr(agility: int) -> int:
    """An unarmed block's Defense Rating is the blocker's Agility."""
    return agility


@dataclass(frozen=True, slots=True)
class EquipmentHit:
    """What a blow did to an item or barrier of a given DR."""

    excess: int
    dr_after: int
    broken: bool


def equipment_damage(dr: int, damage: int) -> EquipmentHit:
    """Damage above the DR penetrates and is subtracted from the DR (section 8, A-67).

    The item is broken (or the barrier breached) once its DR is driven to 0 or below.
    """
    excess = max(0, damage - dr)
    after = dr - excess
    return EquipmentHit(excess, after, excess > 0 and after <= 0)


@dataclass(frozen=True, slots=True)
class Defences:
    """The target's defences against one attack.

    Attributes:
        dodge_margin: margin of a successful dodge; None without one.
        block_margin: margin of a successful block; None without one (a failed block
            adds nothing and risks nothing).
        block_dr: full DR of the blocking item (Agility for an unarmed block).
        armour_dr: the target's Armour rating, which is its armour's DR.
    """

    dodge_margin: int | None = None
    block_margin: int | None = None
    block_dr: int = 0
    armour_dr: int = 0


@dataclass(frozen=True, slots=True)
class DamageResult:
    """The damage sequence of one attack (3.2 with A-64).

    Attributes:
        margin: attack margin after the dodge.
        sidestepped: a dodge's margin was at least the attack margin.
        damage: Base x margin%.
        block_bonus: armour added by a block.
        inflicted: what reaches Wounds (or Fatigue).
        armour_dr_after: armour DR after wear.
        block_dr_after: blocking item's DR after wear.
    """

    margin: int
    sidestepped: bool
    damage: int
    block_bonus: int
    inflicted: int
    armour_dr_after: int
    block_dr_after: int


def damage_sequence(
    base_damage: int,
    attack_margin: int,
    defences: Defences = Defences(),
    options: FaeOptions | None = None,
) -> DamageResult:
    """Dodge reduces the margin, damage = base x margin%, block + armour subtract (A-64).

    With ``fae.equipment_wear`` the armour and the blocking item each lose the excess of
    the blow's damage over their own full DR (A-67).
    """
    opts = options or FaeOptions()
    margin = effective_margin(attack_margin, defences.dodge_margin)
    d = defences
    if margin <= 0:  # sidestepped by a dodge; a bare margin-0 hit just does no damage
        dodged = (d.dodge_margin or 0) > 0
        return DamageResult(margin, dodged, 0, 0, 0, d.armour_dr, d.block_dr)
    damage = damage_from_margin(base_damage, margin, opts.damage_rounding)
    blocking = d.block_margin is not None
    bonus = block_bonus(d.block_margin or 0, d.block_dr, opts.damage_rounding)
    inflicted = max(0, damage - d.armour_dr - bonus)
    armour_after, block_after = d.armour_dr, d.block_dr
    if opts.equipment_wear:
        armour_after = equipment_damage(d.armour_dr, damage).dr_after if d.armour_dr else 0
        if blocking:
            block_after = equipment_damage(d.block_dr, damage).dr_after
    return DamageResult(margin, False, damage, bonus, inflicted, armour_after, block_after)


@dataclass(frozen=True, slots=True)
class Barrier:
    """A barrier of ``inches`` left; ``dr`` is the current inch's remaining DR."""

    dr_per_inch: int
    inches: int
    dr: int

    @property
    def breached(self) -> bool:
        """Every inch has been driven to DR 0 or below."""
        return self.inches <= 0


def new_barrier(substance: str, inches: int = 1) -> Barrier:
    """A barrier from the table (``wood``, ``stone``, ``dwarven_steel`` ...)."""
    try:
        dr = BARRIER_DR[substance]
    except KeyError:
        raise FaeError(f"unknown barrier {substance!r}; use one of {sorted(BARRIER_DR)}") from None
    if inches < 1:
        raise FaeError(f"barrier thickness {inches} must be at least 1 inch")
    return Barrier(dr, inches, dr)


def strike_barrier(barrier: Barrier, damage: int) -> Barrier:
    """One blow on the current inch; when it is breached the next inch starts fresh."""
    if barrier.breached:
        return barrier
    hit = equipment_damage(barrier.dr, damage)
    if not hit.broken:
        return replace(barrier, dr=hit.dr_after)
    inches = barrier.inches - 1
    return replace(barrier, inches=inches, dr=barrier.dr_per_inch if inches else 0)


# --- wounds, fatigue and special called shots ------------------------------------------


@dataclass(frozen=True, slots=True)
class FaeHealth:
    """Wound and Fatigue totals against a character's Wound and Fatigue Points (A-69)."""

    wound_points: int
    fatigue_points: int
    wounds: int = 0
    fatigue: int = 0

    @property
    def dead(self) -> bool:
        """Wounds above Wound Points."""
        return self.wounds > self.wound_points

    @property
    def unconscious(self) -> bool:
        """Fatigue above Fatigue Points."""
        return self.fatigue > self.fatigue_points


def apply_damage(health: FaeHealth, amount: int, stun: bool = False) -> FaeHealth:
    """Add damage to Wounds, or to Fatigue for a stun attack (C-24)."""
    if amount < 0:
        raise FaeError(f"damage {amount} is negative")
    if stun:
        return replace(health, fatigue=health.fatigue + amount)
    return replace(health, wounds=health.wounds + amount)


@dataclass(frozen=True, slots=True)
class ShotEffect:
    """A special called shot's effect.

    Attributes:
        effect: ``unconscious``, ``dead``, ``limb_numb``, ``limb_severed``,
            ``limb_mangled``, ``winded``, ``doubled_over``, ``dies_in_turns`` or
            ``dies_in_minutes``.
        detail: e.g. ``decapitated`` or ``brain`` for a head kill.
        recover_test: attribute test (full action each) that ends the effect, if any.
        action_test: attribute test needed for every action attempted, if any.
        delay_unit: ``turns`` or ``minutes`` for delayed deaths (1d10 of them).
        lasts_turns: for a numb limb: the rest of this turn and this many more.
    """

    effect: str
    detail: str = ""
    recover_test: str | None = None
    action_test: str | None = None
    delay_unit: Literal["turns", "minutes"] | None = None
    lasts_turns: int = 0


def _reaches(damage: int, points: int, strict: bool, mode: str) -> bool:
    # "half" = at least half, "more than half" = strictly more, unless overridden.
    if mode != "literal":
        strict = mode == "more_than_half"
    return 2 * damage > points if strict else 2 * damage >= points


def special_shot_effect(
    shot: SpecialShot,
    damage: int,
    points: int,
    stun: bool,
    weapon: WeaponKind = "slashing",
    options: FaeOptions | None = None,
) -> ShotEffect | None:
    """The effect of a special called shot that did ``damage`` in one shot (section 7).

    ``points`` is the target's Fatigue Points for a stun attack, Wound Points otherwise
    (the nerve centre always measures against the pool of the damage it took).
    Disarm and item break have no threshold effect here: see :func:`disarm_kept` and
    :func:`equipment_damage`. Returns None when the threshold is not reached.
    """
    mode = (options or FaeOptions()).half_threshold
    if shot in ("disarm", "item_break"):
        return None
    if shot == "head":
        if not _reaches(damage, points, True, mode):
            return None
        if stun:
            return ShotEffect("unconscious")
        return ShotEffect("dead", "decapitated" if weapon == "slashing" else "brain")
    if shot == "limb":
        if stun:
            hit = _reaches(damage, points, False, mode)
            return ShotEffect("limb_numb", lasts_turns=1) if hit else None
        if weapon == "slashing":
            return ShotEffect("limb_severed") if _reaches(damage, points, False, mode) else None
        return ShotEffect("limb_mangled") if _reaches(damage, points, True, mode) else None
    if not _reaches(damage, points, False, mode):
        return None
    if shot == "chest":
        if stun:
            return ShotEffect("winded", recover_test="stamina")
        return ShotEffect("dies_in_turns", delay_unit="turns")
    if shot == "abdomen" and not stun:
        return ShotEffect("dies_in_minutes", delay_unit="minutes", action_test="willpower")
    # Abdomen stun, and the nerve centre either way, double the target over.
    return ShotEffect("doubled_over", recover_test="willpower")


def delayed_death_seconds(effect: ShotEffect, d10: int) -> int:
    """Seconds until a delayed death: d10 combat turns (10 s, at the end of the last) or
    d10 minutes."""
    if effect.delay_unit is None:
        raise FaeError(f"effect {effect.effect!r} is not a delayed death")
    if not 1 <= d10 <= 10:
        raise FaeError(f"d10 roll {d10} is not 1..10")
    return d10 * (10 if effect.delay_unit == "turns" else 60)


def resolve_delayed_death(effect: ShotEffect, rng: random.Random) -> int:
    """Roll the 1d10 of a delayed death: seconds until the target dies."""
    return delayed_death_seconds(effect, int(rng.random() * 10) + 1)


def delayed_death_outcomes(effect: ShotEffect) -> list[tuple[int, Fraction]]:
    """Exact distribution of :func:`resolve_delayed_death`."""
    return [(delayed_death_seconds(effect, k), Fraction(1, 10)) for k in range(1, 11)]


def disarm_kept(strength: FaeCheck, attacker_margin: int) -> bool:
    """The target keeps its weapon iff its Strength test beats the attacker's margin."""
    return strength.success and strength.margin > attacker_margin
