"""FADAD unit combat: one unit attacks another, scalar and for thousands of pairs.

Implements ``mass-combat.md`` 1.2-1.3: an opposed 4dF action with each unit's Scale
added (difference capped), the damage number as for an individual
(``wounds-and-healing.md`` 5.1, with 0 and -1 kept as sub-scratches), read on the unit
damage table to casualties and a morale check (``CONFLICTS.md`` A-70). The table, the
track and the morale roll live in :mod:`fadad_agents.rules.mass.units`;
:mod:`fadad_agents.rules.mass` re-exports both.

>>> import random
>>> hit = resolve_unit_attack(UnitState(100, attack=2), UnitState(10), random.Random(1))
>>> 0 <= hit.casualties <= 10
True
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from fractions import Fraction

import numpy as np
from numpy.typing import ArrayLike, NDArray

from fadad_agents.rules.core.dice import TABLE_4DF, Distribution, fudge_distribution, roll_4df
from fadad_agents.rules.core.ladder import FAIR
from fadad_agents.rules.mass.options import MassOptions
from fadad_agents.rules.mass.units import (
    NO_HIT,
    UNIT_DAMAGE_TABLE,
    UnitDamageRow,
    UnitWounds,
    capped_scale_bonuses,
    capped_scale_bonuses_batch,
    casualties,
    casualties_batch,
    morale_check,
    morale_check_batch,
    record_unit_damage,
    unit_damage_row,
    unit_scale,
    unit_scale_batch,
)

__all__ = [
    "UnitAttack",
    "UnitBatch",
    "UnitState",
    "resolve_unit_attack",
    "resolve_unit_attacks_batch",
    "unit_damage_number",
    "unit_damage_outcomes",
]

type IntArray = NDArray[np.int64]
type BoolArray = NDArray[np.bool_]

_TABLE_4DF_NP = np.asarray(TABLE_4DF, dtype=np.int64)
_NO_CHECK = -1000  # batch sentinel: the row asks for no morale check


# --- FADAD units: one attack --------------------------------------------------------


@dataclass(frozen=True, slots=True)
class UnitState:
    """A FADAD unit between exchanges.

    Attributes:
        strength: fighters still in the unit.
        attack: attack skill of a representative member (ladder int).
        defence: defence skill of a representative member.
        odm: offensive damage modifier of a representative member.
        ddm: defensive damage modifier of a representative member.
        morale: morale/leadership trait used for morale checks.
        wounds: the unit's wound track.
        broken: True once a morale check failed (retreating or routed).
    """

    strength: int
    attack: int = FAIR
    defence: int = FAIR
    odm: int = 0
    ddm: int = 0
    morale: int = FAIR
    wounds: UnitWounds = field(default_factory=UnitWounds)
    broken: bool = False


@dataclass(frozen=True, slots=True)
class UnitAttack:
    """What one unit's attack on another did.

    Attributes:
        rd: relative degree of the opposed roll (hit iff >= 1; defender wins ties).
        damage: the damage number, None on a miss.
        row: the damage-table row read, None on a miss or damage <= -2.
        casualties: fighters the defender lost.
        morale_passed: None without a check, else whether the defender held.
        defender: the defender afterwards.
    """

    rd: int
    damage: int | None
    row: UnitDamageRow | None
    casualties: int
    morale_passed: bool | None
    defender: UnitState


def unit_damage_number(rd: int, damage_mod: int, roll: int) -> int:
    """FADAD damage number RD + (ODM - DDM) + 4dF, capped at 1 if the base is negative.

    Units read 0 and -1 too (sub-scratches), so no floor is applied here.
    """
    base = rd + damage_mod
    final = base + roll
    return min(final, 1) if base < 0 else final


def _bonuses(attacker: UnitState, defender: UnitState, options: MassOptions) -> tuple[int, int]:
    a = unit_scale(attacker.strength, options.scale_rounding)
    d = unit_scale(defender.strength, options.scale_rounding)
    return capped_scale_bonuses(a, d, options.scale_cap)


def _damage_mod(attacker: UnitState, defender: UnitState, options: MassOptions) -> int:
    mod = attacker.odm - defender.ddm
    if options.scale_in_damage:
        bonus_a, bonus_d = _bonuses(attacker, defender, options)
        mod += bonus_a - bonus_d
    return mod


def _apply_hit(
    defender: UnitState, damage: int, rng: random.Random, options: MassOptions
) -> tuple[UnitDamageRow | None, int, bool | None, UnitState]:
    row = unit_damage_row(damage)
    lost = casualties(damage, defender.strength, rng, options.casualties)
    passed: bool | None = None
    if row is not None and row.morale_level is not None and lost < defender.strength:
        passed = morale_check(defender.morale, row.morale_level, rng)
    after = replace(
        defender,
        strength=defender.strength - lost,
        wounds=record_unit_damage(defender.wounds, damage),
        broken=defender.broken or passed is False,
    )
    return row, lost, passed, after


def resolve_unit_attack(
    attacker: UnitState,
    defender: UnitState,
    rng: random.Random,
    options: MassOptions | None = None,
) -> UnitAttack:
    """One unit attacks another: opposed 4dF with capped Scale, damage, casualties, morale."""
    opts = options or MassOptions()
    bonus_a, bonus_d = _bonuses(attacker, defender, opts)
    att = attacker.attack + attacker.wounds.skill_penalty + bonus_a + roll_4df(rng)
    dfn = defender.defence + defender.wounds.skill_penalty + bonus_d + roll_4df(rng)
    rd = att - dfn
    if rd < 1:
        return UnitAttack(rd, None, None, 0, None, defender)
    damage = unit_damage_number(rd, _damage_mod(attacker, defender, opts), roll_4df(rng))
    row, lost, passed, after = _apply_hit(defender, damage, rng, opts)
    return UnitAttack(rd, damage, row, lost, passed, after)


def unit_damage_outcomes(
    attacker: UnitState, defender: UnitState, options: MassOptions | None = None
) -> Distribution[int | None]:
    """Exact distribution of the damage number of :func:`resolve_unit_attack` (None = miss)."""
    opts = options or MassOptions()
    bonus_a, bonus_d = _bonuses(attacker, defender, opts)
    skill_gap = (attacker.attack + attacker.wounds.skill_penalty + bonus_a) - (
        defender.defence + defender.wounds.skill_penalty + bonus_d
    )
    mod = _damage_mod(attacker, defender, opts)
    four = fudge_distribution(4)
    out: dict[int | None, Fraction] = {}
    for va, pa in four:
        for vd, pd in four:
            rd = skill_gap + va - vd
            if rd < 1:
                out[None] = out.get(None, Fraction(0)) + pa * pd
                continue
            for vr, pr in four:
                key = unit_damage_number(rd, mod, vr)
                out[key] = out.get(key, Fraction(0)) + pa * pd * pr
    return sorted(out.items(), key=lambda kv: -100 if kv[0] is None else kv[0])


@dataclass(frozen=True, slots=True)
class UnitBatch:
    """Many unit attacks at once: one entry per attacker/defender pair.

    Attributes:
        rd: relative degrees.
        damage: damage numbers, :data:`NO_HIT` on a miss.
        casualties: fighters each defender lost.
        morale_checked: whether each defender had to check morale.
        morale_passed: whether it held (True where no check was made).
        strength_after: each defender's strength afterwards.
    """

    rd: IntArray
    damage: IntArray
    casualties: IntArray
    morale_checked: BoolArray
    morale_passed: BoolArray
    strength_after: IntArray


def resolve_unit_attacks_batch(
    rng: np.random.Generator,
    attack: ArrayLike,
    defence: ArrayLike,
    attacker_strength: ArrayLike,
    defender_strength: ArrayLike,
    damage_mod: ArrayLike,
    defender_morale: ArrayLike,
    options: MassOptions | None = None,
) -> UnitBatch:
    """Vectorised :func:`resolve_unit_attack` for k pairs.

    ``attack`` and ``defence`` are effective skills (wound penalties already applied);
    ``damage_mod`` is ODM - DDM. Wound tracks stay with the caller
    (:func:`record_unit_damage` per unit, or read ``damage``). A few pairs given as lists
    (:data:`FEW_PAIRS`, as a band of units gives them) are worked out pair by pair, to the
    same numbers from the same draws.
    """
    opts = options or MassOptions()
    few = _few(attack, defence, attacker_strength, defender_strength, damage_mod, defender_morale)
    if few is not None:
        return _few_pairs(rng, few, opts)
    att = np.asarray(attack, dtype=np.int64)
    dfn = np.asarray(defence, dtype=np.int64)
    n_att = np.asarray(attacker_strength, dtype=np.int64)
    n_def = np.asarray(defender_strength, dtype=np.int64)
    mod = np.asarray(damage_mod, dtype=np.int64)
    shape = np.broadcast_shapes(att.shape, dfn.shape, n_att.shape, n_def.shape, mod.shape)
    bonus_a, bonus_d = capped_scale_bonuses_batch(
        unit_scale_batch(n_att, opts.scale_rounding),
        unit_scale_batch(n_def, opts.scale_rounding),
        opts.scale_cap,
    )
    dice = _TABLE_4DF_NP[rng.integers(0, 81, size=(3, *shape))]
    rd = (att + bonus_a + dice[0]) - (dfn + bonus_d + dice[1])
    if opts.scale_in_damage:
        mod = mod + bonus_a - bonus_d
    base = rd + mod
    final = np.where(base < 0, np.minimum(base + dice[2], 1), base + dice[2])
    damage = np.where(rd >= 1, final, NO_HIT)
    lost = casualties_batch(rng, damage, np.broadcast_to(n_def, shape), opts.casualties)
    level = np.select(
        [damage >= lo for lo, _ in UNIT_DAMAGE_TABLE],
        [_NO_CHECK if r.morale_level is None else r.morale_level for _, r in UNIT_DAMAGE_TABLE],
        default=_NO_CHECK,
    )
    checked = (level != _NO_CHECK) & (lost < n_def)
    rolls = morale_check_batch(rng, np.broadcast_to(defender_morale, shape), level)
    passed = np.where(checked, rolls, True)
    return UnitBatch(rd, damage, lost, checked, passed, n_def - lost)


FEW_PAIRS = 16
"""At most this many pairs, each argument a list or tuple of them, and
:func:`resolve_unit_attacks_batch` works them out pair by pair in Python's ints
(:func:`_few_pairs`): a band of units strikes a few at a time, often one, where numpy's
calls on arrays of one cost some 170 us a batch. The same draws from the generator, in the
same calls, and the same numbers (a test compares both ways)."""

SCALES_AS_BATCH = 1 << 17
"""Unit strengths (131,072 fighters) below which :func:`~.units.unit_scale` (``math.log``)
gives what :func:`~.units.unit_scale_batch` (numpy's ``log``) gives, a test checks for
every one (and they agreed up to 2**21): :func:`_few_pairs` reads the Scale of a strength
below it; a bigger unit's pair goes the arrays' way."""


def _few(*columns: ArrayLike) -> tuple[list[int], ...] | None:
    """``columns`` as lists of ints, when each is a list or tuple of the same number of
    pairs, at least one and at most :data:`FEW_PAIRS`, with strengths (the third and fourth)
    from 0 to below :data:`SCALES_AS_BATCH`; else None (the arrays' way)."""
    lists: list[list[int]] = []
    for column in columns:
        if not isinstance(column, list | tuple) or not 0 < len(column) <= FEW_PAIRS:
            return None
        if lists and len(column) != len(lists[0]):
            return None
        lists.append([int(v) for v in column])
    if not all(0 <= n < SCALES_AS_BATCH for n in (*lists[2], *lists[3])):
        return None
    return tuple(lists)


def _few_pairs(
    rng: np.random.Generator, columns: tuple[list[int], ...], opts: MassOptions
) -> UnitBatch:
    """:func:`resolve_unit_attacks_batch` of a few pairs (:data:`FEW_PAIRS`), worked out
    in Python's ints with the generator's draws made as the arrays' way makes them: the
    three 4dF rolls of every pair in one call, the random casualties in one (if drawn),
    the morale rolls of every pair in one. ``columns``: the batch's six arguments as lists
    (:func:`_few`)."""
    attack, defence, attacker_strength, defender_strength, damage_mod, defender_morale = columns
    k = len(attack)
    rounding, cap = opts.scale_rounding, opts.scale_cap
    first, second, third = _TABLE_4DF_NP[rng.integers(0, 81, size=(3, k))].tolist()
    rds, damages, levels, tops = [], [], [], []
    for i in range(k):
        scale_a = unit_scale(attacker_strength[i], rounding)
        scale_d = unit_scale(defender_strength[i], rounding)
        bonus_a, bonus_d = min(scale_a, scale_d + cap), min(scale_d, scale_a + cap)
        rd = (attack[i] + bonus_a + first[i]) - (defence[i] + bonus_d + second[i])
        mod = damage_mod[i] + bonus_a - bonus_d if opts.scale_in_damage else damage_mod[i]
        base = rd + mod
        final = min(base + third[i], 1) if base < 0 else base + third[i]
        damage = final if rd >= 1 else NO_HIT
        row = unit_damage_row(damage)
        n = defender_strength[i]
        pct = 0 if row is None else row.max_casualty_pct
        rds.append(rd)
        damages.append(damage)
        tops.append(min(n, (2 * pct * n + 100) // 200))
        levels.append(_NO_CHECK if row is None or row.morale_level is None else row.morale_level)
    if opts.casualties == "deterministic":
        lost = tops
    else:
        lost = rng.integers(0, np.array(tops, dtype=np.int64) + 1, dtype=np.int64).tolist()
    rolls = _TABLE_4DF_NP[rng.integers(0, 81, size=(k,))].tolist()
    checked = [levels[i] != _NO_CHECK and lost[i] < defender_strength[i] for i in range(k)]
    passed = [not checked[i] or defender_morale[i] + rolls[i] >= levels[i] for i in range(k)]
    after = [defender_strength[i] - lost[i] for i in range(k)]
    return UnitBatch(
        np.array(rds, dtype=np.int64),
        np.array(damages, dtype=np.int64),
        np.array(lost, dtype=np.int64),
        np.array(checked, dtype=np.bool_),
        np.array(passed, dtype=np.bool_),
        np.array(after, dtype=np.int64),
    )
