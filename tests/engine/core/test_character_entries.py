"""A character entry in a scenario puts fighters on the field: how many (``count``), where
(``position``) and what they decide (``policies``), each shown in the first round played."""

from __future__ import annotations

from typing import Any

from fadad_agents.engine import build_battle, load
from tests.engine.conftest import duel_yaml, fighter

OPEN = "map: {kind: open, width: 200, height: 60}\n"


def first_round(red: str, blue: str) -> list[Any]:
    """The events of the first round of ``red`` against ``blue`` on an open field."""
    battle = build_battle(load(OPEN + duel_yaml(red, blue)), 1, collect=False)
    battle.play_round()
    return list(battle.log)


def test_count_makes_as_many_fighters_who_each_strike() -> None:
    """Character.count: ``count: 3`` puts Thug 1-3 on the field, each striking Bob in the
    first round; without it one Thug."""
    for extra, names in (("        count: 3\n", {"Thug 1", "Thug 2", "Thug 3"}), ("", {"Thug"})):
        events = first_round(fighter("Thug", extra=extra), fighter("Bob", skill="Legendary"))
        assert {e.actor for e in events if e.action == "attack" and e.target == "Bob"} == names


def test_a_characters_policies_decide_whether_it_fights() -> None:
    """Character.policies: told to stay back Ann never strikes; by default she does."""
    for policies, strikes in (("{targeting: stay_back}", False), ("", True)):
        events = first_round(fighter("Ann", policies=policies), fighter("Bob"))
        assert any(e.action == "attack" and e.actor == "Ann" for e in events) is strikes


def test_position_sets_who_is_in_reach_at_the_start() -> None:
    """Character.position (personal-combat.md 5): a yard apart Ann strikes in the first
    round; thirty yards apart she spends it moving in."""
    for x, strikes in ((11, True), (40, False)):
        events = first_round(
            fighter("Ann", extra="        position: [10, 30]\n"),
            fighter("Bob", extra=f"        position: [{x}, 30]\n", policies="{movement: hold}"),
        )
        assert any(e.action == "attack" and e.actor == "Ann" for e in events) is strikes
        assert any(e.action == "move" and e.actor == "Ann" for e in events) is not strikes
