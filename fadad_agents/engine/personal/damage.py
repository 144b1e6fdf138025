"""A hit's damage under any wound model but FADAD's plain hit, compiled (numba): which
damage dice it rolls and the wound they make, as :func:`~fadad_agents.rules.personal.
wound_models.damage_dice_kind` and :func:`~fadad_agents.rules.personal.wound_models.
wound_from_dice` find them (wounds-and-healing.md sections 5 and 7; Anna's options
``fudge.*``): FUDGE numeric damage with each damage roll (none, 1dF on the factor or the
level, parity, limited or unlimited 4dF; doubled RD, grazes, Scale-blocked rolls), Min-Mid-
Max (3d6, its epic thresholds and kill above 9), freeform (the judged wound moved by the
situational 4dF), and Anna's weapon and armour groups under any model, FADAD's too (full,
half or no damage, or a level read one level lower or none). The plain FADAD hit stays in
:func:`~.swing._swing`.

The switches are the tail of the kernel's rules row (:func:`~.tables.rules_row`, from
:data:`~.codes.DAMAGE`), their codes and order :mod:`~.codes`'.
"""

from __future__ import annotations

import numpy as np

from fadad_agents.agents.core.field.caching import njit
from fadad_agents.engine.personal.codes import (
    DAMAGE,
    FACTOR_1DF,
    FADAD,
    FREEFORM,
    GROUPS,
    LEVEL_1DF,
    LIMITED_4DF,
    MINMIDMAX,
    NO_ROLL,
    PARITY,
    UNLIMITED_4DF,
)
from fadad_agents.engine.personal.twister import random, roll_4df
from fadad_agents.rules.core.wounds import DOUBLED_RD, MINMIDMAX_EPIC, STANDARD
from fadad_agents.rules.personal.minmidmax import READINGS

__all__ = ["dice_kind", "hit", "roll"]

_MODEL, _ROLL, _DOUBLE_RD, _GRAZE, _MINUS2 = DAMAGE, DAMAGE + 1, DAMAGE + 2, DAMAGE + 3, DAMAGE + 4
_EPIC, _KILL_ABOVE_9, _SITUATIONAL, _STEP = DAMAGE + 5, DAMAGE + 6, DAMAGE + 7, DAMAGE + 8
_SCALE_ROLL = DAMAGE + 9

_THRESHOLDS = np.array([STANDARD, DOUBLED_RD, MINMIDMAX_EPIC], dtype=np.int64)
"""The damage numbers each wound level begins at, by thresholds: standard, doubled RD,
Min-Mid-Max epic."""
_STANDARD, _DOUBLED, _EPIC_THRESHOLDS = 0, 1, 2
_LEVEL = -1
"""A hit read as a level (a graze, ``1dF_level``, freeform): no thresholds to read an
Extra Damage crit's bonus on."""

_READ = np.array([[die in read for die in ("max", "mid", "min")] for read in READINGS])
"""Which dice of the sorted 3d6 Min-Mid-Max reads at a total bonus of 0 to 5 or more
(the rules' ``READINGS``): the Max, the Mid, the Min (True: read)."""
_JUDGED_STEP = 5
"""The Scale step of the graze a freeform hit's judged wound reads: FUDGE numeric's with
its default options (``wound_models._NUMERIC``, ``graze_scale_step`` 5; the drawn hits of
``test_compiled_damage`` hold the two equal)."""


@njit(cache=True)
def _wound_for(number: int, thresholds: int) -> int:
    """``wound_for_damage`` on the thresholds numbered ``thresholds``."""
    for level in range(4, -1, -1):
        if number >= _THRESHOLDS[thresholds, level]:
            return level + 1
    return 0


@njit(cache=True)
def _read(number: int, thresholds: int, kill_above_9: bool) -> int:
    """``wound_models._read``: more than 9 kills with ``kill_above_9``."""
    if kill_above_9 and number > 9:
        return 6
    return _wound_for(number, thresholds)


