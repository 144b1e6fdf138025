"""Fire aboard ships: growth, firefighting and the fouling of the air envelope.

Implements ``ships-spelljammer.md`` section 7.3 with ``CONFLICTS.md`` C-08 and A-58. One
fire state serves both rulesets (C-08): a fire does ``value`` damage in a round and
grows by 1 a round; firefighters (one per point) put it out or knock it down
(``fire.sj_firefighting``). Round order (A-58, PROPOSED):

1. the fire's value v is its initial value, or last round's value + 1;
2. if k firefighters, k >= v and k >= 1, it is out before doing damage;
3. else it does v damage;
4. at the end of the round v <- v - k.

>>> burn_round(3, 2)
FireRound(damage=3, out=False, value_after=1)
>>> next_fire_value(burn_round(3, 2))
2
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from fadad_agents.rules.ships.effects import Fire

__all__ = [
    "AirQuality",
    "FireError",
    "FireRound",
    "air_after_fire",
    "air_fouling_steps",
    "air_penalty",
    "burn_round",
    "burn_rounds",
    "firefighters_needed",
    "first_fire_value",
    "next_fire_value",
]


class FireError(ValueError):
    """An impossible fire input (negative value or firefighters)."""


@dataclass(frozen=True, slots=True)
class FireRound:
    """One round of a fire: damage done, whether it is out, its value after firefighting."""

    damage: int
    out: bool
    value_after: int


def first_fire_value(fire: Fire) -> int:
    """The value a newly started fire burns at in its first round (0 for a crit fire)."""
    return fire.points


def firefighters_needed(value: int) -> int:
    """People needed to put out a fire of ``value`` this round: one per point (at least 1)."""
    return max(1, value)


def burn_round(value: int, firefighters: int) -> FireRound:
    """Resolve one round of a fire burning at ``value`` with ``firefighters`` (EX-SJ-05)."""
    if value < 0 or firefighters < 0:
        raise FireError(f"fire value and firefighters must be >= 0, got {value}, {firefighters}")
    if firefighters >= firefighters_needed(value):
        return FireRound(damage=0, out=True, value_after=0)
    return FireRound(damage=value, out=False, value_after=value - firefighters)


def next_fire_value(last: FireRound, growth: int = 1) -> int:
    """The fire's value at the start of the next round: last value after firefighting + 1."""
    if last.out:
        raise FireError("the fire is out; it has no next value")
    return last.value_after + growth


def burn_rounds(fire: Fire, firefighters: list[int]) -> list[FireRound]:
    """Rounds of one fire given the firefighters each round, until it is out.

    >>> [r.damage for r in burn_rounds(Fire(points=16), [0, 0, 0])]  # wildfire: 16, 17, 18
    [16, 17, 18]
    """
    rounds: list[FireRound] = []
    value = first_fire_value(fire)
    for k in firefighters:
        r = burn_round(value, k)
        rounds.append(r)
        if r.out:
            break
        value = next_fire_value(r, fire.growth)
    return rounds


class AirQuality(IntEnum):
    """The air envelope, from breathable to deadly."""

    FRESH = 0
    FOULED = 1
    DEADLY = 2


def air_fouling_steps(fire_damage_total: int, tons: int) -> int:
    """Steps the air has degraded from fire: 1 at >= 10% of tonnage, 2 at >= 40% (A-58).

    Hull points of fire damage are compared numerically with tons (A-58, PROPOSED).
    """
    if tons < 1 or fire_damage_total < 0:
        raise FireError(f"need tons >= 1 and fire damage >= 0, got {tons}, {fire_damage_total}")
    if 10 * fire_damage_total >= 4 * tons:
        return 2
    return 1 if 10 * fire_damage_total >= tons else 0


def air_after_fire(
    start: AirQuality, fire_damage_before: int, fire_damage_after: int, tons: int
) -> AirQuality:
    """The air after fire damage grew from ``before`` to ``after``: one step per threshold
    crossed (fresh -> fouled -> deadly), never better than it was."""
    crossed = air_fouling_steps(fire_damage_after, tons) - air_fouling_steps(
        fire_damage_before, tons
    )
    return AirQuality(min(AirQuality.DEADLY, start + max(0, crossed)))


def air_penalty(air: AirQuality, fouled: int, deadly: int) -> int:
    """Levels lost by everyone breathing ``air`` (PROPOSED, ``fire.fouled_air_penalty``,
    ``fire.deadly_air_penalty``: the seed names the steps, not their effects).

    >>> [air_penalty(a, 1, 3) for a in AirQuality]
    [0, 1, 3]
    """
    return (0, fouled, deadly)[air]
