"""One entry point per ``wound_model`` for the engine (``wounds-and-healing.md`` §5, §7, §9, C-10).

:class:`DamageRules` holds the damage switches of :class:`PersonalOptions` as a slotted
value; :func:`resolve_wound` rolls exactly the damage dice the model needs and reads the
wound; :func:`wound_outcomes` is its exact distribution; :func:`wound_from_dice` is the
pure function both share. :class:`WoundRules` and :func:`record_wound` record the wound
with the Scratch cap, overflow and PC-death options.

>>> rules = DamageRules(wound_model="fudge_numeric")
>>> wound_from_dice(rules, rd=2, factor=2, dice=()).wound.label      # EX-WND-03
'Hurt'
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Literal, NamedTuple, TypedDict, Unpack

from fadad_agents.rules.core.damage import fadad_damage
from fadad_agents.rules.core.dice import (
    Distribution,
    fudge_distribution,
    roll_1df,
    roll_3d6,
    roll_4df,
    three_d6_distribution,
)
from fadad_agents.rules.core.wounds import (
    DOUBLED_RD,
    MINMIDMAX_EPIC,
    STANDARD,
    Leveled,
    Overflow,
    Thresholds,
    Wound,
    WoundTrack,
    graze_wound,
    pc_death_cap,
    record,
    wound_for_damage,
)
from fadad_agents.rules.personal.damage import (
    apply_weapon_groups,
    damage_1df_level,
    freeform_wound,
    fudge_calculated_damage,
    group_multiplier,
    limited_4df_damage,
    parity_adjustment,
)
from fadad_agents.rules.personal.dc_track import DcTrack, dc_record_blow
from fadad_agents.rules.personal.minmidmax import minmidmax_damage, reading, total_bonus

if TYPE_CHECKING:
    from fadad_agents.rules.personal.options import PersonalOptions

__all__ = [
    "DamageRoll",
    "DamageRules",
    "HitContext",
    "HitDamage",
    "WoundModel",
    "WoundRules",
    "damage_dice_kind",
    "damage_dice_outcomes",
    "record_wound",
    "recording_cap",
    "resolve_wound",
    "roll_damage_dice",
    "wound_from_dice",
    "wound_outcomes",
]


type WoundModel = Literal["fadad", "fudge_numeric", "fudge_minmidmax", "fudge_freeform"]
type DamageRoll = Literal[
    "none", "1dF_factor", "1dF_level", "parity", "4dF_limited", "4dF_unlimited"
]


@dataclass(frozen=True, slots=True)
class DamageRules:
    """The damage options the hot path needs, read once from :class:`PersonalOptions`."""

    wound_model: WoundModel = "fadad"
    damage_roll: DamageRoll = "none"
    double_rd: bool = False
    graze: bool = True
    minmidmax_minus2: bool = False
    minmidmax_epic: bool = False
    kill_above_9: bool = False
    situational_levels: bool = True
    graze_scale_step: int = 5
    scale_damage_roll: bool = False
    weapon_groups: bool = False
    piercing_min_rd: int = 3

    @classmethod
    def from_options(cls, opts: PersonalOptions) -> DamageRules:
        """Copy the damage switches out of a validated :class:`PersonalOptions`."""
        f = opts.fudge
        return cls(
            wound_model=opts.wound_model,
            damage_roll=f.damage_roll,
            double_rd=f.double_rd,
            graze=f.graze,
            minmidmax_minus2=f.minmidmax_minus2,
            minmidmax_epic=f.minmidmax_epic,
            kill_above_9=f.minmidmax_kill_above_9,
            situational_levels=f.situational_levels,
            graze_scale_step=f.graze_scale_step,
            scale_damage_roll=f.scale_damage_roll,
            weapon_groups=f.weapon_groups,
            piercing_min_rd=opts.scale_piercing_min_rd,
        )


class HitDamage(NamedTuple):
    """What a hit did: the wound level, the damage number (0 = none; for level-based reads
    the calculated damage before the level shift) and the damage dice rolled.

    A named tuple (immutable, and cheaper to make than a frozen dataclass: one per hit).
    """

    wound: Wound
    damage: int
    dice: tuple[int, ...]


_NO_DICE: tuple[int, ...] = ()
_NUMERIC = DamageRules(wound_model="fudge_numeric")


def _scale_blocked(rules: DamageRules, rd: int, factor: int, scale_adv: int) -> bool:
    """Scale alone stands between a Scratch and no damage (§7 Scale note): then a limited
    4dF damage roll is allowed even without damage rolls (option ``scale_damage_roll``)."""
    if not rules.scale_damage_roll or rules.damage_roll != "none" or scale_adv >= 0:
        return False
    if rules.graze and rd == 1:
        return False
    calc = fudge_calculated_damage(rd, factor, double_rd=rules.double_rd)
    return calc <= 0 < calc - scale_adv


def damage_dice_kind(rules: DamageRules, rd: int, factor: int, scale_adv: int = 0) -> str:
    """Which damage dice a hit rolls: ``"4dF"``, ``"1dF"``, ``"3d6"`` or ``""`` (none).

    ``scale_adv`` is the attacker's Strength Scale minus the defender's Mass Scale.
    """
    model = rules.wound_model
    if model == "fadad" or model == "fudge_freeform":
        return "4dF"
    if model == "fudge_minmidmax":
        if rd <= 1 or not reading(total_bonus(factor, rd, minus2=rules.minmidmax_minus2)):
            return ""
        return "3d6"
    roll = rules.damage_roll
    if roll in ("1dF_factor", "1dF_level"):
        return "1dF"
    if roll in ("4dF_limited", "4dF_unlimited") or _scale_blocked(rules, rd, factor, scale_adv):
        return "4dF"
    return ""


def _sign(x: int) -> int:
    return (x > 0) - (x < 0)


def _fudge_numeric(
    rules: DamageRules, rd: int, factor: int, dice: tuple[int, ...], parity: int, scale_adv: int
) -> tuple[HitDamage, Thresholds | None]:
    roll = rules.damage_roll
    die = dice[0] if dice else 0
    if rules.graze and rd == 1:
        shift = _sign(parity) if roll == "parity" else _sign(die)
        graze = graze_wound(factor, scale_adv, rules.graze_scale_step)
        return HitDamage(damage_1df_level(graze, shift) if shift else graze, 0, dice), None
    calc = fudge_calculated_damage(rd, factor, double_rd=rules.double_rd)
    thresholds = DOUBLED_RD if rules.double_rd else STANDARD
    if roll == "1dF_level":
        wound = damage_1df_level(wound_for_damage(calc, thresholds), die)
        return HitDamage(wound, calc, dice), None
    if roll == "parity":
        damage = max(calc + parity, 0)
    elif roll == "4dF_limited" or _scale_blocked(rules, rd, factor, scale_adv):
        damage = limited_4df_damage(calc, die)
    else:  # none, 1dF_factor, 4dF_unlimited: add the die (0 when none), floor at 0
        damage = max(calc + die, 0)
    return HitDamage(wound_for_damage(damage, thresholds), damage, dice), thresholds


def _raw_hit(
    rules: DamageRules,
    rd: int,
    factor: int,
    dice: tuple[int, ...],
    parity: int,
    scale_adv: int,
    all_out: bool,
    gm_level: int | None,
) -> tuple[HitDamage, Thresholds | None]:
    """The hit before crit bonuses and weapon groups; thresholds None = read as a level."""
    model = rules.wound_model
    if model == "fadad":
        damage = fadad_damage(rd, factor, dice[0])
        return HitDamage(wound_for_damage(damage), damage, dice), STANDARD
    if model == "fudge_minmidmax":
        thresholds = MINMIDMAX_EPIC if rules.minmidmax_epic else STANDARD
        if rd == 1:  # graze: the graze table, no bonus calculation
            return HitDamage(graze_wound(factor, scale_adv, rules.graze_scale_step), 0, dice), None
        if rd < 1 or not dice:  # no hit, or a negative bonus: nothing rolled, no damage
            return HitDamage(Wound.UNDAMAGED, 0, dice), None
        bonus = total_bonus(factor, rd, minus2=rules.minmidmax_minus2)
        damage = minmidmax_damage((dice[0], dice[1], dice[2]), bonus, all_out=all_out)
        return HitDamage(_read(damage, thresholds, rules.kill_above_9), damage, dice), thresholds
    if model == "fudge_freeform":
        if gm_level is None:
            judged, _ = _fudge_numeric(_NUMERIC, rd, factor, (), 0, 0)
            gm_level = judged.wound
        wound = freeform_wound(gm_level, dice[0], situational_levels=rules.situational_levels)
        return HitDamage(wound, 0, dice), None
    return _fudge_numeric(rules, rd, factor, dice, parity, scale_adv)


def _read(damage: int, thresholds: Thresholds, kill_above_9: bool) -> Wound:
    if kill_above_9 and damage > 9:
        return Wound.DEAD
    return wound_for_damage(damage, thresholds)


def wound_from_dice(
    rules: DamageRules,
    rd: int,
    factor: int,
    dice: tuple[int, ...],
    *,
    attacker_dice: int = 1,
    defender_dice: int = 1,
    scale_advantage: int = 0,
    all_out: bool = False,
    gm_level: int | None = None,
    damage_bonus: int = 0,
    weapon_group: int | None = None,
    armour_group: int = 0,
    critical: bool = False,
) -> HitDamage:
    """Wound of a hit under ``rules`` given its damage dice (pure; see :func:`resolve_wound`).

    ``dice`` holds the damage roll the model uses (4dF total, 1dF, sorted 3d6, or nothing).
    ``attacker_dice``/``defender_dice`` are the opposed-roll dice totals (``parity``; the
    odd default 1 means no effect). ``scale_advantage`` = attacker's Strength Scale minus
    defender's Mass Scale: a positive one raises grazes (A-22); a negative one that alone
    blocks a Scratch allows a limited damage roll (``scale_damage_roll``). ``gm_level`` is
    the freeform judgement (default: the ``fudge_numeric`` wound without a damage roll,
    which agrees with the seed, EX-WND-21). ``damage_bonus`` (Extra Damage crits) adds to
    a positive damage number. With ``rules.weapon_groups`` and a ``weapon_group``, Anna's
    groups scale the damage number (A-18); a hit read as a level (graze, ``1dF_level``,
    freeform) loses one level at half damage and all at none (PROPOSED). ``critical``
    hits always do full damage.
    """
    groups = rules.weapon_groups and weapon_group is not None
    if rules.wound_model == "fadad" and not damage_bonus and not groups:
        # The common case (every FADAD swing without crit bonuses): _raw_hit's first branch.
        damage = fadad_damage(rd, factor, dice[0])
        return HitDamage(wound_for_damage(damage), damage, dice)
    # Only the fudge_numeric "parity" damage roll reads the opposed dice.
    parity = parity_adjustment(attacker_dice, defender_dice) if rules.damage_roll == "parity" else 0
    hit, thresholds = _raw_hit(rules, rd, factor, dice, parity, scale_advantage, all_out, gm_level)
    if not damage_bonus and not groups:
        return hit
    if thresholds is None:
        if not groups or hit.wound == Wound.UNDAMAGED:
            return hit
        m = group_multiplier(weapon_group or 0, armour_group, critical=critical)
        drop = 0 if m == 1 else (1 if m else Wound.DEAD)
        return HitDamage(Wound(max(hit.wound - drop, 0)), hit.damage, hit.dice)
    damage = hit.damage + damage_bonus if hit.damage > 0 else 0
    if groups:
        damage = apply_weapon_groups(damage, weapon_group or 0, armour_group, critical=critical)
    return HitDamage(_read(damage, thresholds, rules.kill_above_9), damage, hit.dice)


def roll_damage_dice(kind: str, rng: random.Random, owner: str | None = None) -> tuple[int, ...]:
    """Roll the damage dice of a :func:`damage_dice_kind` (sorted for 3d6; () for none),
    as ``owner``'s damage roll when they are made at the table."""
    if kind == "4dF":
        return (roll_4df(rng, "damage", owner),)
    if kind == "1dF":
        return (roll_1df(rng, "damage", owner),)
    if kind == "3d6":
        return roll_3d6(rng, "damage", owner)
    return _NO_DICE


