"""Whole battles in ranks, played to their end: what an agent-round costs over a battle's
life at 200, 2,000 and 20,000 agents, beside :func:`~benchmarks.bench_engine.bench_scaling`'s
first 3 rounds: two blocks (as a band stands by default), and two lines 5 deep.

With numba loaded, each battle is played whole in compiled code
(:mod:`~fadad_agents.engine.personal.ground`: plain fighters closing in on open ground);
without it, or where a battle asks for more, round by round in Python, its rear ranks'
waiting in compiled code (:mod:`~fadad_agents.agents.core.crowd.waiting`). Issue 19's target
(flat within 30% from 200 to 20,000 agents, at most 5 us at 20,000) is read here over whole
battles too, so that neither reading stands for the other.

Run with ``python -m benchmarks battles``.
"""

from __future__ import annotations

import time
from collections import Counter
from typing import Any

import benchmarks.harness as harness
from benchmarks.bench_engine import LINE_RANKS, _interleaved, _melee_yaml, _per_agent_round
from benchmarks.harness import BIG, Row
from fadad_agents.engine import build_battle, load

__all__ = ["BENCHMARKS", "acted", "whole_of"]

SEEDS = {200: tuple(range(1, 11)), 2_000: (1, 2, 3), 20_000: (1,)}
"""The battles played at each size (one of 200 agents lasts a twentieth of a second, one
of 20,000 about 200 rounds: half a minute on these machines)."""

PASSES = {200: 3, 2_000: 2, 20_000: 1}
"""Passes over each size's battles, the fastest taken (a pass of half a second is easily
slowed by a neighbour on a shared machine; load only ever adds time), the sizes' passes
interleaved (:func:`~benchmarks.bench_engine._interleaved`): the 200's three, played back
to back, lasted a second and a half and read 4.47 and 6.34 us in two runs 7 minutes apart
(2026-12-07), where the 20,000's half minute read 3.60 and 3.92."""


