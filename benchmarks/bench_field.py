"""A melee that starts apart: 1,000 v 1,000 closing in over 60 yards of open ground, and
what an agent-round of the approach costs at 200, 2,000 and 20,000 agents."""

from __future__ import annotations

import time

import benchmarks.harness as harness
from benchmarks.bench_engine import _melee_yaml, _per_agent_round
from benchmarks.harness import BIG, Row, quick
from fadad_agents.engine import load, run


def bench_field() -> list[Row]:
    """1,000 v 1,000 starting 60 yards apart on open ground: the battle to completion (not
    with ``--quick``), and the CPU cost per agent-round over its first 4 rounds (the
    approach and the clash; 2 with ``--quick``) at 200, 2,000 and 20,000 agents (best of 2
    builds, 1 with ``--quick``): flat, since every look-up of the field visits only the
    squares near the fighter (no all-pairs scans)."""
    rows: list[Row] = []
    if not harness.QUICK:
        start = time.perf_counter()
        result = run(load(_melee_yaml(1000, bands=True, gap=60), BIG), seed=3, collect=False)
        elapsed = time.perf_counter() - start
        rows.append(Row("1,000 v 1,000 from 60 yd to completion", elapsed, "s"))
        rows.append(Row("1,000 v 1,000 from 60 yd, rounds", result.rounds, "rounds"))
    costs = {}
    for agents in (200, 2_000, 20_000):
        scenario = load(_melee_yaml(agents // 2, bands=True, gap=60), BIG)
        rounds = quick(4, 2)
        cost = min(_per_agent_round(scenario, rounds)[0] for _ in range(quick(2, 1)))
        costs[agents] = cost
        rows.append(Row(f"from 60 yd, per agent-round at {agents:,} agents", cost * 1e6, "us"))
    flat = costs[20_000] / costs[200]
    rows.append(
        Row("from 60 yd, agent-round cost 20,000 / 200", flat, "x", "flat (<= 2)", flat <= 2.0)
    )
    return rows


BENCHMARKS = [bench_field]
