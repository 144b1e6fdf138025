"""Run every benchmark module (``benchmarks/bench_*.py``) and print one table.

Each module exposes ``BENCHMARKS``: a list of zero-argument callables, each returning a
list of :class:`benchmarks.harness.Row`. ``make bench`` runs ``python -m benchmarks``
(about 5 minutes on 2 idle cores); ``make bench-quick`` adds ``--quick`` (fewer passes,
smaller sweeps: about a minute). ``python -m benchmarks kernel`` runs only modules whose
name contains ``kernel``. Progress goes to stderr as each benchmark starts, and each
figure as soon as it is measured; the table, with each target and whether it is met,
comes last, headed by the machine's load.
"""

from __future__ import annotations

import importlib
import pkgutil
import sys
import time
from pathlib import Path

import benchmarks.harness as harness
from benchmarks.harness import Row, load_note, print_table


def main(argv: list[str]) -> int:
    args = argv[1:]
    harness.QUICK = "--quick" in args
    wanted = [a for a in args if not a.startswith("--")]
    here = Path(__file__).parent
    modules = [
        info.name
        for info in sorted(pkgutil.iter_modules([str(here)]), key=lambda m: m.name)
        if info.name.startswith("bench_") and (not wanted or any(w in info.name for w in wanted))
    ]
    benches = [
        (name, bench)
        for name in modules
        for bench in importlib.import_module(f"benchmarks.{name}").BENCHMARKS
    ]
    rows: list[Row] = []
    loads = [load_note()]
    start = time.perf_counter()
    for n, (name, bench) in enumerate(benches, 1):
        elapsed = time.perf_counter() - start
        print(f"[{elapsed:4.0f} s] {n}/{len(benches)} {name}.{bench.__name__} ...", file=sys.stderr)
        found = bench()
        for row in found:  # each figure as soon as it is measured
            shown = f"{row.value:,.0f}" if abs(row.value) >= 1000 else f"{row.value:.3g}"
            print(f"         {row.name}: {shown} {row.unit}", file=sys.stderr, flush=True)
        rows.extend(found)
    loads.append(load_note())
    total = time.perf_counter() - start
    print(f"[{total:4.0f} s] done", file=sys.stderr, flush=True)
    mode = "quick" if harness.QUICK else "full"
    print(f"{mode} run, {total:.0f} s; {loads[0]} at the start, {loads[1]} at the end")
    if not wanted:  # the whole run has a target too (issue 19): 1 minute quick, 5 full
        limit = 60 if harness.QUICK else 300
        rows.append(Row(f"the {mode} run, wall clock", total, "s", f"<= {limit}", total <= limit))
    print_table(rows)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