def damage_dice_outcomes(kind: str) -> Distribution[tuple[int, ...]]:
    """Exact distribution of :func:`roll_damage_dice`."""
    if kind == "4dF":
        return [((v,), p) for v, p in fudge_distribution(4)]
    if kind == "1dF":
        return [((v,), p) for v, p in fudge_distribution(1)]
    if kind == "3d6":
        return [(tuple(d), p) for d, p in three_d6_distribution()]
    return [(_NO_DICE, Fraction(1))]


# Old private names, kept while callers move to the public ones.
_dice_kind = damage_dice_kind
_roll_damage_dice = roll_damage_dice
_damage_dice_outcomes = damage_dice_outcomes


class HitContext(TypedDict, total=False):
    """Optional facts about a hit, as keyword arguments of :func:`wound_from_dice`."""

    attacker_dice: int
    defender_dice: int
    scale_advantage: int
    all_out: bool
    gm_level: int | None
    damage_bonus: int
    weapon_group: int | None
    armour_group: int
    critical: bool


def resolve_wound(
    rules: DamageRules, rd: int, factor: int, rng: random.Random, **hit: Unpack[HitContext]
) -> HitDamage:
    """Roll the damage dice the model needs (none when it needs none) and read the wound.

    Call it for a hit: RD >= 1, or a FADAD widespread attack placed at Terrible or better
    (its RD, possibly negative, still enters the sum). Keywords as :func:`wound_from_dice`.
    """
    kind = damage_dice_kind(rules, rd, factor, hit.get("scale_advantage", 0))
    return wound_from_dice(rules, rd, factor, roll_damage_dice(kind, rng), **hit)


