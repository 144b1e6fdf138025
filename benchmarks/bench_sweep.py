"""Monte Carlo sweep throughput: serial, 2 local processes, Dask LocalCluster of 2 workers.

The issue's figure: 10,000 replicates of the ship duel (``scenarios/ship-duel.yaml``,
~5 ms a battle), serially, on 2 processes and on a Dask LocalCluster of 2 workers, end
to end with the pool or cluster start-up included, and the parallel speed-up over serial
(target >= 1.7x on 2 cores; only meaningful on an otherwise idle machine). The personal
duel (~0.2 ms a battle, the worst case for per-batch overhead) and the tavern brawl
(~2 ms) add warm figures: a pool kept from an earlier sweep, a cluster already running.
Every rate is the better of two passes: load on this shared VM only ever slows.

``python -m benchmarks sweep`` runs only this module (several minutes).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from pathlib import Path

from benchmarks.harness import Row
from fadad_agents.analysis import shutdown_workers, sweep
from fadad_agents.analysis.backends import local_cluster_settings

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
        passes = []
        for _ in range(2):  # each rate the better of two passes, as for the ship duel
            serial = _rate(case, runs)
            shutdown_workers()
            cold = _rate(case, runs, backend="processes", workers=2)
            warm = _rate(case, runs, backend="processes", workers=2)
            shutdown_workers()
            dask_cold = _rate(case, runs, backend="dask", workers=2)
            passes.append((serial, cold, warm, dask_cold, _dask_warm(case, runs)))
        serial, cold, warm, dask_cold, dask_warm = (max(c) for c in zip(*passes, strict=True))
        title = f"sweep {name} x{runs:,}"
        rows = [
            Row(f"{title} serial", serial, "replicates/s"),
            Row(f"{title} 2 processes (pool start incl.)", cold, "replicates/s"),
            Row(f"{title} 2 processes (warm pool)", warm, "replicates/s"),
            Row(f"{title} dask 2 workers (cluster start incl.)", dask_cold, "replicates/s"),
            Row(f"{title} dask 2 workers (running cluster)", dask_warm, "replicates/s"),
        ]
        speedup = warm / serial
        ok = speedup >= TARGET_SPEEDUP
        rows.append(Row(f"{title} speed-up 2 processes", speedup, "x serial", ">= 1.7", ok))
        # A user's cluster with Dask's default settings: for comparison, as for the ship
        # duel (per-task overhead weighs most on these short battles).
        label = "dask 2 workers, user's running cluster"
        rows.append(Row(f"{title} speed-up {label}", dask_warm / serial, "x serial"))
        return rows

    bench.__name__ = f"bench_sweep_{name}"
    return bench


def bench_sweep_ship_duel() -> list[Row]:
    """The issue's figure: 10,000 ship duels, cold start included, and on a running cluster.

    The process pool's start includes this process's fork server (which preloads the
    engine); the Dask LocalCluster started next forks its workers from that same server,
    as any later pool or cluster in a session does (started by a Dask sweep alone, in a
    fresh process, it measured 1.79x). The running cluster is a user's LocalCluster with
    Dask's default settings (the sweep's own cluster monitors itself less often:
    ``analysis.backends.QUIET_MONITORING``). Each rate is the best of two passes.
    """
    name, case, runs = SHIP_DUEL
    # Two passes, each rate the better of its two: this VM's CPU share swings by a third
    # for minutes at a time (the CPU-time figures above do not), and load only ever slows.
    passes = []
    for _ in range(2):
        serial = _rate(case, runs)
        shutdown_workers()
        processes = _rate(case, runs, backend="processes", workers=2)
        dask = _rate(case, runs, backend="dask", workers=2)
        passes.append((serial, processes, dask, _dask_warm(case, runs)))
    serial, processes, dask, dask_warm = (max(column) for column in zip(*passes, strict=True))
    title = f"sweep {name} x{runs:,}"
    rows = [
        Row(f"{title} serial", serial, "replicates/s"),
        Row(f"{title} 2 processes (pool start incl.)", processes, "replicates/s"),
        Row(f"{title} dask LocalCluster 2 workers (start incl.)", dask, "replicates/s"),
        Row(f"{title} dask 2 workers (running cluster)", dask_warm, "replicates/s"),
    ]
    for label, rate in (("2 processes", processes), ("dask 2 workers, start incl.", dask)):
        speedup = rate / serial
        ok = speedup >= TARGET_SPEEDUP
        rows.append(Row(f"{title} speed-up {label}", speedup, "x serial", ">= 1.7", ok))
    # A user's own cluster, Dask's default settings: for comparison, not the figure.
    label = "dask 2 workers, user's running cluster"
    rows.append(Row(f"{title} speed-up {label}", dask_warm / serial, "x serial"))
    return rows


def _process_tree_cpu() -> dict[int, float]:
    import psutil  # a dependency of distributed

    return {p.pid: sum(p.cpu_times()[:2]) for p in psutil.Process().children(recursive=True)}


def _parallel_cpu(case: str, runs: int, **kwargs: object) -> tuple[float, float]:
    """(CPU seconds per replicate in worker processes, in this process) of a warm sweep."""
    sweep(SCENARIOS / case, 4, 0, progress=False, **kwargs)  # type: ignore[arg-type]
    before = _process_tree_cpu()
    start = time.process_time()
    sweep(SCENARIOS / case, runs, 0, progress=False, **kwargs)  # type: ignore[arg-type]
    main = (time.process_time() - start) / runs
    after = _process_tree_cpu()
    workers = sum(cpu - before.get(pid, 0.0) for pid, cpu in after.items()) / runs
    return workers, main


def bench_sweep_cpu_accounting() -> list[Row]:
    """Load-proof figures: CPU seconds per replicate, serial vs 2 workers.

    Wall-clock speed-ups need two idle cores; on a shared machine they measure the
    neighbours. CPU time does not: if the workers and the main process (which also hosts
    a LocalCluster's scheduler) together spend about the serial CPU per replicate, two
    idle cores give about twice the throughput. The estimate is serial CPU over half the
    parallel CPU.
    """
    name, case, _ = SHIP_DUEL
    runs = 2000
    start = time.process_time()
    sweep(SCENARIOS / case, runs, 0, progress=False)
    serial = (time.process_time() - start) / runs
    title = f"sweep {name} x{runs:,}"
    rows = [Row(f"{title} CPU per replicate, serial", serial * 1000, "ms")]
    from distributed import LocalCluster

    # Processes first: a running cluster's idle heartbeats would count against them.
    measured = {"2 processes": _parallel_cpu(case, runs, backend="processes", workers=2)}
    shutdown_workers()
    with (
        local_cluster_settings(),  # the settings of the cluster backend="dask" starts
        LocalCluster(  # type: ignore[no-untyped-call]
            n_workers=2,
            threads_per_worker=1,
            processes=True,
            dashboard_address=":0",
            silence_logs=logging.CRITICAL,
        ) as cluster,
    ):
        address = cluster.scheduler_address
        measured["dask 2 workers"] = _parallel_cpu(case, runs, scheduler=address)
    for label, (workers, main) in measured.items():
        estimate = serial / ((workers + main) / 2)
        rows += [
            Row(f"{title} CPU per replicate, {label}", workers * 1000, "ms"),
            Row(f"{title} CPU per replicate, main process ({label})", main * 1000, "ms"),
            Row(
                f"{title} speed-up on 2 idle cores, {label} (CPU estimate)",
                estimate,
                "x serial",
                ">= 1.7",
                estimate >= TARGET_SPEEDUP,
            ),
        ]
    return rows


BENCHMARKS = [
    bench_sweep_cpu_accounting,
    bench_sweep_ship_duel,
    *(_bench(name, case, runs) for name, case, runs in CASES),
]
