"""Starting state brought from an earlier battle (schema.starting): a character's
``wounds`` are on its track at round 1 and their penalty counts in its first blows; its
``shots_left`` are all the shots its missile weapon has."""

from __future__ import annotations

from typing import Any

from fadad_agents.engine import build_battle, load
from tests.engine.conftest import duel_yaml, fighter


def _first_round(text: str, seed: int = 3) -> Any:
    battle = build_battle(load(text), seed, collect=False)
    battle.play_round()
    return battle


def _first_penalty(battle: Any, who: str) -> int:
    first = next(e for e in battle.log if e.action == "attack" and e.actor == who)
    return int(dict(first.modifiers)["attacker_penalty"])


QUICK = "        reaction_speed: Superb\n"
"""Ann strikes first in round 1 (static initiative), before any blow lands on her."""


def test_starting_wounds_are_on_the_track_and_cost_their_penalty() -> None:
    """Ann starting Very Hurt (a Hurt written in the Very Hurt box) with a Scratch: her
    track holds those marks at round 1, her blows carry the Very Hurt penalty -2 (SEED 001
    4.57: the worst level counts); unhurt on the same seed, she swings at 0."""
    hurt = fighter("Ann", extra=QUICK + "        wounds: [Scratch, Hurt, Hurt in Very Hurt]\n")
    static = "fadad.initiative: static"
    wounded = _first_round(duel_yaml(a=hurt, rules=static))
    fresh = _first_round(duel_yaml(a=fighter("Ann", extra=QUICK), rules=static))
    ann = wounded.sides[0].members[0]
    assert ann.start_track.marks == ((1, 1), (2, 2), (3, 2))
    assert ann.start_track.level.label == "Very Hurt"
    assert _first_penalty(wounded, "Ann") == -2
    assert _first_penalty(fresh, "Ann") == 0


def test_a_group_starts_every_member_with_the_wounds() -> None:
    """``wounds`` on a ``count:`` group: every member starts with them."""
    band = fighter("Guard", extra="        count: 3\n        wounds: [Hurt]\n")
    battle = build_battle(load(duel_yaml(a=band)), 1, collect=False)
    assert [m.track.level.label for m in battle.sides[0].members] == ["Hurt"] * 3


def test_member_wounds_give_each_member_its_own_wounds() -> None:
    """``member_wounds`` on a group of four: the first three start with their own lists,
    the fourth with ``wounds``; the Very Hurt guard swings at -2 from his first blow
    while, on the same seed without them, every guard swings at 0."""
    lists = "        member_wounds: [[Very Hurt], [], [Scratch, Hurt]]\n"
    band = "        count: 4\n        wounds: [Scratch]\n        reaction_speed: Superb\n"
    static = "fadad.initiative: static"
    hurt = _first_round(duel_yaml(a=fighter("Guard", extra=band + lists), rules=static))
    fresh = _first_round(duel_yaml(a=fighter("Guard", extra=band), rules=static))
    levels = [m.start_track.level.label for m in hurt.sides[0].members]
    assert levels == ["Very Hurt", "Undamaged", "Hurt", "Scratch"]
    assert _first_penalty(hurt, "Guard 1") == -2
    assert _first_penalty(fresh, "Guard 1") == 0


_FIELD = """
name: shots left
map: {kind: open, width: 600, height: 60}
sides:
  - name: Elves
    forces:
      - name: Aelwen
        skills: {Bow: Great}
        attack_skill: Bow
        weapon: weapons/bow
        policies: {movement: hold}
        position: [10, 30]
%s
  - name: Men
    forces:
      - name: Brand
        skills: {Sword: Good}
        attack_skill: Sword
        weapon: weapons/broadsword
        wound_boxes: [20, 20, 20, 20, 20]
        position: [200, 30]
        policies: {movement: hold, targeting: stay_back}
stop: {max_rounds: 8}
"""


def _shots(extra: str) -> int:
    battle = build_battle(load(_FIELD % extra), 1, collect=False)
    battle.run_to_end()
    return sum(1 for e in battle.log if e.action == "shoot")


def test_shots_left_are_all_the_shots_the_weapon_has() -> None:
    """A bow carries 20 arrows; with ``shots_left: 2`` from the last fight the archer
    shoots twice and stops; with all 20 left she shoots as a fresh archer does."""
    assert _shots("        shots_left: 2") == 2
    assert _shots("") == _shots("        shots_left: 20") > 2
