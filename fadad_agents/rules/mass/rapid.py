"""Spelljammer rapid resolution of crew melee and the crew morale roll, scalar and in bulk.

Implements ``ships-spelljammer.md`` section 13 (rapid resolution of small-scale combat)
and the PROPOSED 2d10 roll of section 18, as settled by ``CONFLICTS.md`` C-15
(forces of ``kind: crew``), C-16 (SJ morale 2d10 <= morale, rolled by
:mod:`fadad_agents.rules.ships.crew`; here its numpy twin for many crews) and A-59 (dice division
rounds down, minimum 1). :mod:`fadad_agents.rules.mass` re-exports every name here.

Each hit kills or incapacitates one enemy, so one volley's casualties are binomial:
:func:`rapid_volley_outcomes` is the exact law the samplers are tested against.

>>> rapid_dice(30, defender_hd=2, max_damage=8), rapid_dice(12, defender_hd=1, max_damage=10)
(15, 12)
>>> rapid_hit_probability(attack_bonus=2, defender_ac=12)
Fraction(11, 20)
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Literal

import numpy as np
from numpy.typing import ArrayLike, NDArray

from fadad_agents.rules.core.dice import Distribution
from fadad_agents.rules.core.morale import MoraleDice, morale_pass_probability, resolve_morale_check
from fadad_agents.rules.mass.options import MassOptions

__all__ = [
    "CrewBatch",
    "CrewGroup",
    "RapidError",
    "RapidRound",
    "average_hd",
    "crew_morale_check",
    "crew_morale_check_batch",
    "crew_morale_pass_probability",
    "incapacitated_share",
    "rapid_dice",
    "rapid_dice_batch",
    "rapid_hit_probability",
    "rapid_round_outcomes",
    "rapid_volley",
    "rapid_volley_batch",
    "rapid_volley_outcomes",
    "resolve_rapid_round",
    "resolve_rapid_rounds_batch",
]

type IntArray = NDArray[np.int64]
type BoolArray = NDArray[np.bool_]


class RapidError(ValueError):
    """A rapid-resolution input is impossible (negative head count, HD below 1 ...)."""


def average_hd(hit_dice: list[float] | tuple[float, ...]) -> int:
    """Average crewman's Hit Dice: the mean rounded to nearest, half up, at least 1 (13.1)."""
    if not hit_dice:
        raise RapidError("no crewmen to average; give at least one Hit Dice value")
    mean = Fraction(sum(Fraction(h) for h in hit_dice)) / len(hit_dice)
    return max(1, math.floor(mean + Fraction(1, 2)))


def rapid_dice(
    attackers: int,
    defender_hd: int,
    max_damage: int,
    incapacitating: bool = False,
    rounding: Literal["floor_min1", "half_up"] = "floor_min1",
) -> int:
    """d20s a side rolls this round: attackers / defender HD, doubled or halved (13.3-4).

    Doubled if average maximum damage > 12 or a single-hit incapacitating attack; halved if
    it is < 6. Divisions round down with a minimum of 1 while anyone stands (A-59).
    """
    if attackers < 0:
        raise RapidError(f"{attackers} attackers; use 0 or more")
    if defender_hd < 1:
        raise RapidError(f"defender HD {defender_hd}; average HD is at least 1")
    if attackers == 0:
        return 0
    dice = _divide(attackers, defender_hd, rounding)
    if max_damage > 12 or incapacitating:
        dice *= 2
    elif max_damage < 6:
        dice = _divide(dice, 2, rounding)
    return dice


def _divide(a: int, b: int, rounding: str) -> int:
    q = a // b if rounding == "floor_min1" else (2 * a + b) // (2 * b)
    return max(1, q)


