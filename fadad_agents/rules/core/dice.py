"""Dice: samplers on a caller's ``random.Random`` stream, each with its exact distribution.

Chance is data: next to every sampler stands the exact distribution of what it returns,
as ``(outcome, probability)`` pairs with :class:`fractions.Fraction` probabilities
summing to 1 (``dice-and-ladder.md`` section 2). Tests hold the samplers against them.

Samplers never touch the module-level :mod:`random`; pass a stream::

    >>> import random
    >>> rng = random.Random(7)
    >>> -4 <= roll_4df(rng) <= 4
    True
    >>> dict(fudge_distribution(4))[0]
    Fraction(19, 81)
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Callable, Iterable
from fractions import Fraction
from functools import cache

__all__ = [
    "TABLE_4DF",
    "TABLE_6DF",
    "Distribution",
    "d20_distribution",
    "d100_distribution",
    "distribution_map",
    "expectation",
    "fudge_distribution",
    "min_mid_max",
    "prob_at_least",
    "roll_1df",
    "roll_3d6",
    "roll_4df",
    "roll_6df",
    "roll_d6",
    "roll_d20",
    "roll_d100",
    "roll_ndf",
    "three_d6_distribution",
]

type Distribution[X] = list[tuple[X, Fraction]]


def _fudge_table(n: int) -> tuple[int, ...]:
    """Totals of every one of the 3**n equally likely face sequences of n Fudge dice."""
    return tuple(sum(faces) for faces in itertools.product((-1, 0, 1), repeat=n))


TABLE_4DF: tuple[int, ...] = _fudge_table(4)
"""The 81 equally likely 4dF totals; ``TABLE_4DF[int(rng.random() * 81)]`` is one roll."""

TABLE_6DF: tuple[int, ...] = _fudge_table(6)
"""The 729 equally likely 6dF totals (FADAD ship critical hits)."""


def roll_4df(rng: random.Random) -> int:
    """Roll 4dF: -4..+4, one draw from the stream (about a quarter of a microsecond)."""
    return TABLE_4DF[int(rng.random() * 81)]


def roll_1df(rng: random.Random) -> int:
    """Roll one Fudge die: -1, 0 or +1 with probability 1/3 each."""
    return int(rng.random() * 3) - 1


def roll_6df(rng: random.Random) -> int:
    """Roll 6dF: -6..+6."""
    return TABLE_6DF[int(rng.random() * 729)]


def roll_ndf(rng: random.Random, n: int) -> int:
    """Roll ``n`` Fudge dice and total them."""
    if n < 0:
        raise ValueError(f"cannot roll {n} Fudge dice")
    if n == 4:
        return roll_4df(rng)
    return sum(roll_1df(rng) for _ in range(n))


def roll_d6(rng: random.Random) -> int:
    """Roll one six-sided die: 1..6."""
    return int(rng.random() * 6) + 1


def roll_d20(rng: random.Random) -> int:
    """Roll one twenty-sided die: 1..20."""
    return int(rng.random() * 20) + 1


def roll_d100(rng: random.Random) -> int:
    """Roll percentile dice: 1..100."""
    return int(rng.random() * 100) + 1


def roll_3d6(rng: random.Random) -> tuple[int, int, int]:
    """Roll 3d6 for the Min-Mid-Max option, sorted ascending: (Min, Mid, Max)."""
    a, b, c = sorted((roll_d6(rng), roll_d6(rng), roll_d6(rng)))
    return a, b, c


def min_mid_max(dice: Iterable[int]) -> tuple[int, int, int]:
    """Min, Mid (the middle *value*) and Max of three dice: (2, 4, 4) -> (2, 4, 4)."""
    a, b, c = sorted(dice)
    return a, b, c


@cache
def fudge_distribution(n: int) -> Distribution[int]:
    """Exact distribution of the total of ``n`` Fudge dice."""
    counts = Counter(_fudge_table(n))
    total = 3**n
    return [(v, Fraction(counts[v], total)) for v in sorted(counts)]


@cache
def three_d6_distribution() -> Distribution[tuple[int, int, int]]:
    """Exact distribution of sorted 3d6 (Min, Mid, Max) triples."""
    counts = Counter(min_mid_max(faces) for faces in itertools.product(range(1, 7), repeat=3))
    return [(k, Fraction(counts[k], 216)) for k in sorted(counts)]


def d20_distribution() -> Distribution[int]:
    """Exact distribution of 1d20."""
    return [(v, Fraction(1, 20)) for v in range(1, 21)]


def d100_distribution() -> Distribution[int]:
    """Exact distribution of 1d100."""
    return [(v, Fraction(1, 100)) for v in range(1, 101)]


def distribution_map[T, U](dist: Distribution[T], f: Callable[[T], U]) -> Distribution[U]:
    """Push a distribution through ``f``, merging equal outcomes (order of first sight)."""
    merged: dict[U, Fraction] = {}
    for outcome, p in dist:
        key = f(outcome)
        merged[key] = merged.get(key, Fraction(0)) + p
    return list(merged.items())


def prob_at_least(dist: Distribution[int], threshold: int) -> Fraction:
    """P(outcome >= threshold) for an integer distribution."""
    return sum((p for v, p in dist if v >= threshold), Fraction(0))


def expectation(dist: Distribution[int]) -> Fraction:
    """The exact mean of an integer distribution."""
    return sum((v * p for v, p in dist), Fraction(0))
