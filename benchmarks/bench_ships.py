"""Ship benchmarks (issue 5): 1,000 replicates of the boarding action in one process
(target: at most 60 s), plus the ship duel and the 3 v 3 fleet action per battle.

Run with ``python -m benchmarks ships``.
"""

from __future__ import annotations

import time

from benchmarks.harness import Row, peak_memory_mb
from fadad_agents.engine import build_battle, load, run
from fadad_agents.engine.core.result import result_of

__all__ = ["BENCHMARKS"]

SCENARIOS = "scenarios"
REPLICATES = 1_000


def _replicates(name: str, n: int) -> tuple[float, float, float]:
    """Seconds for ``n`` battles of scenario ``name`` (seeds 0..n-1), mean rounds, mean events."""
    scenario = load(f"{SCENARIOS}/{name}.yaml")
    rounds = events = 0
    start = time.perf_counter()
    for seed in range(n):
        battle = build_battle(scenario, seed, collect=False)
        battle.run_to_end()
        result = result_of(battle)
        rounds += result.rounds
        events += len(result.log)
    return time.perf_counter() - start, rounds / n, events / n


def bench_boarding_action_replicates() -> list[Row]:
    """1,000 boarding actions, single process, fresh battle per seed."""
    seconds, rounds, events = _replicates("boarding-action", REPLICATES)
    return [
        Row("ships: 1,000 boarding actions", seconds, "s", "<= 60 s", seconds <= 60),
        Row("ships: boarding action per battle", 1000 * seconds / REPLICATES, "ms"),
        Row("ships: boarding action mean ship rounds", rounds, "rounds"),
        Row("ships: boarding action mean log events", events, "events"),
    ]


def bench_duel_and_fleet() -> list[Row]:
    """Per-battle cost of the ship duel (SJ, 6-s rounds) and the fleet action (FADAD)."""
    rows = []
    for name, n in (("ship-duel", 200), ("fleet-action", 20)):
        seconds, rounds, _ = _replicates(name, n)
        rows.append(Row(f"ships: {name} per battle", 1000 * seconds / n, "ms"))
        rows.append(Row(f"ships: {name} mean ship rounds", rounds, "rounds"))
    return rows


def bench_memory() -> list[Row]:
    """Peak Python heap of one fleet action played to its end."""
    peak = peak_memory_mb(lambda: run(f"{SCENARIOS}/fleet-action.yaml", seed=1, collect=False))
    return [Row("ships: fleet action peak heap", peak, "MiB")]


BENCHMARKS = [bench_boarding_action_replicates, bench_duel_and_fleet, bench_memory]