@njit(cache=True)
def _graze(factor: int, scale_advantage: int, step: int) -> int:
    """``graze_wound``: below 0 none, 0 to 4 a Scratch, more a Hurt; a level more each full
    ``step`` of Scale advantage, at most Very Hurt."""
    if factor < 0:
        return 0
    level = 1 if factor <= 4 else 2
    if scale_advantage >= step:
        level = max(level, min(level + scale_advantage // step, 3))
    return level


@njit(cache=True)
def _shifted(wound: int, die: int) -> int:
    """``damage_1df_level``: a wound a level up or down, Undamaged to Near Death; none
    stays none."""
    if wound <= 0:
        return 0
    return max(0, min(wound + die, 5))


@njit(cache=True)
def _calculated(rd: int, factor: int, doubled: bool) -> int:
    """``fudge_calculated_damage``: RD (twice with ``fudge.double_rd``) plus the factor."""
    return (2 * rd if doubled else rd) + factor


@njit(cache=True)
def _bonus(factor: int, rd: int, minus2: bool) -> int:
    """Min-Mid-Max's total bonus (``total_bonus``): the factor's and the RD's."""
    if factor < 0:
        bonus = -2 if minus2 and factor <= -5 else -1
    elif factor <= 2:
        bonus = 0
    else:
        bonus = 1 if factor <= 5 else 2
    if rd >= 6:
        return bonus + 2
    return bonus + 1 if rd >= 4 else bonus


@njit(cache=True)
def _scale_blocked(rules: np.ndarray, rd: int, factor: int, scale_advantage: int) -> bool:
    """``wound_models._scale_blocked``: Scale alone stands between a Scratch and no damage,
    and ``fudge.scale_damage_roll`` then rolls a limited 4dF."""
    if not rules[_SCALE_ROLL] or rules[_ROLL] != NO_ROLL or scale_advantage >= 0:
        return False
    if rules[_GRAZE] and rd == 1:
        return False
    calc = _calculated(rd, factor, rules[_DOUBLE_RD] != 0)
    return calc <= 0 < calc - scale_advantage


@njit(cache=True)
def dice_kind(rules: np.ndarray, rd: int, factor: int, scale_advantage: int) -> int:
    """``damage_dice_kind`` as the number of dice: 4 (4dF), 1 (1dF), 3 (3d6) or 0."""
    model = rules[_MODEL]
    if model == MINMIDMAX:
        if rd <= 1 or _bonus(factor, rd, rules[_MINUS2] != 0) < 0:
            return 0
        return 3
    if model in (FADAD, FREEFORM):
        return 4
    kind = rules[_ROLL]
    if kind in (FACTOR_1DF, LEVEL_1DF):
        return 1
    if kind in (LIMITED_4DF, UNLIMITED_4DF):
        return 4
    return 4 if _scale_blocked(rules, rd, factor, scale_advantage) else 0


@njit(cache=True)
def roll(kind: int, stream: np.ndarray, table: np.ndarray, dice: np.ndarray) -> int:
    """Roll the damage dice of ``kind`` (:func:`dice_kind`) from ``stream`` into ``dice``
    as ``roll_damage_dice`` rolls them (4dF one total; 1dF; 3d6 sorted); how many it
    holds (0, 1 or 3)."""
    if kind == 4:
        dice[0] = roll_4df(stream, table)
        return 1
    if kind == 1:
        dice[0] = int(random(stream) * 3) - 1
        return 1
    if kind == 3:
        a = int(random(stream) * 6) + 1
        b = int(random(stream) * 6) + 1
        c = int(random(stream) * 6) + 1
        if a > b:
            a, b = b, a
        if b > c:
            b, c = c, b
        if a > b:
            a, b = b, a
        dice[0], dice[1], dice[2] = a, b, c
        return 3
    return 0


@njit(cache=True)
def _raw(
    rules: np.ndarray,
    rd: int,
    factor: int,
    scale_advantage: int,
    dice: np.ndarray,
    n: int,
    parity: int,
) -> tuple[int, int, int]:
    """``wound_models._raw_hit``: the wound, the damage number, the thresholds it was read
    on (:data:`_LEVEL`: read as a level)."""
    model = rules[_MODEL]
    if model == FADAD:  # fadad_damage: a negative base caps the number at 1
        base = rd + factor
        number = max(min(base + dice[0], 1) if base < 0 else base + dice[0], 0)
        return _wound_for(number, _STANDARD), number, _STANDARD
    if model == MINMIDMAX:
        if rd == 1:  # a graze: the graze table, no bonus calculation
            return _graze(factor, scale_advantage, rules[_STEP]), 0, _LEVEL
        if rd < 1 or n == 0:  # no hit, or a negative bonus: nothing rolled, no damage
            return 0, 0, _LEVEL
        thresholds = _EPIC_THRESHOLDS if rules[_EPIC] else _STANDARD
        read = _READ[min(_bonus(factor, rd, rules[_MINUS2] != 0), 5)]
        number = dice[2] * read[0] + dice[1] * read[1] + dice[0] * read[2]
        return _read(number, thresholds, rules[_KILL_ABOVE_9] != 0), number, thresholds
    if model == FREEFORM:  # the judged wound (FUDGE numeric's, no damage roll), then moved
        judged = (
            _graze(factor, 0, _JUDGED_STEP)
            if rd == 1
            else _wound_for(max(rd + factor, 0), _STANDARD)
        )
        moved = dice[0]
        if not rules[_SITUATIONAL] or judged <= 0 or moved < 3:
            return max(0, min(judged, 6)), 0, _LEVEL
        return min(judged + moved - 2, 5), 0, _LEVEL
    kind = rules[_ROLL]
    die = dice[0] if n else 0
    if rules[_GRAZE] and rd == 1:
        shift = parity if kind == PARITY else die
        shift = (shift > 0) - (shift < 0)
        graze = _graze(factor, scale_advantage, rules[_STEP])
        return (_shifted(graze, shift) if shift else graze), 0, _LEVEL
    calc = _calculated(rd, factor, rules[_DOUBLE_RD] != 0)
    thresholds = _DOUBLED if rules[_DOUBLE_RD] else _STANDARD
    if kind == LEVEL_1DF:
        return _shifted(_wound_for(calc, thresholds), die), calc, _LEVEL
    if kind == PARITY:
        number = max(calc + parity, 0)
    elif kind == LIMITED_4DF or _scale_blocked(rules, rd, factor, scale_advantage):
        # limited_4df_damage: a positive calculation caps the die at itself, leaves at least
        # 1; a calculation of 0 or less leaves at most 1
        number = max(calc + min(die, calc), 1) if calc > 0 else max(min(calc + die, 1), 0)
    else:  # none, 1dF_factor, 4dF_unlimited: the die added (0 when none), at least 0
        number = max(calc + die, 0)
    return _wound_for(number, thresholds), number, thresholds


@njit(cache=True)
def hit(
    rules: np.ndarray,
    rd: int,
    factor: int,
    scale_advantage: int,
    dice: np.ndarray,
    n: int,
    attack: int,
    defence: int,
    bonus: int,
    group: int,
    armour_group: int,
    critical: bool,
) -> tuple[int, int]:
    """``wound_from_dice``: the wound and damage number of a hit by ``rd`` with ``factor``
    (a Weak Spot's armour in it), the attacker's ``scale_advantage``, the damage ``dice``
    rolled (``n`` of them), the opposed dice (``attack``; ``defence`` 1 when undefended:
    odd, as ``parity`` reads it), an Extra Damage crit's ``bonus`` (added to a positive
    number read on thresholds), the attacker's weapon ``group`` (-1: none), the
    defender's ``armour_group`` and whether the hit is ``critical`` (full damage whatever
    the groups)."""
    parity = 0
    if rules[_ROLL] == PARITY:  # +1 the attacker's dice even, -1 the defender's
        parity = int((attack & 1) == 0) - int((defence & 1) == 0)
    wound, number, thresholds = _raw(rules, rd, factor, scale_advantage, dice, n, parity)
    groups = rules[GROUPS] != 0 and group >= 0
    gap = 0 if critical or not groups else armour_group - group  # > 0: armour too heavy
    if thresholds == _LEVEL:  # a level: one lower at half damage, none at no damage
        if gap > 0 and wound:
            wound = max(wound - (1 if gap == 1 else 6), 0)
        return wound, number
    if bonus or groups:
        number = number + bonus if number > 0 else 0
        if gap > 0 and number > 0:  # apply_weapon_groups: half rounded down, or none
            number = number // 2 if gap == 1 else 0
        wound = _read(number, thresholds, rules[_KILL_ABOVE_9] != 0)
    return wound, number
