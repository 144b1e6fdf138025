"""All-out attack and the FUDGE weapon size comparison (personal-combat.md 2.1; A-04:
``fadad.all_out_attack_defends``, ``fadad.weapon_size_comparison``)."""

from __future__ import annotations

from typing import Any

from fadad_agents.engine import build_battle, load
from tests.engine.conftest import duel_yaml, fighter


def _play(text: str, rounds: int = 3, seed: int = 4) -> Any:
    battle = build_battle(load(text), seed, collect=False)
    for _ in range(rounds):
        if not battle.finished:
            battle.play_round()
    return battle


def _blows(battle: Any, actor: str) -> list[dict[str, Any]]:
    return [
        dict(e.outcome) | dict(e.modifiers)
        for e in battle.log
        if e.action == "attack" and e.actor == actor
    ]


TOUGH = "        damage_capacity: Legendary\n        wound_boxes: [9, 9, 9, 9, 9]\n"


def test_an_all_out_attack_is_plus_one_to_hit() -> None:
    """Stance all_out_attack: Ann's first swing rolls one better on the same dice (her
    wound penalty aside: all out, she does not parry Bob's blow)."""
    plain = duel_yaml(fighter("Ann", extra=TOUGH), fighter("Bob", extra=TOUGH))
    all_out = duel_yaml(
        fighter("Ann", extra=TOUGH, policies="{stance: all_out_attack}"),
        fighter("Bob", extra=TOUGH),
    )
    first = _blows(_play(plain, 1), "Ann")[0]
    raging = _blows(_play(all_out, 1), "Ann")[0]
    unhurt = raging["attack"] - raging["attacker_penalty"]
    assert unhurt == first["attack"] - first["attacker_penalty"] + 1


def test_an_all_out_attacker_does_not_defend_unless_the_option_says() -> None:
    """fadad.all_out_attack_defends: by default every blow on an all-out attacker meets
    its Target alone (both its actions attack); with the option on it keeps one to parry."""

    def defended(rules: str) -> list[bool]:
        text = duel_yaml(
            fighter("Ann", extra=TOUGH, policies="{stance: all_out_attack}"),
            fighter("Bob", extra=TOUGH),
            rules=rules,
        )
        battle = _play(text, 4)
        return [b["defended"] for b in _blows(battle, "Bob")]

    assert not any(defended(""))
    assert any(defended("fadad.all_out_attack_defends: true"))
    text = duel_yaml(
        fighter("Ann", extra=TOUGH, policies="{stance: all_out_attack}"),
        fighter("Bob", extra=TOUGH),
    )
    battle = _play(text, 4)
    assert all(len([e for e in battle.log if e.action == "attack" and e.actor == "Ann"
                    and e.round == r]) == 2 for r in range(1, 5))  # fmt: skip


def test_a_knife_and_shield_are_minus_one_against_a_two_handed_sword() -> None:
    """fadad.weapon_size_comparison: a knife (+1) and small shield (+1) against a
    greatsword (+4): with the option the knife wielder rolls one worse to attack and to
    defend on the same dice; without it, no change."""
    knife = fighter("Ann", extra=TOUGH + "        shield: shields/small\n").replace(
        "weapons/broadsword", "weapons/knife"
    )
    sword = fighter("Bob", extra=TOUGH).replace("weapons/broadsword", "weapons/greatsword")

    def rolls(rules: str) -> tuple[int, Any]:
        battle = _play(duel_yaml(knife, sword, rules=rules), 1)
        mine, theirs = _blows(battle, "Ann")[0], _blows(battle, "Bob")[0]
        return mine["attack"], theirs["defence"] if theirs["defended"] else None

    plain, compared = rolls(""), rolls("fadad.weapon_size_comparison: true")
    assert compared[0] == plain[0] - 1
    assert plain[1] is not None
    assert compared[1] == plain[1] - 1
