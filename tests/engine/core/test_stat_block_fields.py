"""Stat-block fields a blow reads do what their rules say, shown in a played round:
shields by their own figures, a creature's shield cap, Anna's weapon and armour groups,
armour by its material, less-lethal FUDGE classes, scale-piercing weapons and a weapon's
grip."""

from __future__ import annotations

from typing import Any

import pytest

from fadad_agents.engine import build_battle, load
from fadad_agents.schema import ScenarioError
from tests.engine.conftest import Script, dice, duel_yaml


def first_blow(
    ann: str = "", bob: str = "", rules: str = "", *, rd_dice: tuple[int, int] = (0, 0)
) -> dict[str, Any]:
    """The outcome of Ann's first swing at Bob (Ann acts first: static, Great reaction;
    a broadsword unless ``ann`` gives her a weapon; her attack and Bob's defence dice
    ``rd_dice``, damage dice 0)."""
    weapon = "" if "weapon:" in ann else "        weapon: weapons/broadsword\n"
    text = duel_yaml(
        f"""
      - name: Ann
        reaction_speed: Great
        skills: {{Sword: Great}}
        attack_skill: Sword
{weapon}{ann}""",
        f"""
      - name: Bob
        skills: {{Sword: Fair}}
        attack_skill: Sword
{bob}""",
        rules="fadad.initiative: static, fadad.crit_effects: none"
        + (", " + rules if rules else ""),
    )
    battle = build_battle(load(text), seed=1)
    battle.sides[0].members[0].rng = Script(dice(rd_dice[0]), dice(rd_dice[1]), dice(0))
    battle.play_round()
    event = next(e for e in battle.log.of("attack") if e.actor == "Ann")
    return dict(event.outcome)


def test_a_shield_guards_by_its_own_target_bonus_and_magic() -> None:
    """Shield.target_bonus and .magic_plus: a tower shield (+3, magic +1) makes Bob's
    Target Terrible + 4 = Good; the stock medium shield, Mediocre (personal-combat.md 3)."""
    tower = "        shield: {name: Tower shield, target_bonus: 3, magic_plus: 1}\n"
    assert first_blow(bob=tower)["target_level"] == 1
    assert first_blow(bob="        shield: shields/medium\n")["target_level"] == -1
    assert first_blow()["target_level"] == -3


def test_a_creatures_shield_cap_limits_the_shields_target() -> None:
    """Creature.shield_cap: a small creature's medium shield gives Target at most the cap
    (section 3: the GM limits shield bonuses for small characters)."""
    medium = "        shield: shields/medium\n"
    assert first_blow(bob=medium + "        shield_cap: -2\n")["target_level"] == -2
    assert first_blow(bob=medium)["target_level"] == -1


def test_a_shield_covers_as_many_attackers_as_it_says() -> None:
    """Shield.attackers: Bob faces Ann; Cal, the second to strike him, meets the shield's
    Target only if the shield covers two attackers (a large shield does, section 3)."""
    cal = """
      - name: Cal
        reaction_speed: Good
        skills: {Sword: Great}
        attack_skill: Sword
        weapon: weapons/broadsword
"""
    levels = {}
    for covers in (1, 2):
        shield = f"        shield: {{name: Wall, target_bonus: 3, attackers: {covers}}}\n"
        text = duel_yaml(
            f"""
      - name: Ann
        reaction_speed: Great
        skills: {{Sword: Great}}
        attack_skill: Sword
        weapon: weapons/broadsword
{cal}""",
            f"""
      - name: Bob
        skills: {{Sword: Fair}}
        attack_skill: Sword
        policies: {{targeting: first}}
{shield}""",
            rules="fadad.initiative: static",
        )
        battle = build_battle(load(text), seed=1)
        battle.play_round()
        by = {e.actor: dict(e.outcome)["target_level"] for e in battle.log.of("attack")}
        levels[covers] = (by["Ann"], by["Cal"])
    assert levels == {1: (0, -3), 2: (0, 0)}


def test_a_shield_burdens_its_bearers_attack_by_its_own_penalty() -> None:
    """Shield.attack_penalty: Ann's rolled degree drops by her shield's penalty (a large
    shield's -1 in FADAD, section 2.1)."""
    base = first_blow()["attack"]
    assert (
        first_blow(ann="        shield: {name: Pavise, target_bonus: 3, attack_penalty: -2}\n")[
            "attack"
        ]
        == base - 2
    )


