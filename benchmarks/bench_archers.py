"""Archers against a band in ranks at 200, 2,000 and 20,000 agents: what an agent-round of
a fight with missiles costs as the armies grow.

One side's band has bows, the other's swords, formed up as :func:`~benchmarks.bench_engine.
bench_scaling`'s bands are (the front ranks in contact): every archer's range holds the
whole other army, so each shot's choice of a foe in range asks for all of it. Told at once
(``Field.fighting_within``, a side's answer kept until one of it comes or moves), that
costs the same at any size; measured foe by foe for every shot, as it was before
2026-12-07, it grew with the army: 31, 102 and 824 us an agent-round at 200, 2,000 and
20,000. Shooting is played in Python (the compiled melee plays no missiles), so the cost
of an agent-round is several times the melee's: issue 19's flat cost (within 30% from 200
to 20,000) is held against it here; its 5 us at 20,000 is the melee's
(:mod:`~benchmarks.bench_engine`), not shown against this fight.

Run with ``python -m benchmarks archers``.
"""

from __future__ import annotations

import benchmarks.harness as harness
from benchmarks.bench_engine import _interleaved, _melee_yaml, _per_agent_round
from benchmarks.harness import BIG, Row
from fadad_agents.engine import load

__all__ = ["BENCHMARKS", "archers_yaml"]

_SWORDS = "skills: {Sword: Good}\n        attack_skill: Sword\n        weapon: weapons/broadsword"
_BOWS = "skills: {Bow: Good}\n        attack_skill: Bow\n        weapon: weapons/bow"

BATTLES = {200: 15, 2_000: 5, 20_000: 2}
"""The battles played at each size, the best taken (``--quick``: one of 200 and 2,000)."""


def archers_yaml(per_side: int) -> str:
    """``per_side`` archers (the first side's band) against as many swordsmen, in ranks."""
    return _melee_yaml(per_side, bands=True).replace(_SWORDS, _BOWS, 1)


def bench_archers() -> list[Row]:
    """CPU cost per agent-round of the first 3 rounds (1 with ``--quick``) of archers
    against swordsmen at 200, 2,000 and 20,000 agents (``--quick``: 200 and 2,000, no
    verdict), the sizes' battles interleaved; warmed up as ``bench_scaling`` is, and by a
    round of archers."""
    _per_agent_round(load(_melee_yaml(300, bands=True), BIG), 1)
    _per_agent_round(load(archers_yaml(100), BIG), 1)
    sizes = (200, 2_000) if harness.QUICK else tuple(BATTLES)
    scenarios = {agents: load(archers_yaml(agents // 2), BIG) for agents in sizes}
    rounds = 1 if harness.QUICK else 3
    battles = {agents: 1 if harness.QUICK else BATTLES[agents] for agents in sizes}
    best = dict.fromkeys(sizes, float("inf"))
    for agents in _interleaved(battles):
        best[agents] = min(best[agents], _per_agent_round(scenarios[agents], rounds)[0])
    rows = [
        Row(f"archers, per agent-round at {agents:,} agents", cost * 1e6, "us")
        for agents, cost in best.items()
    ]
    if not harness.QUICK:
        flat = best[20_000] / best[200]
        rows.append(
            Row("archers, agent-round cost 20,000 / 200", flat, "x", "0.7-1.3", 0.7 <= flat <= 1.3)
        )
    return rows


BENCHMARKS = [bench_archers]
