"""Stat-block models: ladder fields, frozen records, catalogue overrides, derived values."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from fadad_agents.schema import (
    Character,
    Crew,
    PolicyRef,
    Ship,
    ShipWeapon,
    Unit,
    Weapon,
)
from fadad_agents.schema.loader import catalog_model


def test_ladder_fields_accept_labels_offsets_and_ints() -> None:
    """Great, Great-2, +2, 2 and lower-case labels all store ints."""
    c = Character.model_validate(
        {"name": "x", "strength": "Great", "damage_capacity": "Great-2",
         "reaction_speed": "+2", "skills": {"Sword": 2, "Dodge": "legendary+1"}}
    )  # fmt: skip
    assert (c.strength, c.damage_capacity, c.reaction_speed) == (2, 0, 2)
    assert c.skills == {"Sword": 2, "Dodge": 5}


def test_records_are_frozen() -> None:
    """Validated models cannot be changed in place."""
    c = Character(name="x")
    with pytest.raises(ValidationError):
        c.count = 3  # type: ignore[misc]


def test_catalogue_reference_with_overrides() -> None:
    """`model:` loads the entry; other keys override it; the reference is kept."""
    w = Weapon.model_validate({"model": "weapons/broadsword", "magic_plus": 1, "name": "Ice"})
    assert (w.name, w.fadad_bonus, w.magic_plus, w.model) == ("Ice", 3, 1, "weapons/broadsword")
    assert w.damage_bonus() == 4  # Snorri's sword: +3 and +1 magic (EX-PC-01)
    assert Weapon.model_validate("broadsword") == Weapon.model_validate(
        {"model": "weapons/broadsword"}
    )


def test_weapon_value_systems_fall_back() -> None:
    """FUDGE value = class + sharp + magic; a missing system falls back to the other."""
    axe = catalog_model("weapons/axe")
    assert (axe.damage_bonus(), axe.damage_bonus(fudge=True)) == (3, 3)
    longsword = catalog_model("weapons/longsword")
    assert longsword.fadad_bonus is None
    assert longsword.damage_bonus() == 3  # FUDGE +2 sharp
    gauntlet = catalog_model("weapons/gauntlet")
    assert gauntlet.damage_bonus(fudge=True) == 0
    assert Weapon(name="nothing").damage_bonus() == 0


def test_odm_uses_weapon_strength_for_crossbows() -> None:
    """A crossbow's own Strength replaces the wielder's and Scale is not added (A-19)."""
    ogre = Character.model_validate(
        {"model": "creatures/ogre", "name": "Grum", "weapon": "weapons/heavy-crossbow"}
    )
    assert ogre.odm() == 2 + 2  # Great crossbow + arrow value
    club = Character.model_validate({"model": "creatures/ogre", "name": "Grum"})
    assert club.odm() == 1 + 4 + 3  # Strength Good + Scale 4 + ogre club


def test_unarmed_is_a_punch() -> None:
    """No weapon: Strength + Scale - 1 (FADAD punch)."""
    assert Character(name="x", strength=1).odm() == 0


def test_defence_falls_back_to_attack_skill() -> None:
    """Without a defence skill the weapon parries with the attack skill; else Mediocre."""
    fencer = Character.model_validate({"name": "f", "skills": {"Rapier": "Great"},
                                       "attack_skill": "Rapier"})  # fmt: skip
    assert (fencer.attack, fencer.defence) == (2, 2)
    assert (Character(name="x").attack, Character(name="x").defence) == (-1, -1)


def test_mass_scale_defaults_to_scale() -> None:
    """Mass Scale is the Strength Scale unless given (used in the DDM)."""
    assert Character(name="x", scale=4).ddm == 4
    assert Character(name="x", scale=4, mass_scale=6).ddm == 6


def test_ship_weapon_rof_and_x() -> None:
    """RoF `1/3` reads as 3 rounds per shot; `X` is out of range."""
    w = ShipWeapon.model_validate(
        {"name": "w", "family": "bombard", "crew": 3, "reload_rounds": "1/3", "damage": 23,
         "range_mods": [-3, -1, "X"]}
    )  # fmt: skip
    assert (w.reload_rounds, w.range_mods, w.max_range) == (3, (-3, -1, None), 1)


def test_ship_mc_letter_maps_to_ladder() -> None:
    """FADAD MS table: A = Great ... F = Terrible; an explicit fadad_mc wins."""
    ship = catalog_model("ships/bastion-barge")
    assert isinstance(ship, Ship)
    assert ship.mc_level == -3
    assert ship.model_copy(update={"fadad_mc": 3}).mc_level == 3


def test_ex_shf_02_mass_scale_of_a_fifty_ton_ship() -> None:
    """EX-SHF-02 uses Mass Scale 17 for a 50-ton ship; the thorn frigate matches."""
    frigate = catalog_model("ships/thorn-frigate")
    assert (frigate.tons, frigate.mass_scale) == (50, 17)


def test_ex_sj_14_crews() -> None:
    """EX-SJ-14: pirates avg 1 HD max damage 8; marines avg 2 HD max damage 10."""
    pirates, marines = (
        catalog_model("crews/pirates"),
        catalog_model("crews/marines"),
    )
    assert isinstance(pirates, Crew)
    assert (pirates.hit_dice, pirates.max_damage) == (1, 8)
    assert (marines.hit_dice, marines.max_damage) == (2, 10)
    assert pirates.morale == 10
    assert catalog_model("crews/sailors").morale == 11  # SJ 18: typical seamen


def test_unit_entry() -> None:
    """A unit carries its head count, skill and morale trait."""
    unit = Unit.model_validate({"model": "units/veteran-infantry", "count": 150})
    assert (unit.count, unit.skill, unit.morale, unit.model) == (
        150,
        1,
        1,
        "units/veteran-infantry",
    )


def test_policy_shorthand() -> None:
    """A policy is a name, or a name with parameters."""
    assert PolicyRef.model_validate("nearest") == PolicyRef(name="nearest")
    ref = PolicyRef.model_validate({"name": "focus_fire", "params": {"k": 2}})
    assert ref.params == {"k": 2}
