"""Small helpers shared by the benchmarks: timing, peak memory and the results table."""

from __future__ import annotations

import time
import tracemalloc
from collections.abc import Callable
from dataclasses import dataclass

__all__ = ["Row", "peak_memory_mb", "print_table", "rate"]


@dataclass(frozen=True, slots=True)
class Row:
    """One measured figure, with the target it is held against (if any)."""

    name: str
    value: float
    unit: str
    target: str = ""
    ok: bool | None = None


def rate(fn: Callable[[], object], *, min_seconds: float = 1.0) -> tuple[float, int]:
    """Calls per second of ``fn`` over at least ``min_seconds`` (after one warm-up call)."""
    fn()
    calls = 0
    start = time.perf_counter()
    elapsed = 0.0
    while elapsed < min_seconds:
        fn()
        calls += 1
        elapsed = time.perf_counter() - start
    return calls / elapsed, calls


def peak_memory_mb(fn: Callable[[], object]) -> float:
    """Peak Python heap allocated while ``fn`` runs, in MiB (tracemalloc)."""
    tracemalloc.start()
    try:
        fn()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return peak / 2**20


def print_table(rows: list[Row]) -> None:
    """Print the rows as an aligned table."""
    header = ("benchmark", "value", "unit", "target", "met")
    body = [
        (
            r.name,
            f"{r.value:,.3f}" if r.value < 100 else f"{r.value:,.0f}",
            r.unit,
            r.target,
            "" if r.ok is None else ("yes" if r.ok else "NO"),
        )
        for r in rows
    ]
    widths = [max(len(str(c)) for c in col) for col in zip(header, *body, strict=False)]
    for line in (header, tuple("-" * w for w in widths), *body):
        print("  ".join(str(c).ljust(w) for c, w in zip(line, widths, strict=True)))
