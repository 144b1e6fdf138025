"""Monte Carlo sweep throughput: serial, 2 local processes, Dask LocalCluster of 2 workers.

Replicates per second end to end, with the pool or cluster start-up (1-4 s) included
(a first sweep) and without it (a warm pool, a running cluster: every later sweep), and
the parallel speed-up of the warm figures over serial (target >= 1.7x on 2 cores; it is
only meaningful on an otherwise idle machine). Run on the personal
scenarios until ship combat is playable: the Snorri/Brynhild duel (~0.6 ms a battle, the
worst case for parallel overhead) and the 20 v 20 tavern brawl (~6 ms a battle). The
issue's figure, 10,000 replicates of the *ship* duel, waits for the ship engine.

``python -m benchmarks sweep`` runs only this module.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from benchmarks.harness import Row
from fadad_agents.analysis import shutdown_workers, sweep

SCENARIOS = Path(__file__).parents[1] / "scenarios"
CASES = (("duel", "snorri-vs-brynhild.yaml", 10_000), ("brawl", "tavern-brawl.yaml", 2_000))
TARGET_SPEEDUP = 1.7


def _rate(case: str, runs: int, **kwargs: object) -> float:
    start = time.perf_counter()
    result = sweep(SCENARIOS / case, runs, 0, progress=False, **kwargs)  # type: ignore[arg-type]
    elapsed = time.perf_counter() - start
    assert len(result.frame) == runs
    return runs / elapsed


def _dask_warm(case: str, runs: int) -> float:
    """Throughput on a LocalCluster started beforehand (a user's running cluster)."""
    from distributed import LocalCluster

    with LocalCluster(  # type: ignore[no-untyped-call]
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0"
    ) as cluster:
        _rate(case, 4, scheduler=cluster.scheduler_address)  # workers import the engine
        return _rate(case, runs, scheduler=cluster.scheduler_address)


def _bench(name: str, case: str, runs: int) -> Callable[[], list[Row]]:
    def bench() -> list[Row]:
        serial = _rate(case, runs)
        shutdown_workers()
        cold = _rate(case, runs, backend="processes", workers=2)
        warm = _rate(case, runs, backend="processes", workers=2)
        shutdown_workers()
        dask_cold = _rate(case, runs, backend="dask", workers=2)
        dask_warm = _dask_warm(case, runs)
        title = f"sweep {name} x{runs:,}"
        rows = [
            Row(f"{title} serial", serial, "replicates/s"),
            Row(f"{title} 2 processes (pool start incl.)", cold, "replicates/s"),
            Row(f"{title} 2 processes (warm pool)", warm, "replicates/s"),
            Row(f"{title} dask 2 workers (cluster start incl.)", dask_cold, "replicates/s"),
            Row(f"{title} dask 2 workers (running cluster)", dask_warm, "replicates/s"),
        ]
        for label, rate in (("2 processes", warm), ("dask 2 workers", dask_warm)):
            speedup = rate / serial
            ok = speedup >= TARGET_SPEEDUP
            rows.append(Row(f"{title} speed-up {label}", speedup, "x serial", ">= 1.7", ok))
        return rows

    bench.__name__ = f"bench_sweep_{name}"
    return bench


BENCHMARKS = [_bench(name, case, runs) for name, case, runs in CASES]
