"""Fae Domains stat blocks: the force kind, ``ruleset: fae``, gear from models/fae, errors."""

from __future__ import annotations

import pytest

from fadad_agents.schema import Character, ScenarioError, default_catalog, load_scenario
from fadad_agents.schema.fae import FaeCharacter, FaeGear
from fadad_agents.schema.loader import catalog_model, dump_scenario
from fadad_agents.schema.scenario import OBSTACLE_SIZE

FAE_FORCE = """
      - name: {name}
        {kind}
        attributes: {{strength: 63, luck: 37, reaction: 55}}
        skills: {{Sword: 25, Dodge: 30}}
        skill_attributes: {{Sword: strength}}
        wound_points: 40
        fatigue_points: 50
        weapons: [fae/longsword]
        armour: fae/chain-armour
        shield: fae/round-shield
{extra}"""


def _scenario(kind_a: str = "kind: fae", kind_b: str = "ruleset: fae", top: str = "",
              extra: str = "") -> str:  # fmt: skip
    return f"""
name: fae schema
{top}
sides:
  - name: A
    forces:{FAE_FORCE.format(name="Brutus", kind=kind_a, extra=extra)}
  - name: B
    forces:{FAE_FORCE.format(name="Morwen", kind=kind_b, extra="")}
"""


def test_kind_or_ruleset_makes_a_fae_character() -> None:
    """``kind: fae`` and ``ruleset: fae`` on a force both give a FaeCharacter."""
    s = load_scenario(_scenario())
    assert all(isinstance(f, FaeCharacter) for _, f in s.forces)
    brutus = s.sides[0].forces[0]
    assert isinstance(brutus, FaeCharacter)
    assert brutus.weapons[0].base_damage == 80
    assert brutus.weapons[0].model == "fae/longsword"
    assert brutus.armour is not None
    assert brutus.armour.dr == 12
    assert brutus.attributes.size == 50  # human average default


def test_scenario_ruleset_fae_is_the_default_for_forces() -> None:
    """``ruleset: fae`` on the scenario makes every force without a kind a Fae one."""
    s = load_scenario(_scenario(kind_a="", kind_b="", top="ruleset: fae"))
    assert s.ruleset == "fae"
    assert all(isinstance(f, FaeCharacter) for _, f in s.forces)


def test_without_ruleset_a_force_stays_a_fadad_character() -> None:
    """A FADAD force beside a Fae one keeps its own kind (mixed scenes)."""
    fadad = """
      - name: Morwen
        skills: {Sword: Good}
        attack_skill: Sword
"""
    text = f"""
name: mixed
sides:
  - name: A
    forces:{FAE_FORCE.format(name="Brutus", kind="kind: fae", extra="")}
  - name: B
    forces:{fadad}
"""
    s = load_scenario(text)
    assert isinstance(s.sides[0].forces[0], FaeCharacter)
    assert isinstance(s.sides[1].forces[0], Character)


def test_ex_fae_03_skill_and_attribute_inputs() -> None:
    """EX-FAE-03: Brutus's block carries Sword 25%, Strength 63 (the Sword's attribute)
    and Luck 37, the inputs of his 35% MCS."""
    brutus = load_scenario(_scenario()).sides[0].forces[0]
    assert isinstance(brutus, FaeCharacter)
    assert brutus.skill("Sword") == 25
    assert brutus.primary("Sword") == 63
    assert brutus.attributes.luck == 37
    assert brutus.skill("Unknown") == 0


def test_round_trip_through_yaml() -> None:
    """dump_scenario then load gives an equal scenario."""
    s = load_scenario(_scenario(top="ruleset: fae"))
    assert load_scenario(dump_scenario(s)) == s


def test_catalogue_holds_fae_weapons_armour_and_shields() -> None:
    """models/fae/ has weapons, armour and shields, each validating as FaeGear."""
    cat = default_catalog()
    names = cat.names("fae")
    items = {catalog_model(n, catalog=cat).item for n in names}
    assert items == {"weapon", "armour", "shield"}
    for n in names:
        gear = catalog_model(n, catalog=cat)
        assert isinstance(gear, FaeGear)
        if gear.item == "weapon":
            assert gear.damage_base > 0
            assert gear.skill


def test_catalogue_files_say_their_numbers_are_original() -> None:
    """The seed gives no Fae weapon table: every file says its data is ORIGINAL."""
    cat = default_catalog()
    for n in cat.names("fae"):
        assert "ORIGINAL" in cat.source(n).read_text(encoding="utf-8"), n


@pytest.mark.parametrize(
    ("extra", "expected"),
    [
        ("        count: 0\n", "count: 0 is too small"),
        ("        mount: {name: pony}\n", "wound_points: missing"),
        ("        altitude: -1\n", "altitude: -1 is too small"),
        ("        player: true\n        count: 2\n", "player characters in one entry"),
        ("        hit_points: 3\n", "'hit_points' is not a field of FaeCharacter"),
        ("        facing: 360\n", "facing: 360 is too large (maximum 359)"),
    ],
)
def test_bad_fae_entries_give_one_line_errors(extra: str, expected: str) -> None:
    """Mistakes in a Fae force are one-line ScenarioErrors naming the field."""
    with pytest.raises(ScenarioError) as err:
        load_scenario(_scenario(extra=extra))
    assert any(expected in p for p in err.value.problems), err.value.problems
    assert all("\n" not in p for p in err.value.problems)


OAK = "map:\n  obstacles:\n    - {{name: old oak, position: [6, 0], radius: {radius}, height: 8}}\n"