def wound_outcomes(
    rules: DamageRules, rd: int, factor: int, **hit: Unpack[HitContext]
) -> Distribution[Wound]:
    """Exact distribution of the wound :func:`resolve_wound` returns, ascending."""
    merged: dict[Wound, Fraction] = {}
    kind = damage_dice_kind(rules, rd, factor, hit.get("scale_advantage", 0))
    for dice, p in damage_dice_outcomes(kind):
        w = wound_from_dice(rules, rd, factor, dice, **hit).wound
        merged[w] = merged.get(w, Fraction(0)) + p
    return sorted(merged.items())


# --- recording under the options (§6.3, §8, §12) -----------------------------------------


@dataclass(frozen=True, slots=True)
class WoundRules:
    """The recording switches of :class:`PersonalOptions`, read once."""

    wound_track: str = "standard"
    scratch_cap: bool = False
    overflow_past_near_death: Overflow = "dead"
    max_three_levels: bool = False
    no_near_death_unless_incap: bool = False
    point_spend: bool = True
    stun_scratches_accumulate: bool = False
    knockout_rounds: int | None = None

    @classmethod
    def from_options(cls, opts: PersonalOptions) -> WoundRules:
        """Copy the recording switches out of a validated :class:`PersonalOptions`."""
        return cls(
            wound_track=opts.wound_track,
            scratch_cap=opts.scratch_cap,
            overflow_past_near_death=opts.overflow_past_near_death,
            max_three_levels=opts.pc_death.max_three_levels,
            no_near_death_unless_incap=opts.pc_death.no_near_death_unless_incap,
            point_spend=opts.pc_death.point_spend,
            stun_scratches_accumulate=opts.stun_scratches_accumulate,
            knockout_rounds=opts.knockout_rounds,
        )


