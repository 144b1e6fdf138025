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
from math import floor
from typing import Any, NamedTuple

__all__ = [
    "D20",
    "D100",
    "FOUR_DF",
    "TABLE_4DF",
    "TABLE_6DF",
    "Die",
    "Distribution",
    "TableDice",
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
    "roll_nds",
    "three_d6_distribution",
]

type Distribution[X] = list[tuple[X, Fraction]]


def _fudge_table(n: int) -> tuple[int, ...]:
    """Totals of every one of the 3**n equally likely face sequences of n Fudge dice."""
    return tuple(sum(faces) for faces in itertools.product((-1, 0, 1), repeat=n))


TABLE_4DF: tuple[int, ...] = _fudge_table(4)
"""The 81 equally likely 4dF totals; ``TABLE_4DF[floor(rng.random() * 81.0)]`` is one roll.

``floor(x * 81.0)`` is the index ``int(x * 81)`` gives (the same float product, never
negative), written so for speed: the interpreter specialises a float product and a call
of a one-argument builtin, but not ``int()``, a type's call: it halves a die's cost beyond
the draw itself (callgrind), and a battle rolls hundreds."""

TABLE_6DF: tuple[int, ...] = _fudge_table(6)
"""The 729 equally likely 6dF totals (FADAD ship critical hits)."""


class Die(NamedTuple):
    """What one roll is: ``number`` dice of ``faces`` sides, ``faces`` 0 for Fudge dice.

    ``each``: the rules read every die (sorted ascending: Min-Mid-Max), not the total.
    """

    number: int
    faces: int
    each: bool = False

    def __str__(self) -> str:
        kind = "dF" if self.faces == 0 else f"d{self.faces}"
        return f"{self.number if self.number > 1 or self.faces == 0 else ''}{kind}"


FOUR_DF = Die(4, 0)
D20 = Die(1, 20)
D100 = Die(1, 100)
_ONE_DF, _SIX_DF, _D6, _THREE_D6 = Die(1, 0), Die(6, 0), Die(1, 6), Die(3, 6, each=True)


class TableDice(random.Random):
    """A stream some of whose rolls are made at the table (a session's table dice).

    Every typed roll (:func:`roll_4df`, :func:`roll_d20`, :func:`roll_nds` ... and the
    samplers that inline them) draws its roll from the stream exactly as on a plain
    ``random.Random``, so the stream's position never depends on what the table says, then,
    on a ``TableDice``, passes it to :meth:`called`, whose answer is the roll used. A
    plain stream pays nothing for this but one class check per roll outside the hot
    melee path (one per swing in it).

    Attributes:
        call: ``call(die, rolled, owner, purpose) -> roll``, set by whoever plays at the
            table (it returns ``rolled`` for the rolls it leaves to the seed).
        owner: whose rolls this stream makes when a roll names nobody else.
    """

    call: Callable[[Die, Any, str | None, str], Any]
    owner: str | None = None

    def called(self, die: Die, rolled: Any, purpose: str, owner: str | None = None) -> Any:
        """The roll to use for ``rolled`` (the stream's own) of ``die``, made for ``purpose``
        by ``owner`` (default: the stream's)."""
        return self.call(die, rolled, self.owner if owner is None else owner, purpose)


def roll_4df(rng: random.Random, purpose: str = "4dF", owner: str | None = None) -> int:
    """Roll 4dF: -4..+4, one draw from the stream (about a quarter of a microsecond).

    ``purpose`` and ``owner`` say what the roll is for and whose it is, for a stream
    whose rolls are made at the table (:class:`TableDice`); every roll function takes them.
    """
    roll = TABLE_4DF[floor(rng.random() * 81.0)]
    if rng.__class__ is TableDice:
        return int(rng.called(FOUR_DF, roll, purpose, owner))
    return roll


def roll_1df(rng: random.Random, purpose: str = "1dF", owner: str | None = None) -> int:
    """Roll one Fudge die: -1, 0 or +1 with probability 1/3 each."""
    roll = int(rng.random() * 3) - 1
    if rng.__class__ is TableDice:
        return int(rng.called(_ONE_DF, roll, purpose, owner))
    return roll


def roll_6df(rng: random.Random, purpose: str = "6dF", owner: str | None = None) -> int:
    """Roll 6dF: -6..+6."""
    roll = TABLE_6DF[int(rng.random() * 729)]
    if rng.__class__ is TableDice:
        return int(rng.called(_SIX_DF, roll, purpose, owner))
    return roll


def roll_ndf(rng: random.Random, n: int, purpose: str = "", owner: str | None = None) -> int:
    """Roll ``n`` Fudge dice and total them."""
    if n < 0:
        raise ValueError(f"cannot roll {n} Fudge dice")
    if n == 4:
        return roll_4df(rng, purpose or "4dF", owner)
    roll = sum(int(rng.random() * 3) - 1 for _ in range(n))
    if rng.__class__ is TableDice and n:
        return int(rng.called(Die(n, 0), roll, purpose or f"{n}dF", owner))
    return roll


def roll_nds(
    rng: random.Random, n: int, sides: int, purpose: str = "", owner: str | None = None
) -> int:
    """Roll ``n`` dice of ``sides`` sides and total them (2d10, 3d8 ...), one draw each."""
    roll = 0
    for _ in range(n):
        roll += int(rng.random() * sides) + 1
    if rng.__class__ is TableDice and n:
        return int(rng.called(Die(n, sides), roll, purpose or str(Die(n, sides)), owner))
    return roll


def roll_d6(rng: random.Random, purpose: str = "d6", owner: str | None = None) -> int:
    """Roll one six-sided die: 1..6."""
    roll = int(rng.random() * 6) + 1
    if rng.__class__ is TableDice:
        return int(rng.called(_D6, roll, purpose, owner))
    return roll


def roll_d20(rng: random.Random, purpose: str = "d20", owner: str | None = None) -> int:
    """Roll one twenty-sided die: 1..20."""
    roll = int(rng.random() * 20) + 1
    if rng.__class__ is TableDice:
        return int(rng.called(D20, roll, purpose, owner))
    return roll


def roll_d100(rng: random.Random, purpose: str = "d100", owner: str | None = None) -> int:
    """Roll percentile dice: 1..100."""
    roll = int(rng.random() * 100) + 1
    if rng.__class__ is TableDice:
        return int(rng.called(D100, roll, purpose, owner))
    return roll


def roll_3d6(
    rng: random.Random, purpose: str = "3d6", owner: str | None = None
) -> tuple[int, int, int]:
    """Roll 3d6 for the Min-Mid-Max option, sorted ascending: (Min, Mid, Max)."""
    draw = rng.random
    a, b, c = sorted((int(draw() * 6) + 1, int(draw() * 6) + 1, int(draw() * 6) + 1))
    if rng.__class__ is TableDice:
        a, b, c = rng.called(_THREE_D6, (a, b, c), purpose, owner)
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
