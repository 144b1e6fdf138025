"""Differences between variants, stated: paired on common random numbers, with intervals.

Replicate ``k`` of every variant plays the same battle seed, so two versions of a fight
see the same dice wherever they do the same thing, and luck largely cancels out of their
difference. For each replicate ``k`` the difference ``d_k = x_k(B) - x_k(A)`` of an
indicator (a side wins, a fighter goes down) is -1, 0 or +1; its mean is the difference
in probability. Its interval is Newcombe's method 10 for paired proportions (Wilson
intervals of each proportion combined through their correlation): the more the two
variants' battles agree, the narrower it is, far narrower than two independent sweeps of
the same size would give. A difference whose interval leaves out zero is
*distinguishable from noise* at that confidence, and the summary says so in words.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from fadad_agents.analysis.summary import fighters_of, sides_of, wilson_interval

__all__ = ["Difference", "difference_lines", "newcombe_interval", "paired_differences"]


@dataclass(frozen=True, slots=True)
class Difference:
    """The paired difference of one measure between two variants.

    Attributes:
        measure: what is compared (``Snorri wins``, ``Sir Aldric down``).
        base: its probability in the first variant.
        other: its probability in the second.
        diff: ``other - base`` (mean of the paired differences).
        low: lower end of the interval of ``diff``.
        high: upper end.
        runs: paired battles.
    """

    measure: str
    base: float
    other: float
    diff: float
    low: float
    high: float
    runs: int

    @property
    def clear(self) -> bool:
        """Whether the interval leaves out zero (a difference, not noise)."""
        return self.low > 0 or self.high < 0

    @property
    def width(self) -> float:
        """Width of the interval."""
        return self.high - self.low

    def text(self) -> str:
        """``Snorri wins: 89% -> 93%, +3.6 points (95%: +1.2 .. +6.0): a real difference``."""
        verdict = "a real difference" if self.clear else "not distinguishable from noise"
        return (
            f"{self.measure}: {self.base:.0%} -> {self.other:.0%}, "
            f"{self.diff * 100:+.1f} points ({self.low * 100:+.1f} .. {self.high * 100:+.1f}): "
            f"{verdict}"
        )


def _indicators(frame: pd.DataFrame) -> dict[str, pd.Series]:
    """Each measure of a variant's rows as a 0/1 series indexed by replicate."""
    rows = frame.set_index("replicate")
    measures = {f"{s} wins": (rows["winner"] == s).astype(int) for s in sides_of(frame)}
    for name in fighters_of(frame):
        measures[f"{name} down"] = rows[f"{name}.down"].astype(int)
    return measures


def paired_differences(
    base: pd.DataFrame, other: pd.DataFrame, confidence: float = 0.95
) -> list[Difference]:
    """Differences of every side's wins and every common fighter's going down, paired on
    the replicates both tables hold."""
    first, second = _indicators(base), _indicators(other)
    found = []
    for measure, a in first.items():
        if measure not in second:
            continue
        a, b = a.align(second[measure], join="inner")
        n = len(a)
        if n == 0:
            continue
        low, high = newcombe_interval(a.to_numpy(), b.to_numpy(), confidence)
        mean_a, mean_b = float(a.mean()), float(b.mean())
        found.append(Difference(measure, mean_a, mean_b, mean_b - mean_a, low, high, n))
    return found


def newcombe_interval(
    a: np.ndarray, b: np.ndarray, confidence: float = 0.95
) -> tuple[float, float]:
    """Interval of ``mean(b) - mean(a)`` for paired 0/1 outcomes: Newcombe's (1998) method
    10, the Wilson interval of each proportion combined with their correlation, which keeps
    its coverage when few battles change outcome or a probability is near 0 or 1.

    >>> a = np.array([1] * 60 + [0] * 40); b = np.array([1] * 70 + [0] * 30)
    >>> low, high = newcombe_interval(a, b)
    >>> round(low, 3), round(high, 3)
    (0.041, 0.159)
    """
    n = len(a)
    both, gained = int(((a == 1) & (b == 1)).sum()), int(((a == 0) & (b == 1)).sum())
    lost, neither = int(((a == 1) & (b == 0)).sum()), int(((a == 0) & (b == 0)).sum())
    p1, p2 = (both + gained) / n, (both + lost) / n
    l1, u1 = wilson_interval(both + gained, n, confidence)
    l2, u2 = wilson_interval(both + lost, n, confidence)
    margins = (both + gained) * (lost + neither) * (both + lost) * (gained + neither)
    phi = (both * neither - gained * lost) / math.sqrt(margins) if margins else 0.0
    below = (p1 - l1) ** 2 - 2 * phi * (p1 - l1) * (u2 - p2) + (u2 - p2) ** 2
    above = (u1 - p1) ** 2 - 2 * phi * (u1 - p1) * (p2 - l2) + (p2 - l2) ** 2
    diff = p1 - p2
    return diff - math.sqrt(max(below, 0.0)), diff + math.sqrt(max(above, 0.0))


def difference_lines(frame: pd.DataFrame, confidence: float = 0.95) -> list[str]:
    """For a grid: each variant against variant 0, one line per measure."""
    variants = sorted(frame["variant"].unique())
    if len(variants) < 2:
        return []
    parts = {int(v): frame[frame["variant"] == v] for v in variants}
    base = parts.pop(int(variants[0]))
    level = f"{confidence:.0%}"
    lines = []
    for v, part in parts.items():
        diffs = paired_differences(base, part, confidence)
        runs = diffs[0].runs if diffs else 0
        lines.append(
            f"variant {v} - variant 0, paired on the same {runs} battles ({level} intervals):"
        )
        lines.extend(f"  {d.text()}" for d in diffs)
    return lines