def record_wound[T: (WoundTrack, DcTrack)](
    rules: WoundRules,
    track: T,
    wound: int,
    *,
    pc: bool = False,
    incap_at_round_start: bool = False,
    point_spent: bool = False,
    pulled_to: int | None = None,
) -> T:
    """Record a wound with the options: Scratch cap, overflow, PC-death protections (PCs
    only, never ordinary NPCs), a spent Ite/Fudge point (only if ``point_spend`` is on)
    and a pulled punch capped at ``pulled_to``. A Damage-Capacity track (``wound_track:
    dc_attribute``, section 6.4) loses its level instead, under the same cap."""
    cap = recording_cap(
        rules,
        track,
        pc=pc,
        incap_at_round_start=incap_at_round_start,
        point_spent=point_spent,
        pulled_to=pulled_to,
    )
    if isinstance(track, DcTrack):
        return dc_record_blow(track, wound, max_level=cap)
    return record(
        track,
        wound,
        scratch_cap=rules.scratch_cap,
        overflow_past_near_death=rules.overflow_past_near_death,
        max_level=cap,
    )


def recording_cap(
    rules: WoundRules,
    track: Leveled,
    *,
    pc: bool = False,
    incap_at_round_start: bool = False,
    point_spent: bool = False,
    pulled_to: int | None = None,
) -> int:
    """The highest level a blow may leave ``track`` at (:func:`record_wound`'s cap): a
    pulled punch's announced level, and for PCs the PC-death protections."""
    cap: int = Wound.DEAD if pulled_to is None else pulled_to
    if pc:
        cap = min(
            cap,
            pc_death_cap(
                track,
                max_three_levels=rules.max_three_levels,
                no_near_death_unless_incap=rules.no_near_death_unless_incap,
                incap_at_round_start=incap_at_round_start,
                point_spent=point_spent and rules.point_spend,
            ),
        )
    return cap