def test_a_fudge_shield_lowers_the_opponents_skill_by_its_melee_value() -> None:
    """Shield.fudge_melee, shield_mode (C-11): with fudge_skill_penalty Ann's rolled
    degree against Bob drops by his shield's FUDGE melee value plus its magic; with
    fadad_target his Target rises by its Target bonus plus its magic instead."""
    rules = "shield_mode: fudge_skill_penalty"
    base = first_blow(rules=rules)["attack"]
    shield = "        shield: {name: Targe, target_bonus: 1, fudge_melee: 2, magic_plus: 1}\n"
    assert first_blow(bob=shield, rules=rules)["attack"] == base - 3
    fadad = first_blow(bob=shield)  # the FADAD shield raises the Target instead
    assert (fadad["attack"], fadad["target_level"]) == (base, -1)


def test_weapon_and_armour_groups_scale_the_damage() -> None:
    """Weapon.group, Armour.group (fudge.weapon_groups, A-18): a dagger (no group) does
    no damage through Heavy armour, half through Light; without the option, full damage."""
    dagger = "        weapon: weapons/dagger\n"
    heavy = "        armour: {name: Plate, value: 1, group: heavy}\n"
    light = "        armour: {name: Padding, value: 1, group: light}\n"
    groups = "fudge.weapon_groups: true"
    full = first_blow(dagger, heavy)["damage"]
    assert full > 1
    assert first_blow(dagger, heavy, groups)["damage"] == 0
    assert first_blow(dagger, light, groups)["damage"] == full // 2


def test_armour_material_sets_its_value_and_group() -> None:
    """Armour.material: plate given only as heavy metal is DDM +4 (wounds-and-healing.md
    4.2) and Heavy for the groups (4.4); leather, +1."""
    unarmoured = first_blow()["damage"]
    assert first_blow(bob="        armour: {name: Plate, material: heavy_metal}\n")["damage"] == (
        unarmoured - 4
    )
    assert first_blow(bob="        armour: {name: Jerkin, material: light_non_metal}\n")[
        "damage"
    ] == (unarmoured - 1)


def test_less_lethal_weapons_count_one_class_less() -> None:
    """fudge.less_lethal: a broadsword's FUDGE class 2 + sharpness counts 1 + sharpness
    (SEED 001 4.54): the damage number drops by one."""
    rules = "wound_model: fudge_numeric"
    assert (
        first_blow(rules=rules)["damage"] - 1
        == first_blow(rules=rules + ", fudge.less_lethal: true")["damage"]
    )


def test_a_scale_piercing_weapon_ignores_the_victims_mass_on_a_good_hit() -> None:
    """Weapon.scale_piercing, scale_piercing_min_rd (section 11): a harpoon that ignores
    Mass Scale does 6 more damage to a Scale 6 beast on RD 6; not when the good hit must
    be RD 7 or more."""
    harpoon = "        weapon: {model: weapons/spear-two-handed, scale_piercing: ignore}\n"
    spear = "        weapon: weapons/spear-two-handed\n"
    beast = "        scale: 6\n"
    plain = first_blow(spear, beast, rd_dice=(2, -2))
    assert plain["rd"] == 6
    assert first_blow(harpoon, beast, rd_dice=(2, -2))["damage"] == plain["damage"] + 6
    assert (
        first_blow(harpoon, beast, "scale_piercing_min_rd: 7", rd_dice=(2, -2))["damage"]
        == plain["damage"]
    )


def test_a_two_handed_weapon_leaves_no_hand_for_a_shield() -> None:
    """``Weapon.hands`` (wounds-and-healing.md 4.1, (1h)/(2h)): Bob's medium shield raises
    the Target Ann meets while he swings a one-handed sword; the same greatsword-and-shield
    file is refused in one line, naming both, when the sword needs both hands."""
    shield = "        shield: shields/medium\n"
    one_handed = "        weapon: {model: weapons/greatsword, hands: 1}\n" + shield
    assert first_blow(bob=one_handed)["target_level"] > first_blow()["target_level"]
    with pytest.raises(ScenarioError) as info:
        first_blow(bob="        weapon: weapons/greatsword\n" + shield)
    (problem,) = info.value.problems
    assert problem.endswith(
        "sides[1].forces[0].shield: 'Greatsword' is wielded in both hands (hands: 2, a (2h) "
        "weapon in wounds-and-healing.md 4.1), leaving none for 'Medium shield'; drop the "
        "shield or take a one-handed weapon"
    )
