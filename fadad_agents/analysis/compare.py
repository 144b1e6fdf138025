"""``fadad compare A B``: two scenario files played on the same seeds, their difference
stated (see :mod:`~fadad_agents.analysis.differences`).

The files must have the same side names; named fighters present in both are compared
too. With ``target_width`` the comparison plays a batch at a time until every difference
is either clear of zero or known to within that width.
"""

from __future__ import annotations

import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fadad_agents.analysis.differences import Difference, paired_differences
from fadad_agents.analysis.montecarlo import SweepError, SweepResult, default_batch_size, sweep
from fadad_agents.engine import load

__all__ = ["Comparison", "compare"]


@dataclass(frozen=True)
class Comparison:
    """Two variants played on the same seeds, and their differences.

    Attributes:
        base: the first scenario's sweep.
        other: the second's.
        differences: the paired differences (second - first).
    """

    base: SweepResult
    other: SweepResult
    differences: tuple[Difference, ...]

    def summary(self, confidence: float = 0.95) -> str:
        """Both variants' odds, then the differences in plain words."""
        a, b = self.base.frame, self.other.frame
        lines = [
            f"A: {a['scenario'].iloc[0]} ({len(a)} battles)",
            f"B: {b['scenario'].iloc[0]} ({len(b)} battles)",
            f"B - A on the same battle seeds ({confidence:.0%} intervals):",
        ]
        lines.extend(f"  {d.text()}" for d in self.differences)
        return "\n".join(lines) + "\n"


def compare(
    a: Any,
    b: Any,
    runs: int,
    seed: int = 0,
    *,
    target_width: float | None = None,
    batch_size: int | None = None,
    confidence: float = 0.95,
    **options: Any,
) -> Comparison:
    """Play scenarios ``a`` and ``b`` on the same replicate seeds and state their paired
    differences.

    Args:
        a, b: scenarios (Scenario, path or YAML text) with the same side names.
        runs: replicates of each (the most, with ``target_width``).
        seed: root seed shared by both.
        target_width: keep playing, a batch at a time, until every difference is clear
            of zero or its interval is narrower than this (or ``runs`` is reached).
        batch_size: replicates per step of adaptive stopping.
        confidence: interval level.
        options: passed to :func:`~fadad_agents.analysis.sweep` (backend, workers,
            scheduler, progress).

    Raises:
        SweepError: the sides differ, or bad arguments (and every error of ``sweep``).
    """
    if target_width is not None and not 0 < target_width < 2:
        raise SweepError(f"target_width must be between 0 and 2, got {target_width!r}")
    a, b = load(a), load(b)  # both files checked before a battle is played
    _same_sides([s.name for s in a.sides], [s.name for s in b.sides])
    step = batch_size or default_batch_size(runs)
    with tempfile.TemporaryDirectory(prefix="fadad-compare-") as tmp:
        # Adaptive stopping resumes each side's results directory with more runs: only the
        # new replicates are played, on the same seeds.
        outs = (Path(tmp) / "a.parquet", Path(tmp) / "b.parquet") if target_width else (None, None)
        upto = step if target_width else runs
        while True:
            first = sweep(a, upto, seed, out=outs[0], batch_size=step, **options)
            second = sweep(b, upto, seed, out=outs[1], batch_size=step, **options)
            diffs = paired_differences(first.frame, second.frame, confidence)
            settled = all(d.clear or d.width < (target_width or 1) for d in diffs)
            if target_width is None or upto >= runs or settled:
                return Comparison(first, second, tuple(diffs))
            upto = min(runs, upto + step)


def _same_sides(first: Sequence[str], second: Sequence[str]) -> None:
    if list(first) != list(second):
        raise SweepError(
            f"compare needs the same sides in both files: {', '.join(first)} vs {', '.join(second)}"
        )
