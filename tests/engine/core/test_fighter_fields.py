"""A fighter's stat block decides its blows (wounds-and-healing.md 4-6, personal-combat.md
1-3): each test plays Ann's first swing at Bob with the same scripted dice and one field at
two values, and checks the logged degree, Target, damage or wound moves as its rule says."""

from __future__ import annotations

from typing import Any

from fadad_agents.engine import build_battle, load
from fadad_agents.rules.core.wounds import Wound
from tests.engine.conftest import Script, dice, duel_yaml

ANN = {
    "reaction_speed": "Great",
    "skills": "{Sword: Great}",
    "attack_skill": "Sword",
    "weapon": "{name: Sword, fadad_bonus: 2}",
}
BOB = {"skills": "{Sword: Fair}", "attack_skill": "Sword"}


def entry(name: str, fields: dict[str, Any]) -> str:
    """A character entry (YAML for a side's forces list); a None value drops the field."""
    lines = "".join(f"        {k}: {v}\n" for k, v in fields.items() if v is not None)
    return f"\n      - name: {name}\n{lines}"


def blow(
    ann: dict[str, Any] | None = None,
    bob: dict[str, Any] | None = None,
    rules: str = "",
    *,
    rolls: tuple[int, int, int] = (2, -2, 0),
) -> dict[str, Any]:
    """Ann's first swing at Bob (static initiative, no critical effects): her stat block
    ``ANN`` updated by ``ann``, his ``BOB`` by ``bob``; her attack, his defence and the
    damage die come up ``rolls`` (4dF totals). The outcome, with the dice under ``dice``
    and Bob's wound level after the round under ``bob_wound``."""
    text = duel_yaml(
        entry("Ann", {**ANN, **(ann or {})}),
        entry("Bob", {**BOB, **(bob or {})}),
        rules="fadad.initiative: static, fadad.crit_effects: none"
        + (", " + rules if rules else ""),
    )
    battle = build_battle(load(text), seed=1)
    battle.sides[0].members[0].rng = Script(*(dice(r) for r in rolls))
    battle.play_round()
    event = next(e for e in battle.log.of("attack") if e.actor == "Ann")
    bob_wound = Wound(battle.sides[1].members[0].track.level)
    return {**dict(event.outcome), "dice": dict(event.dice), "bob_wound": bob_wound}


def moved(key: str, a: dict[str, Any], b: dict[str, Any], side: str = "ann", **kw: Any) -> int:
    """How far ``key`` of Ann's first blow moves from Ann's (or Bob's) fields ``a`` to ``b``."""
    first = blow(**{side: a}, **kw)[key]
    return int(blow(**{side: b}, **kw)[key] - first)


# --- the weapon: what it adds to the damage -------------------------------------------


def test_the_weapons_fadad_bonus_adds_to_the_damage() -> None:
    """Weapon.fadad_bonus (4.1): a +4 weapon does 2 more than a +2 one."""
    assert moved("damage", {}, {"weapon": "{name: Axe, fadad_bonus: 4}"}) == 2


def test_the_weapons_fudge_class_and_sharpness_add_under_fudge_wounds() -> None:
    """Weapon.fudge_class, Weapon.sharp (4.3): under FUDGE numeric wounds class 3 does one
    more than class 2, and a sharp edge one more again; FADAD wounds read the FADAD bonus."""
    fudge = "wound_model: fudge_numeric"
    two = {"weapon": "{name: Sword, fadad_bonus: 2, fudge_class: 2}"}
    three = {"weapon": "{name: Sword, fadad_bonus: 2, fudge_class: 3}"}
    sharp = {"weapon": "{name: Sword, fadad_bonus: 2, fudge_class: 2, sharp: true}"}
    assert moved("damage", two, three, rules=fudge) == 1
    assert moved("damage", two, sharp, rules=fudge) == 1
    assert moved("damage", two, three) == 0


def test_a_magic_weapon_adds_its_plus_to_the_damage() -> None:
    """Weapon.magic_plus (4.1): a +2 magic sword does 2 more."""
    assert moved("damage", {}, {"weapon": "{name: Sword, fadad_bonus: 2, magic_plus: 2}"}) == 2


def test_only_a_muscle_powered_weapon_adds_the_wielders_strength() -> None:
    """Weapon.muscle_powered, Weapon.strength (4.1, A-19): Great Strength adds 2 to a sword
    blow but nothing to a crossbow bolt; a weapon's own Strength (Superb) replaces hers."""
    strong = {"strength": "Great"}
    bow = {**strong, "weapon": "{name: Latch, fadad_bonus: 2, muscle_powered: false}"}
    gun = {**strong, "weapon": "{name: Latch, fadad_bonus: 2, strength: Superb}"}
    assert moved("damage", {}, strong) == 2
    assert moved("damage", strong, bow) == -2
    assert moved("damage", strong, gun) == 1


