"""Two bands of Fae Domains blade-dancers, whole battles at 200 and 2,000 agents: what an
agent-round of the percentile system costs as the bands grow.

With no map every fighter stands in one melee at the same spot, and, with no ``facing`` in
its stat block, turns to its nearest foe as the battle begins
(:mod:`~fadad_agents.agents.fae.facing`). Asked fighter by fighter, each measured every
foe: 1,000 v 1,000 spent 201 us an agent-round against 98 at 100 v 100 before
2026-12-07 (2,000 v 2,000: 3.8 s a battle), now the same at both. Fae battles are played
in Python and built afresh (not recycled): issue 19's flat cost (within 30%) is held
against them here, its 5 us at 20,000 is the FADAD melee's
(:mod:`~benchmarks.bench_engine`).

Run with ``python -m benchmarks fae``.
"""

from __future__ import annotations

import benchmarks.harness as harness
from benchmarks.bench_battles import whole_of
from benchmarks.harness import BIG, Row
from fadad_agents.engine import load

__all__ = ["BENCHMARKS", "fae_bands_yaml"]

SEEDS = {200: (1, 2, 3, 4, 5), 2_000: (1, 2)}
"""The battles played at each size (``--quick``: the first of each)."""


def fae_bands_yaml(per_side: int, gap: int | None = None) -> str:
    """``per_side`` Fae blade-dancers a side, no facing given; no map, or, with ``gap``,
    the bands formed up that many yards apart on open ground."""
    where = "" if gap is None else "        position: [{x}, 0]\n"
    field = "" if gap is None else "map: {kind: open, width: 200, height: 200}\n"

    def band(name: str, x: int) -> str:
        return f"""
      - name: {name}
        ruleset: fae
        attributes: {{strength: 65, agility: 80, stamina: 60, size: 35, luck: 60, reaction: 80}}
        skills: {{Sword: 75, Dodge: 60}}
        wound_points: 50
        fatigue_points: 55
        weapons: [fae/longsword]
        armour: fae/leather-armour
        count: {per_side}
{where.format(x=x)}"""

    return f"""
name: {per_side} v {per_side} Fae blade-dancers
{field}sides:
  - name: Hollies
    forces:{band("Holly", 40)}
  - name: Oaks
    forces:{band("Oak", 40 + (gap or 0))}
stop: {{max_rounds: 200}}
"""


def bench_fae_bands() -> list[Row]:
    """Per agent-round CPU cost of whole battles of two Fae bands at 200 and 2,000 agents,
    the best of 2 passes (``--quick``: one battle each, one pass, no verdict)."""
    whole_of(load(fae_bands_yaml(10), BIG), (9,))  # warm-up: the Fae modules' first calls
    passes = 1 if harness.QUICK else 2
    best = {}
    for agents, seeds in SEEDS.items():
        chosen = seeds[:1] if harness.QUICK else seeds
        scenario = load(fae_bands_yaml(agents // 2), BIG)
        best[agents] = min(whole_of(scenario, chosen)[0] for _ in range(passes))
    rows = [
        Row(f"Fae bands, whole battles, per agent-round at {agents:,} agents", cost * 1e6, "us")
        for agents, cost in best.items()
    ]
    if not harness.QUICK:
        flat = best[2_000] / best[200]
        rows.append(Row("Fae bands, agent-round cost 2,000 / 200", flat, "x", "0.7-1.3",
                        0.7 <= flat <= 1.3))  # fmt: skip
    return rows


BENCHMARKS = [bench_fae_bands]
