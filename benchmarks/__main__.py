"""Run every benchmark module (``benchmarks/bench_*.py``) and print one table.

Each module exposes ``BENCHMARKS``: a list of zero-argument callables, each returning a
list of :class:`benchmarks.harness.Row`. ``make bench`` runs ``python -m benchmarks``;
``python -m benchmarks kernel`` runs only modules whose name contains ``kernel``.
"""

from __future__ import annotations

import importlib
import pkgutil
import sys
import time
from pathlib import Path

from benchmarks.harness import Row, print_table


def main(argv: list[str]) -> int:
    wanted = argv[1:]
    rows: list[Row] = []
    start = time.perf_counter()
    here = Path(__file__).parent
    for info in sorted(pkgutil.iter_modules([str(here)]), key=lambda m: m.name):
        if not info.name.startswith("bench_"):
            continue
        if wanted and not any(w in info.name for w in wanted):
            continue
        module = importlib.import_module(f"benchmarks.{info.name}")
        for bench in module.BENCHMARKS:
            name = f"{info.name}.{bench.__name__}"
            print(f"[{time.perf_counter() - start:5.0f} s] {name} ...", file=sys.stderr, flush=True)
            found = bench()
            for row in found:  # each figure as soon as it is measured
                shown = f"{row.value:,.0f}" if abs(row.value) >= 1000 else f"{row.value:.3g}"
                print(f"          {row.name}: {shown} {row.unit}", file=sys.stderr, flush=True)
            rows.extend(found)
    print(f"[{time.perf_counter() - start:5.0f} s] done", file=sys.stderr, flush=True)
    print_table(rows)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
