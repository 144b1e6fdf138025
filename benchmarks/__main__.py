"""Run every benchmark module (``benchmarks/bench_*.py``) and print one table.

Each module exposes ``BENCHMARKS``: a list of zero-argument callables, each returning a
list of :class:`benchmarks.harness.Row`. ``make bench`` runs ``python -m benchmarks``
(about 3.5 minutes on 2 idle cores; its target is 5); ``make bench-quick`` adds
``--quick`` (fewer passes, smaller sweeps: about a minute). ``python -m benchmarks
kernel`` runs only modules whose name contains ``kernel``. Progress goes to stderr as
each benchmark starts, and each figure as soon as it is measured; the table, with each
target and whether it is met, comes last, headed by the machine's load and by what read
the figures (the interpreter, its recorded build and the processor:
:func:`benchmarks.harness.machine_note`). Benchmarks marked
:func:`benchmarks.harness.fresh_processes` (peak memory, numba's compile) measure only
processes they start, so they run last, two at a time on the two cores, none of them
beside a figure timed in this process.

In a full run every other benchmark runs in a process of its own too, one at a time
(``--one``, :func:`own_process`): each reads the engine in a process no other benchmark
has used, as a user's first sweep in a fresh notebook would, and as pyperf and asv run
each benchmark in a worker of its own. Run one after another in one process, each read
the heap and the garbage the earlier ones left: the ship duel read 967 and 978 battles a
second after the benchmarks before it and 1,011 and 1,016 in a process of its own (1,004
after a ``gc.collect()``), the same code on the same machine. ``--quick`` runs them in
this process, sparing their start-ups (about 2 s each, the imports) to keep its minute.
"""

from __future__ import annotations

import dataclasses
import importlib
import json
import pkgutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import benchmarks.harness as harness
from benchmarks.harness import Row, load_note, machine_note, print_table


def main(argv: list[str]) -> int:
    args = argv[1:]
    harness.QUICK = "--quick" in args
    if "--one" in args:  # a child of own_process: one benchmark, its rows to a file
        return _one(args[args.index("--one") + 1], Path(args[args.index("--rows-to") + 1]))
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
    found: dict[int, list[Row]] = {}
    loads = [load_note()]
    start = time.perf_counter()

    def measure(n: int, name: str, bench: Callable[[], list[Row]]) -> None:
        elapsed = time.perf_counter() - start
        print(f"[{elapsed:4.0f} s] {n}/{len(benches)} {name}.{bench.__name__} ...", file=sys.stderr)
        alone = harness.QUICK or getattr(bench, "fresh", False)
        found[n] = bench() if alone else own_process(f"benchmarks.{name}:{bench.__name__}")
        for row in found[n]:  # each figure as soon as it is measured
            shown = f"{row.value:,.0f}" if abs(row.value) >= 1000 else f"{row.value:.3g}"
            print(f"         {row.name}: {shown} {row.unit}", file=sys.stderr, flush=True)

    numbered = list(enumerate(benches, 1))
    for n, (name, bench) in numbered:  # one at a time: CPU time of this process
        if not getattr(bench, "fresh", False):
            measure(n, name, bench)
    with ThreadPoolExecutor(2) as pool:  # fresh processes, each on a core of its own
        for done in [
            pool.submit(measure, n, name, bench)
            for n, (name, bench) in numbered
            if getattr(bench, "fresh", False)
        ]:
            done.result()
    rows = [row for n in sorted(found) for row in found[n]]
    loads.append(load_note())
    total = time.perf_counter() - start
    print(f"[{total:4.0f} s] done", file=sys.stderr, flush=True)
    mode = "quick" if harness.QUICK else "full"
    print(f"{mode} run, {total:.0f} s; {loads[0]} at the start, {loads[1]} at the end")
    print(f"read by {machine_note()}")
    if not wanted:  # the whole run has a target too (issue 19): 1 minute quick, 5 full
        limit = 60 if harness.QUICK else 300
        rows.append(Row(f"the {mode} run, wall clock", total, "s", f"<= {limit}", total <= limit))
    print_table(rows)
    if harness.QUICK:
        print(
            "quick: one build or pass a row where the full run takes the best of several, on "
            "fewer rounds; a verdict here is a smoke check (a busy machine reads NO), the "
            "record is `make bench`"
        )
    return 0


def own_process(bench: str) -> list[Row]:
    """The rows of the benchmark ``bench`` (``"benchmarks.bench_ships:bench_ship_odds"``)
    played in a new process of its own (``python -m benchmarks --one``), its progress on
    this process's stderr.

    Raises:
        RuntimeError: the benchmark failed (its traceback is on stderr above).
    """
    with tempfile.TemporaryDirectory(prefix="bench-") as tmp:
        rows_to = Path(tmp) / "rows.json"
        command = [sys.executable, "-m", "benchmarks", "--one", bench, "--rows-to", str(rows_to)]
        done = subprocess.run(command, cwd=harness.ROOT, check=False)
        if done.returncode != 0 or not rows_to.exists():
            raise RuntimeError(f"benchmark {bench} failed (exit {done.returncode}; see above)")
        return [Row(**row) for row in json.loads(rows_to.read_text())]


def _one(bench: str, rows_to: Path) -> int:
    """Run the one benchmark ``bench`` (``module:function``) in this process and write its
    rows to ``rows_to`` as JSON."""
    module, _, name = bench.partition(":")
    rows = getattr(importlib.import_module(module), name)()
    rows_to.write_text(json.dumps([dataclasses.asdict(row) for row in rows]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
