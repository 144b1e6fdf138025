"""The 5 v 5 benchmark's bare loop plays the engine's own battle, dice for dice.

``make bench`` states the engine's overhead as a ratio over
``benchmarks.bench_engine._bare_same_dice``; the ratio only means something if that loop
is the same fight. Here both play the same seeds and must agree on every round count and
every fighter's final wound.
"""

from __future__ import annotations

from typing import Any

import pytest

from benchmarks.bench_engine import _bare_same_dice, _melee_yaml
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
