"""The paths users take around the engine (issue 19), on the 5 v 5 melee of ``bench_engine``.

* ``sweep(path, runs)`` serial, the odds a user asks for: battles per second (target
  3,000), its fixed cost before and after the battles (target under 5 ms, no grid), and
  its cost per battle over a bare ``run()`` loop on the loaded scenario (at most 10 %
  more).
* ``for s in seeds: run("fight.yaml", seed=s)``, the first loop a Python user writes: its
  rate against the sweep's (at least 80 %). A user's file was saved before the loop; this
  one is written when the benchmark starts and is settled (unchanged for 2 s: each load
  then looks at it with one ``stat`` instead of reading it) from the first pass on, but
  for part of that pass with ``--quick``.

Every figure is CPU time of this process, the best of alternating passes (sweep, loop
over the scenario, loop over the path, again), so load on the machine slows all alike
and the best pass is the least disturbed. The loops play the sweep's own battles (its
replicates' seeds), so the ratios compare paths, not two samples of battles that differ
in length by chance. The fixed cost is the best of many one-replicate
sweeps less the per-battle time of the long sweep.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from benchmarks.bench_engine import _melee_yaml
from benchmarks.harness import Row, best_cpu, quick
from fadad_agents.analysis import replicate_seeds, sweep
from fadad_agents.engine import load, run

__all__ = ["BENCHMARKS"]


def bench_paths() -> list[Row]:
    """5 v 5 melee: sweep, run loops over a Scenario and over a path, sweep fixed cost."""
    runs = quick(10_000, 2_000)
    passes = 2
    with tempfile.TemporaryDirectory(prefix="fadad-bench-") as folder:
        path = Path(folder) / "fight.yaml"
        path.write_text(_melee_yaml(5, bands=False), encoding="utf-8")
        scenario = load(path)
        seeds = replicate_seeds(0, runs)  # the sweep's battles, played again by the loops

        def by_sweep() -> None:
            assert len(sweep(path, runs, 0, progress=False).frame) == runs

        def by_loop() -> None:
            for seed in seeds:
                run(scenario, seed=seed)

        def by_path() -> None:
            for seed in seeds:
                run(path, seed=seed)

        def one() -> None:
            sweep(path, 1, 0, progress=False)

        for seed in range(200):  # warm-up: imports, caches, a recycled battle
            run(path, seed=seed)
        # and a whole sweep: a process's first loads numba after its first battle (once:
        # bench_engine.bench_fresh_loop times it) and first fills as much memory; left
        # to the first pass, its sweep read 4,000-4,500 battles a second against 5,500 in
        # the second, and the best of two loops over the best of one sweep 1.11 once
        by_sweep()
        swept = looped = pathed = float("inf")
        for k in range(passes):  # alternating, so a busy spell slows every path alike
            each = [best_cpu(fn, 1) / len(seeds) for fn in (by_sweep, by_loop, by_path)]
            swept, looped, pathed = map(min, (swept, looped, pathed), each)
            # each pass on the progress lines: a ratio off target shows which pass was slow
            rates = ", ".join(f"{1 / t:,.0f}" for t in each)
            print(
                f"         pass {k + 1}, battles/s (sweep, run() loop, run(path) loop): {rates}",
                file=sys.stderr,
            )
        fixed = best_cpu(one, quick(50, 20)) - swept
    rate = 1 / swept
    over = swept / looped
    share = (1 / pathed) / rate
    return [
        Row(f"5v5 sweep x{runs:,} serial", rate, "battles/s", ">= 3,000", rate >= 3000),
        Row("5v5 sweep fixed cost, no grid", fixed * 1e3, "ms", "< 5", fixed < 0.005),
        Row("5v5 run(scenario, seed) loop", 1 / looped, "battles/s"),
        Row("5v5 sweep per battle over the run() loop", over, "x", "<= 1.10", over <= 1.10),
        Row("5v5 run(path, seed) loop", 1 / pathed, "battles/s"),
        Row("5v5 run(path, seed) loop / sweep rate", share, "x", ">= 0.80", share >= 0.80),
    ]


BENCHMARKS = [bench_paths]
