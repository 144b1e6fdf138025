"""Monte Carlo sweep throughput: serial, 2 local processes, Dask LocalCluster of 2 workers.

The issue's figure: 10,000 replicates of the ship duel (``scenarios/ship-duel.yaml``,
~17 ms a battle), serially, on 2 processes and on a Dask LocalCluster of 2 workers, end
to end with the pool or cluster start-up included, and the parallel speed-up over serial
(target >= 1.7x on 2 cores; only meaningful on an otherwise idle machine). The personal
duel (~0.6 ms a battle, the worst case for per-batch overhead) and the tavern brawl
(~6 ms) add warm figures: a pool kept from an earlier sweep, a cluster already running.

``python -m benchmarks sweep`` runs only this module (several minutes).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from pathlib import Path

from benchmarks.harness import Row
from fadad_agents.analysis import shutdown_workers, sweep

SCENARIOS = Path(__file__).parents[1] / "scenarios"
SHIP_DUEL = ("ship duel", "ship-duel.yaml", 10_000)
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
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        dashboard_address=":0",
        silence_logs=logging.CRITICAL,
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


def bench_sweep_ship_duel() -> list[Row]:
    """The issue's figure: 10,000 ship duels, cold start included."""
    name, case, runs = SHIP_DUEL
    serial = _rate(case, runs)
    shutdown_workers()
    processes = _rate(case, runs, backend="processes", workers=2)
    dask = _rate(case, runs, backend="dask", workers=2)
    title = f"sweep {name} x{runs:,}"
    rows = [
        Row(f"{title} serial", serial, "replicates/s"),
        Row(f"{title} 2 processes", processes, "replicates/s"),
        Row(f"{title} dask LocalCluster 2 workers", dask, "replicates/s"),
    ]
    for label, rate in (("2 processes", processes), ("dask 2 workers", dask)):
        speedup = rate / serial
        ok = speedup >= TARGET_SPEEDUP
        rows.append(Row(f"{title} speed-up {label}", speedup, "x serial", ">= 1.7", ok))
    return rows


BENCHMARKS = [bench_sweep_ship_duel, *(_bench(name, case, runs) for name, case, runs in CASES)]