def test_a_character_without_a_weapon_punches_at_minus_one() -> None:
    """Creature.weapon (4.1): bare fists are -1, a +2 sword 3 better."""
    assert moved("damage", {"weapon": None}, {}) == 3


# --- armour, toughness, Scale ----------------------------------------------------------


def test_armour_and_its_magic_take_from_the_damage() -> None:
    """Armour.value, Armour.magic_plus, Creature.armour (4.2): mail of value 3 takes 3
    from the damage, a magic +1 one more."""
    mail = {"armour": "{name: Mail, value: 3}"}
    magic = {"armour": "{name: Mail, value: 3, magic_plus: 1}"}
    assert moved("damage", {}, mail, "bob") == -3
    assert moved("damage", mail, magic, "bob") == -1


def test_strength_and_damage_capacity_set_the_damage_factors() -> None:
    """Creature.strength, Creature.damage_capacity (4.1, 4.2): Ann's Great Strength adds 2,
    Bob's Good Damage Capacity takes 1."""
    assert moved("damage", {}, {"strength": "Great"}) == 2
    assert moved("damage", {}, {"damage_capacity": "Good"}, "bob") == -1


def test_mass_scale_takes_from_the_damage_but_leaves_the_target() -> None:
    """Creature.mass_scale (4.2): Bob's Mass Scale 3 takes 3 from the damage; his Target
    follows his Strength Scale, unchanged."""
    heavy = {"mass_scale": 3}
    assert moved("damage", {}, heavy, "bob") == -3
    assert moved("target_level", {}, heavy, "bob") == 0


def test_scale_adds_to_strength_and_mass_and_sets_the_target() -> None:
    """Creature.scale (personal-combat.md 3, 4.1-4.2): Ann at Scale 2 adds 2 to her
    damage factor; Bob at Scale 2 is that much heavier to wound, at Scale -2 harder to hit
    (a smaller defender's Target rises)."""
    big = {"scale": 2}
    ann = blow(ann=big)
    base = blow()
    assert (ann["damage"] - ann["rd"]) - (base["damage"] - base["rd"]) == 2
    bob = blow(bob=big)
    assert (bob["damage"] - bob["rd"]) - (base["damage"] - base["rd"]) == -2
    assert blow(bob={"scale": -2})["target_level"] == base["target_level"] + 1


# --- skills -------------------------------------------------------------------------------


def test_the_attack_skill_names_the_skill_rolled() -> None:
    """Creature.skills, Creature.attack_skill: Ann attacks with the skill her attack_skill
    names: Sword (Great) + 4dF, or Axe (Fair) + 4dF."""
    axe = {"skills": "{Sword: Great, Axe: Fair}", "attack_skill": "Axe"}
    sword = blow()
    assert sword["attack"] - sword["dice"]["attack"] == 2
    assert moved("attack", {}, axe) == -2
    assert moved("attack", {}, {"skills": "{Sword: Superb}"}) == 1


def test_the_defence_skill_names_the_skill_the_defender_rolls() -> None:
    """Creature.defence_skill: Bob parries with his Sword (Fair) unless his defence_skill
    names another, Dodge (Great): his defence rises by 2."""
    dodge = {"skills": "{Sword: Fair, Dodge: Great}", "defence_skill": "Dodge"}
    assert moved("defence", {}, dodge, "bob") == 2


# --- wounds ---------------------------------------------------------------------------------


def test_the_wound_track_decides_how_a_blow_is_recorded() -> None:
    """Creature.wound_track, Creature.wound_boxes (6.1-6.2): a blow of damage 5 marks Very
    Hurt on the standard track; a cannon-fodder npc3 track folds it to Hurt; boxes with no
    Very Hurt box (they replace the track) push it up to Incapacitated."""
    rolls = {"rolls": (1, -1, -1)}
    assert blow(**rolls)["damage"] == 5
    assert blow(**rolls)["bob_wound"] is Wound.VERY_HURT
    assert blow(bob={"wound_track": "npc3"}, **rolls)["bob_wound"] is Wound.HURT
    boxes = {"wound_track": "npc3", "wound_boxes": "[3, 1, 0, 1, 1]"}
    assert blow(bob=boxes, **rolls)["bob_wound"] is Wound.INCAPACITATED
