"""FADAD unit combat: Scale, the capped Scale difference, the unit damage table, morale.

Implements ``mass-combat.md`` section 1 with ``CONFLICTS.md`` C-15 (forces of ``kind:
unit``) and A-70 (unit Scale rounded to nearest; Scale not in the damage
modifiers; morale = trait + 4dF vs the listed level; casualties ``round(max% x N)``).
Scalar functions take a ``random.Random``; ``*_batch`` twins take a
``numpy.random.Generator`` and arrays, for thousands of units at once.
:mod:`fadad_agents.rules.mass` re-exports every name here.

>>> unit_scale(10), unit_scale(100), unit_scale(1000)
(6, 11, 17)
>>> capped_scale_bonuses(11, 6)
(10, 6)
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Literal

import numpy as np
from numpy.typing import ArrayLike, NDArray

from fadad_agents.rules.core.dice import TABLE_4DF, Distribution, fudge_distribution, roll_4df
from fadad_agents.rules.core.ladder import FAIR, GOOD, GREAT, LEGENDARY, MEDIOCRE
from fadad_agents.rules.core.morale import MoraleResult

__all__ = [
    "DEAD",
    "NO_HIT",
    "SUB_SCRATCHES_PER_SCRATCH",
    "UNIT_DAMAGE_TABLE",
    "UNIT_TRACK_BOXES",
    "MassError",
    "UnitDamageRow",
    "UnitWounds",
    "capped_scale_bonuses",
    "capped_scale_bonuses_batch",
    "casualties",
    "casualties_batch",
    "casualty_outcomes",
    "max_casualties",
    "max_casualties_batch",
    "morale_check",
    "morale_check_batch",
    "morale_pass_probability",
    "record_unit_damage",
    "record_unit_damage_batch",
    "resolve_unit_morale",
    "unit_damage_row",
    "unit_scale",
    "unit_scale_batch",
]

type IntArray = NDArray[np.int64]
type BoolArray = NDArray[np.bool_]

_LOG_1_5 = math.log(1.5)
_TABLE_4DF_NP = np.asarray(TABLE_4DF, dtype=np.int64)

NO_HIT = -99
"""Damage value the batch functions use for a missed attack (no damage number)."""

DEAD = 6
"""Wound index of a destroyed unit (``wounds-and-healing.md`` section 1)."""

UNIT_TRACK_BOXES: tuple[int, int, int, int, int] = (3, 1, 1, 1, 1)
"""Standard track boxes per level Scratch, Hurt, Very Hurt, Incapacitated, Near Death."""

SUB_SCRATCHES_PER_SCRATCH = 4
"""Four sub-scratches make one Scratch (SEED, ``mass-combat.md`` 1.3)."""


class MassError(ValueError):
    """A mass-combat input is impossible (a negative strength or Scale cap)."""


# --- FADAD units: Scale -------------------------------------------------------------


def _round_scale(exact: float, rounding: str) -> int:
    # Scale of 1.5**k is exactly k: nudge off float error before rounding down.
    return math.floor(exact + 1e-9) if rounding == "down" else math.floor(exact + 0.5)


def unit_scale(n: int, rounding: Literal["half_up", "down"] = "half_up") -> int:
    """Scale bonus of a unit of ``n`` fighters: log(n) / log(1.5), rounded (A-70).

    A unit of 0 has no Scale left to add; it is reported as 0.
    """
    if n < 0:
        raise MassError(f"unit strength {n} is negative; use 0 or more fighters")
    if n <= 1:
        return 0
    return _round_scale(math.log(n) / _LOG_1_5, rounding)


def unit_scale_batch(n: ArrayLike, rounding: Literal["half_up", "down"] = "half_up") -> IntArray:
    """:func:`unit_scale` over an array of unit strengths."""
    arr = np.asarray(n, dtype=np.int64)
    if (arr < 0).any():
        raise MassError("unit strengths must be 0 or more")
    exact = np.log(np.maximum(arr, 1)) / _LOG_1_5
    shift = 1e-9 if rounding == "down" else 0.5
    return np.floor(exact + shift).astype(np.int64)


def capped_scale_bonuses(scale_a: int, scale_b: int, cap: int = 4) -> tuple[int, int]:
    """Both units' Scale bonuses with their difference clamped to ``cap`` (1.2).

    The larger unit's bonus is reduced (PROPOSED), so 11 vs 6 fights as 10 vs 6.
    """
    if cap < 0:
        raise MassError(f"Scale cap {cap} is negative; use 0..4")
    return min(scale_a, scale_b + cap), min(scale_b, scale_a + cap)


def capped_scale_bonuses_batch(
    scale_a: ArrayLike, scale_b: ArrayLike, cap: int = 4
) -> tuple[IntArray, IntArray]:
    """:func:`capped_scale_bonuses` over arrays of Scales."""
    a = np.asarray(scale_a, dtype=np.int64)
    b = np.asarray(scale_b, dtype=np.int64)
    return np.minimum(a, b + cap), np.minimum(b, a + cap)


# --- FADAD units: damage table ------------------------------------------------------


@dataclass(frozen=True, slots=True)
class UnitDamageRow:
    """One row of the unit damage table (``mass-combat.md`` 1.3).

    Attributes:
        damage_type: ``sub_scratch``, ``scratch``, ``hurt``, ``very_hurt``,
            ``incapacitated`` or ``dead``.
        wound_level: wound index it marks (0 = sub-scratch only, 1..4, or :data:`DEAD`).
        morale_level: ladder level the morale check must reach; None when no check.
        max_casualty_pct: the most casualties the hit can cause, in percent of strength.
        skill_penalty: what the level costs the unit's skill (for the row's own level).
    """

    damage_type: str
    wound_level: int
    morale_level: int | None
    max_casualty_pct: int
    skill_penalty: int


UNIT_DAMAGE_TABLE: tuple[tuple[int, UnitDamageRow], ...] = (
    (9, UnitDamageRow("dead", DEAD, None, 100, 0)),
    (7, UnitDamageRow("incapacitated", 4, LEGENDARY, 100, 0)),
    (5, UnitDamageRow("very_hurt", 3, GREAT, 56, -2)),
    (3, UnitDamageRow("hurt", 2, GOOD, 33, -1)),
    (1, UnitDamageRow("scratch", 1, FAIR, 8, 0)),
    (-1, UnitDamageRow("sub_scratch", 0, MEDIOCRE, 2, 0)),
)
"""(minimum damage, row), highest first; damage <= -2 has no effect."""


def unit_damage_row(damage: int) -> UnitDamageRow | None:
    """The table row a damage number reads; None for -2 or less (no effect)."""
    for minimum, row in UNIT_DAMAGE_TABLE:
        if damage >= minimum:
            return row
    return None


def _pct_of(pct: int, strength: int) -> int:
    # round(pct% x N), half up, in integers (56% of 50 is exactly 28).
    return (2 * pct * strength + 100) // 200


def max_casualties(damage: int, strength: int) -> int:
    """Most casualties one hit of ``damage`` causes to a unit of ``strength`` (A-70)."""
    if strength < 0:
        raise MassError(f"unit strength {strength} is negative; use 0 or more fighters")
    row = unit_damage_row(damage)
    return 0 if row is None else min(strength, _pct_of(row.max_casualty_pct, strength))


def casualties(
    damage: int,
    strength: int,
    rng: random.Random,
    mode: Literal["deterministic", "random"] = "deterministic",
) -> int:
    """Casualties of one hit: the maximum, or uniform 0..maximum with ``mode='random'``."""
    top = max_casualties(damage, strength)
    return top if mode == "deterministic" else int(rng.random() * (top + 1))


def casualty_outcomes(
    damage: int, strength: int, mode: Literal["deterministic", "random"] = "deterministic"
) -> Distribution[int]:
    """Exact distribution of :func:`casualties`."""
    top = max_casualties(damage, strength)
    if mode == "deterministic":
        return [(top, Fraction(1))]
    return [(k, Fraction(1, top + 1)) for k in range(top + 1)]


def max_casualties_batch(damage: ArrayLike, strength: ArrayLike) -> IntArray:
    """:func:`max_casualties` over arrays (damage :data:`NO_HIT` means no casualties)."""
    dmg = np.asarray(damage, dtype=np.int64)
    n = np.asarray(strength, dtype=np.int64)
    pct = np.select(
        [dmg >= lo for lo, _ in UNIT_DAMAGE_TABLE],
        [row.max_casualty_pct for _, row in UNIT_DAMAGE_TABLE],
        default=0,
    )
    return np.minimum(n, (2 * pct * n + 100) // 200)


def casualties_batch(
    rng: np.random.Generator,
    damage: ArrayLike,
    strength: ArrayLike,
    mode: Literal["deterministic", "random"] = "deterministic",
) -> IntArray:
    """:func:`casualties` over arrays."""
    top = max_casualties_batch(damage, strength)
    if mode == "deterministic":
        return top
    return rng.integers(0, top + 1, dtype=np.int64)


# --- FADAD units: morale ------------------------------------------------------------


def morale_pass_probability(trait: int, level: int) -> Fraction:
    """P(trait + 4dF >= level): the unit holds (A-70)."""
    return sum((p for v, p in fudge_distribution(4) if trait + v >= level), Fraction(0))


def morale_check(trait: int, level: int, rng: random.Random) -> bool:
    """Roll the unit's morale: True if it holds, False if it breaks."""
    return trait + roll_4df(rng) >= level