def _whole(agents: int, seeds: tuple[int, ...]) -> tuple[float, float]:
    """CPU seconds per agent-round over whole battles of ``agents`` in ranks, each played
    to its end as ``run()`` plays it once built (``run_to_end``: the collector paused for
    the whole battle, no round data; with numba loaded, in compiled code where the battle
    allows), over the ``seeds`` (one pass: :data:`PASSES` are interleaved by the caller),
    and their mean rounds. The fighters acting in each round are counted from the battle's
    log once it is played (:func:`acted`), outside the time."""
    return whole_of(load(_melee_yaml(agents // 2, bands=True), BIG), seeds)


def whole_of(scenario: Any, seeds: tuple[int, ...]) -> tuple[float, float]:
    """:func:`_whole`'s CPU seconds per agent-round and mean rounds of any ``scenario``."""
    spent, acting, rounds = 0.0, 0, 0
    for seed in seeds:
        battle = build_battle(scenario, seed=seed, collect=False)
        start = time.process_time()
        battle.run_to_end()
        spent += time.process_time() - start
        acting += acted(battle)
        rounds += battle.round
    return spent / max(acting, 1), rounds / len(seeds)


def acted(battle: Any) -> int:
    """The agent-rounds of ``battle``, played to its end: the fighters still fighting as
    each of its rounds began (everyone, less those who went out, withdrew or surrendered
    in an earlier round), read from its log."""
    left = Counter(
        event.round for event in battle.log if event.action in ("out", "withdraw", "surrender")
    )
    standing, total = len(battle.agents), 0
    for rnd in range(1, battle.round + 1):
        total += standing
        standing -= left.get(rnd, 0)
    return total


def bench_whole_battles() -> list[Row]:
    """Per agent-round CPU cost of whole battles in ranks at 200, 2,000 and 20,000 agents,
    the best of :data:`PASSES` (``--quick``: 200 and 2,000, one battle each, one pass, and
    no verdict), the collector's work after each round included; warmed up as
    :func:`~benchmarks.bench_engine.bench_scaling` is (numba loaded, a band of 100's
    searches compiled)."""
    _per_agent_round(load(_melee_yaml(300, bands=True), BIG), 1)
    _per_agent_round(load(_melee_yaml(100, bands=True), BIG), 1)
    _whole(200, (99,))  # a first battle's first steps to its end (endings, take-outs)
    sizes = (200, 2_000) if harness.QUICK else (200, 2_000, 20_000)
    rows: list[Row] = []
    costs = {}
    best = {agents: (float("inf"), 0.0) for agents in sizes}
    passes = {agents: 1 if harness.QUICK else PASSES[agents] for agents in sizes}
    for agents in _interleaved(passes):  # each size's passes over the same minutes
        seeds = SEEDS[agents][:1] if harness.QUICK else SEEDS[agents]
        best[agents] = min(best[agents], _whole(agents, seeds))
    for agents, (cost, rounds) in best.items():
        costs[agents] = cost
        rows.append(Row(f"whole battles, per agent-round at {agents:,} agents", cost * 1e6, "us"))
        rows.append(Row(f"whole battles at {agents:,} agents, mean rounds", rounds, "rounds"))
    if not harness.QUICK:
        flat = costs[20_000] / costs[200]
        rows.append(
            Row("whole battles, agent-round cost 20,000 / 200", flat, "x", "0.7-1.3",
                0.7 <= flat <= 1.3)
        )  # fmt: skip
        at = costs[20_000] * 1e6
        rows.append(Row("whole battle, agent-round cost at 20,000", at, "us", "<= 5", at <= 5))
    return rows


LINE_PASSES = {200: 3, 2_000: 2, 20_000: 2}
"""Passes over each size's battles in lines: a line's battle of 20,000 lasts about 36 rounds
(a second), so it too is played twice, its best taken, as the smaller ones are: the first
play of a battle builds what the compiled melee keeps of it for every later play (its
template: about 9 us a fighter, 0.18 s at 20,000), which the smaller sizes' later passes
and seeds share (a single cold play of the 20,000 read 4.1 us an agent-round, its second
3.5, the 200's 3.4)."""


def bench_whole_lines() -> list[Row]:
    """Per agent-round CPU cost of whole battles of two lines :data:`~benchmarks.bench_engine.
    LINE_RANKS` deep a yard apart (``ranks:``), at 200, 2,000 and 20,000 agents, the best of
    :data:`LINE_PASSES` (``--quick``: not run): the same fight a fighter at every size, but
    the lines' ends, over a battle's life (the blocks' battles of
    :func:`bench_whole_battles` last longer the bigger they are: 20, 53 and 203 rounds)."""
    if harness.QUICK:
        return []
    _per_agent_round(load(_melee_yaml(300, bands=True), BIG), 1)
    lines = {
        agents: load(_melee_yaml(agents // 2, bands=True, gap=1, ranks=LINE_RANKS), BIG)
        for agents in LINE_PASSES
    }
    best = dict.fromkeys(lines, (float("inf"), 0.0))
    for agents in _interleaved(LINE_PASSES):
        best[agents] = min(best[agents], whole_of(lines[agents], SEEDS[agents]))
    rows = []
    for agents, (cost, rounds) in best.items():
        name = f"whole battles in lines, per agent-round at {agents:,} agents"
        rows.append(Row(name, cost * 1e6, "us"))
        rows.append(Row(f"whole battles in lines at {agents:,}, mean rounds", rounds, "rounds"))
    flat = best[20_000][0] / best[200][0]
    rows.append(
        Row("whole battles in lines, agent-round cost 20,000 / 200", flat, "x", "0.7-1.3",
            0.7 <= flat <= 1.3)
    )  # fmt: skip
    at = best[20_000][0] * 1e6
    rows.append(Row("whole battle in lines, agent-round cost at 20,000", at, "us", "<= 5", at <= 5))
    return rows


BENCHMARKS = [bench_whole_battles, bench_whole_lines]
