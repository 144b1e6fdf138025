"""The 5 v 5 benchmark's bare loop plays the engine's own battle, dice for dice.

``make bench`` states the engine's overhead as a ratio over
``benchmarks.bench_engine._bare_same_dice``; the ratio only means something if that loop
is the same fight. Here both play the same seeds and must agree on every round count and
every fighter's final wound.
"""

from __future__ import annotations

from typing import Any

import pytest

from benchmarks.bench_engine import _bare_same_dice, _interleaved, _melee_yaml
from fadad_agents.engine import build_battle, load
from fadad_agents.engine.core.fighters import bare_fighter, character_fighter
from fadad_agents.rules.personal.combat import CombatRules
from fadad_agents.schema.character import Character


def test_the_bare_loop_plays_the_engines_battle() -> None:
    scenario = load(_melee_yaml(5, bands=False))
    forces = [f for s in scenario.sides for f in s.forces if isinstance(f, Character)]
    fighters = [character_fighter(f, scenario.rules) for f in forces]
    bare = [bare_fighter(f, scenario.rules) for f in forces]
    rules = CombatRules.from_options(scenario.rules)
    outcomes = set()
    for seed in range(150):
        battle = build_battle(scenario, seed)
        battle.run_to_end()
        engine = (battle.round, [int(m.track.level) for s in battle.sides for m in s.members])
        assert _bare_same_dice(fighters, 0, 5, rules, seed, bare) == engine, f"seed {seed}"
        outcomes.add(battle.winner)
    assert outcomes == {0, 1}  # both sides win some: the seeds exercise real fights


def test_whole_battles_count_their_agent_rounds_from_the_log(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``benchmarks.bench_battles.acted`` reads a battle's agent-rounds from its log (a
    battle played whole in compiled code plays no round in Python to count): the fighters
    still fighting as each round began, as counted there round by round in Python."""
    from benchmarks.bench_battles import acted
    from fadad_agents.engine.personal import melee

    monkeypatch.setattr(melee, "MELEE_COMPILED", False)
    scenario = load(_melee_yaml(60, bands=True))
    for seed in (1, 2):
        battle = build_battle(scenario, seed=seed, collect=False)
        counted = [0]
        plays = battle._play_round

        def play(plays: Any = plays, battle: Any = battle, counted: list[int] = counted) -> None:
            counted[0] += sum(len(side.active) for side in battle.sides)
            plays()

        battle._play_round = play
        battle.run_to_end()
        assert battle.round > 5
        assert acted(battle) == counted[0]


def test_the_scaling_benchmarks_interleave_their_sizes() -> None:
    """The sizes whose costs the scaling benchmarks compare are measured over the same
    minutes: each size's battles spread over the whole run (a size's ``k``-th of ``n`` at
    ``(k + 0.5) / n`` of it), not one size's back to back."""
    order = _interleaved({200: 15, 2_000: 5, 20_000: 4})
    assert {size: order.count(size) for size in set(order)} == {200: 15, 2_000: 5, 20_000: 4}
    places = {size: [k for k, s in enumerate(order) if s == size] for size in (200, 20_000)}
    for a, b in zip(places[20_000], places[20_000][1:], strict=False):  # 3 or 4 of 200 between
        assert 3 <= order[a:b].count(200) <= 4
    for size in (200, 20_000):  # each size's first in the first quarter, last in the last
        assert places[size][0] < len(order) / 4
        assert places[size][-1] >= 3 * len(order) / 4
    assert _interleaved({200: 1, 2_000: 1, 20_000: 1}) == [200, 2_000, 20_000]  # --quick
