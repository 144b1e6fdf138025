"""The morale roll shared by Spelljammer crews and rapid resolution (C-16).

A crew holds when 2d10 (or, with ``sj.crew_morale_roll``, 1d20) is no more than its
morale number. What triggers a check and which modifiers apply are ship rules
(:mod:`fadad_agents.rules.ships.crew`); rapid resolution rolls the same check for
crews fighting in bulk (:mod:`fadad_agents.rules.mass.rapid`).

>>> morale_pass_probability(11)
Fraction(11, 20)
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from fadad_agents.rules.core.dice import Distribution, roll_d20, roll_nds

__all__ = [
    "MoraleDice",
    "MoraleResult",
    "morale_check_outcomes",
    "morale_pass_probability",
    "morale_roll_distribution",
    "resolve_morale_check",
    "two_d10_distribution",
]


def two_d10_distribution() -> Distribution[int]:
    """Exact distribution of 2d10: totals 2..20."""
    return [(t, Fraction(10 - abs(t - 11), 100)) for t in range(2, 21)]


type MoraleDice = Literal["2d10", "1d20"]
"""The morale roll (C-16 default 2d10; option ``sj.crew_morale_roll``)."""


def morale_roll_distribution(dice: MoraleDice = "2d10") -> Distribution[int]:
    """Exact distribution of the morale roll: 2d10 (2..20) or 1d20 (1..20, flat)."""
    if dice == "1d20":
        return [(t, Fraction(1, 20)) for t in range(1, 21)]
    return two_d10_distribution()


@dataclass(frozen=True, slots=True)
class MoraleResult:
    """One morale check: the roll's total, the number to meet and whether the crew held."""

    roll: int
    target: int
    passed: bool


def morale_pass_probability(target: int, dice: MoraleDice = "2d10") -> Fraction:
    """P(roll <= target) (C-16 default roll 2d10)."""
    return sum((p for t, p in morale_roll_distribution(dice) if t <= target), Fraction(0))


def morale_check_outcomes(target: int, dice: MoraleDice = "2d10") -> Distribution[bool]:
    """Exact distribution of a morale check's ``passed``."""
    p = morale_pass_probability(target, dice)
    return [(True, p), (False, 1 - p)]


def resolve_morale_check(
    target: int, rng: random.Random, dice: MoraleDice = "2d10", owner: str | None = None
) -> MoraleResult:
    """Roll 2d10 (or 1d20) against ``target``; pass if the total is no more than it
    (``owner``: who rolls it, when made at the table)."""
    if dice == "1d20":
        roll = roll_d20(rng, "morale", owner)
    else:
        roll = roll_nds(rng, 2, 10, "morale", owner)
    return MoraleResult(roll=roll, target=target, passed=roll <= target)
