"""Fighters who all start in one melee skip the contact checks and path planning whose
answer is known (``Field.all_touching``): the battle is the one the checks would give."""

from __future__ import annotations

import pytest

from fadad_agents.engine import build_battle, load
from fadad_agents.engine.core import space

MELEE = """
name: five a side
rules: {fadad.initiative: rolled}
sides:
  - name: Red
    forces:
      - {name: Ann, skills: {Sword: Good}, attack_skill: Sword, weapon: weapons/broadsword}
      - {name: Reds, skills: {Sword: Fair}, attack_skill: Sword, weapon: weapons/broadsword,
         armour: armour/heavy-leather, count: 4}
  - name: Blue
    policies: {stance: {name: defend_when_hurt, params: {level: Hurt}}}
    forces:
      - {name: Blues, skills: {Axe: Good}, attack_skill: Axe, weapon: weapons/battleaxe,
         armour: armour/heavy-leather, count: 5}
"""

APART = MELEE.replace("count: 5}", "count: 5, position: [4, 0]}")
"""The Blues start four yards off: they close in, and the field stops being one melee."""


def _log(source: str, seed: int) -> str:
    battle = build_battle(load(source), seed)
    battle.run_to_end()
    return battle.log.to_jsonl()


@pytest.mark.parametrize("source", [MELEE, APART])
def test_the_shortcut_changes_no_battle(source: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The same seeds give byte-identical logs with the one-melee shortcut and with every
    contact measured (the shortcut turned off)."""
    fast = [_log(source, seed) for seed in range(12)]
    monkeypatch.setattr(space, "_all_touching", lambda placed: False)
    assert [_log(source, seed) for seed in range(12)] == fast


def test_one_melee_lasts_until_the_first_move() -> None:
    """Fighters set up in one melee are all in reach of each other; fighters set up apart
    are not, and once one moves the field no longer vouches for contact."""
    battle, apart = build_battle(load(MELEE), 1), build_battle(load(APART), 1)
    assert battle.field is not None
    assert apart.field is not None
    assert battle.field.all_touching
    assert not apart.field.all_touching
    member = battle.sides[0].members[0]
    battle.field.move(member, member.position[0] - 5.0, member.position[1])
    assert not battle.field.all_touching
    battle.reset(2)
    assert battle.field.all_touching