def resolve_unit_morale(
    trait: int, level: int, rng: random.Random, owner: str | None = None
) -> MoraleResult:
    """:func:`morale_check` with its dice: ``roll`` is the 4dF total, ``target`` the level
    (``owner``: who rolls it, when made at the table)."""
    dice = roll_4df(rng, "morale", owner)
    return MoraleResult(roll=dice, target=level, passed=trait + dice >= level)


def morale_check_batch(rng: np.random.Generator, trait: ArrayLike, level: ArrayLike) -> BoolArray:
    """:func:`morale_check` for many units at once."""
    t = np.asarray(trait, dtype=np.int64)
    lv = np.asarray(level, dtype=np.int64)
    shape = np.broadcast_shapes(t.shape, lv.shape)
    dice = _TABLE_4DF_NP[rng.integers(0, 81, size=shape)]
    result: BoolArray = t + dice >= lv
    return result


# --- FADAD units: wound track -------------------------------------------------------


@dataclass(frozen=True, slots=True)
class UnitWounds:
    """A unit's wound track: marked boxes per level plus banked sub-scratches.

    ``marked[i]`` counts marked boxes at level ``i + 1`` (Scratch .. Near Death).
    """

    marked: tuple[int, int, int, int, int] = (0, 0, 0, 0, 0)
    sub_scratches: int = 0
    dead: bool = False

    @property
    def level(self) -> int:
        """Highest marked level: 0 undamaged .. 5 Near Death, 6 dead."""
        if self.dead:
            return DEAD
        marked = self.marked  # the highest box marked (read every volley: no generator)
        for i in range(len(marked) - 1, -1, -1):
            if marked[i]:
                return i + 1
        return 0

    @property
    def skill_penalty(self) -> int:
        """-1 when Hurt, -2 when Very Hurt; only the highest level counts."""
        return {2: -1, 3: -2}.get(self.level, 0)

    @property
    def out_of_action(self) -> bool:
        """Incapacitated or worse: the unit no longer fights as a unit."""
        return self.level >= 4


