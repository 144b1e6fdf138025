"""Run every benchmark module (``benchmarks/bench_*.py``) and print one table.

Each module exposes ``BENCHMARKS``: a list of zero-argument callables, each returning a
list of :class:`benchmarks.harness.Row`. ``make bench`` runs ``python -m benchmarks``;
``python -m benchmarks kernel`` runs only modules whose name contains ``kernel``.
"""

from __future__ import annotations

import importlib
import pkgutil
import sys
from pathlib import Path

from benchmarks.harness import Row, print_table


def main(argv: list[str]) -> int:
    wanted = argv[1:]
    rows: list[Row] = []
    here = Path(__file__).parent
    for info in sorted(pkgutil.iter_modules([str(here)]), key=lambda m: m.name):
        if not info.name.startswith("bench_"):
            continue
        if wanted and not any(w in info.name for w in wanted):
            continue
        module = importlib.import_module(f"benchmarks.{info.name}")
        for bench in module.BENCHMARKS:
            print(f"running {info.name}.{bench.__name__} ...", file=sys.stderr, flush=True)
            rows.extend(bench())
    print_table(rows)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
