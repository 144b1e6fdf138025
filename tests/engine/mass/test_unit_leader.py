"""A unit's leader (mass-combat.md 1.3: "the unit (or its leader) rolls a morale/leadership
trait"): while the character named in ``Unit.leader`` fights, his unit checks morale on
the better of its morale and his Leadership (PROPOSED)."""

from __future__ import annotations

from fadad_agents.engine import run
from tests.engine.conftest import duel_yaml

LEVY = """
      - name: Levy
        kind: unit
        count: 60
        skill: Fair
        morale: Terrible
{leader}"""
CAPTAIN = """
      - name: Captain Edric
        traits: {Leadership: Legendary}
        skills: {Sword: Good}
        attack_skill: Sword
        weapon: weapons/broadsword
        policies: {targeting: stay_back}
"""
GUARD = """
      - name: Guard
        kind: unit
        count: 60
        skill: Good
        morale: Good
"""


def _levy_broke(led: bool, seed: int) -> bool:
    """Whether the levy's morale broke in one battle."""
    leader = "        leader: Captain Edric\n" if led else ""
    text = duel_yaml(LEVY.format(leader=leader) + CAPTAIN, GUARD, a_pol="morale: unit_morale")
    result = run(text, seed=seed)
    return any(e.actor == "Levy" and e.result == "breaks" for e in result.log.of("morale"))


def test_a_leader_with_great_leadership_steadies_his_unit() -> None:
    """Unit.leader: a Terrible-morale levy led by a Legendary leader breaks in at most half
    as many of 12 battles as the same levy unled, on the same seeds (the leader stands
    back, so he fights all battle)."""
    unled = sum(_levy_broke(False, seed) for seed in range(1, 13))
    led = sum(_levy_broke(True, seed) for seed in range(1, 13))
    assert unled >= 6
    assert led <= unled / 2