def test_map_obstacles_load_with_the_proposed_size() -> None:
    """A map obstacle keeps its yards; with no ``size`` it is a Size-100 trunk (PROPOSED)."""
    s = load_scenario(_scenario(top="ruleset: fae\n" + OAK.format(radius=1.5)))
    (oak,) = s.map.obstacles
    assert (oak.name, oak.position, oak.radius, oak.height, oak.size) == (
        "old oak",
        (6, 0),
        1.5,
        8,
        OBSTACLE_SIZE,
    )
    assert OBSTACLE_SIZE == 100
    assert load_scenario(dump_scenario(s)) == s
    assert load_scenario(_scenario()).map.obstacles == []


@pytest.mark.parametrize(
    ("radius", "expected"),
    [("-1", "map.obstacles[0].radius: -1 is too small (minimum 0.5)"),
     ("0.2", "map.obstacles[0].radius: 0.2 is too small (minimum 0.5)"),
     ("wide", "map.obstacles[0].radius: 'wide' is not a number")],
)  # fmt: skip
def test_bad_obstacle_radius_gives_a_one_line_error(radius: str, expected: str) -> None:
    """An obstacle's radius under 0.5 yd or not a number is refused, the field named."""
    with pytest.raises(ScenarioError) as err:
        load_scenario(_scenario(top="ruleset: fae\n" + OAK.format(radius=radius)))
    (problem,) = err.value.problems
    assert expected in problem
    assert "\n" not in problem


def test_unknown_primary_attribute_is_refused() -> None:
    """A skill's primary attribute must be one a test can read (no silent Agility)."""
    text = _scenario().replace("skill_attributes: {Sword: strength}", "skill_attributes: "
                               "{Sword: wits}", 1)  # fmt: skip
    with pytest.raises(ScenarioError) as err:
        load_scenario(text)
    (problem,) = err.value.problems
    assert "skill_attributes.Sword: 'wits' is not allowed (allowed: 'strength'" in problem


def test_gear_in_the_wrong_slot_is_refused() -> None:
    """Armour listed as a weapon is refused with the slot named."""
    text = _scenario().replace("weapons: [fae/longsword]", "weapons: [fae/chain-armour]", 1)
    with pytest.raises(ScenarioError) as err:
        load_scenario(text)
    assert "weapons[0]" in str(err.value)
    assert "not a weapon" in str(err.value)


def test_weapon_needs_skill_and_base_damage() -> None:
    """An inline Fae weapon without base damage is refused (what to write is suggested)."""
    text = _scenario().replace(
        "weapons: [fae/longsword]", "weapons: [{item: weapon, name: Stick, skill: Staff}]", 1
    )
    with pytest.raises(ScenarioError) as err:
        load_scenario(text)
    assert "base_damage" in str(err.value)


def test_unknown_fae_gear_suggests_the_nearest() -> None:
    """A misspelt catalogue name gets a did-you-mean."""
    text = _scenario().replace("fae/longsword", "fae/longswrd", 1)
    with pytest.raises(ScenarioError) as err:
        load_scenario(text)
    assert "fae/longsword" in str(err.value)


def test_thrown_objects_without_a_rating_do_weight_over_three() -> None:
    """3.4: an object with no damage rating does base damage = weight / 3 (half up)."""
    stone = catalog_model("fae/thrown-stone")
    assert stone.base_damage == 0
    assert stone.damage_base == 2  # 6 lb
    chair = FaeGear(item="weapon", name="Chair", skill="Thrown Weapons", thrown=True, weight=10)
    assert chair.damage_base == 3  # 10 / 3 = 3.33
    sword = catalog_model("fae/longsword")
    assert sword.damage_base == sword.base_damage == 80


def test_mount_becomes_a_combatant_beside_its_rider() -> None:
    """A mount's stat block converts to a Fae combatant at its rider's place and height,
    with its own weapon (fae/hooves from the catalogue), skills and Wound Points (6)."""
    mount = """        position: [4, 5]
        altitude: 3
        mount:
          name: destrier
          attributes: {size: 150, reaction: 45}
          skills: {Kick: 40}
          weapon: fae/hooves
          wound_points: 90
          fatigue_points: 120
          run_mr: 60
"""
    s = load_scenario(_scenario(extra=mount))
    rider = s.sides[0].forces[0]
    assert isinstance(rider, FaeCharacter)
    assert rider.mount is not None
    steed = rider.mount.combatant(rider)
    assert steed.name == "Brutus's destrier"
    assert (steed.position, steed.altitude, steed.wound_points, steed.run_mr) == ((4, 5), 3, 90, 60)
    assert [w.name for w in steed.weapons] == ["Hooves"]
    assert steed.skill("Kick") == 40
    assert steed.attributes.size == 150


@pytest.mark.parametrize("name", ["charisma", "intelligence"])
def test_attributes_no_combat_rule_tests_are_refused(name: str) -> None:
    """Charisma and Intelligence change nothing in a Fae battle (seed 004 never tests them):
    a file that sets one gets a line naming it and what to do."""
    text = _scenario().replace("attributes: {strength: 63,", f"attributes: {{{name}: 70,", 1)
    with pytest.raises(ScenarioError) as err:
        load_scenario(text)
    (problem,) = err.value.problems
    assert f"attributes.{name}: {name.capitalize()} is tested by no Fae Domains combat" in problem
    assert "remove it" in problem


def test_facing_defaults_to_the_nearest_foe() -> None:
    """With no ``facing`` a Fae fighter starts facing its nearest foe (None); a number is
    degrees counter-clockwise from +x."""
    s = load_scenario(_scenario(extra="        facing: 270\n"))
    brutus, morwen = (f for _, f in s.forces)
    assert isinstance(brutus, FaeCharacter)
    assert isinstance(morwen, FaeCharacter)
    assert (brutus.facing, morwen.facing) == (270, None)