def _mark(wounds: UnitWounds, level: int) -> UnitWounds:
    # Standard recording (wounds-and-healing.md 6.3): roll up to the next open box.
    marked = list(wounds.marked)
    while level <= len(marked) and marked[level - 1] >= UNIT_TRACK_BOXES[level - 1]:
        level += 1
    if level > len(marked):
        return replace(wounds, dead=True)
    marked[level - 1] += 1
    return replace(wounds, marked=(marked[0], marked[1], marked[2], marked[3], marked[4]))


def record_unit_damage(wounds: UnitWounds, damage: int) -> UnitWounds:
    """Record one hit's damage number on a unit's track.

    9+ destroys the unit; -1 and 0 bank a sub-scratch (4 make a Scratch); -2 or less does
    nothing.
    """
    row = unit_damage_row(damage)
    if row is None or wounds.dead:
        return wounds
    if row.wound_level == DEAD:
        return replace(wounds, dead=True)
    if row.wound_level == 0:
        subs = wounds.sub_scratches + 1
        if subs < SUB_SCRATCHES_PER_SCRATCH:
            return replace(wounds, sub_scratches=subs)
        return _mark(replace(wounds, sub_scratches=0), 1)
    return _mark(wounds, row.wound_level)


def record_unit_damage_batch(
    marked: ArrayLike, sub_scratches: ArrayLike, dead: ArrayLike, damage: ArrayLike
) -> tuple[IntArray, IntArray, BoolArray]:
    """:func:`record_unit_damage` for k units: returns new (marked (k, 5), subs, dead).

    ``damage`` :data:`NO_HIT` (or <= -2) leaves a unit unchanged.
    """
    box = np.array(marked, dtype=np.int64, copy=True)
    subs = np.array(sub_scratches, dtype=np.int64, copy=True)
    gone = np.array(dead, dtype=np.bool_, copy=True)
    dmg = np.asarray(damage, dtype=np.int64)
    level = np.select(
        [dmg >= lo for lo, _ in UNIT_DAMAGE_TABLE],
        [row.wound_level for _, row in UNIT_DAMAGE_TABLE],
        default=-1,
    )
    live = ~gone & (level >= 0)
    banked = live & (level == 0)
    subs += banked
    promoted = banked & (subs >= SUB_SCRATCHES_PER_SCRATCH)
    subs[promoted] = 0
    level = np.where(promoted, 1, level)
    to_mark = live & (level >= 1) & (level < DEAD)
    gone |= live & (level == DEAD)
    limits = np.asarray(UNIT_TRACK_BOXES, dtype=np.int64)
    rows = np.arange(len(level))
    for _ in UNIT_TRACK_BOXES:  # roll up past full levels, at most once per level
        idx = np.clip(level - 1, 0, len(limits) - 1)
        full = to_mark & (level <= len(limits)) & (box[rows, idx] >= limits[idx])
        level = np.where(full, level + 1, level)
    overflow = to_mark & (level > len(limits))
    gone |= overflow
    ok = to_mark & ~overflow
    box[rows[ok], level[ok] - 1] += 1
    return box, subs, gone