def rapid_dice_batch(
    attackers: ArrayLike,
    defender_hd: ArrayLike,
    max_damage: ArrayLike,
    incapacitating: ArrayLike = False,
    rounding: Literal["floor_min1", "half_up"] = "floor_min1",
) -> IntArray:
    """:func:`rapid_dice` over arrays of groups."""
    n = np.asarray(attackers, dtype=np.int64)
    hd = np.asarray(defender_hd, dtype=np.int64)
    if (hd < 1).any() or (n < 0).any():
        raise RapidError("defender HD must be >= 1 and attackers >= 0")
    mx = np.asarray(max_damage, dtype=np.int64)
    inc = np.asarray(incapacitating, dtype=np.bool_)

    def div(a: IntArray, b: IntArray | int) -> IntArray:
        q = a // b if rounding == "floor_min1" else (2 * a + b) // (2 * b)
        out: IntArray = np.maximum(q, 1)
        return out

    dice = div(n, hd)
    dice = np.where((mx > 12) | inc, dice * 2, np.where(mx < 6, div(dice, 2), dice))
    result: IntArray = np.where(n > 0, dice, 0).astype(np.int64)
    return result


def rapid_hit_probability(
    attack_bonus: int, defender_ac: int, natural_rolls: bool = False
) -> Fraction:
    """P(d20 + attack bonus >= AC); with ``natural_rolls`` a 1 misses and a 20 hits."""
    need = defender_ac - attack_bonus
    if natural_rolls:
        need = min(max(need, 2), 20)
    hits = sum(1 for face in range(1, 21) if face >= need)
    return Fraction(hits, 20)


def rapid_volley(
    dice: int,
    attack_bonus: int,
    defender_ac: int,
    defenders: int,
    rng: random.Random,
    natural_rolls: bool = False,
) -> int:
    """Roll ``dice`` d20s; each hit kills or incapacitates one defender (13.5)."""
    need = defender_ac - attack_bonus
    hits = 0
    for _ in range(dice):
        face = int(rng.random() * 20) + 1
        if natural_rolls and face in (1, 20):
            hits += face == 20
        else:
            hits += face >= need
    return min(hits, defenders)


def rapid_volley_outcomes(dice: int, p_hit: Fraction, defenders: int) -> Distribution[int]:
    """Exact casualties of one volley: Binomial(dice, p_hit) capped at ``defenders``."""
    out: dict[int, Fraction] = {}
    for k in range(dice + 1):
        p = math.comb(dice, k) * p_hit**k * (1 - p_hit) ** (dice - k)
        key = min(k, defenders)
        out[key] = out.get(key, Fraction(0)) + p
    return sorted(out.items())


def rapid_volley_batch(
    rng: np.random.Generator, dice: ArrayLike, p_hit: ArrayLike, defenders: ArrayLike
) -> IntArray:
    """Casualties of many volleys at once (binomial draws, capped at each side's count)."""
    hits = rng.binomial(np.asarray(dice, dtype=np.int64), np.asarray(p_hit, dtype=np.float64))
    return np.minimum(hits, np.asarray(defenders, dtype=np.int64)).astype(np.int64)


@dataclass(frozen=True, slots=True)
class CrewGroup:
    """A side's featureless crew as its average crewman (13.1) and a head count."""

    count: int
    hd: int = 1
    ac: int = 10
    attack_bonus: int = 0
    max_damage: int = 8
    incapacitating: bool = False


@dataclass(frozen=True, slots=True)
class RapidRound:
    """One round of rapid resolution: who rolled how many dice, and the losses."""

    first_dice: int
    first_casualties_dealt: int
    second_dice: int
    second_casualties_dealt: int
    first: CrewGroup
    second: CrewGroup


def _dice_for(side: CrewGroup, count: int, other: CrewGroup, opts: MassOptions) -> int:
    return rapid_dice(count, other.hd, side.max_damage, side.incapacitating, opts.rapid_rounding)


def resolve_rapid_round(
    first: CrewGroup,
    second: CrewGroup,
    rng: random.Random,
    options: MassOptions | None = None,
) -> RapidRound:
    """One round in initiative order: ``first`` strikes, ``second`` answers with survivors."""
    opts = options or MassOptions()
    d1 = _dice_for(first, first.count, second, opts)
    k1 = rapid_volley(
        d1, first.attack_bonus, second.ac, second.count, rng, opts.rapid_natural_rolls
    )
    second = replace(second, count=second.count - k1)
    d2 = _dice_for(second, second.count, first, opts)
    k2 = rapid_volley(d2, second.attack_bonus, first.ac, first.count, rng, opts.rapid_natural_rolls)
    first = replace(first, count=first.count - k2)
    return RapidRound(d1, k1, d2, k2, first, second)


def rapid_round_outcomes(
    first: CrewGroup, second: CrewGroup, options: MassOptions | None = None
) -> Distribution[tuple[int, int]]:
    """Exact distribution of (casualties dealt by ``first``, by ``second``) in one round.

    The law behind :func:`resolve_rapid_round`: the second side's dice depend on how many
    of it survived the first volley.
    """
    opts = options or MassOptions()
    p1 = rapid_hit_probability(first.attack_bonus, second.ac, opts.rapid_natural_rolls)
    p2 = rapid_hit_probability(second.attack_bonus, first.ac, opts.rapid_natural_rolls)
    d1 = _dice_for(first, first.count, second, opts)
    out: Distribution[tuple[int, int]] = []
    for k1, q1 in rapid_volley_outcomes(d1, p1, second.count):
        d2 = _dice_for(second, second.count - k1, first, opts)
        out.extend(((k1, k2), q1 * q2) for k2, q2 in rapid_volley_outcomes(d2, p2, first.count))
    return out


@dataclass(frozen=True, slots=True)
class CrewBatch:
    """Many crews on one side as arrays: head counts and average crewman (13.1).

    ``p_hit`` is each crew's chance to hit the crew it fights
    (:func:`rapid_hit_probability` as a float).
    """

    count: IntArray
    hd: IntArray
    max_damage: IntArray
    p_hit: NDArray[np.float64]
    incapacitating: BoolArray


def resolve_rapid_rounds_batch(
    rng: np.random.Generator,
    first: CrewBatch,
    second: CrewBatch,
    options: MassOptions | None = None,
) -> tuple[IntArray, IntArray]:
    """One round for k pairs of crews at once, in initiative order.

    Returns the survivors ``(first.count, second.count)`` after the round; pair i fights
    ``first[i]`` against ``second[i]``.
    """
    opts = options or MassOptions()
    r = opts.rapid_rounding
    d1 = rapid_dice_batch(first.count, second.hd, first.max_damage, first.incapacitating, r)
    second_left = second.count - rapid_volley_batch(rng, d1, first.p_hit, second.count)
    d2 = rapid_dice_batch(second_left, first.hd, second.max_damage, second.incapacitating, r)
    first_left = first.count - rapid_volley_batch(rng, d2, second.p_hit, first.count)
    return first_left, second_left


def incapacitated_share(casualties: int, d6: int) -> int:
    """Casualties who were only incapacitated: d6 x 5% of them, rounded down (13.7)."""
    if not 1 <= d6 <= 6:
        raise RapidError(f"d6 roll {d6} is not 1..6")
    return casualties * d6 * 5 // 100


# --- Spelljammer crew morale (C-16) -------------------------------------------------


def crew_morale_pass_probability(morale: int) -> Fraction:
    """P(2d10 <= morale): a crew holds (C-16; same as ``rules.core.morale``)."""
    return morale_pass_probability(morale)


def crew_morale_check(morale: int, rng: random.Random, dice: MoraleDice = "2d10") -> bool:
    """Roll 2d10 (or 1d20) against a crew's modified morale: True if it holds (the core morale
    roll)."""
    return resolve_morale_check(morale, rng, dice).passed


def crew_morale_check_batch(rng: np.random.Generator, morale: ArrayLike) -> BoolArray:
    """:func:`crew_morale_check` for many crews."""
    m = np.asarray(morale, dtype=np.int64)
    rolls = rng.integers(1, 11, size=(2, *m.shape)).sum(axis=0)
    result: BoolArray = rolls <= m
    return result
